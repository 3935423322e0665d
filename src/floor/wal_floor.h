/*
 * wal_floor.h
 *		Issued time in the write-ahead log (wal_floor.c, docs/guarantees.md):
 *		uid's resource manager, whose records carry the generators'
 *		reservations to every server that replays the WAL.
 */
#ifndef UID_WAL_FLOOR_H
#define UID_WAL_FLOOR_H

#include "access/xlogdefs.h"

#include "floor/floor.h"

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
extern int64 UidWalFloorReplayedMs(UidGenerator g, int *worker);
extern XLogRecPtr UidWalFloorLastRecord(UidFloorWalLastKind *kind);

#endif							/* UID_WAL_FLOOR_H */
