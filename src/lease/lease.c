/*
 * lease.c
 *		Worker ids from a lease table (uid.worker_id = 'lease'): the state
 *		shared between the lease worker (lease_worker.c) and the backends,
 *		and what backends see of it: uid_lease_status(), uid_lease_release(),
 *		uid_lease_acquire(), uid_lease_table_sql() and the UID02 error of
 *		uid_next() when no worker id is held.
 *
 * Shared state and its guards:
 *	UidLeaseShared	every field under its spinlock `mutex`.  Written by the
 *					lease worker through the UidLeasePublish* functions below
 *					(status, held lease, failures) and by uid_lease_release() /
 *					uid_lease_acquire() (release_requested, requests only).
 *					Read by uid_lease_status() and by uid_next()'s error path.
 *	cv				broadcast after every change, so that backends waiting
 *					for the worker (uid_next() right after start-up,
 *					uid_lease_acquire/release) sleep instead of polling.
 * The hot path of uid_next() never reads this struct: it reads the grant
 * word in generator.c, which only the lease worker writes in lease mode.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/condition_variable.h"
#include "storage/latch.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/generator.h"
#include "lease/lease.h"
#include "lease/lease_settings.h"
#include "lease/lease_store.h"
#include "core/preload.h"
#include "core/refused_settings.h"
#include "core/topology.h"
#include "ids.h"

typedef struct UidLeaseShared
{
	slock_t		mutex;
	ConditionVariable cv;
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
	int64		tenures;		/* tenures in the store's ledger, as last counted; -1 unknown */
	int64		tenure_overlaps;	/* pairs of them that overlap, as last counted */
	UidLeaseFailure failure;	/* the kind of last_error */
	char		last_error[256];
	int			worker_pid;
	Latch	   *worker_latch;
	bool		release_requested;
	uint64		requests;		/* uid_lease_release/acquire calls so far */
	uint64		requests_done;	/* the last of them the worker acted on */
	bool		store_is_self;	/* uid.lease_conninfo points at this server */
	char		self_database[NAMEDATALEN];
	char		self_role[NAMEDATALEN];
} UidLeaseShared;

static UidLeaseShared *lease = NULL;

static const char *const UidLeaseStateNames[] = {
	"static", "starting", "waiting", "held", "renewal_failing", "expired",
	"lost", "no_free_id", "clock_skew", "store_error", "released", "stopped",
	"config_error", "unconfirmed", "store_pooled", "held_elsewhere"
};

StaticAssertDecl(lengthof(UidLeaseStateNames) == UID_LEASE_HELD_ELSEWHERE + 1,
				 "one name per lease state");

/* How long uid_next() waits for a lease that is being acquired. */
#define UID_LEASE_AWAIT_MS		5000
/* How long uid_lease_release() and uid_lease_acquire() wait for the worker. */
#define UID_LEASE_REQUEST_MS	10000

UID_DECLARE_WAIT_EVENT(UidWaitLeaseFirstGrant, "UidLeaseFirstGrant")
UID_DECLARE_WAIT_EVENT(UidWaitLeaseRequest, "UidLeaseRequest")

PG_FUNCTION_INFO_V1(uid_lease_status);
PG_FUNCTION_INFO_V1(uid_lease_ledger);
PG_FUNCTION_INFO_V1(uid_lease_release);
PG_FUNCTION_INFO_V1(uid_lease_acquire);
PG_FUNCTION_INFO_V1(uid_lease_table_sql);

/* ---------------------------------------------------------------------------
 * Shared memory
 * ------------------------------------------------------------------------- */

/* The shared lease state, one struct (uid.c adds it to the request). */
Size
UidLeaseShmemSize(void)
{
	return MAXALIGN(sizeof(UidLeaseShared));
}

/* After UidGeneratorShmemInit: a configuration problem withdraws the static grant. */
void
UidLeaseShmemInit(void)
{
	bool		found;
	const char *hint;
	const char *problem = UidLeaseConfigProblem(&hint);

	lease = ShmemInitStruct("uid lease", UidLeaseShmemSize(), &found);
	if (found)
		return;
	memset(lease, 0, sizeof(UidLeaseShared));
	SpinLockInit(&lease->mutex);
	ConditionVariableInit(&lease->cv);
	lease->state = UidLeaseWorkerMode() ? UID_LEASE_STARTING : UID_LEASE_STATIC;
	lease->worker_id = -1;
	lease->free_ids = -1;
	lease->tenures = -1;
	lease->tenure_overlaps = -1;
	if (problem != NULL)
	{
		lease->state = UID_LEASE_CONFIG_ERROR;
		lease->failure = UID_FAIL_CONFIG;
		strlcpy(lease->last_error, problem, sizeof(lease->last_error));
		UidGeneratorGrant(0, -1);
	}
	else if (UidLeaseRegistersStatic())
	{
		/* a registered static id issues only once the store confirms it */
		lease->worker_id = UidGeneratorStaticWorkerId();
		UidGeneratorGrant(0, -1);
	}
}

/* ---------------------------------------------------------------------------
 * Publishing (the lease worker only).  Each change wakes the waiters.
 * ------------------------------------------------------------------------- */

/*
 * Writers take the spinlock with UidLeaseLock and release it with
 * UidLeaseUnlockAndWake, which also wakes every backend sleeping on the
 * condition variable (UidLeaseWaitFor), so that each change is seen at once.
 */
#define UidLeaseLock()		SpinLockAcquire(&lease->mutex)
#define UidLeaseUnlockAndWake()	\
	do { SpinLockRelease(&lease->mutex); ConditionVariableBroadcast(&lease->cv); } while (0)

/*
 * The one reader: a consistent copy of the whole shared state, taken under
 * the spinlock (a few hundred bytes, no call that could fail).
 */
static void
UidLeaseSnapshot(UidLeaseShared *copy)
{
	SpinLockAcquire(&lease->mutex);
	memcpy(copy, lease, sizeof(UidLeaseShared));
	SpinLockRelease(&lease->mutex);
}

/* The worker announces itself: backends find its latch for requests. */
void
UidLeaseWorkerAttach(void)
{
	UidLeaseLock();
	lease->worker_pid = MyProcPid;
	lease->worker_latch = MyLatch;
	UidLeaseUnlockAndWake();
}

/* before_shmem_exit of the worker: its lease, if any, is no longer renewed. */
void
UidLeaseWorkerDetach(void)
{
	UidLeaseLock();
	lease->worker_pid = 0;
	lease->worker_latch = NULL;
	if (lease->state == UID_LEASE_HELD || lease->state == UID_LEASE_FAILING ||
		lease->state == UID_LEASE_WAITING || lease->state == UID_LEASE_UNCONFIRMED)
		lease->state = UID_LEASE_STOPPED;
	UidLeaseUnlockAndWake();
}

/*
 * A restarted worker (same postmaster, shared memory intact) resumes the
 * lease it held, by its token.
 */
bool
UidLeaseResumeHeld(int *worker_id, int64 *token)
{
	UidLeaseShared s;

	UidLeaseSnapshot(&s);
	*worker_id = s.worker_id;
	*token = s.token;
	return s.held && s.token > 0;
}

/* A new state with nothing else changed. */
void
UidLeasePublishState(UidLeaseState state)
{
	UidLeaseLock();
	lease->state = state;
	UidLeaseUnlockAndWake();
}

/*
 * A failed store operation.  While a lease is held (granted) it counts as
 * a failed renewal (the lease stays usable until its deadline); otherwise
 * the state says why no lease could be taken, and nothing is left for a
 * restarted worker to resume.
 */
void
UidLeasePublishFailure(UidLeaseFailure kind, const char *error, bool held,
					   UidLeaseState unheld_state)
{
	UidLeaseLock();
	lease->failure = kind;
	strlcpy(lease->last_error, error, sizeof(lease->last_error));
	lease->held = held;
	if (held)
	{
		lease->renewal_failures++;
		lease->consecutive_failures++;
		if (lease->state == UID_LEASE_HELD)
			lease->state = UID_LEASE_FAILING;
	}
	else
		lease->state = unheld_state;
	UidLeaseUnlockAndWake();
}

/*
 * A new lease, not yet issuing: waiting for the store's standbys to
 * confirm it (not confirmed), or to pass the previous holder's time.  It
 * counts as held, for a restarted worker to resume, only once
 * granted: until then the floor may not be raised yet.
 */
void
UidLeasePublishAcquired(int worker_id, int64 token, TimestampTz acquired_at,
						TimestampTz expires_at, bool confirmed)
{
	UidLeaseLock();
	lease->held = false;		/* granted later, by UidLeasePublishGrant */
	lease->state = confirmed ? UID_LEASE_WAITING : UID_LEASE_UNCONFIRMED;
	lease->worker_id = worker_id;
	lease->token = token;
	lease->acquired_at = acquired_at;
	lease->renewed_at = acquired_at;
	lease->expires_at = expires_at;
	UidLeaseUnlockAndWake();
}

/* The generator was granted the held lease until deadline_unix_ms. */
void
UidLeasePublishGrant(TimestampTz renewed_at, TimestampTz expires_at,
					 int64 deadline_unix_ms, bool renewal)
{
	UidLeaseLock();
	lease->held = true;
	lease->state = deadline_unix_ms > UidClockNowUnixMs() ? UID_LEASE_HELD : UID_LEASE_EXPIRED;
	lease->renewed_at = renewed_at;
	lease->expires_at = expires_at;
	lease->generate_until = UidUnixMsToTimestamptz(deadline_unix_ms);
	lease->consecutive_failures = 0;
	/* the last error is past: the lease is good again */
	lease->failure = UID_FAIL_NONE;
	lease->last_error[0] = '\0';
	if (renewal)
		lease->renewals++;
	UidLeaseUnlockAndWake();
}

/*
 * Another fencing token holds our worker id in the store: the lease is
 * gone, and last_error says so.
 */
void
UidLeasePublishLost(int worker_id)
{
	UidLeaseLock();
	lease->held = false;
	lease->state = UID_LEASE_LOST;
	lease->losses++;
	lease->failure = UID_FAIL_NONE;
	snprintf(lease->last_error, sizeof(lease->last_error),
			 "the lease store holds another fencing token for worker id %d", worker_id);
	UidLeaseUnlockAndWake();
}

/*
 * A registered static id that another live server holds in the store:
 * holder names it (system identifier, host, port, until when).
 */
void
UidLeasePublishHeldElsewhere(int worker_id, const char *holder)
{
	UidLeaseLock();
	lease->held = false;
	lease->state = UID_LEASE_HELD_ELSEWHERE;
	lease->worker_id = worker_id;
	lease->failure = UID_FAIL_HELD;
	strlcpy(lease->last_error, holder, sizeof(lease->last_error));
	UidLeaseUnlockAndWake();
}

/* No lease held any more: released on request, or at the worker's exit. */
void
UidLeasePublishReleased(UidLeaseState state)
{
	UidLeaseLock();
	lease->held = false;
	lease->state = state;
	UidLeaseUnlockAndWake();
}

/* The pool size and the free ids as last counted in the store. */
void
UidLeasePublishPool(int pool_size, int free_ids)
{
	UidLeaseLock();
	lease->pool_size = pool_size;
	lease->free_ids = free_ids;
	UidLeaseUnlockAndWake();
}

/* The tenure ledger's state, as a renewal counted it. */
void
UidLeasePublishLedger(int64 tenures, int64 overlaps)
{
	UidLeaseLock();
	lease->tenures = tenures;
	lease->tenure_overlaps = overlaps;
	UidLeaseUnlockAndWake();
}

/* How many store operations in a row failed (a renewal logs the count). */
int
UidLeaseConsecutiveFailures(void)
{
	UidLeaseShared s;

	UidLeaseSnapshot(&s);
	return s.consecutive_failures;
}

/* The pending request of uid_lease_release/acquire: true to release. */
bool
UidLeaseTakeRequest(uint64 *request)
{
	UidLeaseShared s;

	UidLeaseSnapshot(&s);
	*request = s.requests;
	return s.release_requested;
}

/*
 * The worker acted on every request up to this one: wakes the backend
 * waiting for it in uid_lease_release() or uid_lease_acquire().
 */
void
UidLeaseRequestDone(uint64 request)
{
	UidLeaseLock();
	if (lease->requests_done < request)
		lease->requests_done = request;
	UidLeaseUnlockAndWake();
}

/*
 * uid.lease_conninfo names this very server: the worker found out over
 * libpq and restarts to use that database in-process (lease_worker.c).
 */
void
UidLeaseNoteStoreIsSelf(const char *database, const char *role)
{
	UidLeaseLock();
	lease->store_is_self = true;
	strlcpy(lease->self_database, database, NAMEDATALEN);
	strlcpy(lease->self_role, role, NAMEDATALEN);
	UidLeaseUnlockAndWake();
}

/*
 * Whether the worker found that uid.lease_conninfo is this server, and as
 * which database and role (UidLeaseNoteStoreIsSelf).
 */
bool
UidLeaseStoreIsSelf(char *database, char *role)
{
	UidLeaseShared s;

	UidLeaseSnapshot(&s);
	strlcpy(database, s.self_database, NAMEDATALEN);
	strlcpy(role, s.self_role, NAMEDATALEN);
	return s.store_is_self;
}

/* ---------------------------------------------------------------------------
 * What backends see
 * ------------------------------------------------------------------------- */

/*
 * Store errors name hosts, socket paths and roles: superusers and members
 * of pg_monitor read them in full, others only their kind.
 */
static bool
UidLeaseMayReadErrors(void)
{
	return superuser() || has_privs_of_role(GetUserId(), ROLE_PG_MONITOR);
}

/*
 * The last error as the caller may read it: the text itself for
 * superusers and pg_monitor, else only its kind (UidLeaseMayReadErrors).
 */
static const char *
UidLeaseErrorText(UidLeaseFailure kind, const char *error)
{
	const char *what;

	if (error[0] == '\0' || UidLeaseMayReadErrors())
		return error;
	switch (kind)
	{
		case UID_FAIL_CONNECT:
			what = "could not connect to the lease store";
			break;
		case UID_FAIL_STATEMENT:
			what = "a statement in the lease store failed";
			break;
		case UID_FAIL_TABLE:
			what = "the lease table or its schema is not usable";
			break;
		case UID_FAIL_VALUE:
			what = "the lease store returned a value out of range";
			break;
		case UID_FAIL_HELD:
			what = "another server holds this worker id in the lease store";
			break;
		default:
			return error;		/* names no host, path or role */
	}
	return psprintf("%s (details in the server log, or in uid_lease_status() for superusers and pg_monitor)",
					what);
}

/* Why there is no worker id, from the status: the detail of UID02. */
static char *
UidLeaseNoWorkerIdDetail(const UidLeaseShared *s)
{
	const char *error = UidLeaseErrorText(s->failure, s->last_error);

	switch (s->state)
	{
		case UID_LEASE_STARTING:
		case UID_LEASE_WAITING:
			if (UidLeaseRegistersStatic())
				return psprintf("The lease worker has not registered worker id %d in the lease store yet.",
								UidGeneratorStaticWorkerId());
			return psprintf("The lease worker has not acquired a worker id yet.");
		case UID_LEASE_HELD_ELSEWHERE:
			return psprintf("Worker id %d is held in the lease store by another live server (%s); "
							"the first holder keeps it, and this server issues IDs once it has registered it.",
							s->worker_id, UidLeaseMayReadErrors() ? s->last_error :
							"named in the server log, and in uid_lease_status() for superusers and pg_monitor");
		case UID_LEASE_UNCONFIRMED:
			return psprintf("Worker id %d was acquired, but the lease store's standbys have not confirmed it yet%s%s.",
							s->worker_id, error[0] ? ": " : "", error);
		case UID_LEASE_HELD:
		case UID_LEASE_FAILING:
		case UID_LEASE_EXPIRED:
			if (error[0] == '\0')
				return psprintf("The lease on worker id %d was not renewed in time: uid_next() stops %d ms before it expires, "
								"and the lease worker has not renewed it since %s.",
								s->worker_id, uid_lease_safety_margin_ms,
								s->renewed_at ? timestamptz_to_str(s->renewed_at) : "its acquisition");
			return psprintf("The lease on worker id %d could not be renewed, and uid_next() stops %d ms before it expires (last error: %s).",
							s->worker_id, uid_lease_safety_margin_ms, error);
		case UID_LEASE_STORE_POOLED:
			return psprintf("The lease store was refused: %s. Connect uid.lease_conninfo to the store directly, "
							"or through a connection pooler in session mode, then call uid_lease_acquire().",
							error);
		case UID_LEASE_LOST:
			return psprintf("The lease on worker id %d was taken over: the lease store holds another fencing token.",
							s->worker_id);
		case UID_LEASE_NO_FREE_ID:
			return psprintf("All %d worker ids of the lease pool are leased.", uid_lease_pool_size);
		case UID_LEASE_RELEASED:
			return psprintf("The lease was released by uid_lease_release().");
		case UID_LEASE_CLOCK_SKEW:
		case UID_LEASE_STORE_ERROR:
			return psprintf("No lease could be acquired: %s.", error);
		case UID_LEASE_CONFIG_ERROR:
			return psprintf("%s.", error);
		default:
			return psprintf("The uid lease worker is not running.");
	}
}

/*
 * The configured value refused at start-up that keeps this server from
 * issuing (refused_settings.c), or NULL: named by UID02 before anything else.
 */
static const UidRefusal *
UidLeaseRefusal(const UidLeaseShared *s)
{
	return s->state == UID_LEASE_CONFIG_ERROR ? UidRefusalFirst(UidLeaseWorkerMode()) : NULL;
}

/* The message of UID02: in lease mode, what became of the lease. */
static char *
UidLeaseNoWorkerIdMessage(const UidLeaseShared *s)
{
	if (UidLeaseRefusal(s) != NULL && UidLeaseRefusal(s)->unknown)
		return psprintf("uid_next() has no worker id: %s in the configuration is no setting of uid",
						UidLeaseRefusal(s)->name);
	if (UidLeaseRefusal(s) != NULL)
		return psprintf("uid_next() has no worker id: the configured value of %s was refused",
						UidLeaseRefusal(s)->name);
	if (UidLeaseRegistersStatic())
		return psprintf("uid_next() has no worker id: static worker id %d is not registered in the lease store (state \"%s\")",
						UidGeneratorStaticWorkerId(), UidLeaseStateNames[s->state]);
	if (!uid_worker_id_lease)
		return psprintf("uid_next() has no worker id: the configuration gives this server none");
	if (s->held && (s->state == UID_LEASE_HELD || s->state == UID_LEASE_FAILING ||
					s->state == UID_LEASE_EXPIRED))
		return psprintf("uid_next() has no worker id: the lease on worker id %d was not renewed in time (state \"%s\")",
						s->worker_id, UidLeaseStateNames[s->state]);
	return psprintf("uid_next() has no worker id: no lease is held (state \"%s\")",
					UidLeaseStateNames[s->state]);
}

/* Raises UID02 with what became of the lease, read in one snapshot. */
static void
UidLeaseRaiseNoWorkerId(void)
{
	UidLeaseShared s = {0};
	const char *hint = NULL;

	UidLeaseSnapshot(&s);
	if (s.state == UID_LEASE_CONFIG_ERROR && s.failure == UID_FAIL_REPLICATED)
		hint = UidStoreReplicatedHint();
	else if (s.state == UID_LEASE_CONFIG_ERROR)
		(void) UidLeaseConfigProblem(&hint);
	else if (s.state == UID_LEASE_HELD_ELSEWHERE)
		hint = "Give this server a worker id of its own (or uid.worker_id = 'lease'), or stop the other holder: "
			"the lease worker registers the id by itself once it is free.";
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 errmsg("%s", UidLeaseNoWorkerIdMessage(&s)),
			 errdetail_internal("%s", UidLeaseRefusal(&s) ? UidRefusalDetail(UidLeaseRefusal(&s)) :
								UidLeaseNoWorkerIdDetail(&s)),
			 errhint("%s", hint ? hint :
					 "IDs are issued again as soon as a lease is held. "
					 "See SELECT * FROM uid_lease_status(), the server log, and the lease store "
					 "(uid.lease_conninfo, uid.lease_database).")));
}

/* What a backend waits for on the lease's condition variable. */
typedef enum UidLeaseWaitGoal
{
	UID_WAIT_FIRST_GRANT,		/* uid_next(): a worker id, or a final state */
	UID_WAIT_RELEASED,			/* uid_lease_release() acted on */
	UID_WAIT_ACQUIRED			/* uid_lease_acquire() acted on, lease taken or not */
} UidLeaseWaitGoal;

/* A lease on its way: the worker will grant a worker id shortly. */
static bool
UidLeaseStateIsTransient(UidLeaseState state)
{
	return state == UID_LEASE_STARTING || state == UID_LEASE_WAITING ||
		state == UID_LEASE_UNCONFIRMED;
}

/*
 * Whether a backend waiting on the condition variable may stop: its goal
 * is met, or no worker runs that could meet it.
 */
static bool
UidLeaseWaitDone(UidLeaseWaitGoal goal, uint64 request)
{
	UidLeaseShared s;
	UidLeaseState state;
	uint64		done;

	UidLeaseSnapshot(&s);
	state = s.state;
	done = s.requests_done;

	if (state == UID_LEASE_CONFIG_ERROR)
		return true;			/* no worker runs: nothing to wait for */
	switch (goal)
	{
		case UID_WAIT_FIRST_GRANT:
			return UidGeneratorWorkerId() >= 0 || !UidLeaseStateIsTransient(state);
		case UID_WAIT_RELEASED:
			return done >= request;
		case UID_WAIT_ACQUIRED:
			return done >= request && !UidLeaseStateIsTransient(state);
	}
	return true;
}

/* Sleeps on the condition variable until the goal is met or timeout_ms pass. */
static bool
UidLeaseWaitFor(UidLeaseWaitGoal goal, uint64 request, int timeout_ms, uint32 wait_event)
{
	TimestampTz end = GetCurrentTimestamp() + (TimestampTz) timeout_ms * 1000;
	bool		done = false;

	ConditionVariablePrepareToSleep(&lease->cv);
	for (;;)
	{
		long		left_ms;

		done = UidLeaseWaitDone(goal, request);
		left_ms = (long) ((end - GetCurrentTimestamp()) / 1000);
		if (done || left_ms <= 0)
			break;
		(void) ConditionVariableTimedSleep(&lease->cv, left_ms, wait_event);
	}
	ConditionVariableCancelSleep();
	return done;
}

/*
 * uid_next() found no usable grant (cold path only).  Right after start-up,
 * while the worker is taking its first lease or waits to pass the previous
 * holder's time, wait (once per call, at most UID_LEASE_AWAIT_MS) and
 * return so that the caller retries; otherwise raise UID02 and say why.
 */
void
UidLeaseAwaitWorkerId(bool *waited)
{
	if (!*waited)
	{
		*waited = true;
		if (UidLeaseWaitFor(UID_WAIT_FIRST_GRANT, 0, UID_LEASE_AWAIT_MS, UidWaitLeaseFirstGrant()) &&
			UidGeneratorWorkerId() >= 0)
			return;
	}
	UidLeaseRaiseNoWorkerId();
}

/* The store column of uid_lease_status(): where the lease table is, not how to reach it. */
static char *
UidLeaseStoreName(const UidLeaseShared *s)
{
	if (!UidLeaseWorkerMode())
		return "none";
	if (s->store_is_self)
		return psprintf("uid.lease_conninfo (this server, database %s)", s->self_database);
	if (uid_lease_conninfo[0] != '\0')
		return "uid.lease_conninfo";
	return psprintf("database %s", uid_lease_database);
}

/* The columns of uid_lease_status(), in the order of its SQL definition. */
typedef enum UidLeaseStatusColumn
{
	UID_LSC_MODE,
	UID_LSC_STATE,
	UID_LSC_WORKER_ID,
	UID_LSC_TOKEN,
	UID_LSC_STORE,
	UID_LSC_ACQUIRED_AT,
	UID_LSC_RENEWED_AT,
	UID_LSC_EXPIRES_AT,
	UID_LSC_GENERATE_UNTIL,
	UID_LSC_RENEWALS,
	UID_LSC_RENEWAL_FAILURES,
	UID_LSC_CONSECUTIVE_FAILURES,
	UID_LSC_LOSSES,
	UID_LSC_FREE_IDS,
	UID_LSC_LAST_ERROR,
	UID_LSC_WORKER_PID,
	UID_LSC_COLUMNS
} UidLeaseStatusColumn;

/* A timestamptz column, NULL while the time is not known (0). */
static void
UidLeaseStatusTime(Datum *values, bool *nulls, UidLeaseStatusColumn col, TimestampTz t)
{
	values[col] = TimestampTzGetDatum(t);
	nulls[col] = t == 0;
}

/*
 * A static worker id left unset where another writer's changes are
 * applied (topology.c): this backend's uid_next() refuses, and its status
 * says so.
 */
static void
UidLeaseNoteTopology(UidLeaseShared *s)
{
	const char *problem;

	if (s->state != UID_LEASE_STATIC || (problem = UidTopologyProblem(UidWorkerIdChosen())) == NULL)
		return;
	s->state = UID_LEASE_CONFIG_ERROR;
	s->failure = UID_FAIL_CONFIG;
	strlcpy(s->last_error, problem, sizeof(s->last_error));
}

/* uid_lease_status(): this server's lease, from one snapshot. */
Datum
uid_lease_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[UID_LSC_COLUMNS] = {0};
	bool		nulls[UID_LSC_COLUMNS] = {0};
	UidLeaseShared s = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	UidRequireSharedMemory("uid_lease_status");
	UidLeaseSnapshot(&s);
	UidLeaseNoteTopology(&s);

	values[UID_LSC_MODE] = CStringGetTextDatum(uid_worker_id_lease ? "lease" :
											   UidLeaseRegistersStatic() ? "registered" : "static");
	values[UID_LSC_STATE] = CStringGetTextDatum(UidLeaseStateNames[s.state]);
	/* worker id: the one uid_next() uses now, else the one last leased */
	if (UidGeneratorWorkerId() >= 0)
		values[UID_LSC_WORKER_ID] = Int32GetDatum(UidGeneratorWorkerId());
	else if (s.worker_id >= 0)
		values[UID_LSC_WORKER_ID] = Int32GetDatum(s.worker_id);
	else
		nulls[UID_LSC_WORKER_ID] = true;
	values[UID_LSC_TOKEN] = Int64GetDatum(s.token);
	nulls[UID_LSC_TOKEN] = s.token == 0;
	values[UID_LSC_STORE] = CStringGetTextDatum(UidLeaseStoreName(&s));
	UidLeaseStatusTime(values, nulls, UID_LSC_ACQUIRED_AT, s.acquired_at);
	UidLeaseStatusTime(values, nulls, UID_LSC_RENEWED_AT, s.renewed_at);
	UidLeaseStatusTime(values, nulls, UID_LSC_EXPIRES_AT, s.expires_at);
	UidLeaseStatusTime(values, nulls, UID_LSC_GENERATE_UNTIL, s.held ? s.generate_until : 0);
	values[UID_LSC_RENEWALS] = Int64GetDatum(s.renewals);
	values[UID_LSC_RENEWAL_FAILURES] = Int64GetDatum(s.renewal_failures);
	values[UID_LSC_CONSECUTIVE_FAILURES] = Int32GetDatum(s.consecutive_failures);
	values[UID_LSC_LOSSES] = Int64GetDatum(s.losses);
	values[UID_LSC_FREE_IDS] = Int32GetDatum(s.free_ids);
	nulls[UID_LSC_FREE_IDS] = s.free_ids < 0;
	values[UID_LSC_LAST_ERROR] = CStringGetTextDatum(UidLeaseErrorText(s.failure, s.last_error));
	nulls[UID_LSC_LAST_ERROR] = s.last_error[0] == '\0';
	values[UID_LSC_WORKER_PID] = Int32GetDatum(s.worker_pid);
	nulls[UID_LSC_WORKER_PID] = s.worker_pid == 0;
	if (tupdesc->natts != UID_LSC_COLUMNS)
		elog(ERROR, "uid_lease_status: expected %d result columns, the SQL definition has %d",
			 UID_LSC_COLUMNS, tupdesc->natts);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * uid_lease_ledger(): the tenure ledger of the store as the lease worker
 * last counted it (NULLs before it did, and without a lease).
 */
Datum
uid_lease_ledger(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[2] = {0};
	bool		nulls[2] = {0};
	UidLeaseShared s = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	UidRequireSharedMemory("uid_lease_ledger");
	UidLeaseSnapshot(&s);
	values[0] = Int64GetDatum(s.tenures);
	nulls[0] = s.tenures < 0;
	values[1] = Int64GetDatum(s.tenure_overlaps);
	nulls[1] = s.tenure_overlaps < 0;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * The lease SQL functions need shared memory and a lease worker:
 * uid.worker_id = 'lease', or a static id registered in a lease store.
 */
static void
UidLeaseRequireMode(const char *funcname)
{
	UidRequireSharedMemory(funcname);
	if (!UidLeaseWorkerMode())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s() needs uid.worker_id = 'lease', or a static worker id registered in a lease store", funcname),
				 errdetail("This server uses the static worker id %d, registered nowhere.", UidGeneratorWorkerId()),
				 errhint("Set uid.worker_id = 'lease', or set uid.lease_conninfo to register the static id, "
						 "in postgresql.conf and restart the server.")));
}

/* Asks the worker to release (or to take a lease again); returns the request's number. */
static uint64
UidLeaseRequest(bool release)
{
	Latch	   *latch;
	uint64		request;

	SpinLockAcquire(&lease->mutex);
	lease->release_requested = release;
	request = ++lease->requests;
	latch = lease->worker_latch;
	SpinLockRelease(&lease->mutex);
	if (latch)
		SetLatch(latch);
	return request;
}

/* The state, as uid_lease_release() and uid_lease_acquire() report it. */
static UidLeaseState
UidLeaseCurrentState(void)
{
	UidLeaseShared s;

	UidLeaseSnapshot(&s);
	return s.state;
}

/*
 * uid_lease_release(): asks the worker to release its lease and waits
 * (bounded) for it; true once released.
 */
Datum
uid_lease_release(PG_FUNCTION_ARGS)
{
	uint64		request;

	UidLeaseRequireMode("uid_lease_release");
	request = UidLeaseRequest(true);
	PG_RETURN_BOOL(UidLeaseWaitFor(UID_WAIT_RELEASED, request, UID_LEASE_REQUEST_MS,
								   UidWaitLeaseRequest()) &&
				   UidLeaseCurrentState() == UID_LEASE_RELEASED);
}

/*
 * uid_lease_acquire(): asks the worker to take a lease again (after a
 * release or a refused store) and waits (bounded); true once held.
 */
Datum
uid_lease_acquire(PG_FUNCTION_ARGS)
{
	uint64		request;

	UidLeaseRequireMode("uid_lease_acquire");
	request = UidLeaseRequest(false);
	PG_RETURN_BOOL(UidLeaseWaitFor(UID_WAIT_ACQUIRED, request, UID_LEASE_REQUEST_MS,
								   UidWaitLeaseRequest()) &&
				   UidLeaseCurrentState() == UID_LEASE_HELD);
}

/*
 * uid_lease_table_sql(owner, schema): the statements that create the lease
 * table, the same text the lease worker runs (lease_store.c), for creating
 * it beforehand in a store where the worker may not create schemas.
 */
Datum
uid_lease_table_sql(PG_FUNCTION_ARGS)
{
	Name		owner = PG_GETARG_NAME(0);
	Name		schema = PG_GETARG_NAME(1);

	if (strncmp(NameStr(*schema), "pg_", 3) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_RESERVED_NAME),
				 errmsg("unacceptable schema name \"%s\"", NameStr(*schema)),
				 errdetail("The prefix \"pg_\" is reserved for system schemas."),
				 errhint("Pick the schema named by uid.lease_schema, by default uid_lease.")));
	PG_RETURN_TEXT_P(cstring_to_text(UidStoreTableSql(NameStr(*schema), NameStr(*owner))));
}
