/*
 * text_forms.c
 *		Short, fixed-width text forms of IDs in Crockford's base32:
 *		uid_to_text(bigint) / uid_from_text(text), 13 characters, and
 *		uuid_to_text(uuid) / uuid_from_text(text), 26 characters.
 *
 * The alphabet is 0-9 and A-Z without I, L, O and U, in ASCII order, and
 * every form has the same width, so the byte order of two forms (COLLATE
 * "C") is the numeric order of the values.  13 digits hold 65 bits and 26
 * hold 130, so the first digit of a form is at most 7 (a uid has 63 bits, a
 * UUID 128).  For a UUIDv7 the 26 characters are what a ULID of the same
 * 128 bits would be: the first 10 digits are the 48-bit millisecond time.
 *
 * Reading is lenient where a human may slip (case, O for 0, I and L for 1,
 * surrounding white space) and strict otherwise: anything else is an error
 * naming the character and its position.  Pure functions, no preload needed.
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "uid.h"

PG_FUNCTION_INFO_V1(uid_to_text);
PG_FUNCTION_INFO_V1(uid_from_text);
PG_FUNCTION_INFO_V1(uuid_to_text);
PG_FUNCTION_INFO_V1(uuid_from_text);

#define UID_TEXT_DIGITS		13
#define UUID_TEXT_DIGITS	26

static const char crockford_digits[32] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/*
 * The value of each ASCII character as a digit, or -1.  Lower case reads as
 * upper case, O as 0, I and L as 1; U and everything else is refused.
 */
static const int8 crockford_values[128] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	/* 0-9 */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	/* @ A B C D E F G H I J K L M N O */
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* P Q R S T U V W X Y Z */
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	/* ` a b c d e f g h i j k l m n o */
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* p q r s t u v w x y z */
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
};

static inline bool
UidTextIsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * The digits of the 128-bit number (hi, lo) that fit ndigits, most
 * significant first, into out (no terminator).
 */
static inline void
UidTextEncode(uint64 hi, uint64 lo, int ndigits, char *out)
{
	for (int i = ndigits - 1; i >= 0; i--)
	{
		out[i] = crockford_digits[lo & 31];
		lo = (lo >> 5) | (hi << 59);
		hi >>= 5;
	}
}

static text *
UidTextNew(uint64 hi, uint64 lo, int ndigits)
{
	text	   *t = (text *) palloc(VARHDRSZ + ndigits);

	SET_VARSIZE(t, VARHDRSZ + ndigits);
	UidTextEncode(hi, lo, ndigits, VARDATA(t));
	return t;
}

/*
 * The error for the character at byte offset pos of s.  Every byte before
 * it is ASCII (white space or a digit), so pos + 1 is also its position in
 * characters.
 */
static void
UidTextBadCharacter(const char *kind, const char *s, int len, int pos,
					const char *detail)
{
	int			clen = pg_mblen(s + pos);

	if (clen > len - pos)
		clen = len - pos;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid character \"%.*s\" at position %d in %s text form \"%.*s\"",
					clen, s + pos, pos + 1, kind, len, s),
			 errdetail_internal("%s", detail)));
}

/*
 * Reports the first problem of a text form, reading left to right: a
 * character that is not a digit, a digit too many, a first digit above 7,
 * or too few digits.  [start, end) is the form without surrounding white
 * space.
 */
UidNoReturn static void
UidTextRefuse(const char *kind, const char *s, int len, int start, int end,
			  int ndigits)
{
	for (int i = start; i < end; i++)
	{
		unsigned char c = (unsigned char) s[i];
		int			d = c < 128 ? crockford_values[c] : -1;

		if (d < 0)
			UidTextBadCharacter(kind, s, len, i,
								psprintf("A %s text form is %d Crockford base32 digits: 0-9 and A-Z "
										 "except U, read without regard to case, with O read as 0 "
										 "and I and L as 1.", kind, ndigits));
		if (i - start == ndigits)
			UidTextBadCharacter(kind, s, len, i,
								psprintf("A %s text form is %d digits long; this is digit %d.",
										 kind, ndigits, ndigits + 1));
		if (i == start && d > 7)
			UidTextBadCharacter(kind, s, len, i,
								psprintf("The first digit of a %s text form is 0 to 7: "
										 "%d digits hold %d bits, a %s has %d.",
										 kind, ndigits, ndigits * 5, kind,
										 ndigits == UID_TEXT_DIGITS ? 63 : 128));
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("%s text form \"%.*s\" ends after %d digits, at position %d",
					kind, len, s, end - start, end + 1),
			 errdetail("A %s text form is %d Crockford base32 digits.",
					   kind, ndigits)));
	pg_unreachable();
}

/*
 * Reads a text form of ndigits digits into the 128-bit number (hi, lo).
 * kind names the form in errors ("uid" or "uuid").  Inlined into each
 * caller, so that the 13-digit form skips the high word.
 */
static pg_attribute_always_inline void
UidTextDecode(text *t, int ndigits, const char *kind, uint64 *hi, uint64 *lo)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			start = 0;
	int			end = len;
	uint64		h = 0;
	uint64		l = 0;

	while (start < end && UidTextIsSpace(s[start]))
		start++;
	while (end > start && UidTextIsSpace(s[end - 1]))
		end--;
	if (unlikely(end - start != ndigits ||
				 (unsigned char) s[start] >= 128 ||
				 crockford_values[(unsigned char) s[start]] > 7))
		UidTextRefuse(kind, s, len, start, end, ndigits);

	for (int i = start; i < end; i++)
	{
		unsigned char c = (unsigned char) s[i];
		int			d = c < 128 ? crockford_values[c] : -1;

		if (unlikely(d < 0))
			UidTextRefuse(kind, s, len, start, end, ndigits);
		if (ndigits > UID_TEXT_DIGITS)
			h = (h << 5) | (l >> 59);
		l = (l << 5) | (uint64) d;
	}
	*hi = h;
	*lo = l;
}

/* uid_to_text(bigint): 13 digits, in the order of the IDs */
Datum
uid_to_text(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);

	UidCheckId(id);
	PG_RETURN_TEXT_P(UidTextNew(0, (uint64) id, UID_TEXT_DIGITS));
}

/* uid_from_text(text): the ID of a text form made by uid_to_text() */
Datum
uid_from_text(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;

	UidTextDecode(PG_GETARG_TEXT_PP(0), UID_TEXT_DIGITS, "uid", &hi, &lo);
	PG_RETURN_INT64((int64) lo);
}

/* uuid_to_text(uuid): 26 digits; for a v7, its ULID */
Datum
uuid_to_text(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	PG_RETURN_TEXT_P(UidTextNew(UuidHigh64(u), UuidLow64(u), UUID_TEXT_DIGITS));
}

/* uuid_from_text(text): the UUID of a text form made by uuid_to_text() */
Datum
uuid_from_text(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;
	pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);

	UidTextDecode(PG_GETARG_TEXT_PP(0), UUID_TEXT_DIGITS, "uuid", &hi, &lo);
	UuidSet64(u, hi, lo);
	PG_RETURN_UUID_P(u);
}
