/*
 * generator.h
 *		The uid_next() generator (generator.c): its settings and shared state,
 *		and the grant API through which the lease worker (lease_worker.c) hands it
 *		a worker id and takes it back.
 */
#ifndef UID_GENERATOR_H
#define UID_GENERATOR_H

#include "ids.h"

extern int	uid_max_batch;

extern void UidGeneratorDefineSettings(void);
extern Size UidGeneratorShmemSize(void);
extern void UidGeneratorShmemInit(void);
extern void UidGeneratorShmemExit(int code, Datum arg);
extern int	UidGeneratorWorkerId(void);
extern int	UidGeneratorStaticWorkerId(void);
extern uint64 UidGeneratorLastState(void);
extern void UidGeneratorWarnLayoutEnd(void);
extern int64 UidGeneratorNextRun(const char *funcname, int count);

/* ---- the grant API (lease_worker.c, lease.c) ---- */

extern bool uid_worker_id_lease;	/* uid.worker_id = 'lease' */
extern bool uid_worker_id_given;	/* uid.worker_id set in the configuration */

/* uid.worker_id is 'lease' or was set in the configuration (not the default) */
static inline bool
UidWorkerIdChosen(void)
{
	return uid_worker_id_lease || uid_worker_id_given;
}
extern void UidGeneratorRaiseFloor(int64 ms);
extern void UidGeneratorGrant(int worker, int64 deadline_ms);
extern int64 UidGeneratorRevoke(void);

/*
 * Called when uid_next() finds no usable worker id: waits once for a lease
 * being acquired, else raises UID02.  _PG_init sets it to the lease
 * subsystem's UidLeaseAwaitWorkerId, so that the generator does not call up
 * into the lease code.
 */
typedef void (*UidAwaitWorkerIdHook) (bool *waited);
extern UidAwaitWorkerIdHook uid_await_worker_id_hook;

#endif							/* UID_GENERATOR_H */
