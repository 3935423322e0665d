/*
 * preload.c
 *		Whether uid is preloaded, and the error of the functions that need it.
 *		Its own file so that every subsystem can ask without depending on the
 *		module entry (uid.c), which sets uid_preloaded once shared memory is
 *		set up and calls every subsystem's set-up.
 */
#include "postgres.h"

#include "core/preload.h"

bool		uid_preloaded = false;

/*
 * The error of UidRequireSharedMemory (preload.h): uid is not in
 * shared_preload_libraries.
 */
void
UidSharedMemoryMissing(const char *funcname)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("%s() requires uid to be loaded via shared_preload_libraries",
					funcname),
			 errhint("Add uid to shared_preload_libraries in postgresql.conf "
					 "and restart the server.")));
}
