/*
 * uuid7.c
 *		UUIDv7 (RFC 9562 section 5.7): uuid7(), uuid7(timestamptz),
 *		uuid7_time(), uuid7_from_time(), uid_decode(uuid), uuid7_advance_past(),
 *		and PostgreSQL 18's uuidv7(), uuidv7(interval), uuidv4(),
 *		uuid_extract_timestamp() and uuid_extract_version() for older servers.
 *
 * Layout of the UUIDs made here (bytes in network order):
 *
 *	 0..5	unix_ts_ms		48-bit big-endian ms since 1970-01-01 UTC
 *	 6		0x70 | frac >> 8	version 7, top 4 bits of the sub-ms fraction
 *	 7		frac & 0xff		rand_a: 12-bit sub-ms clock fraction (1/4096 ms)
 *	 8		0x80 | ctr << 2 | 2 random bits
 *							variant 0b10, then a 4-bit counter (top of rand_b)
 *	 9..15	random			the other 56 bits of rand_b
 *
 * RFC 9562 section 6.2: method 3 (rand_a carries 12 bits of extra clock
 * precision) combined with method 1 (a 4-bit fixed-length counter in the
 * leftmost bits of rand_b).  The 64 bits (unix_ts_ms, frac, ctr) form one
 * number, the generator's state, which strictly increases:
 *
 *	candidate = (clock ms << 16) | (clock fraction << 4)	(counter 0)
 *	next      = max(candidate, last + 1)
 *
 * So a new clock tick restarts the counter at 0; within one tick (or while
 * the clock stands behind the last issued value) the counter counts up, and
 * its overflow carries into the fraction and from there into the ms: the
 * timestamp advances logically, 65536 UUIDs per ms at most.  A backward clock
 * step is never refused: UUIDs keep coming from the last issued time onwards,
 * in order, with a time part slightly ahead of the clock until the clock
 * catches up.  The remaining 58 bits come from pg_strong_random (random.c).
 *
 * Shared state and its guards:
 *	last	atomic; the state of the last UUID issued by any backend of any
 *			database, advanced only by compare-and-swap (like generator.c),
 *			so the values of the whole server are strictly increasing in the
 *			order the calls complete.  It starts above uuid7()'s own durable
 *			high-water mark (floor/hwm.c), and a value is returned only once that
 *			mark covers its millisecond, so the order also holds across
 *			restarts.  The mark is not uid_next()'s: moving uuid7() ahead never
 *			makes uid_next() wait.  Without preloading, each backend keeps its
 *			own "last" (backend_last) and the order holds per backend.
 *
 * The version and variant bits make the nil and the max UUID impossible.
 */
#include "postgres.h"

#include <time.h>

#include "access/htup_details.h"
#include "access/xlog.h"
#include "datatype/timestamp.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_bswap.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "core/random.h"
#include "core/stats.h"
#include "core/uuid7.h"
#include "floor/floor.h"
#include "ids.h"

typedef struct UidUuid7Shared
{
	pg_atomic_uint64 last;
} UidUuid7Shared;

static UidUuid7Shared *uuid7_shared = NULL;

/* The state of the last UUID of this backend, when not preloaded. */
static uint64 backend_last = 0;

/* 48-bit ms field */
#define UUID7_MAX_MS		((INT64CONST(1) << 48) - 1)
/* state bits below the ms: 12 of fraction, 4 of counter */
#define UUID7_SUB_BITS		16
#define UUID7_NS_PER_MS		1000000

PG_FUNCTION_INFO_V1(uuid7);
PG_FUNCTION_INFO_V1(uuid7_at);
PG_FUNCTION_INFO_V1(uuid7_time);
PG_FUNCTION_INFO_V1(uuid7_from_time);
PG_FUNCTION_INFO_V1(uuid7_advance_past);
PG_FUNCTION_INFO_V1(uid_decode_uuid);
PG_FUNCTION_INFO_V1(uid_compat_uuidv7_interval);
PG_FUNCTION_INFO_V1(uid_compat_uuidv4);
PG_FUNCTION_INFO_V1(uid_compat_uuid_extract_timestamp);
PG_FUNCTION_INFO_V1(uid_compat_uuid_extract_version);

Size
UidUuid7ShmemSize(void)
{
	return MAXALIGN(sizeof(UidUuid7Shared));
}

void
UidUuid7ShmemInit(void)
{
	bool		found;

	uuid7_shared = ShmemInitStruct("uid uuid7", UidUuid7ShmemSize(), &found);
	if (found)
		return;

	/*
	 * Start above the durable high-water mark (floor/hwm.c, read just before), so
	 * that the order of uuid7() values also holds across restarts and
	 * crashes, whatever the clock reads after them.
	 */
	pg_atomic_init_u64(&uuid7_shared->last,
					   (uint64) (UidFloorRestored(UID_GEN_UUID7) + UID_EPOCH_MS + 1) << UUID7_SUB_BITS);
}

/*
 * ms since the uid epoch of the last uuid7() state of this server, for the
 * clean-exit record of floor/hwm.c; -1 without shared memory.
 */
int64
UidUuid7LastMs(void)
{
	if (uuid7_shared == NULL)
		return -1;
	return (int64) (pg_atomic_read_u64(&uuid7_shared->last) >> UUID7_SUB_BITS) - UID_EPOCH_MS;
}

/* ---- time conversions ---- */

static void
Uuid7TimeRangeError(const char *funcname, TimestampTz ts)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("%s: timestamp %s is outside the range of UUIDv7 times",
					funcname,
					TIMESTAMP_NOT_FINITE(ts) ? (TIMESTAMP_IS_NOBEGIN(ts) ? "-infinity" : "infinity")
					: timestamptz_to_str(ts)),
			 errdetail("The 48-bit UUIDv7 time field holds milliseconds from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655+00.")));
}

/* timestamptz -> Unix ms of a UUIDv7, or the 22008 error */
static int64
Uuid7TimestamptzToMs(const char *funcname, TimestampTz ts)
{
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(ts))
		Uuid7TimeRangeError(funcname, ts);
	ms = UidTimestamptzToUnixMs(ts);
	if (ms < 0 || ms > UUID7_MAX_MS)
		Uuid7TimeRangeError(funcname, ts);
	return ms;
}

/* ---- the generator ---- */

/*
 * The clock as a state word with counter 0.  clock_gettime() on
 * CLOCK_REALTIME is a vDSO call on Linux, not a system call.
 */
static inline uint64
Uuid7ClockState(void)
{
	struct timespec ts;
	uint64		ms;
	uint64		frac;

	clock_gettime(CLOCK_REALTIME, &ts);
	ms = (uint64) ts.tv_sec * 1000 + (uint64) ts.tv_nsec / UUID7_NS_PER_MS;
	if (unlikely(ts.tv_sec < 0 || (int64) ts.tv_sec > UUID7_MAX_MS / 1000 ||
				 ms > (uint64) UUID7_MAX_MS))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("system clock reads %lld s since 1970, outside the range of UUIDv7 times",
						(long long) ts.tv_sec),
				 errhint("Set this server's clock to the correct time.")));
	frac = ((uint64) (ts.tv_nsec % UUID7_NS_PER_MS) << 12) / UUID7_NS_PER_MS;
	return (ms << UUID7_SUB_BITS) | (frac << 4);
}

static void
Uuid7Exhausted(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("uuid7() has issued the last UUIDv7 time, 10889-08-02 05:31:50.655+00"),
			 errhint("The generator's time was advanced to the end of the UUIDv7 range; restart the server to reset it.")));
}

/* this backend applied the end-of-recovery floor (or found none needed) */
static bool uuid7_recovery_floor_seen = false;

/*
 * Raises the shared state to at least target; true if it moved.  Durable
 * first, so that the move also holds after a restart.
 */
static bool
Uuid7RaiseTo(uint64 target)
{
	UidFloorCoverUnixMs((int64) (target >> UUID7_SUB_BITS));
	return UidAtomicRaiseU64(&uuid7_shared->last, target);
}

/*
 * As for uid_next() (generator.c): after a recovery, move the generator
 * above the commit time of the last replayed transaction
 * and above uuid7()'s reservations in the replayed WAL
 * (UidFloorReplayedUnixMs, src/floor/), so that new UUIDs sort after those the old primary
 * stored or returned, even if this server's clock is behind its.  uuid7()
 * never refuses: it runs ahead of the clock until the clock catches up.  Once per backend, before its first
 * UUID; on a standby (still in recovery) nothing is done yet.
 */
static pg_noinline void
Uuid7ApplyRecoveryFloor(void)
{
	int64		ms;

	if (RecoveryInProgress())
		return;
	ms = UidFloorReplayedUnixMs(UID_GEN_UUID7);
	if (ms >= 0 && ms <= UUID7_MAX_MS)
	{
		uint64		target = ((uint64) ms << UUID7_SUB_BITS) |
			((UINT64CONST(1) << UUID7_SUB_BITS) - 1);

		/* a lost floor (floor/hwm.c) refuses every value: raise in memory only */
		if (UidFloorLost(UID_GEN_UUID7))
			(void) UidAtomicRaiseU64(&uuid7_shared->last, target);
		else
			(void) Uuid7RaiseTo(target);
	}
	uuid7_recovery_floor_seen = true;
}

/*
 * The next state: above every state issued before (server-wide when
 * preloaded, else in this backend), and at least the clock.
 */
static pg_attribute_always_inline uint64
Uuid7NextState(void)
{
	uint64		cand = Uuid7ClockState();
	uint64		old;
	uint64		next;

	if (likely(uuid7_shared != NULL))
	{
		if (unlikely(!uuid7_recovery_floor_seen))
			Uuid7ApplyRecoveryFloor();
		old = pg_atomic_read_u64(&uuid7_shared->last);
		for (;;)
		{
			if (unlikely(old == PG_UINT64_MAX))
				Uuid7Exhausted();
			next = Max(cand, old + 1);
			/* on failure old is refreshed with the current value */
			if (pg_atomic_compare_exchange_u64(&uuid7_shared->last, &old, next))
			{
				/* durably reserve the ms before the value is returned */
				UidFloorCoverUnixMs((int64) (next >> UUID7_SUB_BITS));
				if ((next >> UUID7_SUB_BITS) > (old >> UUID7_SUB_BITS))
					UidFloorRelogIfCheckpointed();
				return next;
			}
		}
	}

	if (unlikely(backend_last == PG_UINT64_MAX))
		Uuid7Exhausted();
	next = Max(cand, backend_last + 1);
	backend_last = next;
	return next;
}

/* Fills u from a state word: time, version, fraction, variant, counter, random. */
static inline void
Uuid7FromState(pg_uuid_t *u, uint64 state)
{
	uint64		ms = state >> UUID7_SUB_BITS;
	uint32		frac = (uint32) (state >> 4) & 0x0fff;
	uint32		ctr = (uint32) state & 0x0f;
	uint64		rnd = UidRandom64();
	/* bytes 0..7: 48-bit ms, version 7, 12-bit fraction, big-endian */
	uint64		hi = pg_hton64((ms << 16) | 0x7000 | frac);

	memcpy(&u->data[0], &hi, sizeof(hi));
	memcpy(&u->data[8], &rnd, sizeof(rnd));
	u->data[8] = (uint8) (0x80 | (ctr << 2) | (u->data[8] & 0x03));
}

/* The state word of a UUID made by Uuid7FromState (any v7 UUID, in fact). */
static inline uint64
Uuid7StateOf(const pg_uuid_t *u)
{
	uint64		s = 0;

	for (int i = 0; i < 6; i++)
		s = (s << 8) | u->data[i];
	s = (s << 4) | (u->data[6] & 0x0f);
	s = (s << 8) | u->data[7];
	s = (s << 4) | ((u->data[8] >> 2) & 0x0f);
	return s;
}

/* ---- SQL functions ---- */

/*
 * uuid7(): a new UUIDv7, strictly above every earlier one of this server
 * (this backend, without preloading).
 */
Datum
uuid7(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	Uuid7FromState(u, Uuid7NextState());
	UidStatsAdd(UID_COUNT_UUIDS, 1);
	PG_RETURN_UUID_P(u);
}

/*
 * uuid7(timestamptz): a UUIDv7 of the given millisecond, all other bits
 * random.  For backfills and tests; not ordered with the generator.
 */
Datum
uuid7_at(PG_FUNCTION_ARGS)
{
	int64		ms = Uuid7TimestamptzToMs("uuid7", PG_GETARG_TIMESTAMPTZ(0));
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	UidRandomBytes(&u->data[6], 10);
	for (int i = 5; i >= 0; i--, ms >>= 8)
		u->data[i] = (uint8) ms;
	u->data[6] = (u->data[6] & 0x0f) | 0x70;
	u->data[8] = (u->data[8] & 0x3f) | 0x80;
	PG_RETURN_UUID_P(u);
}

/* uuid7_time(uuid): the millisecond of a v7 UUID, NULL for any other UUID. */
Datum
uuid7_time(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	if (!UuidIsV7(u))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(UidUnixMsToTimestamptz(Uuid7Ms(u)));
}

/*
 * uuid7_from_time(timestamptz): the lowest v7 UUID of that millisecond
 * (version and variant set, every other bit 0), so that
 * "id >= uuid7_from_time(a) AND id < uuid7_from_time(b)" selects [a, b).
 */
Datum
uuid7_from_time(PG_FUNCTION_ARGS)
{
	int64		ms = Uuid7TimestamptzToMs("uuid7_from_time", PG_GETARG_TIMESTAMPTZ(0));
	pg_uuid_t  *u = (pg_uuid_t *) palloc0(UUID_LEN);

	for (int i = 5; i >= 0; i--, ms >>= 8)
		u->data[i] = (uint8) ms;
	u->data[6] = 0x70;
	u->data[8] = 0x80;
	PG_RETURN_UUID_P(u);
}

/*
 * uuid7_advance_past(uuid): every later uuid7() of this server (backend,
 * without preloading) is greater than the given v7 UUID.  For keys that
 * must sort after existing ones although the clock is behind them (data from
 * a server with a faster clock, a clock stepped back across a restart).
 * Returns whether the generator moved.  Not granted to PUBLIC.
 */
Datum
uuid7_advance_past(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	uint64		target;

	if (!UuidIsV7(u))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid7_advance_past() needs a version 7 UUID of the RFC 9562 variant"),
				 errhint("Pass the greatest v7 key that new keys must sort after.")));
	target = Uuid7StateOf(u);
	if ((int64) (target >> UUID7_SUB_BITS) > UidClockNowUnixMs() + UID_ADVANCE_MAX_AHEAD_MS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID %s is more than a day ahead of this server's clock",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u)))),
				 errdetail("Every later uuid7() would carry a time at least that far ahead."),
				 errhint("Check the UUID, and this server's clock.")));

	if (uuid7_shared != NULL && UidFloorLost(UID_GEN_UUID7))
	{
		/*
		 * uuid7()'s floor is lost (UID07): target is taken as the largest
		 * value stored.  Raise the state first (nothing is issued meanwhile),
		 * then issue again under a reservation written to uid.hwm.
		 */
		bool		moved = UidAtomicRaiseU64(&uuid7_shared->last, target);

		UidFloorFound(UID_GEN_UUID7,
					  (int64) (pg_atomic_read_u64(&uuid7_shared->last) >> UUID7_SUB_BITS) - UID_EPOCH_MS);
		PG_RETURN_BOOL(moved);
	}
	if (uuid7_shared != NULL)
		PG_RETURN_BOOL(Uuid7RaiseTo(target));
	if (backend_last >= target)
		PG_RETURN_BOOL(false);
	backend_last = target;
	PG_RETURN_BOOL(true);
}

/*
 * uid_decode(uuid): time, version and variant of any UUID, as one row.
 * variant is the RFC 9562 variant field: 0 (NCS, 0xxx), 2 (RFC 9562, 10xx),
 * 6 (Microsoft, 110x), 7 (reserved, 111x).  version is NULL for variants
 * other than 2; ts is NULL except for versions 1, 6 and 7 of variant 2.
 */
Datum
uid_decode_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {true, true, false};
	UuidFields	f;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	UuidDecodeFields(u->data, &f);
	values[0] = f.has_time ? TimestampTzGetDatum(UuidFieldsTime(&f)) : (Datum) 0;
	nulls[0] = !f.has_time;
	values[1] = f.version >= 0 ? Int32GetDatum(f.version) : (Datum) 0;
	nulls[1] = f.version < 0;
	values[2] = Int32GetDatum(f.variant);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* ---- PostgreSQL 18's names, installed on older servers only ---- */

/*
 * uuidv7(interval): like uuidv7(), with the time shifted by the interval
 * (calendar arithmetic of timestamptz + interval, in the session time zone).
 * The shift is applied to a state taken from the generator, so calls with
 * the same sub-day shift are ordered like uuidv7().
 */
Datum
uid_compat_uuidv7_interval(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	uint64		state = Uuid7NextState();
	int64		base_ms = (int64) (state >> UUID7_SUB_BITS);
	TimestampTz base = UidUnixMsToTimestamptz(base_ms);
	TimestampTz shifted;
	int64		delta_us;
	int64		ms;
	int64		rem_us;
	uint64		sub;
	pg_uuid_t  *u;

	shifted = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
													  TimestampTzGetDatum(base),
													  IntervalPGetDatum(shift)));
	if (TIMESTAMP_NOT_FINITE(shifted))
		Uuid7TimeRangeError("uuidv7", shifted);

	/* both are finite timestamptz values, so the difference fits */
	delta_us = shifted - base;
	ms = base_ms + delta_us / 1000;
	rem_us = delta_us % 1000;
	if (rem_us < 0)
	{
		rem_us += 1000;
		ms--;
	}
	/* the sub-ms remainder moves the fraction and counter bits */
	sub = (state & 0xffff) + (((uint64) rem_us << UUID7_SUB_BITS) / 1000);
	if (sub > 0xffff)
	{
		sub &= 0xffff;
		ms++;
	}
	if (ms < 0 || ms > UUID7_MAX_MS)
		Uuid7TimeRangeError("uuidv7", shifted);

	u = (pg_uuid_t *) palloc(UUID_LEN);
	Uuid7FromState(u, ((uint64) ms << UUID7_SUB_BITS) | sub);
	UidStatsAdd(UID_COUNT_UUIDS, 1);
	PG_RETURN_UUID_P(u);
}

/* uuidv4(): a random (version 4) UUID. */
Datum
uid_compat_uuidv4(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	UidRandomBytes(u->data, UUID_LEN);
	u->data[6] = (u->data[6] & 0x0f) | 0x40;
	u->data[8] = (u->data[8] & 0x3f) | 0x80;
	PG_RETURN_UUID_P(u);
}

/*
 * uuid_extract_timestamp(uuid): as in PostgreSQL 18, the time of a v1
 * (microseconds) or v7 (milliseconds) UUID of the RFC variant, else NULL.
 * 18 does not decode v6; neither does this.
 */
Datum
uid_compat_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	UuidFields	f;

	UuidDecodeFields(u->data, &f);
	if (f.version == 7 || f.version == 1)
		PG_RETURN_TIMESTAMPTZ(UuidFieldsTime(&f));
	PG_RETURN_NULL();
}

/* uuid_extract_version(uuid): the version of a UUID of the RFC variant, else NULL. */
Datum
uid_compat_uuid_extract_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	if (!UuidIsRfcVariant(u))
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) UuidVersion(u));
}
