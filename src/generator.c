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
 *	floor_ms	set by the postmaster at shared-memory init from the durable
 *				high-water mark (hwm.c); read-only afterwards.
 *	worker_id	set at shared-memory init from uid.worker_id; read-only.
 *
 * No lock is taken on the hot path.  The uid LWLock (hwm.c) is taken only to
 * extend the durable reservation of time, about twice per reserve window.
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
#include "utils/timestamp.h"

#include "uid.h"

typedef struct UidGeneratorShared
{
	pg_atomic_uint64 state;
	int64		floor_ms;
	int32		worker_id;
} UidGeneratorShared;

static UidGeneratorShared *gen = NULL;

static char *uid_worker_id_setting = NULL;
static int	uid_worker_id_static = 0;
int			uid_max_batch = 10000;

PG_FUNCTION_INFO_V1(uid_next);
PG_FUNCTION_INFO_V1(uid_next_batch);

/*
 * uid.worker_id is text so that it can name a mode as well as a number:
 * "0".."1023" is a static worker id.  The lease mode will be spelled "lease".
 */
static bool
UidWorkerIdCheck(char **newval, void **extra, GucSource source)
{
	char	   *end;
	long		v;

	if (*newval == NULL)
		return false;
	errno = 0;
	v = strtol(*newval, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || end == *newval || *end != '\0' || v < 0 || v > UID_MAX_WORKER)
	{
		GUC_check_errdetail("uid.worker_id must be an integer from 0 to %d.", UID_MAX_WORKER);
		return false;
	}
	return true;
}

static void
UidWorkerIdAssign(const char *newval, void *extra)
{
	uid_worker_id_static = (int) strtol(newval, NULL, 10);
}

void
UidGeneratorDefineSettings(void)
{
	DefineCustomStringVariable("uid.worker_id",
							   "Worker id (0..1023) that uid_next() puts in every ID of this server.",
							   "Every server that issues IDs into the same tables needs its own.",
							   &uid_worker_id_setting,
							   "0",
							   PGC_POSTMASTER,
							   0,
							   UidWorkerIdCheck, UidWorkerIdAssign, NULL);

	DefineCustomIntVariable("uid.max_batch",
							"Largest count uid_next_batch() accepts in one call.",
							NULL,
							&uid_max_batch,
							10000, 1, 10000000,
							PGC_SUSET,
							0,
							NULL, NULL, NULL);
}

Size
UidGeneratorShmemSize(void)
{
	return MAXALIGN(sizeof(UidGeneratorShared));
}

/*
 * Runs after UidHwmShmemInit, so the durable floor is known: the first ID of
 * this run must be in a later millisecond, hence sequence 4095 in the state.
 */
void
UidGeneratorShmemInit(void)
{
	bool		found;

	gen = ShmemInitStruct("uid generator", UidGeneratorShmemSize(), &found);
	if (found)
		return;
	gen->floor_ms = UidHwmRestoredFloor();
	gen->worker_id = uid_worker_id_static;
	pg_atomic_init_u64(&gen->state, UidMakeState(gen->floor_ms, UID_MAX_SEQ));
	UidGeneratorWarnLayoutEnd();
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

/* on_shmem_exit in the postmaster: record the exact last issued time. */
void
UidGeneratorShmemExit(int code, Datum arg)
{
	if (code != 0 || gen == NULL)
		return;
	UidHwmShutdown(UidStateMs(pg_atomic_read_u64(&gen->state)));
}

int
UidGeneratorWorkerId(void)
{
	return gen ? gen->worker_id : -1;
}

uint64
UidGeneratorLastState(void)
{
	return gen ? pg_atomic_read_u64(&gen->state) : 0;
}

/*
 * Checks made once per call of a generating function.
 */
static inline void
UidGeneratorCheckUsable(const char *funcname)
{
	UidRequireSharedMemory(funcname);
	if (unlikely(RecoveryInProgress()))
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s() cannot run on a hot standby", funcname),
				 errdetail("A standby shares its primary's worker id; IDs issued here could repeat the primary's."),
				 errhint("Call %s() on the primary, or promote this standby first.", funcname)));
}

/*
 * Takes up to want consecutive IDs of one millisecond; sets *got (1..want)
 * and returns the state word of the first.  The caller composes the IDs.
 *
 * Strict order: the state only grows, and each successful compare-and-swap
 * claims sequence numbers above the last claimed.  No ID is returned for a
 * millisecond that the durable high-water mark does not yet cover.
 */
static uint64
UidReserve(int want, int *got)
{
	bool		waited_clock = false;
	bool		waited_overflow = false;

	for (;;)
	{
		uint64		old = pg_atomic_read_u64(&gen->state);
		int64		last_ms = UidStateMs(old);
		int			last_seq = UidStateSeq(old);
		int64		now = UidClockNowUnixMs() - UID_EPOCH_MS;
		int64		ms;
		int			seq0;
		int			n;

		if (unlikely(now < 0 || now > UID_MAX_TIME))
			UidClockCheckRange(now);

		if (likely(now > last_ms))
		{
			ms = now;
			seq0 = 0;
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

			if (last_ms == gen->floor_ms)
				max_lag = Max(max_lag, uid_reserve_window_ms);
			UidClockGuard(last_ms, now, max_lag, !waited_clock);
			if (!waited_clock)
			{
				UidStatsAdd(UID_COUNT_CLOCK_WAITS, 1);
				waited_clock = true;
			}
			continue;
		}

		if (unlikely(UidHwmNeedsExtending(ms)))
			UidHwmEnsureCovers(ms);

		n = Min(want, UID_SEQ_PER_MS - seq0);
		if (pg_atomic_compare_exchange_u64(&gen->state, &old,
										   UidMakeState(ms, seq0 + n - 1)))
		{
			*got = n;
			return UidMakeState(ms, seq0);
		}
	}
}

Datum
uid_next(PG_FUNCTION_ARGS)
{
	uint64		first;
	int			got;

	UidGeneratorCheckUsable("uid_next");
	first = UidReserve(1, &got);
	UidStatsAdd(UID_COUNT_IDS, 1);
	PG_RETURN_INT64(UidCompose(UidStateMs(first), gen->worker_id, UidStateSeq(first)));
}

/* Per-call state of uid_next_batch: the run of IDs claimed but not yet returned. */
typedef struct UidBatchState
{
	int64		remaining;		/* IDs still to claim */
	uint64		next;			/* state word of the next ID to return */
	int			left;			/* IDs of the claimed run not yet returned */
} UidBatchState;

/*
 * uid_next_batch(count): count IDs, claimed a millisecond's run at a time
 * (one compare-and-swap for up to 4096 IDs).  Strictly increasing, and all
 * above any ID returned before the call started.
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
		funcctx->user_fctx = st;
		MemoryContextSwitchTo(oldcontext);
		UidStatsAdd(UID_COUNT_BATCH_CALLS, 1);
	}

	funcctx = SRF_PERCALL_SETUP();
	st = funcctx->user_fctx;

	if (st->left == 0 && st->remaining > 0)
	{
		int			got;

		st->next = UidReserve((int) Min(st->remaining, UID_SEQ_PER_MS), &got);
		st->left = got;
		st->remaining -= got;
		UidStatsAdd(UID_COUNT_IDS, got);
	}
	if (st->left > 0)
	{
		uint64		s = st->next;

		st->next++;
		st->left--;
		SRF_RETURN_NEXT(funcctx,
						Int64GetDatum(UidCompose(UidStateMs(s), gen->worker_id, UidStateSeq(s))));
	}
	SRF_RETURN_DONE(funcctx);
}
