/*
 * preload.h
 *		Whether uid is preloaded, and whether a setting comes from the server's
 *		configuration as it is (preload.c).
 */
#ifndef UID_PRELOAD_H
#define UID_PRELOAD_H

#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc.h"

/* true when shared memory was set up, i.e. uid is in shared_preload_libraries (uid.c sets it) */
extern bool uid_preloaded;

extern void UidSharedMemoryMissing(const char *funcname);

/* Functions whose state lives in shared memory call this first. */
static inline void
UidRequireSharedMemory(const char *funcname)
{
	if (unlikely(!uid_preloaded))
		UidSharedMemoryMissing(funcname);
}

/*
 * For check hooks: the value comes from the server's configuration
 * (postgresql.conf, the command line) as uid is preloaded, not from the
 * built-in default or a later reload.
 */
static inline bool
UidSettingFromConfiguration(GucSource source)
{
	return process_shared_preload_libraries_in_progress && source > PGC_S_DEFAULT;
}

#endif							/* UID_PRELOAD_H */
