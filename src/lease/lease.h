/*
 * lease.h
 *		The lease subsystem (uid.worker_id = 'lease'): lease.c's interface,
 *		the lease's shared state as backends see it.  The subsystem is split
 *		by process and protocol, each file with a header of its name; who
 *		calls whom, the states and the invariants: README.md in this folder;
 *		the protocol and its threat model: docs/leases.md.
 */
#ifndef UID_LEASE_H
#define UID_LEASE_H

#include "postgres.h"

#include "utils/timestamp.h"

#include "lease/lease_failure.h"

/* ---- for _PG_init ---- */

extern Size UidLeaseShmemSize(void);
extern void UidLeaseShmemInit(void);
extern void UidLeaseAwaitWorkerId(bool *waited);

/* ---- the lease's state, as uid_lease_status() shows it ---- */

typedef enum UidLeaseState
{
	UID_LEASE_STATIC,			/* uid.worker_id is a number: no lease */
	UID_LEASE_STARTING,			/* worker not yet through its first attempt */
	UID_LEASE_WAITING,			/* acquired; waiting to pass the previous holder's time */
	UID_LEASE_HELD,				/* generating */
	UID_LEASE_FAILING,			/* generating; the last renewal failed */
	UID_LEASE_EXPIRED,			/* renewals failed until the margin: stopped */
	UID_LEASE_LOST,				/* another fencing token in the store: stopped */
	UID_LEASE_NO_FREE_ID,		/* every id of the pool is leased */
	UID_LEASE_CLOCK_SKEW,		/* clock differs from the store's too much */
	UID_LEASE_STORE_ERROR,		/* could not acquire: store unreachable or failing */
	UID_LEASE_RELEASED,			/* uid_lease_release() */
	UID_LEASE_STOPPED,			/* the worker is not running */
	UID_LEASE_CONFIG_ERROR,		/* the settings cannot work: no ids at all */
	UID_LEASE_UNCONFIRMED,		/* acquired; the store's standbys have not confirmed it */
	UID_LEASE_STORE_POOLED,		/* the store connection is not one server session: refused */
	UID_LEASE_HELD_ELSEWHERE	/* registered static id: another live server holds it */
} UidLeaseState;

/* ---- lease.c: the worker publishes through these (each wakes waiters) ---- */

extern void UidLeaseWorkerAttach(void);
extern void UidLeaseWorkerDetach(void);
extern bool UidLeaseResumeHeld(int *worker_id, int64 *token);
extern void UidLeasePublishState(UidLeaseState state);
extern void UidLeasePublishFailure(UidLeaseFailure kind, const char *error,
								   bool held, UidLeaseState unheld_state);
extern void UidLeasePublishAcquired(int worker_id, int64 token, TimestampTz acquired_at,
									TimestampTz expires_at, bool confirmed);
extern void UidLeasePublishGrant(TimestampTz renewed_at, TimestampTz expires_at,
								 int64 deadline_unix_ms, bool renewal);
extern void UidLeasePublishLost(int worker_id);
extern void UidLeasePublishHeldElsewhere(int worker_id, const char *holder);
extern void UidLeasePublishReleased(UidLeaseState state);
extern void UidLeasePublishPool(int pool_size, int free_ids);
extern void UidLeasePublishLedger(int64 tenures, int64 overlaps);
extern int	UidLeaseConsecutiveFailures(void);
extern bool UidLeaseTakeRequest(uint64 *request);
extern void UidLeaseRequestDone(uint64 request);
extern bool UidLeaseStoreIsSelf(char *database, char *role);
extern void UidLeaseNoteStoreIsSelf(const char *database, const char *role);

#endif							/* UID_LEASE_H */
