/*
 * hwm.h
 *		The durable high-water marks of issued time (hwm.c, docs/guarantees.md):
 *		no restart, even after a crash, issues a time it issued before.
 */
#ifndef UID_HWM_H
#define UID_HWM_H

#include "ids.h"

#include "port/atomics.h"

extern int	uid_reserve_window_ms;

/* The generators that keep a mark of their own in uid.hwm. */
typedef enum UidHwmGenerator
{
	UID_HWM_UID_NEXT = 0,		/* uid_next(), uid_next_batch() */
	UID_HWM_UUID7 = 1,			/* uuid7() and its PostgreSQL 18 names */
	UID_HWM_GENERATORS
} UidHwmGenerator;

/* What uid.hwm held when this run started. */
typedef enum UidHwmStatus
{
	UID_HWM_NEW,				/* no file, or an empty one: nothing issued under it */
	UID_HWM_LOST,				/* no file, or an empty one, where uid.issued says
								 * values were issued: the floors are unknown */
	UID_HWM_CLEAN,				/* the previous run exited cleanly */
	UID_HWM_RESERVED,			/* the previous run crashed: floors are its reservations */
	UID_HWM_CORRUPT				/* the file cannot be trusted: refuse to generate */
} UidHwmStatus;

extern void UidHwmDefineSettings(void);
extern Size UidHwmShmemSize(void);
extern void UidHwmShmemInit(void);
extern int64 UidHwmRestoredFloor(UidHwmGenerator g);
extern UidHwmStatus UidHwmRestoredStatus(bool *legacy);
extern bool UidHwmFloorLost(UidHwmGenerator g);
extern void UidHwmDescribeFloor(UidHwmGenerator g, char *buf, size_t len);
extern void UidHwmFloorFound(UidHwmGenerator g, int64 ms);
extern void UidHwmRefuseLost(UidHwmGenerator g);
extern PGDLLIMPORT pg_atomic_uint64 *uid_hwm_reserved_ms;

/*
 * Whether ms is within half a window of the end of generator g's durable
 * reservation (then UidHwmEnsureCovers must run before a value in ms is
 * returned).  Needs shared memory.
 */
static inline bool
UidHwmNeedsExtending(UidHwmGenerator g, int64 ms)
{
	return (uint64) (ms + uid_reserve_window_ms / 2) > pg_atomic_read_u64(&uid_hwm_reserved_ms[g]);
}
extern void UidHwmEnsureCovers(UidHwmGenerator g, int64 ms);
extern void UidHwmRelogIfCheckpointed(void);

/*
 * The same for a Unix ms of uuid7(): the mark covers only the uid layout's
 * years (2026 to 2095); times outside them are not reserved.
 */
static inline void
UidHwmCoverUnixMs(int64 unix_ms)
{
	int64		ms = unix_ms - UID_EPOCH_MS;

	if (unlikely(UidHwmNeedsExtending(UID_HWM_UUID7, ms)) && ms >= 0 && ms <= UID_MAX_TIME)
		UidHwmEnsureCovers(UID_HWM_UUID7, ms);
}
extern int64 UidHwmReservedMs(void);
extern void UidHwmShutdown(const int64 *last_ms);
extern int64 UidLastReplayedUnixMs(void);

#endif							/* UID_HWM_H */
