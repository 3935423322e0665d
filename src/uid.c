/*
 * uid.c
 *		Module entry point: settings, and the shared-memory set-up that every
 *		subsystem hangs off.  _PG_init reads as a table of contents.
 *
 * Each subsystem that keeps shared state exports a Size function and an Init
 * function; this file requests the sum of their sizes and calls each Init
 * under AddinShmemInitLock.  When uid is not in shared_preload_libraries,
 * _PG_init only installs the time filter rewrite (and its user setting), and
 * the functions that need shared memory raise an error with a hint
 * (UidRequireSharedMemory).
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "tables/adopt.h"
#include "core/clock.h"
#include "tables/counters.h"
#include "core/generator.h"
#include "lease/lease.h"
#include "lease/lease_settings.h"
#include "lease/lease_worker.h"
#include "forms/mask.h"
#include "core/preload.h"
#include "core/refused_settings.h"
#include "core/stats.h"
#include "tables/time_filter.h"
#include "core/uuid7.h"
#include "floor/floor.h"

PG_MODULE_MAGIC;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

void		_PG_init(void);

static Size
UidShmemSize(void)
{
	Size		size = 0;

	size = add_size(size, UidFloorShmemSize());
	size = add_size(size, UidGeneratorShmemSize());
	size = add_size(size, UidStatsShmemSize());
	size = add_size(size, UidUuid7ShmemSize());
	size = add_size(size, UidLeaseShmemSize());
	return size;
}

/*
 * Runs in the postmaster after every library's _PG_init, the only moment
 * PostgreSQL accepts requests for shared memory and LWLocks (MaxBackends,
 * which the stats slots are sized by, is known by then).
 */
static void
uid_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(UidShmemSize());
	RequestNamedLWLockTranche("uid", 1);
}

/*
 * Runs in the postmaster at start-up and after every crash-and-restart cycle
 * (and in each child under EXEC_BACKEND).  The subsystems read their durable
 * state here, so a restart after a crash starts from what is on disk.
 */
static void
uid_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	UidFloorShmemInit(UidGeneratorStaticWorkerId());
	UidGeneratorShmemInit();
	UidStatsShmemInit();
	UidUuid7ShmemInit();
	UidLeaseShmemInit();
	LWLockRelease(AddinShmemInitLock);

	uid_preloaded = true;

	/* the postmaster records the exact last issued time on clean exit */
	if (!IsUnderPostmaster)
		on_shmem_exit(UidGeneratorShmemExit, (Datum) 0);
}

void
_PG_init(void)
{
	/* needs no shared memory: also when a query loads uid (time_filter.c) */
	UidTimeFilterInit();
	/* adopted sequences: the label provider has to be there for pg_restore */
	UidAdoptInit();
	/* counters work without preloading: their setting too */
	UidCountersInit();

	/*
	 * Not preloaded (CREATE EXTENSION or a decoder loaded us into a running
	 * backend): there is no shared memory to set up, and PostgreSQL forbids
	 * defining PGC_POSTMASTER settings such as uid.worker_id after start-up
	 * (FATAL for the session).  The functions that work without preloading
	 * (decoders, per-backend uuid7()) need no settings (the time filter
	 * rewrite, above, defines its own user setting).
	 */
	if (!process_shared_preload_libraries_in_progress)
		return;

	UidGeneratorDefineSettings();
	UidClockDefineSettings();
	UidFloorDefineSettings();
	UidLeaseDefineSettings();
	uid_await_worker_id_hook = UidLeaseAwaitWorkerId;
	UidMaskInit();
	UidRefusalUnknownNames();
	MarkGUCPrefixReserved("uid");

	UidLeaseRegisterWorker();
	UidFloorRegister(UidGeneratorStaticWorkerId());

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uid_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uid_shmem_startup;
}
