/*
 * ids.h
 *		What every file of the uid extension shares about IDs: the ID layout
 *		(id_layout.h, which the uid-decode command shares too), the UUID
 *		bits, the error codes, the clock read and the end of the time field.
 *		With id_layout.h and compat.h it is the bottom layer: it includes no
 *		header of a folder.  Constants and inline functions only:
 *		it declares no file's functions (test/unit/header_names.sh), so a
 *		change to one file's interface recompiles only the files that use
 *		it.  It is named for what it holds: the module entry, uid.c, has no
 *		interface (nothing calls it).  Includes compat.h, so every file sees
 *		the same PostgreSQL version layer.
 *
 * Each file that others call has a header named after it, which declares
 * what that file defines and is included, by its path below src/, only
 * where used.  The map of the folders and files is in docs/development.md
 * ("Layout of the source"), checked by test/unit/source_map.sh.
 */
#ifndef UID_IDS_H
#define UID_IDS_H

#include "postgres.h"

#include <time.h>

#include "compat.h"
#include "id_layout.h"
#include "port/atomics.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* ---- The Snowflake-style layout (docs/snowflake.md, "Layout"): id_layout.h ---- */

/* Unix ms <-> PostgreSQL timestamp (us since 2000-01-01) */
#define UID_UNIX_TO_PG_MS	INT64CONST(946684800000)

/* Unix ms -> timestamptz */
static inline TimestampTz
UidUnixMsToTimestamptz(int64 unix_ms)
{
	return (unix_ms - UID_UNIX_TO_PG_MS) * 1000;
}

/* the time of a UUID whose fields (id_layout.c) have one, as a timestamptz */
static inline TimestampTz
UuidFieldsTime(const UuidFields *f)
{
	return (TimestampTz) (f->unix_us - UID_UNIX_TO_PG_MS * 1000);
}

/* timestamptz -> Unix ms, rounding down (finite input only) */
static inline int64
UidTimestamptzToUnixMs(TimestampTz ts)
{
	int64		us = (int64) ts;
	int64		ms = us / 1000;

	if (us % 1000 < 0)
		ms--;
	return ms + UID_UNIX_TO_PG_MS;
}

/*
 * The generator's state word: (ms since the uid epoch << 12) | sequence of
 * the last issued ID.  The worker id is not part of it.
 */
#define UidStateMs(s)		((int64) ((s) >> UID_SEQ_BITS))
#define UidStateSeq(s)		((int) ((s) & UID_MAX_SEQ))
#define UidMakeState(ms, seq) (((uint64) (ms) << UID_SEQ_BITS) | (uint64) (seq))

/* ---- UUID bits (RFC 9562) ---- */

static inline bool
UuidIsRfcVariant(const pg_uuid_t *u)
{
	return (u->data[8] & 0xc0) == 0x80;
}

static inline int
UuidVersion(const pg_uuid_t *u)
{
	return u->data[6] >> 4;
}

static inline bool
UuidIsV7(const pg_uuid_t *u)
{
	return UuidIsRfcVariant(u) && UuidVersion(u) == 7;
}

/* bytes 0..7 and 8..15 of a UUID as big-endian words */
static inline uint64
UuidHigh64(const pg_uuid_t *u)
{
	return UuidBytesHigh64(u->data);
}

static inline uint64
UuidLow64(const pg_uuid_t *u)
{
	return UuidBytesLow64(u->data);
}

/* the 48-bit Unix ms of a v7 UUID */
static inline int64
Uuid7Ms(const pg_uuid_t *u)
{
	return (int64) (UuidHigh64(u) >> 16);
}

static inline void
UuidSet64(pg_uuid_t *u, uint64 hi, uint64 lo)
{
	UuidBytesSet64(u->data, hi, lo);
}

/* ---- shared-memory words that only grow ---- */

/*
 * Raises *a to at least v by compare-and-swap: the floors, the uuid7()
 * state and the counters of the largest value seen only ever move up.
 * True if this call moved it.
 */
static inline bool
UidAtomicRaiseU64(pg_atomic_uint64 *a, uint64 v)
{
	uint64		old = pg_atomic_read_u64(a);

	/* on failure old is refreshed with the current value */
	while (old < v)
		if (pg_atomic_compare_exchange_u64(a, &old, v))
			return true;
	return false;
}

/*
 * The generators that issue time-ordered values, each with a floor of its
 * own below which it issues nothing (src/floor/).
 */
typedef enum UidGenerator
{
	UID_GEN_UID_NEXT = 0,		/* uid_next(), uid_next_batch() */
	UID_GEN_UUID7 = 1,			/* uuid7() and its PostgreSQL 18 names */
	UID_GENERATORS
} UidGenerator;

/* ---- Error codes (README, "Errors") ---- */

/* The clock is behind the last issued time by more than we may wait. */
#define ERRCODE_UID_CLOCK_BACKWARDS		MAKE_SQLSTATE('U','I','D','0','1')
/* No worker id is held (lease lost, not yet acquired, none free). */
#define ERRCODE_UID_NO_WORKER_ID		MAKE_SQLSTATE('U','I','D','0','2')
/* The 41-bit time field cannot represent the current time. */
#define ERRCODE_UID_LAYOUT_EXHAUSTED	MAKE_SQLSTATE('U','I','D','0','3')
/* Values were issued here before and their floor is lost (uid.hwm): fail closed. */
#define ERRCODE_UID_FLOOR_UNKNOWN		MAKE_SQLSTATE('U','I','D','0','7')

/* ---- the clock read (clock.h has the clock guard) ---- */

/*
 * Wall-clock time in ms since the Unix epoch.  clock_gettime() on
 * CLOCK_REALTIME is a vDSO call on Linux, not a system call.
 */
static inline int64
UidClockNowUnixMs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the end of the 41-bit time field ---- */

#define UID_LAYOUT_END_UNIX_MS	(UID_EPOCH_MS + UID_MAX_TIME)
#define UID_LAYOUT_WARN_DAYS	365
#define MS_PER_DAY				INT64CONST(86400000)

/*
 * uid_advance_past() and uuid7_advance_past() refuse to move a generator more
 * than this far past the clock: uid_next() would refuse until then, and every
 * uuid7() would carry a time that far ahead.
 */
#define UID_ADVANCE_MAX_AHEAD_MS	MS_PER_DAY

#endif							/* UID_IDS_H */
