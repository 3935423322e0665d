/*
 * tenure.h
 *		Reading the tenure ledger of the lease store (tenure.c), for the
 *		operator's functions: uid_tenures(), uid_whence(), uid_audit().
 */
#ifndef UID_TENURE_H
#define UID_TENURE_H

#include "nodes/pg_list.h"

/* the ledger's columns, in the order of uid_tenures()'s result */
#define UID_TENURE_COLUMNS		11
#define UID_TENURE_COL_WORKER	0
#define UID_TENURE_COL_FIRST_MS	7
#define UID_TENURE_COL_LAST_MS	8

/* Which tenures to read. */
typedef struct UidTenureFilter
{
	int			worker_id;		/* of this worker id only; -1: of every one */
	bool		at_ms;			/* and of those, only the windows that contain */
	int64		unix_ms;		/* this Unix millisecond (needs a worker id) */
} UidTenureFilter;

extern List *UidTenureRead(const UidTenureFilter *filter);

#endif							/* UID_TENURE_H */
