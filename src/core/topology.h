/*
 * topology.h
 *		Whether this server applies another writer's changes (topology.c):
 *		then the default worker id would be the same on every writer.
 */
#ifndef UID_TOPOLOGY_H
#define UID_TOPOLOGY_H

#include "postgres.h"

extern bool UidLibraryPreloaded(const char *name);
extern const char *UidReplicationLibraryPreloaded(void);
extern char *UidOriginNoneSubscription(void);
extern char *UidOtherWriter(void);

/*
 * This backend's check of the unset worker id still holds (no invalidation
 * of pg_subscription since): the hot path of uid_next() reads only this.
 */
extern bool uid_topology_checked;
/* worker_id_chosen: uid.worker_id is 'lease' or was set in the configuration */
extern void UidTopologyCheck(bool worker_id_chosen);
extern const char *UidTopologyProblem(bool worker_id_chosen);

#define UID_TOPOLOGY_HINT \
	"Give each node its own uid.worker_id, set in that node's own configuration, " \
	"or set uid.worker_id = 'lease' with one uid.lease_conninfo shared by every node."

#endif							/* UID_TOPOLOGY_H */
