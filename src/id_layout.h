/*
 * id_layout.h
 *		The bit layout of the IDs, at the bottom of the extension: the
 *		Snowflake-style fields of a uid and the fields of a UUID, with the
 *		functions that read them (id_layout.c).  Plain C on PostgreSQL's
 *		portable types (c.h), with no palloc and no ereport, so that the
 *		uid-decode command (-DFRONTEND) links the same code as the server.
 *		Every folder may include it; it includes nothing of uid's.
 */
#ifndef UID_ID_LAYOUT_H
#define UID_ID_LAYOUT_H

#include "port/pg_bswap.h"

/* ---- The Snowflake-style layout (docs/snowflake.md, "Layout") ---- */

/* 2026-01-01T00:00:00Z in ms since the Unix epoch.  Pinned by a test. */
#define UID_EPOCH_MS		INT64CONST(1767225600000)
#define UID_TIME_BITS		41
#define UID_WORKER_BITS		10
#define UID_SEQ_BITS		12
#define UID_MAX_TIME		((INT64CONST(1) << UID_TIME_BITS) - 1)
#define UID_MAX_WORKER		((1 << UID_WORKER_BITS) - 1)
#define UID_MAX_SEQ			((1 << UID_SEQ_BITS) - 1)
#define UID_SEQ_PER_MS		(1 << UID_SEQ_BITS)

static inline int64
UidCompose(int64 ms, int worker, int seq)
{
	return (ms << (UID_WORKER_BITS + UID_SEQ_BITS)) |
		((int64) worker << UID_SEQ_BITS) | (int64) seq;
}

/* ms since the uid epoch of an ID */
static inline int64
UidIdMs(int64 id)
{
	return id >> (UID_WORKER_BITS + UID_SEQ_BITS);
}

/* The fields of a (non-negative) uid. */
typedef struct UidFields
{
	int64		ms_since_epoch;
	int64		unix_ms;		/* the same ms since 1970-01-01 UTC */
	int			worker_id;
	int			sequence;
} UidFields;

/* Fills f; false for a negative value, which no uid is. */
extern bool UidDecodeFields(int64 id, UidFields *f);

/* ---- UUIDs (RFC 9562) ---- */

#define UID_UUID_BYTES		16

/* The fields of any UUID, given as its 16 bytes. */
typedef struct UuidFields
{
	int			variant;		/* 0 (NCS, 0xxx), 2 (RFC 9562, 10xx), 6 (Microsoft, 110x),
								 * 7 (reserved, 111x) */
	int			version;		/* the version field for variant 2, else -1 */
	bool		has_time;		/* versions 1, 6 and 7 of variant 2 */
	int64		unix_us;		/* their time in us since 1970-01-01 UTC (v7: whole ms) */
} UuidFields;

extern void UuidDecodeFields(const uint8 *bytes, UuidFields *f);

/* bytes 0..7 and 8..15 of a UUID as big-endian words, and back */
static inline uint64
UuidBytesHigh64(const uint8 *bytes)
{
	uint64		w;

	memcpy(&w, bytes, sizeof(w));
	return pg_ntoh64(w);
}

static inline uint64
UuidBytesLow64(const uint8 *bytes)
{
	uint64		w;

	memcpy(&w, bytes + 8, sizeof(w));
	return pg_ntoh64(w);
}

static inline void
UuidBytesSet64(uint8 *bytes, uint64 hi, uint64 lo)
{
	hi = pg_hton64(hi);
	lo = pg_hton64(lo);
	memcpy(bytes, &hi, sizeof(hi));
	memcpy(bytes + 8, &lo, sizeof(lo));
}

#endif							/* UID_ID_LAYOUT_H */
