/*
 * stats.c
 *		Counters for the uid_stats view, kept per backend in shared memory.
 *
 * Shared state and its guards:
 *	slots[i]	one set of counters per backend slot (BackendId/ProcNumber).
 *				Only the backend that owns the slot writes it, with a plain
 *				atomic read and write (no locked instruction on the hot path);
 *				readers sum all slots.  A slot keeps its counts when its
 *				backend exits, so the server totals never go down.  The last
 *				slot is shared by processes without a backend slot and is
 *				updated with atomic fetch-add.
 *	max_clock_step_ms	raised with compare-and-swap.
 *	reset_base, reset_at	guarded by the spinlock "mutex": uid_stats_reset()
 *				records the totals at the reset as a base that the views
 *				subtract, so that no increment is lost to a reset running
 *				at the same time as the owner's unlocked write.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "core/stats.h"
#include "floor/floor.h"
#include "ids.h"

/*
 * One backend's counters, padded to PG_CACHE_LINE_SIZE (128): uid_next() and
 * uuid7() write their backend's slot on every call, and the 56 bytes of one
 * slot and those of the next are then at least 72 bytes apart, so no two
 * backends write the same 64-byte cache line (wherever the array starts).
 */
typedef union UidBackendCounters
{
	pg_atomic_uint64 c[UID_NUM_COUNTERS];
	char		pad[PG_CACHE_LINE_SIZE];
} UidBackendCounters;

StaticAssertDecl(sizeof(pg_atomic_uint64) * UID_NUM_COUNTERS + 64 <= PG_CACHE_LINE_SIZE,
				 "uid stats slot does not fit in a padded cache line");

typedef struct UidStatsShared
{
	int			nslots;
	slock_t		mutex;
	uint64		reset_base[UID_NUM_COUNTERS];
	TimestampTz reset_at;
	pg_atomic_uint64 max_clock_step_ms;
	pg_atomic_uint64 clock_steps;
	UidBackendCounters slots[FLEXIBLE_ARRAY_MEMBER];
} UidStatsShared;

static UidStatsShared *stats = NULL;
static UidBackendCounters *my_counters = NULL;
static bool my_counters_shared = false;

/* my_counters->c when this process owns its slot: the inline UidStatsAdd */
pg_atomic_uint64 *uid_my_counters = NULL;

/*
 * One slot per backend slot (MaxBackends, known from the shmem request hook
 * on), plus the shared last slot.
 */
static int
UidStatsSlots(void)
{
	return MaxBackends + 1;
}

Size
UidStatsShmemSize(void)
{
	return add_size(offsetof(UidStatsShared, slots),
					mul_size(UidStatsSlots(), sizeof(UidBackendCounters)));
}

void
UidStatsShmemInit(void)
{
	bool		found;

	stats = ShmemInitStruct("uid stats", UidStatsShmemSize(), &found);
	if (found)
		return;
	stats->nslots = UidStatsSlots();
	SpinLockInit(&stats->mutex);
	memset(stats->reset_base, 0, sizeof(stats->reset_base));
	stats->reset_at = GetCurrentTimestamp();
	pg_atomic_init_u64(&stats->max_clock_step_ms, 0);
	pg_atomic_init_u64(&stats->clock_steps, 0);
	for (int i = 0; i < stats->nslots; i++)
		for (int k = 0; k < UID_NUM_COUNTERS; k++)
			pg_atomic_init_u64(&stats->slots[i].c[k], 0);
}

static void
UidStatsAttach(void)
{
	int			slot = UidMyBackendSlot();

	if (slot >= 0 && slot < stats->nslots - 1)
	{
		my_counters = &stats->slots[slot];
		uid_my_counters = my_counters->c;
	}
	else
	{
		my_counters = &stats->slots[stats->nslots - 1];
		my_counters_shared = true;
	}
}

/*
 * UidStatsAdd (stats.h) when this process has not attached yet, or shares the
 * last slot.
 */
void
UidStatsAddSlow(UidCounter counter, uint64 n)
{
	pg_atomic_uint64 *c;

	if (unlikely(stats == NULL))
		return;
	if (my_counters == NULL)
		UidStatsAttach();
	c = &my_counters->c[counter];
	if (!my_counters_shared)
		pg_atomic_write_u64(c, pg_atomic_read_u64(c) + n);
	else
		pg_atomic_fetch_add_u64(c, n);
}

/* A backward clock step of step_ms was seen (waited out or refused). */
void
UidStatsNoteClockStep(int64 step_ms)
{
	if (stats == NULL)
		return;
	pg_atomic_fetch_add_u64(&stats->clock_steps, 1);
	(void) UidAtomicRaiseU64(&stats->max_clock_step_ms, (uint64) step_ms);
}

static uint64
UidStatsRawTotal(UidCounter counter)
{
	uint64		sum = 0;

	/* the reservations are written by the floor module, which counts them */
	if (counter == UID_COUNT_HWM_WRITES)
		return UidFloorReserveWrites();

	for (int i = 0; i < stats->nslots; i++)
		sum += pg_atomic_read_u64(&stats->slots[i].c[counter]);
	return sum;
}

/* A counter summed over all backends, since the last uid_stats_reset(). */
uint64
UidStatsTotal(UidCounter counter)
{
	uint64		base;

	if (stats == NULL)
		return 0;
	SpinLockAcquire(&stats->mutex);
	base = stats->reset_base[counter];
	SpinLockRelease(&stats->mutex);
	return UidStatsRawTotal(counter) - base;
}

/*
 * Starts every counter from zero again at now: records the totals as the
 * base the readers subtract (uid_stats_reset()).  Needs shared memory.
 */
void
UidStatsReset(TimestampTz now)
{
	uint64		totals[UID_NUM_COUNTERS];

	for (int k = 0; k < UID_NUM_COUNTERS; k++)
		totals[k] = UidStatsRawTotal(k);
	SpinLockAcquire(&stats->mutex);
	memcpy(stats->reset_base, totals, sizeof(totals));
	stats->reset_at = now;
	SpinLockRelease(&stats->mutex);
	pg_atomic_write_u64(&stats->max_clock_step_ms, 0);
	pg_atomic_write_u64(&stats->clock_steps, 0);
}

/* When the counters were last reset. */
TimestampTz
UidStatsResetAt(void)
{
	TimestampTz t;

	SpinLockAcquire(&stats->mutex);
	t = stats->reset_at;
	SpinLockRelease(&stats->mutex);
	return t;
}

/* The largest backward clock step seen since the reset, in ms. */
uint64
UidStatsMaxClockStep(void)
{
	return pg_atomic_read_u64(&stats->max_clock_step_ms);
}

/* How many backward clock steps were seen since the reset. */
uint64
UidStatsClockSteps(void)
{
	return pg_atomic_read_u64(&stats->clock_steps);
}
