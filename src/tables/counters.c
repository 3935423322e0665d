/*
 * counters.c
 *		uid_counter_next(): the entry point of the tenant counters, which
 *		checks the caller's grant before any number is drawn.
 *
 * The counters' state lives in tables of schema uid_counter that no ordinary
 * role may read or write; the work is done by the SECURITY DEFINER function
 * uid_counter._next(tenant, prefix, caller) (sql/parts/counters.sql).  That
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
 * uid_counter._replicated() tells uid_counter._next() whether this
 * database applies another writer's changes to uid_counter.counters: a
 * subscription lists the table in pg_subscription_rel.  Then two servers
 * could draw from one counter, and only ranges of this server (whose node
 * is uid.counter_node) may be drawn from.  The answer is cached per backend
 * and forgotten whenever pg_subscription_rel changes (a syscache
 * invalidation callback), so the draw's hot path reads no catalog.
 *
 * No shared state.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_subscription_rel.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "catalog/namespace.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "tables/counters.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_counter_next);
PG_FUNCTION_INFO_V1(uid_counter_replicated);

/* uid.counter_node: the name of this server in counter ranges (sighup) */
static char *uid_counter_node = NULL;

/* the cached answer of uid_counter._replicated() */
typedef enum UidCountersReplicated
{
	UID_COUNTERS_UNKNOWN,
	UID_COUNTERS_LOCAL,
	UID_COUNTERS_REPLICATED
}			UidCountersReplicated;

static UidCountersReplicated counters_replicated = UID_COUNTERS_UNKNOWN;
static bool counters_callback_registered = false;

void
UidCountersInit(void)
{
	DefineCustomStringVariable("uid.counter_node",
							   "The name of this server in counter ranges.",
							   "Where uid_counter.counters receives replicated changes, uid_counter_next() draws only from ranges whose node is this name.",
							   &uid_counter_node,
							   "",
							   PGC_SIGHUP,
							   0,
							   NULL, NULL, NULL);
}

/* pg_subscription_rel changed: ask again */
static void
UidCountersSubscriptionsChanged(UID_SYSCACHE_CALLBACK_PARAMS)
{
	counters_replicated = UID_COUNTERS_UNKNOWN;
}

/*
 * Whether any subscription of this database lists uid_counter.counters, in
 * any state (a table still being copied is replicated too).
 */
static bool
UidCountersListedBySubscription(void)
{
	Oid			nsp = get_namespace_oid("uid_counter", true);
	Oid			relid = OidIsValid(nsp) ? get_relname_relid("counters", nsp) : InvalidOid;
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	bool		found;

	if (!OidIsValid(relid))
		return false;
	rel = table_open(SubscriptionRelRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_subscription_rel_srrelid,
				BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(rel, SubscriptionRelSrrelidSrsubidIndexId, true,
							  NULL, 1, &key);
	found = HeapTupleIsValid(systable_getnext(scan));
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * uid_counter._replicated(): true when uid_counter.counters receives
 * another writer's changes here.
 */
Datum
uid_counter_replicated(PG_FUNCTION_ARGS)
{
	if (!counters_callback_registered)
	{
		CacheRegisterSyscacheCallback(SUBSCRIPTIONRELMAP,
									  UidCountersSubscriptionsChanged,
									  (Datum) 0);
		counters_callback_registered = true;
	}
	if (counters_replicated == UID_COUNTERS_UNKNOWN)
		counters_replicated = UidCountersListedBySubscription() ?
			UID_COUNTERS_REPLICATED : UID_COUNTERS_LOCAL;
	PG_RETURN_BOOL(counters_replicated == UID_COUNTERS_REPLICATED);
}

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
