/*
 * lease_failure.c
 *		The kind of a lease store failure, carried in the error itself.
 *
 * The layers below the lease worker (lease_store.c, lease_conn.c) raise
 * errors; the worker catches them (lease_worker.c, UidLeaseTry) and acts on
 * what kind of failure each is (UidLeaseFailure, lease_failure.h): a value
 * out of range skips that worker id, a pooled connection refuses the store,
 * and so on.  The kind travels in the ErrorData as a context line: in an ereport
 * (UidLeaseFailureContext), or, for errors PostgreSQL raises inside a
 * region (a wait cut short, a value that does not parse), from an error
 * context callback around that region (UidLeaseFailureScope*).  The worker
 * reads it back with UidLeaseFailureOf; it logs and publishes its own
 * message, never the caught error with its context, so the marker is seen
 * nowhere else.  No state outside the error: nothing to reset.
 */
#include "postgres.h"

#include "lease/lease_failure.h"

#define UID_LEASE_FAILURE_MARK	"uid lease failure kind "

/* For an ereport's list: marks the error as a failure of the given kind. */
int
UidLeaseFailureContext(UidLeaseFailure kind)
{
	return errcontext(UID_LEASE_FAILURE_MARK "%d", (int) kind);
}

/* The error context callback of a scope: marks the error with its kind. */
static void
UidLeaseFailureScopeCallback(void *arg)
{
	UidLeaseFailureScope *scope = (UidLeaseFailureScope *) arg;

	(void) UidLeaseFailureContext(scope->kind);
}

/*
 * Errors raised until UidLeaseFailureScopeLeave are of the given kind,
 * unless they carry a kind of their own (the innermost mark wins).
 */
void
UidLeaseFailureScopeEnter(UidLeaseFailureScope *scope, UidLeaseFailure kind)
{
	scope->kind = kind;
	scope->callback.callback = UidLeaseFailureScopeCallback;
	scope->callback.arg = scope;
	scope->callback.previous = error_context_stack;
	error_context_stack = &scope->callback;
}

/*
 * Ends the region UidLeaseFailureScopeEnter began (on success; an error
 * unwinds error_context_stack by itself).
 */
void
UidLeaseFailureScopeLeave(UidLeaseFailureScope *scope)
{
	Assert(error_context_stack == &scope->callback);
	error_context_stack = scope->callback.previous;
}

/*
 * The kind a caught error carries: the first mark in its context (the
 * ereport's own comes before those of the regions around it); an error
 * without one is a failed store statement.
 */
UidLeaseFailure
UidLeaseFailureOf(const ErrorData *edata)
{
	const char *mark = edata->context ? strstr(edata->context, UID_LEASE_FAILURE_MARK) : NULL;
	int			kind;

	if (mark == NULL ||
		sscanf(mark + strlen(UID_LEASE_FAILURE_MARK), "%d", &kind) != 1 ||
		kind <= UID_FAIL_NONE || kind > UID_FAIL_LAST)
		return UID_FAIL_STATEMENT;
	return (UidLeaseFailure) kind;
}
