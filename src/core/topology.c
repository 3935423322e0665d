/*
 * topology.c
 *		Whether this server applies changes that another writer made: a
 *		subscription with origin = none (two-way logical replication), or
 *		pglogical or Spock in shared_preload_libraries.  Each writer then
 *		issues IDs into the same tables, and the default worker id (0, not
 *		set in the configuration) would be the same on all of them.
 *
 * What can be known at start-up (the libraries) is a configuration problem
 * of lease_settings.c.  Subscriptions are read from pg_subscription (a
 * shared catalog) by each backend at its first uid_next(), and again after
 * any invalidation of that catalog's syscache: a subscription created or
 * altered later, in any database, is seen by the next transaction of every
 * backend.  The lease worker asks UidOtherWriter() at every acquisition and
 * renewal when its lease table is on this server.
 *
 * No shared state: uid_topology_checked and the cached problem are this
 * backend's.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_subscription.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "compat.h"
#include "core/topology.h"
#include "ids.h"

bool		uid_topology_checked = false;

/* what this backend's last check found, in TopMemoryContext, or NULL */
static char *topology_problem = NULL;
static bool topology_callback_registered = false;
/* invalidations of pg_subscription seen by this backend */
static uint64 topology_invalidations = 0;

/* Whether a library of that name is in shared_preload_libraries. */
bool
UidLibraryPreloaded(const char *name)
{
	char	   *libs = pstrdup(shared_preload_libraries_string ? shared_preload_libraries_string : "");
	char	   *with_suffix = psprintf("%s%s", name, DLSUFFIX);
	List	   *names = NIL;
	ListCell   *lc;
	bool		found = false;

	if (!SplitDirectoriesString(libs, ',', &names))
		return false;
	foreach(lc, names)
	{
		const char *lib = lfirst(lc);
		const char *base = strrchr(lib, '/');

		base = base ? base + 1 : lib;
		if (strcmp(base, name) == 0 || strcmp(base, with_suffix) == 0)
			found = true;
	}
	list_free_deep(names);
	pfree(libs);
	pfree(with_suffix);
	return found;
}

/*
 * The replication library in shared_preload_libraries that applies other
 * nodes' changes to this one (pglogical, Spock), or NULL.
 */
const char *
UidReplicationLibraryPreloaded(void)
{
	static const char *const libraries[] = {"pglogical", "spock"};

	for (int i = 0; i < (int) lengthof(libraries); i++)
		if (UidLibraryPreloaded(libraries[i]))
			return libraries[i];
	return NULL;
}

/*
 * The name of a subscription, in any database of this server, that applies
 * only changes made on its publisher (origin = none), enabled or not; NULL
 * if there is none, or the server has no such option (before 16).  Needs a
 * transaction.
 */
char *
UidOriginNoneSubscription(void)
{
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *found = NULL;

	if (UID_SUBSCRIPTION_ORIGIN_ATTNUM == InvalidAttrNumber)
		return NULL;
	rel = table_open(SubscriptionRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (found == NULL && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		origin = heap_getattr(tuple, UID_SUBSCRIPTION_ORIGIN_ATTNUM,
										  RelationGetDescr(rel), &isnull);

		if (!isnull && pg_strcasecmp(TextDatumGetCString(origin), "none") == 0)
			found = pstrdup(NameStr(((Form_pg_subscription) GETSTRUCT(tuple))->subname));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * What makes this server apply another writer's changes, as a phrase for a
 * message ("subscription \"s\" has origin = none"), or NULL.  Needs a
 * transaction.
 */
char *
UidOtherWriter(void)
{
	const char *library = UidReplicationLibraryPreloaded();
	char	   *subscription;

	if (library != NULL)
		return psprintf("%s is in shared_preload_libraries", library);
	subscription = UidOriginNoneSubscription();
	if (subscription != NULL)
		return psprintf("subscription \"%s\" applies another server's changes (origin = none)",
						subscription);
	return NULL;
}

/* A subscription was created, altered or dropped: check again. */
static void
UidTopologyInvalidate(UID_SYSCACHE_CALLBACK_PARAMS)
{
	topology_invalidations++;
	uid_topology_checked = false;
}

/*
 * This backend's finding for the static worker id: the detail of UID02 if
 * uid.worker_id was left unset on a server that applies another writer's
 * changes, else NULL.  Cached until pg_subscription changes.
 */
const char *
UidTopologyProblem(bool worker_id_chosen)
{
	char	   *subscription;
	uint64		seen = topology_invalidations;

	if (uid_topology_checked)
		return topology_problem;
	if (worker_id_chosen)
	{
		/* a chosen worker id, or leases (whose worker checks for itself) */
		uid_topology_checked = true;
		return NULL;
	}
	if (!topology_callback_registered)
	{
		CacheRegisterSyscacheCallback(SUBSCRIPTIONOID, UidTopologyInvalidate, (Datum) 0);
		topology_callback_registered = true;
	}
	if (topology_problem != NULL)
		pfree(topology_problem);
	topology_problem = NULL;
	subscription = UidOriginNoneSubscription();
	if (subscription != NULL)
		topology_problem = MemoryContextStrdup(TopMemoryContext,
											   psprintf("Subscription \"%s\" applies the changes of another server (origin = none), "
														"and uid.worker_id is not set: both servers would issue IDs with worker id 0, "
														"the same IDs", subscription));
	/* an invalidation during the scan may have come after its snapshot */
	uid_topology_checked = (seen == topology_invalidations);
	return topology_problem;
}

/*
 * From uid_next() and its kind while uid_topology_checked is false: raises
 * UID02 if the worker id was left unset where another writer's changes are
 * applied.
 */
void
UidTopologyCheck(bool worker_id_chosen)
{
	const char *problem = UidTopologyProblem(worker_id_chosen);

	if (problem != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UID_NO_WORKER_ID),
				 errmsg("uid_next() has no worker id: this server applies another writer's changes and uid.worker_id is not set"),
				 errdetail("%s.", problem),
				 errhint(UID_TOPOLOGY_HINT)));
}
