/*
 * floor.h
 *		Durable issued time (floor.c, src/floor/README.md): the one interface
 *		through which the generators make their time durable before they
 *		issue in it, and learn, after a start, a crash, a restore or a
 *		promotion, the floor at or below which they may issue nothing.
 *
 * Behind it: uid.hwm (hwm.c), the reservations in the WAL and the wait for
 * synchronous standbys (wal_floor.c), the last replayed commit, and a
 * standby's watch of its primary (primary_watch.c).  Nothing here calls up
 * into the generators: what the floor module needs of them (the static
 * worker id, the last issued times at exit) is passed in, and what they must
 * do (raise their state) is returned.
 */
#ifndef UID_FLOOR_H
#define UID_FLOOR_H

#include "access/xlogdefs.h"
#include "port/atomics.h"

#include "ids.h"

/*
 * uid's custom WAL resource manager ID.  PostgreSQL gives extensions the IDs
 * 128 to 255 (128, RM_EXPERIMENTAL_ID, for development only) and refuses to
 * start when two preloaded libraries register the same one; records of this
 * ID need uid in shared_preload_libraries to be replayed or decoded.  219:
 * no extension or fork we know of uses it, neither one on PostgreSQL's list
 * (wiki page CustomWALResourceManagers: 129 to 140 and 241) nor one that
 * hard-codes its own (144, 145, 149, 151, 197 to 200, among them
 * Cloudberry's PAX at 199, which uid took in its first 1.4 builds).
 * docs/operations.md, "Issued time in the WAL".
 */
#define UID_RMGR_ID			219
#define UID_RMGR_NAME		"uid"

/* The read-only setting a standby asks its primary for (primary_watch.c). */
#define UID_ISSUED_THROUGH_SETTING	"uid.issued_through"

/* Who set uid_next()'s floor: named in the UID01 error while the state sits at it. */
typedef enum UidFloorOrigin
{
	UID_FLOOR_RESTORED,			/* read from uid.hwm at start-up */
	UID_FLOOR_LEASE,			/* the worker id's previous holder */
	UID_FLOOR_RECOVERY,			/* the last transaction a recovery replayed */
	UID_FLOOR_WAL,				/* the reservations a recovery replayed (wal_floor.c) */
	UID_FLOOR_PRIMARY,			/* the old primary's time, as its standby learned it */
	UID_FLOOR_ADVANCE			/* uid_advance_past() */
} UidFloorOrigin;

/* How UidFloorWalLastRecord() knows where uid's last record ends. */
typedef enum UidFloorWalLastKind
{
	UID_WAL_LAST_WRITTEN,		/* written by this server in this run */
	UID_WAL_LAST_REPLAYED,		/* replayed by this run's recovery */
	UID_WAL_LAST_BEFORE_START	/* a bound: the redo point the run started from */
} UidFloorWalLastKind;

/* ---- set-up (uid.c) ---- */

extern void UidFloorDefineSettings(void);
extern void UidFloorRegister(int static_worker);
extern Size UidFloorShmemSize(void);
extern void UidFloorShmemInit(int static_worker);
extern void UidFloorShutdown(const int64 *last_ms);

/* ---- start-up: what the generators start above ---- */

extern int64 UidFloorRestored(UidGenerator g);
extern void UidFloorDescribe(UidGenerator g, char *buf, size_t len);
extern int64 UidFloorAtStart(void);
extern int64 UidFloorReplayedUnixMs(UidGenerator g);

/* ---- the hot path: durable time before a value is returned ---- */

extern PGDLLIMPORT int uid_reserve_window_ms;
extern PGDLLIMPORT pg_atomic_uint64 *uid_floor_reserved_ms;

/*
 * Whether ms is within half a window of the end of generator g's durable
 * reservation (then UidFloorEnsureCovers must run before a value in ms is
 * returned).  Needs shared memory.
 */
static inline bool
UidFloorNeedsExtending(UidGenerator g, int64 ms)
{
	return (uint64) (ms + uid_reserve_window_ms / 2) > pg_atomic_read_u64(&uid_floor_reserved_ms[g]);
}
extern void UidFloorEnsureCovers(UidGenerator g, int64 ms);
extern void UidFloorRelogIfCheckpointed(void);

/*
 * The same for a Unix ms of uuid7(): the mark covers only the uid layout's
 * years (2026 to 2095); times outside them are not reserved.
 */
static inline void
UidFloorCoverUnixMs(int64 unix_ms)
{
	int64		ms = unix_ms - UID_EPOCH_MS;

	if (unlikely(UidFloorNeedsExtending(UID_GEN_UUID7, ms)) && ms >= 0 && ms <= UID_MAX_TIME)
		UidFloorEnsureCovers(UID_GEN_UUID7, ms);
}

/* ---- uid_next()'s floor: raised, explained ---- */

extern void UidFloorSetWorker(int worker);
extern void UidFloorRaise(int64 ms, UidFloorOrigin origin);
extern void UidFloorCoverAndRaise(int64 ms, UidFloorOrigin origin);
extern int64 UidFloorMs(void);
extern const char *UidFloorExplain(void);
extern const char *UidFloorSource(int64 *ms);

/* ---- a lost uid.hwm (UID07) ---- */

extern bool UidFloorLost(UidGenerator g);
extern void UidFloorRefuseLost(UidGenerator g);
extern void UidFloorFound(UidGenerator g, int64 ms);

/* ---- for uid_stats and uid_removal_check() ---- */

extern int64 UidFloorReservedMs(void);
extern uint64 UidFloorReserveWrites(void);
extern bool UidFloorWalReservations(void);
extern XLogRecPtr UidFloorWalLastRecord(UidFloorWalLastKind *kind);

#endif							/* UID_FLOOR_H */
