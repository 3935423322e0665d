/*
 * lease_worker.c
 *		The lease worker: a background worker that takes the lowest free
 *		worker id from the lease store, renews it, and tells the generator
 *		(generator.c) which worker id it may use and until which millisecond.
 *
 * The rules (docs/leases.md):
 *	- A worker id is free when it has no row, or its row was released, or its
 *	  row expired by the store's clock.  Every acquisition writes a new
 *	  random fencing token into the row; the holder keeps a session-level advisory lock on
 *	  its id as a sign of life.  A live row is never taken over, whoever it
 *	  names: a restored backup, a promoted standby or a restarted server
 *	  (which has lost its token) gets another id or waits for the expiry.
 *	- The generator may issue IDs up to the "deadline": the store's expiry
 *	  minus uid.lease_safety_margin, converted to this server's clock at the
 *	  start of the round trip that set it.  The clocks must agree within
 *	  uid.lease_max_clock_skew, checked at every acquisition and renewal, so
 *	  a later holder (who starts only after the expiry, or after a clean
 *	  release and the released holder's last issued ms) cannot repeat an ID.
 *	- Tokens are random, and a renewal proves the token and the holder's
 *	  identity (system identifier, timeline, postmaster pid) recorded in the
 *	  row.  A renewal that does not find both revokes the worker id at once, and
 *	  the next step takes a free one.  A renewal never waits for a lock: if
 *	  its advisory lock went with a lost session and another session holds
 *	  it now, the row that still names us decides.
 *	- A remote store's acquisitions and renewals are acted on only once its
 *	  standbys have them (UidStoreWaitDurable): a write that a failover of
 *	  the store could lose never lets this server issue.  An acquisition not
 *	  yet confirmed is held (renewed, released at exit) but not granted.
 *	- A store connection that turns out not to be one server session (a
 *	  pooler in transaction mode) is refused for good: the grant is revoked
 *	  at once, and only uid_lease_acquire() tries the store again.
 *
 * The worker's own state is `me`; what backends see goes through the
 * UidLeasePublish* functions of lease.c.  Each cycle runs in a memory
 * context that is reset at the start of the next, so the worker's memory
 * stays flat however long it runs.
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xlog.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "compat.h"
#include "core/generator.h"
#include "lease/lease.h"
#include "lease/lease_failure.h"
#include "lease/lease_settings.h"
#include "lease/lease_store.h"
#include "lease/lease_worker.h"
#include "core/topology.h"
#include "ids.h"

/* The timeline this server writes WAL on. */
#define UidCurrentTimeLine() ((int) GetWALInsertionTimeLine())

UID_DECLARE_WAIT_EVENT(UidWaitLeaseWorkerMain, "UidLeaseWorkerMain")
UID_DECLARE_WAIT_EVENT(UidWaitLeasePreviousHolder, "UidLeasePreviousHolder")

/* the lease worker's own view of what it holds */
static struct
{
	bool		held;			/* the store's row carries our token */
	bool		granted;		/* the generator was granted it (confirmed) */
	int			worker_id;
	int64		token;
	int64		prev_last_issued_unix_ms;	/* the previous holder's, until granted */
	UidStoreHolder holder;		/* who we are, as our rows record it */
	bool		store_refused;	/* the store connection was found pooled */
	uint64		refused_request;	/* uid_lease_acquire() calls before that */
	int64		deadline_unix_ms;	/* grant deadline on our clock */
	int64		next_renew_unix_ms;
	bool		lock_held;		/* our session holds the id's advisory lock */
	bool		lock_warned;
	bool		expiry_logged;
	bool		pool_warned;
	char		last_logged_error[256];
	char		other_writer_warned[256];	/* UidLeaseWarnOtherWriter's last finding */
	int			taking;			/* the id being taken, while it is */
	bool		bad_id[UID_MAX_WORKER + 1]; /* rows that held values out of range */
	MemoryContext cycle_cxt;
} me;

PGDLLEXPORT void uid_lease_worker_main(Datum main_arg);

/* From _PG_init while shared_preload_libraries is processed. */
void
UidLeaseRegisterWorker(void)
{
	BackgroundWorker worker;
	const char *hint = NULL;
	const char *problem = UidLeaseConfigProblem(&hint);

	if (problem != NULL && !IsUnderPostmaster)
		ereport(WARNING, (errmsg("uid: %s", problem), errhint("%s", hint)));
	if (!UidLeaseWorkerMode() || IsBinaryUpgrade || problem != NULL)
		return;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = 1;
	strlcpy(worker.bgw_library_name, "uid", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "uid_lease_worker_main", BGW_MAXLEN);
	strlcpy(worker.bgw_name, "uid lease worker", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "uid lease worker", BGW_MAXLEN);
	RegisterBackgroundWorker(&worker);
}

/* ---------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------- */

/* At start and after a reload: warns of settings that cannot keep a lease safe. */
static void
UidLeaseCheckSettings(void)
{
	if ((int64) uid_lease_safety_margin_ms + uid_lease_renew_interval_ms >= (int64) uid_lease_ttl_s * 1000)
		ereport(WARNING,
				(errmsg("uid: uid.lease_safety_margin plus uid.lease_renew_interval is not below uid.lease_ttl"),
				 errdetail("A lease would stop issuing IDs before its first renewal.")));
	if (uid_lease_safety_margin_ms <= 2 * uid_lease_max_clock_skew_ms)
		ereport(WARNING,
				(errmsg("uid: uid.lease_safety_margin (%d ms) is not more than twice uid.lease_max_clock_skew (%d ms)",
						uid_lease_safety_margin_ms, uid_lease_max_clock_skew_ms),
				 errdetail("Two servers whose clocks differ by the largest skew accepted could then both issue IDs "
						   "with one worker id in the millisecond the lease changes hands."),
				 errhint("Raise uid.lease_safety_margin above %lld ms, or lower uid.lease_max_clock_skew.",
						 2 * (long long) uid_lease_max_clock_skew_ms)));
}

/* Raises ERROR if the store's clock is too far from ours. */
static void
UidLeaseCheckSkew(int64 local_before, int64 local_after, TimestampTz store_time)
{
	int64		store_now = UidTimestamptzToUnixMs(store_time);
	int64		skew = 0;

	if (store_now < local_before - uid_lease_max_clock_skew_ms)
		skew = store_now - local_before;
	else if (store_now > local_after + uid_lease_max_clock_skew_ms)
		skew = store_now - local_after;
	if (skew == 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 UidLeaseFailureContext(UID_FAIL_CLOCK_SKEW),
			 errmsg("this server's clock differs from the uid lease store's by %lld ms, more than uid.lease_max_clock_skew (%d ms)",
					(long long) -skew, uid_lease_max_clock_skew_ms)));
}

/*
 * The deadline on our clock from a store answer: the store's remaining
 * lifetime of the lease, counted from before the request was sent, less
 * the safety margin.
 */
static int64
UidLeaseDeadline(int64 local_before, TimestampTz store_now, TimestampTz store_expires)
{
	return local_before + (UidTimestamptzToUnixMs(store_expires) - UidTimestamptzToUnixMs(store_now))
		- uid_lease_safety_margin_ms;
}

/*
 * The pool's free count; warns once each time it crosses 80% use.  A
 * registered static id takes nothing from the pool: nothing to count.
 */
static void
UidLeaseNotePool(int used)
{
	int			pool = uid_lease_pool_size;

	if (UidLeaseRegistersStatic())
		return;
	UidLeasePublishPool(pool, Max(pool - used, 0));
	if (used * 5 > pool * 4)
	{
		if (!me.pool_warned)
			ereport(WARNING,
					(errmsg("uid: %d of the %d worker ids of the lease pool are leased", used, pool),
					 errhint("When none is free, a starting server cannot issue IDs. "
							 "Check for stale servers in the lease table, or raise uid.lease_pool_size.")));
		me.pool_warned = true;
	}
	else
		me.pool_warned = false;
}

/* ---------------------------------------------------------------------------
 * Store operations.  Each raises ERROR on failure; see UidLeaseTry.
 * ------------------------------------------------------------------------- */

/*
 * Opens the store.  If uid.lease_conninfo turns out to name this very
 * server, a release at shutdown would race with the shutdown of its own
 * store session: note it and restart, to use that database in-process.
 */
static bool
UidLeaseOpenStore(void)
{
	UidStoreSession session = {0};

	UidStoreOpen(&session);
	if (session.is_this_server)
	{
		UidLeaseNoteStoreIsSelf(session.database, session.role);
		ereport(LOG,
				(errmsg("uid: uid.lease_conninfo points at this server (database \"%s\", role \"%s\"); "
						"the lease worker restarts to use it in-process",
						session.database, session.role)));
		proc_exit(1);
	}
	return session.new_session;
}

/* Publishes a held, confirmed lease to the generator and the status. */
static void
UidLeaseGrant(TimestampTz store_now, TimestampTz store_expires, bool renewal)
{
	UidGeneratorGrant(me.worker_id, me.deadline_unix_ms - UID_EPOCH_MS);
	UidLeasePublishGrant(store_now, store_expires, me.deadline_unix_ms, renewal);
	me.expiry_logged = false;
	me.last_logged_error[0] = '\0';
}

/* Who this server is, for its row in the lease table. */
static void
UidLeaseReadHolder(UidStoreHolder *holder)
{
	memset(holder, 0, sizeof(UidStoreHolder));
	if (gethostname(holder->host, sizeof(holder->host)) != 0)
		strlcpy(holder->host, "unknown", sizeof(holder->host));
	holder->host[sizeof(holder->host) - 1] = '\0';
	holder->system_identifier = GetSystemIdentifier();
	(void) RecoveryInProgress();	/* before 15, this sets ThisTimeLineID */
	holder->timeline = UidCurrentTimeLine();
	holder->port = PostPortNumber;
	holder->pid = (int) PostmasterPid;
}

/*
 * A row whose values are out of range (a last issued time no holder could
 * have had): its id is skipped for the worker's life, with a warning.
 */
static void
UidLeaseSkipId(int worker_id, const char *why)
{
	if (me.bad_id[worker_id])
		return;
	me.bad_id[worker_id] = true;
	ereport(WARNING,
			(errmsg("uid: skipping worker id %d: its row in the lease store holds a value out of range",
					worker_id),
			 errdetail("%s", why),
			 errhint("Correct or delete the row, then restart the server to use the id again.")));
}

/*
 * Takes the lowest free id it can: its row is updated under the row lock,
 * which alone decides between concurrent acquirers; the advisory lock is
 * taken if free, never waited for.  Returns the id, or -1 if none is free.
 * A lease takes one of the pool; a registered static id is its own id or
 * nothing, so that a live registration or lease of it elsewhere keeps it.
 */
static int
UidLeaseTakeFreeId(TimestampTz store_now, UidStoreLease *taken, int64 *before, int64 *after)
{
	UidStoreFreeId ids[UID_STORE_MAX_CANDIDATES] = {{0}};
	bool		registers = UidLeaseRegistersStatic();
	int			n = UidStoreFreeIds(registers ? UidGeneratorStaticWorkerId() : 0,
									registers ? UidGeneratorStaticWorkerId() : uid_lease_pool_size - 1,
									ids, lengthof(ids));
	int64		last_max = UidStoreLastIssuedMax(store_now);

	for (int i = 0; i < n; i++)
	{
		int			id = ids[i].worker_id;

		if (ids[i].last_issued_unix_ms > last_max)
			UidLeaseSkipId(id, psprintf("last_issued_ms = %lld, more than %lld ms after the store's clock",
										(long long) ids[i].last_issued_unix_ms,
										(long long) (last_max - UidTimestamptzToUnixMs(store_now))));
		if (me.bad_id[id])
			continue;
		me.lock_held = UidStoreTryLock(id);
		UidStoreCheckSessionLocks(me.lock_held ? id : -1);
		me.taking = id;
		*before = UidClockNowUnixMs();
		UidStoreTake(id, &me.holder, taken);
		*after = UidClockNowUnixMs();
		me.taking = -1;
		if (taken->found)
			return id;
		if (me.lock_held)
			UidStoreUnlock(id);
		me.lock_held = false;
	}
	return -1;
}

/*
 * Waits until our clock has passed the previous holder's last issued ms (by
 * at most the clock skew, unless the previous holder's clock ran ahead;
 * uid_next() waits meanwhile), then raises the floor to it, so that even a
 * clock that now steps back cannot go below it.  In this order, uid_next()
 * never sees a floor ahead of the clock (UID01).  False if shutting down.
 */
static bool
UidLeasePassPreviousHolder(int64 prev_last_unix_ms)
{
	while (UidClockNowUnixMs() <= prev_last_unix_ms && !ShutdownRequestPending)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(prev_last_unix_ms - UidClockNowUnixMs() + 1, 100),
						 UidWaitLeasePreviousHolder());
		ResetLatch(MyLatch);
	}
	if (ShutdownRequestPending)
		return false;
	if (prev_last_unix_ms > UID_EPOCH_MS)
		UidGeneratorRaiseFloor(prev_last_unix_ms - UID_EPOCH_MS);
	return true;
}

/*
 * Acts on a confirmed lease write (an acquisition, or a renewal), whose
 * statement was sent at local_before: the deadline moves; the first time,
 * once this server's clock has passed the previous holder's last issued
 * time, the worker id is granted to the generator.
 */
static void
UidLeaseActOn(int64 local_before, TimestampTz store_now, TimestampTz store_expires, bool renewal)
{
	me.deadline_unix_ms = UidLeaseDeadline(local_before, store_now, store_expires);
	if (me.granted)
	{
		UidLeaseGrant(store_now, store_expires, renewal);
		return;
	}
	UidLeasePublishState(UID_LEASE_WAITING);	/* confirmed: no longer "unconfirmed" */
	if (!UidLeasePassPreviousHolder(me.prev_last_issued_unix_ms))
		return;
	me.granted = true;
	UidLeaseGrant(store_now, store_expires, false);
	ereport(LOG,
			(errmsg(UidLeaseRegistersStatic() ?
					"uid: registered static worker id %d (fencing token %lld) in the lease store" :
					"uid: acquired worker id %d (fencing token %lld) from the lease store",
					me.worker_id, (long long) me.token),
			 errdetail("IDs are issued after the previous holder's last issued time (%lld ms since 1970), until %d ms before the lease expires unless it is renewed.",
					   (long long) me.prev_last_issued_unix_ms, uid_lease_safety_margin_ms)));
}

/*
 * A local lease table on a server that applies another writer's changes:
 * right only if the other writers lease from this very table (their
 * uid.lease_conninfo names this server); with lease tables of their own
 * they take the same ids.  Warns once per change of what is found.
 */
static void
UidLeaseWarnOtherWriter(void)
{
	char	   *writer = UidStoreRemote() ? NULL : UidOtherWriter();

	if (writer == NULL)
	{
		me.other_writer_warned[0] = '\0';
		return;
	}
	if (strcmp(me.other_writer_warned, writer) == 0)
		return;
	strlcpy(me.other_writer_warned, writer, sizeof(me.other_writer_warned));
	ereport(WARNING,
			(errmsg("uid: %s, and the lease table is on this server", writer),
			 errdetail("Unless every other writer leases from this table (its uid.lease_conninfo names this server), "
					   "each takes worker ids from a lease table of its own, and two writers issue the same IDs."),
			 errhint("Point uid.lease_conninfo of every node at one shared lease store, or give each node its own uid.worker_id.")));
}

/*
 * Takes a free worker id: checks the clocks, takes the lowest free id, and
 * once the store's standbys have the acquisition, acts on it.
 */
static void
UidLeaseAcquire(void)
{
	UidStoreLease taken = {0};
	int64		before = 0;
	int64		after = 0;
	int			chosen = -1;
	int			leased = 0;
	TimestampTz store_now = 0;

	(void) UidLeaseOpenStore();
	UidStoreBegin();
	UidStoreCheckUnreplicated();
	UidLeaseWarnOtherWriter();
	before = UidClockNowUnixMs();
	store_now = UidStoreClock();
	UidLeaseCheckSkew(before, UidClockNowUnixMs(), store_now);
	chosen = UidLeaseTakeFreeId(store_now, &taken, &before, &after);
	if (chosen < 0 && UidLeaseRegistersStatic())
	{
		char	   *holder = UidStoreDescribeHolder(UidGeneratorStaticWorkerId());
		/* logged once per holder: its expiry, at the end, moves at each renewal */
		char	   *until = strstr(holder, ", until ");
		char	   *who = until ? pnstrdup(holder, until - holder) : holder;

		UidStoreCommit();
		if (strncmp(me.last_logged_error, who, sizeof(me.last_logged_error) - 1) != 0)
			ereport(WARNING,
					(errmsg("uid: static worker id %d is held in the lease store by another server: %s",
							UidGeneratorStaticWorkerId(), holder),
					 errdetail("uid_next() issues no ID on this server until it has registered worker id %d.",
							   UidGeneratorStaticWorkerId()),
					 errhint("Give this server a worker id of its own, or stop the other holder; "
							 "the lease worker tries again every %d ms.", uid_lease_renew_interval_ms)));
		strlcpy(me.last_logged_error, who, sizeof(me.last_logged_error));
		UidLeasePublishHeldElsewhere(UidGeneratorStaticWorkerId(), holder);
		return;
	}
	if (chosen < 0)
	{
		UidStoreCommit();
		UidLeaseNotePool(uid_lease_pool_size);
		UidLeasePublishFailure(UID_FAIL_NONE,
							   psprintf("all %d worker ids of the lease pool are leased", uid_lease_pool_size),
							   false, UID_LEASE_NO_FREE_ID);
		return;
	}
	UidLeaseCheckSkew(before, after, taken.store_now);
	leased = UidStoreCountLeased(uid_lease_pool_size);
	UidStoreCommit();

	/* From here on the store says we hold it: release it when we go. */
	me.held = true;
	me.granted = false;
	me.worker_id = chosen;
	me.token = taken.token;
	me.lock_warned = false;
	me.prev_last_issued_unix_ms = taken.prev_last_issued_unix_ms;
	me.next_renew_unix_ms = before + uid_lease_renew_interval_ms;
	UidLeasePublishAcquired(chosen, me.token, taken.acquired_at, taken.expires_at,
							!UidStoreRemote() || !uid_lease_wait_for_standbys);
	UidLeaseNotePool(leased);

	UidStoreWaitDurable();
	UidLeaseActOn(before, taken.store_now, taken.expires_at, false);
}

/* The lease is no longer ours in the store: stop at once. */
static void
UidLeaseLost(void)
{
	(void) UidGeneratorRevoke();
	me.held = false;
	me.granted = false;
	UidLeasePublishLost(me.worker_id);
	ereport(WARNING,
			(errmsg("uid: lost the lease on worker id %d: its row in the lease store no longer holds fencing token %lld for this server",
					me.worker_id, (long long) me.token),
			 errdetail("uid_next() stopped issuing IDs with this worker id at once."),
			 errhint(UidLeaseRegistersStatic() ?
					 "The lease worker registers the static worker id again once no other server holds it." :
					 "The lease worker will take another free worker id.")));
}

/*
 * After a new store session (or while another session holds it), try to
 * take our id's advisory lock again; never wait for it.
 */
static void
UidLeaseRetakeLock(void)
{
	if (me.lock_held)
		return;
	me.lock_held = UidStoreTryLock(me.worker_id);
	if (!me.lock_held && !me.lock_warned)
		ereport(LOG,
				(errmsg("uid: another session holds the advisory lock on worker id %d in the lease store; "
						"the lease is renewed while its row names this server with its fencing token", me.worker_id)));
	me.lock_warned = !me.lock_held;
}

/*
 * Extends the lease if the store still holds our token (a new session
 * first tries to take the id's advisory lock again); otherwise the lease
 * is lost.
 */
static void
UidLeaseRenew(void)
{
	UidStoreLease renewed = {0};
	int64		before = 0;
	int64		after = 0;
	int64		last = UidStateMs(UidGeneratorLastState()) + UID_EPOCH_MS;
	int			failures = 0;

	if (UidLeaseOpenStore())
		me.lock_held = false;	/* the old session's locks went with it */
	UidStoreBegin();
	UidStoreCheckUnreplicated();
	UidLeaseRetakeLock();
	UidStoreCheckSessionLocks(me.lock_held ? me.worker_id : -1);
	before = UidClockNowUnixMs();
	UidStoreRenew(me.worker_id, me.token, &me.holder, last, uid_lease_pool_size, &renewed);
	after = UidClockNowUnixMs();
	if (!renewed.found)
	{
		if (me.lock_held)
			UidStoreUnlock(me.worker_id);
		me.lock_held = false;
		UidStoreCommit();
		UidLeaseLost();
		return;
	}
	/* a clock that drifted away: do not extend the deadline (rolls back) */
	UidLeaseCheckSkew(before, after, renewed.store_now);
	UidStoreCommit();
	me.next_renew_unix_ms = before + uid_lease_renew_interval_ms;
	UidStoreWaitDurable();

	failures = UidLeaseConsecutiveFailures();
	if (failures > 0 && me.granted)
		ereport(LOG,
				(errmsg("uid: renewed the lease on worker id %d after %d failed attempts",
						me.worker_id, failures)));
	UidLeaseActOn(before, renewed.store_now, renewed.expires_at, true);
	UidLeaseNotePool(renewed.leased);
	if (renewed.tenures >= 0)
		UidLeasePublishLedger(renewed.tenures, renewed.tenure_overlaps);
}

/*
 * Gives the lease back: stop the generator, then record the bound of what
 * it issued and mark the row released, so that the id is free at once and
 * the next holder starts after our last ID.
 */
static void
UidLeaseRelease(void)
{
	int64		last_unix_ms = UidGeneratorRevoke() + UID_EPOCH_MS;

	/* whatever happens below, we no longer hold it (see UidLeaseTry) */
	me.held = false;
	me.granted = false;
	(void) UidLeaseOpenStore();
	UidStoreBegin();
	UidStoreRelease(me.worker_id, me.token, &me.holder, last_unix_ms);
	if (me.lock_held)
		UidStoreUnlock(me.worker_id);
	me.lock_held = false;
	UidStoreCommit();
	ereport(LOG,
			(errmsg("uid: released worker id %d (fencing token %lld); last issued time %lld ms since 1970",
					me.worker_id, (long long) me.token, (long long) last_unix_ms)));
}

/*
 * A store connection that is not one server session: stop issuing at once
 * (our advisory lock proves nothing there) and use the store no more,
 * until uid_lease_acquire() asks again.  The row expires by itself.
 */
static void
UidLeaseRefusePooledStore(ErrorData *edata, uint64 request)
{
	if (me.held)
		(void) UidGeneratorRevoke();
	me.held = false;
	me.granted = false;
	me.store_refused = true;
	me.refused_request = request;
	UidStoreClose();
	ereport(WARNING,
			(errmsg("uid: refusing the lease store: %s", edata->message),
			 edata->hint ? errhint("%s", edata->hint) : 0,
			 errdetail("uid_next() stopped issuing IDs; the lease worker tries the store again after uid_lease_acquire() or a restart.")));
	UidLeasePublishFailure(UID_FAIL_POOLED, edata->message, false, UID_LEASE_STORE_POOLED);
}

/*
 * A local lease table that logical replication copies or writes into:
 * stop issuing at once and write nothing more to it (a write would be
 * copied over another server's row); the row expires by itself.  Each
 * step tries again, so a publication changed to leave the table out is
 * taken up without a restart.
 */
static void
UidLeaseRefuseReplicated(ErrorData *edata)
{
	if (me.held)
		(void) UidGeneratorRevoke();
	me.held = false;
	me.granted = false;
	LockReleaseSession(USER_LOCKMETHOD);
	me.lock_held = false;
	if (strncmp(me.last_logged_error, edata->message, sizeof(me.last_logged_error) - 1) != 0)
		ereport(WARNING,
				(errmsg("uid: refusing the lease table: %s", edata->message),
				 errdetail("uid_next() issues no ID with a lease from it; the lease worker checks again every %d ms.",
						   uid_lease_renew_interval_ms),
				 edata->hint ? errhint("%s", edata->hint) : 0));
	strlcpy(me.last_logged_error, edata->message, sizeof(me.last_logged_error));
	UidLeasePublishFailure(UID_FAIL_REPLICATED, edata->message, false, UID_LEASE_CONFIG_ERROR);
}

/*
 * The hint for a failure to reach the store's primary: a store that failed
 * over is found only if the connection string names every member.
 */
static const char *
UidLeaseStoreErrorHint(ErrorData *edata, UidLeaseFailure kind)
{
	if (edata->sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION || kind == UID_FAIL_CONNECT)
		return "If the lease store failed over, this address may no longer reach its primary (a standby is read-only). "
			"To follow the store's primary, name every member of the store in uid.lease_conninfo "
			"(host=a,b,c) with target_session_attrs=read-write, or an address that always reaches the primary. "
			"(A primary whose lease role has default_transaction_read_only = on is refused too: "
			"unset it for that role, or add target_session_attrs=any.)";
	return edata->hint;
}

/* Records a failed operation: logs each different error once, publishes it. */
static void
UidLeaseNoteFailure(ErrorData *edata, uint64 request)
{
	UidLeaseFailure kind = UidLeaseFailureOf(edata);
	const char *message = edata->message ? edata->message : "unknown error";
	const char *hint = UidLeaseStoreErrorHint(edata, kind);
	bool		usable = me.held && me.granted;

	if (kind == UID_FAIL_POOLED)
	{
		UidLeaseRefusePooledStore(edata, request);
		return;
	}
	if (kind == UID_FAIL_REPLICATED)
	{
		UidLeaseRefuseReplicated(edata);
		return;
	}
	if (kind == UID_FAIL_VALUE && me.taking >= 0)
		UidLeaseSkipId(me.taking, message);
	if (ShutdownRequestPending && edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
		return;					/* a wait cut short by the shutdown */
	if (strncmp(me.last_logged_error, message, sizeof(me.last_logged_error) - 1) != 0)
		ereport(LOG,
				(errmsg("uid: lease store operation failed: %s", message),
				 hint ? errhint("%s", hint) : 0,
				 usable ? errdetail("Worker id %d stays usable until %d ms before its lease expires; the worker retries every %d ms.",
									me.worker_id, uid_lease_safety_margin_ms,
									uid_lease_renew_interval_ms) : 0));
	strlcpy(me.last_logged_error, message, sizeof(me.last_logged_error));
	UidLeasePublishFailure(kind, message, usable,
						   me.held ? UID_LEASE_UNCONFIRMED :
						   kind == UID_FAIL_CLOCK_SKEW ? UID_LEASE_CLOCK_SKEW : UID_LEASE_STORE_ERROR);
}

/*
 * Runs one store operation; on ERROR, cleans up, records the failure and
 * returns false.  The worker never exits for a store problem.
 */
static bool
UidLeaseTry(void (*operation) (void), uint64 request)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile bool ok = true;

	me.taking = -1;
	PG_TRY();
	{
		operation();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		UidStoreAbortAfterError();
		MemoryContextSwitchTo(cxt);
		if (UidStoreRemote())
			me.lock_held = false;	/* the session is gone */
		else if (!me.held)
		{
			/* a failed acquisition may have left a session lock behind */
			LockReleaseSession(USER_LOCKMETHOD);
			me.lock_held = false;
		}
		UidLeaseNoteFailure(edata, request);
		FreeErrorData(edata);
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/* ---------------------------------------------------------------------------
 * The loop
 * ------------------------------------------------------------------------- */

/* before_shmem_exit: whatever the reason, stop issuing with our worker id. */
static void
UidLeaseWorkerExit(int code, Datum arg)
{
	if (me.held)
		(void) UidGeneratorRevoke();
	UidStoreClose();
	UidLeaseWorkerDetach();
}

/*
 * A held lease: renew when due (a lease not yet confirmed is granted by the
 * first confirmed renewal), stop at the deadline; returns ms to sleep.
 */
static long
UidLeaseStepHeld(uint64 request)
{
	int64		now = UidClockNowUnixMs();

	if (now >= me.next_renew_unix_ms)
	{
		if (!UidLeaseTry(UidLeaseRenew, request))
			me.next_renew_unix_ms = now + uid_lease_renew_interval_ms;
		if (!me.held)
			return uid_lease_renew_interval_ms;
		now = UidClockNowUnixMs();
	}
	if (!me.granted)
		return Max(me.next_renew_unix_ms - now, 1);
	if (now > me.deadline_unix_ms)
	{
		UidLeasePublishState(UID_LEASE_EXPIRED);
		if (!me.expiry_logged)
			ereport(WARNING,
					(errmsg("uid: the lease on worker id %d could not be renewed; uid_next() has stopped %d ms before its expiry",
							me.worker_id, uid_lease_safety_margin_ms),
					 errhint("Check the lease store; IDs are issued again once a renewal succeeds.")));
		me.expiry_logged = true;
		return Max(me.next_renew_unix_ms - now, 1);
	}
	return Max(Min(me.next_renew_unix_ms, me.deadline_unix_ms + 1) - now, 1);
}

/* One pass: acquire, renew or release as needed; returns ms to sleep. */
static long
UidLeaseStep(void)
{
	uint64		request = 0;
	long		sleep_ms = uid_lease_renew_interval_ms;

	if (UidLeaseTakeRequest(&request))
	{
		if (me.held)
			(void) UidLeaseTry(UidLeaseRelease, request);
		me.held = false;
		UidLeasePublishReleased(UID_LEASE_RELEASED);
	}
	else if (me.store_refused && request == me.refused_request)
		sleep_ms = uid_lease_renew_interval_ms; /* nothing until uid_lease_acquire() */
	else if (!me.held)
	{
		me.store_refused = false;
		(void) UidLeaseTry(UidLeaseAcquire, request);
	}
	else
		sleep_ms = UidLeaseStepHeld(request);
	UidLeaseRequestDone(request);
	return sleep_ms;
}

/*
 * Connects to the store's database if it is in this server; returns whether
 * the store is remote, and says which it is in *store.
 */
static bool
UidLeaseConnectLocal(char **store)
{
	char		database[NAMEDATALEN];
	char		role[NAMEDATALEN];

	if (UidLeaseStoreIsSelf(database, role))
	{
		BackgroundWorkerInitializeConnection(database, role, 0);
		*store = psprintf("database \"%s\" of this server, as role \"%s\" (uid.lease_conninfo)",
						  database, role);
		return false;
	}
	if (uid_lease_conninfo[0] != '\0')
	{
		/*
		 * No database, as the logical replication launcher: the worker is
		 * then in pg_stat_activity, and pg_terminate_backend(),
		 * pg_cancel_backend() and pg_log_backend_memory_contexts() reach it.
		 */
		BackgroundWorkerInitializeConnection(NULL, NULL, 0);
		*store = "uid.lease_conninfo";
		return true;
	}
	BackgroundWorkerInitializeConnection(uid_lease_database, NULL, 0);
	*store = psprintf("database \"%s\" of this server", uid_lease_database);
	return false;
}

/*
 * Steps until a shutdown request: each in the cycle context, reset first,
 * then sleeps on the latch until the next step is due.
 */
static void
UidLeaseWorkerLoop(void)
{
	for (;;)
	{
		MemoryContext oldcxt;
		long		timeout;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			UidLeaseCheckSettings();
		}
		if (ShutdownRequestPending)
			return;

		MemoryContextReset(me.cycle_cxt);
		oldcxt = MemoryContextSwitchTo(me.cycle_cxt);
		pgstat_report_activity(STATE_RUNNING, "uid lease step");
		timeout = UidLeaseStep();
		pgstat_report_activity(STATE_IDLE, NULL);
		MemoryContextSwitchTo(oldcxt);
		if (ShutdownRequestPending)
			return;

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 timeout, UidWaitLeaseWorkerMain());
		ResetLatch(MyLatch);
	}
}

/* Clean shutdown: give the id back, so that it is free at once. */
static void
UidLeaseReleaseAtExit(void)
{
	if (!me.held)
		return;
	MemoryContextReset(me.cycle_cxt);
	MemoryContextSwitchTo(me.cycle_cxt);
	UidStoreFinalRelease();
	(void) UidLeaseTry(UidLeaseRelease, 0);
	UidLeasePublishReleased(UID_LEASE_STOPPED);
}

/* The lease worker's entry point (bgw_function_name). */
void
uid_lease_worker_main(Datum main_arg)
{
	char	   *store = NULL;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	memset(&me, 0, sizeof(me));
	me.taking = -1;
	before_shmem_exit(UidLeaseWorkerExit, (Datum) 0);

	UidStoreInit(UidLeaseConnectLocal(&store));
	me.cycle_cxt = AllocSetContextCreate(TopMemoryContext, "uid lease worker cycle",
										 ALLOCSET_DEFAULT_SIZES);
	UidLeaseWorkerAttach();
	UidLeaseReadHolder(&me.holder);
	/* a restarted worker's advisory lock went with its old session */
	me.held = UidLeaseResumeHeld(&me.worker_id, &me.token);
	me.granted = me.held;

	UidLeaseCheckSettings();
	ereport(LOG, (errmsg("uid lease worker started; lease store: %s", store)));

	UidLeaseWorkerLoop();
	UidLeaseReleaseAtExit();

	/*
	 * Exit code 1, so that the postmaster starts the worker again unless the
	 * server is shutting down (pg_terminate_backend() on the lease worker
	 * must not leave the server without a worker id for good).
	 */
	proc_exit(1);
}
