/*
 * lease_settings.h
 *		The settings of the lease subsystem, uid.lease_* (lease_settings.c),
 *		and the combinations of settings that cannot work.
 */
#ifndef UID_LEASE_SETTINGS_H
#define UID_LEASE_SETTINGS_H

#include "postgres.h"

extern void UidLeaseDefineSettings(void);

extern char *uid_lease_database;
extern char *uid_lease_conninfo;
extern char *uid_lease_schema;
extern int	uid_lease_ttl_s;
extern int	uid_lease_renew_interval_ms;
extern int	uid_lease_safety_margin_ms;
extern int	uid_lease_max_clock_skew_ms;
extern int	uid_lease_pool_size;
extern bool uid_lease_wait_for_standbys;
extern int	uid_lease_tenure_retention_s;

extern const char *UidLeaseConfigProblem(const char **hint);
extern bool UidLeaseRegistersStatic(void);
extern bool UidLeaseWorkerMode(void);

#endif							/* UID_LEASE_SETTINGS_H */
