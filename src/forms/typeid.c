/*
 * typeid.c
 *		Prefixed text forms: TypeIDs of UUIDs (specification 0.3.0 of
 *		jetify-com/typeid), uuid_to_typeid(uuid, text) / uuid_from_typeid(),
 *		and the prefixed form of a 64-bit ID, uid_to_text(bigint, text) /
 *		uid_from_text(text, text).
 *
 * Both forms are a prefix naming the kind of ID, an underscore, and the
 * Crockford base32 digits of the value, or the digits alone when the prefix
 * is empty.  A prefix is at most 63 characters of a-z and _, and starts and
 * ends with a letter (^([a-z]([a-z_]{0,61}[a-z])?)?$).  Since the digits
 * hold no underscore, the last underscore of a form is its separator.
 *
 * A TypeID's suffix is the 26 digits of uuid_to_text() in lower case, read
 * as the specification says: lower case only, no O, I or L read as digits,
 * no white space.  The 64-bit form's suffix is the 13 digits of
 * uid_to_text(), read as uid_from_text() reads them (either case, O as 0, I
 * and L as 1), with no white space either.  It is not a TypeID, whose
 * suffix is always 128 bits: a TypeID parser refuses it.
 *
 * Every malformed form is refused with 22P02, naming its first problem from
 * the left; a well-formed one whose prefix is not the expected one with
 * 22023, as is a prefix argument that breaks the rules.  Pure functions, no
 * preload needed.
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "forms/layout.h"
#include "forms/text_forms.h"
#include "forms/typeid.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uuid_to_typeid);
PG_FUNCTION_INFO_V1(uuid_from_typeid);
PG_FUNCTION_INFO_V1(uuid_from_typeid_prefix);
PG_FUNCTION_INFO_V1(uid_to_text_prefix);
PG_FUNCTION_INFO_V1(uid_from_text_prefix);

#define PREFIX_RULE \
	"A prefix is at most 63 characters of a-z and _ that start and end " \
	"with a letter, or is empty."

/* The two forms, for the messages and the reading of the suffix */
typedef struct PrefixedKind
{
	const char *name;			/* "TypeID" or "prefixed uid text form" */
	int			ndigits;		/* 26 or 13 */
	bool		strict;			/* lower case only, no aliases (TypeID) */
	const char *suffix_rule;	/* the hint for a bad suffix */
} PrefixedKind;

static const PrefixedKind typeid_kind = {
	"TypeID", UUID_TEXT_DIGITS, true,
	"A TypeID ends in 26 characters of 0-9 and a-z except i, l, o and u, "
	"in lower case, after its prefix and an underscore."
};

static const PrefixedKind uid_kind = {
	"prefixed uid text form", UID_TEXT_DIGITS, false,
	"A prefixed uid text form ends in the 13 digits of uid_to_text() (0-9 "
	"and A-Z except U, either case, O read as 0, I and L as 1) after its "
	"prefix and an underscore."
};

/*
 * A prefix given as an argument (to make a form, or to expect in one);
 * refused with 22023 unless it follows the rules.
 */
static void
PrefixCheckArgument(const char *s, int len)
{
	int			pos = 0;
	const char *detail = NULL;

	switch (UidPrefixFirstProblem(s, len, &pos))
	{
		case UID_PREFIX_OK:
			return;
		case UID_PREFIX_BAD_CHARACTER:
			detail = psprintf("Character \"%s\" at position %d is neither a lower-case "
							  "letter a-z nor an underscore.",
							  UidTextQuoted(s + pos, UidTextCharLen(s, len, pos)), pos + 1);
			break;
		case UID_PREFIX_FIRST_UNDERSCORE:
			detail = "It starts with an underscore.";
			break;
		case UID_PREFIX_LAST_UNDERSCORE:
			detail = "It ends with an underscore.";
			break;
		case UID_PREFIX_TOO_LONG:
			detail = psprintf("It is %d characters long.", len);
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid prefix \"%s\"", UidTextQuoted(s, len)),
			 errdetail_internal("%s", detail),
			 errhint(PREFIX_RULE)));
}

/* The refusal of a malformed form (22P02) */
UidNoReturn static void
FormRefuse(const char *msg, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg_internal("%s", msg),
			 errhint("%s", hint)));
	pg_unreachable();
}

/*
 * The refusal (22P02) of the prefixed form s[0, len) (a TypeID if strict)
 * for its first problem, as UidPrefixedParse() found it; uid_decode(text)
 * refuses a prefixed form that is neither with the same words.
 */
UidNoReturn void
UidPrefixedRefuse(bool strict, const char *s, int len, UidPrefixedProblem problem,
			   const UidPrefixed *p)
{
	const PrefixedKind *kind = strict ? &typeid_kind : &uid_kind;
	int			start = p->digits;
	int			pos = p->pos;

	/* the whole form, quoted, for the messages */
#define FORM UidTextQuoted(s, len)

	switch (problem)
	{
		case UID_PREFIXED_OK:
			break;
		case UID_PREFIXED_EMPTY:
			FormRefuse(psprintf("an empty string is not a %s", kind->name),
					   kind->suffix_rule);
		case UID_PREFIXED_NO_PREFIX:
			FormRefuse(psprintf("%s \"%s\" has a separator but no prefix",
								kind->name, FORM),
					   psprintf("A %s without a prefix is its %d digits alone, "
								"without the underscore.", kind->name, kind->ndigits));
		case UID_PREFIXED_PREFIX:
			switch (p->prefix_problem)
			{
				case UID_PREFIX_OK:
					break;
				case UID_PREFIX_BAD_CHARACTER:
					FormRefuse(psprintf("invalid character \"%s\" at position %d in the prefix of %s \"%s\"",
										UidTextQuoted(s + pos, UidTextCharLen(s, len, pos)),
										pos + 1, kind->name, FORM),
							   PREFIX_RULE);
				case UID_PREFIX_FIRST_UNDERSCORE:
					FormRefuse(psprintf("the prefix of %s \"%s\" starts with an underscore",
										kind->name, FORM),
							   PREFIX_RULE);
				case UID_PREFIX_LAST_UNDERSCORE:
					FormRefuse(psprintf("the prefix of %s \"%s\" ends with an underscore",
										kind->name, FORM),
							   PREFIX_RULE);
				case UID_PREFIX_TOO_LONG:
					FormRefuse(psprintf("the prefix of %s \"%s\" is %d characters long",
										kind->name, FORM, p->prefix_len),
							   PREFIX_RULE);
			}
			break;
		case UID_PREFIXED_BAD_DIGIT:
			{
				/* the prefix is ASCII, so byte offsets from here on are positions */
				bool		upper = kind->strict && s[pos] >= 'A' && s[pos] <= 'Z' &&
					UidPrefixedDigit(s[pos] - 'A' + 'a', true) != UID_CROCKFORD_NO_DIGIT;

				FormRefuse(psprintf("invalid character \"%s\" at position %d in %s \"%s\"",
									UidTextQuoted(s + pos, UidTextCharLen(s, len, pos)),
									pos + 1, kind->name, FORM),
						   upper ? "A TypeID is written in lower case." : kind->suffix_rule);
			}
		case UID_PREFIXED_LENGTH:
			FormRefuse(psprintf("%s \"%s\" ends in %d digits, not %d",
								kind->name, FORM, len - start, kind->ndigits),
					   kind->suffix_rule);
		case UID_PREFIXED_FIRST_DIGIT:
			FormRefuse(psprintf("%s \"%s\" is out of range: its digits start with \"%c\"",
								kind->name, FORM, s[start]),
					   psprintf("The first of the %d digits of a %s is 0 to 7: they hold "
								"%d bits, a %s has %d.", kind->ndigits, kind->name,
								kind->ndigits * 5, kind->strict ? "UUID" : "uid",
								kind->strict ? 128 : 63));
	}
#undef FORM
	elog(ERROR, "prefixed form problem %d not described", (int) problem);
}

/*
 * Parses the form s[0, len) of the given kind (decode.c): refuses it
 * (22P02), naming its first problem, unless it is a valid prefix, the
 * separator and kind->ndigits digits of which the first is at most 7, or
 * those digits alone.  Returns the prefix's length; the digits start at
 * *digits.
 */
static int
FormParse(const PrefixedKind *kind, const char *s, int len, int *digits)
{
	UidPrefixed p;
	UidPrefixedProblem problem = UidPrefixedParse(s, len, kind->ndigits, kind->strict, &p);

	if (problem != UID_PREFIXED_OK)
		UidPrefixedRefuse(kind->strict, s, len, problem, &p);
	*digits = p.digits;
	return p.prefix_len;
}

/*
 * Refuses (22023) a well-formed form whose prefix s[0, plen) is not the
 * expected one, e[0, elen) (already checked as an argument).
 */
static void
FormCheckPrefix(const PrefixedKind *kind, const char *s, int len, int plen,
				const char *e, int elen)
{
	if (plen == elen && memcmp(s, e, plen) == 0)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 plen == 0 ?
			 errmsg("%s \"%s\" has no prefix, expected \"%s\"",
					kind->name, UidTextQuoted(s, len), UidTextQuoted(e, elen)) :
			 elen == 0 ?
			 errmsg("%s \"%s\" has prefix \"%s\", expected none",
					kind->name, UidTextQuoted(s, len), UidTextQuoted(s, plen)) :
			 errmsg("%s \"%s\" has prefix \"%s\", expected \"%s\"",
					kind->name, UidTextQuoted(s, len), UidTextQuoted(s, plen),
					UidTextQuoted(e, elen)),
			 errhint("The prefix says what kind of ID this is: it is not the kind "
					 "expected here.")));
}

/*
 * A text of the prefix p[0, plen), the separator (unless the prefix is
 * empty) and ndigits characters; *digits is where the digits go.
 */
static text *
FormNew(const char *p, int plen, int ndigits, char **digits)
{
	int			n = plen + (plen > 0 ? 1 : 0) + ndigits;
	text	   *t = (text *) palloc(VARHDRSZ + n);
	char	   *out = VARDATA(t);

	SET_VARSIZE(t, VARHDRSZ + n);
	if (plen > 0)
	{
		memcpy(out, p, plen);
		out[plen] = '_';
		out += plen + 1;
	}
	*digits = out;
	return t;
}

/* uuid_to_typeid(uuid, text): the TypeID of a UUID with that prefix */
Datum
uuid_to_typeid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	text	   *prefix = PG_GETARG_TEXT_PP(1);
	const char *p = VARDATA_ANY(prefix);
	int			plen = VARSIZE_ANY_EXHDR(prefix);
	char	   *digits;
	text	   *t;

	PrefixCheckArgument(p, plen);
	t = FormNew(p, plen, UUID_TEXT_DIGITS, &digits);
	UidTextEncodeUuid(UuidHigh64(u), UuidLow64(u), digits);
	for (int i = 0; i < UUID_TEXT_DIGITS; i++)
		digits[i] = pg_ascii_tolower((unsigned char) digits[i]);
	PG_RETURN_TEXT_P(t);
}

/*
 * The UUID of a TypeID; with a second argument, refused unless its prefix
 * is that one.
 */
static Datum
TypeidDecode(text *t, text *expected)
{
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			digits;
	int			plen;
	uint64		hi;
	uint64		lo;
	pg_uuid_t  *u;

	if (expected)
		PrefixCheckArgument(VARDATA_ANY(expected), VARSIZE_ANY_EXHDR(expected));
	plen = FormParse(&typeid_kind, s, len, &digits);
	if (expected)
		FormCheckPrefix(&typeid_kind, s, len, plen,
						VARDATA_ANY(expected), VARSIZE_ANY_EXHDR(expected));
	if (unlikely(!UidTextDecodeUuid(s + digits, &hi, &lo)))
		elog(ERROR, "TypeID digits checked but not decoded");
	u = (pg_uuid_t *) palloc(UUID_LEN);
	UuidSet64(u, hi, lo);
	PG_RETURN_UUID_P(u);
}

/* uuid_from_typeid(text): the UUID of a TypeID of any prefix */
Datum
uuid_from_typeid(PG_FUNCTION_ARGS)
{
	return TypeidDecode(PG_GETARG_TEXT_PP(0), NULL);
}

/* uuid_from_typeid(text, text): the UUID of a TypeID of that prefix */
Datum
uuid_from_typeid_prefix(PG_FUNCTION_ARGS)
{
	return TypeidDecode(PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1));
}

/* uid_to_text(bigint, text): the prefix, an underscore, uid_to_text(id) */
Datum
uid_to_text_prefix(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	text	   *prefix = PG_GETARG_TEXT_PP(1);
	const char *p = VARDATA_ANY(prefix);
	int			plen = VARSIZE_ANY_EXHDR(prefix);
	char	   *digits;
	text	   *t;

	UidCheckId(id);
	PrefixCheckArgument(p, plen);
	t = FormNew(p, plen, UID_TEXT_DIGITS, &digits);
	UidTextEncodeUid((uint64) id, digits);
	PG_RETURN_TEXT_P(t);
}

/* uid_from_text(text, text): the ID of a prefixed form of that prefix */
Datum
uid_from_text_prefix(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	text	   *expected = PG_GETARG_TEXT_PP(1);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	const char *e = VARDATA_ANY(expected);
	int			elen = VARSIZE_ANY_EXHDR(expected);
	int			digits;
	int			plen;
	int64		id;

	PrefixCheckArgument(e, elen);
	plen = FormParse(&uid_kind, s, len, &digits);
	FormCheckPrefix(&uid_kind, s, len, plen, e, elen);
	if (unlikely(!UidTextDecodeUid(s + digits, &id)))
		elog(ERROR, "uid text form digits checked but not decoded");
	PG_RETURN_INT64(id);
}
