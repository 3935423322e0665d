/*
 * wal_floor.h
 *		Issued time in the write-ahead log (wal_floor.c, docs/guarantees.md):
 *		uid's resource manager, whose records carry the generators'
 *		reservations to every server that replays the WAL.
 */
#ifndef UID_WAL_FLOOR_H
#define UID_WAL_FLOOR_H

#include "access/xlogdefs.h"

#include "core/hwm.h"

/*
 * uid's custom WAL resource manager ID.  PostgreSQL gives extensions the IDs
 * 128 to 255 and refuses to start when two preloaded libraries register the
 * same one; records of this ID need uid in shared_preload_libraries to be
 * replayed (docs/operations.md).
 */
#define UID_RMGR_ID			199
#define UID_RMGR_NAME		"uid"

extern bool uid_wal_reservations;

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

#endif							/* UID_WAL_FLOOR_H */
