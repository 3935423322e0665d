/*
 * owner_read.c
 *		The greatest value stored in a column of a table that may belong to
 *		another role, read without running that role's code with the
 *		caller's rights: uid_stored_max() and uid_stored_max_uuid7(), which
 *		uid_catch_up(), uid_adopt() and uid_unadopt() use.
 *
 * Planning even a plain "SELECT max(col) FROM t" runs code that t's owner
 * chose: partial-index predicates and index expressions are simplified by
 * the planner, and a table's policies and a view's rules become part of
 * the query.  Run with a superuser's rights, that code could do anything
 * the superuser may.  So each table is read as VACUUM and ANALYZE read
 * another role's table: under the identity of its owner, as a
 * security-restricted operation (no SET ROLE, no temporary objects, no
 * changes to the session), with search_path pinned to pg_catalog.  The
 * owner's code then runs with the rights it has anyway.
 *
 * What the caller may read is checked first, as a query of the caller's
 * would check it: SELECT on the table or the column, and no row-level
 * security that applies to the caller (the greatest value of rows a policy
 * hides would leak).  Every table of the inheritance tree (partitions,
 * inheritance children) is read on its own, FROM ONLY, as its own owner:
 * a child owned by another role than its parent's owner runs its code as
 * that role, not as the parent's owner.  Row-level security forced on an
 * owner refuses the read (the owner would not see every row).  Only tables
 * and foreign tables are read; a view stores nothing.
 *
 * A foreign table is read as the caller, not as its owner: its rows come
 * through a user mapping, and the owner's would hand the caller what the
 * remote server shows the owner (the caller's own SELECT would fail
 * without a mapping of its own).  Planning a foreign table runs no code of
 * its owner's here (no indexes, no policies, no rules; its wrapper is a
 * superuser's), so the caller's rights are the right ones: the read then
 * needs what the caller's own query of that foreign table would, SELECT on
 * it included.  The caller's schema USAGE is checked however the table was
 * named: a regclass given as a number skips the lookup a query would make.
 *
 * uid_audit() (audit.c) reads tables the same way, through the helpers
 * below (owner_read.h); uid_adopt._alter() (owner_ddl.c) runs DDL in the
 * same context.
 */
#include "postgres.h"

#include "compat.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/syscache.h"
#include "utils/uuid.h"

#include "core/catalog.h"
#include "tables/owner_read.h"

PG_FUNCTION_INFO_V1(uid_stored_max);
PG_FUNCTION_INFO_V1(uid_stored_max_uuid7);

/* The refusal of a table whose rows the reader would not all see. */
void
UidRefuseRowSecurity(Oid relid, const char *whose)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("row-level security applies to table %s for %s: not every row would be read",
					get_rel_name(relid), whose),
			 errhint("Run it as a superuser or a role with BYPASSRLS; for a table "
					 "with FORCE ROW LEVEL SECURITY, have its owner give itself a "
					 "policy that shows every row, or read the table by hand.")));
}

/*
 * USAGE on the relation's schema, as a query naming it would need: a
 * regclass given as a number (an OID) is not looked up by name, so
 * regclassin() never checked it.
 */
void
UidCheckSchemaUsage(Oid relid)
{
	Oid			nsp = get_rel_namespace(relid);

	if (!UidCanUseSchema(nsp))
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_SCHEMA, get_namespace_name(nsp));
}

/*
 * The caller's checks: the schema's USAGE, the column exists and the
 * caller may read it and every row of the table.  Returns the column's
 * attribute number.
 */
static AttrNumber
CheckCallerMayRead(Oid relid, const char *colname)
{
	Oid			user = GetUserId();
	AttrNumber	attnum;

	UidCheckSchemaUsage(relid);
	attnum = get_attnum(relid, colname);
	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation %s does not exist", colname, get_rel_name(relid))));
	if (pg_class_aclcheck(relid, user, ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck(relid, attnum, user, ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read column %s of table %s", colname, get_rel_name(relid)),
				 errhint("Run it as a role that may read the column (SELECT on the table or the column).")));
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
		UidRefuseRowSecurity(relid, "this role");
	return attnum;
}

/*
 * The role that reads relid: its owner, or the caller for a foreign table
 * (see the file's header).  An owner subject to the table's own row-level
 * security is refused: it would not see every row.
 */
Oid
UidReaderOf(Oid relid)
{
	Oid			owner;

	if (get_rel_relkind(relid) == RELKIND_FOREIGN_TABLE)
		return GetUserId();
	owner = UidRelationOwner(relid);
	if (check_enable_rls(relid, owner, true) == RLS_ENABLED)
		UidRefuseRowSecurity(relid, "its owner");
	return owner;
}

/*
 * Becomes user for a security-restricted operation with search_path
 * pg_catalog, pg_temp, as VACUUM, ANALYZE and REINDEX do for a table's
 * owner: no SET ROLE (which the owner's code could RESET), no temporary
 * objects, no changes to the session that outlive it.  An error before
 * UidEndAs() is undone by the (sub)transaction's abort.
 */
void
UidBeginAs(Oid user, UidAsSave *save)
{
	GetUserIdAndSecContext(&save->user, &save->sec);
	SetUserIdAndSecContext(user, save->sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	save->nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
}

void
UidEndAs(const UidAsSave *save)
{
	AtEOXact_GUC(false, save->nestlevel);
	SetUserIdAndSecContext(save->user, save->sec);
}

/*
 * Runs query (one row, one column, or none) as UidReaderOf(relid), in the
 * context of UidBeginAs().  Returns the value copied into the caller's
 * memory context.
 */
static Datum
QueryAsOwner(Oid relid, const char *query, Oid expected_type, int16 typlen, bool *isnull)
{
	Oid			reader = UidReaderOf(relid);
	UidAsSave	save;
	Datum		result = (Datum) 0;
	MemoryContext caller = CurrentMemoryContext;

	*isnull = true;
	UidBeginAs(reader, &save);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(query, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading table %s failed", get_rel_name(relid));
	if (SPI_tuptable->tupdesc->natts != 1 ||
		SPI_gettypeid(SPI_tuptable->tupdesc, 1) != expected_type)
		elog(ERROR, "reading table %s returned an unexpected row type", get_rel_name(relid));
	if (SPI_processed > 0)
	{
		Datum		value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);

		if (!*isnull)
		{
			MemoryContext spi = MemoryContextSwitchTo(caller);

			result = datumCopy(value, false, typlen);
			MemoryContextSwitchTo(spi);
		}
	}
	SPI_finish();
	UidEndAs(&save);
	return result;
}

/*
 * The greatest value of column colname in table relid and in every table
 * of its inheritance tree, each read by QueryAsOwner() with the query that
 * make_query(qualified table, quoted column) returns; better(a, b) tells
 * whether a is greater.  NULL (isnull) when nothing is stored.
 */
static Datum
StoredMax(Oid relid, const char *colname, Oid expected_type,
		  char *(*make_query) (const char *table, const char *column),
		  bool (*better) (Datum a, Datum b), bool *isnull)
{
	Relation	rel;
	List	   *members;
	ListCell   *lc;
	Datum		best = (Datum) 0;

	*isnull = true;
	/* locked before anything about it is read */
	rel = relation_open(relid, AccessShareLock);
	if (rel->rd_rel->relkind != RELKIND_RELATION &&
		rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE &&
		rel->rd_rel->relkind != RELKIND_FOREIGN_TABLE)
	{
		relation_close(rel, AccessShareLock);
		return best;			/* a view or the like stores nothing */
	}
	relation_close(rel, NoLock);
	(void) CheckCallerMayRead(relid, colname);

	members = find_all_inheritors(relid, AccessShareLock, NULL);
	foreach(lc, members)
	{
		Oid			member = lfirst_oid(lc);
		char		relkind = get_rel_relkind(member);
		AttrNumber	attnum;
		Oid			atttype;
		bool		null;
		Datum		value;

		if (relkind != RELKIND_RELATION && relkind != RELKIND_FOREIGN_TABLE)
			continue;			/* a partitioned table has no rows of its own */
		attnum = get_attnum(member, colname);
		if (attnum == InvalidAttrNumber)
			elog(ERROR, "column \"%s\" missing in table %s", colname, get_rel_name(member));
		atttype = getBaseType(get_atttype(member, attnum));
		if (expected_type == UUIDOID ? atttype != UUIDOID
			: (atttype != INT2OID && atttype != INT4OID && !UidIsIdType(atttype)))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("column %s of table %s is of type %s, not %s", colname,
							get_rel_name(member), format_type_be(atttype),
							expected_type == UUIDOID ? "uuid" : "an integer type")));
		value = QueryAsOwner(member,
							 make_query(quote_qualified_identifier(get_namespace_name(get_rel_namespace(member)),
																   get_rel_name(member)),
										quote_identifier(colname)),
							 expected_type, expected_type == UUIDOID ? UUID_LEN : -1, &null);
		if (!null && (*isnull || better(value, best)))
		{
			best = value;
			*isnull = false;
		}
	}
	return best;
}

static char *
IntegerMaxQuery(const char *table, const char *column)
{
	return psprintf("SELECT pg_catalog.max(%s)::pg_catalog.numeric FROM ONLY %s", column, table);
}

static bool
NumericGreater(Datum a, Datum b)
{
	return DatumGetBool(DirectFunctionCall2(numeric_gt, a, b));
}

/*
 * uid_stored_max(rel regclass, col name): the greatest value of an integer
 * column (numeric), NULL if none is stored.
 */
Datum
uid_stored_max(PG_FUNCTION_ARGS)
{
	bool		isnull;
	Datum		result;

	result = StoredMax(PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)), NUMERICOID,
					   IntegerMaxQuery, NumericGreater, &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

static char *
Uuid7MaxQuery(const char *table, const char *column)
{
	Oid			schema = UidExtensionSchema();

	if (!OidIsValid(schema))
		elog(ERROR, "extension \"uid\" is not installed");
	return psprintf("SELECT %s FROM ONLY %s WHERE %s IS NOT NULL AND %s.uuid7_time(%s) IS NOT NULL "
					"ORDER BY %s DESC LIMIT 1",
					column, table, column, quote_identifier(get_namespace_name(schema)),
					column, column);
}

static bool
UuidGreater(Datum a, Datum b)
{
	return memcmp(DatumGetUUIDP(a)->data, DatumGetUUIDP(b)->data, UUID_LEN) > 0;
}

/*
 * uid_stored_max_uuid7(rel regclass, col name): the greatest version 7
 * value of a uuid column, NULL if none is stored.
 */
Datum
uid_stored_max_uuid7(PG_FUNCTION_ARGS)
{
	bool		isnull;
	Datum		result;

	result = StoredMax(PG_GETARG_OID(0), NameStr(*PG_GETARG_NAME(1)), UUIDOID,
					   Uuid7MaxQuery, UuidGreater, &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
