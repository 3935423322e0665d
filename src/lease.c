/*
 * lease.c
 *		Worker ids from a lease table: with uid.worker_id = 'lease', a
 *		background worker takes the lowest free worker id from the lease
 *		store, renews it, and tells the generator (generator.c) which worker
 *		id it may use and until which millisecond.
 *
 * The rules (README "Leases"; doc-drafts/lease.md):
 *	- A worker id is free when it has no row, or its row was released, or its
 *	  row expired by the store's clock.  Acquirers are serialised with a
 *	  transaction-level advisory lock; the holder keeps a session-level
 *	  advisory lock on its id in the store; every acquisition increments the
 *	  row's fencing token.  A live row is never taken over, whoever it names:
 *	  a restored backup, a promoted standby or a restarted server (which has
 *	  lost its token) gets another id or waits for the expiry.
 *	- The generator may issue IDs up to the "deadline": the store's expiry
 *	  minus uid.lease_safety_margin, converted to this server's clock at the
 *	  start of the round trip that set it.  The clocks must agree within
 *	  uid.lease_max_clock_skew, checked at every acquisition and renewal, so a
 *	  later holder (who starts only after the expiry, or after a clean release
 *	  and the released holder's last issued ms) cannot repeat an ID.
 *	- A renewal that finds another token revokes the worker id at once.
 *
 * Shared state and its guards:
 *	UidLeaseShared	everything, under its spinlock `mutex`: written by the
 *					lease worker (status, held lease) and by uid_lease_release()
 *					/ uid_lease_acquire() (release_requested only); read by
 *					uid_lease_status() and by the error path of uid_next().
 *	The hot path of uid_next() never reads this struct: it reads the grant
 *	word in generator.c.
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "lease.h"

/* The timeline this server writes WAL on (15 made it a function). */
#if PG_VERSION_NUM >= 150000
#define UidCurrentTimeLine() ((int) GetWALInsertionTimeLine())
#else
#define UidCurrentTimeLine() ((int) ThisTimeLineID)
#endif

/* Second key of the advisory lock that serialises acquirers (ids are 0..1023). */
#define UID_LEASE_ACQUIRE_LOCK	"1024"
/* How many free ids one acquisition looks at (others may be locked). */
#define UID_LEASE_CANDIDATES	64

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
	UID_LEASE_STOPPED			/* the worker is not running */
} UidLeaseState;

static const char *const UidLeaseStateNames[] = {
	"static", "starting", "waiting", "held", "renewal_failing", "expired",
	"lost", "no_free_id", "clock_skew", "store_error", "released", "stopped"
};

typedef struct UidLeaseShared
{
	slock_t		mutex;
	UidLeaseState state;
	bool		held;			/* a row in the store carries our token */
	int			worker_id;		/* of the held (or last held) lease, else -1 */
	int64		token;
	TimestampTz acquired_at;	/* store clock */
	TimestampTz renewed_at;		/* store clock, last successful renewal */
	TimestampTz expires_at;		/* store clock */
	TimestampTz generate_until; /* this server's clock: the grant's deadline */
	int64		renewals;
	int64		renewal_failures;
	int			consecutive_failures;
	int64		losses;
	int			pool_size;
	int			free_ids;		/* as of the last acquisition or renewal; -1 unknown */
	char		last_error[256];
	int			worker_pid;
	Latch	   *worker_latch;
	bool		release_requested;
} UidLeaseShared;

static UidLeaseShared *lease = NULL;

/* settings */
char	   *uid_lease_database = NULL;
char	   *uid_lease_conninfo = NULL;
char	   *uid_lease_schema = NULL;
int			uid_lease_ttl_s = 900;
int			uid_lease_renew_interval_ms = 10000;
int			uid_lease_safety_margin_ms = 30000;
int			uid_lease_max_clock_skew_ms = 1000;
int			uid_lease_pool_size = UID_MAX_WORKER + 1;

/* the lease worker's own view of what it holds */
static struct
{
	bool		held;
	int			worker_id;
	int64		token;
	int64		deadline_unix_ms;	/* grant deadline on our clock */
	int64		next_renew_unix_ms;
	bool		need_relock;	/* store session is new: retake the advisory lock */
	bool		expiry_logged;
	bool		pool_warned;
	bool		table_checked;
	char		qtable[NAMEDATALEN * 2 + 16];	/* quoted schema.lease */
	char		last_logged_error[256];
	bool		skew_failed;	/* the last failure was a clock skew */
} me;

PGDLLEXPORT void uid_lease_worker_main(Datum main_arg);

PG_FUNCTION_INFO_V1(uid_lease_status);
PG_FUNCTION_INFO_V1(uid_lease_release);
PG_FUNCTION_INFO_V1(uid_lease_acquire);

/* ---------------------------------------------------------------------------
 * Settings, shared memory, registration
 * ------------------------------------------------------------------------- */

void
UidLeaseDefineSettings(void)
{
	DefineCustomStringVariable("uid.lease_database",
							   "Database of this server that holds the lease table when uid.lease_conninfo is empty.",
							   NULL,
							   &uid_lease_database, "postgres",
							   PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("uid.lease_conninfo",
							   "libpq connection string of a coordination database shared by many servers.",
							   "Empty: the lease table is in uid.lease_database of this server.",
							   &uid_lease_conninfo, "",
							   PGC_POSTMASTER, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
	DefineCustomStringVariable("uid.lease_schema",
							   "Schema of the lease table in the lease store.",
							   "Servers that share a worker id space must use the same store and schema.",
							   &uid_lease_schema, "uid_lease",
							   PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_ttl",
							"How long a lease lives without renewal.",
							"A crashed server's worker id is free again after this long.",
							&uid_lease_ttl_s, 900, 2, 7 * 24 * 3600,
							PGC_SIGHUP, GUC_UNIT_S, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_renew_interval",
							"How often the lease worker renews its lease.",
							NULL,
							&uid_lease_renew_interval_ms, 10000, 10, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_safety_margin",
							"How long before its lease expires a server that cannot renew stops issuing IDs.",
							"Must exceed twice uid.lease_max_clock_skew.",
							&uid_lease_safety_margin_ms, 30000, 0, 24 * 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_max_clock_skew",
							"Largest difference between this server's clock and the lease store's that is accepted.",
							NULL,
							&uid_lease_max_clock_skew_ms, 1000, 0, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_pool_size",
							"Number of worker ids (0 .. pool size - 1) that leases are taken from.",
							NULL,
							&uid_lease_pool_size, UID_MAX_WORKER + 1, 1, UID_MAX_WORKER + 1,
							PGC_SIGHUP, 0, NULL, NULL, NULL);
}

/* From _PG_init while shared_preload_libraries is processed. */
void
UidLeaseRegisterWorker(void)
{
	BackgroundWorker worker;

	if (!uid_worker_id_lease || IsBinaryUpgrade)
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

Size
UidLeaseShmemSize(void)
{
	return MAXALIGN(sizeof(UidLeaseShared));
}

void
UidLeaseShmemInit(void)
{
	bool		found;

	lease = ShmemInitStruct("uid lease", UidLeaseShmemSize(), &found);
	if (found)
		return;
	memset(lease, 0, sizeof(UidLeaseShared));
	SpinLockInit(&lease->mutex);
	lease->state = uid_worker_id_lease ? UID_LEASE_STARTING : UID_LEASE_STATIC;
	lease->worker_id = -1;
	lease->free_ids = -1;
}

/* ---------------------------------------------------------------------------
 * Status bookkeeping (worker side)
 * ------------------------------------------------------------------------- */

static void
UidLeaseSetState(UidLeaseState state, const char *error)
{
	SpinLockAcquire(&lease->mutex);
	lease->state = state;
	if (error)
		strlcpy(lease->last_error, error, sizeof(lease->last_error));
	SpinLockRelease(&lease->mutex);
}

static void
UidLeaseNoteFailure(const char *error)
{
	SpinLockAcquire(&lease->mutex);
	strlcpy(lease->last_error, error, sizeof(lease->last_error));
	if (me.held)
	{
		lease->renewal_failures++;
		lease->consecutive_failures++;
		if (lease->state == UID_LEASE_HELD)
			lease->state = UID_LEASE_FAILING;
	}
	else
		lease->state = me.skew_failed ? UID_LEASE_CLOCK_SKEW : UID_LEASE_STORE_ERROR;
	SpinLockRelease(&lease->mutex);
	me.skew_failed = false;
}

static int64
UidParseInt64(const char *s)
{
	return s ? (int64) strtoll(s, NULL, 10) : 0;	/* strtoi64 is 15+ */
}

/* The pool's free count; warns once each time it crosses 80% use. */
static void
UidLeaseNotePool(int used)
{
	int			pool = uid_lease_pool_size;
	int			free_ids = Max(pool - used, 0);

	SpinLockAcquire(&lease->mutex);
	lease->pool_size = pool;
	lease->free_ids = free_ids;
	SpinLockRelease(&lease->mutex);

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

/*
 * The deadline on our clock from a store answer: the store's remaining
 * lifetime of the lease, counted from before the request was sent, less
 * the safety margin.
 */
static int64
UidLeaseDeadline(int64 local_before, int64 store_now, int64 store_expires)
{
	return local_before + (store_expires - store_now) - uid_lease_safety_margin_ms;
}

/* Raises ERROR if the store's clock is too far from ours. */
static void
UidLeaseCheckSkew(int64 local_before, int64 local_after, int64 store_now)
{
	int64		skew = 0;

	if (store_now < local_before - uid_lease_max_clock_skew_ms)
		skew = store_now - local_before;
	else if (store_now > local_after + uid_lease_max_clock_skew_ms)
		skew = store_now - local_after;
	if (skew == 0)
		return;
	me.skew_failed = true;
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 errmsg("this server's clock differs from the uid lease store's by %lld ms, more than uid.lease_max_clock_skew (%d ms)",
					(long long) -skew, uid_lease_max_clock_skew_ms)));
}

/* ---------------------------------------------------------------------------
 * Store operations.  Each raises ERROR on failure; see UidLeaseTry.
 * ------------------------------------------------------------------------- */

#define UID_SQL_NOW_MS \
	"pg_catalog.floor(extract(epoch FROM pg_catalog.clock_timestamp()) * 1000)::pg_catalog.int8"

static void
UidLeaseEnsureTable(void)
{
	const char *params[2];
	UidStoreRows *r;
	char	   *qschema = (char *) quote_identifier(uid_lease_schema);

	if (me.table_checked)
		return;
	snprintf(me.qtable, sizeof(me.qtable), "%s.lease", qschema);

	UidStoreBegin();
	params[0] = uid_lease_schema;
	(void) UidStoreExec("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1::text), "
						UID_LEASE_ACQUIRE_LOCK ")", 1, params);
	params[0] = me.qtable;
	r = UidStoreExec("SELECT pg_catalog.to_regclass($1::text) IS NULL", 1, params);
	if (r->nrows == 1 && strcmp(UidStoreValue(r, 0, 0), "t") == 0)
	{
		(void) UidStoreExec(psprintf("CREATE SCHEMA IF NOT EXISTS %s", qschema), 0, NULL);
		(void) UidStoreExec(psprintf(
									 "CREATE TABLE %s ("
									 " worker_id integer PRIMARY KEY CHECK (worker_id BETWEEN 0 AND %d),"
									 " token bigint NOT NULL,"
									 " system_identifier numeric(20,0) NOT NULL,"
									 " timeline integer NOT NULL,"
									 " host text,"
									 " port integer,"
									 " pid integer,"
									 " acquired_at timestamptz NOT NULL,"
									 " renewed_at timestamptz NOT NULL,"
									 " expires_at timestamptz NOT NULL,"
									 " released_at timestamptz,"
									 " last_issued_ms bigint NOT NULL DEFAULT 0)",
									 me.qtable, UID_MAX_WORKER), 0, NULL);
		(void) UidStoreExec(psprintf("COMMENT ON TABLE %s IS "
									 "'uid worker id leases: one row per worker id ever leased (see the uid README, Leases)'",
									 me.qtable), 0, NULL);
		ereport(LOG, (errmsg("uid: created the lease table %s in the lease store", me.qtable)));
	}
	UidStoreCommit();
	me.table_checked = true;
}

/* Publishes a held lease to the generator and the status. */
static void
UidLeaseGrant(int64 store_now, int64 store_expires)
{
	int64		deadline = me.deadline_unix_ms;

	UidGeneratorGrant(me.worker_id, deadline - UID_EPOCH_MS);
	SpinLockAcquire(&lease->mutex);
	lease->state = deadline > UidClockNowUnixMs() ? UID_LEASE_HELD : UID_LEASE_EXPIRED;
	lease->held = true;
	lease->worker_id = me.worker_id;
	lease->token = me.token;
	lease->expires_at = UidUnixMsToTimestamptz(store_expires);
	lease->generate_until = UidUnixMsToTimestamptz(deadline);
	lease->consecutive_failures = 0;
	SpinLockRelease(&lease->mutex);
	me.expiry_logged = false;
	me.last_logged_error[0] = '\0';
}

static void
UidLeaseAcquire(void)
{
	const char *params[8];
	UidStoreRows *r;
	UidStoreRows *cand;
	int64		before;
	int64		after;
	int64		store_now;
	int64		store_expires;
	int64		prev_last;
	int64		acquired_ms;
	int			chosen = -1;
	char		pool[16],
				id[16],
				sysid[32],
				tli[16],
				port[16],
				pid[16],
				ttl[24];
	char		host[256];

	UidStoreOpen();
	(void) UidStoreTakeNewSession();
	UidLeaseEnsureTable();

	UidStoreBegin();
	params[0] = uid_lease_schema;
	(void) UidStoreExec("SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1::text), "
						UID_LEASE_ACQUIRE_LOCK ")", 1, params);

	before = UidClockNowUnixMs();
	r = UidStoreExec("SELECT " UID_SQL_NOW_MS, 0, NULL);
	after = UidClockNowUnixMs();
	UidLeaseCheckSkew(before, after, UidParseInt64(UidStoreValue(r, 0, 0)));

	snprintf(pool, sizeof(pool), "%d", uid_lease_pool_size);
	params[0] = pool;
	cand = UidStoreExec(psprintf("SELECT g.id FROM pg_catalog.generate_series(0, $1::int - 1) AS g(id)"
								 " WHERE NOT EXISTS (SELECT 1 FROM %s l WHERE l.worker_id = g.id"
								 " AND l.released_at IS NULL AND l.expires_at > pg_catalog.clock_timestamp())"
								 " ORDER BY g.id LIMIT %d",
								 me.qtable, UID_LEASE_CANDIDATES), 1, params);
	for (int i = 0; i < cand->nrows && chosen < 0; i++)
	{
		params[0] = uid_lease_schema;
		params[1] = UidStoreValue(cand, i, 0);
		r = UidStoreExec("SELECT pg_catalog.pg_try_advisory_lock(pg_catalog.hashtext($1::text), $2::int)",
						 2, params);
		if (strcmp(UidStoreValue(r, 0, 0), "t") == 0)
			chosen = atoi(UidStoreValue(cand, i, 0));
	}
	if (chosen < 0)
	{
		UidStoreCommit();
		UidLeaseNotePool(uid_lease_pool_size);
		UidLeaseSetState(UID_LEASE_NO_FREE_ID,
						 psprintf("all %d worker ids of the lease pool are leased", uid_lease_pool_size));
		return;
	}

	if (gethostname(host, sizeof(host)) != 0)
		strlcpy(host, "unknown", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	snprintf(id, sizeof(id), "%d", chosen);
	snprintf(sysid, sizeof(sysid), UINT64_FORMAT, GetSystemIdentifier());
	(void) RecoveryInProgress();	/* before 15, this sets ThisTimeLineID */
	snprintf(tli, sizeof(tli), "%d", UidCurrentTimeLine());
	snprintf(port, sizeof(port), "%d", PostPortNumber);
	snprintf(pid, sizeof(pid), "%d", (int) PostmasterPid);
	snprintf(ttl, sizeof(ttl), "%lld", (long long) uid_lease_ttl_s * 1000);
	params[0] = id;
	params[1] = sysid;
	params[2] = tli;
	params[3] = host;
	params[4] = port;
	params[5] = pid;
	params[6] = ttl;

	before = UidClockNowUnixMs();
	r = UidStoreExec(psprintf("INSERT INTO %s AS l (worker_id, token, system_identifier, timeline,"
							  " host, port, pid, acquired_at, renewed_at, expires_at, released_at, last_issued_ms)"
							  " VALUES ($1::int, 1, $2::numeric, $3::int, $4::text, $5::int, $6::int,"
							  " pg_catalog.clock_timestamp(), pg_catalog.clock_timestamp(),"
							  " pg_catalog.clock_timestamp() + $7::int8 * interval '1 ms', NULL, 0)"
							  " ON CONFLICT (worker_id) DO UPDATE SET token = l.token + 1,"
							  " system_identifier = EXCLUDED.system_identifier, timeline = EXCLUDED.timeline,"
							  " host = EXCLUDED.host, port = EXCLUDED.port, pid = EXCLUDED.pid,"
							  " acquired_at = EXCLUDED.acquired_at, renewed_at = EXCLUDED.renewed_at,"
							  " expires_at = EXCLUDED.expires_at, released_at = NULL"
							  " WHERE l.released_at IS NOT NULL OR l.expires_at <= pg_catalog.clock_timestamp()"
							  " RETURNING l.token, l.last_issued_ms, " UID_SQL_NOW_MS ","
							  " pg_catalog.floor(extract(epoch FROM l.expires_at) * 1000)::pg_catalog.int8,"
							  " pg_catalog.floor(extract(epoch FROM l.acquired_at) * 1000)::pg_catalog.int8",
							  me.qtable), 7, params);
	after = UidClockNowUnixMs();
	if (r->nrows != 1)
	{
		/* cannot happen while every acquirer takes the lock above */
		params[0] = uid_lease_schema;
		params[1] = id;
		(void) UidStoreExec("SELECT pg_catalog.pg_advisory_unlock(pg_catalog.hashtext($1::text), $2::int)",
							2, params);
		UidStoreCommit();
		UidLeaseSetState(UID_LEASE_STORE_ERROR,
						 psprintf("worker id %d was taken by a concurrent acquirer", chosen));
		return;
	}
	me.token = UidParseInt64(UidStoreValue(r, 0, 0));
	prev_last = UidParseInt64(UidStoreValue(r, 0, 1));
	store_now = UidParseInt64(UidStoreValue(r, 0, 2));
	store_expires = UidParseInt64(UidStoreValue(r, 0, 3));
	acquired_ms = UidParseInt64(UidStoreValue(r, 0, 4));

	params[0] = pool;
	r = UidStoreExec(psprintf("SELECT pg_catalog.count(*) FROM %s WHERE released_at IS NULL"
							  " AND expires_at > pg_catalog.clock_timestamp() AND worker_id < $1::int",
							  me.qtable), 1, params);
	UidStoreCommit();

	/* From here on the store says we hold it: release it when we go. */
	me.held = true;
	me.worker_id = chosen;
	me.need_relock = false;
	me.deadline_unix_ms = UidLeaseDeadline(before, store_now, store_expires);
	me.next_renew_unix_ms = before + uid_lease_renew_interval_ms;
	UidLeaseCheckSkew(before, after, store_now);	/* cannot fail: checked above */

	SpinLockAcquire(&lease->mutex);
	lease->held = true;
	lease->state = UID_LEASE_WAITING;
	lease->worker_id = chosen;
	lease->token = me.token;
	lease->acquired_at = UidUnixMsToTimestamptz(acquired_ms);
	lease->renewed_at = lease->acquired_at;
	lease->expires_at = UidUnixMsToTimestamptz(store_expires);
	SpinLockRelease(&lease->mutex);
	UidLeaseNotePool((int) UidParseInt64(UidStoreValue(r, 0, 0)));

	/*
	 * Start after the previous holder's last issued ms: wait until our clock
	 * has passed it (by at most the clock skew, unless the previous holder's
	 * clock ran ahead; uid_next() waits meanwhile), then raise the floor to
	 * it, so that even a clock that now steps back cannot go below it.  In
	 * this order, uid_next() never sees a floor ahead of the clock (UID01).
	 */
	while (UidClockNowUnixMs() <= prev_last && !ShutdownRequestPending)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Min(prev_last - UidClockNowUnixMs() + 1, 100), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	if (ShutdownRequestPending)
		return;
	if (prev_last > UID_EPOCH_MS)
		UidGeneratorRaiseFloor(prev_last - UID_EPOCH_MS);

	UidLeaseGrant(store_now, store_expires);
	ereport(LOG,
			(errmsg("uid: acquired worker id %d (fencing token %lld) from the lease store",
					chosen, (long long) me.token),
			 errdetail("IDs are issued after the previous holder's last issued time (%lld ms since 1970), until %lld ms before the lease expires unless it is renewed.",
					   (long long) prev_last, (long long) uid_lease_safety_margin_ms)));
}

/* The lease is no longer ours in the store: stop at once. */
static void
UidLeaseLost(void)
{
	(void) UidGeneratorRevoke();
	me.held = false;
	SpinLockAcquire(&lease->mutex);
	lease->held = false;
	lease->state = UID_LEASE_LOST;
	lease->losses++;
	snprintf(lease->last_error, sizeof(lease->last_error),
			 "the lease store holds another fencing token for worker id %d", me.worker_id);
	SpinLockRelease(&lease->mutex);
	ereport(WARNING,
			(errmsg("uid: lost the lease on worker id %d: the lease store no longer holds fencing token %lld",
					me.worker_id, (long long) me.token),
			 errdetail("uid_next() stopped issuing IDs with this worker id at once."),
			 errhint("The lease worker will take another free worker id.")));
}

static void
UidLeaseRenew(void)
{
	const char *params[5];
	UidStoreRows *r;
	char		id[16],
				token[24],
				ttl[24],
				last[24],
				pool[16];
	int64		before,
				after,
				store_now,
				store_expires;
	int			failures;

	snprintf(id, sizeof(id), "%d", me.worker_id);
	snprintf(token, sizeof(token), "%lld", (long long) me.token);
	snprintf(ttl, sizeof(ttl), "%lld", (long long) uid_lease_ttl_s * 1000);
	snprintf(last, sizeof(last), "%lld",
			 (long long) (UidStateMs(UidGeneratorLastState()) + UID_EPOCH_MS));
	snprintf(pool, sizeof(pool), "%d", uid_lease_pool_size);

	UidStoreOpen();
	if (UidStoreTakeNewSession())
		me.need_relock = true;
	UidLeaseEnsureTable();
	UidStoreBegin();
	if (me.need_relock)
	{
		params[0] = uid_lease_schema;
		params[1] = id;
		r = UidStoreExec("SELECT pg_catalog.pg_try_advisory_lock(pg_catalog.hashtext($1::text), $2::int)",
						 2, params);
		if (strcmp(UidStoreValue(r, 0, 0), "t") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("another session holds the advisory lock on worker id %d in the lease store",
							me.worker_id)));
		/* a session lock: kept even if this transaction fails */
		me.need_relock = false;
	}
	params[0] = id;
	params[1] = token;
	params[2] = ttl;
	params[3] = last;
	params[4] = pool;
	before = UidClockNowUnixMs();
	r = UidStoreExec(psprintf("UPDATE %s AS l SET renewed_at = pg_catalog.clock_timestamp(),"
							  " expires_at = pg_catalog.clock_timestamp() + $3::int8 * interval '1 ms',"
							  " last_issued_ms = GREATEST(l.last_issued_ms, $4::int8)"
							  " WHERE l.worker_id = $1::int AND l.token = $2::int8 AND l.released_at IS NULL"
							  " RETURNING " UID_SQL_NOW_MS ","
							  " pg_catalog.floor(extract(epoch FROM l.expires_at) * 1000)::pg_catalog.int8,"
							  " (SELECT pg_catalog.count(*) FROM %s u WHERE u.released_at IS NULL"
							  " AND u.expires_at > pg_catalog.clock_timestamp() AND u.worker_id < $5::int)",
							  me.qtable, me.qtable), 5, params);
	after = UidClockNowUnixMs();
	if (r->nrows == 0)
	{
		UidLeaseLost();
		params[0] = uid_lease_schema;
		params[1] = id;
		(void) UidStoreExec("SELECT pg_catalog.pg_advisory_unlock(pg_catalog.hashtext($1::text), $2::int)",
							2, params);
		UidStoreCommit();
		return;
	}
	store_now = UidParseInt64(UidStoreValue(r, 0, 0));
	store_expires = UidParseInt64(UidStoreValue(r, 0, 1));
	/* a clock that drifted away: do not extend the deadline (rolls back) */
	UidLeaseCheckSkew(before, after, store_now);
	UidStoreCommit();

	me.deadline_unix_ms = UidLeaseDeadline(before, store_now, store_expires);
	me.next_renew_unix_ms = before + uid_lease_renew_interval_ms;
	SpinLockAcquire(&lease->mutex);
	failures = lease->consecutive_failures;
	SpinLockRelease(&lease->mutex);
	if (failures > 0)
		ereport(LOG,
				(errmsg("uid: renewed the lease on worker id %d after %d failed attempts",
						me.worker_id, failures)));
	UidLeaseGrant(store_now, store_expires);
	SpinLockAcquire(&lease->mutex);
	lease->renewals++;
	lease->renewed_at = UidUnixMsToTimestamptz(store_now);
	SpinLockRelease(&lease->mutex);
	UidLeaseNotePool((int) UidParseInt64(UidStoreValue(r, 0, 2)));
}

/*
 * Gives the lease back: stop the generator, then record the bound of what
 * it issued and mark the row released, so that the id is free at once and
 * the next holder starts after our last ID.
 */
static void
UidLeaseRelease(void)
{
	const char *params[3];
	char		id[16],
				token[24],
				last[24];
	int64		last_ms = UidGeneratorRevoke();

	/* whatever happens below, we no longer hold it (see UidLeaseTry) */
	me.held = false;
	snprintf(id, sizeof(id), "%d", me.worker_id);
	snprintf(token, sizeof(token), "%lld", (long long) me.token);
	snprintf(last, sizeof(last), "%lld", (long long) (last_ms + UID_EPOCH_MS));

	UidStoreOpen();
	UidLeaseEnsureTable();
	UidStoreBegin();
	params[0] = id;
	params[1] = token;
	params[2] = last;
	(void) UidStoreExec(psprintf("UPDATE %s AS l SET released_at = pg_catalog.clock_timestamp(),"
								 " last_issued_ms = GREATEST(l.last_issued_ms, $3::int8)"
								 " WHERE l.worker_id = $1::int AND l.token = $2::int8 AND l.released_at IS NULL",
								 me.qtable), 3, params);
	params[0] = uid_lease_schema;
	params[1] = id;
	(void) UidStoreExec("SELECT pg_catalog.pg_advisory_unlock(pg_catalog.hashtext($1::text), $2::int)",
						2, params);
	UidStoreCommit();
	ereport(LOG,
			(errmsg("uid: released worker id %d (fencing token %lld); last issued time %lld ms since 1970",
					me.worker_id, (long long) me.token, (long long) (last_ms + UID_EPOCH_MS))));
}

/*
 * Runs one store operation; on ERROR, cleans up, records the failure and
 * returns false.  The worker never exits for a store problem.
 */
static bool
UidLeaseTry(void (*operation) (void))
{
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile bool ok = true;

	PG_TRY();
	{
		operation();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		UidStoreAbortAfterError();
		MemoryContextSwitchTo(oldcxt);
		me.table_checked = false;	/* dropped? look again, create if needed */
		/* a failed acquisition may have left a session lock behind */
		if (!me.held && !UidStoreRemote())
			LockReleaseSession(USER_LOCKMETHOD);
		/* log each different error once, not each retry of the same one */
		if (strncmp(me.last_logged_error, edata->message, sizeof(me.last_logged_error) - 1) != 0)
			ereport(LOG,
					(errmsg("uid: lease store operation failed: %s", edata->message),
					 me.held ? errdetail("Worker id %d stays usable until %d ms before its lease expires; the worker retries every %d ms.",
										 me.worker_id, uid_lease_safety_margin_ms,
										 uid_lease_renew_interval_ms) : 0));
		strlcpy(me.last_logged_error, edata->message, sizeof(me.last_logged_error));
		UidLeaseNoteFailure(edata->message);
		FreeErrorData(edata);
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/* ---------------------------------------------------------------------------
 * The worker
 * ------------------------------------------------------------------------- */

/* before_shmem_exit: whatever the reason, stop issuing with our worker id. */
static void
UidLeaseWorkerExit(int code, Datum arg)
{
	if (me.held)
		(void) UidGeneratorRevoke();
	UidStoreClose();
	SpinLockAcquire(&lease->mutex);
	lease->worker_pid = 0;
	lease->worker_latch = NULL;
	if (lease->state == UID_LEASE_HELD || lease->state == UID_LEASE_FAILING ||
		lease->state == UID_LEASE_WAITING)
		lease->state = UID_LEASE_STOPPED;
	SpinLockRelease(&lease->mutex);
}

/* One pass: acquire, renew or release as needed; returns ms to sleep. */
static long
UidLeaseStep(void)
{
	int64		now = UidClockNowUnixMs();
	bool		release_requested;

	SpinLockAcquire(&lease->mutex);
	release_requested = lease->release_requested;
	SpinLockRelease(&lease->mutex);

	if (release_requested)
	{
		if (me.held)
			(void) UidLeaseTry(UidLeaseRelease);
		me.held = false;
		SpinLockAcquire(&lease->mutex);
		lease->held = false;
		lease->state = UID_LEASE_RELEASED;
		SpinLockRelease(&lease->mutex);
		return uid_lease_renew_interval_ms;
	}

	if (!me.held)
	{
		(void) UidLeaseTry(UidLeaseAcquire);
		return uid_lease_renew_interval_ms;
	}

	if (now >= me.next_renew_unix_ms)
	{
		if (!UidLeaseTry(UidLeaseRenew))
			me.next_renew_unix_ms = now + uid_lease_renew_interval_ms;
		if (!me.held)
			return uid_lease_renew_interval_ms;
		now = UidClockNowUnixMs();
	}

	if (now > me.deadline_unix_ms)
	{
		SpinLockAcquire(&lease->mutex);
		lease->state = UID_LEASE_EXPIRED;
		SpinLockRelease(&lease->mutex);
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

static void
UidLeaseCheckSettings(void)
{
	if ((int64) uid_lease_safety_margin_ms + uid_lease_renew_interval_ms >= (int64) uid_lease_ttl_s * 1000)
		ereport(WARNING,
				(errmsg("uid: uid.lease_safety_margin plus uid.lease_renew_interval is not below uid.lease_ttl"),
				 errdetail("A lease would stop issuing IDs before its first renewal.")));
	if (uid_lease_safety_margin_ms <= 2 * uid_lease_max_clock_skew_ms)
		ereport(WARNING,
				(errmsg("uid: uid.lease_safety_margin should exceed twice uid.lease_max_clock_skew")));
}

void
uid_lease_worker_main(Datum main_arg)
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	memset(&me, 0, sizeof(me));
	before_shmem_exit(UidLeaseWorkerExit, (Datum) 0);

	if (!UidStoreRemote())
	{
		BackgroundWorkerInitializeConnection(uid_lease_database, NULL, 0);
		/* never queue behind a lock on the lease table for long */
		SetConfigOption("lock_timeout", "5s", PGC_SUSET, PGC_S_OVERRIDE);
	}

	/*
	 * A restarted worker (same postmaster, shared memory intact) resumes the
	 * lease it held by its token; its advisory lock went with the old session.
	 */
	SpinLockAcquire(&lease->mutex);
	lease->worker_pid = MyProcPid;
	lease->worker_latch = MyLatch;
	if (lease->held && lease->token > 0)
	{
		me.held = true;
		me.worker_id = lease->worker_id;
		me.token = lease->token;
		me.need_relock = true;
	}
	SpinLockRelease(&lease->mutex);

	UidLeaseCheckSettings();
	ereport(LOG,
			(errmsg("uid lease worker started; lease store: %s",
					UidStoreRemote() ? "uid.lease_conninfo" :
					psprintf("database \"%s\" of this server", uid_lease_database))));

	for (;;)
	{
		long		timeout;

		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			UidLeaseCheckSettings();
		}
		if (ShutdownRequestPending)
			break;

		UidStoreResetMemory();
		pgstat_report_activity(STATE_RUNNING, "uid lease step");
		timeout = UidLeaseStep();
		pgstat_report_activity(STATE_IDLE, NULL);
		if (ShutdownRequestPending)
			break;

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 timeout, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}

	/* clean shutdown: give the id back, so that it is free at once */
	if (me.held)
	{
		UidStoreResetMemory();
		(void) UidLeaseTry(UidLeaseRelease);
		me.held = false;
		SpinLockAcquire(&lease->mutex);
		lease->held = false;
		SpinLockRelease(&lease->mutex);
	}

	/*
	 * Exit code 1, so that the postmaster starts the worker again unless the
	 * server is shutting down (pg_terminate_backend() on the lease worker
	 * must not leave the server without a worker id for good).
	 */
	proc_exit(1);
}

/* ---------------------------------------------------------------------------
 * SQL interface and the no-worker-id error
 * ------------------------------------------------------------------------- */

/* How long uid_next() waits for a lease that is being acquired. */
#define UID_LEASE_AWAIT_MS 5000

/*
 * uid_next() found no usable grant (cold path only).  Right after start-up,
 * while the worker is taking its first lease, or while it waits to pass the
 * previous holder's time, wait (once per call, at most UID_LEASE_AWAIT_MS)
 * and return so that the caller retries; otherwise raise UID02 and say why,
 * from the worker's status.
 */
void
UidLeaseAwaitWorkerId(bool *waited)
{
	UidLeaseState state = UID_LEASE_STOPPED;
	int			worker_id = -1;
	char		last_error[256] = "";
	char	   *detail;

	for (int slept = 0;; slept += 10)
	{
		SpinLockAcquire(&lease->mutex);
		state = lease->state;
		worker_id = lease->worker_id;
		strlcpy(last_error, lease->last_error, sizeof(last_error));
		SpinLockRelease(&lease->mutex);

		if (*waited || slept >= UID_LEASE_AWAIT_MS ||
			(state != UID_LEASE_STARTING && state != UID_LEASE_WAITING))
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (UidGeneratorWorkerId() >= 0)
		{
			*waited = true;
			return;
		}
	}
	if (state == UID_LEASE_STARTING || state == UID_LEASE_WAITING)
		*waited = true;

	switch (state)
	{
		case UID_LEASE_STARTING:
		case UID_LEASE_WAITING:
			detail = psprintf("The lease worker has not acquired a worker id yet.");
			break;
		case UID_LEASE_HELD:
		case UID_LEASE_FAILING:
		case UID_LEASE_EXPIRED:
			detail = psprintf("The lease on worker id %d could not be renewed, and uid_next() stops %d ms before it expires (last error: %s).",
							  worker_id, uid_lease_safety_margin_ms, last_error);
			break;
		case UID_LEASE_LOST:
			detail = psprintf("The lease on worker id %d was taken over: the lease store holds another fencing token.",
							  worker_id);
			break;
		case UID_LEASE_NO_FREE_ID:
			detail = psprintf("All %d worker ids of the lease pool are leased.", uid_lease_pool_size);
			break;
		case UID_LEASE_RELEASED:
			detail = psprintf("The lease was released by uid_lease_release().");
			break;
		case UID_LEASE_CLOCK_SKEW:
		case UID_LEASE_STORE_ERROR:
			detail = psprintf("No lease could be acquired: %s.", last_error);
			break;
		default:
			detail = psprintf("The uid lease worker is not running.");
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 errmsg("uid_next() has no worker id: no lease is held (state \"%s\")",
					UidLeaseStateNames[state]),
			 errdetail_internal("%s", detail),
			 errhint("IDs are issued again as soon as a lease is held. "
					 "See SELECT * FROM uid_lease_status(), the server log, and the lease store "
					 "(uid.lease_conninfo, uid.lease_database).")));
}

Datum
uid_lease_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[16];
	bool		nulls[16];
	UidLeaseShared s;
	int			i = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	UidRequireSharedMemory("uid_lease_status");

	SpinLockAcquire(&lease->mutex);
	memcpy(&s, lease, sizeof(s));
	SpinLockRelease(&lease->mutex);

	memset(nulls, 0, sizeof(nulls));
	values[i++] = CStringGetTextDatum(uid_worker_id_lease ? "lease" : "static");
	values[i++] = CStringGetTextDatum(UidLeaseStateNames[s.state]);
	/* worker id: the one uid_next() uses now, else the one last leased */
	if (UidGeneratorWorkerId() >= 0)
		values[i++] = Int32GetDatum(UidGeneratorWorkerId());
	else if (s.worker_id >= 0)
		values[i++] = Int32GetDatum(s.worker_id);
	else
		nulls[i++] = true;
	values[i] = Int64GetDatum(s.token);
	nulls[i++] = s.token == 0;
	values[i] = CStringGetTextDatum(!uid_worker_id_lease ? "none" :
									(uid_lease_conninfo && uid_lease_conninfo[0]) ? "uid.lease_conninfo" :
									psprintf("database %s", uid_lease_database));
	i++;
	values[i] = TimestampTzGetDatum(s.acquired_at);
	nulls[i++] = s.acquired_at == 0;
	values[i] = TimestampTzGetDatum(s.renewed_at);
	nulls[i++] = s.renewed_at == 0;
	values[i] = TimestampTzGetDatum(s.expires_at);
	nulls[i++] = s.expires_at == 0;
	values[i] = TimestampTzGetDatum(s.generate_until);
	nulls[i++] = s.generate_until == 0 || !s.held;
	values[i++] = Int64GetDatum(s.renewals);
	values[i++] = Int64GetDatum(s.renewal_failures);
	values[i++] = Int32GetDatum(s.consecutive_failures);
	values[i++] = Int64GetDatum(s.losses);
	values[i] = Int32GetDatum(s.free_ids);
	nulls[i++] = s.free_ids < 0;
	values[i] = CStringGetTextDatum(s.last_error);
	nulls[i++] = s.last_error[0] == '\0';
	values[i] = Int32GetDatum(s.worker_pid);
	nulls[i++] = s.worker_pid == 0;
	Assert(i == 16);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

static void
UidLeaseRequireMode(const char *funcname)
{
	UidRequireSharedMemory(funcname);
	if (!uid_worker_id_lease)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s() needs uid.worker_id = 'lease'", funcname),
				 errdetail("This server uses the static worker id %d.", UidGeneratorWorkerId()),
				 errhint("Set uid.worker_id = 'lease' in postgresql.conf and restart the server.")));
}

/*
 * Sets or clears the release request, wakes the worker, and waits (up to
 * 10 s, interruptibly) until its status shows the wanted state.
 */
static bool
UidLeaseRequest(bool release)
{
	Latch	   *latch;

	SpinLockAcquire(&lease->mutex);
	lease->release_requested = release;
	latch = lease->worker_latch;
	SpinLockRelease(&lease->mutex);
	if (latch)
		SetLatch(latch);

	for (int waited = 0; waited < 10000; waited += 10)
	{
		UidLeaseState state;

		SpinLockAcquire(&lease->mutex);
		state = lease->state;
		SpinLockRelease(&lease->mutex);
		if (release ? state == UID_LEASE_RELEASED : state == UID_LEASE_HELD)
			return true;
		if (!release && state != UID_LEASE_RELEASED && waited >= 100 && state != UID_LEASE_WAITING &&
			state != UID_LEASE_STARTING)
			return false;		/* the worker tried and failed: see the status */
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	return false;
}

Datum
uid_lease_release(PG_FUNCTION_ARGS)
{
	UidLeaseRequireMode("uid_lease_release");
	PG_RETURN_BOOL(UidLeaseRequest(true));
}

Datum
uid_lease_acquire(PG_FUNCTION_ARGS)
{
	UidLeaseRequireMode("uid_lease_acquire");
	PG_RETURN_BOOL(UidLeaseRequest(false));
}
