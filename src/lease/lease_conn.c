/*
 * lease_conn.c
 *		The lease worker's session with its store: in-process through SPI (a
 *		database of this server) or over libpq (uid.lease_conninfo).  The
 *		statements come from lease_store.c as text with text parameters and
 *		return rows of text, so that one text serves both paths.  Remote, a
 *		second connection is opened for one statement at the start of each
 *		session (UidConnExecSecond), to tell a pooler from a server session.
 *
 * Remote, nothing blocks: the connection is made with PQconnectStartParams
 * and PQconnectPoll, and each statement is sent asynchronously; every wait
 * is on the latch and the socket, with a timeout, so an unreachable or
 * silent store cannot hang the worker, and SIGTERM or pg_cancel_backend()
 * end a wait at once (as PostgreSQL's walreceiver and dblink do).
 *
 * Any failure raises an ERROR; the worker catches it and calls
 * UidConnAbortAfterError, which rolls back (SPI) or drops the connection
 * (libpq; that also drops the session's advisory locks).
 *
 * Memory: rows are allocated in the context that was current at
 * UidConnBegin (the worker's per-cycle context), and that context is current
 * again after commit, so nothing a statement returns outlives the cycle.
 * libpq's own results are malloc'd: the one being read is kept in
 * conn_result, so that an ERROR in between cannot leak it.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "lease/lease_conn.h"
#include "lease/lease_failure.h"
#include "lease/lease_settings.h"
#include "pq_wait.h"

/* Most parameters of one statement on the local path (the remote path has no limit). */
#define UID_CONN_MAX_PARAMS		16

/* Longest wait for a connection or a statement at the final release. */
#define UID_CONN_FINAL_TIMEOUT_MS	5000

static bool conn_remote = false;
static PGconn *conn = NULL;
static PGconn *conn_second = NULL;	/* UidConnExecSecond's session, while it runs */
static PGresult *conn_result = NULL;
static bool conn_final = false;
static MemoryContext conn_caller_cxt = NULL;

UID_DECLARE_WAIT_EVENT(UidWaitStoreConnect, "UidLeaseStoreConnect")
UID_DECLARE_WAIT_EVENT(UidWaitStoreStatement, "UidLeaseStoreStatement")

/*
 * Chooses the transport once, at the worker's start: libpq to
 * uid.lease_conninfo (remote), or SPI in the worker's own database.
 */
void
UidConnInit(bool remote)
{
	conn_remote = remote;
}

/* Whether the store is reached over libpq. */
bool
UidConnRemote(void)
{
	return conn_remote;
}

/* From now on waits are not cut short by the shutdown request: the last release. */
void
UidConnSetFinal(void)
{
	conn_final = true;
}

/* Longest wait for one remote statement or connection attempt. */
static int
UidConnTimeoutMs(void)
{
	int			ms = Max(uid_lease_renew_interval_ms, 1000);

	return conn_final ? Min(ms, UID_CONN_FINAL_TIMEOUT_MS) : ms;
}

/* Frees the result of the last remote statement, if any. */
static void
UidConnClearResult(void)
{
	if (conn_result != NULL)
		PQclear(conn_result);
	conn_result = NULL;
}

/* Closes one remote connection (*c: conn or conn_second), if open. */
static void
UidConnDrop(PGconn **c)
{
	UidConnClearResult();
	if (*c != NULL)
		PQfinish(*c);
	*c = NULL;
}

/*
 * Drops the remote session (a no-op for the local transport); the next
 * UidConnOpen makes a new one.
 */
void
UidConnClose(void)
{
	UidConnDrop(&conn_second);
	UidConnDrop(&conn);
}

/* Raises the error of a failed remote operation; the connection *c is dropped. */
static void
UidConnFail(PGconn **c, UidLeaseFailure kind, const char *what)
{
	char	   *msg = *c ? pchomp(PQerrorMessage(*c)) : pstrdup("out of memory");

	UidConnDrop(c);
	ereport(ERROR,
			(errcode(kind == UID_FAIL_CONNECT ? ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION :
					 ERRCODE_CONNECTION_FAILURE),
			 errmsg("%s: %s", what, msg),
			 UidLeaseFailureContext(kind)));
}

/*
 * A wait's latch: interrupts are served (a cancel raises an ERROR), and a
 * shutdown request ends the wait unless this is the final release.
 */
static bool
UidConnLatchCheck(void *arg)
{
	CHECK_FOR_INTERRUPTS();
	return ShutdownRequestPending && !conn_final;
}

/*
 * Raises the ERROR of a wait on *c that did not end with its socket ready
 * (UidPqWait, UidPqConnectPoll); *c is dropped, and at a shutdown every
 * connection is closed.
 */
static void
UidConnWaitFailed(PGconn **c, UidPqWaitResult r, UidLeaseFailure kind, const char *what)
{
	if (r == UID_PQ_FAILED)
		UidConnFail(c, kind, what);
	if (r == UID_PQ_STOPPED)
	{
		UidConnClose();
		ereport(ERROR,
				(errcode(ERRCODE_ADMIN_SHUTDOWN),
				 errmsg("%s: interrupted, the uid lease worker is shutting down", what)));
	}
	UidConnDrop(c);
	ereport(ERROR,
			(errcode(ERRCODE_CONNECTION_FAILURE),
			 errmsg("%s: no answer from the uid lease store within %d ms", what, UidConnTimeoutMs())));
}

/* When the statement or connection attempt starting now must be done. */
static TimestampTz
UidConnDeadline(void)
{
	return GetCurrentTimestamp() + (TimestampTz) UidConnTimeoutMs() * 1000;
}

/* Connects *c to uid.lease_conninfo without blocking. */
static void
UidConnConnect(PGconn **c)
{
	/*
	 * Defaults first: values in the conninfo (expanded from dbname) win.
	 * Leases are written, so by default only a primary is accepted: with
	 * several hosts libpq finds the one that took over after a failover.
	 * And protocol 3.0, which every pooler speaks (compat.h).
	 */
	const char *const keys[] = {"fallback_application_name", "target_session_attrs",
	UID_LIBPQ_PROTOCOL_KEYWORD "dbname", NULL};
	const char *const vals[] = {"uid lease worker", "read-write",
	UID_LIBPQ_PROTOCOL_VALUE uid_lease_conninfo, NULL};
	TimestampTz deadline = UidConnDeadline();
	UidLeaseFailureScope scope;
	UidPqWaitResult r;

	*c = PQconnectStartParams(keys, vals, 1);
	/* a wait cut short (deadline, cancel, shutdown) is a failure to connect */
	UidLeaseFailureScopeEnter(&scope, UID_FAIL_CONNECT);
	r = UidPqConnectPoll(*c, deadline, UidWaitStoreConnect(), UidConnLatchCheck, NULL);
	if (r != UID_PQ_READY)
		UidConnWaitFailed(c, r, UID_FAIL_CONNECT, "could not connect to the uid lease store");
	UidLeaseFailureScopeLeave(&scope);
}

/*
 * Makes sure the store session is open; true if it was opened just now (its
 * settings must be applied, its advisory locks are gone).  Local: the
 * worker connected to its database at start, nothing to do.
 */
bool
UidConnOpen(void)
{
	if (!conn_remote || (conn != NULL && PQstatus(conn) == CONNECTION_OK))
		return false;
	UidConnClose();
	UidConnConnect(&conn);
	return true;
}

/* An empty set of nrows x ncols values, in cxt. */
static UidConnRows *
UidConnRowsNew(MemoryContext cxt, int nrows, int ncols)
{
	UidConnRows *r = MemoryContextAllocZero(cxt, sizeof(UidConnRows));

	r->nrows = nrows;
	r->ncols = ncols;
	if (nrows > 0 && ncols > 0)
		r->vals = MemoryContextAllocZero(cxt, sizeof(char *) * nrows * ncols);
	return r;
}

/* Reads every result of the statement in flight on *c; keeps the last in conn_result. */
static void
UidConnReadResults(PGconn **c)
{
	TimestampTz deadline = UidConnDeadline();

	for (;;)
	{
		PGresult   *res;

		while (PQisBusy(*c))
		{
			UidPqWaitResult r = UidPqWait(*c, WL_SOCKET_READABLE, deadline, UidWaitStoreStatement(),
										  UidConnLatchCheck, NULL);

			if (r != UID_PQ_READY)
				UidConnWaitFailed(c, r, UID_FAIL_CONNECT, "uid lease store statement");
			if (!PQconsumeInput(*c))
				UidConnFail(c, UID_FAIL_CONNECT, "lost the connection to the uid lease store");
		}
		res = PQgetResult(*c);
		if (res == NULL)
			return;
		UidConnClearResult();
		conn_result = res;
	}
}

/*
 * Runs one statement over libpq on *c (conn or conn_second).  A failure
 * keeps the store's SQLSTATE, so the worker can act on it (a read-only
 * store after a failover).
 */
static UidConnRows *
UidConnExecRemote(PGconn **c, const char *sql, int nparams, const char *const *params)
{
	ExecStatusType st;
	UidConnRows *rows;

	UidConnClearResult();
	if (!PQsendQueryParams(*c, sql, nparams, NULL, params, NULL, NULL, 0))
		UidConnFail(c, UID_FAIL_CONNECT, "could not send a statement to the uid lease store");
	UidConnReadResults(c);
	st = conn_result ? PQresultStatus(conn_result) : PGRES_FATAL_ERROR;
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		char	   *msg = pchomp(conn_result ? PQresultErrorMessage(conn_result) :
								 PQerrorMessage(*c));
		const char *state = conn_result ? PQresultErrorField(conn_result, PG_DIAG_SQLSTATE) : NULL;
		int			sqlstate = ERRCODE_CONNECTION_FAILURE;

		/* the store's own SQLSTATE, as dblink keeps it: the worker acts on some */
		if (state != NULL && strlen(state) == 5)
			sqlstate = MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]);
		UidConnClearResult();
		/* no mark of its own: a failed statement (UidLeaseFailureOf) */
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("uid lease store statement failed: %s", msg)));
	}
	rows = UidConnRowsNew(CurrentMemoryContext, PQntuples(conn_result), PQnfields(conn_result));
	for (int i = 0; i < rows->nrows; i++)
		for (int j = 0; j < rows->ncols; j++)
			if (!PQgetisnull(conn_result, i, j))
				UidConnValue(rows, i, j) = pstrdup(PQgetvalue(conn_result, i, j));
	UidConnClearResult();
	return rows;
}

/*
 * Runs one statement in a second, short-lived session with the store (a
 * new connection to uid.lease_conninfo beside the open one), so that
 * lease_store.c can ask which server session a second client is served
 * by.  Returns NULL, with the reason in *why, if that session cannot be
 * had in time or the statement fails: a store may allow the lease role
 * one connection only, and a pooler in session mode may have no server
 * session to spare.  A cancel or the shutdown request is raised as usual.
 */
UidConnRows *
UidConnExecSecond(const char *sql, int nparams, const char *const *params, char **why)
{
	MemoryContext cxt = CurrentMemoryContext;
	UidConnRows *volatile rows = NULL;

	Assert(conn_remote);
	*why = NULL;
	PG_TRY();
	{
		UidConnConnect(&conn_second);
		rows = UidConnExecRemote(&conn_second, sql, nparams, params);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			PG_RE_THROW();
		FlushErrorState();
		*why = edata->message ? pstrdup(edata->message) : pstrdup("unknown error");
		FreeErrorData(edata);
	}
	PG_END_TRY();
	UidConnDrop(&conn_second);
	return rows;
}

/*
 * Runs one statement through SPI, every parameter as text, like the
 * remote transport; the rows are copied out of SPI's memory.
 */
static UidConnRows *
UidConnExecLocal(const char *sql, int nparams, const char *const *params)
{
	Oid			types[UID_CONN_MAX_PARAMS] = {0};
	Datum		values[UID_CONN_MAX_PARAMS] = {0};
	char		nulls[UID_CONN_MAX_PARAMS] = {0};
	int			ret = 0;
	UidConnRows *rows;

	if (nparams > UID_CONN_MAX_PARAMS)
		elog(ERROR, "uid lease store statement with %d parameters, more than %d", nparams, UID_CONN_MAX_PARAMS);
	for (int i = 0; i < nparams; i++)
	{
		types[i] = TEXTOID;
		values[i] = params[i] ? CStringGetTextDatum(params[i]) : (Datum) 0;
		nulls[i] = params[i] ? ' ' : 'n';
	}
	ret = SPI_execute_with_args(sql, nparams, types, values, nulls, false, 0);
	if (ret < 0)
		elog(ERROR, "SPI_execute_with_args failed with %d", ret);

	if (SPI_tuptable == NULL)
		return UidConnRowsNew(conn_caller_cxt, 0, 0);
	rows = UidConnRowsNew(conn_caller_cxt, (int) SPI_processed, SPI_tuptable->tupdesc->natts);
	for (int i = 0; i < rows->nrows; i++)
		for (int j = 0; j < rows->ncols; j++)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, j + 1);

			if (v)
				UidConnValue(rows, i, j) = MemoryContextStrdup(conn_caller_cxt, v);
		}
	SPI_freetuptable(SPI_tuptable);
	return rows;
}

/* One statement inside UidConnBegin/UidConnCommit; values as text parameters. */
UidConnRows *
UidConnExec(const char *sql, int nparams, const char *const *params)
{
	if (conn_remote)
		return UidConnExecRemote(&conn, sql, nparams, params);
	return UidConnExecLocal(sql, nparams, params);
}

/*
 * Starts the transaction of one store step: BEGIN on the remote session
 * (read committed, read write, whatever the store's defaults), or a
 * transaction with SPI and a snapshot in-process.
 */
void
UidConnBegin(void)
{
	conn_caller_cxt = CurrentMemoryContext;
	if (conn_remote)
	{
		/* what the store's defaults might say otherwise */
		(void) UidConnExecRemote(&conn, "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE", 0, NULL);
		return;
	}
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

/* Commits the step started by UidConnBegin. */
void
UidConnCommit(void)
{
	if (conn_remote)
	{
		(void) UidConnExecRemote(&conn, "COMMIT", 0, NULL);
		return;
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	MemoryContextSwitchTo(conn_caller_cxt);
}

/*
 * After an ERROR from any of the above: roll back (local) or drop the
 * connection (remote; a new one is made at the next step).
 */
void
UidConnAbortAfterError(void)
{
	if (conn_remote)
	{
		UidConnClose();
		return;
	}
	AbortCurrentTransaction();
	if (conn_caller_cxt != NULL)
		MemoryContextSwitchTo(conn_caller_cxt);
}
