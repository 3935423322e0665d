/*
 * layout.c
 *		Reading Snowflake-style IDs back: uid_decode(bigint), uid_time(bigint)
 *		and uid_from_time(timestamptz).  Pure functions of their input, so
 *		they need no shared memory and work without preloading.  The fields
 *		come from decode.c, which the uid-decode command shares; here they
 *		become rows, and bad input becomes errors.
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "forms/decode.h"
#include "forms/layout.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_decode);
PG_FUNCTION_INFO_V1(uid_time);
PG_FUNCTION_INFO_V1(uid_from_time);

void
UidCheckId(int64 id)
{
	if (id < 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%lld is not a uid: uid values are never negative", (long long) id),
				 errhint("uid_next() sets the sign bit to 0; a negative value comes from elsewhere.")));
}

/*
 * uid_decode(bigint): the time, worker id and sequence of an ID, as one row.
 * A number too small to be an ID uid_next() issued still decodes (12345 is
 * worker 3 at 2026-01-01 00:00:00), so a value given as a constant or a
 * parameter, as someone checking a pasted number gives it, gets a NOTICE
 * saying so; a column's values do not, one per row being noise (adopted
 * columns hold small values by design).  Its columns stay those of 1.2;
 * uid_decode(text) has the note as a column.
 */
Datum
uid_decode(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	UidFields	f;

	if (!UidDecodeFields(id, &f))
		UidCheckId(id);
	if (get_fn_expr_arg_stable(fcinfo->flinfo, 0) && UidSmallNote(id) != NULL)
		ereport(NOTICE,
				(errmsg("%lld is %s", (long long) id, UidSmallNote(id))));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	values[0] = TimestampTzGetDatum(UidUnixMsToTimestamptz(f.unix_ms));
	values[1] = Int32GetDatum((int32) f.worker_id);
	values[2] = Int32GetDatum((int32) f.sequence);
	values[3] = Int64GetDatum(f.ms_since_epoch);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* uid_time(bigint): the millisecond an ID was issued in. */
Datum
uid_time(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	UidFields	f;

	if (!UidDecodeFields(id, &f))
		UidCheckId(id);
	PG_RETURN_TIMESTAMPTZ(UidUnixMsToTimestamptz(f.unix_ms));
}

/*
 * uid_from_time(timestamptz): the lowest ID of that millisecond, so that
 * "id >= uid_from_time(a) AND id < uid_from_time(b)" selects what was issued
 * in [a, b) on every worker.
 */
Datum
uid_from_time(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("uid_from_time() needs a finite timestamp")));
	ms = UidTimestamptzToUnixMs(ts) - UID_EPOCH_MS;
	if (ms < 0 || ms > UID_MAX_TIME)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp %s is outside the range of uid times",
						timestamptz_to_str(ts)),
				 errdetail("uid times run from 2026-01-01 00:00:00+00 for 2^41 ms (into 2095).")));
	PG_RETURN_INT64(UidCompose(ms, 0, 0));
}
