/*
 * tenure.c
 *		uid_tenures(): the tenure ledger of the lease store, read for the
 *		operator's functions (uid_whence, uid_tenure_overlaps, uid_audit,
 *		defined in SQL over it).
 *
 * The ledger lives where the lease table does: in uid.lease_database of
 * this server (the local store), read in-process, or in the database of
 * uid.lease_conninfo (a shared store), read over a libpq connection of its
 * own that this backend opens, with the credentials the lease worker uses.
 * Both paths run the one statement lease_store.c defines
 * (UidStoreTenureSelectSql), read-only, every name qualified.
 *
 * Trust (docs/security.md): EXECUTE is granted to pg_monitor only.  The
 * local path reads the ledger as its owner, which must be a superuser (the
 * lease worker's role there), so that a ledger planted by another role is
 * refused rather than believed; the remote path reads as the lease role.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "lease.h"

PG_FUNCTION_INFO_V1(uid_tenures);

#define UID_TENURE_COLUMNS 11

/* Appends one row of text values (NULL for SQL NULL) to the result. */
static void
UidTenureEmit(ReturnSetInfo *rsinfo, AttInMetadata *meta, char **values)
{
	HeapTuple	tuple = BuildTupleFromCStrings(meta, values);

	tuplestore_puttuple(rsinfo->setResult, tuple);
}

/* Raises the error of a ledger that cannot be read. */
static void
UidTenureNoLedger(const char *why, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("the uid tenure ledger cannot be read: %s", why),
			 errhint("%s", hint)));
}

/*
 * The local store: in this database (uid.lease_database), as the ledger's
 * owner, a superuser.
 */
static void
UidTenureReadLocal(ReturnSetInfo *rsinfo, AttInMetadata *meta, const char *worker_id)
{
	char	   *db = get_database_name(MyDatabaseId);
	Oid			relid;
	Oid			owner;
	Oid			save_user;
	int			save_sec;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	char		nulls[1];

	if (db == NULL || strcmp(db, uid_lease_database) != 0)
		UidTenureNoLedger(psprintf("the lease store is the database \"%s\" of this server", uid_lease_database),
						  psprintf("Call it in the database \"%s\" (uid.lease_database), where uid must be installed too.",
								   uid_lease_database));
	relid = RangeVarGetRelid(makeRangeVar(uid_lease_schema, "tenure", -1), AccessShareLock, true);
	if (!OidIsValid(relid))
		UidTenureNoLedger(psprintf("there is no table %s.tenure in this database", quote_identifier(uid_lease_schema)),
						  "The lease worker creates it (uid.worker_id = 'lease'), or see uid_lease_table_sql().");
	{
		HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));

		if (!HeapTupleIsValid(tup))
			elog(ERROR, "cache lookup failed for relation %u", relid);
		owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
		ReleaseSysCache(tup);
	}
	if (get_rel_relkind(relid) != RELKIND_RELATION || !superuser_arg(owner))
		UidTenureNoLedger(psprintf("%s.tenure is not a table owned by a superuser", quote_identifier(uid_lease_schema)),
						  "The lease worker refuses it too. Drop it; the lease worker creates the ledger.");

	args[0] = worker_id ? CStringGetTextDatum(worker_id) : (Datum) 0;
	nulls[0] = worker_id ? ' ' : 'n';
	GetUserIdAndSecContext(&save_user, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute_with_args(UidStoreTenureSelectSql(uid_lease_schema), 1, argtypes, args, nulls,
								  true, 0) != SPI_OK_SELECT)
			elog(ERROR, "reading the tenure ledger failed");
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			char	   *values[UID_TENURE_COLUMNS];

			for (int c = 0; c < UID_TENURE_COLUMNS; c++)
				values[c] = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, c + 1);
			UidTenureEmit(rsinfo, meta, values);
		}
		SPI_finish();
	}
	PG_CATCH();
	{
		SetUserIdAndSecContext(save_user, save_sec);
		PG_RE_THROW();
	}
	PG_END_TRY();
	SetUserIdAndSecContext(save_user, save_sec);
}

/* Raises a libpq failure of the remote read; the text is the store's. */
static void
UidTenureRemoteError(PGconn *conn, const char *what)
{
	char	   *msg = conn ? pchomp(PQerrorMessage(conn)) : pstrdup("out of memory");

	ereport(ERROR,
			(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
			 errmsg("the uid tenure ledger cannot be read: %s the lease store failed", what),
			 errdetail("%s", msg),
			 errhint("Check uid.lease_conninfo and that the lease store is up.")));
}

/* A shared store: over a libpq connection of this backend's own. */
static void
UidTenureReadRemote(ReturnSetInfo *rsinfo, AttInMetadata *meta, const char *worker_id)
{
	const char *keys[] = {"dbname", "fallback_application_name", NULL};
	const char *vals[] = {uid_lease_conninfo, "uid tenure reader", NULL};
	const char *params[1] = {worker_id};
	PGconn	   *volatile conn = NULL;

	PG_TRY();
	{
		PGresult   *res;

		conn = PQconnectdbParams(keys, vals, 1);
		if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
			UidTenureRemoteError(conn, "connecting to");
		res = PQexec(conn, "SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false),"
					 " pg_catalog.set_config('statement_timeout', '1min', false),"
					 " pg_catalog.set_config('DateStyle', 'ISO, YMD', false),"
					 " pg_catalog.set_config('TimeZone', 'UTC', false),"
					 " pg_catalog.set_config('default_transaction_read_only', 'on', false)");
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			UidTenureRemoteError(conn, "setting up the session with");
		PQclear(res);
		res = PQexecParams(conn, UidStoreTenureSelectSql(uid_lease_schema), 1, NULL, params, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			UidTenureRemoteError(conn, "reading the ledger in");
		if (PQnfields(res) != UID_TENURE_COLUMNS)
			UidTenureRemoteError(conn, "the columns of the ledger in");
		for (int i = 0; i < PQntuples(res); i++)
		{
			char	   *values[UID_TENURE_COLUMNS];

			for (int c = 0; c < UID_TENURE_COLUMNS; c++)
				values[c] = PQgetisnull(res, i, c) ? NULL : pstrdup(PQgetvalue(res, i, c));
			UidTenureEmit(rsinfo, meta, values);
		}
		PQclear(res);
	}
	PG_CATCH();
	{
		if (conn != NULL)
			PQfinish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	PQfinish(conn);
}

/*
 * uid_tenures(worker_id integer DEFAULT NULL): the ledger's tenures (of one
 * worker id, if given), in worker id and time order.
 */
Datum
uid_tenures(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	AttInMetadata *meta;
	char	   *worker_id = NULL;

	if (!PG_ARGISNULL(0))
	{
		int32		w = PG_GETARG_INT32(0);

		if (w < 0 || w > UID_MAX_WORKER)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("worker id %d is out of range", w),
					 errhint("A worker id is between 0 and %d.", UID_MAX_WORKER)));
		worker_id = psprintf("%d", w);
	}
	InitMaterializedSRF(fcinfo, 0);
	meta = TupleDescGetAttInMetadata(rsinfo->setDesc);
	if (uid_lease_conninfo != NULL && uid_lease_conninfo[0] != '\0')
		UidTenureReadRemote(rsinfo, meta, worker_id);
	else
		UidTenureReadLocal(rsinfo, meta, worker_id);
	return (Datum) 0;
}
