/*
 * generator.c
 *		uid_next() and uid_next_batch(): the Snowflake-style generator whose
 *		state is one 64-bit word in shared memory, advanced by compare-and-swap.
 *
 * Shared state and its guards:
 *	state		atomic (ms since the uid epoch << 12 | sequence) of the last
 *				issued ID.  Every backend of every database advances it with
 *				compare-and-swap only, so the IDs of the whole server are
 *				strictly increasing in the order the calls complete.
 *				The state starts above, and is raised to, the floors of
 *				durable issued time (src/floor/: uid.hwm at start-up, the
 *				end of a recovery, a new lease's previous holder,
 *				uid_advance_past), which that module keeps and explains.
 *	recovery_floor_done	atomic flag: the start-up floor (UidFloorAtStart)
 *				was applied to the state.
 *	ms_start	atomic: state word of the first ID of the latest millisecond
 *				opened (only raised), so that the next can tell how many IDs
 *				that one took (UidSequenceStart).  A hint: a stale value
 *				only changes where a millisecond starts, never the order.
 *	grant		atomic: the worker id this server may put in IDs, and the
 *				last millisecond it may issue in (the grant word, below).  Set
 *				once at shared-memory init for a static uid.worker_id; in
 *				lease mode written only by the lease worker
 *				(lease_worker.c), and 0 (no worker id) while no lease is held.
 *
 * No lock is taken on the hot path.  The uid LWLock (floor/hwm.c) is taken
 * only to extend the durable reservation of time, about twice per reserve
 * window.
 */
#include "postgres.h"

#include <limits.h>

#include "access/xlog.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/timestamp.h"

#include "core/clock.h"
#include "core/generator.h"
#include "core/preload.h"
#include "core/random.h"
#include "core/refused_settings.h"
#include "core/stats.h"
#include "core/topology.h"
#include "core/uuid7.h"
#include "floor/floor.h"
#include "ids.h"

typedef struct UidGeneratorShared
{
	pg_atomic_uint64 state;
	pg_atomic_uint32 recovery_floor_done;
	pg_atomic_uint64 ms_start;
	pg_atomic_uint64 grant;
} UidGeneratorShared;

/*
 * The grant word: (deadline << 11) | valid bit (1 << 10) | worker id.  The
 * deadline is the last millisecond (since the uid epoch) in which IDs may be
 * issued: UID_MAX_TIME for a static worker id, the lease's expiry minus the
 * safety margin in lease mode.  0 means no worker id.  One word, so that the
 * hot path checks both with a single atomic read.
 */
#define UID_GRANT_VALID			((uint64) 1 << UID_WORKER_BITS)
#define UidMakeGrant(worker, deadline) \
	(((uint64) (deadline) << (UID_WORKER_BITS + 1)) | UID_GRANT_VALID | (uint64) (worker))
#define UidGrantWorker(g)		((int) ((g) & UID_MAX_WORKER))
#define UidGrantDeadline(g)		((int64) ((g) >> (UID_WORKER_BITS + 1)))

static UidGeneratorShared *gen = NULL;

/*
 * This backend saw recovery ended (RecoveryInProgress() false, which stays
 * false for the rest of the backend's life) and the end-of-recovery floor
 * applied: the checks of UidGeneratorCheckUsable that cannot fail again.
 */
static bool recovery_floor_seen = false;

static void UidGeneratorLogStart(void);

static char *uid_worker_id_setting = NULL;
static int	uid_worker_id_static = 0;
static GucSource uid_worker_id_source = PGC_S_DEFAULT;	/* where a chosen value came from */
bool		uid_worker_id_lease = false;	/* uid.worker_id = 'lease' */
bool		uid_worker_id_given = false;	/* set in the configuration */

/* the lease subsystem's UidLeaseAwaitWorkerId, set by _PG_init (generator.h) */
UidAwaitWorkerIdHook uid_await_worker_id_hook = NULL;
int			uid_max_batch = 10000;

/*
 * uid.sequence_start: where the sequence of a new millisecond starts
 * (UidSequenceStart).  'spread' carries it on from the last ID so that the
 * low bits of IDs issued at low traffic spread over id % n; 'zero' is the
 * rule of uid 1.2 and before, under which the sequence field counts the IDs
 * of its millisecond.
 */
typedef enum UidSequenceStartMode
{
	UID_SEQUENCE_START_SPREAD,
	UID_SEQUENCE_START_ZERO
} UidSequenceStartMode;

static const struct config_enum_entry uid_sequence_start_options[] = {
	{"spread", UID_SEQUENCE_START_SPREAD, false},
	{"zero", UID_SEQUENCE_START_ZERO, false},
	{NULL, 0, false}
};

static int	uid_sequence_start = UID_SEQUENCE_START_SPREAD;

/*
 * Under 'spread', a new millisecond starts 1 to UID_SEQ_STEP_MAX past the
 * last sequence issued (modulo 4096), or at 0 (UidSequenceStart).  After a
 * full millisecond that is sequence 0 to 31: at most 31 of 4096 IDs (0.76%)
 * not issued.  A smaller step would mix id % n less well with the time bits
 * where n is no power of 2 and the IDs come at a regular pace
 * (docs/snowflake.md).
 */
#define UID_SEQ_STEP_MAX	32

PG_FUNCTION_INFO_V1(uid_next);
PG_FUNCTION_INFO_V1(uid_next_batch);
PG_FUNCTION_INFO_V1(uid_advance_past);

/*
 * uid.worker_id is text so that it can name a mode as well as a number:
 * "0".."1023" is a static worker id, "lease" takes one from the lease table
 * (lease_worker.c).
 */
static bool
UidWorkerIdCheck(char **newval, void **extra, GucSource source)
{
	char	   *end;
	long		v;

	if (*newval == NULL || (*newval)[0] == '\0')
	{
		GUC_check_errdetail("uid.worker_id must be an integer from 0 to %d, or \"lease\".", UID_MAX_WORKER);
		return false;
	}
	if (pg_strcasecmp(*newval, "lease") != 0)
	{
		errno = 0;
		v = strtol(*newval, &end, 10);
		while (*end == ' ')
			end++;
		if (errno != 0 || end == *newval || *end != '\0' || v < 0 || v > UID_MAX_WORKER)
		{
			GUC_check_errdetail("uid.worker_id must be an integer from 0 to %d, or \"lease\".", UID_MAX_WORKER);
			return false;
		}
	}
	/* the Citus and replication checks tell a chosen 0 from the default */
	if (UidSettingFromConfiguration(source))
	{
		uid_worker_id_given = true;
		uid_worker_id_source = source;
	}
	UidRefusalAccepted("uid.worker_id", source);
	return true;
}

static void
UidWorkerIdAssign(const char *newval, void *extra)
{
	uid_worker_id_lease = (pg_strcasecmp(newval, "lease") == 0);
	uid_worker_id_static = uid_worker_id_lease ? 0 : (int) strtol(newval, NULL, 10);
}

/* The static worker id, or -1 in lease mode; valid once settings are loaded. */
int
UidGeneratorStaticWorkerId(void)
{
	return uid_worker_id_lease ? -1 : uid_worker_id_static;
}

/*
 * uid.worker_id is watched (refused_settings.c): a refused value would run
 * on the default 0, the worker id of every server left unconfigured.
 */
void
UidGeneratorDefineSettings(void)
{
	UidRefusalWatch("uid.worker_id", UID_REFUSAL_ALWAYS, false);
	DefineCustomStringVariable("uid.worker_id",
							   "Worker id (0..1023) that uid_next() puts in every ID of this server, or \"lease\".",
							   "Every server that issues IDs into the same tables needs its own; "
							   "\"lease\" takes a free one from the lease table.",
							   &uid_worker_id_setting,
							   "0",
							   PGC_POSTMASTER,
							   0,
							   UidWorkerIdCheck, UidWorkerIdAssign, NULL);
	UidRefusalWatchEnd();

	DefineCustomIntVariable("uid.max_batch",
							"Largest count uid_next_batch() accepts in one call.",
							NULL,
							&uid_max_batch,
							10000, 1, 10000000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);

	DefineCustomEnumVariable("uid.sequence_start",
							 "Where uid_next() starts the sequence field of a new millisecond.",
							 "\"spread\" carries it on from the last ID, so that id % n of IDs "
							 "issued at low traffic is balanced; \"zero\" starts every millisecond "
							 "at 0, so that the field counts the IDs of its millisecond.",
							 &uid_sequence_start,
							 UID_SEQUENCE_START_SPREAD,
							 uid_sequence_start_options,
							 PGC_SIGHUP,
							 0,
							 NULL, NULL, NULL);
}

Size
UidGeneratorShmemSize(void)
{
	return MAXALIGN(sizeof(UidGeneratorShared));
}

/*
 * Runs after UidFloorShmemInit, so the durable floor is known: the first ID
 * of this run must be in a later millisecond, hence sequence 4095 in the
 * state.
 */
void
UidGeneratorShmemInit(void)
{
	bool		found;

	gen = ShmemInitStruct("uid generator", UidGeneratorShmemSize(), &found);
	if (found)
		return;
	pg_atomic_init_u32(&gen->recovery_floor_done, 0);
	pg_atomic_init_u64(&gen->state,
					   UidMakeState(UidFloorRestored(UID_GEN_UID_NEXT), UID_MAX_SEQ));
	/* no millisecond opened yet: a time no state word has */
	pg_atomic_init_u64(&gen->ms_start, PG_UINT64_MAX);
	/* lease mode: no worker id until the lease worker grants one */
	pg_atomic_init_u64(&gen->grant, uid_worker_id_lease ? 0 :
					   UidMakeGrant(uid_worker_id_static, UID_MAX_TIME));
	UidGeneratorWarnLayoutEnd();
	UidGeneratorLogStart();
}

/*
 * At start-up (and each crash-and-restart cycle), one LOG line: the worker
 * id in use and where it came from, and each generator's floor and where it
 * came from, so that a setting that did not take (a refused value, a
 * misspelled name, which PostgreSQL removes with a WARNING of its own) shows
 * as the worker id actually used: a default is named as one.
 */
static void
UidGeneratorLogStart(void)
{
	const UidRefusal *r = UidRefusalFirst(false);
	char		worker[256];
	char		floor_next[256];
	char		floor_uuid7[256];

	if (r != NULL && r->unknown)
		snprintf(worker, sizeof(worker),
				 "no worker id (%s in the configuration is no setting of uid; uid_next() issues nothing, UID02, until it is fixed)",
				 r->name);
	else if (r != NULL && strcmp(r->name, "uid.worker_id") == 0)
		snprintf(worker, sizeof(worker),
				 "no worker id (uid.worker_id = '%s' in the configuration was refused; uid_next() issues nothing, UID02, until it is fixed)",
				 r->value ? r->value : "");
	else if (uid_worker_id_lease)
		snprintf(worker, sizeof(worker),
				 "worker id from a lease (uid.worker_id = 'lease', from the %s; the lease worker logs the id it takes)",
				 GucSource_Names[uid_worker_id_source]);
	else if (uid_worker_id_given)
		snprintf(worker, sizeof(worker), "worker id %d (uid.worker_id, from the %s)",
				 uid_worker_id_static, GucSource_Names[uid_worker_id_source]);
	else
		snprintf(worker, sizeof(worker), "worker id %d (the default: uid.worker_id is not set)",
				 uid_worker_id_static);
	UidFloorDescribe(UID_GEN_UID_NEXT, floor_next, sizeof(floor_next));
	UidFloorDescribe(UID_GEN_UUID7, floor_uuid7, sizeof(floor_uuid7));
	ereport(LOG,
			(errmsg("uid: %s; uid_next() floor %s; uuid7() floor %s", worker, floor_next, floor_uuid7)));
}

/*
 * The 41-bit time field ends on 2095-09-07.  Warn at start-up in the last
 * year, so that operators plan a new epoch long before uid_next() stops.
 */
void
UidGeneratorWarnLayoutEnd(void)
{
	int64		days = (UID_LAYOUT_END_UNIX_MS - UidClockNowUnixMs()) / MS_PER_DAY;

	if (days < UID_LAYOUT_WARN_DAYS)
		ereport(WARNING,
				(errmsg("uid: the uid_next() time field runs out in %lld days, on %s",
						(long long) Max(days, 0),
						timestamptz_to_str(UidUnixMsToTimestamptz(UID_LAYOUT_END_UNIX_MS))),
				 errhint("Plan the move to a new epoch or to uuid7() before then; uid_next() stops at that time.")));
}

/* on_shmem_exit in the postmaster: record the exact last issued time of uid_next() and uuid7(). */
void
UidGeneratorShmemExit(int code, Datum arg)
{
	int64		last[UID_GENERATORS];

	if (code != 0 || gen == NULL)
		return;
	/* each generator starts above its own record */
	last[UID_GEN_UID_NEXT] = UidStateMs(pg_atomic_read_u64(&gen->state));
	last[UID_GEN_UUID7] = UidUuid7LastMs();
	UidFloorShutdown(last);
}

int
UidGeneratorWorkerId(void)
{
	uint64		g = gen ? pg_atomic_read_u64(&gen->grant) : 0;

	return (g & UID_GRANT_VALID) ? UidGrantWorker(g) : -1;
}

/*
 * Lease worker (lease_worker.c) interface.  The ordering arguments:
 *
 * Taking a worker id: UidGeneratorRaiseFloor, then UidGeneratorGrant.  A
 * backend reads the grant after it read the state word and before its
 * compare-and-swap; if it sees the new grant, the floor was raised before,
 * so a CAS from a state read before the raise fails and is retried.
 *
 * Giving it up: UidGeneratorRevoke swaps the grant to 0 (a full barrier),
 * then moves the state word forward with a compare-and-swap of its own.  A
 * backend that saw the old grant had read the state before; once the state
 * has moved, its compare-and-swap from that stale value fails, and its retry
 * reads the grant after the state, finds 0 and issues nothing.  So every ID
 * issued under the old grant is in the state word as moved, which bounds
 * them exactly, whatever the clock did meanwhile (no clock is read).
 */

/* Raises the state so that the next ID is in a millisecond after ms. */
static void
UidGeneratorRaiseState(int64 ms)
{
	(void) UidAtomicRaiseU64(&gen->state, UidMakeState(ms, UID_MAX_SEQ));
}

/* The lease worker: the previous holder of the worker id issued up to ms. */
void
UidGeneratorRaiseFloor(int64 ms)
{
	UidFloorRaise(ms, UID_FLOOR_LEASE);
	UidGeneratorRaiseState(ms);
}

/* Allows IDs with this worker id in milliseconds up to deadline_ms. */
void
UidGeneratorGrant(int worker, int64 deadline_ms)
{
	Assert(worker >= 0 && worker <= UID_MAX_WORKER);
	UidFloorSetWorker(worker);
	if (deadline_ms < 0)
		deadline_ms = -1;		/* lease already past its margin */
	(void) pg_atomic_exchange_u64(&gen->grant, deadline_ms < 0 ? 0 :
								  UidMakeGrant(worker, Min(deadline_ms, UID_MAX_TIME)));
}

/*
 * Stops generation at once; returns the millisecond (since the uid epoch)
 * at or below which every ID issued under the revoked grant lies.
 */
int64
UidGeneratorRevoke(void)
{
	uint64		old;
	uint64		moved;

	(void) pg_atomic_exchange_u64(&gen->grant, 0);
	old = pg_atomic_read_u64(&gen->state);
	do
	{
		/* a later value than any compare-and-swap can have expected */
		moved = UidMakeState(UidStateMs(old) + 1, UID_MAX_SEQ);
	} while (!pg_atomic_compare_exchange_u64(&gen->state, &old, moved));
	return UidStateMs(moved);
}

uint64
UidGeneratorLastState(void)
{
	return gen ? pg_atomic_read_u64(&gen->state) : 0;
}

/*
 * Checks made once per call of a generating function: on the hot path two
 * backend-local flags.  The topology check (topology.c) runs again after
 * any change of pg_subscription.
 */
static inline void
UidGeneratorCheckUsable(const char *funcname)
{
	UidRequireSharedMemory(funcname);
	if (likely(recovery_floor_seen && uid_topology_checked))
		return;
	if (!recovery_floor_seen)
	{
		if (RecoveryInProgress())
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg("%s() cannot run on a hot standby", funcname),
					 errdetail("A standby shares its primary's worker id; IDs issued here could repeat the primary's."),
					 errhint("Call %s() on the primary, or promote this standby first.", funcname)));
		if (!pg_atomic_read_u32(&gen->recovery_floor_done))
		{
			/* the start-up floor (src/floor/), once: the flag after the raise */
			UidGeneratorRaiseState(UidFloorAtStart());
			pg_atomic_write_u32(&gen->recovery_floor_done, 1);
		}
		recovery_floor_seen = true;
	}
	/*
	 * A refused uid.worker_id leaves it "not set" too; then the grant is
	 * withdrawn, and UID02 names the refused value rather than the topology.
	 */
	if (!uid_topology_checked)
		UidTopologyCheck(UidWorkerIdChosen() || UidRefusalFirst(false) != NULL);
}

/*
 * The first sequence of a claim of want IDs in a millisecond after last_ms,
 * the millisecond of the last ID, whose sequence was last_seq.  Any value
 * keeps the order (the millisecond grew); the choice is about the low bits
 * and capacity.
 *
 * 'spread': last_seq + 1 + a random step of 0..31, modulo 4096.  At low
 * traffic, where each ID starts a millisecond, the sequence walks round all
 * 4096 values, so id % 2^k is balanced for every k up to 12, and for other
 * n the sequence is mixed with the time bits.  A plain carried counter
 * would tell anyone holding two IDs exactly how many the worker issued
 * between them; the step blurs that.
 *
 * It starts at 0 instead when the room left above that start is less than
 * the claim (so that batches and adopted runs are not cut short) or less
 * than the IDs that last_ms took (ms_start): busy traffic is expected to go
 * on, and a millisecond that starts high would fill early and make its
 * callers wait for the next.  So under saturation, and at any rate above
 * 2048 IDs per ms, a millisecond starts at 0 or, at worst, at the random
 * step (0..31) after a full one: the cap is kept to within 0.76%.
 *
 * 'zero': 0, the rule of uid 1.2 and before.
 */
static inline int
UidSequenceStart(int64 last_ms, int last_seq, int want)
{
	uint64		start;
	int			need = want;
	int			seq0;

	if (uid_sequence_start == UID_SEQUENCE_START_ZERO)
		return 0;
	start = pg_atomic_read_u64(&gen->ms_start);
	if (UidStateMs(start) == last_ms && UidStateSeq(start) <= last_seq)
		need = Max(need, last_seq - UidStateSeq(start) + 1);
	seq0 = (last_seq + 1 + (int) (UidRandomCheap32() % UID_SEQ_STEP_MAX)) & UID_MAX_SEQ;
	if (seq0 > UID_SEQ_PER_MS - need)
		seq0 = 0;
	return seq0;
}

/* Records the first ID of a millisecond just opened, unless a later one is recorded. */
static void
UidNoteMsStart(uint64 first)
{
	uint64		old = pg_atomic_read_u64(&gen->ms_start);

	while (old == PG_UINT64_MAX || old < first)
		if (pg_atomic_compare_exchange_u64(&gen->ms_start, &old, first))
			break;
}

/*
 * Takes up to want consecutive IDs of one millisecond; sets *got (1..want)
 * and returns the state word of the first.  The caller composes the IDs.
 *
 * Strict order: the state only grows, and each successful compare-and-swap
 * claims sequence numbers above the last claimed.  No ID is returned for a
 * millisecond that the durable high-water mark does not yet cover.
 *
 * Inlined into both callers: for uid_next (want = 1, one ID) the compiler
 * then drops the count arithmetic and the out-parameters.
 */
static pg_attribute_always_inline uint64
UidReserve(int want, int *got, int *worker)
{
	bool		waited_clock = false;
	bool		waited_overflow = false;
	bool		waited_lease = false;

	for (;;)
	{
		uint64		old = pg_atomic_read_u64(&gen->state);
		int64		last_ms = UidStateMs(old);
		int			last_seq = UidStateSeq(old);
		int64		now = UidClockNowUnixMs() - UID_EPOCH_MS;
		int64		ms;
		int			seq0;
		int			n;
		uint64		grant;

		if (unlikely(now < 0 || now > UID_MAX_TIME))
			UidClockCheckRange(now);

		if (likely(now > last_ms))
		{
			ms = now;
			seq0 = UidSequenceStart(last_ms, last_seq, want);
		}
		else if (now == last_ms)
		{
			if (last_seq == UID_MAX_SEQ)
			{
				if (!waited_overflow)
				{
					UidStatsAdd(UID_COUNT_OVERFLOW_WAITS, 1);
					waited_overflow = true;
				}
				UidClockSpinPast(last_ms);
				continue;
			}
			ms = last_ms;
			seq0 = last_seq + 1;
		}
		else
		{
			/*
			 * The clock is behind the last issued time.  Right after start-up
			 * (nothing issued yet in this run) the reserve window is waited
			 * out too: the floor may be a reservation ahead of the clock.
			 */
			int64		max_lag = uid_clock_max_wait_ms;
			bool		at_floor = (last_ms == UidFloorMs());

			/* a lost floor (UID07) says more than the clock behind it */
			if (unlikely(UidFloorLost(UID_GEN_UID_NEXT)))
				UidFloorRefuseLost(UID_GEN_UID_NEXT);
			if (at_floor)
				max_lag = Max(max_lag, uid_reserve_window_ms);
			UidClockGuard(last_ms, now, max_lag, !waited_clock,
						  at_floor ? UidFloorExplain() : NULL);
			waited_clock = true;
			continue;
		}

		/*
		 * The worker id, and in lease mode the deadline: read after the state
		 * and the clock, before the compare-and-swap (see UidGeneratorRevoke).
		 * The barrier is free on x86.
		 */
		pg_read_barrier();
		grant = pg_atomic_read_u64(&gen->grant);
		if (unlikely(!(grant & UID_GRANT_VALID) || ms > UidGrantDeadline(grant)))
		{
			/* waits once for a lease being acquired, else raises UID02 */
			uid_await_worker_id_hook(&waited_lease);
			continue;
		}

		if (unlikely(UidFloorNeedsExtending(UID_GEN_UID_NEXT, ms)))
			UidFloorEnsureCovers(UID_GEN_UID_NEXT, ms);
		if (ms > last_ms)
			UidFloorRelogIfCheckpointed();

		n = Min(want, UID_SEQ_PER_MS - seq0);
		if (pg_atomic_compare_exchange_u64(&gen->state, &old,
										   UidMakeState(ms, seq0 + n - 1)))
		{
			if (ms > last_ms)
				UidNoteMsStart(UidMakeState(ms, seq0));
			*got = n;
			*worker = UidGrantWorker(grant);
			return UidMakeState(ms, seq0);
		}
	}
}

Datum
uid_next(PG_FUNCTION_ARGS)
{
	uint64		first;
	int			got;
	int			worker;

	UidGeneratorCheckUsable("uid_next");
	first = UidReserve(1, &got, &worker);
	UidStatsAdd(UID_COUNT_IDS, 1);
	PG_RETURN_INT64(UidCompose(UidStateMs(first), worker, UidStateSeq(first)));
}

/*
 * The first ID of a run of count consecutive IDs (1..4096), all issued to
 * the caller: the block an adopted sequence with an INCREMENT above 1 hands
 * out (adopt.c).  A claim that the end of a millisecond cuts short is
 * dropped (those IDs are never issued) and the run is claimed again in the
 * next millisecond, so the run is always whole.
 */
int64
UidGeneratorNextRun(const char *funcname, int count)
{
	Assert(count >= 1 && count <= UID_SEQ_PER_MS);
	UidGeneratorCheckUsable(funcname);
	for (;;)
	{
		uint64		first;
		int			got;
		int			worker;

		first = UidReserve(count, &got, &worker);
		UidStatsAdd(UID_COUNT_IDS, got);
		if (got == count)
			return UidCompose(UidStateMs(first), worker, UidStateSeq(first));
	}
}

/*
 * The first claim of a uid_next_batch() call takes this many IDs; each
 * further claim twice as many as the one before, up to a millisecond's 4096.
 */
#define UID_BATCH_FIRST_CLAIM	1

/* Per-call state of uid_next_batch: the run of IDs claimed but not yet returned. */
typedef struct UidBatchState
{
	int64		remaining;		/* IDs still to claim */
	uint64		next;			/* state word of the next ID to return */
	int			left;			/* IDs of the claimed run not yet returned */
	int			worker;			/* worker id the claimed run was granted with */
	int			claim;			/* IDs the next claim takes at most */
} UidBatchState;

/*
 * uid_next_batch(count): count IDs, strictly increasing, and all above any
 * ID returned before the call started.  Value per call: the IDs are claimed
 * as the caller reads them, in runs that double from 1 to a millisecond's
 * 4096 (one compare-and-swap per run), so a caller that stops early (LIMIT,
 * a cursor closed) has used at most about twice what it read, and one that
 * reads everything claims 4096 at a time after the first dozen runs.  An
 * ID of a claimed run that is not read is never issued by anyone.
 */
Datum
uid_next_batch(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	UidBatchState *st;

	if (SRF_IS_FIRSTCALL())
	{
		int32		count = PG_GETARG_INT32(0);
		MemoryContext oldcontext;

		UidGeneratorCheckUsable("uid_next_batch");
		if (count < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("uid_next_batch() count must not be negative, got %d", count),
					 errhint("Pass a count from 0 to uid.max_batch (%d).", uid_max_batch)));
		if (count > uid_max_batch)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("uid_next_batch() count %d is larger than uid.max_batch (%d)",
							count, uid_max_batch),
					 errhint("Ask for at most %d IDs per call, or have a superuser raise uid.max_batch.",
							 uid_max_batch)));

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		st = palloc0(sizeof(UidBatchState));
		st->remaining = count;
		st->claim = UID_BATCH_FIRST_CLAIM;
		funcctx->user_fctx = st;
		MemoryContextSwitchTo(oldcontext);
		UidStatsAdd(UID_COUNT_BATCH_CALLS, 1);
	}

	funcctx = SRF_PERCALL_SETUP();
	st = funcctx->user_fctx;

	if (st->left == 0 && st->remaining > 0)
	{
		int			got;

		st->next = UidReserve((int) Min(st->remaining, st->claim), &got, &st->worker);
		st->left = got;
		st->remaining -= got;
		st->claim = Min(st->claim * 2, UID_SEQ_PER_MS);
		UidStatsAdd(UID_COUNT_IDS, got);
	}
	if (st->left > 0)
	{
		uint64		s = st->next;

		st->next++;
		st->left--;
		SRF_RETURN_NEXT(funcctx,
						Int64GetDatum(UidCompose(UidStateMs(s), st->worker, UidStateSeq(s))));
	}
	SRF_RETURN_DONE(funcctx);
}

/*
 * uid_advance_past(id): every later uid_next() of this server is greater than
 * id, whatever its worker id: for data restored from another server, or a
 * server whose clock was ahead.  Durable: the reservation is extended first.
 * Returns false if the generator was already past id.
 *
 * Where uid_next()'s floor is lost (uid.hwm missing where values were
 * issued: UID07), id is taken as the largest value stored: the state is
 * raised first (nothing can be issued meanwhile: the lost floor refuses),
 * then uid_next() issues again under a reservation written to uid.hwm.
 */
Datum
uid_advance_past(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	int64		ms;
	bool		moved;

	UidGeneratorCheckUsable("uid_advance_past");
	if (id < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%lld is not a uid: uid values are never negative", (long long) id)));
	ms = id >> (UID_WORKER_BITS + UID_SEQ_BITS);
	if (ms > UidClockNowUnixMs() - UID_EPOCH_MS + UID_ADVANCE_MAX_AHEAD_MS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uid %lld was issued at %s, more than a day ahead of this server's clock",
						(long long) id,
						timestamptz_to_str(UidUnixMsToTimestamptz(ms + UID_EPOCH_MS))),
				 errdetail("uid_next() would refuse to issue IDs until then."),
				 errhint("Check the ID, and this server's clock.")));
	moved = pg_atomic_read_u64(&gen->state) < UidMakeState(ms, UID_MAX_SEQ);
	if (moved)
	{
		/* durable first, unless the floor is lost (then nothing is issued) */
		UidFloorCoverAndRaise(ms, UID_FLOOR_ADVANCE);
		UidGeneratorRaiseState(ms);
	}
	if (UidFloorLost(UID_GEN_UID_NEXT))
		UidFloorFound(UID_GEN_UID_NEXT,
					  Max(ms, UidStateMs(pg_atomic_read_u64(&gen->state))));
	PG_RETURN_BOOL(moved);
}
