/*
 * wal_removal.c
 *		uid_removal_check(): whether uid can leave shared_preload_libraries
 *		now, and what still needs it.
 *
 * Every process that reads WAL holding a record of uid's resource manager
 * (floor/wal_floor.c) needs uid loaded: crash recovery from a redo point before
 * the record, a standby that has not replayed it, logical decoding of a slot
 * whose restart_lsn is before it (the decoder looks up the resource manager
 * of every record it reads, from restart_lsn on, and stops at one that is
 * not registered), and a point-in-time recovery through an archive or a
 * base backup that holds it.  The check compares each with the end of uid's
 * last record (UidFloorWalLastRecord): one row per thing, and a first row
 * with the verdict.
 *
 * It reads shared memory only: the slots under ReplicationSlotControlLock
 * and each slot's spinlock, the WAL senders under their spinlocks, as
 * pg_get_replication_slots() and pg_stat_get_wal_senders() do, and
 * pg_control under ControlFileLock, as pg_control_checkpoint() does.
 */
#include "postgres.h"

#include "access/xlog.h"
#include "catalog/pg_control.h"
#include "common/controldata_utils.h"
#include "fmgr.h"
#include "replication/slot.h"
#include "replication/walsender_private.h"
#include "storage/lwlock.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/pg_lsn.h"
#include "utils/tuplestore.h"

#include "compat.h"
#include "core/preload.h"
#include "floor/floor.h"

#define REMOVAL_COLUMNS 5

PG_FUNCTION_INFO_V1(uid_removal_check);

typedef struct RemovalRow
{
	bool		ready;
	char	   *what;
	XLogRecPtr	lsn;			/* InvalidXLogRecPtr: NULL */
	char	   *detail;
	char	   *action;
} RemovalRow;

static void
RemovalAdd(List **rows, bool ready, XLogRecPtr lsn, char *what, char *detail, char *action)
{
	RemovalRow *row = palloc(sizeof(RemovalRow));

	row->ready = ready;
	row->what = what;
	row->lsn = lsn;
	row->detail = detail;
	row->action = action;
	*rows = lappend(*rows, row);
}

/* The redo point of the last completed checkpoint (or restartpoint). */
static XLogRecPtr
RemovalCheckpointRedo(void)
{
	ControlFileData *control;
	bool		crc_ok;
	XLogRecPtr	redo;

	LWLockAcquire(ControlFileLock, LW_SHARED);
	control = get_controlfile(DataDir, &crc_ok);
	LWLockRelease(ControlFileLock);
	if (!crc_ok)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("calculated CRC checksum does not match value stored in file")));
	redo = control->checkPointCopy.redo;
	pfree(control);
	return redo;
}

/* One row per replication slot. */
static void
RemovalSlots(List **rows, XLogRecPtr last, List **logical_pids)
{
	LWLockAcquire(ReplicationSlotControlLock, LW_SHARED);
	for (int i = 0; i < max_replication_slots; i++)
	{
		ReplicationSlot *slot = &ReplicationSlotCtl->replication_slots[i];
		char		name[NAMEDATALEN];
		bool		logical;
		XLogRecPtr	restart;
		pid_t		pid;

		if (!slot->in_use)
			continue;
		SpinLockAcquire(&slot->mutex);
		strlcpy(name, NameStr(slot->data.name), NAMEDATALEN);
		logical = SlotIsLogical(slot);
		restart = slot->data.restart_lsn;
		pid = UidSlotActivePid(slot);
		SpinLockRelease(&slot->mutex);

		if (logical && pid != 0)
			*logical_pids = lappend_int(*logical_pids, (int) pid);
		if (restart == InvalidXLogRecPtr)
			RemovalAdd(rows, true, restart,
					   psprintf("%s slot \"%s\"", logical ? "logical" : "physical", name),
					   pstrdup("the slot holds no WAL (invalidated, or never used)"),
					   pstrdup("none"));
		else if (restart >= last)
			RemovalAdd(rows, true, restart,
					   psprintf("%s slot \"%s\"", logical ? "logical" : "physical", name),
					   psprintf("restart_lsn %X/%X is past uid's last record",
								LSN_FORMAT_ARGS(restart)),
					   pstrdup("none"));
		else if (logical)
			RemovalAdd(rows, false, restart,
					   psprintf("logical slot \"%s\"", name),
					   psprintf("restart_lsn %X/%X is before the end of uid's last record (%X/%X): decoding from it without uid fails with \"resource manager with ID %d not registered\"",
								LSN_FORMAT_ARGS(restart), LSN_FORMAT_ARGS(last), UID_RMGR_ID),
					   psprintf("let the slot's consumer (subscription, CDC client) run and confirm its changes until restart_lsn passes %X/%X (a CHECKPOINT helps it along), or drop the slot",
								LSN_FORMAT_ARGS(last)));
		else
			RemovalAdd(rows, false, restart,
					   psprintf("physical slot \"%s\"", name),
					   psprintf("restart_lsn %X/%X is before the end of uid's last record (%X/%X): the standby or backup that uses it still has uid's records to replay",
								LSN_FORMAT_ARGS(restart), LSN_FORMAT_ARGS(last)),
					   psprintf("keep uid on that standby until it has replayed past %X/%X (its own uid_removal_check() says when), or drop the slot",
								LSN_FORMAT_ARGS(last)));
	}
	LWLockRelease(ReplicationSlotControlLock);
}

/*
 * One row per WAL sender that streams WAL physically (a standby,
 * pg_receivewal); a base backup's is the advice row's concern.
 */
static void
RemovalStandbys(List **rows, XLogRecPtr last, List *logical_pids)
{
	for (int i = 0; i < max_wal_senders; i++)
	{
		WalSnd	   *walsnd = &WalSndCtl->walsnds[i];
		pid_t		pid;
		XLogRecPtr	apply;
		XLogRecPtr	flush;

		WalSndState state;

		SpinLockAcquire(&walsnd->mutex);
		pid = walsnd->pid;
		state = walsnd->state;
		apply = walsnd->apply;
		flush = walsnd->flush;
		SpinLockRelease(&walsnd->mutex);
		/* streaming WAL, not only connected (a replication session's SHOW) */
		if (pid == 0 || (state != WALSNDSTATE_CATCHUP && state != WALSNDSTATE_STREAMING) ||
			list_member_int(logical_pids, (int) pid))
			continue;
		if (apply != InvalidXLogRecPtr && apply >= last)
			RemovalAdd(rows, true, apply,
					   psprintf("standby of WAL sender %d", (int) pid),
					   psprintf("replayed up to %X/%X, past uid's last record", LSN_FORMAT_ARGS(apply)),
					   pstrdup("none"));
		else
			RemovalAdd(rows, false, apply,
					   psprintf("standby of WAL sender %d", (int) pid),
					   apply == InvalidXLogRecPtr
					   ? psprintf("reports no replay position (flushed up to %X/%X; pg_receivewal and pg_basebackup report none): it may still replay uid's records up to %X/%X",
								  LSN_FORMAT_ARGS(flush), LSN_FORMAT_ARGS(last))
					   : psprintf("replayed up to %X/%X, before the end of uid's last record (%X/%X)",
								  LSN_FORMAT_ARGS(apply), LSN_FORMAT_ARGS(last)),
					   psprintf("wait until it has replayed past %X/%X (pg_stat_replication.replay_lsn), and keep uid loaded there until then; WAL it keeps for a restore needs uid where it is restored",
								LSN_FORMAT_ARGS(last)));
	}
}

/*
 * uid_removal_check(): rows (ready, what, lsn, detail, action).  The first
 * says whether uid can leave shared_preload_libraries now, and where uid's
 * last WAL record ends; the others what still needs uid and what to do.
 */
Datum
uid_removal_check(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	UidFloorWalLastKind kind;
	XLogRecPtr	last;
	XLogRecPtr	redo;
	List	   *rows = NIL;
	List	   *logical_pids = NIL;
	bool		all_ready = true;
	bool		standby;
	ListCell   *lc;
	char	   *known;

	UidRequireSharedMemory("uid_removal_check");
	InitMaterializedSRF(fcinfo, 0);

	last = UidFloorWalLastRecord(&kind);
	standby = RecoveryInProgress();
	redo = RemovalCheckpointRedo();

	RemovalAdd(&rows, !UidFloorWalReservations(), InvalidXLogRecPtr,
			   pstrdup("uid.wal_reservations"),
			   UidFloorWalReservations()
			   ? pstrdup(standby
						 ? "on: once this server is promoted, every new reservation of time writes a record"
						 : "on: every new reservation of time writes a record")
			   : pstrdup("off: no new records"),
			   UidFloorWalReservations()
			   ? pstrdup("ALTER SYSTEM SET uid.wal_reservations = off; SELECT pg_reload_conf();")
			   : pstrdup("none"));

	if (last > redo)
		RemovalAdd(&rows, false, redo,
				   pstrdup(standby ? "restart of this standby" : "crash recovery"),
				   psprintf("the last %s's redo point (%X/%X) is before the end of uid's last record (%X/%X): a restart after a crash would replay it, and without uid the server does not start",
							standby ? "restartpoint" : "checkpoint",
							LSN_FORMAT_ARGS(redo), LSN_FORMAT_ARGS(last)),
				   standby
				   ? psprintf("wait until this standby has replayed past %X/%X and a restartpoint has passed it (CHECKPOINT here)", LSN_FORMAT_ARGS(last))
				   : pstrdup("CHECKPOINT (once uid.wal_reservations is off)"));
	else
		RemovalAdd(&rows, true, redo,
				   pstrdup(standby ? "restart of this standby" : "crash recovery"),
				   psprintf("starts at %X/%X, past uid's last record", LSN_FORMAT_ARGS(redo)),
				   pstrdup("none"));

	RemovalSlots(&rows, last, &logical_pids);
	if (!standby)
		RemovalStandbys(&rows, last, logical_pids);

	foreach(lc, rows)
		all_ready = all_ready && ((RemovalRow *) lfirst(lc))->ready;

	/* uid cannot see backups and archives: advice, not a condition */
	RemovalAdd(&rows, true, last,
			   pstrdup("base backups and WAL archives"),
			   psprintf("uid cannot see them: restoring a base backup taken before %X/%X, or a point-in-time recovery through WAL from before it, replays uid's records",
						LSN_FORMAT_ARGS(last)),
			   psprintf("restore such backups with uid in shared_preload_libraries (keep its files installed), or take a new base backup after the removal and keep only WAL from after %X/%X",
						LSN_FORMAT_ARGS(last)));

	switch (kind)
	{
		case UID_WAL_LAST_WRITTEN:
			known = psprintf("uid's last WAL record ends at %X/%X (written since the server started)",
							 LSN_FORMAT_ARGS(last));
			break;
		case UID_WAL_LAST_REPLAYED:
			known = psprintf("uid's last WAL record ends at %X/%X (replayed since the server started)",
							 LSN_FORMAT_ARGS(last));
			break;
		default:
			known = psprintf("no uid WAL record was written or replayed since the server started; any earlier one ends at or before %X/%X, the redo point it started from, which the check takes as the last (conservative)",
							 LSN_FORMAT_ARGS(last));
			break;
	}
	rows = lcons(NULL, rows);
	{
		RemovalRow *verdict = palloc(sizeof(RemovalRow));

		verdict->ready = all_ready;
		verdict->what = pstrdup("uid can leave shared_preload_libraries");
		verdict->lsn = last;
		verdict->detail = known;
		verdict->action = all_ready
			? pstrdup("remove uid from shared_preload_libraries and restart; then run uid_removal_check() on each standby before removing it there")
			: pstrdup("do what the rows that are not ready say, then check again");
		linitial(rows) = verdict;
	}

	foreach(lc, rows)
	{
		RemovalRow *row = lfirst(lc);
		Datum		values[REMOVAL_COLUMNS];
		bool		nulls[REMOVAL_COLUMNS] = {false};

		values[0] = BoolGetDatum(row->ready);
		values[1] = CStringGetTextDatum(row->what);
		if (row->lsn == InvalidXLogRecPtr)
			nulls[2] = true;
		else
			values[2] = LSNGetDatum(row->lsn);
		values[3] = CStringGetTextDatum(row->detail);
		values[4] = CStringGetTextDatum(row->action);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
