/*
 * id_type.c
 *		The uid type's functions: its I/O (bigint's, over bigint's whole
 *		range), its comparison operators, hash and sort support, and the
 *		planner support that hands its comparisons back to bigint's.
 *
 * The type is bigint under another name (sql/parts/id_type.sql).  Every
 * function here is a C function of this library and not a LANGUAGE
 * internal entry naming a built-in, because of how often PostgreSQL looks
 * them up: the JSON encoder and logical replication call the output (and
 * the apply the input) function by OID once per value, btree's _bt_first
 * calls fmgr_info for a cross-type comparison function on every index scan,
 * and a LANGUAGE internal function whose OID is not a built-in one is found
 * by a linear search of the server's table of built-in function names
 * (fmgr_lookupByName): measured, that search took half of json_agg()'s
 * time over a uid column.  A C function is found in a hash table.
 *
 * Why the type has operators of its own (sql/parts/id_type.sql): a
 * comparison that reaches bigint's operator through the cast uid -> bigint
 * loses to any operator with the exact argument types, in whatever schema
 * of the search path another role planted it.  uid's operators are exact
 * matches and live in pg_catalog, which is searched first.
 */
#include "postgres.h"

#include "compat.h"

#include <ctype.h>

#include "access/htup_details.h"
#include "access/nbtree.h"
#include "catalog/namespace.h"
#include "common/int.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/sortsupport.h"

#include "core/catalog.h"

PG_FUNCTION_INFO_V1(uid_in);
PG_FUNCTION_INFO_V1(uid_out);
PG_FUNCTION_INFO_V1(uid_recv);
PG_FUNCTION_INFO_V1(uid_send);


/*
 * The decimal form of an integer with an exponent, as jsonb keeps a JSON
 * number: jsonb_populate_record() hands uid_in the digits numeric_out
 * prints, so {"id": 1e3} arrives as "1000", while json_populate_record()
 * hands over the text as written, "1e3".  uid_in reads "1e3" itself so that
 * both give 1000, and refuses what numeric prints with a fraction ("1.5e0",
 * "10e-1" is 1.0): the rule is numeric's display scale, max(0, fraction
 * digits - exponent), which must be 0.  The digits accumulate with their
 * sign, so that the range is bigint's (-9223372036854775808e0 included).
 */
static UidParse
ParseWithExponent(const char *s, int64 *result)
{
	const char *p = s;
	bool		negative = false;
	const char *digits;
	int			ndigits = 0;
	int			nfraction = 0;
	int			exponent = 0;
	bool		exp_negative = false;
	int64		value = 0;

	while (isspace((unsigned char) *p))
		p++;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	digits = p;
	while (isdigit((unsigned char) *p))
		p++, ndigits++;
	if (*p == '.')
	{
		p++;
		while (isdigit((unsigned char) p[nfraction]))
			nfraction++;
		p += nfraction;
	}
	if (ndigits + nfraction == 0 || (*p != 'e' && *p != 'E'))
		return UID_PARSE_SYNTAX;
	p++;
	if (*p == '+' || *p == '-')
		exp_negative = *p++ == '-';
	if (!isdigit((unsigned char) *p))
		return UID_PARSE_SYNTAX;
	while (isdigit((unsigned char) *p))
	{
		if (exponent < 100000)
			exponent = exponent * 10 + (*p - '0');
		p++;
	}
	while (isspace((unsigned char) *p))
		p++;
	if (*p != '\0')
		return UID_PARSE_SYNTAX;
	if (exp_negative)
		exponent = -exponent;
	if (exponent < nfraction)
		return UID_PARSE_SYNTAX;	/* a fraction: numeric would print one */

	/* the digits, the point skipped, then exponent - nfraction zeros */
	for (const char *d = digits; d < p; d++)
	{
		if (*d == '.')
			continue;
		if (!isdigit((unsigned char) *d))
			break;
		if (pg_mul_s64_overflow(value, 10, &value) ||
			pg_add_s64_overflow(value, negative ? '0' - *d : *d - '0', &value))
			return UID_PARSE_RANGE;
	}
	for (int z = 0; z < exponent - nfraction; z++)
	{
		if (value == 0)
			break;
		if (pg_mul_s64_overflow(value, 10, &value))
			return UID_PARSE_RANGE;
	}
	*result = value;
	return UID_PARSE_OK;
}


/*
 * uid_in(cstring): bigint's text form, or an integer written with an
 * exponent (above), over bigint's whole range.  No uid function issues a
 * negative value, but the casts from bigint (binary, so that ALTER COLUMN
 * TYPE uid from bigint rewrites nothing), integer and smallint store them
 * unchecked, and whatever a column holds must read back in: from a dump,
 * COPY and logical replication's apply.  Errors name the type uid.
 */
Datum
uid_in(PG_FUNCTION_ARGS)
{
	char	   *s = PG_GETARG_CSTRING(0);
	int64		value = 0;
	UidParse	parsed;

	parsed = strpbrk(s, "eE") ? ParseWithExponent(s, &value) : UidParseInt64(s, &value);
	if (parsed == UID_PARSE_SYNTAX)
		UidInputError(fcinfo->context, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%s\"", "uid", s)));
	if (parsed == UID_PARSE_RANGE)
		UidInputError(fcinfo->context, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("value \"%s\" is out of range for type %s", s, "uid")));
	PG_RETURN_INT64(value);
}

Datum
uid_out(PG_FUNCTION_ARGS)
{
	return int8out(fcinfo);
}

/* uid_recv(internal): bigint's binary form, every value (as uid_in). */
Datum
uid_recv(PG_FUNCTION_ARGS)
{
	return int8recv(fcinfo);
}

Datum
uid_send(PG_FUNCTION_ARGS)
{
	return int8send(fcinfo);
}

/*
 * ---- comparisons ----
 *
 * One C function per operator and pair of argument widths: uid and bigint
 * values are the same int64 datum, so uid_eq serves (uid, uid), (uid,
 * bigint) and (bigint, uid), and hands its call to int8eq unchanged.
 */
#define UID_FORWARD(name, builtin) \
	PG_FUNCTION_INFO_V1(name); \
	Datum name(PG_FUNCTION_ARGS) { return builtin(fcinfo); }

#define UID_COMPARISONS(suffix, prefix) \
	UID_FORWARD(uid_eq##suffix, prefix##eq) \
	UID_FORWARD(uid_ne##suffix, prefix##ne) \
	UID_FORWARD(uid_lt##suffix, prefix##lt) \
	UID_FORWARD(uid_le##suffix, prefix##le) \
	UID_FORWARD(uid_gt##suffix, prefix##gt) \
	UID_FORWARD(uid_ge##suffix, prefix##ge)

UID_COMPARISONS(, int8)			/* uid with uid or bigint */
UID_COMPARISONS(_int4, int84)	/* uid with integer */
UID_COMPARISONS(_int4_uid, int48)	/* integer with uid */
UID_COMPARISONS(_int2, int82)	/* uid with smallint */
UID_COMPARISONS(_int2_uid, int28)	/* smallint with uid */

/* uid with numeric, and numeric with uid: as bigint's, through numeric */
#define UID_NUMERIC(op) \
	PG_FUNCTION_INFO_V1(uid_##op##_numeric); \
	Datum uid_##op##_numeric(PG_FUNCTION_ARGS) \
	{ \
		return DirectFunctionCall2(numeric_##op, \
								   DirectFunctionCall1(int8_numeric, PG_GETARG_DATUM(0)), \
								   PG_GETARG_DATUM(1)); \
	} \
	PG_FUNCTION_INFO_V1(uid_##op##_numeric_uid); \
	Datum uid_##op##_numeric_uid(PG_FUNCTION_ARGS) \
	{ \
		return DirectFunctionCall2(numeric_##op, PG_GETARG_DATUM(0), \
								   DirectFunctionCall1(int8_numeric, PG_GETARG_DATUM(1))); \
	}

UID_NUMERIC(eq)
UID_NUMERIC(ne)
UID_NUMERIC(lt)
UID_NUMERIC(le)
UID_NUMERIC(gt)
UID_NUMERIC(ge)

/* btree and hash support for the families integer_ops (sql/parts/id_type.sql) */
UID_FORWARD(uid_cmp, btint8cmp)
UID_FORWARD(uid_cmp_int4, btint84cmp)
UID_FORWARD(uid_cmp_int4_uid, btint48cmp)
UID_FORWARD(uid_cmp_int2, btint82cmp)
UID_FORWARD(uid_cmp_int2_uid, btint28cmp)
UID_FORWARD(uid_sortsupport, btint8sortsupport)
UID_FORWARD(uid_hash, hashint8)
UID_FORWARD(uid_hash_extended, hashint8extended)

/*
 * ---- planning: bigint's operators in place of uid's ----
 *
 * uid_comparison_support(internal), the support function of every
 * comparison function above.  While the planner simplifies a query it
 * turns "uid OP x" into bigint's "uid::bigint OP x" (numeric: through
 * numeric(bigint)), an operator of pg_catalog found by its qualified name.
 * The parser has already chosen uid's operator, so nothing another role
 * planted is chosen here; what the planner then sees is what it saw before
 * the type had operators of its own: bigint's equivalence classes, index
 * orders, merge and hash joins, partition pruning, the time-filter rewrite
 * (src/time_filter.c), all of them with bigint's operators.
 *
 * IN lists and = ANY (ScalarArrayOpExpr) and row comparisons are not
 * simplified by PostgreSQL; they keep uid's operators, which is why those
 * are members of the btree and hash families integer_ops (for the index)
 * and of uid's own btree family uid_ops (for row comparisons wherever
 * integer_ops lacks them).  pg_upgrade does
 * not carry those memberships (pg_dump writes a family's members only with
 * the family, and integer_ops is built in): the first planning of a uid
 * comparison in each session checks for them and warns (once) when they are
 * missing, naming uid_restore_operator_families().
 */
PG_FUNCTION_INFO_V1(uid_comparison_support);

static void
CheckOperatorFamilies(void)
{
	static bool checked = false;
	Oid			uid_type;

	if (checked)
		return;
	checked = true;
	uid_type = UidIdTypeOid();
	if (!OidIsValid(uid_type))
		return;
	if (!OidIsValid(get_opfamily_member(INTEGER_BTREE_FAM_OID, uid_type, uid_type,
										BTEqualStrategyNumber)) ||
		!OidIsValid(get_opfamily_member(INTEGER_BTREE_FAM_OID, uid_type, INT8OID,
										BTLessStrategyNumber)) ||
		!OidIsValid(get_opfamily_proc(INTEGER_BTREE_FAM_OID, INT8OID, uid_type, BTORDER_PROC)))
		ereport(WARNING,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("the btree operator family integer_ops lacks the uid type's operators"),
				 errdetail("IN lists, = ANY and row comparisons on uid columns cannot use their indexes."),
				 errhint("A superuser runs SELECT uid_restore_operator_families(); in this database (pg_upgrade does not carry these entries).")));
}

Datum
uid_comparison_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestSimplify *req;
	FuncExpr   *call;
	const char *name;
	const char *symbol;
	Node	   *args[2];
	Oid			types[2];
	bool		numeric = false;
	Oid			opno;
	OpExpr	   *op;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	CheckOperatorFamilies();
	req = (SupportRequestSimplify *) rawreq;
	call = req->fcall;
	if (list_length(call->args) != 2)
		PG_RETURN_POINTER(NULL);
	name = get_func_name(call->funcid);
	if (name == NULL)
		PG_RETURN_POINTER(NULL);
	if (strcmp(name, "uid_eq") == 0)
		symbol = "=";
	else if (strcmp(name, "uid_ne") == 0)
		symbol = "<>";
	else if (strcmp(name, "uid_lt") == 0)
		symbol = "<";
	else if (strcmp(name, "uid_le") == 0)
		symbol = "<=";
	else if (strcmp(name, "uid_gt") == 0)
		symbol = ">";
	else if (strcmp(name, "uid_ge") == 0)
		symbol = ">=";
	else
		PG_RETURN_POINTER(NULL);

	for (int i = 0; i < 2; i++)
	{
		args[i] = (Node *) list_nth(call->args, i);
		types[i] = exprType(args[i]);
		numeric |= types[i] == NUMERICOID;
	}
	for (int i = 0; i < 2; i++)
	{
		if (types[i] == NUMERICOID || types[i] == INT8OID ||
			types[i] == INT4OID || types[i] == INT2OID)
			continue;
		/* the uid side: bigint, free; numeric(bigint) against a numeric */
		args[i] = (Node *) makeRelabelType((Expr *) args[i], INT8OID, -1, InvalidOid,
										   COERCE_IMPLICIT_CAST);
		types[i] = INT8OID;
		if (numeric)
		{
			args[i] = (Node *) makeFuncExpr(F_NUMERIC_INT8, NUMERICOID, list_make1(args[i]),
											InvalidOid, InvalidOid, COERCE_IMPLICIT_CAST);
			types[i] = NUMERICOID;
		}
	}
	opno = OpernameGetOprid(list_make2(makeString("pg_catalog"), makeString(pstrdup(symbol))),
							types[0], types[1]);
	if (!OidIsValid(opno))
		PG_RETURN_POINTER(NULL);
	op = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) args[0], (Expr *) args[1],
								  InvalidOid, InvalidOid);
	set_opfuncid(op);
	op->location = call->location;
	PG_RETURN_POINTER(op);
}
