/*
 * partitions.c
 *		uid_partitions_maintain(): the maintenance of a table partitioned by
 *		the time in its IDs (sql/parts/partitions.sql), run as the table's
 *		owner.
 *
 * The maintenance reads the table's default partition (is a row of a new
 * partition's range stored there?) and runs CREATE TABLE ... PARTITION OF,
 * DETACH PARTITION and DROP TABLE on it.  Planning the read runs code of
 * the table's owner (the predicates and expressions of the default
 * partition's indexes are simplified, calling the owner's functions), and
 * so can the DDL.  A superuser, or a pg_cron job of one, keeping another
 * role's partitions would run that role's functions as a superuser.  So
 * the steps (uid_partitions_steps()) run under the identity of the table's
 * owner, as a security-restricted operation with search_path pinned
 * (UidBeginAs(), owner_read.c), as VACUUM and REINDEX run another role's
 * code: the owner's code gets the rights it has anyway, and the partitions
 * belong to the owner.  The caller must have the privileges of the owner
 * (be the owner, a member of it, or a superuser).
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "core/catalog.h"
#include "tables/owner_read.h"

PG_FUNCTION_INFO_V1(uid_partitions_maintain);

#define MAINTAIN_NARGS 6

/* 42501 unless the caller has the privileges of the owner of parent. */
static Oid
CheckOwner(FunctionCallInfo fcinfo)
{
	Oid			parent = PG_ARGISNULL(0) ? InvalidOid : PG_GETARG_OID(0);
	Oid			owner = InvalidOid;

	if (!OidIsValid(parent) || !SearchSysCacheExists1(RELOID, ObjectIdGetDatum(parent)) ||
		!has_privs_of_role(GetUserId(), owner = UidRelationOwner(parent)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be the owner of table %s to maintain its partitions",
						OidIsValid(owner)
						? quote_qualified_identifier(get_namespace_name(get_rel_namespace(parent)),
													 get_rel_name(parent))
						: psprintf("%u", parent)),
				 errhint("Run it as the table's owner, a member of the owning role or a superuser.")));
	return owner;
}

/*
 * uid_partitions_maintain(parent regclass, every interval, ahead integer,
 * keep interval, time_zone text, at_time timestamptz) returns setof text:
 * the lines of uid_partitions_steps() with the same arguments, which runs
 * as the owner of parent (see the file's header).
 */
Datum
uid_partitions_maintain(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			types[MAINTAIN_NARGS] = {REGCLASSOID, INTERVALOID, INT4OID, INTERVALOID, TEXTOID, TIMESTAMPTZOID};
	Datum		values[MAINTAIN_NARGS];
	char		nulls[MAINTAIN_NARGS];
	Oid			owner = CheckOwner(fcinfo);
	Oid			schema = UidExtensionSchema();
	char	   *query;
	UidAsSave	save;
	uint64		i;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	for (i = 0; i < MAINTAIN_NARGS; i++)
	{
		values[i] = PG_ARGISNULL(i) ? (Datum) 0 : PG_GETARG_DATUM(i);
		nulls[i] = PG_ARGISNULL(i) ? 'n' : ' ';
	}
	query = psprintf("SELECT s FROM %s.uid_partitions_steps($1, $2, $3, $4, $5, $6) AS s",
					 quote_identifier(get_namespace_name(schema)));

	UidBeginAs(owner, &save);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(query, MAINTAIN_NARGS, types, values, nulls, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "running uid_partitions_steps() failed");
	for (i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Datum		line = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &line, &isnull);
	}
	SPI_finish();
	UidEndAs(&save);
	return (Datum) 0;
}
