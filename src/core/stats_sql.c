/*
 * stats_sql.c
 *		The SQL functions of the uid_stats view: uid_stats() (each of its
 *		definitions) and uid_stats_reset().  The counters themselves are in
 *		stats.c, which depends on no other file of uid; this file reads the
 *		generator and the high-water mark besides.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "core/generator.h"
#include "core/preload.h"
#include "core/stats.h"
#include "floor/floor.h"

PG_FUNCTION_INFO_V1(uid_stats_reset);

/*
 * uid_stats_reset(): start every counter of uid_stats from zero again.
 */
Datum
uid_stats_reset(PG_FUNCTION_ARGS)
{
	TimestampTz now = GetCurrentTimestamp();

	UidRequireSharedMemory("uid_stats_reset");
	UidStatsReset(now);
	PG_RETURN_TIMESTAMPTZ(now);
}

PG_FUNCTION_INFO_V1(uid_stats);
PG_FUNCTION_INFO_V1(uid_stats_1_1);
PG_FUNCTION_INFO_V1(uid_stats_1_4);

#define UID_STATS_COLS_1_0	12
#define UID_STATS_COLS_1_1	15
#define UID_STATS_COLS_1_4	17

/*
 * uid_stats is monitoring data, for members of pg_monitor.  The view and
 * uid_stats_1_4() are PUBLIC and the check is here, so that a role without
 * pg_monitor is told which grant it lacks; PostgreSQL's own check of a
 * view's privilege ("permission denied for view uid_stats") has no hint.
 * what is the object the caller named: "view uid_stats".
 */
static void
UidStatsRequireMonitor(const char *what)
{
	Oid			role = GetUserId();

	if (has_privs_of_role(role, ROLE_PG_MONITOR))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for %s", what),
			 errdetail("uid_stats is monitoring data: members of pg_monitor read it."),
			 errhint("An administrator grants it with: GRANT pg_monitor TO %s;",
					 quote_identifier(GetUserNameFromId(role, false)))));
}

/*
 * One row of server counters.  Version 1.0 of the SQL function declares the
 * first 12 columns; 1.1 adds when the counters were reset and the end of the
 * layout; 1.4 where uid_next()'s floor came from and its time.  The library
 * keeps serving every definition, so a server whose extension is still at
 * 1.0 works with the new library.
 */
static Datum
UidStatsRow(FunctionCallInfo fcinfo, int ncols)
{
	TupleDesc	tupdesc;
	Datum		values[UID_STATS_COLS_1_4];
	bool		nulls[UID_STATS_COLS_1_4];
	uint64		last;
	int			worker;
	int64		now_ms;
	int			i = 0;

	UidRequireSharedMemory("uid_stats");
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (tupdesc->natts != ncols)
		elog(ERROR, "uid_stats: expected %d result columns, the SQL definition has %d",
			 ncols, tupdesc->natts);
	tupdesc = BlessTupleDesc(tupdesc);
	memset(nulls, 0, sizeof(nulls));

	last = UidGeneratorLastState();
	worker = UidGeneratorWorkerId();
	values[i] = Int32GetDatum(worker);
	nulls[i++] = (worker < 0);	/* no worker id held (lease mode) */
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_IDS));
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_UUIDS));
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_BATCH_CALLS));
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_CLOCK_WAITS));
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_CLOCK_REFUSALS));
	values[i++] = Int64GetDatum((int64) UidStatsMaxClockStep());
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_OVERFLOW_WAITS));
	values[i++] = Int64GetDatum((int64) UidStatsTotal(UID_COUNT_HWM_WRITES));
	values[i++] = TimestampTzGetDatum(UidUnixMsToTimestamptz(UidStateMs(last) + UID_EPOCH_MS));
	values[i++] = TimestampTzGetDatum(UidUnixMsToTimestamptz(UidFloorReservedMs() + UID_EPOCH_MS));
	values[i++] = Int64GetDatum((int64) UidStatsClockSteps());
	Assert(i == UID_STATS_COLS_1_0);

	if (ncols >= UID_STATS_COLS_1_1)
	{
		now_ms = UidClockNowUnixMs();
		values[i++] = TimestampTzGetDatum(UidStatsResetAt());
		values[i++] = TimestampTzGetDatum(UidUnixMsToTimestamptz(UID_LAYOUT_END_UNIX_MS));
		values[i++] = Int32GetDatum((int32) Max((UID_LAYOUT_END_UNIX_MS - now_ms) / MS_PER_DAY, 0));
	}
	if (ncols >= UID_STATS_COLS_1_4)
	{
		int64		floor_ms;

		values[i++] = CStringGetTextDatum(UidFloorSource(&floor_ms));
		values[i] = TimestampTzGetDatum(UidUnixMsToTimestamptz(floor_ms + UID_EPOCH_MS));
		nulls[i++] = floor_ms <= 0;
	}
	Assert(i == ncols);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* uid_stats(): the 1.0 definition. */
Datum
uid_stats(PG_FUNCTION_ARGS)
{
	return UidStatsRow(fcinfo, UID_STATS_COLS_1_0);
}

/* uid_stats_1_1(): the 1.1 definition, behind the uid_stats view of 1.1 and 1.2. */
Datum
uid_stats_1_1(PG_FUNCTION_ARGS)
{
	return UidStatsRow(fcinfo, UID_STATS_COLS_1_1);
}

/*
 * uid_stats_1_4(): the columns of uid_stats_1_1() and the source and time
 * of uid_next()'s floor, behind the uid_stats view of 1.4, for every role:
 * it refuses roles outside pg_monitor itself.  The functions of earlier
 * versions keep their privileges and their behaviour, for a database whose
 * extension is not updated yet.
 */
Datum
uid_stats_1_4(PG_FUNCTION_ARGS)
{
	UidStatsRequireMonitor("view uid_stats");
	return UidStatsRow(fcinfo, UID_STATS_COLS_1_4);
}
