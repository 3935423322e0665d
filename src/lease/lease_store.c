/*
 * lease_store.c
 *		The lease store protocol: every statement the lease worker runs in
 *		the store, one function each, the one definition of the lease table,
 *		and a range check on every value read back.
 *
 * The same text runs in-process (SPI) and over libpq (lease_conn.c), so it
 * assumes nothing of the session but what UidStoreSettings pins: search_path
 * is pg_catalog, pg_temp; every function, type and operator is qualified
 * (OPERATOR(pg_catalog.=)) so that no object a store role creates is ever
 * picked; values are parameters; the one identifier, the schema, is quoted.
 *
 * Sessions: the remote path pins the settings in every transaction (SET
 * LOCAL), so that nothing leaks to other clients of a pooled connection, and
 * checks there that the store session is still the server session it opened
 * (pg_backend_pid()) and holds no other worker id's advisory lock; and each
 * new session is checked first with a second connection, which must be
 * served by a server session of its own: a connection pooler in
 * transaction or statement mode is refused (UID_FAIL_POOLED), since
 * advisory locks mean nothing through it.
 *
 * Failover (docs/leases.md, "Running the store highly available"): every
 * acquisition draws a random fencing token, and renewals and releases
 * prove the token and the holder's identity, so that a store that lost its
 * latest commits can never hand the same token to two holders; and a
 * lease write is acted on only once the store's standbys have it
 * (UidStoreWaitDurable).
 *
 * Trust (docs/leases.md, "Threat model"):
 *	- The lease schema and table are used only if owned by the role the
 *	  worker runs as in the store or by a superuser: whoever owns them can
 *	  attach triggers, rules or policies that run as the worker.  They are
 *	  created with that role as their explicit owner.
 *	- No statement waits on a lock that a role without rights on the lease
 *	  table can hold.  Advisory locks are taken with pg_try_advisory_lock
 *	  only, and an id's advisory lock counts as a live holder only when the
 *	  session holding it belongs to a superuser or a role that can update the
 *	  lease table; any other role's lock on that key is ignored.  Rows are
 *	  locked only by row updates, which need rights on the table.
 */
#include "postgres.h"

#include <limits.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/interrupt.h"
#include "storage/latch.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "lease/lease_conn.h"
#include "lease/lease_failure.h"
#include "lease/lease_settings.h"
#include "lease/lease_store.h"
#include "ids.h"

UID_DECLARE_WAIT_EVENT(UidWaitStoreStandbys, "UidLeaseStoreStandbys")

/* The session settings every store statement relies on (both paths). */
static const struct
{
	const char *name;
	const char *value;
}			UidStoreSettings[] =
{
	/* nothing a store role creates is found by name */
	{"search_path", "pg_catalog, pg_temp"},
	/* timestamps read back as ISO text with a numeric offset */
	{"DateStyle", "ISO, YMD"},
	{"TimeZone", "UTC"},
	/* ON CONFLICT re-checks a row locked by a concurrent acquirer */
	{"default_transaction_isolation", "read committed"},
	{"default_transaction_read_only", "off"},
	{"lock_timeout", "5s"},
	{"statement_timeout", "1min"},
	/* a commit waits for the synchronous standbys, whatever the store's default */
	{"synchronous_commit", "on"},
	/* Citus: the lease schema and table stay on the store node */
	{"citus.enable_ddl_propagation", "off"},
};

/* What UidStoreOpen knows of the session it opened. */
static bool store_table_checked = false;
static char store_qtable[NAMEDATALEN * 2 + 16];
static char store_qtenure[NAMEDATALEN * 2 + 16];
static bool store_ledger = false;	/* the tenure ledger exists and we may write it */
static int	store_session_pid = 0;	/* remote: the server session, 0 until known */

/* ---------------------------------------------------------------------------
 * Values read back: parsed strictly and range-checked
 * ------------------------------------------------------------------------- */

/* Raises a value error (UID_FAIL_VALUE): a lease being taken skips that worker id. */
static void
UidStoreBadValue(const char *what, const char *text, const char *range)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("the uid lease store returned %s = %s, out of range (%s)",
					what, text ? text : "NULL", range),
			 UidLeaseFailureContext(UID_FAIL_VALUE)));
}

/* The text of a column that must not be NULL. */
static const char *
UidStoreText(UidConnRows *r, int row, int col, const char *what)
{
	const char *text = r->nrows > row && r->ncols > col ? UidConnValue(r, row, col) : NULL;

	if (text == NULL)
		UidStoreBadValue(what, NULL, "not NULL");
	return text;
}

/* An integer column within [min, max], else a value error. */
static int64
UidStoreInt(UidConnRows *r, int row, int col, int64 min, int64 max, const char *what)
{
	const char *text = UidStoreText(r, row, col, what);
	char	   *end = NULL;
	long long	v = 0;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
		UidStoreBadValue(what, text, psprintf("%lld to %lld", (long long) min, (long long) max));
	return (int64) v;
}

/* A boolean column, strictly t or f. */
static bool
UidStoreBool(UidConnRows *r, int row, int col, const char *what)
{
	const char *text = UidStoreText(r, row, col, what);

	if (strcmp(text, "t") != 0 && strcmp(text, "f") != 0)
		UidStoreBadValue(what, text, "t or f");
	return text[0] == 't';
}

/*
 * A finite timestamptz; for the lease's own times (store_clock), also within
 * the years the uid layout covers.
 */
static TimestampTz
UidStoreTime(UidConnRows *r, int row, int col, const char *what, bool store_clock)
{
	const char *text = UidStoreText(r, row, col, what);
	TimestampTz ts = 0;
	UidLeaseFailureScope scope;

	/* a text that does not parse as a time is a value out of range too */
	UidLeaseFailureScopeEnter(&scope, UID_FAIL_VALUE);
	ts = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in, CStringGetDatum(text),
												 ObjectIdGetDatum(InvalidOid),
												 Int32GetDatum(-1)));
	if (TIMESTAMP_NOT_FINITE(ts) ||
		(store_clock && (ts < UidUnixMsToTimestamptz(UID_EPOCH_MS - 366 * MS_PER_DAY) ||
						 ts > UidUnixMsToTimestamptz(UID_LAYOUT_END_UNIX_MS))))
		UidStoreBadValue(what, text, store_clock ? "a time between 2025 and 2095" : "a finite time");
	UidLeaseFailureScopeLeave(&scope);
	return ts;
}

/* An integer as a text parameter (every parameter travels as text). */
static const char *
UidStoreIntParam(int64 v)
{
	return psprintf("%lld", (long long) v);
}

static void UidStoreTenureOpen(int worker_id, int64 token, UidStoreLease *lease);
static void UidStoreTenureRenewed(int worker_id, int64 token, UidStoreLease *lease);
static void UidStoreTenureReleased(int worker_id, int64 token);

/* ---------------------------------------------------------------------------
 * The lease table: its one definition
 * ------------------------------------------------------------------------- */

/*
 * The lease table's definition, one statement each: used both by the
 * worker (UidStoreEnsureTable) and by uid_lease_table_sql(), so that the
 * two can never differ.
 */
static char *
UidStoreSchemaDdl(const char *schema, const char *owner)
{
	return psprintf("CREATE SCHEMA %s AUTHORIZATION %s",
					quote_identifier(schema), quote_identifier(owner));
}

static char *
UidStoreTableDdl(const char *qtable)
{
	return psprintf("CREATE TABLE %s (\n"
					"    worker_id integer PRIMARY KEY\n"
					"        CHECK (worker_id OPERATOR(pg_catalog.>=) 0 AND worker_id OPERATOR(pg_catalog.<=) %d),\n"
					"    token bigint NOT NULL,\n"
					"    system_identifier numeric(20,0) NOT NULL,\n"
					"    timeline integer NOT NULL,\n"
					"    host text,\n"
					"    port integer,\n"
					"    pid integer,\n"
					"    acquired_at timestamptz NOT NULL,\n"
					"    renewed_at timestamptz NOT NULL,\n"
					"    expires_at timestamptz NOT NULL,\n"
					"    released_at timestamptz,\n"
					"    last_issued_ms bigint NOT NULL DEFAULT 0\n"
					")", qtable, UID_MAX_WORKER);
}

static char *
UidStoreOwnerDdl(const char *qtable, const char *owner)
{
	return psprintf("ALTER TABLE %s OWNER TO %s", qtable, quote_identifier(owner));
}

static char *
UidStoreCommentDdl(const char *qtable)
{
	return psprintf("COMMENT ON TABLE %s IS 'uid worker id leases: one row per worker id "
					"ever leased (uid docs/leases.md)'", qtable);
}

/*
 * The tenure ledger: one row per tenure of a worker id (an acquisition,
 * until its release, expiry or loss), with the window of Unix milliseconds
 * its holder could issue in: first_ms to last_ms, both included.  While a
 * tenure is open, last_ms is the bound the protocol guarantees (the expiry
 * plus uid.lease_max_clock_skew, the floor its successor would inherit);
 * a clean release makes it exact.  A window with last_ms < first_ms is a
 * tenure that issued nothing.
 */
static char *
UidStoreTenureDdl(const char *qtenure)
{
	return psprintf("CREATE TABLE %s (\n"
					"    worker_id integer NOT NULL\n"
					"        CHECK (worker_id OPERATOR(pg_catalog.>=) 0 AND worker_id OPERATOR(pg_catalog.<=) %d),\n"
					"    token bigint NOT NULL,\n"
					"    system_identifier numeric(20,0) NOT NULL,\n"
					"    timeline integer NOT NULL,\n"
					"    host text,\n"
					"    port integer,\n"
					"    started_at timestamptz NOT NULL,\n"
					"    first_ms bigint NOT NULL,\n"
					"    last_ms bigint NOT NULL,\n"
					"    ended_at timestamptz,\n"
					"    ended_how text\n"
					"        CHECK (ended_how OPERATOR(pg_catalog.=) ANY "
					"('{released,expired,lost,failover}'::pg_catalog.text[])),\n"
					"    PRIMARY KEY (worker_id, token)\n"
					")", qtenure, UID_MAX_WORKER);
}

static char *
UidStoreTenureCommentDdl(const char *qtenure)
{
	return psprintf("COMMENT ON TABLE %s IS 'uid tenure ledger: one row per tenure of a worker id, "
					"with the milliseconds its holder could issue in (uid docs/leases.md)'", qtenure);
}

/* The tenure ledger's name, quoted and schema-qualified. */
static char *
UidStoreQualifiedTenure(const char *schema)
{
	return psprintf("%s.tenure", quote_identifier(schema));
}

/* The lease table's name, quoted and schema-qualified. */
static char *
UidStoreQualifiedTable(const char *schema)
{
	return psprintf("%s.lease", quote_identifier(schema));
}

/* The statements that create the lease table, as uid_lease_table_sql() shows them. */
char *
UidStoreTableSql(const char *schema, const char *owner)
{
	char	   *qtable = UidStoreQualifiedTable(schema);
	char	   *qtenure = UidStoreQualifiedTenure(schema);

	return psprintf("%s;\n%s;\n%s;\n%s;\n%s;\n%s;\n%s;\n",
					UidStoreSchemaDdl(schema, owner), UidStoreTableDdl(qtable),
					UidStoreOwnerDdl(qtable, owner), UidStoreCommentDdl(qtable),
					UidStoreTenureDdl(qtenure), UidStoreOwnerDdl(qtenure, owner),
					UidStoreTenureCommentDdl(qtenure));
}

/* ---------------------------------------------------------------------------
 * The session
 * ------------------------------------------------------------------------- */

/* The local path: pin the settings once, for the worker's whole life. */
void
UidStoreInit(bool remote)
{
	UidConnInit(remote);
	snprintf(store_qtable, sizeof(store_qtable), "%s", UidStoreQualifiedTable(uid_lease_schema));
	snprintf(store_qtenure, sizeof(store_qtenure), "%s", UidStoreQualifiedTenure(uid_lease_schema));
	if (remote)
		return;
	for (int i = 0; i < (int) lengthof(UidStoreSettings); i++)
		if (GetConfigOption(UidStoreSettings[i].name, true, false) != NULL)
			SetConfigOption(UidStoreSettings[i].name, UidStoreSettings[i].value,
							PGC_SUSET, PGC_S_OVERRIDE);
}

/* Whether the store is reached over libpq (lease_conn.c decides). */
bool
UidStoreRemote(void)
{
	return UidConnRemote();
}

/*
 * Raises the refusal of a pooled store connection (UID_FAIL_POOLED):
 * the worker then stops using the store until uid_lease_acquire().
 */
static void
UidStoreRefusePooled(const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 errmsg("the uid lease store connection is not one server session: %s", detail),
			 UidLeaseFailureContext(UID_FAIL_POOLED),
			 errhint("Advisory locks and session state mean nothing through a connection pooler in "
					 "transaction or statement mode. Connect uid.lease_conninfo to the store directly, "
					 "or through a pooler in session mode.")));
}

/*
 * A remote transaction: pin the settings for this transaction only (those
 * that exist on the store), and check that the server session is the one
 * this connection started with.
 */
static void
UidStorePinTransaction(void)
{
	const char *params[2 * lengthof(UidStoreSettings)];
	StringInfoData sql;
	UidConnRows *r;
	int			pid;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT pg_catalog.pg_backend_pid()");
	for (int i = 0; i < (int) lengthof(UidStoreSettings); i++)
	{
		appendStringInfo(&sql, ", CASE WHEN pg_catalog.current_setting($%d::pg_catalog.text, true) IS NOT NULL"
						 " THEN pg_catalog.set_config($%d::pg_catalog.text, $%d::pg_catalog.text, true) END",
						 2 * i + 1, 2 * i + 1, 2 * i + 2);
		params[2 * i] = UidStoreSettings[i].name;
		params[2 * i + 1] = UidStoreSettings[i].value;
	}
	r = UidConnExec(sql.data, 2 * lengthof(UidStoreSettings), params);
	pid = (int) UidStoreInt(r, 0, 0, 1, INT_MAX, "pg_backend_pid()");
	if (store_session_pid == 0)
		store_session_pid = pid;
	else if (pid != store_session_pid)
		UidStoreRefusePooled(psprintf("this transaction runs in server process %d, the connection started in %d",
									  pid, store_session_pid));
}

/*
 * The server process that serves a connection, and when its server
 * started (microseconds since 1970, as an integer: the same text in any
 * session), so that equal pids of two servers (hosts of a multi-host
 * conninfo) are not taken for one.
 */
#define UID_SQL_SERVER_PROCESS \
	"SELECT pg_catalog.pg_backend_pid(), (pg_catalog.date_part('epoch'::pg_catalog.text," \
	" pg_catalog.pg_postmaster_start_time()) OPERATOR(pg_catalog.*) 1000000::pg_catalog.float8)::pg_catalog.int8"

/*
 * The statement a second connection to the store runs: its server process
 * as above, and how many worker ids' advisory locks (of the lease schema,
 * $1) that server session holds.
 */
#define UID_SQL_SECOND_SESSION \
	UID_SQL_SERVER_PROCESS ", (SELECT pg_catalog.count(*) FROM pg_catalog.pg_locks AS k" \
	" WHERE k.locktype OPERATOR(pg_catalog.=) 'advisory'::pg_catalog.text AND k.granted" \
	" AND k.pid OPERATOR(pg_catalog.=) pg_catalog.pg_backend_pid()" \
	" AND k.classid OPERATOR(pg_catalog.=) pg_catalog.hashtext($1::pg_catalog.text)::pg_catalog.oid" \
	" AND k.objsubid OPERATOR(pg_catalog.=) 2::pg_catalog.int2)"

/* The last reason the second connection could not be had (logged once each). */
static char store_second_failed[256] = "";

/*
 * Remote, first thing in each new store session: is it one server session
 * of its own?  From inside one connection, a pooler in transaction or
 * statement mode that keeps serving a lone client from one server session
 * looks exactly like a direct connection, so a second client is asked:
 * the first connection reads its server process and its server's start
 * (an autocommit statement, which a pooler in statement mode allows too),
 * and right after it, with the first connection idle, a second connection
 * to uid.lease_conninfo reads its own.  A direct connection or a pooler in session mode gives
 * the second client a server process of its own, which holds no lease's
 * advisory lock; a pooler in transaction or statement mode hands it an
 * idle server session, the one the first connection was just served by
 * (pgbouncer reuses the most recently used first; with
 * server_round_robin, the first connection's own transactions take turns
 * over the pool, and one of those before the first acquisition runs in
 * another server process, which UidStorePinTransaction refuses), or one
 * that another generator's lock stays with: refused (UID_FAIL_POOLED).  If the second
 * connection cannot be had (a connection limit, a pooler in session mode
 * with no server session to spare), the check is inconclusive: logged,
 * and the checks in every transaction remain.
 */
static void
UidStoreCheckOwnSession(void)
{
	const char *params[1] = {uid_lease_schema};
	UidConnRows *r;
	char	   *why = NULL;
	int			pid;
	int64		started;
	int64		locks;

	r = UidConnExec(UID_SQL_SERVER_PROCESS, 0, NULL);
	store_session_pid = (int) UidStoreInt(r, 0, 0, 1, INT_MAX, "pg_backend_pid()");
	started = UidStoreInt(r, 0, 1, PG_INT64_MIN, PG_INT64_MAX, "pg_postmaster_start_time()");
	r = UidConnExecSecond(UID_SQL_SECOND_SESSION, 1, params, &why);
	if (r == NULL)
	{
		if (strncmp(store_second_failed, why, sizeof(store_second_failed) - 1) != 0)
			ereport(LOG,
					(errmsg("uid: could not open a second connection to the lease store to check that the first is a server session of its own: %s",
							why),
					 errdetail("The lease worker checks in every transaction that its server session does not change.")));
		strlcpy(store_second_failed, why, sizeof(store_second_failed));
		return;
	}
	store_second_failed[0] = '\0';
	pid = (int) UidStoreInt(r, 0, 0, 1, INT_MAX, "pg_backend_pid() of a second connection");
	locks = UidStoreInt(r, 0, 2, 0, UID_MAX_WORKER + 1, "advisory locks of a second connection");
	if (pid == store_session_pid &&
		UidStoreInt(r, 0, 1, PG_INT64_MIN, PG_INT64_MAX, "pg_postmaster_start_time() of a second connection") == started)
		UidStoreRefusePooled(psprintf("a second connection to uid.lease_conninfo is served by server process %d, "
									  "the one serving the first connection", pid));
	if (locks > 0)
		UidStoreRefusePooled(psprintf("a second connection to uid.lease_conninfo is served by a server session "
									  "that holds the advisory locks of %lld worker ids", (long long) locks));
}

/*
 * Who we are in the store, and whether the store is this very server (its
 * postmaster started at our start time, and its backend is one of ours).
 */
static void
UidStoreReadIdentity(UidStoreSession *session)
{
	UidConnRows *r;
	TimestampTz started;

	UidStoreBegin();
	r = UidConnExec("SELECT CURRENT_USER, pg_catalog.current_database(),"
					" pg_catalog.pg_postmaster_start_time()", 0, NULL);
	started = UidStoreTime(r, 0, 2, "pg_postmaster_start_time()", false);
	strlcpy(session->role, UidStoreText(r, 0, 0, "CURRENT_USER"), NAMEDATALEN);
	strlcpy(session->database, UidStoreText(r, 0, 1, "current_database()"), NAMEDATALEN);
	session->is_this_server = started == PgStartTime && BackendPidGetProc(store_session_pid) != NULL;
	UidStoreCommit();
}

/*
 * The statement that looks at the lease schema and one of its tables ($2:
 * lease or tenure): whether each
 * exists, its owner, and whether that owner is the current role or a
 * superuser; and the current role's name.
 */
#define UID_SQL_CHECK_TABLE \
	"SELECT me.rolname," \
	" n.oid IS NOT NULL, pg_catalog.pg_get_userbyid(n.nspowner)," \
	" COALESCE(n.nspowner OPERATOR(pg_catalog.=) me.oid OR ns.rolsuper, false)," \
	" c.oid IS NOT NULL, pg_catalog.pg_get_userbyid(c.relowner)," \
	" COALESCE(c.relowner OPERATOR(pg_catalog.=) me.oid OR cs.rolsuper, false)," \
	" COALESCE(c.relkind OPERATOR(pg_catalog.=) 'r', false)" \
	" FROM pg_catalog.pg_roles me" \
	" LEFT JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name" \
	" LEFT JOIN pg_catalog.pg_roles ns ON ns.oid OPERATOR(pg_catalog.=) n.nspowner" \
	" LEFT JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid" \
	"  AND c.relname OPERATOR(pg_catalog.=) $2::pg_catalog.name" \
	" LEFT JOIN pg_catalog.pg_roles cs ON cs.oid OPERATOR(pg_catalog.=) c.relowner" \
	" WHERE me.rolname OPERATOR(pg_catalog.=) CURRENT_USER"

/*
 * Raises the refusal of a lease schema or table owned by another role
 * (UID_FAIL_TABLE): that owner could run code as the lease worker.
 */
static void
UidStoreRefuseOwner(const char *what, const char *name, const char *owner, const char *me)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 UidLeaseFailureContext(UID_FAIL_TABLE),
			 errmsg("refusing the lease %s %s: it is owned by role \"%s\", not by \"%s\" or a superuser",
					what, name, owner, me),
			 errhint("Its owner could run code as the lease worker. Drop it, or have a superuser make \"%s\" its owner.",
					 me)));
}

/* Whether the current role may do what cond says of $1 (a schema or a table name). */
static bool
UidStoreMay(const char *cond, const char *name)
{
	const char *params[1] = {name};
	UidConnRows *r = UidConnExec(psprintf("SELECT COALESCE(%s, false)", cond), 1, params);

	return UidStoreBool(r, 0, 0, "privilege");
}

/*
 * Uses the lease schema and table only if they are owned by the role we
 * are or a superuser; creates what is missing, owned by the role we are.
 */
static void
UidStoreEnsureTable(void)
{
	const char *params[2] = {uid_lease_schema, "lease"};
	UidConnRows *r;
	UidConnRows *t;
	char	   *me;
	char	   *qschema = (char *) quote_identifier(uid_lease_schema);

	UidStoreBegin();
	r = UidConnExec(UID_SQL_CHECK_TABLE, 2, params);
	params[1] = "tenure";
	t = UidConnExec(UID_SQL_CHECK_TABLE, 2, params);
	if (r->nrows != 1 || t->nrows != 1)
		UidStoreBadValue("the current role", NULL, "one row of pg_roles");
	me = pstrdup(UidStoreText(r, 0, 0, "CURRENT_USER"));
	if (UidStoreBool(r, 0, 1, "schema exists") && !UidStoreBool(r, 0, 3, "schema owner"))
		UidStoreRefuseOwner("schema", qschema, UidConnValue(r, 0, 2), me);
	if (UidStoreBool(r, 0, 4, "table exists") &&
		(!UidStoreBool(r, 0, 6, "table owner") || !UidStoreBool(r, 0, 7, "table kind")))
		UidStoreRefuseOwner("table", store_qtable, UidConnValue(r, 0, 5), me);
	if (UidStoreBool(t, 0, 4, "tenure table exists") &&
		(!UidStoreBool(t, 0, 6, "tenure table owner") || !UidStoreBool(t, 0, 7, "tenure table kind")))
		UidStoreRefuseOwner("table", store_qtenure, UidConnValue(t, 0, 5), me);

	if (!UidStoreBool(r, 0, 1, "schema exists"))
		(void) UidConnExec(UidStoreSchemaDdl(uid_lease_schema, me), 0, NULL);
	if (!UidStoreBool(r, 0, 4, "table exists"))
	{
		(void) UidConnExec(UidStoreTableDdl(store_qtable), 0, NULL);
		(void) UidConnExec(UidStoreOwnerDdl(store_qtable, me), 0, NULL);
		(void) UidConnExec(UidStoreCommentDdl(store_qtable), 0, NULL);
		ereport(LOG, (errmsg("uid: created the lease table %s in the lease store", store_qtable)));
	}
	/*
	 * A store of uid 1.2 has no ledger yet: it gets one in place, if we may
	 * create it.  Without a ledger we may write, leases work as before: the
	 * ledger records them, it does not decide them.
	 */
	store_ledger = UidStoreBool(t, 0, 4, "tenure table exists");
	if (!store_ledger && UidStoreMay("pg_catalog.has_schema_privilege($1::pg_catalog.text, 'CREATE'::pg_catalog.text)",
										 uid_lease_schema))
	{
		(void) UidConnExec(UidStoreTenureDdl(store_qtenure), 0, NULL);
		(void) UidConnExec(UidStoreOwnerDdl(store_qtenure, me), 0, NULL);
		(void) UidConnExec(UidStoreTenureCommentDdl(store_qtenure), 0, NULL);
		ereport(LOG, (errmsg("uid: created the tenure ledger %s in the lease store", store_qtenure)));
		store_ledger = true;
	}
	else if (store_ledger)
		store_ledger = UidStoreMay("pg_catalog.has_table_privilege($1::pg_catalog.text, 'INSERT'::pg_catalog.text)"
								   " AND pg_catalog.has_table_privilege($1::pg_catalog.text, 'UPDATE'::pg_catalog.text)"
								   " AND pg_catalog.has_table_privilege($1::pg_catalog.text, 'DELETE'::pg_catalog.text)",
								   store_qtenure);
	if (!store_ledger)
		ereport(WARNING,
				(errmsg("uid: the lease store has no tenure ledger %s that role \"%s\" may write: leases are not recorded in it",
						store_qtenure, me),
				 errhint("As a superuser of the store, create it with the statements of uid_lease_table_sql() "
						 "for the tenure table, and grant INSERT, UPDATE, DELETE and SELECT on it to the lease role.")));
	UidConnCommit();
	store_table_checked = true;
}

/*
 * Opens the session if needed (remote), pins its settings, and checks the
 * lease table once per session: the owner check runs again after any
 * failure (UidStoreAbortAfterError).
 */
void
UidStoreOpen(UidStoreSession *session)
{
	memset(session, 0, sizeof(UidStoreSession));
	session->new_session = UidConnOpen();
	if (session->new_session)
	{
		store_table_checked = false;
		store_session_pid = 0;
		UidStoreCheckOwnSession();
		UidStoreReadIdentity(session);
		if (session->is_this_server)
			return;
	}
	if (!store_table_checked)
		UidStoreEnsureTable();
}

/* Ends the store session; the next UidStoreOpen opens a new one. */
void
UidStoreClose(void)
{
	UidConnClose();
}

/*
 * Starts one store step; a remote session first pins its settings for
 * the transaction (UidStorePinTransaction).
 */
void
UidStoreBegin(void)
{
	UidConnBegin();
	if (UidConnRemote())
		UidStorePinTransaction();
}

/* Commits one store step. */
void
UidStoreCommit(void)
{
	UidConnCommit();
}

/*
 * After an error in a step: roll back, and check the lease table again at
 * the next step (it may be what failed).
 */
void
UidStoreAbortAfterError(void)
{
	UidConnAbortAfterError();
	store_table_checked = false;
}

/*
 * The release at the worker's exit: its waits are no longer cut short by
 * the shutdown request, only bounded.
 */
void
UidStoreFinalRelease(void)
{
	UidConnSetFinal();
}

/* ---------------------------------------------------------------------------
 * The statements of the protocol
 * ------------------------------------------------------------------------- */

/* The store's clock. */
TimestampTz
UidStoreClock(void)
{
	UidConnRows *r = UidConnExec("SELECT pg_catalog.clock_timestamp()", 0, NULL);

	return UidStoreTime(r, 0, 0, "clock_timestamp()", true);
}

/*
 * Up to max_ids free ids from first to last, lowest first: no live row
 * (a lease, or the registration of a static id), and no advisory lock on
 * the id held by a session that could be its holder (a superuser's, or a
 * role's that can update the lease table); with the last issued time their
 * rows record.  A lease looks in its pool (0 to pool size - 1), a
 * registered static id at that id alone.
 */
int
UidStoreFreeIds(int first, int last, UidStoreFreeId *ids, int max_ids)
{
	const char *params[5];
	UidConnRows *r;

	params[0] = UidStoreIntParam(last);
	params[1] = uid_lease_schema;
	params[2] = store_qtable;
	params[3] = UidStoreIntParam(max_ids);
	params[4] = UidStoreIntParam(first);
	r = UidConnExec(psprintf("SELECT g.id, COALESCE(p.last_issued_ms, 0)"
							 " FROM pg_catalog.generate_series($5::pg_catalog.int4, $1::pg_catalog.int4) AS g(id)"
							 " LEFT JOIN %s AS p ON p.worker_id OPERATOR(pg_catalog.=) g.id"
							 " WHERE NOT EXISTS (SELECT 1 FROM %s AS l"
							 "  WHERE l.worker_id OPERATOR(pg_catalog.=) g.id AND l.released_at IS NULL"
							 "  AND l.expires_at OPERATOR(pg_catalog.>) pg_catalog.clock_timestamp())"
							 " AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_locks AS k"
							 "  JOIN pg_catalog.pg_stat_activity AS a ON a.pid OPERATOR(pg_catalog.=) k.pid"
							 "  JOIN pg_catalog.pg_roles AS h ON h.oid OPERATOR(pg_catalog.=) a.usesysid"
							 "  WHERE k.locktype OPERATOR(pg_catalog.=) 'advisory'::pg_catalog.text AND k.granted"
							 "  AND k.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database AS d"
							 "   WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())"
							 "  AND k.classid OPERATOR(pg_catalog.=) pg_catalog.hashtext($2::pg_catalog.text)::pg_catalog.oid"
							 "  AND k.objid OPERATOR(pg_catalog.=) g.id::pg_catalog.oid"
							 "  AND k.objsubid OPERATOR(pg_catalog.=) 2::pg_catalog.int2"
							 "  AND k.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()"
							 "  AND (h.rolsuper OR pg_catalog.has_table_privilege(h.oid, $3::pg_catalog.text, 'UPDATE')))"
							 " ORDER BY g.id LIMIT $4::pg_catalog.int8",
							 store_qtable, store_qtable), 5, params);
	for (int i = 0; i < r->nrows && i < max_ids; i++)
	{
		ids[i].worker_id = (int) UidStoreInt(r, i, 0, first, last, "free worker id");
		ids[i].last_issued_unix_ms = UidStoreInt(r, i, 1, 0, PG_INT64_MAX, "last_issued_ms");
	}
	return Min(r->nrows, max_ids);
}

/*
 * Who holds worker_id in the store, for a registered static id that is not
 * free: the live row's holder (system identifier, host, port, postmaster
 * pid, expiry), or the session that holds its advisory lock.
 */
char *
UidStoreDescribeHolder(int worker_id)
{
	const char *params[3];
	UidConnRows *r;

	params[0] = UidStoreIntParam(worker_id);
	params[1] = uid_lease_schema;
	r = UidConnExec(psprintf("SELECT l.system_identifier, l.host, l.port, l.pid, l.expires_at"
							 " FROM %s AS l WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
							 " AND l.released_at IS NULL"
							 " AND l.expires_at OPERATOR(pg_catalog.>) pg_catalog.clock_timestamp()"
							 " AND $2::pg_catalog.text IS NOT NULL",
							 store_qtable), 2, params);
	if (r->nrows == 1)
		return psprintf("system identifier %s, host %s, port %s, postmaster pid %s, until %s",
						UidStoreText(r, 0, 0, "system_identifier"),
						UidConnValue(r, 0, 1) ? UidConnValue(r, 0, 1) : "unknown",
						UidConnValue(r, 0, 2) ? UidConnValue(r, 0, 2) : "unknown",
						UidConnValue(r, 0, 3) ? UidConnValue(r, 0, 3) : "unknown",
						timestamptz_to_str(UidStoreTime(r, 0, 4, "expires_at", true)));
	r = UidConnExec("SELECT k.pid FROM pg_catalog.pg_locks AS k"
					" WHERE k.locktype OPERATOR(pg_catalog.=) 'advisory'::pg_catalog.text AND k.granted"
					" AND k.classid OPERATOR(pg_catalog.=) pg_catalog.hashtext($2::pg_catalog.text)::pg_catalog.oid"
					" AND k.objid OPERATOR(pg_catalog.=) $1::pg_catalog.int4::pg_catalog.oid"
					" AND k.objsubid OPERATOR(pg_catalog.=) 2::pg_catalog.int2"
					" AND k.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid() LIMIT 1",
					2, params);
	if (r->nrows == 1)
		return psprintf("its row is not live, but store session %s holds its advisory lock (the previous holder's session, not yet closed)",
						UidStoreText(r, 0, 0, "pid"));
	return pstrdup("its row in the lease store holds a value out of range (see the server log)");
}

/* The session-level advisory lock on a worker id: never waits. */
bool
UidStoreTryLock(int worker_id)
{
	const char *params[2] = {uid_lease_schema, UidStoreIntParam(worker_id)};
	UidConnRows *r = UidConnExec("SELECT pg_catalog.pg_try_advisory_lock("
								 "pg_catalog.hashtext($1::pg_catalog.text), $2::pg_catalog.int4)",
								 2, params);

	return UidStoreBool(r, 0, 0, "pg_try_advisory_lock()");
}

/* Releases the session advisory lock on worker_id (UidStoreTryLock). */
void
UidStoreUnlock(int worker_id)
{
	const char *params[2] = {uid_lease_schema, UidStoreIntParam(worker_id)};

	(void) UidConnExec("SELECT pg_catalog.pg_advisory_unlock("
					   "pg_catalog.hashtext($1::pg_catalog.text), $2::pg_catalog.int4)",
					   2, params);
}

/* uid.lease_ttl as an interval parameter. */
static const char *
UidStoreTtlParam(void)
{
	return psprintf("%lld milliseconds", (long long) uid_lease_ttl_s * 1000);
}

/*
 * The expiry a statement just set must be its store time plus at most the
 * TTL: anything later would let this server issue past the real expiry.
 */
static void
UidStoreCheckLease(UidStoreLease *lease)
{
	int64		life_ms = UidTimestamptzToUnixMs(lease->expires_at) -
		UidTimestamptzToUnixMs(lease->store_now);

	if (life_ms <= 0 || life_ms > (int64) uid_lease_ttl_s * 1000)
		UidStoreBadValue("expires_at - clock_timestamp() (ms)", UidStoreIntParam(life_ms),
						 psprintf("1 to uid.lease_ttl = %lld", (long long) uid_lease_ttl_s * 1000));
}

/*
 * The latest last_issued_ms a row may hold at store time store_now: its
 * holder issued on a clock that agreed with the store's within
 * uid.lease_max_clock_skew; beyond that and the margin, the value is not a
 * time any holder issued at, and the id is skipped.
 */
int64
UidStoreLastIssuedMax(TimestampTz store_now)
{
	return UidTimestamptzToUnixMs(store_now) + uid_lease_max_clock_skew_ms + uid_lease_safety_margin_ms;
}

/*
 * A fencing token for a new acquisition: random and positive.  A token that
 * counted up from the row's previous one would be drawn again by the next
 * acquirer of a store that lost the latest commit in a failover, and two
 * holders would then renew the same row with the same token.
 */
static int64
UidStoreNewToken(void)
{
	uint64		token = 0;

	while (token == 0)
	{
		if (!pg_strong_random(&token, sizeof(token)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random fencing token")));
		token &= (uint64) PG_INT64_MAX;
	}
	return (int64) token;
}

/*
 * The condition that a row is ours: the token, and the holder's identity
 * (the server's system identifier, timeline and postmaster pid) that the
 * acquisition recorded, in parameters $first to $first + 3.
 */
static char *
UidStoreOursSql(int first)
{
	return psprintf(" AND l.token OPERATOR(pg_catalog.=) $%d::pg_catalog.int8"
					" AND l.system_identifier OPERATOR(pg_catalog.=) $%d::pg_catalog.numeric"
					" AND l.timeline OPERATOR(pg_catalog.=) $%d::pg_catalog.int4"
					" AND l.pid OPERATOR(pg_catalog.=) $%d::pg_catalog.int4"
					" AND l.released_at IS NULL",
					first, first + 1, first + 2, first + 3);
}

/* Sets params[first .. first + 3] for UidStoreOursSql(first + 1). */
static void
UidStoreOursParams(const char **params, int first, int64 token, const UidStoreHolder *holder)
{
	params[first] = UidStoreIntParam(token);
	params[first + 1] = psprintf(UINT64_FORMAT, holder->system_identifier);
	params[first + 2] = UidStoreIntParam(holder->timeline);
	params[first + 3] = UidStoreIntParam(holder->pid);
}

/*
 * Takes worker_id if its row is missing, released or expired: a new random
 * token, our identity, a fresh expiry.  found is false if the row is live
 * (a concurrent acquirer took it first; its row lock serialised us).
 *
 * The previous holder's last issued time comes back as the floor of the new
 * holder.  A released row records it exactly.  An expired row records it
 * only as of the last renewal, and its holder may have issued until its
 * deadline, which lies before the expiry plus the largest clock skew
 * accepted: that is the floor then, so that a clock stepping back right
 * after the takeover is refused (UID01) instead of repeating those IDs.
 */
void
UidStoreTake(int worker_id, const UidStoreHolder *holder, UidStoreLease *lease)
{
	const char *params[9];
	UidConnRows *r;
	int64		token = UidStoreNewToken();

	params[0] = UidStoreIntParam(worker_id);
	params[1] = psprintf(UINT64_FORMAT, holder->system_identifier);
	params[2] = UidStoreIntParam(holder->timeline);
	params[3] = holder->host;
	params[4] = UidStoreIntParam(holder->port);
	params[5] = UidStoreIntParam(holder->pid);
	params[6] = UidStoreTtlParam();
	params[7] = UidStoreIntParam(token);
	params[8] = UidStoreIntParam(uid_lease_max_clock_skew_ms);
	r = UidConnExec(psprintf("INSERT INTO %s AS l (worker_id, token, system_identifier, timeline,"
							 " host, port, pid, acquired_at, renewed_at, expires_at, released_at, last_issued_ms)"
							 " SELECT $1::pg_catalog.int4, $8::pg_catalog.int8, $2::pg_catalog.numeric, $3::pg_catalog.int4,"
							 " $4::pg_catalog.text, $5::pg_catalog.int4, $6::pg_catalog.int4, n.now, n.now,"
							 " n.now OPERATOR(pg_catalog.+) $7::pg_catalog.interval, NULL, 0"
							 " FROM (SELECT pg_catalog.clock_timestamp() AS now) AS n"
							 " ON CONFLICT (worker_id) DO UPDATE SET token = EXCLUDED.token,"
							 " system_identifier = EXCLUDED.system_identifier, timeline = EXCLUDED.timeline,"
							 " host = EXCLUDED.host, port = EXCLUDED.port, pid = EXCLUDED.pid,"
							 " acquired_at = EXCLUDED.acquired_at, renewed_at = EXCLUDED.renewed_at,"
							 " expires_at = EXCLUDED.expires_at, released_at = NULL,"
							 " last_issued_ms = CASE WHEN l.released_at IS NOT NULL THEN l.last_issued_ms"
							 "  ELSE GREATEST(l.last_issued_ms, pg_catalog.floor(pg_catalog.date_part('epoch'::pg_catalog.text,"
							 "   l.expires_at) OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8 OPERATOR(pg_catalog.+) $9::pg_catalog.int8) END"
							 " WHERE (l.released_at IS NOT NULL"
							 " OR l.expires_at OPERATOR(pg_catalog.<=) EXCLUDED.acquired_at)"
							 " AND l.token OPERATOR(pg_catalog.<>) EXCLUDED.token"
							 " RETURNING l.token, l.last_issued_ms, l.acquired_at, l.expires_at",
							 store_qtable), 9, params);
	memset(lease, 0, sizeof(UidStoreLease));
	lease->found = r->nrows == 1;
	if (!lease->found)
		return;
	lease->token = UidStoreInt(r, 0, 0, 1, PG_INT64_MAX, "token");
	if (lease->token != token)
		UidStoreBadValue("token", UidStoreIntParam(lease->token), "the token just drawn");
	lease->acquired_at = UidStoreTime(r, 0, 2, "acquired_at", true);
	lease->store_now = lease->acquired_at;
	lease->expires_at = UidStoreTime(r, 0, 3, "expires_at", true);
	UidStoreCheckLease(lease);

	lease->prev_last_issued_unix_ms =
		UidStoreInt(r, 0, 1, 0, UidStoreLastIssuedMax(lease->store_now), "last_issued_ms");
	UidStoreTenureOpen(worker_id, token, lease);
}

/* Live leases below pool_size (ours included). */
int
UidStoreCountLeased(int pool_size)
{
	const char *params[1] = {UidStoreIntParam(pool_size)};
	UidConnRows *r = UidConnExec(psprintf("SELECT pg_catalog.count(*) FROM %s AS l"
										  " WHERE l.released_at IS NULL"
										  " AND l.expires_at OPERATOR(pg_catalog.>) pg_catalog.clock_timestamp()"
										  " AND l.worker_id OPERATOR(pg_catalog.<) $1::pg_catalog.int4",
										  store_qtable), 1, params);

	return (int) UidStoreInt(r, 0, 0, 0, pool_size, "leased worker ids");
}

/*
 * Extends our lease, if the row still carries our token and names us, and
 * records our last issued time; found is false if it does not (the lease
 * was lost).
 */
void
UidStoreRenew(int worker_id, int64 token, const UidStoreHolder *holder,
			  int64 last_issued_unix_ms, int pool_size, UidStoreLease *lease)
{
	const char *params[8];
	UidConnRows *r;

	params[0] = UidStoreIntParam(worker_id);
	params[1] = UidStoreTtlParam();
	params[2] = UidStoreIntParam(last_issued_unix_ms);
	params[3] = UidStoreIntParam(pool_size);
	UidStoreOursParams(params, 4, token, holder);
	r = UidConnExec(psprintf("UPDATE %s AS l SET renewed_at = n.now,"
							 " expires_at = n.now OPERATOR(pg_catalog.+) $2::pg_catalog.interval,"
							 " last_issued_ms = GREATEST(l.last_issued_ms, $3::pg_catalog.int8)"
							 " FROM (SELECT pg_catalog.clock_timestamp() AS now) AS n"
							 " WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4%s"
							 " RETURNING n.now, l.expires_at,"
							 " (SELECT pg_catalog.count(*) FROM %s AS u WHERE u.released_at IS NULL"
							 "  AND u.expires_at OPERATOR(pg_catalog.>) n.now"
							 "  AND u.worker_id OPERATOR(pg_catalog.<) $4::pg_catalog.int4)",
							 store_qtable, UidStoreOursSql(5), store_qtable), 8, params);
	memset(lease, 0, sizeof(UidStoreLease));
	lease->found = r->nrows == 1;
	UidStoreTenureRenewed(worker_id, token, lease);
	if (!lease->found)
		return;
	lease->token = token;
	lease->store_now = UidStoreTime(r, 0, 0, "clock_timestamp()", true);
	lease->expires_at = UidStoreTime(r, 0, 1, "expires_at", true);
	UidStoreCheckLease(lease);
	lease->leased = (int) UidStoreInt(r, 0, 2, 0, pool_size, "leased worker ids");
}

/* Marks our row released (if it is ours), with a bound of what we issued. */
void
UidStoreRelease(int worker_id, int64 token, const UidStoreHolder *holder,
				int64 last_issued_unix_ms)
{
	const char *params[6];

	params[0] = UidStoreIntParam(worker_id);
	params[1] = UidStoreIntParam(last_issued_unix_ms);
	UidStoreOursParams(params, 2, token, holder);
	(void) UidConnExec(psprintf("UPDATE %s AS l SET released_at = pg_catalog.clock_timestamp(),"
								" last_issued_ms = GREATEST(l.last_issued_ms, $2::pg_catalog.int8)"
								" WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4%s",
								store_qtable, UidStoreOursSql(3)), 6, params);
	UidStoreTenureReleased(worker_id, token);
}

/*
 * Remote: the advisory locks of worker ids that this server session holds
 * must be ours alone, own_worker_id's (or none, -1).  A lock on another id
 * means the session is shared with another generator: a pooler.
 */
void
UidStoreCheckSessionLocks(int own_worker_id)
{
	const char *params[2];
	UidConnRows *r;
	int64		others;

	if (!UidConnRemote())
		return;
	params[0] = uid_lease_schema;
	params[1] = UidStoreIntParam(own_worker_id);
	r = UidConnExec("SELECT pg_catalog.count(*) FROM pg_catalog.pg_locks AS k"
					" WHERE k.locktype OPERATOR(pg_catalog.=) 'advisory'::pg_catalog.text AND k.granted"
					" AND k.pid OPERATOR(pg_catalog.=) pg_catalog.pg_backend_pid()"
					" AND k.classid OPERATOR(pg_catalog.=) pg_catalog.hashtext($1::pg_catalog.text)::pg_catalog.oid"
					" AND k.objsubid OPERATOR(pg_catalog.=) 2::pg_catalog.int2"
					" AND k.objid OPERATOR(pg_catalog.<>) $2::pg_catalog.int4::pg_catalog.oid",
					2, params);
	others = UidStoreInt(r, 0, 0, 0, UID_MAX_WORKER + 1, "advisory locks of other worker ids");
	if (others > 0)
		UidStoreRefusePooled(psprintf("its server session holds the advisory locks of %lld other worker ids",
									  (long long) others));
}

/* ---------------------------------------------------------------------------
 * Durability: a lease write is acted on once the store's standbys have it
 * ------------------------------------------------------------------------- */

/*
 * How far the standbys that could take over from the store are behind
 * position $1 (NULL: the store's WAL flush position now, which is past the
 * commit of every transaction this session ended, synchronous_commit being
 * on): the synchronous ones if it has any, else every physical standby, both
 * those streaming from it (physical WAL senders: a logical one is attached
 * to a database) and those away, which still hold a physical replication
 * slot there (its restart_lsn is as far as that standby has confirmed).  A
 * WAL sender that reports no flush position (a client such as
 * pg_receivewal, or a standby starting up) is not one.  Returns the
 * position, the standbys looked at, those behind, and those whose position
 * the store role may not see (it needs pg_read_all_stats).
 */
#define UID_SQL_STANDBYS_BEHIND \
	"WITH w AS (SELECT COALESCE($1::pg_catalog.pg_lsn, pg_catalog.pg_current_wal_flush_lsn()) AS lsn," \
	"  pg_catalog.pg_has_role(CURRENT_USER, 'pg_read_all_stats'::pg_catalog.name, 'USAGE'::pg_catalog.text) AS sees)," \
	" s AS (SELECT 1 AS one, r.sync_state, r.flush_lsn AS pos FROM w, pg_catalog.pg_stat_replication AS r" \
	"   JOIN pg_catalog.pg_stat_activity AS a ON a.pid OPERATOR(pg_catalog.=) r.pid" \
	"  WHERE a.datid IS NULL AND (NOT w.sees OR (r.flush_lsn IS NOT NULL" \
	"   AND r.state OPERATOR(pg_catalog.<>) 'backup'::pg_catalog.text))" \
	"  UNION ALL SELECT 1, NULL, p.restart_lsn FROM pg_catalog.pg_replication_slots AS p" \
	"  WHERE p.slot_type OPERATOR(pg_catalog.=) 'physical'::pg_catalog.text AND NOT p.active" \
	"  AND p.restart_lsn IS NOT NULL)," \
	" c AS (SELECT * FROM s WHERE NOT EXISTS (SELECT 1 FROM s AS y" \
	"   WHERE y.sync_state OPERATOR(pg_catalog.=) ANY ('{sync,quorum}'::pg_catalog.text[]))" \
	"  OR s.sync_state OPERATOR(pg_catalog.=) ANY ('{sync,quorum}'::pg_catalog.text[]))" \
	" SELECT w.lsn, pg_catalog.count(c.one)," \
	" pg_catalog.count(c.one) FILTER (WHERE c.pos OPERATOR(pg_catalog.<) w.lsn)," \
	" pg_catalog.count(c.one) FILTER (WHERE c.pos IS NULL)" \
	" FROM w LEFT JOIN c ON true GROUP BY w.lsn"

/*
 * One look at the standbys: true if none that matters is behind *lsn (the
 * first look sets it); ERROR if their positions cannot be seen.  *behind,
 * *total for the message.
 */
static bool
UidStoreStandbysHave(const char **lsn, int64 *behind, int64 *total)
{
	const char *params[1] = {*lsn};
	UidConnRows *r;
	int64		hidden;

	UidStoreBegin();
	r = UidConnExec(UID_SQL_STANDBYS_BEHIND, 1, params);
	*lsn = pstrdup(UidStoreText(r, 0, 0, "pg_current_wal_flush_lsn()"));
	*total = UidStoreInt(r, 0, 1, 0, INT_MAX, "standbys");
	*behind = UidStoreInt(r, 0, 2, 0, INT_MAX, "standbys behind");
	hidden = UidStoreInt(r, 0, 3, 0, INT_MAX, "standbys not visible");
	UidStoreCommit();
	if (hidden > 0)
	{
		ereport(ERROR,
				(errcode(ERRCODE_UID_NO_WORKER_ID),
				 UidLeaseFailureContext(UID_FAIL_NOT_DURABLE),
				 errmsg("the uid lease store has %lld standbys whose replay position the lease role may not see",
						(long long) hidden),
				 errhint("Grant pg_monitor (or pg_read_all_stats) to the lease role in the store, so that a lease "
						 "is used only once the standbys have it; or set uid.lease_wait_for_standbys = off "
						 "to accept that a failover of the store can hand a worker id out twice.")));
	}
	return *behind == 0;
}

/*
 * After a committed acquisition or renewal (remote stores): waits until the
 * standbys that could take over from the store have flushed it, polling
 * with a growing pause, at most as long as one statement may take; ERROR
 * (UID_FAIL_NOT_DURABLE) if they do not.  A lease write that a failover
 * of the store could lose is thus never acted on.  A local store moves
 * with this server itself and is not waited for.
 */
void
UidStoreWaitDurable(void)
{
	const char *lsn = NULL;
	int64		behind = 0;
	int64		total = 0;
	long		pause_ms = 1;
	TimestampTz deadline;

	if (!UidConnRemote() || !uid_lease_wait_for_standbys)
		return;
	deadline = GetCurrentTimestamp() + (TimestampTz) Max(uid_lease_renew_interval_ms, 1000) * 1000;
	while (!UidStoreStandbysHave(&lsn, &behind, &total))
	{
		if (GetCurrentTimestamp() >= deadline)
		{
			ereport(ERROR,
					(errcode(ERRCODE_UID_NO_WORKER_ID),
					 UidLeaseFailureContext(UID_FAIL_NOT_DURABLE),
					 errmsg("%lld of the %lld standbys of the uid lease store have not confirmed the lease write at %s",
							(long long) behind, (long long) total, lsn),
					 errhint("A lease write that a failover of the store could lose is not acted on. "
							 "Check the store's replication (pg_stat_replication).")));
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, pause_ms,
						 UidWaitStoreStandbys());
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (ShutdownRequestPending)
			ereport(ERROR,
					(errcode(ERRCODE_ADMIN_SHUTDOWN),
					 errmsg("waiting for the standbys of the uid lease store: interrupted, the uid lease worker is shutting down")));
		pause_ms = Min(pause_ms * 2, 50);
	}
}

/* ---------------------------------------------------------------------------
 * Tenure ledger: written in the transaction of each lease write, so that a
 * tenure is confirmed by the store's standbys with the lease it records
 * ------------------------------------------------------------------------- */

/* Unix ms of a timestamptz column, as SQL: the same rounding as the floor of UidStoreTake. */
#define UID_SQL_UNIX_MS(col) \
	"pg_catalog.floor(pg_catalog.date_part('epoch'::pg_catalog.text, " col ") OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8"

/* When the ledger was last pruned (this worker's clock, Unix ms); 0: not yet. */
static int64 store_tenure_pruned_unix_ms = 0;

/* When the ledger was last counted for uid_lease_status(), and how often. */
static int64 store_tenure_counted_unix_ms = 0;
#define UID_TENURE_COUNT_EVERY_MS	10000

/*
 * The ledger's state for uid_lease_status(): its tenures, and the pairs of
 * tenures of one worker id whose (non-empty) windows overlap, as
 * uid_tenure_overlaps() finds them (a store needs no uid to be counted).
 */
static void
UidStoreTenureCount(UidStoreLease *lease)
{
	UidConnRows *r = UidConnExec(psprintf("SELECT (SELECT pg_catalog.count(*) FROM %s),"
										  " (SELECT pg_catalog.count(*) FROM %s AS a JOIN %s AS b"
										  "  ON b.worker_id OPERATOR(pg_catalog.=) a.worker_id"
										  "  AND (a.first_ms OPERATOR(pg_catalog.<) b.first_ms"
										  "   OR (a.first_ms OPERATOR(pg_catalog.=) b.first_ms"
										  "    AND a.token OPERATOR(pg_catalog.<) b.token))"
										  "  AND b.first_ms OPERATOR(pg_catalog.<=) a.last_ms"
										  "  WHERE a.first_ms OPERATOR(pg_catalog.<=) a.last_ms"
										  "  AND b.first_ms OPERATOR(pg_catalog.<=) b.last_ms)",
										  store_qtenure, store_qtenure, store_qtenure), 0, NULL);

	lease->tenures = UidStoreInt(r, 0, 0, 0, PG_INT64_MAX, "tenures");
	lease->tenure_overlaps = UidStoreInt(r, 0, 1, 0, PG_INT64_MAX, "overlapping tenures");
}

/*
 * A new tenure, after UidStoreTake took worker_id: the open tenures of that
 * id under other tokens end (their lease expired: their last millisecond is
 * the floor this acquisition inherited), and ours begins one millisecond
 * after our floor.  The floor is raised first to the acquisition's store
 * time minus uid.lease_max_clock_skew, so that the window's start is a
 * bound the generator keeps, whatever its clock does afterwards.
 */
static void
UidStoreTenureOpen(int worker_id, int64 token, UidStoreLease *lease)
{
	const char *params[5];
	int64		inherited = lease->prev_last_issued_unix_ms;
	int64		start_floor = UidTimestamptzToUnixMs(lease->acquired_at) - uid_lease_max_clock_skew_ms - 1;

	lease->prev_last_issued_unix_ms = Max(inherited, start_floor);
	if (!store_ledger)
		return;
	params[0] = UidStoreIntParam(worker_id);
	params[1] = UidStoreIntParam(token);
	params[2] = UidStoreIntParam(inherited);
	params[3] = UidStoreIntParam(lease->prev_last_issued_unix_ms + 1);
	params[4] = UidStoreIntParam(uid_lease_max_clock_skew_ms);
	(void) UidConnExec(psprintf("UPDATE %s AS t SET ended_at = pg_catalog.clock_timestamp(),"
								" ended_how = 'expired'::pg_catalog.text,"
								" last_ms = GREATEST(t.last_ms, $3::pg_catalog.int8)"
								" WHERE t.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
								" AND t.token OPERATOR(pg_catalog.<>) $2::pg_catalog.int8"
								" AND t.ended_at IS NULL", store_qtenure), 3, params);
	(void) UidConnExec(psprintf("INSERT INTO %s (worker_id, token, system_identifier, timeline, host, port,"
								" started_at, first_ms, last_ms)"
								" SELECT l.worker_id, l.token, l.system_identifier, l.timeline, l.host, l.port,"
								" l.acquired_at, $4::pg_catalog.int8, "
								UID_SQL_UNIX_MS("l.expires_at") " OPERATOR(pg_catalog.+) $5::pg_catalog.int8"
								" FROM %s AS l WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
								" AND l.token OPERATOR(pg_catalog.=) $2::pg_catalog.int8"
								" AND $3::pg_catalog.int8 IS NOT NULL",
								store_qtenure, store_qtable), 5, params);
}

/*
 * After a renewal: a renewed tenure's bound moves to the new expiry plus
 * uid.lease_max_clock_skew (a tenure the ledger lacks, one begun under
 * uid 1.2's library before the ledger existed, is recorded from its lease
 * row, from the acquisition's time minus the skew); a lease found no longer
 * ours ends the tenure: lost (the row holds another holder) or failover
 * (the store has no row for the id any more).  Prunes ended tenures older
 * than uid.lease_tenure_retention, at most once per retention or hour.
 */
static void
UidStoreTenureRenewed(int worker_id, int64 token, UidStoreLease *lease)
{
	const char *params[3];
	bool		found = lease->found;
	int64		now_ms = UidClockNowUnixMs();
	int64		every_ms = Min((int64) uid_lease_tenure_retention_s * 1000, (int64) 3600 * 1000);

	lease->tenures = -1;
	lease->tenure_overlaps = -1;
	if (!store_ledger)
		return;

	params[0] = UidStoreIntParam(worker_id);
	params[1] = UidStoreIntParam(token);
	params[2] = UidStoreIntParam(uid_lease_max_clock_skew_ms);
	if (found)
		(void) UidConnExec(psprintf("INSERT INTO %s AS t (worker_id, token, system_identifier, timeline, host, port,"
									" started_at, first_ms, last_ms)"
									" SELECT l.worker_id, l.token, l.system_identifier, l.timeline, l.host, l.port,"
									" l.acquired_at, " UID_SQL_UNIX_MS("l.acquired_at")
									" OPERATOR(pg_catalog.-) $3::pg_catalog.int8, "
									UID_SQL_UNIX_MS("l.expires_at") " OPERATOR(pg_catalog.+) $3::pg_catalog.int8"
									" FROM %s AS l WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
									" AND l.token OPERATOR(pg_catalog.=) $2::pg_catalog.int8"
									" ON CONFLICT (worker_id, token) DO UPDATE"
									" SET last_ms = GREATEST(t.last_ms, EXCLUDED.last_ms) WHERE t.ended_at IS NULL",
									store_qtenure, store_qtable), 3, params);
	else
		(void) UidConnExec(psprintf("UPDATE %s AS t SET ended_at = pg_catalog.clock_timestamp(),"
									" ended_how = CASE WHEN EXISTS (SELECT 1 FROM %s AS l"
									"  WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4)"
									"  THEN 'lost'::pg_catalog.text ELSE 'failover'::pg_catalog.text END"
									" WHERE t.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
									" AND t.token OPERATOR(pg_catalog.=) $2::pg_catalog.int8"
									" AND t.ended_at IS NULL", store_qtenure, store_qtable), 2, params);

	if (found && now_ms - store_tenure_counted_unix_ms >= UID_TENURE_COUNT_EVERY_MS)
	{
		UidStoreTenureCount(lease);
		store_tenure_counted_unix_ms = now_ms;
	}

	if (every_ms <= 0 || now_ms - store_tenure_pruned_unix_ms < every_ms)
		return;
	params[0] = psprintf("%d seconds", uid_lease_tenure_retention_s);
	(void) UidConnExec(psprintf("DELETE FROM %s AS t WHERE t.ended_at OPERATOR(pg_catalog.<)"
								" pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) $1::pg_catalog.interval",
								store_qtenure), 1, params);
	store_tenure_pruned_unix_ms = now_ms;
}

/*
 * After a clean release: the tenure ends, its last millisecond exact (the
 * bound the release wrote in the lease row, which the next holder starts
 * after).
 */
static void
UidStoreTenureReleased(int worker_id, int64 token)
{
	const char *params[2];

	if (!store_ledger)
		return;

	params[0] = UidStoreIntParam(worker_id);
	params[1] = UidStoreIntParam(token);
	(void) UidConnExec(psprintf("UPDATE %s AS t SET ended_at = l.released_at,"
								" ended_how = 'released'::pg_catalog.text, last_ms = l.last_issued_ms"
								" FROM %s AS l WHERE l.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4"
								" AND l.token OPERATOR(pg_catalog.=) $2::pg_catalog.int8"
								" AND l.released_at IS NOT NULL"
								" AND t.worker_id OPERATOR(pg_catalog.=) l.worker_id"
								" AND t.token OPERATOR(pg_catalog.=) l.token AND t.ended_at IS NULL",
								store_qtenure, store_qtable), 2, params);
}

/*
 * The statement that reads the ledger of schema (tenure.c): every tenure,
 * or those of worker id $1 when by_worker, and of those only the ones whose
 * window contains the Unix millisecond $2 when at_ms (by the primary key's
 * index on the worker id).
 */
char *
UidStoreTenureSelectSql(const char *schema, bool by_worker, bool at_ms)
{
	return psprintf("SELECT t.worker_id, t.token, t.system_identifier, t.timeline, t.host, t.port,"
					" t.started_at, t.first_ms, t.last_ms, t.ended_at, t.ended_how"
					" FROM %s AS t%s%s"
					" ORDER BY t.worker_id, t.first_ms, t.token", UidStoreQualifiedTenure(schema),
					by_worker ? " WHERE t.worker_id OPERATOR(pg_catalog.=) $1::pg_catalog.int4" : "",
					by_worker && at_ms ? " AND t.first_ms OPERATOR(pg_catalog.<=) $2::pg_catalog.int8"
					" AND t.last_ms OPERATOR(pg_catalog.>=) $2::pg_catalog.int8" : "");
}

/* ---------------------------------------------------------------------------
 * A local lease table must not be replicated
 * ------------------------------------------------------------------------- */

/*
 * A publication that includes a table of the lease schema ($1): its first
 * table, the publication, and how the publication takes it in.
 */
#define UID_SQL_PUBLISHED \
	"SELECT pt.tablename, pt.pubname," \
	" CASE WHEN p.puballtables THEN 'FOR ALL TABLES'" \
	"  WHEN EXISTS (SELECT FROM pg_catalog.pg_publication_namespace pn" \
	"   JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) pn.pnnspid" \
	"   WHERE pn.pnpubid OPERATOR(pg_catalog.=) p.oid AND n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name)" \
	"  THEN 'FOR TABLES IN SCHEMA' ELSE 'FOR TABLE' END" \
	" FROM pg_catalog.pg_publication_tables pt" \
	" JOIN pg_catalog.pg_publication p ON p.pubname OPERATOR(pg_catalog.=) pt.pubname" \
	" WHERE pt.schemaname OPERATOR(pg_catalog.=) $1::pg_catalog.name" \
	" ORDER BY pt.pubname, pt.tablename LIMIT 1"

/*
 * A subscription of this database that writes into a table of the lease
 * schema ($1): the table and the subscription.
 */
#define UID_SQL_SUBSCRIBED \
	"SELECT c.relname, s.subname" \
	" FROM pg_catalog.pg_subscription_rel sr" \
	" JOIN pg_catalog.pg_subscription s ON s.oid OPERATOR(pg_catalog.=) sr.srsubid" \
	" JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) sr.srrelid" \
	" JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace" \
	" WHERE n.nspname OPERATOR(pg_catalog.=) $1::pg_catalog.name" \
	" ORDER BY s.subname, c.relname LIMIT 1"

/* How to leave the lease schema out of replication (the hint of UID_FAIL_REPLICATED). */
char *
UidStoreReplicatedHint(void)
{
	const char *qschema = quote_identifier(uid_lease_schema);

	return psprintf("Leave schema %s out of logical replication: publish the tables or schemas to replicate "
					"(FOR TABLE ..., FOR TABLES IN SCHEMA ...) instead of FOR ALL TABLES" UID_PUBLICATION_EXCEPT_HINT
					", and drop %s from the publications of subscriptions. Each server needs a lease table "
					"of its own, or all of them one shared store (uid.lease_conninfo).",
					qschema UID_PUBLICATION_EXCEPT_HINT_ARGS(qschema), qschema);
}

/* Raises UID_FAIL_REPLICATED: the lease table is not this server's alone. */
UidNoReturn static void
UidStoreRefuseReplicated(const char *message)
{
	ereport(ERROR,
			(errcode(ERRCODE_UID_NO_WORKER_ID),
			 UidLeaseFailureContext(UID_FAIL_REPLICATED),
			 errmsg("%s", message),
			 errhint("%s", UidStoreReplicatedHint())));
}

/*
 * In a local store, before each acquisition and renewal: refuses a lease
 * table that logical replication copies to other servers (a publication
 * includes it) or writes into (a subscription of this database includes
 * it).  Rows of one server's lease table would overwrite another's, and
 * two servers would hold one worker id, each by its own row.  Raises
 * UID_FAIL_REPLICATED; the worker then stops issuing at once.
 */
void
UidStoreCheckUnreplicated(void)
{
	const char *params[1] = {uid_lease_schema};
	const char *qschema = quote_identifier(uid_lease_schema);
	UidConnRows *r;

	if (UidConnRemote())
		return;
	r = UidConnExec(UID_SQL_PUBLISHED, 1, params);
	if (r->nrows > 0)
		UidStoreRefuseReplicated(psprintf("the lease table %s.%s is in publication \"%s\" (%s), so other servers would take over its rows",
										  qschema, quote_identifier(UidConnValue(r, 0, 0)),
										  UidConnValue(r, 0, 1), UidConnValue(r, 0, 2)));
	r = UidConnExec(UID_SQL_SUBSCRIBED, 1, params);
	if (r->nrows > 0)
		UidStoreRefuseReplicated(psprintf("the lease table %s.%s receives the rows of another server through subscription \"%s\"",
										  qschema, quote_identifier(UidConnValue(r, 0, 0)),
										  UidConnValue(r, 0, 1)));
}
