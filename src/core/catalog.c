/*
 * catalog.c
 *		uid's own objects in the catalog: the schema the extension is
 *		installed in, which the time-filter rewrite, adopted sequences and
 *		the owner's reads look their SQL functions up in; the owner of a
 *		relation, which the label check and the owner's reads act for; the
 *		right to execute the bigint form of a function, which its uid form
 *		follows.  Its own file so that those files need not call one
 *		another for it.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "compat.h"
#include "core/catalog.h"

/*
 * The schema of the extension uid in this database, InvalidOid if it is not
 * installed (as get_extension_schema, which 15 does not export).
 */
Oid
UidExtensionSchema(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			schema = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("uid"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		schema = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return schema;
}

/* The owner of relation relid (lsyscache has no such lookup on 15). */
Oid
UidRelationOwner(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

/*
 * The uid type (a bigint that JSON carries as a string) of this database,
 * InvalidOid if there is none (an extension installed at 1.2 has none).  A
 * type of that name that someone else made in the schema is taken only if
 * it is passed by value in 8 bytes: all the callers rely on is that its
 * values are int64 datums.
 */
Oid
UidIdTypeOid(void)
{
	Oid			schema = UidExtensionSchema();
	HeapTuple	tuple;
	Oid			result = InvalidOid;

	if (!OidIsValid(schema))
		return InvalidOid;
	tuple = SearchSysCache2(TYPENAMENSP, CStringGetDatum("uid"), ObjectIdGetDatum(schema));
	if (HeapTupleIsValid(tuple))
	{
		Form_pg_type typ = (Form_pg_type) GETSTRUCT(tuple);

		if (typ->typlen == sizeof(int64) && typ->typbyval && typ->typtype == TYPTYPE_BASE)
			result = typ->oid;
		ReleaseSysCache(tuple);
	}
	return result;
}

/* Whether type is bigint or the uid type: the two that hold uid_next() ids. */
bool
UidIsIdType(Oid type)
{
	return type == INT8OID || (OidIsValid(type) && type == UidIdTypeOid());
}

/*
 * uid_mask(uid), uid_unmask(uid), uid_whence(uid) and uid_advance_past(uid)
 * (sql/parts/advance_past_uid.sql says why) exist so that a call on a uid column
 * finds uid's own exact match in pg_catalog, not one another role planted.
 * Because uid is its category's preferred type, a call with an integer
 * literal or an untyped parameter (uid_mask(123), uid_mask($1)) also picks
 * the uid form.  A role granted EXECUTE on uid_mask(bigint) to serve an API
 * must keep its right whichever form PostgreSQL picks, and a REVOKE of the
 * bigint form must not leave the uid form open: so the uid forms are
 * executable by everyone and check, once per call site (as the executor
 * checks EXECUTE once per expression), that the caller may execute the
 * bigint form in uid's schema; then they hand the call to it unchanged.
 * Each uid form sits beside its bigint form, in that function's file.
 *
 * This raises 42501 unless the current user may execute name(bigint) of
 * uid's schema.  The error names that function: its grant is the one to
 * give.
 */
void
UidCheckBigintForm(const char *name)
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

/*
 * UidCheckBigintForm once per call site, marked in fn_extra, which the
 * bigint forms that return one value do not use.  (A set-returning form
 * keeps its state there: it checks on its first call instead.)
 */
void
UidCheckBigintFormOnce(FunctionCallInfo fcinfo, const char *name)
{
	if (fcinfo->flinfo->fn_extra != NULL)
		return;
	UidCheckBigintForm(name);
	fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, 1);
}
