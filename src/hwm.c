/*
 * hwm.c
 *		The durable high-water mark of issued time, so that no restart, crash
 *		or immediate shutdown ever lets uid_next() reuse a millisecond.
 *
 * Before the generator issues an ID in millisecond ms, the file uid.hwm in
 * the data directory must say "reserved up to at least ms".  Extending the
 * reservation writes ms + uid.reserve_window_ms and fsyncs, so the cost is
 * one small write and fsync per half window under load, not one per call.
 * At start-up (and after each crash-and-restart cycle) the postmaster reads
 * the file, and the generator issues nothing at or below that time.  A clean
 * exit of the postmaster overwrites the reservation with the exact last
 * issued time, so a clean restart waits for nothing.
 *
 * The record is 32 bytes with a CRC, written in place at offset 0: like
 * pg_control, it relies on a write of less than one sector being atomic.
 *
 * Shared state and its guards:
 *	reserved_ms			atomic; read lock-free on every call, only raised, and
 *						only while holding the uid LWLock after the file is
 *						durably written.
 *	floor_ms, status	written once by the postmaster at shared-memory init,
 *						read-only afterwards.
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "common/file_perm.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "port/pg_crc32c.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "uid.h"

#define UID_HWM_FILE		"uid.hwm"
#define UID_HWM_MAGIC		0x48444955	/* "UIDH" */
#define UID_HWM_VERSION		1

typedef struct UidHwmRecord
{
	uint32		magic;
	uint32		version;
	int64		ms;				/* ms since the uid epoch */
	uint32		clean;			/* 1: exact last issued ms written at clean exit */
	uint32		pad;
	pg_crc32c	crc;			/* of the fields above */
	uint32		pad2;
} UidHwmRecord;

typedef enum UidHwmStatus
{
	UID_HWM_NEW,				/* no file: nothing was ever issued here */
	UID_HWM_CLEAN,				/* the previous run exited cleanly */
	UID_HWM_RESERVED,			/* the previous run crashed: floor is its reservation */
	UID_HWM_CORRUPT				/* the file cannot be trusted: refuse to generate */
} UidHwmStatus;

typedef struct UidHwmShared
{
	pg_atomic_uint64 reserved_ms;
	int64		floor_ms;
	UidHwmStatus status;
	bool		dir_synced;		/* directory entry of the file is durable */
	LWLock	   *lock;
} UidHwmShared;

static UidHwmShared *hwm = NULL;

/* &hwm->reserved_ms, for the inline UidHwmNeedsExtending (uid.h) */
pg_atomic_uint64 *uid_hwm_reserved_ms = NULL;

int			uid_reserve_window_ms = 1000;

UID_DECLARE_WAIT_EVENT(UidWaitEventReserveWrite, "UidReserveWrite")

void
UidHwmDefineSettings(void)
{
	DefineCustomIntVariable("uid.reserve_window_ms",
							"How far ahead of the clock uid_next() durably reserves time.",
							"After a crash, the first uid_next() may wait up to this long; "
							"a larger window means fewer writes to uid.hwm.",
							&uid_reserve_window_ms,
							1000, 10, 600000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
}

Size
UidHwmShmemSize(void)
{
	return MAXALIGN(sizeof(UidHwmShared));
}

static pg_crc32c
UidHwmCrc(const UidHwmRecord *rec)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, rec, offsetof(UidHwmRecord, crc));
	FIN_CRC32C(crc);
	return crc;
}

/*
 * Reads the file.  Returns the status; *ms is set for CLEAN and RESERVED.
 * Runs in the postmaster, so problems are logged, not raised.
 */
static UidHwmStatus
UidHwmRead(int64 *ms)
{
	UidHwmRecord rec;
	int			fd;
	ssize_t		n;

	fd = open(UID_HWM_FILE, O_RDONLY | PG_BINARY, 0);
	if (fd < 0)
	{
		if (errno == ENOENT)
			return UID_HWM_NEW;
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("uid: could not open \"%s\": %m", UID_HWM_FILE)));
		return UID_HWM_CORRUPT;
	}
	n = read(fd, &rec, sizeof(rec));
	close(fd);
	if (n != sizeof(rec) || rec.magic != UID_HWM_MAGIC ||
		rec.version != UID_HWM_VERSION || !EQ_CRC32C(rec.crc, UidHwmCrc(&rec)) ||
		rec.ms < 0 || rec.ms > UID_MAX_TIME)
	{
		ereport(LOG,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid: high-water mark file \"%s\" is damaged; uid_next() will refuse to run",
						UID_HWM_FILE)));
		return UID_HWM_CORRUPT;
	}
	*ms = rec.ms;
	return rec.clean ? UID_HWM_CLEAN : UID_HWM_RESERVED;
}

/*
 * Writes the record durably.  elevel is ERROR in backends and LOG in the
 * postmaster.  Returns false if it failed (only possible below ERROR).
 */
static bool
UidHwmWrite(int64 ms, bool clean, int elevel)
{
	UidHwmRecord rec;
	int			fd;
	int			save_errno;

	memset(&rec, 0, sizeof(rec));
	rec.magic = UID_HWM_MAGIC;
	rec.version = UID_HWM_VERSION;
	rec.ms = ms;
	rec.clean = clean ? 1 : 0;
	rec.crc = UidHwmCrc(&rec);

	fd = open(UID_HWM_FILE, O_RDWR | O_CREAT | PG_BINARY, pg_file_create_mode);
	if (fd < 0)
	{
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not open uid high-water mark file \"%s\": %m", UID_HWM_FILE)));
		return false;
	}
	errno = 0;
	if (IsUnderPostmaster)
		pgstat_report_wait_start(UidWaitEventReserveWrite());
	if (pwrite(fd, &rec, sizeof(rec), 0) != sizeof(rec) || pg_fsync(fd) != 0)
	{
		pgstat_report_wait_end();
		save_errno = errno ? errno : ENOSPC;
		close(fd);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not write uid high-water mark file \"%s\": %m", UID_HWM_FILE),
				 errhint("uid_next() cannot reserve time until the file can be written.")));
		return false;
	}
	pgstat_report_wait_end();
	close(fd);
	if (!hwm->dir_synced)
	{
		fsync_fname(".", true);
		hwm->dir_synced = true;
	}
	return true;
}

void
UidHwmShmemInit(void)
{
	bool		found;

	hwm = ShmemInitStruct("uid high-water mark", UidHwmShmemSize(), &found);
	uid_hwm_reserved_ms = &hwm->reserved_ms;
	if (found)
		return;

	hwm->lock = &(GetNamedLWLockTranche("uid"))->lock;
	hwm->dir_synced = false;
	hwm->floor_ms = 0;
	hwm->status = UidHwmRead(&hwm->floor_ms);
	pg_atomic_init_u64(&hwm->reserved_ms, (uint64) hwm->floor_ms);

	if (hwm->status == UID_HWM_RESERVED)
		ereport(LOG,
				(errmsg("uid: the previous run did not exit cleanly; IDs resume after its reserved time %lld ms",
						(long long) hwm->floor_ms)));
}

/* The time at or below which nothing may be issued in this run. */
int64
UidHwmRestoredFloor(void)
{
	return hwm->floor_ms;
}

/*
 * Makes sure the file covers millisecond ms before an ID in it is returned.
 * Called when ms comes within half a window of the reservation: if ms is
 * still covered and another backend is already extending, return at once
 * rather than queue behind its fsync.
 */
void
UidHwmEnsureCovers(int64 ms)
{
	bool		must = (uint64) ms > pg_atomic_read_u64(&hwm->reserved_ms);

	if (unlikely(hwm->status == UID_HWM_CORRUPT))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid high-water mark file \"%s\" is damaged", UID_HWM_FILE),
				 errdetail("Without it uid_next() cannot prove that a new ID is later than every ID issued before."),
				 errhint("Stop the server, make sure the clock is past the last ID issued, remove the file, and start again.")));

	if (must)
		LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
	else if (!LWLockConditionalAcquire(hwm->lock, LW_EXCLUSIVE))
		return;

	if ((uint64) (ms + uid_reserve_window_ms / 2) > pg_atomic_read_u64(&hwm->reserved_ms))
	{
		int64		target = Min(ms + uid_reserve_window_ms, UID_MAX_TIME);

		UidHwmWrite(target, false, ERROR);
		pg_atomic_write_u64(&hwm->reserved_ms, (uint64) target);
		UidStatsAdd(UID_COUNT_HWM_WRITES, 1);
	}
	LWLockRelease(hwm->lock);
}

int64
UidHwmReservedMs(void)
{
	return (int64) pg_atomic_read_u64(&hwm->reserved_ms);
}

/*
 * Clean postmaster exit: replace the reservation with the exact last issued
 * time, so that the next start does not wait for the reserved window.
 */
void
UidHwmShutdown(int64 last_issued_ms)
{
	if (hwm == NULL || hwm->status == UID_HWM_CORRUPT)
		return;
	if ((uint64) last_issued_ms > pg_atomic_read_u64(&hwm->reserved_ms))
		return;					/* cannot happen; keep the reservation */
	if (last_issued_ms < hwm->floor_ms)
		return;
	(void) UidHwmWrite(last_issued_ms, true, LOG);
}

/*
 * The commit time (Unix ms) of the last transaction that a recovery ended in
 * this postmaster's lifetime replayed (a promoted standby, a server started
 * from a base backup or after a crash), or -1 if none was replayed.  The
 * generators start above it: every value a replayed transaction stored was
 * made before it committed, possibly by another server with its own clock.
 */
int64
UidLastReplayedUnixMs(void)
{
	TimestampTz last = GetLatestXTime();

	return last == 0 ? -1 : UidTimestamptzToUnixMs(last);
}
