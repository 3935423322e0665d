/*
 * preload.c
 *		Whether uid is preloaded, the error of the functions that need it, and
 *		the warning of CREATE EXTENSION uid without it.
 *		Its own file so that every subsystem can ask without depending on the
 *		module entry (uid.c), which sets uid_preloaded once shared memory is
 *		set up and calls every subsystem's set-up.
 */
#include "postgres.h"

#include "fmgr.h"

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

PG_FUNCTION_INFO_V1(uid_warn_unpreloaded);

/*
 * uid_warn_unpreloaded(): the install script's check.  Without uid in
 * shared_preload_libraries, CREATE EXTENSION uid succeeds but the first
 * uid_next() fails: a WARNING at CREATE EXTENSION says so when the
 * administrator is there to read it.  A warning, not an error, so that a
 * restore (pg_restore runs CREATE EXTENSION) into a server set up later
 * goes through; the script creates, calls and drops this function, so it is
 * no object of the extension.  Without the context stack: on PostgreSQL 17
 * and later its only line would be the script's file and line.
 */
Datum
uid_warn_unpreloaded(PG_FUNCTION_ARGS)
{
	if (!uid_preloaded && !IsBinaryUpgrade)
	{
		ErrorContextCallback *saved = error_context_stack;

		error_context_stack = NULL;
		ereport(WARNING,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uid is not in shared_preload_libraries: uid_next() and the other "
						"functions that issue IDs fail until it is"),
				 errhint("Add uid to shared_preload_libraries in postgresql.conf "
						 "and restart the server.")));
		error_context_stack = saved;
	}
	PG_RETURN_VOID();
}
