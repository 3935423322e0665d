/*
 * stats.h
 *		The per-backend counters of the uid_stats view (stats.c); the SQL
 *		functions that read them are in stats_sql.c.
 */
#ifndef UID_STATS_H
#define UID_STATS_H

#include "postgres.h"

#include "port/atomics.h"
#include "utils/timestamp.h"

typedef enum UidCounter
{
	UID_COUNT_IDS,				/* uid_next() / batch IDs issued */
	UID_COUNT_UUIDS,			/* uuid7() values issued */
	UID_COUNT_CLOCK_WAITS,		/* backward steps waited out */
	UID_COUNT_CLOCK_REFUSALS,	/* calls refused for a backward step */
	UID_COUNT_OVERFLOW_WAITS,	/* 4096 IDs in one ms: waited for the next */
	UID_COUNT_BATCH_CALLS,		/* uid_next_batch() calls */
	UID_COUNT_HWM_WRITES,		/* durable high-water mark extensions, counted
								 * by the floor module (UidFloorReserveWrites) */
	UID_NUM_COUNTERS
} UidCounter;

extern Size UidStatsShmemSize(void);
extern void UidStatsShmemInit(void);
extern void UidStatsAddSlow(UidCounter counter, uint64 n);

/* this backend's own counters (stats.c), NULL until the first UidStatsAdd */
extern PGDLLIMPORT pg_atomic_uint64 *uid_my_counters;

/*
 * Adds n to a counter of this backend.  Only the owner writes its slot, so a
 * plain atomic read and write do (no locked instruction); the first call,
 * and processes without a slot of their own, take UidStatsAddSlow.
 */
static inline void
UidStatsAdd(UidCounter counter, uint64 n)
{
	if (likely(uid_my_counters != NULL))
		pg_atomic_write_u64(&uid_my_counters[counter],
							pg_atomic_read_u64(&uid_my_counters[counter]) + n);
	else
		UidStatsAddSlow(counter, n);
}
extern void UidStatsNoteClockStep(int64 step_ms);
extern uint64 UidStatsTotal(UidCounter counter);
extern TimestampTz UidStatsResetAt(void);

extern void UidStatsReset(TimestampTz now);
extern uint64 UidStatsMaxClockStep(void);
extern uint64 UidStatsClockSteps(void);

#endif							/* UID_STATS_H */
