/*
 * hwm.h
 *		The durable high-water marks of issued time (hwm.c, docs/guarantees.md):
 *		no restart, even after a crash, issues a time it issued before.
 */
#ifndef UID_HWM_H
#define UID_HWM_H

#include "ids.h"

#include "port/atomics.h"

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

extern Size UidHwmShmemSize(void);
extern void UidHwmShmemInit(void);
extern int64 UidHwmRestoredFloor(UidGenerator g);
extern UidHwmStatus UidHwmRestoredStatus(bool *legacy);
extern bool UidHwmFloorLost(UidGenerator g);
extern void UidHwmDescribeFloor(UidGenerator g, char *buf, size_t len);
extern void UidHwmFloorFound(UidGenerator g, int64 ms, int window_ms);
extern void UidHwmRefuseLost(UidGenerator g);
extern pg_atomic_uint64 *UidHwmReservedArray(void);
extern void UidHwmEnsureCovers(UidGenerator g, int64 ms, int window_ms);
extern void UidHwmRelogIfCheckpointed(void);
extern uint64 UidHwmWrites(void);
extern int64 UidHwmReservedMs(void);
extern void UidHwmShutdown(const int64 *last_ms);
extern int64 UidLastReplayedUnixMs(void);

#endif							/* UID_HWM_H */
