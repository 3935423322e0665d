/*
 * clock.h
 *		The clock guard (clock.c); the clock read itself, UidClockNowUnixMs(),
 *		is in uid.h.
 */
#ifndef UID_CLOCK_H
#define UID_CLOCK_H

#include "postgres.h"

extern int	uid_clock_max_wait_ms;

extern void UidClockDefineSettings(void);
extern void UidClockGuard(int64 last_ms, int64 now_ms, int64 max_lag_ms,
						  bool first_look, const char *floor_origin);
extern void UidClockSpinPast(int64 ms);
extern void UidClockCheckRange(int64 now_ms);

#endif							/* UID_CLOCK_H */
