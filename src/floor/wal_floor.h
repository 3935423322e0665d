/*
 * wal_floor.h
 *		Issued time in the write-ahead log (wal_floor.c, docs/guarantees.md):
 *		uid's resource manager, whose records carry the generators'
 *		reservations to every server that replays the WAL.
 */
#ifndef UID_WAL_FLOOR_H
#define UID_WAL_FLOOR_H

#include "access/xlogdefs.h"

#include "floor/hwm.h"

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

extern bool uid_wal_reservations;

/* How UidWalFloorLastRecord() knows where uid's last record ends. */
typedef enum UidWalFloorLastKind
{
	UID_WAL_LAST_WRITTEN,		/* written by this server in this run */
	UID_WAL_LAST_REPLAYED,		/* replayed by this run's recovery */
	UID_WAL_LAST_BEFORE_START	/* a bound: the redo point the run started from */
} UidWalFloorLastKind;

extern void UidWalFloorDefineSettings(void);
extern void UidWalFloorRegister(void);
extern Size UidWalFloorShmemSize(void);
extern void UidWalFloorShmemInit(void);
extern void UidWalFloorSetWorker(int worker);
extern XLogRecPtr UidWalFloorLog(const int64 *reserved_ms);
extern bool UidWalFloorMustWait(XLogRecPtr lsn);
extern void UidWalFloorWait(XLogRecPtr lsn);
extern bool UidWalFloorStale(void);
extern int64 UidWalFloorReplayedMs(UidHwmGenerator g, int *worker);
extern XLogRecPtr UidWalFloorLastRecord(UidWalFloorLastKind *kind);

#endif							/* UID_WAL_FLOOR_H */
