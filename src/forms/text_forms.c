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

#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "forms/decode.h"
#include "forms/layout.h"
#include "forms/text_forms.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_to_text);
PG_FUNCTION_INFO_V1(uid_from_text);
PG_FUNCTION_INFO_V1(uuid_to_text);
PG_FUNCTION_INFO_V1(uuid_from_text);

/* the digit table of decode.c, which the uid-decode command shares */
#define NO_DIGIT			UID_CROCKFORD_NO_DIGIT
#define crockford_values	UidCrockfordValues

/* A text of n digits, to be filled in */
static text *
UidTextNew(int n)
{
	text	   *t = (text *) palloc(VARHDRSZ + n);

	SET_VARSIZE(t, VARHDRSZ + n);
	return t;
}

/*
 * s[0, len) for an error message: each character of the server encoding as
 * it is, each other byte as \xNN, so that the message is valid in every
 * server and client encoding.  SQL_ASCII checks no byte, so there every
 * byte above 0x7f is escaped.
 */
char *
UidTextQuoted(const char *s, int len)
{
	int			encoding = GetDatabaseEncoding();
	StringInfoData buf;
	int			i = 0;

	initStringInfo(&buf);
	while (i < len)
	{
		int			n = 1;

		if (IS_HIGHBIT_SET(s[i]))
			n = encoding == PG_SQL_ASCII ? -1 : pg_encoding_verifymbchar(encoding, s + i, len - i);
		if (n > 0)
			appendBinaryStringInfo(&buf, s + i, n);
		else
		{
			appendStringInfo(&buf, "\\x%02x", (unsigned char) s[i]);
			n = 1;
		}
		i += n;
	}
	return buf.data;
}

/*
 * The character at byte offset pos of s, for an error message.  Under
 * SQL_ASCII, which knows no multibyte characters, the bytes above 0x7f from
 * pos on are taken as one (at most 4, as in UTF-8).
 */
int
UidTextCharLen(const char *s, int len, int pos)
{
	int			clen = 1;

	if (GetDatabaseEncoding() == PG_SQL_ASCII)
	{
		while (clen < 4 && pos + clen < len && IS_HIGHBIT_SET(s[pos]) &&
			   IS_HIGHBIT_SET(s[pos + clen]))
			clen++;
	}
	else
		clen = pg_mblen(s + pos);
	if (clen > len - pos)
		clen = len - pos;
	return clen;
}

/*
 * The error for the character at byte offset pos of s.  Every byte before
 * it is ASCII (white space or a digit), so pos + 1 is also its position in
 * characters.
 */
UidNoReturn static void
UidTextBadCharacter(const char *kind, const char *s, int len, int pos,
					const char *detail)
{
	int			clen = UidTextCharLen(s, len, pos);

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid character \"%s\" at position %d in %s text form \"%s\"",
					UidTextQuoted(s + pos, clen), pos + 1, kind, UidTextQuoted(s, len)),
			 errdetail_internal("%s", detail)));
}

/*
 * Reports the first problem of a text form, reading left to right: a
 * character that is not a digit, a digit too many, a first digit above 7,
 * or too few digits.  [start, end) is the form without surrounding white
 * space.
 */
UidNoReturn void
UidTextRefuse(const char *kind, const char *s, int len, int start, int end,
			  int ndigits)
{
	int			pos = 0;

	switch (UidTextFirstProblem(s, start, end, ndigits, &pos))
	{
		case UID_TEXT_BAD_CHARACTER:
			UidTextBadCharacter(kind, s, len, pos,
								psprintf("A %s text form is %d Crockford base32 digits: 0-9 and A-Z "
										 "except U, read without regard to case, with O read as 0 "
										 "and I and L as 1.", kind, ndigits));
		case UID_TEXT_TOO_LONG:
			UidTextBadCharacter(kind, s, len, pos,
								psprintf("A %s text form is %d digits long; this is digit %d.",
										 kind, ndigits, ndigits + 1));
		case UID_TEXT_FIRST_DIGIT:
			UidTextBadCharacter(kind, s, len, pos,
								psprintf("The first digit of a %s text form is 0 to 7: "
										 "%d digits hold %d bits, a %s has %d.",
										 kind, ndigits, ndigits * 5, kind,
										 ndigits == UID_TEXT_DIGITS ? 63 : 128));
		case UID_TEXT_TOO_SHORT:
		case UID_TEXT_OK:
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("%s text form \"%s\" ends after %d digits, at position %d",
					kind, UidTextQuoted(s, len), end - start, end + 1),
			 errdetail("A %s text form is %d Crockford base32 digits.",
					   kind, ndigits)));
	pg_unreachable();
}

/*
 * The characters of t, with *start at the form's first digit once the
 * surrounding white space is set aside.  Refused unless ndigits characters
 * remain and the first is a digit of at most 7; whether the others are
 * digits is for the caller to check.
 */
static inline const char *
UidTextForm(text *t, int ndigits, const char *kind, int *start)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			b = 0;
	int			e = len;

	while (b < e && UidIsSpace(s[b]))
		b++;
	while (e > b && UidIsSpace(s[e - 1]))
		e--;
	if (unlikely(e - b != ndigits || crockford_values[(unsigned char) s[b]] > 7))
		UidTextRefuse(kind, s, len, b, e, ndigits);
	*start = b;
	return s;
}

/* uid_to_text(bigint): 13 digits, in the order of the IDs */
Datum
uid_to_text(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	text	   *t;

	UidCheckId(id);
	t = UidTextNew(UID_TEXT_DIGITS);
	UidTextEncodeUid((uint64) id, VARDATA(t));
	PG_RETURN_TEXT_P(t);
}

/* uid_from_text(text): the ID of a text form made by uid_to_text() */
Datum
uid_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int			start;
	const char *s = UidTextForm(t, UID_TEXT_DIGITS, "uid", &start);
	int64		v;

	if (unlikely(!UidTextDecodeUid(s + start, &v)))
		UidTextRefuse("uid", s, VARSIZE_ANY_EXHDR(t), start, start + UID_TEXT_DIGITS,
					  UID_TEXT_DIGITS);
	PG_RETURN_INT64(v);
}

/* uuid_to_text(uuid): 26 digits; for a v7, its ULID (decode.c) */
Datum
uuid_to_text(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	text	   *t = UidTextNew(UUID_TEXT_DIGITS);

	UidTextEncodeUuid(UuidHigh64(u), UuidLow64(u), VARDATA(t));
	PG_RETURN_TEXT_P(t);
}

/* uuid_from_text(text): the UUID of a text form made by uuid_to_text() */
Datum
uuid_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int			start;
	const char *s = UidTextForm(t, UUID_TEXT_DIGITS, "uuid", &start);
	uint64		hi;
	uint64		lo;
	pg_uuid_t  *u;

	if (unlikely(!UidTextDecodeUuid(s + start, &hi, &lo)))
		UidTextRefuse("uuid", s, VARSIZE_ANY_EXHDR(t), start, start + UUID_TEXT_DIGITS,
					  UUID_TEXT_DIGITS);
	u = (pg_uuid_t *) palloc(UUID_LEN);
	UuidSet64(u, hi, lo);
	PG_RETURN_UUID_P(u);
}
