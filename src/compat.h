/*
 * compat.h
 *		Differences between the PostgreSQL major versions uid supports (15 to
 *		19), kept here so that function bodies stay version-free.  Every other
 *		file includes this one instead of testing PG_VERSION_NUM itself.
 */
#ifndef UID_COMPAT_H
#define UID_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "uid requires PostgreSQL 15 or later"
#endif

/*
 * Tuples built by the set-returning and composite functions: 19's funcapi.h
 * no longer includes access/htup_details.h, which declares heap_form_tuple.
 */
#include "access/htup_details.h"
#include "funcapi.h"

#include "miscadmin.h"

/*
 * The slot of the current process in per-backend arrays.  17 renamed
 * BackendId (1-based) to ProcNumber (0-based).  Returns -1 outside a backend.
 */
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#define UidMyBackendSlot() (MyProcNumber >= 0 ? (int) MyProcNumber : -1)
#else
#include "storage/backendid.h"
#define UidMyBackendSlot() (MyBackendId != InvalidBackendId ? (int) MyBackendId - 1 : -1)
#endif

/*
 * Wait events shown in pg_stat_activity while uid waits.  17 added named
 * extension wait events (wait_event_type "Extension", wait_event the name);
 * before that they all show as "Extension".  UID_DECLARE_WAIT_EVENT(fn,
 * "Name") defines fn() returning the event.  Not for the postmaster:
 * registering a name takes a lock.
 */
#include "utils/wait_event.h"
#if PG_VERSION_NUM >= 170000
#define UID_DECLARE_WAIT_EVENT(fn, name) \
static inline uint32 \
fn(void) \
{ \
	static uint32 event = 0; \
	if (event == 0) \
		event = WaitEventExtensionNew(name); \
	return event; \
}
#else
#define UID_DECLARE_WAIT_EVENT(fn, name) \
static inline uint32 \
fn(void) \
{ \
	return PG_WAIT_EXTENSION; \
}
#endif

#endif							/* UID_COMPAT_H */
