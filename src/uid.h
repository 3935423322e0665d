/*
 * uid.h
 *		Declarations shared by the files of the uid extension: the ID layout,
 *		the error codes, the settings, and each subsystem's entry points.
 *		Includes compat.h, so every file sees the same PostgreSQL version layer.
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

/* ---- Settings (each defined by the file that owns it) ---- */

extern int	uid_clock_max_wait_ms;	/* clock.c */
extern int	uid_reserve_window_ms;	/* hwm.c */
extern int	uid_max_batch;			/* generator.c */

/* ---- layout.c ---- */

/* Raises an error for a negative value (22003): uid values never are. */
extern void UidCheckId(int64 id);

/* ---- uid.c: module state ---- */

/* true when shared memory was set up, i.e. uid is in shared_preload_libraries */
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

/* ---- hwm.c: the durable high-water marks of issued time ---- */

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
	UID_HWM_NEW,				/* no file: nothing was ever issued here */
	UID_HWM_CLEAN,				/* the previous run exited cleanly */
	UID_HWM_RESERVED,			/* the previous run crashed: floors are its reservations */
	UID_HWM_CORRUPT				/* the file cannot be trusted: refuse to generate */
} UidHwmStatus;

extern void UidHwmDefineSettings(void);
extern Size UidHwmShmemSize(void);
extern void UidHwmShmemInit(void);
extern int64 UidHwmRestoredFloor(UidHwmGenerator g);
extern UidHwmStatus UidHwmRestoredStatus(bool *legacy);
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

/* ---- generator.c ---- */

extern void UidGeneratorDefineSettings(void);
extern Size UidGeneratorShmemSize(void);
extern void UidGeneratorShmemInit(void);
extern void UidGeneratorShmemExit(int code, Datum arg);
extern int	UidGeneratorWorkerId(void);
extern uint64 UidGeneratorLastState(void);
extern void UidGeneratorWarnLayoutEnd(void);

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

extern bool uid_worker_id_lease;	/* uid.worker_id = 'lease' */
extern bool uid_worker_id_given;	/* uid.worker_id set in the configuration */
extern void UidGeneratorRaiseFloor(int64 ms);
extern void UidGeneratorGrant(int worker, int64 deadline_ms);
extern int64 UidGeneratorRevoke(void);

/* ---- lease.c: worker ids from a lease table, renewed by a background worker ---- */

extern void UidLeaseDefineSettings(void);
extern void UidLeaseRegisterWorker(void);
extern Size UidLeaseShmemSize(void);
extern void UidLeaseShmemInit(void);
extern void UidLeaseAwaitWorkerId(bool *waited);

/* ---- mask.c: keyed masking (uid.mask_key) ---- */

extern void UidMaskInit(void);

/* ---- stats.c: per-backend counters in shared memory ---- */

typedef enum UidCounter
{
	UID_COUNT_IDS,				/* uid_next() / batch IDs issued */
	UID_COUNT_UUIDS,			/* uuid7() values issued */
	UID_COUNT_CLOCK_WAITS,		/* backward steps waited out */
	UID_COUNT_CLOCK_REFUSALS,	/* calls refused for a backward step */
	UID_COUNT_OVERFLOW_WAITS,	/* 4096 IDs in one ms: waited for the next */
	UID_COUNT_BATCH_CALLS,		/* uid_next_batch() calls */
	UID_COUNT_HWM_WRITES,		/* durable high-water mark extensions */
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
/* the SQL functions it recognises by their address (layout.c, uuid7.c) */
extern PGDLLEXPORT Datum uid_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uuid7_time(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_decode_uuid(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum uid_compat_uuid_extract_timestamp(PG_FUNCTION_ARGS);

#endif							/* UID_H */
