/*
 * lease_failure.h
 *		The kind of a lease store failure, carried in the error itself
 *		(lease_failure.c).
 */
#ifndef UID_LEASE_FAILURE_H
#define UID_LEASE_FAILURE_H

#include "postgres.h"

/*
 * What kind of failure last_error describes.  Everyone sees the kind; the
 * text itself (host names, socket paths, role names) only superusers and
 * members of pg_monitor (UidLeaseMayReadErrors).
 */
typedef enum UidLeaseFailure
{
	UID_FAIL_NONE,
	UID_FAIL_CONNECT,			/* no session with the store */
	UID_FAIL_STATEMENT,			/* a store statement failed */
	UID_FAIL_TABLE,				/* lease schema or table refused (owner) */
	UID_FAIL_VALUE,				/* the store returned a value out of range */
	UID_FAIL_CLOCK_SKEW,		/* store clock too far from ours */
	UID_FAIL_CONFIG,			/* settings that cannot work */
	UID_FAIL_NOT_DURABLE,		/* the store's standbys did not confirm a lease write */
	UID_FAIL_POOLED,			/* the store connection is not one server session */
	UID_FAIL_HELD,				/* registered static id: its holder in the store */
	UID_FAIL_REPLICATED			/* a local lease table is published or subscribed */
} UidLeaseFailure;

#define UID_FAIL_LAST UID_FAIL_REPLICATED

/* an error context callback that marks the errors of a region */
typedef struct UidLeaseFailureScope
{
	ErrorContextCallback callback;
	UidLeaseFailure kind;
} UidLeaseFailureScope;

extern int	UidLeaseFailureContext(UidLeaseFailure kind);
extern void UidLeaseFailureScopeEnter(UidLeaseFailureScope *scope, UidLeaseFailure kind);
extern void UidLeaseFailureScopeLeave(UidLeaseFailureScope *scope);
extern UidLeaseFailure UidLeaseFailureOf(const ErrorData *edata);

#endif							/* UID_LEASE_FAILURE_H */
