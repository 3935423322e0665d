/*
 * lease_worker.h
 *		The lease worker (lease_worker.c): its registration by _PG_init.
 */
#ifndef UID_LEASE_WORKER_H
#define UID_LEASE_WORKER_H

extern void UidLeaseRegisterWorker(void);

#endif							/* UID_LEASE_WORKER_H */
