/*
 * id_type_functions.c
 *		The uid forms of uid's privileged functions of an id, which the
 *		privileges of their bigint forms govern.
 *
 * uid_mask(uid), uid_unmask(uid), uid_whence(uid) and uid_advance_past(uid)
 * (sql/parts/id_type_functions.sql) exist so that a call on a uid column
 * finds uid's own exact match in pg_catalog, not one another role planted.
 * Because uid is its category's preferred type, a call with an integer
 * literal or an untyped parameter (uid_mask(123), uid_mask($1)) also picks
 * the uid form.  A role granted EXECUTE on uid_mask(bigint) to serve an API
 * must keep its right whichever form PostgreSQL picks, and a REVOKE of the
 * bigint form must not leave the uid form open: so the uid forms are
 * executable by everyone and check, once per call site (as the executor
 * checks EXECUTE once per expression), that the caller may execute the
 * bigint form in uid's schema; then they hand the call to it unchanged.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"

#include "core/catalog.h"
#include "compat.h"

extern Datum uid_mask(PG_FUNCTION_ARGS);
extern Datum uid_unmask(PG_FUNCTION_ARGS);
extern Datum uid_whence(PG_FUNCTION_ARGS);
extern Datum uid_advance_past(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(uid_mask_uid);
PG_FUNCTION_INFO_V1(uid_unmask_uid);
PG_FUNCTION_INFO_V1(uid_whence_uid);
PG_FUNCTION_INFO_V1(uid_advance_past_uid);

/*
 * Raises 42501 unless the current user may execute name(bigint) of uid's
 * schema.  The error names that function: its grant is the one to give.
 */
static void
CheckBigintForm(const char *name)
{
	Oid			schema = UidExtensionSchema();
	Oid			argtype = INT8OID;
	char	   *schema_name;
	Oid			funcid;

	if (!OidIsValid(schema) || (schema_name = get_namespace_name(schema)) == NULL)
		elog(ERROR, "extension uid is not installed");
	funcid = LookupFuncName(list_make2(makeString(schema_name), makeString(pstrdup(name))),
							1, &argtype, true);
	if (!OidIsValid(funcid))
		elog(ERROR, "function %s.%s(bigint) of uid is missing", schema_name, name);
	if (!UidCanExecute(funcid))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s", name),
				 errdetail("The uid form of %s() follows the privileges of %s.%s(bigint).",
						   name, schema_name, name)));
}

/* Once per call site: fn_extra, which the forwarded functions do not use. */
static void
CheckOnce(FunctionCallInfo fcinfo, const char *name)
{
	if (fcinfo->flinfo->fn_extra != NULL)
		return;
	CheckBigintForm(name);
	fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, 1);
}

Datum
uid_mask_uid(PG_FUNCTION_ARGS)
{
	CheckOnce(fcinfo, "uid_mask");
	return uid_mask(fcinfo);
}

Datum
uid_unmask_uid(PG_FUNCTION_ARGS)
{
	CheckOnce(fcinfo, "uid_unmask");
	return uid_unmask(fcinfo);
}

Datum
uid_advance_past_uid(PG_FUNCTION_ARGS)
{
	CheckOnce(fcinfo, "uid_advance_past");
	return uid_advance_past(fcinfo);
}

/* A set-returning function keeps its state in fn_extra: check on its first call. */
Datum
uid_whence_uid(PG_FUNCTION_ARGS)
{
	if (SRF_IS_FIRSTCALL())
		CheckBigintForm("uid_whence");
	return uid_whence(fcinfo);
}
