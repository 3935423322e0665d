/*
 * pq_wait.h
 *		libpq without blocking (pq_wait.c): waiting for a connection's socket
 *		on the latch, and making a connection, with a deadline.  The lease
 *		worker's store session (lease_conn.c, which raises errors) and the
 *		primary watch (primary_watch.c, which must not) share it.
 */
#ifndef UID_PQ_WAIT_H
#define UID_PQ_WAIT_H

#include "libpq-fe.h"
#include "utils/timestamp.h"

typedef enum UidPqWaitResult
{
	UID_PQ_READY,				/* the socket is ready; the connection is made */
	UID_PQ_TIMEOUT,				/* the deadline passed */
	UID_PQ_FAILED,				/* libpq failed: PQerrorMessage() says why */
	UID_PQ_STOPPED				/* the caller's check asked to stop */
} UidPqWaitResult;

/*
 * Called each time the latch was set (and reset) during a wait: serves
 * what the caller must serve (interrupts, a shutdown request) and returns
 * true to end the wait with UID_PQ_STOPPED.  It may raise an ERROR.
 */
typedef bool (*UidPqLatchCheck) (void *arg);

extern UidPqWaitResult UidPqWait(PGconn *conn, int socket_event, TimestampTz deadline,
								 uint32 wait_event, UidPqLatchCheck check, void *arg);
extern UidPqWaitResult UidPqConnectPoll(PGconn *conn, TimestampTz deadline, uint32 wait_event,
										UidPqLatchCheck check, void *arg);

#endif							/* UID_PQ_WAIT_H */
