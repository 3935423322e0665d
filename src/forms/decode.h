/*
 * decode.h
 *		Reading IDs back, without a server: the Snowflake-style layout, the
 *		fields of a UUID, the Crockford base32 text forms, and the bit layout
 *		of the masked forms.  Plain C on PostgreSQL's portable types (c.h),
 *		with no palloc and no ereport: decode.c is linked into the extension,
 *		where the SQL functions turn its results into rows or errors, and into
 *		the uid-decode command (tools/uid-decode/uid_decode.c), built with -DFRONTEND.
 */
#ifndef UID_DECODE_H
#define UID_DECODE_H

#include "port/pg_bswap.h"

#include "forms/ff1.h"

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

/* ---- Crockford base32 text forms (text_forms.c) ---- */

#define UID_TEXT_DIGITS		13
#define UUID_TEXT_DIGITS	26
#define UID_CROCKFORD_NO_DIGIT	0xFF

/* 0-9 and A-Z without I, L, O and U, in ASCII order */
extern const char UidCrockfordDigits[32];

/*
 * The value of each byte as a digit, or UID_CROCKFORD_NO_DIGIT.  Lower case
 * reads as upper case, O as 0, I and L as 1; U and everything else is
 * refused.
 */
extern const uint8 UidCrockfordValues[256];

/* The low 5 * n bits of v as n digits, most significant first. */
static inline void
UidCrockfordEncode64(uint64 v, int n, char *out)
{
	for (int i = n - 1; i >= 0; i--)
	{
		out[i] = UidCrockfordDigits[v & 31];
		v >>= 5;
	}
}

/*
 * n digits (at most 64 bits' worth) as a number.  Every value is or-ed into
 * *seen, so one test afterwards (UID_CROCKFORD_NO_DIGIT has the top bit)
 * tells whether a character was not a digit, without a branch per
 * character.
 */
static inline uint64
UidCrockfordDecode64(const char *s, int n, uint8 *seen)
{
	uint64		v = 0;
	uint8		all = 0;

	for (int i = 0; i < n; i++)
	{
		uint8		d = UidCrockfordValues[(unsigned char) s[i]];

		all |= d;
		v = (v << 5) | (d & 31);
	}
	*seen |= all;
	return v;
}

/* The 13 digits of a uid (out is not terminated). */
extern void UidTextEncodeUid(uint64 id, char *out);

/* The 26 digits of a UUID given as two big-endian words (not terminated). */
extern void UidTextEncodeUuid(uint64 hi, uint64 lo, char *out);

/*
 * The value of exactly 13 (26) characters; false if one is not a digit.
 * The first digit is not checked (the caller knows it is at most 7).
 */
extern bool UidTextDecodeUid(const char *s, int64 *id);
extern bool UidTextDecodeUuid(const char *s, uint64 *hi, uint64 *lo);

/* What is wrong with a text form, reading left to right */
typedef enum UidTextProblem
{
	UID_TEXT_OK,
	UID_TEXT_BAD_CHARACTER,		/* a character that is not a digit */
	UID_TEXT_TOO_LONG,			/* a digit too many */
	UID_TEXT_FIRST_DIGIT,		/* a first digit above 7 */
	UID_TEXT_TOO_SHORT			/* too few digits */
} UidTextProblem;

/*
 * The first problem of the form s[start, end) (without surrounding white
 * space) of ndigits digits, and in *pos the byte offset it is at (for
 * UID_TEXT_TOO_SHORT: end).
 */
extern UidTextProblem UidTextFirstProblem(const char *s, int start, int end,
										  int ndigits, int *pos);

/* ---- Masked forms (mask.c): FF1 over the bits that carry information ---- */

#define UID_MASK_BITS			63
#define UUID7_MASK_BITS			122

/*
 * uuid7_mask() takes times below 2^42 ms (2109-05-15 07:35:11.104 UTC), so
 * that uuid7_unmask() can refuse a UUID whose unmasked time is beyond: a
 * UUID not masked with the key unmasks to a time that is uniformly spread
 * over 2^48 ms, and lands below 2^42 one time in 64.
 */
#define UUID7_MASK_TIME_BITS	42
#define UUID7_MASK_TIME_END		"2109-05-15 07:35:11.104+00"

/* A key of 16, 24 or 32 bytes, as uid.mask_key and key files hold it. */
#define UID_MASK_MAX_KEY		32

/* The value of a hexadecimal digit, or -1. */
extern int	UidHexDigitValue(char c);

/*
 * Masks (unmask false) or unmasks a non-negative bigint over its 63 bits
 * under dom (a 63-bit FF1 domain); false if AES fails.
 */
extern bool UidMaskBits63(const Ff1Domain *dom, int64 in, bool unmask, int64 *out);

/*
 * Masks or unmasks the 122 free bits of a UUID given as two words: the
 * 48-bit time, the 12 bits of rand_a and the 62 of rand_b, in that order,
 * as one FF1 string under dom (a 122-bit domain).  The result gets version
 * 4 (masked) or 7 (unmasked) and variant 0b10; *ms is its time field.
 * False if AES fails.
 */
extern bool UidMaskBits122(const Ff1Domain *dom, uint64 hi, uint64 lo, bool unmask,
						   uint64 *out_hi, uint64 *out_lo, uint64 *ms);

#endif							/* UID_DECODE_H */
