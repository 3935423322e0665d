/*
 * clock.c
 *		The clock guard: reading the wall clock, waiting out a small backward
 *		step, refusing a large one, and waiting for the next millisecond when
 *		a millisecond's 4096 sequence numbers are used up.
 *
 * The generator (generator.c) decides what it needs; this file only reads the
 * clock and waits.  All waits check for interrupts, so query cancel and
 * statement_timeout end them.
 */
#include "postgres.h"

#include <time.h>

#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "core/clock.h"
#include "core/stats.h"
#include "ids.h"

int			uid_clock_max_wait_ms = 5;

UID_DECLARE_WAIT_EVENT(UidWaitEventClockStep, "UidClockStep")
UID_DECLARE_WAIT_EVENT(UidWaitEventOverflow, "UidSequenceOverflow")

/* longest single sleep while waiting out a backward step */
#define UID_CLOCK_PAUSE_MAX_MS 10

/* the largest value of uid.clock_max_wait_ms */
#define UID_CLOCK_MAX_WAIT_LIMIT_MS 60000

void
UidClockDefineSettings(void)
{
	DefineCustomIntVariable("uid.clock_max_wait_ms",
							"Largest backward clock step that uid_next() waits out.",
							"A larger step makes uid_next() fail with SQLSTATE UID01 "
							"until the clock passes the last issued time.",
							&uid_clock_max_wait_ms,
							5, 0, UID_CLOCK_MAX_WAIT_LIMIT_MS,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
}

static char *
UidFormatUnixMs(int64 unix_ms)
{
	return pstrdup(timestamptz_to_str(UidUnixMsToTimestamptz(unix_ms)));
}

/*
 * The clock reads now_ms while the last issued time is last_ms (both in ms
 * since the uid epoch, now_ms < last_ms).  If the step is within max_lag_ms,
 * sleep a little and return so the caller reads the clock again; otherwise
 * raise the clock error.  Sleeping in short slices means a clock that steps
 * further back during the wait is refused, not waited for.  first_look is
 * true the first time one call sees the clock behind: the step and the wait
 * are counted once per call.  floor_origin is NULL when an ID was issued at
 * last_ms; otherwise last_ms is uid_next()'s floor, where nothing was issued
 * in this run, and floor_origin says who set it, so that the error names it
 * rather than an issue time that never was.
 */
void
UidClockGuard(int64 last_ms, int64 now_ms, int64 max_lag_ms, bool first_look,
			  const char *floor_origin)
{
	int64		lag = last_ms - now_ms;

	Assert(lag > 0);
	if (first_look)
		UidStatsNoteClockStep(lag);

	if (lag > max_lag_ms)
	{
		char	   *last = UidFormatUnixMs(last_ms + UID_EPOCH_MS);
		char	   *now = UidFormatUnixMs(now_ms + UID_EPOCH_MS);
		bool		waitable = lag <= UID_CLOCK_MAX_WAIT_LIMIT_MS;

		UidStatsAdd(UID_COUNT_CLOCK_REFUSALS, 1);
		if (floor_origin == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UID_CLOCK_BACKWARDS),
					 errmsg("system clock is %lld ms behind the last issued uid time",
							(long long) lag),
					 errdetail("The last ID was issued at %s; the clock reads %s; at most %lld ms are waited out.",
							   last, now, (long long) max_lag_ms),
					 waitable ?
					 errhint("IDs are issued again as soon as the clock passes the last issued time. "
							 "Check this server's time synchronisation (NTP), or raise uid.clock_max_wait_ms.") :
					 errhint("IDs are issued again by themselves once the clock passes %s; "
							 "a step this large cannot be waited out. "
							 "Check this server's time synchronisation (NTP).", last)));
		ereport(ERROR,
				(errcode(ERRCODE_UID_CLOCK_BACKWARDS),
				 errmsg("system clock is %lld ms behind the floor of uid_next()",
						(long long) lag),
				 errdetail("uid_next() issues no ID at or before %s: %s. "
						   "The clock reads %s; at most %lld ms are waited out.",
						   last, floor_origin, now, (long long) max_lag_ms),
				 waitable ?
				 errhint("uid_next() resumes by itself once the clock passes %s; uuid7() is not affected. "
						 "Check this server's time synchronisation (NTP), or raise uid.clock_max_wait_ms.", last) :
				 errhint("uid_next() resumes by itself once the clock passes %s; uuid7() is not affected. "
						 "If this server's clock is behind, correct it (NTP).", last)));
	}

	/* a wait is counted when it starts, as pg_stat_activity shows it */
	if (first_look)
		UidStatsAdd(UID_COUNT_CLOCK_WAITS, 1);
	(void) WaitLatch(MyLatch,
					 WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 Min(lag, UID_CLOCK_PAUSE_MAX_MS),
					 UidWaitEventClockStep());
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * All 4096 sequence numbers of millisecond ms are used: busy-read the clock
 * while it still shows ms.  This takes under a millisecond, so a sleep
 * (whose granularity is coarser) would only lose throughput.  If the clock
 * steps back meanwhile, return: the caller's clock guard decides.
 */
void
UidClockSpinPast(int64 ms)
{
	pgstat_report_wait_start(UidWaitEventOverflow());
	while (UidClockNowUnixMs() - UID_EPOCH_MS == ms)
		CHECK_FOR_INTERRUPTS();
	pgstat_report_wait_end();
}

/*
 * Errors for a clock that the layout cannot represent.
 */
void
UidClockCheckRange(int64 now_ms)
{
	if (now_ms < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UID_CLOCK_BACKWARDS),
				 errmsg("system clock reads %s, before the uid epoch",
						UidFormatUnixMs(now_ms + UID_EPOCH_MS)),
				 errdetail("uid_next() encodes milliseconds since 2026-01-01 00:00:00+00."),
				 errhint("Set this server's clock to the correct time.")));
	if (now_ms > UID_MAX_TIME)
		ereport(ERROR,
				(errcode(ERRCODE_UID_LAYOUT_EXHAUSTED),
				 errmsg("system clock reads %s, beyond the last time the uid layout can encode",
						UidFormatUnixMs(now_ms + UID_EPOCH_MS)),
				 errhint("The 41-bit time field of uid_next() ends in 2095; check this server's clock.")));
}
