/*
 * lease_store.c
 *		The lease worker's connection to the lease store: the same SQL run
 *		either in-process through SPI (a database of this server, the default)
 *		or over libpq (uid.lease_conninfo, a coordination database shared by
 *		many servers).
 *
 * Only the lease worker (lease.c) calls these functions.  Every statement
 * takes its values as text parameters ($n, cast in the SQL), so the same text
 * serves both paths.  Any failure raises an ERROR; the worker catches it and
 * calls UidStoreAbortAfterError, which rolls back (SPI) or drops the
 * connection (libpq; that also drops the session's advisory locks).
 *
 * Remote statements are sent asynchronously and waited for on the latch with
 * a timeout, so an unreachable store cannot hang the worker; the generator
 * never waits for the store (it only compares with the grant's deadline).
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "lease.h"

static PGconn *conn = NULL;
static bool new_session = false;
static MemoryContext store_cxt = NULL;

static bool
UidStoreIsRemote(void)
{
	return uid_lease_conninfo != NULL && uid_lease_conninfo[0] != '\0';
}

/* Longest wait for one remote statement or connection. */
static int
UidStoreTimeoutMs(void)
{
	return Max(uid_lease_renew_interval_ms, 1000);
}

void
UidStoreResetMemory(void)
{
	if (store_cxt == NULL)
		store_cxt = AllocSetContextCreate(TopMemoryContext, "uid lease store",
										  ALLOCSET_SMALL_SIZES);
	MemoryContextReset(store_cxt);
}

/*
 * Makes sure a remote store is connected.  Local: nothing to do (the worker
 * connected to uid.lease_database at start).
 */
void
UidStoreOpen(void)
{
	const char *keys[5];
	const char *vals[5];
	char		timeout[16];

	if (!UidStoreIsRemote() || (conn != NULL && PQstatus(conn) == CONNECTION_OK))
		return;
	if (conn != NULL)
		PQfinish(conn);

	/* defaults first: values in the conninfo string (expanded last) win */
	snprintf(timeout, sizeof(timeout), "%d", (UidStoreTimeoutMs() + 999) / 1000);
	keys[0] = "connect_timeout";
	vals[0] = timeout;
	keys[1] = "fallback_application_name";
	vals[1] = "uid lease worker";
	keys[2] = "dbname";
	vals[2] = uid_lease_conninfo;
	keys[3] = NULL;
	vals[3] = NULL;
	conn = PQconnectdbParams(keys, vals, 1);
	if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
	{
		char	   *msg = conn ? pchomp(PQerrorMessage(conn)) : "out of memory";

		if (conn)
			PQfinish(conn);
		conn = NULL;
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to the uid lease store: %s", msg)));
	}
	new_session = true;
}

/* True once after each new store session: its advisory locks must be retaken. */
bool
UidStoreTakeNewSession(void)
{
	bool		r = new_session;

	new_session = false;
	return r;
}

void
UidStoreClose(void)
{
	if (conn != NULL)
		PQfinish(conn);
	conn = NULL;
}

static UidStoreRows *
UidStoreRowsNew(int nrows, int ncols)
{
	UidStoreRows *r = MemoryContextAllocZero(store_cxt, sizeof(UidStoreRows));

	r->nrows = nrows;
	r->ncols = ncols;
	if (nrows * ncols > 0)
		r->vals = MemoryContextAllocZero(store_cxt, sizeof(char *) * nrows * ncols);
	return r;
}

static UidStoreRows *
UidStoreRemoteExec(const char *sql, int nparams, const char *const *params)
{
	TimestampTz end = GetCurrentTimestamp() + (TimestampTz) UidStoreTimeoutMs() * 1000;
	PGresult   *last = NULL;
	PGresult   *res;
	UidStoreRows *rows;
	ExecStatusType st;

	if (!PQsendQueryParams(conn, sql, nparams, NULL, params, NULL, NULL, 0))
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("could not send a query to the uid lease store: %s",
						pchomp(PQerrorMessage(conn)))));
	for (;;)
	{
		while (PQisBusy(conn))
		{
			long		left = (long) ((end - GetCurrentTimestamp()) / 1000);
			int			rc;

			if (left <= 0)
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("the uid lease store did not answer within %d ms",
								UidStoreTimeoutMs())));
			rc = WaitLatchOrSocket(MyLatch,
								   WL_LATCH_SET | WL_SOCKET_READABLE | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								   PQsocket(conn), left, PG_WAIT_EXTENSION);
			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
			if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(conn))
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("lost the connection to the uid lease store: %s",
								pchomp(PQerrorMessage(conn)))));
		}
		res = PQgetResult(conn);
		if (res == NULL)
			break;
		if (last)
			PQclear(last);
		last = res;
	}
	st = last ? PQresultStatus(last) : PGRES_FATAL_ERROR;
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		char	   *msg = pchomp(last ? PQresultErrorMessage(last) : PQerrorMessage(conn));

		if (last)
			PQclear(last);
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("uid lease store query failed: %s", msg)));
	}
	rows = UidStoreRowsNew(PQntuples(last), PQnfields(last));
	for (int i = 0; i < rows->nrows; i++)
		for (int j = 0; j < rows->ncols; j++)
			if (!PQgetisnull(last, i, j))
				rows->vals[i * rows->ncols + j] =
					MemoryContextStrdup(store_cxt, PQgetvalue(last, i, j));
	PQclear(last);
	return rows;
}

static UidStoreRows *
UidStoreLocalExec(const char *sql, int nparams, const char *const *params)
{
	Oid			types[8];
	Datum		values[8] = {0};
	char		nulls[8] = {0};
	int			ret;
	UidStoreRows *rows;

	Assert(nparams <= 8);
	for (int i = 0; i < nparams; i++)
	{
		types[i] = TEXTOID;
		values[i] = params[i] ? CStringGetTextDatum(params[i]) : (Datum) 0;
		nulls[i] = params[i] ? ' ' : 'n';
	}
	ret = SPI_execute_with_args(sql, nparams, types, values, nulls, false, 0);
	if (ret < 0)
		elog(ERROR, "SPI_execute_with_args failed with %d: %s", ret, sql);

	if (SPI_tuptable == NULL)
		return UidStoreRowsNew(0, 0);
	rows = UidStoreRowsNew((int) SPI_processed, SPI_tuptable->tupdesc->natts);
	for (int i = 0; i < rows->nrows; i++)
		for (int j = 0; j < rows->ncols; j++)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, j + 1);

			if (v)
				rows->vals[i * rows->ncols + j] = MemoryContextStrdup(store_cxt, v);
		}
	return rows;
}

/* One statement; values as text parameters.  Raises ERROR on any failure. */
UidStoreRows *
UidStoreExec(const char *sql, int nparams, const char *const *params)
{
	if (UidStoreIsRemote())
		return UidStoreRemoteExec(sql, nparams, params);
	return UidStoreLocalExec(sql, nparams, params);
}

void
UidStoreBegin(void)
{
	if (UidStoreIsRemote())
	{
		UidStoreOpen();
		(void) UidStoreRemoteExec("BEGIN", 0, NULL);
		return;
	}
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

void
UidStoreCommit(void)
{
	if (UidStoreIsRemote())
	{
		(void) UidStoreRemoteExec("COMMIT", 0, NULL);
		return;
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * After an ERROR from any of the above: roll back (local) or drop the
 * connection (remote; a new one is made at the next step).
 */
void
UidStoreAbortAfterError(void)
{
	if (UidStoreIsRemote())
	{
		UidStoreClose();
		return;
	}
	AbortCurrentTransaction();
}

/* Whether the store is a remote database (uid.lease_conninfo is set). */
bool
UidStoreRemote(void)
{
	return UidStoreIsRemote();
}
