/*
 * lease.h
 *		Internal interface of the lease subsystem (uid.worker_id = 'lease'),
 *		split by process and protocol:
 *
 *	lease.c			shared state, the SQL functions and the no-worker-id
 *					error of uid_next(): what backends see.
 *	lease_settings.c	the uid.lease_* settings and their checks.
 *	lease_failure.c	the kind of a store failure, carried in the error.
 *	lease_worker.c	the background worker: acquire, renew, release.
 *	lease_store.c	the store protocol: one function per statement, the
 *					lease table's definition, checks on every value read.
 *	lease_conn.c	the session with the store: in-process (SPI) or libpq.
 *	tenure.c		uid_tenures(): the tenure ledger, read by a backend.
 *
 * docs/leases.md describes the protocol and its threat model.
 */
#ifndef UID_LEASE_H
#define UID_LEASE_H

#include "uid.h"

#include "utils/timestamp.h"

/* ---- settings (lease_settings.c) ---- */

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

/* ---- the lease's state, as uid_lease_status() shows it ---- */

typedef enum UidLeaseState
{
	UID_LEASE_STATIC,			/* uid.worker_id is a number: no lease */
	UID_LEASE_STARTING,			/* worker not yet through its first attempt */
	UID_LEASE_WAITING,			/* acquired; waiting to pass the previous holder's time */
	UID_LEASE_HELD,				/* generating */
	UID_LEASE_FAILING,			/* generating; the last renewal failed */
	UID_LEASE_EXPIRED,			/* renewals failed until the margin: stopped */
	UID_LEASE_LOST,				/* another fencing token in the store: stopped */
	UID_LEASE_NO_FREE_ID,		/* every id of the pool is leased */
	UID_LEASE_CLOCK_SKEW,		/* clock differs from the store's too much */
	UID_LEASE_STORE_ERROR,		/* could not acquire: store unreachable or failing */
	UID_LEASE_RELEASED,			/* uid_lease_release() */
	UID_LEASE_STOPPED,			/* the worker is not running */
	UID_LEASE_CONFIG_ERROR,		/* the settings cannot work: no ids at all */
	UID_LEASE_UNCONFIRMED,		/* acquired; the store's standbys have not confirmed it */
	UID_LEASE_STORE_POOLED,		/* the store connection is not one server session: refused */
	UID_LEASE_HELD_ELSEWHERE	/* registered static id: another live server holds it */
} UidLeaseState;

/*
 * What kind of failure last_error describes.  Everyone sees the kind; the
 * text itself (host names, socket paths, role names) only superusers and
 * members of pg_monitor (UidLeaseMayReadErrors).
 */
typedef enum UidLeaseFailure
{
	UID_FAIL_NONE,
	UID_FAIL_CONNECT,			/* no session with the store */
	UID_FAIL_STATEMENT,			/* a store statement failed */
	UID_FAIL_TABLE,				/* lease schema or table refused (owner) */
	UID_FAIL_VALUE,				/* the store returned a value out of range */
	UID_FAIL_CLOCK_SKEW,		/* store clock too far from ours */
	UID_FAIL_CONFIG,			/* settings that cannot work */
	UID_FAIL_NOT_DURABLE,		/* the store's standbys did not confirm a lease write */
	UID_FAIL_POOLED,			/* the store connection is not one server session */
	UID_FAIL_HELD,				/* registered static id: its holder in the store */
	UID_FAIL_REPLICATED			/* a local lease table is published or subscribed */
} UidLeaseFailure;

#define UID_FAIL_LAST UID_FAIL_REPLICATED

/* ---- lease.c: the worker publishes through these (each wakes waiters) ---- */

extern void UidLeaseWorkerAttach(void);
extern void UidLeaseWorkerDetach(void);
extern bool UidLeaseResumeHeld(int *worker_id, int64 *token);
extern void UidLeasePublishState(UidLeaseState state);
extern void UidLeasePublishFailure(UidLeaseFailure kind, const char *error,
								   bool held, UidLeaseState unheld_state);
extern void UidLeasePublishAcquired(int worker_id, int64 token, TimestampTz acquired_at,
									TimestampTz expires_at, bool confirmed);
extern void UidLeasePublishGrant(TimestampTz renewed_at, TimestampTz expires_at,
								 int64 deadline_unix_ms, bool renewal);
extern void UidLeasePublishLost(int worker_id);
extern void UidLeasePublishHeldElsewhere(int worker_id, const char *holder);
extern void UidLeasePublishReleased(UidLeaseState state);
extern void UidLeasePublishPool(int pool_size, int free_ids);
extern void UidLeasePublishLedger(int64 tenures, int64 overlaps);
extern int	UidLeaseConsecutiveFailures(void);
extern bool UidLeaseTakeRequest(uint64 *request);
extern void UidLeaseRequestDone(uint64 request);
extern bool UidLeaseStoreIsSelf(char *database, char *role);
extern void UidLeaseNoteStoreIsSelf(const char *database, const char *role);

/* ---- lease_store.c: the store protocol ---- */

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

/* ---- lease_failure.c: the kind of a failure, carried in the error ---- */

/* an error context callback that marks the errors of a region */
typedef struct UidLeaseFailureScope
{
	ErrorContextCallback callback;
	UidLeaseFailure kind;
} UidLeaseFailureScope;

extern int	UidLeaseFailureContext(UidLeaseFailure kind);
extern void UidLeaseFailureScopeEnter(UidLeaseFailureScope *scope, UidLeaseFailure kind);
extern void UidLeaseFailureScopeLeave(UidLeaseFailureScope *scope);
extern UidLeaseFailure UidLeaseFailureOf(const ErrorData *edata);

/* ---- lease_conn.c: the session's transport ---- */

/* rows of a store statement, as text (NULL for SQL NULL), row-major */
typedef struct UidConnRows
{
	int			nrows;
	int			ncols;
	char	  **vals;
} UidConnRows;

#define UidConnValue(r, row, col) ((r)->vals[(row) * (r)->ncols + (col)])

extern void UidConnInit(bool remote);
extern bool UidConnRemote(void);
extern bool UidConnOpen(void);
extern void UidConnClose(void);
extern void UidConnBegin(void);
extern void UidConnCommit(void);
extern void UidConnAbortAfterError(void);
extern void UidConnSetFinal(void);
extern UidConnRows *UidConnExec(const char *sql, int nparams, const char *const *params);
extern UidConnRows *UidConnExecSecond(const char *sql, int nparams, const char *const *params,
									  char **why);

#endif							/* UID_LEASE_H */
