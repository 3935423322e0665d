/*
 * hwm.c
 *		The durable high-water marks of issued time, so that no restart, crash
 *		or immediate shutdown ever lets uid_next() or uuid7() reuse a
 *		millisecond.
 *
 * Each generator has its own mark (UidGenerator): before uid_next()
 * issues an ID in millisecond ms, the file uid.hwm in the data directory must
 * say "uid_next() reserved up to at least ms", and likewise for uuid7().
 * Extending a reservation writes ms + uid.reserve_window_ms and fsyncs, so
 * the cost is one small write and fsync per half window under load, not one
 * per call; the same write also carries the other generator's reservation
 * forward to the clock when it is about to need it, so that both generators
 * in use still cost one fsync per half window.  Each such write also goes
 * into the WAL (wal_floor.c), so that servers replaying it know the
 * reservations without the file.  At start-up (and after each
 * crash-and-restart cycle) the postmaster reads the file, and each generator
 * issues nothing at or below its own floor.  A clean exit of the postmaster
 * overwrites the reservations with the exact last issued times, so a clean
 * restart waits for nothing.
 *
 * The marks are separate so that moving one generator far ahead (for
 * example uuid7_advance_past() with keys from a server whose clock ran a day
 * ahead) never makes the other refuse to issue after a restart.
 *
 * The record is 32 bytes with a CRC, written in place at offset 0: like
 * pg_control, it relies on a write of less than one sector being atomic.
 * Version 2 (uid 1.2) holds one mark per generator; version 1 (uid 1.0 and
 * 1.1) held one mark for both, and is read as that mark for each of them.
 *
 * An empty file is read as no file, because it proves that nothing was
 * issued under it.  The file is only ever written by a pwrite of the whole
 * record at offset 0, opened without O_TRUNC and never truncated (no version
 * of uid did otherwise).  Once one write and its fsync completed, its size
 * of 32 bytes is durable, and an overwrite in place never makes it shorter,
 * whatever a crash interrupts: the old record, the new one, or (for a torn
 * write) a damaged one, never none.  So an empty file is left only by a
 * first write that never completed (a full disk, a crash between the
 * creation of the file and its first fsync), and no value is returned
 * before that write has returned (UidHwmEnsureCovers raises otherwise).  A
 * file of 1 to 31 bytes could only come from such a first write too, but is
 * still read as damaged: it is no state the code meant to leave.
 *
 * A missing (or empty) file where values were issued before fails closed:
 * the first successful write in a data directory also creates uid.issued, a
 * marker that is never removed, so the two together say "this data
 * directory issued values, and its floors are gone" (an operator's removal,
 * a copy that left the file out).  Each generator's floor is then lost
 * (hwm->lost[g]) unless the recovery of this start replayed a reservation of
 * it from the WAL (UidHwmApplyWalCover: every value is issued under a
 * reservation flushed to the WAL, and one is written again after each
 * checkpoint), and a lost generator refuses (UID07, UidHwmRefuseLost) until
 * uid_advance_past() or uuid7_advance_past() gives the largest value stored
 * (UidHwmFloorFound).  The loss is durable: while a generator's floor is
 * lost, every record written says so (UID_HWM_FLAG_LOST), so that a restart
 * keeps refusing.  A new data directory (initdb and a restore, pg_upgrade)
 * has neither file, and is not told apart from a new server.  The other
 * floors (a recovery's, a lease's previous holder's, an old primary's)
 * apply either way.
 *
 * Shared state and its guards:
 *	reserved_ms[g]		atomics; read lock-free on every call, only raised, and
 *						only while holding the uid LWLock after the file is
 *						durably written.  Every write of the file happens under
 *						that lock and carries both current reservations.
 *	floor_ms[g], status, legacy
 *						written once by the postmaster at shared-memory init,
 *						read-only afterwards.
 *	lost[g]				set by the postmaster at shared-memory init, cleared
 *						(never set again) under the uid LWLock; read without
 *						it, where a stale true only refuses once more.
 *	dir_synced, issued_marked
 *						written under the uid LWLock (or by the postmaster at
 *						start-up and exit).
 *	pending_ms[g], pending_lsn
 *						under the uid LWLock: reservations written to the file
 *						and the WAL whose record the synchronous standbys have
 *						not yet confirmed (UidHwmEnsureCovers).
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
#include "utils/timestamp.h"

#include "floor/hwm.h"
#include "floor/wal_floor.h"
#include "ids.h"

#define UID_HWM_FILE		"uid.hwm"
#define UID_ISSUED_FILE		"uid.issued"	/* values were issued here */
#define UID_HWM_MAGIC		0x48444955	/* "UIDH" */
#define UID_HWM_VERSION_SHARED	1	/* uid 1.0, 1.1: one mark for both */
#define UID_HWM_VERSION		2		/* one mark per generator */
#define UID_HWM_RECORD_SIZE	32

/* The flags of a version 2 record. */
#define UID_HWM_FLAG_CLEAN		0x1	/* exact last issued times, at clean exit */
#define UID_HWM_FLAG_LOST(g)	(0x2 << (g))	/* generator g's floor is unknown */

/* Version 1: written by uid 1.0 and 1.1; read only. */
typedef struct UidHwmRecordV1
{
	uint32		magic;
	uint32		version;
	int64		ms;				/* ms since the uid epoch, both generators */
	uint32		clean;			/* 1: exact last issued ms written at clean exit */
	uint32		pad;
	pg_crc32c	crc;			/* of the fields above */
	uint32		pad2;
} UidHwmRecordV1;

/* Version 2. */
typedef struct UidHwmRecord
{
	uint32		magic;
	uint32		version;
	int64		ms[UID_GENERATORS];	/* ms since the uid epoch, per generator */
	uint32		flags;			/* UID_HWM_FLAG_* */
	pg_crc32c	crc;			/* of the fields above */
} UidHwmRecord;

StaticAssertDecl(sizeof(UidHwmRecordV1) == UID_HWM_RECORD_SIZE,
				 "uid.hwm version 1 record is not 32 bytes");
StaticAssertDecl(sizeof(UidHwmRecord) == UID_HWM_RECORD_SIZE,
				 "uid.hwm record is not 32 bytes");

typedef struct UidHwmShared
{
	pg_atomic_uint64 reserved_ms[UID_GENERATORS];
	int64		floor_ms[UID_GENERATORS];
	UidHwmStatus status;
	bool		legacy;			/* the floors come from a version 1 record */
	bool		lost[UID_GENERATORS];	/* floor unknown: refuse (UID07) */
	bool		dir_synced;		/* directory entry of the file is durable */
	bool		issued_marked;	/* UID_ISSUED_FILE exists, durably */
	int64		pending_ms[UID_GENERATORS];	/* written, awaiting standbys */
	XLogRecPtr	pending_lsn;	/* end of its WAL record; invalid: none */
	pg_atomic_uint64 writes;	/* reservations written, for uid_stats */
	LWLock	   *lock;
} UidHwmShared;

static UidHwmShared *hwm = NULL;

UID_DECLARE_WAIT_EVENT(UidWaitEventReserveWrite, "UidReserveWrite")

Size
UidHwmShmemSize(void)
{
	return MAXALIGN(sizeof(UidHwmShared));
}

/* CRC of the first len bytes of a record (everything before its crc field) */
static pg_crc32c
UidHwmCrc(const void *rec, size_t len)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, rec, len);
	FIN_CRC32C(crc);
	return crc;
}

static bool
UidHwmMsValid(int64 ms)
{
	return ms >= 0 && ms <= UID_MAX_TIME;
}

/*
 * Decodes a record of either version into a mark per generator.  False if
 * it cannot be trusted.
 */
static bool
UidHwmDecode(const char *buf, int64 *ms, bool *clean, bool *legacy, bool *lost)
{
	UidHwmRecordV1 v1;
	UidHwmRecord v2;

	memcpy(&v1, buf, sizeof(v1));
	if (v1.magic != UID_HWM_MAGIC)
		return false;
	if (v1.version == UID_HWM_VERSION_SHARED)
	{
		if (!EQ_CRC32C(v1.crc, UidHwmCrc(&v1, offsetof(UidHwmRecordV1, crc))) ||
			!UidHwmMsValid(v1.ms))
			return false;
		for (int g = 0; g < UID_GENERATORS; g++)
			ms[g] = v1.ms;
		*clean = v1.clean != 0;
		*legacy = true;
		return true;
	}
	if (v1.version != UID_HWM_VERSION)
		return false;
	memcpy(&v2, buf, sizeof(v2));
	if (!EQ_CRC32C(v2.crc, UidHwmCrc(&v2, offsetof(UidHwmRecord, crc))))
		return false;
	for (int g = 0; g < UID_GENERATORS; g++)
	{
		if (!UidHwmMsValid(v2.ms[g]))
			return false;
		ms[g] = v2.ms[g];
		lost[g] = (v2.flags & UID_HWM_FLAG_LOST(g)) != 0;
	}
	*clean = (v2.flags & UID_HWM_FLAG_CLEAN) != 0;
	*legacy = false;
	return true;
}

/*
 * Reads the file into hwm->floor_ms, hwm->legacy and the returned status.
 * Runs in the postmaster, so problems are logged, not raised.
 */
static UidHwmStatus
UidHwmRead(void)
{
	char		buf[UID_HWM_RECORD_SIZE];
	int			fd;
	ssize_t		n;
	bool		clean;

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
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n == 0)
	{
		/* nothing was issued under an empty file (the header comment) */
		ereport(LOG,
				(errmsg("uid: high-water mark file \"%s\" is empty; ignored", UID_HWM_FILE),
				 errdetail("Only a first reservation that never completed leaves it empty, "
						   "so no value was issued under it; uid_next() and uuid7() start as on a new server.")));
		return UID_HWM_NEW;
	}
	if (n != sizeof(buf) || !UidHwmDecode(buf, hwm->floor_ms, &clean, &hwm->legacy, hwm->lost))
	{
		ereport(LOG,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid: high-water mark file \"%s\" is damaged; uid_next() and uuid7() will refuse to run",
						UID_HWM_FILE)));
		return UID_HWM_CORRUPT;
	}
	return clean ? UID_HWM_CLEAN : UID_HWM_RESERVED;
}

/*
 * After the first write of uid.hwm that succeeded in this data directory:
 * creates uid.issued, durably, so that a later start that finds no uid.hwm
 * knows that values were issued here (UidHwmWarnIfIssuedBefore).  Once per
 * data directory; a failure is logged and tried again at the next write.
 */
static void
UidHwmMarkIssued(void)
{
	static const char text[] =
		"uid: uid_next() or uuid7() reserved time in uid.hwm in this data directory.\n"
		"Keep this file: without it a missing uid.hwm is not noticed.\n";
	int			fd;

	if (hwm->issued_marked)
		return;
	fd = open(UID_ISSUED_FILE, O_WRONLY | O_CREAT | PG_BINARY, pg_file_create_mode);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1 || pg_fsync(fd) != 0)
	{
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("uid: could not write \"%s\": %m", UID_ISSUED_FILE)));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	fsync_fname(".", true);
	hwm->issued_marked = true;
}

/*
 * At start-up, when uid.hwm is missing or empty: if uid.issued says values
 * were issued in this data directory, the floors of the earlier runs are
 * gone; both generators' floors are lost until a reservation replayed from
 * the WAL covers them (UidHwmApplyWalCover) or an operator gives the
 * largest value stored (UidHwmFloorFound).
 */
static UidHwmStatus
UidHwmCheckIssuedBefore(void)
{
	if (access(UID_ISSUED_FILE, F_OK) != 0)
		return UID_HWM_NEW;
	hwm->issued_marked = true;
	for (int g = 0; g < UID_GENERATORS; g++)
		hwm->lost[g] = true;
	ereport(WARNING,
			(errmsg("uid: high-water mark file \"%s\" is missing or empty, but \"%s\" says values were issued in this data directory before",
					UID_HWM_FILE, UID_ISSUED_FILE),
			 errdetail("uid_next() and uuid7() refuse to issue (SQLSTATE UID07) unless the recovery of this start "
					   "replays a reservation of time from the WAL: with a clock behind the last value issued before, "
					   "they could issue values again."),
			 errhint("Stop the server and put back \"%s\" (from where it went), "
					 "or call uid_advance_past() and uuid7_advance_past() with the largest values stored.",
					 UID_HWM_FILE)));
	return UID_HWM_LOST;
}

/* The name of generator g's SQL function, for messages. */
static const char *
UidGeneratorName(int g)
{
	return g == UID_GEN_UID_NEXT ? "uid_next()" : "uuid7()";
}

/*
 * Once the recovery of this start has ended: each generator of which it
 * replayed a reservation from the WAL has a floor again, since that bounds
 * every value issued before (wal_floor.c), so a uid.hwm found missing at
 * this start no longer leaves it unknown.  Every generator at once, before
 * any write of uid.hwm (which records the floors still lost).  A floor that
 * a record of uid.hwm says is lost stays lost: the reservations written
 * since do not cover it.  Under the uid LWLock, or in the postmaster at
 * exit.
 */
static void
UidHwmApplyWalCover(void)
{
	int			worker;

	if (hwm->status != UID_HWM_LOST || GetRecoveryState() != RECOVERY_STATE_DONE)
		return;
	for (int g = 0; g < UID_GENERATORS; g++)
		if (hwm->lost[g] && UidWalFloorReplayedMs(g, &worker) > 0)
			hwm->lost[g] = false;
}

/*
 * Whether generator g's floor is lost (uid.hwm missing where values were
 * issued, no replayed reservation covering it): it refuses until
 * UidHwmFloorFound.
 */
bool
UidHwmFloorLost(UidGenerator g)
{
	if (hwm == NULL || !hwm->lost[g])
		return false;
	LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
	UidHwmApplyWalCover();
	LWLockRelease(hwm->lock);
	return hwm->lost[g];
}

/*
 * An operator gave the largest value of generator g stored (uid_advance_past,
 * uuid7_advance_past), and the caller has already raised g's state past it:
 * g issues again, under a reservation covering ms (ms since the uid epoch)
 * and the clock, written to uid.hwm now, so that a restart does not refuse
 * again.
 */
void
UidHwmFloorFound(UidGenerator g, int64 ms, int window_ms)
{
	int64		now = UidClockNowUnixMs() - UID_EPOCH_MS;

	if (!UidHwmFloorLost(g))
		return;
	LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
	hwm->lost[g] = false;
	LWLockRelease(hwm->lock);
	ms = Min(Max(ms, now), UID_MAX_TIME);
	if (ms >= 0)
		UidHwmEnsureCovers(g, ms, window_ms);
	ereport(LOG,
			(errmsg("uid: %s issues again: its floor, lost with \"%s\", was given by %s",
					UidGeneratorName(g), UID_HWM_FILE,
					g == UID_GEN_UID_NEXT ? "uid_advance_past()" : "uuid7_advance_past()")));
}

/*
 * The UID07 error of a generator whose floor is lost.  The hint names the
 * latest time this server does know of: the last replayed commit, a
 * replayed reservation (of the other generator), or the clock.
 */
void
UidHwmRefuseLost(UidGenerator g)
{
	int64		known = UidClockNowUnixMs();
	const char *source = "this server's clock";
	int64		replayed = UidLastReplayedUnixMs();
	int			worker;

	if (replayed > known)
	{
		known = replayed;
		source = "the commit time of the last transaction replayed";
	}
	for (int o = 0; o < UID_GENERATORS; o++)
	{
		int64		wal_ms = UidWalFloorReplayedMs(o, &worker);

		if (wal_ms > 0 && wal_ms + UID_EPOCH_MS > known)
		{
			known = wal_ms + UID_EPOCH_MS;
			source = o == UID_GEN_UID_NEXT ? "uid_next()'s reservation in the replayed WAL"
				: "uuid7()'s reservation in the replayed WAL";
		}
	}
	ereport(ERROR,
			(errcode(ERRCODE_UID_FLOOR_UNKNOWN),
			 errmsg("%s cannot know that new values are above those issued before: \"%s\" is missing",
					UidGeneratorName(g), UID_HWM_FILE),
			 errdetail("\"%s\" says values were issued in this data directory, and no reservation of time "
					   "replayed from the WAL covers %s.",
					   UID_ISSUED_FILE, UidGeneratorName(g)),
			 errhint("Call %s with the largest value stored (%s then issues above it), or stop the server "
					 "and put back \"%s\".  The latest time this server knows of is %s (%s).",
					 g == UID_GEN_UID_NEXT ? "uid_advance_past()" : "uuid7_advance_past()",
					 UidGeneratorName(g), UID_HWM_FILE,
					 timestamptz_to_str(UidUnixMsToTimestamptz(known)), source)));
}

/*
 * Writes a version 2 record with these marks durably.  elevel is ERROR in
 * backends and LOG in the postmaster.  Returns false if it failed (only
 * possible below ERROR).
 */
static bool
UidHwmWrite(const int64 *ms, bool clean, int elevel)
{
	UidHwmRecord rec;
	int			fd;
	int			save_errno;

	memset(&rec, 0, sizeof(rec));
	rec.magic = UID_HWM_MAGIC;
	rec.version = UID_HWM_VERSION;
	for (int g = 0; g < UID_GENERATORS; g++)
		rec.ms[g] = ms[g];
	rec.flags = clean ? UID_HWM_FLAG_CLEAN : 0;
	for (int g = 0; g < UID_GENERATORS; g++)
		if (hwm->lost[g])
			rec.flags |= UID_HWM_FLAG_LOST(g);
	rec.crc = UidHwmCrc(&rec, offsetof(UidHwmRecord, crc));

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
				 errhint("uid_next() and uuid7() cannot reserve time until the file can be written.")));
		return false;
	}
	pgstat_report_wait_end();
	close(fd);
	if (!hwm->dir_synced)
	{
		fsync_fname(".", true);
		hwm->dir_synced = true;
	}
	/* a reservation precedes the first value; a clean exit's record may not */
	if (!clean)
		UidHwmMarkIssued();
	return true;
}

void
UidHwmShmemInit(void)
{
	bool		found;

	hwm = ShmemInitStruct("uid high-water mark", UidHwmShmemSize(), &found);
	if (found)
		return;

	hwm->lock = &(GetNamedLWLockTranche("uid"))->lock;
	hwm->dir_synced = false;
	hwm->issued_marked = false;
	hwm->legacy = false;
	for (int g = 0; g < UID_GENERATORS; g++)
	{
		hwm->floor_ms[g] = 0;
		hwm->pending_ms[g] = 0;
		hwm->lost[g] = false;
	}
	hwm->pending_lsn = InvalidXLogRecPtr;
	pg_atomic_init_u64(&hwm->writes, 0);
	hwm->status = UidHwmRead();
	if (hwm->status == UID_HWM_NEW)
		hwm->status = UidHwmCheckIssuedBefore();
	else
	{
		hwm->issued_marked = access(UID_ISSUED_FILE, F_OK) == 0;
		for (int g = 0; g < UID_GENERATORS; g++)
			if (hwm->lost[g])
				ereport(WARNING,
						(errmsg("uid: \"%s\" says that the floor of %s was lost and not yet given back; it refuses to issue (SQLSTATE UID07)",
								UID_HWM_FILE, UidGeneratorName(g)),
						 errhint("Call %s with the largest value stored.",
								 g == UID_GEN_UID_NEXT ? "uid_advance_past()" : "uuid7_advance_past()")));
	}
	for (int g = 0; g < UID_GENERATORS; g++)
		pg_atomic_init_u64(&hwm->reserved_ms[g], (uint64) hwm->floor_ms[g]);

	if (hwm->status == UID_HWM_RESERVED)
		ereport(LOG,
				(errmsg("uid: the previous run did not exit cleanly; uid_next() resumes after its reserved time %lld ms, uuid7() after %lld ms",
						(long long) hwm->floor_ms[UID_GEN_UID_NEXT],
						(long long) hwm->floor_ms[UID_GEN_UUID7])));
}

/*
 * The reservations, one atomic per generator, for the inline
 * UidFloorNeedsExtending (floor.h): read lock-free on every call.
 */
pg_atomic_uint64 *
UidHwmReservedArray(void)
{
	return hwm->reserved_ms;
}

/* The reservations written since start-up (uid_stats.reserve_writes). */
uint64
UidHwmWrites(void)
{
	return hwm == NULL ? 0 : pg_atomic_read_u64(&hwm->writes);
}

/* The time at or below which generator g may issue nothing in this run. */
int64
UidHwmRestoredFloor(UidGenerator g)
{
	return hwm->floor_ms[g];
}

/*
 * How the floors of this run were restored: whether the previous run exited
 * cleanly, crashed, left no file, and whether the file was written by a uid
 * that kept one floor for both generators.  For error messages.
 */
UidHwmStatus
UidHwmRestoredStatus(bool *legacy)
{
	*legacy = hwm->legacy;
	return hwm->status;
}

/*
 * What generator g's floor is at start-up and where it came from, for the
 * start-up log line (floor.c).  In the postmaster, after
 * UidHwmShmemInit.  A recovery may raise it later, and logs that at its end.
 */
void
UidHwmDescribeFloor(UidGenerator g, char *buf, size_t len)
{
	const char *fn = g == UID_GEN_UID_NEXT ? "uid_advance_past()" : "uuid7_advance_past()";
	const char *at = timestamptz_to_str(UidUnixMsToTimestamptz(hwm->floor_ms[g] + UID_EPOCH_MS));

	if (hwm->lost[g])
		snprintf(buf, len, "unknown (%s; it refuses, UID07, unless the recovery replays a reservation, until %s gives it)",
				 hwm->status == UID_HWM_LOST ? "uid.hwm is missing or empty, and uid.issued says values were issued"
				 : "uid.hwm says it was lost", fn);
	else if (hwm->status == UID_HWM_CORRUPT)
		snprintf(buf, len, "unknown (uid.hwm is damaged; it refuses, XX001)");
	else if (hwm->status == UID_HWM_NEW)
		snprintf(buf, len, "none (no uid.hwm: nothing was issued in this data directory)");
	else if (hwm->floor_ms[g] == 0)
		snprintf(buf, len, "none (uid.hwm holds nothing issued)");
	else if (hwm->status == UID_HWM_CLEAN)
		snprintf(buf, len, "%s from uid.hwm (the last value before a clean shutdown)", at);
	else
		snprintf(buf, len, "%s from uid.hwm (its reservation: the previous run did not exit cleanly)", at);
}

/*
 * Generator o's reservation as it stands: the published one, or a larger
 * one written and awaiting the synchronous standbys.  Under the uid LWLock.
 */
static int64
UidHwmLatest(int o)
{
	return Max((int64) pg_atomic_read_u64(&hwm->reserved_ms[o]), hwm->pending_ms[o]);
}

/*
 * The reservations to write when generator g must cover ms: each
 * generator's current one (the larger of the published and a pending one),
 * g's moved to ms plus a window (uid.reserve_window_ms, floor.c).  Under
 * the uid LWLock.
 */
static void
UidHwmNextTarget(UidGenerator g, int64 ms, int window_ms, int64 *target)
{
	int64		now = UidClockNowUnixMs() - UID_EPOCH_MS;

	for (int o = 0; o < UID_GENERATORS; o++)
	{
		target[o] = UidHwmLatest(o);

		/*
		 * The other generator's reservation goes forward with this write
		 * when it is about to need it, by the clock, never by g's time: so
		 * g far ahead of the clock leaves the other's floor alone.
		 */
		if (o != (int) g && !hwm->lost[o] && now >= 0 && now + window_ms / 2 > target[o])
			target[o] = Min(now + window_ms, UID_MAX_TIME);
	}
	target[g] = Max(target[g], Min(ms + window_ms, UID_MAX_TIME));
}

/* Makes these reservations the ones values are issued under.  Under the uid LWLock. */
static void
UidHwmPublish(const int64 *target)
{
	for (int o = 0; o < UID_GENERATORS; o++)
		if ((uint64) target[o] > pg_atomic_read_u64(&hwm->reserved_ms[o]))
			pg_atomic_write_u64(&hwm->reserved_ms[o], (uint64) target[o]);
}

/*
 * Makes sure the reservation of generator g covers millisecond ms before a
 * value in it is returned: in uid.hwm, and in a WAL record flushed locally
 * (wal_floor.c) and, when commits wait for synchronous standbys, on them.
 * Called when ms comes within half a window of g's reservation: if ms is
 * still covered and another backend is already extending, return at once
 * rather than queue behind its fsync.
 *
 * The wait for synchronous standbys happens without the lock, so that it
 * can be canceled like a commit's; meanwhile the written reservation is
 * pending (hwm->pending_ms, pending_lsn): a backend that needs no more than
 * it waits for the same record instead of writing another, and values are
 * issued under it only once a wait for it has returned confirmed.  A call
 * whose ms is still covered writes the next reservation ahead of time and
 * does not wait: by the time a call needs it, the standbys have usually
 * confirmed it, and that call's wait returns at once.
 */
void
UidHwmEnsureCovers(UidGenerator g, int64 ms, int window_ms)
{
	bool		must = (uint64) ms > pg_atomic_read_u64(&hwm->reserved_ms[g]);
	/* what the reservation should reach; the end of the layout caps it */
	int64		want = Min(ms + window_ms / 2, UID_MAX_TIME);

	if (unlikely(hwm->status == UID_HWM_CORRUPT))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid high-water mark file \"%s\" is damaged", UID_HWM_FILE),
				 errdetail("Without it uid_next() and uuid7() cannot prove that a new value is later than every value issued before."),
				 errhint("Stop the server, remove the file, start it again, and call uid_advance_past() and "
						 "uuid7_advance_past() with the largest values stored.")));
	if (unlikely(hwm->lost[g]) && UidHwmFloorLost(g))
		UidHwmRefuseLost(g);

	if (must)
		LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
	else if (!LWLockConditionalAcquire(hwm->lock, LW_EXCLUSIVE))
		return;

	while ((uint64) want > pg_atomic_read_u64(&hwm->reserved_ms[g]))
	{
		int64		target[UID_GENERATORS];
		XLogRecPtr	lsn;

		if (hwm->pending_lsn != InvalidXLogRecPtr && hwm->pending_ms[g] >= want)
		{
			if (!must)
				break;			/* ms is covered; the pending write is someone's */
			lsn = hwm->pending_lsn;
			memcpy(target, hwm->pending_ms, sizeof(target));
		}
		else
		{
			UidHwmNextTarget(g, ms, window_ms, target);
			UidHwmWrite(target, false, ERROR);
			pg_atomic_fetch_add_u64(&hwm->writes, 1);
			lsn = UidWalFloorLog(target);
			if (!UidWalFloorMustWait(lsn))
			{
				UidHwmPublish(target);
				break;
			}
			memcpy(hwm->pending_ms, target, sizeof(target));
			hwm->pending_lsn = lsn;
			if (!must)
				break;			/* ms is covered: the first call past it waits */
		}
		LWLockRelease(hwm->lock);
		UidWalFloorWait(lsn);	/* raises when the wait ends unconfirmed */
		LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
		UidHwmPublish(target);
		if (hwm->pending_lsn <= lsn)
			hwm->pending_lsn = InvalidXLogRecPtr;
	}
	LWLockRelease(hwm->lock);
}

/*
 * Called when a generator opens a new millisecond: if a checkpoint has begun
 * since the last record of the reservations (UidWalFloorStale), write them
 * again, so that a crash recovery from that checkpoint replays them.  The
 * reservations themselves do not move.
 */
void
UidHwmRelogIfCheckpointed(void)
{
	if (likely(!UidWalFloorStale()))
		return;
	LWLockAcquire(hwm->lock, LW_EXCLUSIVE);
	if (UidWalFloorStale())
	{
		int64		current[UID_GENERATORS];

		for (int o = 0; o < UID_GENERATORS; o++)
			current[o] = UidHwmLatest(o);
		(void) UidWalFloorLog(current);
	}
	LWLockRelease(hwm->lock);
}

/* The end of uid_next()'s durable reservation (uid_stats.reserved_until). */
int64
UidHwmReservedMs(void)
{
	return (int64) pg_atomic_read_u64(&hwm->reserved_ms[UID_GEN_UID_NEXT]);
}

/*
 * Clean postmaster exit: replace the reservations with the exact last issued
 * time of each generator, so that the next start does not wait for the
 * reserved window.  last_ms[g] may lie beyond g's reservation only when
 * nothing was returned there (a generator's start state sits just above its
 * floor); then the reservation itself bounds everything g issued.
 */
void
UidHwmShutdown(const int64 *last_ms)
{
	int64		exact[UID_GENERATORS];

	if (hwm == NULL || hwm->status == UID_HWM_CORRUPT)
		return;
	UidHwmApplyWalCover();
	for (int g = 0; g < UID_GENERATORS; g++)
		exact[g] = hwm->lost[g] ? hwm->floor_ms[g] :
			Max(Min(last_ms[g], (int64) pg_atomic_read_u64(&hwm->reserved_ms[g])),
				hwm->floor_ms[g]);
	(void) UidHwmWrite(exact, true, LOG);
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
