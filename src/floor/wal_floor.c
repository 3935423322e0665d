/*
 * wal_floor.c
 *		Issued time in the write-ahead log: uid's WAL resource manager.
 *
 * Each time a generator's durable reservation of time moves ahead (hwm.c,
 * about twice per reserve window under load), the same reservations also go
 * into one small WAL record, flushed before any value is returned past the
 * old reservation.  Every server that replays the WAL (crash recovery, a
 * base backup, point-in-time recovery, a physical standby at any depth of
 * cascading) raises its recovery floor to the records it replayed, so the
 * first value after the recovery sorts above everything the WAL says was
 * reserved, with or without uid.hwm.  It is what a sequence gets from
 * logging ahead, at one record per reservation rather than per value.
 *
 * Crash recovery starts at the last checkpoint's redo point, so a record
 * written before it is not replayed there.  The generators write the current
 * reservations again in the first new millisecond after a checkpoint has
 * begun (UidWalFloorStale), so that a record follows every redo point
 * while values are issued.
 *
 * With synchronous standbys (synchronous_standby_names, and synchronous_commit
 * above local), the generator waits, as a commit does, for the record to be
 * flushed on them before it issues past the previous reservation: a promoted
 * synchronous standby then starts above every value the old primary returned,
 * stored or not.
 *
 * Shared state and its guards:
 *	replayed_ms[g]	atomics: the largest reservation of generator g in the
 *					records that this postmaster's recovery replayed; raised
 *					by the startup process only, read by the first value
 *					after the recovery (floor.c).
 *	replayed_worker	atomic: the worker id (+1) of the record that set
 *					replayed_ms[UID_GEN_UID_NEXT]; 0 when none was replayed.
 *	replayed_records	atomic: the records replayed, for the log at the end of redo.
 *	last_end		atomic: the end of the last record this server wrote;
 *					written under the uid LWLock (hwm.c).
 *	replayed_end	atomic: the end of the last record this postmaster's
 *					recovery replayed; raised by the startup process only.
 *	start_redo		the redo point of the checkpoint the server started
 *					from (pg_control, read once at shared memory set-up,
 *					before recovery): every record of an earlier run that
 *					this run did not replay ends at or before it.
 *	worker			atomic: the worker id (+1) the records name, set by the
 *					generator when its grant changes.
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "catalog/pg_control.h"
#include "common/controldata_utils.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "floor/wal_floor.h"
#include "ids.h"

/* the one kind of record: the reservations as they now stand */
#define XLOG_UID_RESERVED	0x00

/*
 * The record.  reserved_ms[g] is the end of generator g's durable
 * reservation (ms since the uid epoch; 0: nothing reserved), written_ms the
 * writer's clock (ms since the Unix epoch), for the description.
 */
typedef struct xl_uid_reserved
{
	int64		reserved_ms[UID_GENERATORS];
	int64		written_ms;
	int32		worker_id;		/* -1: none */
	uint32		flags;			/* 0; a later version may set bits */
} xl_uid_reserved;

typedef struct UidWalFloorShared
{
	pg_atomic_uint64 replayed_ms[UID_GENERATORS];
	pg_atomic_uint32 replayed_worker;
	pg_atomic_uint64 replayed_records;
	pg_atomic_uint64 last_end;
	pg_atomic_uint64 replayed_end;
	XLogRecPtr	start_redo;
	pg_atomic_uint32 worker;
} UidWalFloorShared;

static UidWalFloorShared *floor_shared = NULL;

bool		uid_wal_reservations = true;

static void uid_rmgr_redo(XLogReaderState *record);
static void uid_rmgr_desc(StringInfo buf, XLogReaderState *record);
static const char *uid_rmgr_identify(uint8 info);
static void uid_rmgr_cleanup(void);

static RmgrData uid_rmgr = {
	.rm_name = UID_RMGR_NAME,
	.rm_redo = uid_rmgr_redo,
	.rm_desc = uid_rmgr_desc,
	.rm_identify = uid_rmgr_identify,
	.rm_cleanup = uid_rmgr_cleanup,
};

void
UidWalFloorDefineSettings(void)
{
	DefineCustomBoolVariable("uid.wal_reservations",
							 "Writes uid_next()'s and uuid7()'s reservations of time to the WAL.",
							 "Recovery, base backups and standbys then start above every reservation "
							 "they replayed, even without uid.hwm.",
							 &uid_wal_reservations,
							 true,
							 PGC_SIGHUP,
							 0,
							 NULL, NULL, NULL);
}

/*
 * In _PG_init, while the preloaded libraries load: the records can only be
 * replayed by a server that registered the resource manager before its
 * recovery starts.
 */
void
UidWalFloorRegister(void)
{
	RegisterCustomRmgr(UID_RMGR_ID, &uid_rmgr);
}

Size
UidWalFloorShmemSize(void)
{
	return MAXALIGN(sizeof(UidWalFloorShared));
}

/*
 * In the postmaster, as shared memory is set up (also again after a crash of
 * a backend), before the startup process recovers: the checkpoint the server
 * starts from is the one in pg_control.
 */
void
UidWalFloorShmemInit(void)
{
	bool		found;
	bool		crc_ok;
	ControlFileData *control;

	floor_shared = ShmemInitStruct("uid WAL floor", UidWalFloorShmemSize(), &found);
	if (found)
		return;
	for (int g = 0; g < UID_GENERATORS; g++)
		pg_atomic_init_u64(&floor_shared->replayed_ms[g], 0);
	pg_atomic_init_u32(&floor_shared->replayed_worker, 0);
	pg_atomic_init_u64(&floor_shared->replayed_records, 0);
	pg_atomic_init_u64(&floor_shared->last_end, InvalidXLogRecPtr);
	pg_atomic_init_u64(&floor_shared->replayed_end, InvalidXLogRecPtr);
	pg_atomic_init_u32(&floor_shared->worker, 0);
	control = get_controlfile(DataDir, &crc_ok);
	floor_shared->start_redo = crc_ok ? control->checkPointCopy.redo : InvalidXLogRecPtr;
	pfree(control);
}

/* The worker id that the next records name (-1: none). */
void
UidWalFloorSetWorker(int worker)
{
	if (floor_shared != NULL)
		pg_atomic_write_u32(&floor_shared->worker, (uint32) (worker + 1));
}

/*
 * Writes a record of these reservations (one per generator) and flushes it;
 * returns its end, or InvalidXLogRecPtr when no record is written: the
 * setting is off, or this server is a standby (where only uuid7() issues,
 * from a generator of its own that no other server continues).  Called
 * under the uid LWLock.
 */
XLogRecPtr
UidWalFloorLog(const int64 *reserved_ms)
{
	xl_uid_reserved rec;
	XLogRecPtr	end;

	if (!uid_wal_reservations || RecoveryInProgress())
		return InvalidXLogRecPtr;
	memset(&rec, 0, sizeof(rec));
	for (int g = 0; g < UID_GENERATORS; g++)
		rec.reserved_ms[g] = reserved_ms[g];
	rec.written_ms = UidClockNowUnixMs();
	rec.worker_id = (int32) pg_atomic_read_u32(&floor_shared->worker) - 1;

	XLogBeginInsert();
	XLogRegisterData((char *) &rec, sizeof(rec));
	end = XLogInsert(UID_RMGR_ID, XLOG_UID_RESERVED);
	XLogFlush(end);
	pg_atomic_write_u64(&floor_shared->last_end, end);
	return end;
}

/*
 * Whether synchronous standbys are in effect and have not yet flushed the
 * WAL up to lsn, as the WAL senders last reported it.
 */
static bool
UidWalFloorStandbysBehind(XLogRecPtr lsn)
{
	bool		behind;

	LWLockAcquire(SyncRepLock, LW_SHARED);
	behind = (WalSndCtl->sync_standbys_status & SYNC_STANDBY_DEFINED) != 0 &&
		WalSndCtl->lsn[SYNC_REP_WAIT_FLUSH] < lsn;
	LWLockRelease(SyncRepLock);
	return behind;
}

/*
 * Whether the generator must wait for synchronous standbys to flush the
 * record ending at lsn before issuing past the previous reservation: when a
 * commit would wait for them (synchronous_commit above local, and
 * synchronous_standby_names in effect).
 */
bool
UidWalFloorMustWait(XLogRecPtr lsn)
{
	return lsn != InvalidXLogRecPtr && SyncRepRequested() && UidWalFloorStandbysBehind(lsn);
}

/*
 * Waits, as a commit does, for the synchronous standbys to flush the record
 * ending at lsn.  PostgreSQL's wait ends early on a cancel or a
 * termination (with its own WARNING); then the reservation is not
 * confirmed, and the caller must not issue past the previous one: ERROR.
 */
void
UidWalFloorWait(XLogRecPtr lsn)
{
	SyncRepWaitForLSN(lsn, false);
	CHECK_FOR_INTERRUPTS();
	if (UidWalFloorStandbysBehind(lsn))
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("uid: canceled while waiting for the synchronous standbys to confirm a reservation of time"),
				 errdetail("No value was issued past the previous reservation; a promoted synchronous standby could not know of it."),
				 errhint("Check that the standbys of synchronous_standby_names are connected (pg_stat_replication); the next call waits again.")));
}

/*
 * Whether a checkpoint has begun since this server last wrote a record (or
 * none was written in this run): then crash recovery would start past it,
 * and the reservations must be written again before the next new
 * millisecond is issued.  Reads the redo point under its spinlock: the
 * generators call this once per new millisecond, not per value.
 */
bool
UidWalFloorStale(void)
{
	XLogRecPtr	last;

	if (!uid_wal_reservations || floor_shared == NULL || RecoveryInProgress())
		return false;
	last = pg_atomic_read_u64(&floor_shared->last_end);
	return last == InvalidXLogRecPtr || GetRedoRecPtr() >= last;
}

/*
 * The largest reservation of generator g that this postmaster's recovery
 * replayed (ms since the uid epoch), 0 if none; *worker is the worker id of
 * the record that gave uid_next()'s (-1 if none).
 */
int64
UidWalFloorReplayedMs(UidGenerator g, int *worker)
{
	if (floor_shared == NULL)
	{
		*worker = -1;
		return 0;
	}
	*worker = (int) pg_atomic_read_u32(&floor_shared->replayed_worker) - 1;
	return (int64) pg_atomic_read_u64(&floor_shared->replayed_ms[g]);
}

/*
 * Where uid's last WAL record ends, as far as this server knows, and how it
 * knows: the last record it wrote in this run; else the last its recovery
 * replayed in this run; else a bound: records of earlier runs that this run
 * did not replay end at or before the redo point it started from (also when
 * there were none: the bound is conservative).  InvalidXLogRecPtr with
 * UID_WAL_LAST_BEFORE_START when pg_control could not be read at start.
 */
XLogRecPtr
UidWalFloorLastRecord(UidFloorWalLastKind *kind)
{
	XLogRecPtr	lsn;

	lsn = (XLogRecPtr) pg_atomic_read_u64(&floor_shared->last_end);
	if (lsn != InvalidXLogRecPtr)
	{
		*kind = UID_WAL_LAST_WRITTEN;
		return lsn;
	}
	lsn = (XLogRecPtr) pg_atomic_read_u64(&floor_shared->replayed_end);
	if (lsn != InvalidXLogRecPtr)
	{
		*kind = UID_WAL_LAST_REPLAYED;
		return lsn;
	}
	*kind = UID_WAL_LAST_BEFORE_START;
	return floor_shared->start_redo;
}

/* The record's contents, checked: a damaged or unknown record stops recovery. */
static void
UidWalFloorRead(XLogReaderState *record, xl_uid_reserved *rec)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;

	if (info != XLOG_UID_RESERVED || XLogRecGetDataLen(record) != sizeof(xl_uid_reserved))
		elog(PANIC, "uid: unknown WAL record (info %u, %u bytes)",
			 info, (unsigned) XLogRecGetDataLen(record));
	memcpy(rec, XLogRecGetData(record), sizeof(*rec));
}

/*
 * Redo, in the startup process: raise the recovery floors.  The generators
 * apply them with the first value after the recovery ends (floor.c).
 */
static void
uid_rmgr_redo(XLogReaderState *record)
{
	xl_uid_reserved rec;

	UidWalFloorRead(record, &rec);
	for (int g = 0; g < UID_GENERATORS; g++)
	{
		uint64		before = pg_atomic_read_u64(&floor_shared->replayed_ms[g]);

		if (rec.reserved_ms[g] < 0 || rec.reserved_ms[g] > UID_MAX_TIME)
			continue;			/* nothing this layout can issue */
		(void) UidAtomicRaiseU64(&floor_shared->replayed_ms[g], (uint64) rec.reserved_ms[g]);
		if (g == UID_GEN_UID_NEXT && (uint64) rec.reserved_ms[g] >= before)
			pg_atomic_write_u32(&floor_shared->replayed_worker, (uint32) (rec.worker_id + 1));
	}
	(void) UidAtomicRaiseU64(&floor_shared->replayed_end, (uint64) record->EndRecPtr);
	pg_atomic_fetch_add_u64(&floor_shared->replayed_records, 1);
}

/* An ms since the uid epoch as a timestamp; "none" for 0. */
static void
UidWalFloorDescMs(StringInfo buf, const char *what, int64 ms)
{
	if (ms <= 0 || ms > UID_MAX_TIME)
		appendStringInfo(buf, "%s none", what);
	else
		appendStringInfo(buf, "%s %s", what,
						 timestamptz_to_str(UidUnixMsToTimestamptz(ms + UID_EPOCH_MS)));
}

/* For pg_walinspect and the context of errors during redo. */
static void
uid_rmgr_desc(StringInfo buf, XLogReaderState *record)
{
	xl_uid_reserved rec;

	UidWalFloorRead(record, &rec);
	appendStringInfo(buf, "worker id %d; ", rec.worker_id);
	UidWalFloorDescMs(buf, "uid_next() reserved through", rec.reserved_ms[UID_GEN_UID_NEXT]);
	UidWalFloorDescMs(buf, "; uuid7() reserved through", rec.reserved_ms[UID_GEN_UUID7]);
	appendStringInfo(buf, "; written at %s", timestamptz_to_str(UidUnixMsToTimestamptz(rec.written_ms)));
}

static const char *
uid_rmgr_identify(uint8 info)
{
	return (info & ~XLR_INFO_MASK) == XLOG_UID_RESERVED ? "RESERVED" : NULL;
}

/* End of redo: say what the WAL reserved, before the first value says it again. */
static void
uid_rmgr_cleanup(void)
{
	uint64		n = pg_atomic_read_u64(&floor_shared->replayed_records);
	int64		ms = (int64) pg_atomic_read_u64(&floor_shared->replayed_ms[UID_GEN_UID_NEXT]);

	if (n == 0)
		return;
	if (ms > 0)
		ereport(LOG,
				(errmsg("uid: recovery replayed %llu reservation records; uid_next() issues only after %s (reserved by worker id %d)",
						(unsigned long long) n,
						timestamptz_to_str(UidUnixMsToTimestamptz(ms + UID_EPOCH_MS)),
						(int) pg_atomic_read_u32(&floor_shared->replayed_worker) - 1)));
	else
		ereport(LOG,
				(errmsg("uid: recovery replayed %llu reservation records", (unsigned long long) n)));
}
