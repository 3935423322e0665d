/*
 * primary_watch.h
 *		What a standby with a static worker id learns from its primary
 *		(primary_watch.c): the primary's worker id and how far its clock and
 *		its reservation of time run, so that a promotion onto the same static
 *		worker id starts past every ID the old primary could have issued.
 */
#ifndef UID_PRIMARY_WATCH_H
#define UID_PRIMARY_WATCH_H

#include "postgres.h"

extern Size UidPrimaryWatchShmemSize(void);
extern void UidPrimaryWatchShmemInit(void);
extern void UidPrimaryWatchRegister(int static_worker);
extern int64 UidPrimaryWatchFloorMs(int worker, int *primary_worker);

PGDLLEXPORT void uid_primary_watch_main(Datum arg);

#endif							/* UID_PRIMARY_WATCH_H */
