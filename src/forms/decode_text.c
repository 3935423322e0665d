/*
 * decode_text.c
 *		uid_decode(text): whatever form of an ID a user pastes, decoded.
 *
 * The form is told apart by decode.c's UidReadAny(), which the uid-decode
 * command shares, by the rule decode.h states: decimal digits, the 13
 * characters of uid_to_text(), a prefixed uid form, a TypeID, a UUID with
 * or without hyphens, the 26 characters of uuid_to_text(), or PostgreSQL's
 * base32hex of a UUID; an input that reads as two forms is refused, with
 * the call that picks one as the hint.  The row is a superset of uid_decode(bigint)'s
 * and uid_decode(uuid)'s columns, so that one query reads any of them: the
 * form and prefix read, the ID or the UUID, and the fields of its kind (the
 * other kind's are NULL).  A uid too small to be one uid_next() issued gets
 * a note.  Input that is no form is refused with 22P02: a malformed text or
 * prefixed form with the words of the function that reads that form, the
 * rest with what it is closest to; every refusal lists the forms read.
 *
 * A text argument, so that an untyped literal (uid_decode('121866...'))
 * resolves to this function: the string category is the one preferred for
 * an unknown argument.  Pure, no preload needed.
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#include "compat.h"
#include "forms/text_forms.h"
#include "forms/typeid.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_decode_text);

#define FORMS_READ \
	"uid_decode(text) reads a uid as 1 to 19 decimal digits, uid_to_text() or " \
	"uid_to_text(id, prefix), and a UUID as 8-4-4-4-12 or 32 hexadecimal " \
	"digits, uuid_to_text(), uuid_to_typeid(u, prefix) or base32hex."

/* the columns of the row, in order */
enum
{
	COL_FORM, COL_PREFIX, COL_ID, COL_UUID, COL_TS, COL_WORKER_ID, COL_SEQUENCE,
	COL_MS_SINCE_EPOCH, COL_VERSION, COL_VARIANT, COL_NOTE, NCOLS
};

/* The context line of every refusal: the forms that would have been read. */
static void
FormsReadContext(void *arg)
{
	errcontext("%s", FORMS_READ);
}

/* The refusal of an input that is no form, for what it is closest to. */
UidNoReturn static void
Refuse(const char *s, int len, UidAnyProblem problem, const UidAny *a)
{
	const char *what = NULL;

	switch (problem)
	{
		case UID_ANY_OK:
			break;
		case UID_ANY_TWO_FORMS:
		case UID_ANY_BASE32HEX:
			{
				char		msg[512];
				char		hint[512];

				UidAnyExplain(s, len, problem, a, msg, sizeof(msg), hint, sizeof(hint));
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("\"%s\" %s", UidTextQuoted(s, len), msg),
						 errhint("%s", hint)));
			}
			break;
		case UID_ANY_PREFIXED:
			UidPrefixedRefuse(a->strict, s, len, a->prefixed_problem, &a->prefixed);
		case UID_ANY_TEXT:
			UidTextRefuse(a->ndigits == UID_TEXT_DIGITS ? "uid" : "uuid", s, len, 0, len,
						  a->ndigits);
		case UID_ANY_EMPTY:
			what = "it is empty";
			break;
		case UID_ANY_NEGATIVE:
			what = "uid values are never negative";
			break;
		case UID_ANY_ABOVE_BIGINT:
			what = "decimal digits beyond bigint (at most 19 digits, 9223372036854775807)";
			break;
		case UID_ANY_UUID:
			what = "a UUID is 32 hexadecimal digits, grouped 8-4-4-4-12 by hyphens or not grouped";
			break;
		case UID_ANY_UNKNOWN:
			what = "it is none of the forms of an ID";
			break;
	}
	if (what == NULL)
		elog(ERROR, "uid_decode(text): problem %d not described", (int) problem);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("\"%s\" is not an ID: %s", UidTextQuoted(s, len), what)));
	pg_unreachable();
}

/* uid_decode(text): the form read, and the fields of the ID or UUID */
Datum
uid_decode_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	const char *s = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	ErrorContextCallback context;
	UidAnyProblem problem;
	UidAny		a;
	TupleDesc	tupdesc;
	Datum		values[NCOLS];
	bool		nulls[NCOLS];

	/* white space around a pasted ID is set aside */
	while (len > 0 && UidIsSpace(s[0]))
	{
		s++;
		len--;
	}
	while (len > 0 && UidIsSpace(s[len - 1]))
		len--;

	problem = UidReadAny(s, len, &a);
	if (problem != UID_ANY_OK)
	{
		context.callback = FormsReadContext;
		context.arg = NULL;
		context.previous = error_context_stack;
		error_context_stack = &context;
		Refuse(s, len, problem, &a);
	}

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	memset(values, 0, sizeof(values));
	memset(nulls, true, sizeof(nulls));

	values[COL_FORM] = CStringGetTextDatum(UidFormNames[a.form]);
	nulls[COL_FORM] = false;
	if (a.form == UID_FORM_PREFIXED || a.form == UID_FORM_TYPEID)
	{
		values[COL_PREFIX] = PointerGetDatum(cstring_to_text_with_len(s, a.prefix_len));
		nulls[COL_PREFIX] = false;
	}
	if (!a.is_uuid)
	{
		UidFields	f;
		const char *note = UidSmallNote(a.id);

		/* every form of a uid reads as a non-negative bigint */
		if (!UidDecodeFields(a.id, &f))
			elog(ERROR, "uid_decode(text) read a negative uid");
		values[COL_ID] = Int64GetDatum(a.id);
		values[COL_TS] = TimestampTzGetDatum(UidUnixMsToTimestamptz(f.unix_ms));
		values[COL_WORKER_ID] = Int32GetDatum((int32) f.worker_id);
		values[COL_SEQUENCE] = Int32GetDatum((int32) f.sequence);
		values[COL_MS_SINCE_EPOCH] = Int64GetDatum(f.ms_since_epoch);
		nulls[COL_ID] = nulls[COL_TS] = nulls[COL_WORKER_ID] = false;
		nulls[COL_SEQUENCE] = nulls[COL_MS_SINCE_EPOCH] = false;
		if (note)
		{
			values[COL_NOTE] = CStringGetTextDatum(note);
			nulls[COL_NOTE] = false;
		}
	}
	else
	{
		pg_uuid_t  *u = (pg_uuid_t *) palloc(UUID_LEN);
		UuidFields	f;

		UuidSet64(u, a.hi, a.lo);
		UuidDecodeFields(u->data, &f);
		values[COL_UUID] = UUIDPGetDatum(u);
		nulls[COL_UUID] = false;
		if (f.has_time)
		{
			values[COL_TS] = TimestampTzGetDatum(UuidFieldsTime(&f));
			nulls[COL_TS] = false;
		}
		if (f.version >= 0)
		{
			values[COL_VERSION] = Int32GetDatum(f.version);
			nulls[COL_VERSION] = false;
		}
		values[COL_VARIANT] = Int32GetDatum(f.variant);
		nulls[COL_VARIANT] = false;
	}

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
