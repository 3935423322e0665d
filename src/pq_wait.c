/*
 * pq_wait.c
 *		libpq without blocking: a wait for a connection's socket that also
 *		wakes on the latch and ends at a deadline, and the PQconnectPoll()
 *		loop that makes a connection with it (as PostgreSQL's walreceiver
 *		and dblink wait).  Nothing here raises an error: each function says
 *		what happened, and its caller decides, since the lease worker turns a
 *		timeout into an ERROR and the primary watch into a failed question.
 *		What the latch means (interrupts, a shutdown request) is the caller's
 *		check.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/latch.h"

#include "pq_wait.h"

/*
 * Waits until conn's socket is ready for socket_event (WL_SOCKET_READABLE
 * or WL_SOCKET_WRITEABLE), the deadline passes, or check, called whenever
 * the latch is set, asks to stop.  The postmaster's death ends the process.
 */
UidPqWaitResult
UidPqWait(PGconn *conn, int socket_event, TimestampTz deadline, uint32 wait_event,
		  UidPqLatchCheck check, void *arg)
{
	for (;;)
	{
		long		left_ms = (long) ((deadline - GetCurrentTimestamp()) / 1000);
		int			rc;

		if (left_ms <= 0)
			return UID_PQ_TIMEOUT;
		rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH | socket_event,
							   PQsocket(conn), left_ms, wait_event);
		if (rc & WL_LATCH_SET)
		{
			ResetLatch(MyLatch);
			if (check(arg))
				return UID_PQ_STOPPED;
		}
		if (rc & socket_event)
			return UID_PQ_READY;
	}
}

/*
 * Polls a connection started with PQconnectStartParams() until it is made
 * (UID_PQ_READY), fails, the deadline passes or check stops it.  A
 * connection that failed at once (NULL, or no socket) is UID_PQ_FAILED.
 */
UidPqWaitResult
UidPqConnectPoll(PGconn *conn, TimestampTz deadline, uint32 wait_event,
				 UidPqLatchCheck check, void *arg)
{
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;

	if (conn == NULL || PQstatus(conn) == CONNECTION_BAD)
		return UID_PQ_FAILED;
	for (;;)
	{
		UidPqWaitResult r;

		if (status == PGRES_POLLING_OK)
			return PQstatus(conn) == CONNECTION_OK ? UID_PQ_READY : UID_PQ_FAILED;
		if (status == PGRES_POLLING_FAILED || PQsocket(conn) < 0)
			return UID_PQ_FAILED;
		r = UidPqWait(conn, status == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE,
					  deadline, wait_event, check, arg);
		if (r != UID_PQ_READY)
			return r;
		status = PQconnectPoll(conn);
	}
}
