/*
 * uid.h
 *		What the files of the uid extension share: the ID layout (with
 *		decode.h), the UUID bit helpers, the error codes, whether uid is
 *		preloaded, the clock, and the entry points _PG_init calls.  Includes
 *		compat.h, so every file sees the same PostgreSQL version layer.
 *
 * A subsystem that only some files use has a header of its own, included
 * only where used:
 *	generator.h	the uid_next() generator: its set-up, and the grant API
 *				through which the lease worker hands it a worker id
 *				(lease_worker.c, lease.c)
 *	hwm.h		the durable high-water marks of issued time (hwm.c)
 *	stats.h		the per-backend counters of uid_stats (stats.c)
 *	lease.h		the lease subsystem's internal interface (lease*.c)
 *	ff1.h, decode.h	the keyed permutation and the decoding code, which
 *				build without a server too
 * Files that use none of this (tickets.c) include no uid header; counters.c
 * includes this one for its init only.
 */
#ifndef UID_H
#define UID_H

#include "postgres.h"

#include <time.h>

#include "compat.h"
#include "decode.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_bswap.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* ---- The Snowflake-style layout (docs/snowflake.md, "Layout"): decode.h ---- */

/* Unix ms <-> PostgreSQL timestamp (us since 2000-01-01) */
#define UID_UNIX_TO_PG_MS	INT64CONST(946684800000)

/* Unix ms -> timestamptz */
static inline TimestampTz
UidUnixMsToTimestamptz(int64 unix_ms)
{
	return (unix_ms - UID_UNIX_TO_PG_MS) * 1000;
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

/* ---- Error codes (README, "Errors") ---- */

/* The clock is behind the last issued time by more than we may wait. */
#define ERRCODE_UID_CLOCK_BACKWARDS		MAKE_SQLSTATE('U','I','D','0','1')
/* No worker id is held (lease lost, not yet acquired, none free). */
#define ERRCODE_UID_NO_WORKER_ID		MAKE_SQLSTATE('U','I','D','0','2')
/* The 41-bit time field cannot represent the current time. */
#define ERRCODE_UID_LAYOUT_EXHAUSTED	MAKE_SQLSTATE('U','I','D','0','3')

/* ---- layout.c ---- */

/* Raises an error for a negative value (22003): uid values never are. */
extern void UidCheckId(int64 id);

/* ---- preload.c: whether uid is preloaded ---- */

/* true when shared memory was set up, i.e. uid is in shared_preload_libraries (uid.c sets it) */
extern bool uid_preloaded;

extern void UidSharedMemoryMissing(const char *funcname);

/* Functions whose state lives in shared memory call this first. */
static inline void
UidRequireSharedMemory(const char *funcname)
{
	if (unlikely(!uid_preloaded))
		UidSharedMemoryMissing(funcname);
}

/* ---- clock.c ---- */

extern int	uid_clock_max_wait_ms;

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
extern void UidClockDefineSettings(void);
extern void UidClockGuard(int64 last_ms, int64 now_ms, int64 max_lag_ms,
						  bool first_look, const char *floor_origin);
extern void UidClockSpinPast(int64 ms);
extern void UidClockCheckRange(int64 now_ms);

/* ---- random.c: per-process block of pg_strong_random() bytes ---- */

extern void UidRandomBytes(void *dst, int n);
extern uint64 UidRandom64(void);

/* ---- uuid7.c: UUIDv7 generator ---- */

extern Size UidUuid7ShmemSize(void);
extern void UidUuid7ShmemInit(void);
extern int64 UidUuid7LastMs(void);

/*
 * For check hooks: the value comes from the server's configuration
 * (postgresql.conf, the command line) as uid is preloaded, not from the
 * built-in default or a later reload.
 */
static inline bool
UidSettingFromConfiguration(GucSource source)
{
	return process_shared_preload_libraries_in_progress && source > PGC_S_DEFAULT;
}

/* ---- the lease subsystem's entry points for _PG_init (lease.h has the rest) ---- */

extern void UidLeaseDefineSettings(void);	/* lease_settings.c */
extern void UidLeaseRegisterWorker(void);	/* lease_worker.c */
extern Size UidLeaseShmemSize(void);	/* lease.c */
extern void UidLeaseShmemInit(void);	/* lease.c */
extern void UidLeaseAwaitWorkerId(bool *waited);	/* lease.c */

/* ---- mask.c: keyed masking (uid.mask_key) ---- */

extern void UidMaskInit(void);

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

/* ---- time_filter.c: time filters on IDs use the index on the ID ---- */

extern void UidTimeFilterInit(void);
extern Oid	UidExtensionSchema(void);
/* the SQL functions it recognises by their address (layout.c, uuid7.c) */
extern PGDLLEXPORT Datum uid_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uuid7_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode_uuid(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_compat_uuid_extract_timestamp(PG_FUNCTION_ARGS);

/* ---- adopt.c: adopted sequences ---- */

extern void UidAdoptInit(void);

/* ---- counters.c: the tenant counters' setting uid.counter_node ---- */

extern void UidCountersInit(void);

#endif							/* UID_H */
