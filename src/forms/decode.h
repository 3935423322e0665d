/*
 * decode.h
 *		Reading the forms of IDs back, without a server: the Crockford
 *		base32 text forms, the prefixed forms, any pasted form, and the bit
 *		layout of the masked forms; the fields of the IDs themselves are in
 *		id_layout.h, which this includes.  Plain C on PostgreSQL's portable
 *		types (c.h), with no palloc and no ereport: decode.c is linked into
 *		the extension, where the SQL functions turn its results into rows or
 *		errors, and into the uid-decode command
 *		(tools/uid-decode/uid_decode.c), built with -DFRONTEND.
 */
#ifndef UID_DECODE_H
#define UID_DECODE_H

#include "forms/ff1.h"
#include "id_layout.h"

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

/* ---- Prefixed forms (typeid.c): a prefix, an underscore, the digits ---- */

/*
 * A prefix is at most 63 characters of a-z and _ that start and end with a
 * letter, or is empty (TypeID's rule, for both prefixed forms).
 */
#define UID_PREFIX_MAX			63

/* What is wrong with a prefix */
typedef enum UidPrefixProblem
{
	UID_PREFIX_OK,
	UID_PREFIX_BAD_CHARACTER,	/* not a-z or _ (at *pos) */
	UID_PREFIX_FIRST_UNDERSCORE,	/* starts with _ */
	UID_PREFIX_LAST_UNDERSCORE, /* ends with _ */
	UID_PREFIX_TOO_LONG			/* more than 63 characters */
} UidPrefixProblem;

/*
 * The first problem of the prefix s[0, len), reading left to right; every
 * byte before *pos is ASCII, so *pos + 1 is its position in characters.
 */
extern UidPrefixProblem UidPrefixFirstProblem(const char *s, int len, int *pos);

/* What is wrong with a prefixed form, reading left to right */
typedef enum UidPrefixedProblem
{
	UID_PREFIXED_OK,
	UID_PREFIXED_EMPTY,			/* an empty string */
	UID_PREFIXED_NO_PREFIX,		/* an underscore first: a separator, no prefix */
	UID_PREFIXED_PREFIX,		/* the prefix breaks the rule (prefix_problem) */
	UID_PREFIXED_BAD_DIGIT,		/* a character of the digits that is not one */
	UID_PREFIXED_LENGTH,		/* not ndigits digits */
	UID_PREFIXED_FIRST_DIGIT	/* a first digit above 7 */
} UidPrefixedProblem;

/* Where a prefixed form's parts are, or its first problem */
typedef struct UidPrefixed
{
	int			prefix_len;		/* the prefix is s[0, prefix_len) */
	int			digits;			/* the digits start here */
	UidPrefixProblem prefix_problem;	/* for UID_PREFIXED_PREFIX */
	int			pos;			/* the byte of a bad character */
} UidPrefixed;

/*
 * Parses s[0, len) as a prefix, the separator and ndigits digits of which
 * the first is at most 7, or those digits alone.  strict (a TypeID): the
 * digits are lower case, with no O, I or L read as digits; otherwise they
 * are read as uid_from_text() reads them.  The digits' value is for the
 * caller to take (UidTextDecodeUid/Uuid) once this says UID_PREFIXED_OK.
 */
extern UidPrefixedProblem UidPrefixedParse(const char *s, int len, int ndigits,
										   bool strict, UidPrefixed *p);

/* The value of a digit of a prefixed form, or UID_CROCKFORD_NO_DIGIT */
extern int	UidPrefixedDigit(char c, bool strict);

/* ---- Any form: what uid_decode(text) and uid-decode read ---- */

/*
 * The rule that tells the forms apart (docs/exposing-ids.md, "Decoding what
 * someone pastes"), by length and alphabet first, after white space around
 * the input is set aside:
 *
 *	- 1 to 19 decimal digits: a bigint (a uid), at most 9223372036854775807;
 *	  13 of them whose first is 0-7 are also a text form of uid_to_text():
 *	  refused as two forms unless both read as the same uid.  20 or more
 *	  digits are never a bigint: 26 are read as below, 32 are a UUID.
 *	- an underscore: a prefixed form, a TypeID when 26 digits follow the
 *	  last one, else uid_to_text(id, prefix).
 *	- 36 characters 8-4-4-4-12 or 32 hexadecimal digits: a UUID, also when
 *	  every digit is decimal.
 *	- 26 characters and 6 '=': PostgreSQL's base32hex of a UUID (RFC 4648
 *	  section 7: 0-9 and A-V, the 128 bits from the first digit on, the last
 *	  digit's 2 low bits zero, so that it is one of 0 4 8 C G K O S).
 *	- 26 characters: uuid_to_text() (Crockford base32, the 128 bits ending at
 *	  the last digit, the first digit 0-7; a TypeID's digits, a ULID) or that
 *	  base32hex without its padding.  A string of both alphabets whose first
 *	  digit is 0-7 and last one of 0 4 8 C G K O S reads as both; if the two
 *	  readings are one UUID, it is uuid_text; else a reading that is a
 *	  UUID of RFC 9562 of version 4 or 7 is taken when the other is no UUID
 *	  of RFC 9562 (variant 0b10, version 1 to 8); else it is refused as two
 *	  forms.  So no UUID of RFC 9562 is ever read as another, and a v4 or
 *	  v7 is read as itself unless its other reading is of RFC 9562 too.
 *	- 13 characters: uid_to_text().
 */

/* Every form uid writes of an ID, as the decoders name it */
typedef enum UidForm
{
	UID_FORM_BIGINT,			/* decimal digits: a uid */
	UID_FORM_TEXT,				/* 13 digits of uid_to_text() */
	UID_FORM_PREFIXED,			/* uid_to_text(id, prefix) */
	UID_FORM_UUID,				/* 8-4-4-4-12 hexadecimal digits */
	UID_FORM_HEX,				/* 32 hexadecimal digits */
	UID_FORM_UUID_TEXT,			/* 26 digits of uuid_to_text() */
	UID_FORM_TYPEID,			/* uuid_to_typeid(u, prefix) */
	UID_FORM_BASE32HEX			/* encode(u::bytea, 'base32hex'), padded or not */
} UidForm;

/*
 * "bigint", "text", "prefixed", "uuid", "hex", "uuid_text", "typeid",
 * "base32hex"
 */
extern const char *const UidFormNames[];

/* What an input that is no form is closest to */
typedef enum UidAnyProblem
{
	UID_ANY_OK,
	UID_ANY_EMPTY,				/* nothing but white space */
	UID_ANY_NEGATIVE,			/* a negative number */
	UID_ANY_ABOVE_BIGINT,		/* decimal digits beyond bigint */
	UID_ANY_UUID,				/* has a hyphen, or 32 or 36 characters */
	UID_ANY_TEXT,				/* near 13 or 26 characters: a text form's problem */
	UID_ANY_PREFIXED,			/* has an underscore: a prefixed form's problem */
	UID_ANY_BASE32HEX,			/* base32hex digits, or '=', that are no UUID */
	UID_ANY_TWO_FORMS,			/* reads as two forms, to two values */
	UID_ANY_UNKNOWN				/* nothing like any form */
} UidAnyProblem;

/* One input, read */
typedef struct UidAny
{
	UidForm		form;
	bool		is_uuid;		/* a UUID form: hi and lo; else id */
	int64		id;
	uint64		hi;
	uint64		lo;
	int			prefix_len;		/* prefixed forms: the prefix is s[0, prefix_len) */
	/* for a problem: */
	int			ndigits;		/* UID_ANY_TEXT, _PREFIXED: 13 or 26 */
	bool		strict;			/* UID_ANY_PREFIXED: read as a TypeID */
	UidTextProblem text_problem;	/* UID_ANY_TEXT */
	UidPrefixedProblem prefixed_problem;	/* UID_ANY_PREFIXED */
	UidPrefixed prefixed;		/* UID_ANY_PREFIXED */
	int			pos;			/* UID_ANY_TEXT, _BASE32HEX: the byte of the problem */
	/* UID_ANY_TWO_FORMS: the second reading (the first is form, id, hi, lo) */
	UidForm		other_form;
	int64		other_id;
	uint64		other_hi;
	uint64		other_lo;
} UidAny;

/* White space around a pasted ID, which every decoder sets aside */
static inline bool
UidIsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * Reads s[0, len) (without surrounding white space) as whichever form it
 * is, by the rule above.
 */
extern UidAnyProblem UidReadAny(const char *s, int len, UidAny *a);

/*
 * The words of a refusal that the SQL function and the command share, for
 * UID_ANY_TWO_FORMS and UID_ANY_BASE32HEX: the message (to follow the
 * quoted input) and the hint, each cut to its buffer.
 */
extern void UidAnyExplain(const char *s, int len, UidAnyProblem problem, const UidAny *a,
						  char *msg, size_t msglen, char *hint, size_t hintlen);

/*
 * The note for a uid below 86400000 << 22, whose time is in the first day
 * of the epoch (2026-01-01 UTC): such a number is far more likely a count,
 * a sequence or an adopted column's value than an ID uid_next() issued.
 * NULL for every other value.
 */
#define UID_FIRST_DAY_MS		INT64CONST(86400000)
extern const char *UidSmallNote(int64 id);

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
