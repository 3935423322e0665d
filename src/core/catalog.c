/*
 * catalog.c
 *		uid's own objects in the catalog: the schema the extension is
 *		installed in, which the time-filter rewrite, adopted sequences and
 *		the owner's reads look their SQL functions up in; the owner of a
 *		relation, which the label check and the owner's reads act for.  Its
 *		own file so that those files need not call one another for it.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"
#include "utils/syscache.h"

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
