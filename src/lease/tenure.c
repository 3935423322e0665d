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
 * Both paths run the statement lease_store.c defines
 * (UidStoreTenureSelectSql), read-only, every name qualified, filtered by
 * worker id and millisecond where the caller asks for one tenure only; the
 * local path keeps its plans for the session.
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
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "core/catalog.h"
#include "id_layout.h"
#include "lease/lease_settings.h"
#include "lease/lease_store.h"
#include "lease/tenure.h"

PG_FUNCTION_INFO_V1(uid_tenures);
PG_FUNCTION_INFO_V1(uid_whence);
PG_FUNCTION_INFO_V1(uid_whence_uid);

/* the local path's plans, by the filter (UidTenureFilterIndex) */
static SPIPlanPtr tenure_plans[4];
static char *tenure_plan_sql[4];

static int
UidTenureFilterIndex(const UidTenureFilter *filter)
{
	return (filter->worker_id >= 0 ? 1 : 0) | (filter->worker_id >= 0 && filter->at_ms ? 2 : 0);
}

/* the statement's parameters as text: $1 the worker id, $2 the millisecond */
static int
UidTenureParams(const UidTenureFilter *filter, char **params)
{
	int			n = 0;

	if (filter->worker_id >= 0)
	{
		params[n++] = psprintf("%d", filter->worker_id);
		if (filter->at_ms)
			params[n++] = psprintf(INT64_FORMAT, filter->unix_ms);
	}
	return n;
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

/* The local plan of a filter, prepared once per session and kept. */
static SPIPlanPtr
UidTenureLocalPlan(const UidTenureFilter *filter)
{
	int			i = UidTenureFilterIndex(filter);
	char	   *sql = UidStoreTenureSelectSql(uid_lease_schema, filter->worker_id >= 0, filter->at_ms);
	Oid			argtypes[2] = {INT4OID, INT8OID};
	SPIPlanPtr	plan;

	if (tenure_plans[i] != NULL && strcmp(tenure_plan_sql[i], sql) == 0)
		return tenure_plans[i];
	if (tenure_plans[i] != NULL)
	{
		SPI_freeplan(tenure_plans[i]);
		pfree(tenure_plan_sql[i]);
		tenure_plans[i] = NULL;
	}
	plan = SPI_prepare(sql, (i & 1) + ((i & 2) >> 1), argtypes);
	if (plan == NULL)
		elog(ERROR, "preparing the tenure ledger's statement failed: %s", SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "keeping the tenure ledger's plan failed");
	tenure_plan_sql[i] = MemoryContextStrdup(TopMemoryContext, sql);
	tenure_plans[i] = plan;
	return plan;
}

/*
 * The local store: in this database (uid.lease_database), as the ledger's
 * owner, a superuser.
 */
static List *
UidTenureReadLocal(const UidTenureFilter *filter)
{
	MemoryContext caller = CurrentMemoryContext;
	char	   *db = get_database_name(MyDatabaseId);
	Oid			nsp;
	Oid			relid;
	Oid			owner;
	Oid			save_user;
	int			save_sec;
	Datum		args[2] = {Int32GetDatum(filter->worker_id), Int64GetDatum(filter->unix_ms)};
	List	   *volatile rows = NIL;

	if (db == NULL || strcmp(db, uid_lease_database) != 0)
		UidTenureNoLedger(psprintf("the lease store is the database \"%s\" of this server", uid_lease_database),
						  psprintf("Call it in the database \"%s\" (uid.lease_database), where uid must be installed too.",
								   uid_lease_database));
	/*
	 * Looked up without the caller's USAGE on the schema: the statement runs
	 * as the ledger's owner, and EXECUTE on the functions is the grant.
	 */
	nsp = get_namespace_oid(uid_lease_schema, true);
	relid = OidIsValid(nsp) ? get_relname_relid("tenure", nsp) : InvalidOid;
	if (OidIsValid(relid))
		LockRelationOid(relid, AccessShareLock);
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

	GetUserIdAndSecContext(&save_user, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute_plan(UidTenureLocalPlan(filter), args, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "reading the tenure ledger failed");
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			MemoryContext spi = MemoryContextSwitchTo(caller);
			char	  **values = palloc(sizeof(char *) * UID_TENURE_COLUMNS);

			for (int c = 0; c < UID_TENURE_COLUMNS; c++)
				values[c] = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, c + 1);
			rows = lappend(rows, values);
			MemoryContextSwitchTo(spi);
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
	return rows;
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
static List *
UidTenureReadRemote(const UidTenureFilter *filter)
{
	const char *keys[] = {"dbname", "fallback_application_name", NULL};
	const char *vals[] = {uid_lease_conninfo, "uid tenure reader", NULL};
	PGconn	   *volatile conn = NULL;
	List	   *volatile rows = NIL;

	PG_TRY();
	{
		PGresult   *res;
		char	   *params[2];
		int			nparams = UidTenureParams(filter, params);

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
		res = PQexecParams(conn, UidStoreTenureSelectSql(uid_lease_schema, filter->worker_id >= 0, filter->at_ms),
						   nparams, NULL, (const char *const *) params, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			UidTenureRemoteError(conn, "reading the ledger in");
		if (PQnfields(res) != UID_TENURE_COLUMNS)
			UidTenureRemoteError(conn, "the columns of the ledger in");
		for (int i = 0; i < PQntuples(res); i++)
		{
			char	  **values = palloc(sizeof(char *) * UID_TENURE_COLUMNS);

			for (int c = 0; c < UID_TENURE_COLUMNS; c++)
				values[c] = PQgetisnull(res, i, c) ? NULL : pstrdup(PQgetvalue(res, i, c));
			rows = lappend(rows, values);
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
	return rows;
}

/*
 * The ledger's tenures that filter selects, in worker id and time order,
 * from the local or the shared store: a list of arrays of
 * UID_TENURE_COLUMNS text values (NULL for SQL NULL), allocated in the
 * current memory context.
 */
List *
UidTenureRead(const UidTenureFilter *filter)
{
	if (uid_lease_conninfo != NULL && uid_lease_conninfo[0] != '\0')
		return UidTenureReadRemote(filter);
	return UidTenureReadLocal(filter);
}

/* Returns the tenures as the rows of a set-returning function's result. */
static void
UidTenureReturn(FunctionCallInfo fcinfo, const UidTenureFilter *filter)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	AttInMetadata *meta;
	List	   *rows;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	meta = TupleDescGetAttInMetadata(rsinfo->setDesc);
	rows = UidTenureRead(filter);
	foreach(lc, rows)
		tuplestore_puttuple(rsinfo->setResult, BuildTupleFromCStrings(meta, (char **) lfirst(lc)));
}

/*
 * uid_tenures(worker_id integer DEFAULT NULL): the ledger's tenures (of one
 * worker id, if given), in worker id and time order.
 */
Datum
uid_tenures(PG_FUNCTION_ARGS)
{
	UidTenureFilter filter = {-1, false, 0};

	if (!PG_ARGISNULL(0))
	{
		int32		w = PG_GETARG_INT32(0);

		if (w < 0 || w > UID_MAX_WORKER)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("worker id %d is out of range", w),
					 errhint("A worker id is between 0 and %d.", UID_MAX_WORKER)));
		filter.worker_id = w;
	}
	UidTenureReturn(fcinfo, &filter);
	return (Datum) 0;
}

/*
 * uid_whence(id bigint): the tenures whose worker id and window contain
 * the id, in time order; none for a negative value, which no uid is.  The
 * store reads that worker id's tenures only.
 */
Datum
uid_whence(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	UidFields	f;
	UidTenureFilter filter = {-1, true, 0};

	if (!UidDecodeFields(id, &f))
	{
		InitMaterializedSRF(fcinfo, 0);
		return (Datum) 0;
	}
	filter.worker_id = f.worker_id;
	filter.unix_ms = f.unix_ms;
	UidTenureReturn(fcinfo, &filter);
	return (Datum) 0;
}

/*
 * uid_whence(uid): uid_whence(bigint), for those who may execute it
 * (core/catalog.c).  A set-returning function keeps its state in fn_extra:
 * the check is made on its first call.
 */
Datum
uid_whence_uid(PG_FUNCTION_ARGS)
{
	if (SRF_IS_FIRSTCALL())
		UidCheckBigintForm("uid_whence");
	return uid_whence(fcinfo);
}
