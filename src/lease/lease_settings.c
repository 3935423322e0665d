/*
 * lease_settings.c
 *		The settings of the lease subsystem (uid.lease_*), their checks, and
 *		the combinations of settings that cannot work (UidLeaseConfigProblem).
 *		Every other lease file reads them; this file reads only the
 *		generator's uid.worker_id, what topology.c finds in
 *		shared_preload_libraries and which configured values were refused
 *		(refused_settings.c), so it sits below all of them.
 *
 * No shared state: each process has the values of its own configuration.
 */
#include "postgres.h"

#include <limits.h>

#include "libpq-fe.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "core/generator.h"
#include "lease/lease_settings.h"
#include "core/preload.h"
#include "core/refused_settings.h"
#include "core/topology.h"

/* settings */
char	   *uid_lease_database = NULL;
char	   *uid_lease_conninfo = NULL;
char	   *uid_lease_schema = NULL;
int			uid_lease_ttl_s = 900;
int			uid_lease_renew_interval_ms = 10000;
int			uid_lease_safety_margin_ms = 30000;
int			uid_lease_max_clock_skew_ms = 1000;
int			uid_lease_pool_size = UID_MAX_WORKER + 1;
bool		uid_lease_wait_for_standbys = true;
int			uid_lease_tenure_retention_s = 0;

/*
 * Whether uid.lease_conninfo was given at all, as its check hook saw while
 * shared_preload_libraries was processed (UidLeaseConfigProblem).  Which
 * configured values were refused is refused_settings.c's.
 */
static bool uid_lease_conninfo_given = false;

/* For the check hook of uid.lease_conninfo: can libpq parse it? */
static bool
UidLeaseConninfoParses(const char *conninfo, char **error)
{
	char	   *libpq_error = NULL;
	PQconninfoOption *options = PQconninfoParse(conninfo, &libpq_error);

	if (options == NULL)
	{
		*error = pstrdup(libpq_error ? pchomp(libpq_error) : "out of memory");
		if (libpq_error)
			PQfreemem(libpq_error);
		return false;
	}
	for (PQconninfoOption *o = options; o->keyword != NULL; o++)
		if (strcmp(o->keyword, "replication") == 0 && o->val != NULL && o->val[0] != '\0')
		{
			*error = pstrdup("a replication connection cannot hold leases");
			PQconninfoFree(options);
			return false;
		}
	PQconninfoFree(options);
	return true;
}

/* A database or schema name: not empty, and short enough not to be truncated. */
static bool
UidLeaseCheckName(const char *name, const char *value, GucSource source)
{
	if (value == NULL || value[0] == '\0' || strlen(value) >= NAMEDATALEN)
	{
		GUC_check_errdetail("%s must be a name of 1 to %d bytes.", name, NAMEDATALEN - 1);
		return false;
	}
	return true;
}

/* Check hook of uid.lease_database. */
static bool
UidLeaseCheckDatabase(char **newval, void **extra, GucSource source)
{
	if (!UidLeaseCheckName("uid.lease_database", *newval, source))
		return false;
	UidRefusalAccepted("uid.lease_database", source);
	return true;
}

/* Check hook of uid.lease_schema: a name, and not a system schema's. */
static bool
UidLeaseCheckSchema(char **newval, void **extra, GucSource source)
{
	if (!UidLeaseCheckName("uid.lease_schema", *newval, source))
		return false;
	if (strncmp(*newval, "pg_", 3) == 0)
	{
		GUC_check_errdetail("Schema names starting with \"pg_\" are reserved for the system.");
		return false;
	}
	UidRefusalAccepted("uid.lease_schema", source);
	return true;
}

/*
 * Check hook of uid.lease_conninfo: empty (the store is this server), or
 * a string libpq parses; notes that one was given (UidLeaseConfigProblem).
 */
static bool
UidLeaseCheckConninfo(char **newval, void **extra, GucSource source)
{
	char	   *error = NULL;

	if (*newval != NULL && (*newval)[0] != '\0')
	{
		if (UidSettingFromConfiguration(source))
			uid_lease_conninfo_given = true;
		if (!UidLeaseConninfoParses(*newval, &error))
		{
			GUC_check_errdetail("uid.lease_conninfo is not a valid libpq connection string: %s", error);
			return false;
		}
	}
	UidRefusalAccepted("uid.lease_conninfo", source);
	return true;
}

/*
 * Check hooks of the watched integer settings: their range is PostgreSQL's
 * to check; these only note a configured value taken (refused_settings.c).
 */
static bool
UidLeaseCheckPoolSize(int *newval, void **extra, GucSource source)
{
	UidRefusalAccepted("uid.lease_pool_size", source);
	return true;
}

static bool
UidLeaseCheckSafetyMargin(int *newval, void **extra, GucSource source)
{
	UidRefusalAccepted("uid.lease_safety_margin", source);
	return true;
}

static bool
UidLeaseCheckMaxClockSkew(int *newval, void **extra, GucSource source)
{
	UidRefusalAccepted("uid.lease_max_clock_skew", source);
	return true;
}

/*
 * Defines the uid.lease_* settings (_PG_init); docs/leases.md describes
 * each.  Watched for a refused configured value (refused_settings.c): those
 * whose default could lease another server's worker id, or hand one over
 * while its previous holder may still issue in the same millisecond (the
 * store, schema, pool, safety margin and clock skew).  The others' defaults
 * at worst wait longer or renew more often.
 */
void
UidLeaseDefineSettings(void)
{
	UidRefusalWatch("uid.lease_database", UID_REFUSAL_LEASE, false);
	DefineCustomStringVariable("uid.lease_database",
							   "Database of this server that holds the lease table when uid.lease_conninfo is empty.",
							   NULL,
							   &uid_lease_database, "postgres",
							   PGC_POSTMASTER, 0, UidLeaseCheckDatabase, NULL, NULL);
	UidRefusalWatchEnd();
	UidRefusalWatch("uid.lease_conninfo", UID_REFUSAL_LEASE, true);
	DefineCustomStringVariable("uid.lease_conninfo",
							   "libpq connection string of a coordination database shared by many servers.",
							   "Empty: the lease table is in uid.lease_database of this server.",
							   &uid_lease_conninfo, "",
							   PGC_POSTMASTER, GUC_SUPERUSER_ONLY, UidLeaseCheckConninfo, NULL, NULL);
	UidRefusalWatchEnd();
	UidRefusalWatch("uid.lease_schema", UID_REFUSAL_LEASE, false);
	DefineCustomStringVariable("uid.lease_schema",
							   "Schema of the lease table in the lease store.",
							   "Servers that share a worker id space must use the same store and schema.",
							   &uid_lease_schema, "uid_lease",
							   PGC_POSTMASTER, 0, UidLeaseCheckSchema, NULL, NULL);
	UidRefusalWatchEnd();
	DefineCustomIntVariable("uid.lease_ttl",
							"How long a lease lives without renewal.",
							"A crashed server's worker id is free again after this long.",
							&uid_lease_ttl_s, 900, 2, 7 * 24 * 3600,
							PGC_SIGHUP, GUC_UNIT_S, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_renew_interval",
							"How often the lease worker renews its lease.",
							NULL,
							&uid_lease_renew_interval_ms, 10000, 10, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
	UidRefusalWatch("uid.lease_safety_margin", UID_REFUSAL_LEASE, false);
	DefineCustomIntVariable("uid.lease_safety_margin",
							"How long before its lease expires a server that cannot renew stops issuing IDs.",
							"Must be more than twice uid.lease_max_clock_skew.",
							&uid_lease_safety_margin_ms, 30000, 0, 24 * 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, UidLeaseCheckSafetyMargin, NULL, NULL);
	UidRefusalWatchEnd();
	UidRefusalWatch("uid.lease_max_clock_skew", UID_REFUSAL_LEASE, false);
	DefineCustomIntVariable("uid.lease_max_clock_skew",
							"Largest difference between this server's clock and the lease store's that is accepted.",
							NULL,
							&uid_lease_max_clock_skew_ms, 1000, 0, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS, UidLeaseCheckMaxClockSkew, NULL, NULL);
	UidRefusalWatchEnd();
	UidRefusalWatch("uid.lease_pool_size", UID_REFUSAL_LEASE, false);
	DefineCustomIntVariable("uid.lease_pool_size",
							"Number of worker ids (0 .. pool size - 1) that leases are taken from.",
							NULL,
							&uid_lease_pool_size, UID_MAX_WORKER + 1, 1, UID_MAX_WORKER + 1,
							PGC_SIGHUP, 0, UidLeaseCheckPoolSize, NULL, NULL);
	UidRefusalWatchEnd();
	DefineCustomBoolVariable("uid.lease_wait_for_standbys",
							 "Act on a lease write only once the lease store's standbys have it.",
							 "Off accepts that a failover of an asynchronously replicated store can hand a worker id out twice.",
							 &uid_lease_wait_for_standbys, true,
							 PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("uid.lease_tenure_retention",
							"How long the tenure ledger keeps a tenure after it ended.",
							"0 keeps every tenure. uid_whence() and uid_audit() explain only IDs of tenures still kept.",
							&uid_lease_tenure_retention_s, 0, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_S, NULL, NULL, NULL);
}

/*
 * A numeric uid.worker_id with uid.lease_conninfo: the static id is
 * registered in the shared store, like a lease of that one id, and issued
 * only while the registration is held (docs/leases.md, "Registered static
 * worker ids").  A local store does not register: its table is copied with
 * the server, so two running copies would each find the id free.
 */
bool
UidLeaseRegistersStatic(void)
{
	return !uid_worker_id_lease && uid_worker_id_given && uid_lease_conninfo_given;
}

/* Whether a lease worker runs: lease mode, or a registered static id. */
bool
UidLeaseWorkerMode(void)
{
	return uid_worker_id_lease || UidLeaseRegistersStatic();
}

/*
 * Settings that cannot work together, as found at start-up: a message, or
 * NULL.  Then no worker id is issued at all (state config_error), rather
 * than a static id where a lease was meant, or a store nobody chose.
 */
const char *
UidLeaseConfigProblem(const char **hint)
{
	const UidRefusal *refused = UidRefusalFirst(UidLeaseWorkerMode());

	/*
	 * First: a refused uid.worker_id also leaves it "not set", and the
	 * checks below would blame that rather than the value refused.
	 */
	if (refused != NULL)
	{
		*hint = UidRefusalHint(refused);
		if (refused->unknown)
			return psprintf("%s in the configuration is no setting of uid: no worker id is issued",
							refused->name);
		if (!UidLeaseWorkerMode())
			return psprintf("the configured value of %s was refused: no worker id is issued",
							refused->name);
		return psprintf(uid_worker_id_lease ?
						"the configured value of %s was refused: no worker id is leased" :
						"the configured value of %s was refused: the static worker id is not registered, and not issued",
						refused->name);
	}
	if (!UidWorkerIdChosen() && uid_lease_conninfo_given)
	{
		*hint = "Set uid.worker_id = 'lease' to take worker ids from the lease store, "
			"or set it to this server's own number to register that id in the lease store.";
		return "uid.lease_conninfo is set, but uid.worker_id is not: no worker id is issued";
	}
	/*
	 * Every node of a Citus cluster may run uid_next() (docs/citus.md), so
	 * the default static worker id would be the same on all of them.
	 */
	if (!UidWorkerIdChosen() && UidLibraryPreloaded("citus"))
	{
		*hint = "Set uid.worker_id = 'lease' with one uid.lease_conninfo on every node of the Citus cluster, "
			"or give each node its own uid.worker_id.";
		return "Citus is loaded and uid.worker_id is not set, so every node would issue the same IDs: no worker id is issued";
	}
	/* pglogical and Spock apply other nodes' changes, which carry their IDs */
	if (!UidWorkerIdChosen() && UidReplicationLibraryPreloaded() != NULL)
	{
		*hint = UID_TOPOLOGY_HINT;
		return psprintf("%s is loaded and uid.worker_id is not set, so every node it replicates between "
						"would issue the same IDs: no worker id is issued",
						UidReplicationLibraryPreloaded());
	}
	*hint = NULL;
	return NULL;
}
