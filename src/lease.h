/*
 * lease.h
 *		Internal interface between the lease worker (lease.c) and its store
 *		connection (lease_store.c).
 */
#ifndef UID_LEASE_H
#define UID_LEASE_H

#include "uid.h"

/* settings (lease.c) */
extern char *uid_lease_database;
extern char *uid_lease_conninfo;
extern char *uid_lease_schema;
extern int	uid_lease_ttl_s;
extern int	uid_lease_renew_interval_ms;
extern int	uid_lease_safety_margin_ms;
extern int	uid_lease_max_clock_skew_ms;
extern int	uid_lease_pool_size;

/* rows of a store query, as text (NULL for SQL NULL), row-major */
typedef struct UidStoreRows
{
	int			nrows;
	int			ncols;
	char	  **vals;
} UidStoreRows;

#define UidStoreValue(r, row, col) ((r)->vals[(row) * (r)->ncols + (col)])

extern void UidStoreResetMemory(void);
extern void UidStoreOpen(void);
extern bool UidStoreTakeNewSession(void);
extern void UidStoreClose(void);
extern void UidStoreBegin(void);
extern UidStoreRows *UidStoreExec(const char *sql, int nparams, const char *const *params);
extern void UidStoreCommit(void);
extern void UidStoreAbortAfterError(void);
extern bool UidStoreRemote(void);

#endif							/* UID_LEASE_H */
