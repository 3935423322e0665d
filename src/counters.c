/*
 * counters.c
 *		uid_counter_next(): the entry point of the tenant counters, which
 *		checks the caller's grant before any number is drawn.
 *
 * The counters' state lives in tables of schema uid_counter that no ordinary
 * role may read or write; the work is done by the SECURITY DEFINER function
 * uid_counter._next(tenant, prefix, caller) (sql/uid--1.1--1.2.sql).  That
 * function must know who is calling, and inside a SECURITY DEFINER function
 * current_user is the owner, so this wrapper, which runs as the caller, passes
 * GetUserId() (the role PostgreSQL checks privileges against: the session's
 * current role, or the owner of an enclosing SECURITY DEFINER function).
 *
 * uid_counter._next() is not executable by PUBLIC.  The wrapper calls it
 * through the function manager, which checks no EXECUTE privilege (the
 * executor does that for calls written in queries), so a role reaches it only
 * through this wrapper and cannot pass another role as caller.
 *
 * No shared state.
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "catalog/namespace.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(uid_counter_next);

/*
 * The function manager entry of uid_counter._next(text, text, oid), found
 * once per call site.  It must belong to extension uid: schema uid_counter is
 * the extension's, but a function placed there by anyone else is not called.
 */
static FmgrInfo *
UidCounterNextImpl(FunctionCallInfo fcinfo)
{
	FmgrInfo   *impl = (FmgrInfo *) fcinfo->flinfo->fn_extra;
	Oid			argtypes[3] = {TEXTOID, TEXTOID, OIDOID};
	Oid			nsp;
	Oid			fn = InvalidOid;
	Oid			ext;

	if (impl != NULL)
		return impl;

	/* by catalog, not by name lookup: the caller has no USAGE on the schema */
	nsp = get_namespace_oid("uid_counter", true);
	if (OidIsValid(nsp))
		fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
							 CStringGetDatum("_next"),
							 PointerGetDatum(buildoidvector(argtypes, 3)),
							 ObjectIdGetDatum(nsp));
	ext = get_extension_oid("uid", true);
	if (!OidIsValid(fn) || !OidIsValid(ext) ||
		getExtensionOfObject(ProcedureRelationId, fn) != ext)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid_counter_next() needs uid_counter._next(text, text, oid) of extension uid"),
				 errhint("Update the extension: ALTER EXTENSION uid UPDATE.")));

	impl = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FmgrInfo));
	fmgr_info_cxt(fn, impl, fcinfo->flinfo->fn_mcxt);
	fcinfo->flinfo->fn_extra = impl;
	return impl;
}

/*
 * uid_counter_next(tenant, prefix): the next number of the counter, if the
 * calling role holds a grant of the tenant (uid_counter._next checks it, and
 * the arguments, NULL included).
 */
Datum
uid_counter_next(PG_FUNCTION_ARGS)
{
	FmgrInfo   *impl = UidCounterNextImpl(fcinfo);
	LOCAL_FCINFO(inner, 3);
	Datum		result;

	InitFunctionCallInfoData(*inner, impl, 3, PG_GET_COLLATION(), NULL, NULL);
	for (int i = 0; i < 2; i++)
	{
		inner->args[i].isnull = PG_ARGISNULL(i);
		inner->args[i].value = PG_ARGISNULL(i) ? (Datum) 0 : PG_GETARG_DATUM(i);
	}
	inner->args[2].isnull = false;
	inner->args[2].value = ObjectIdGetDatum(GetUserId());

	result = FunctionCallInvoke(inner);
	if (inner->isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
