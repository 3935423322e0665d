/*
 * lease_store.h
 *		The lease store protocol (lease_store.c): one function per statement
 *		the lease worker runs in the store, and the lease table's definition.
 */
#ifndef UID_LEASE_STORE_H
#define UID_LEASE_STORE_H

#include "postgres.h"

#include "utils/timestamp.h"

/* The session with the store, as lease_store.c found it when opening it. */
typedef struct UidStoreSession
{
	bool		new_session;	/* opened just now: advisory locks are gone */
	bool		is_this_server; /* uid.lease_conninfo points at this server */
	char		database[NAMEDATALEN];
	char		role[NAMEDATALEN];
} UidStoreSession;

/* What an acquisition or renewal statement returned. */
typedef struct UidStoreLease
{
	bool		found;			/* false: the row is not (or no longer) ours */
	int64		token;
	int64		prev_last_issued_unix_ms;	/* acquisition only */
	TimestampTz store_now;		/* the store's clock when it set the expiry */
	TimestampTz acquired_at;
	TimestampTz expires_at;
	int			leased;			/* renewal: live leases below the pool size */
	int64		tenures;		/* renewal: tenures in the ledger; -1 not counted this time */
	int64		tenure_overlaps;	/* renewal: pairs of tenures that overlap */
} UidStoreLease;

/* Who takes a lease: recorded in the row. */
typedef struct UidStoreHolder
{
	uint64		system_identifier;
	int			timeline;
	char		host[256];
	int			port;
	int			pid;
} UidStoreHolder;

/* A free worker id, and the last issued time its row records. */
typedef struct UidStoreFreeId
{
	int			worker_id;
	int64		last_issued_unix_ms;
} UidStoreFreeId;

#define UID_STORE_MAX_CANDIDATES	64

extern void UidStoreInit(bool remote);
extern bool UidStoreRemote(void);
extern void UidStoreOpen(UidStoreSession *session);
extern void UidStoreClose(void);
extern void UidStoreBegin(void);
extern void UidStoreCommit(void);
extern void UidStoreAbortAfterError(void);
extern void UidStoreFinalRelease(void);
extern TimestampTz UidStoreClock(void);
extern int	UidStoreFreeIds(int first, int last, UidStoreFreeId *ids, int max_ids);
extern char *UidStoreDescribeHolder(int worker_id);
extern int64 UidStoreLastIssuedMax(TimestampTz store_now);
extern bool UidStoreTryLock(int worker_id);
extern void UidStoreUnlock(int worker_id);
extern void UidStoreTake(int worker_id, const UidStoreHolder *holder,
						 UidStoreLease *lease);
extern int	UidStoreCountLeased(int pool_size);
extern void UidStoreRenew(int worker_id, int64 token, const UidStoreHolder *holder,
						  int64 last_issued_unix_ms, int pool_size, UidStoreLease *lease);
extern void UidStoreRelease(int worker_id, int64 token, const UidStoreHolder *holder,
							int64 last_issued_unix_ms);
extern void UidStoreCheckSessionLocks(int own_worker_id);
extern void UidStoreWaitDurable(void);
extern void UidStoreCheckUnreplicated(void);
extern char *UidStoreReplicatedHint(void);
extern char *UidStoreTableSql(const char *schema, const char *owner);
extern char *UidStoreTenureSelectSql(const char *schema, bool by_worker, bool at_ms);

#endif							/* UID_LEASE_STORE_H */
