/*
 * floor.c
 *		Durable issued time, the front door (floor.h, README.md of this
 *		folder): the floors below which uid_next() and uuid7() issue nothing,
 *		where each comes from, and why.
 *
 * A generator asks this module two things.  On the hot path: make time
 * durable before a value in it is returned (UidFloorEnsureCovers, which
 * writes uid.hwm and a WAL record and, with synchronous standbys, waits for
 * them: hwm.c, wal_floor.c).  Once after a start: the floor to start above
 * (UidFloorAtStart), the latest of what this server knows was issued before:
 *
 *	uid.hwm				the previous run's reservation, or its exact last
 *						time after a clean exit (hwm.c), read at start-up;
 *	replayed_commit		the commit time of the last transaction a recovery
 *						replayed (a crash, a base backup, PITR, a promotion):
 *						no new ID sorts below the IDs stored before;
 *	wal					the largest reservation in the WAL a recovery
 *						replayed (wal_floor.c): every value was issued under a
 *						reservation flushed to the WAL first, so this bounds
 *						everything the WAL's writer issued up to where the
 *						replay stopped, stored or not, with or without uid.hwm;
 *	primary_watch		a promoted standby with its old primary's static
 *						worker id: the time that primary could have reached by
 *						the promotion, learned from it while this server was
 *						its standby (primary_watch.c).  It covers what the WAL
 *						cannot: the reservations an asynchronous standby never
 *						received before its primary died;
 *	lease				the worker id's previous holder (the lease worker);
 *	uid_advance_past	an operator's value.
 *
 * The generator's own state word stays in generator.c: this module returns
 * the floor and the generator raises its state to it, so that nothing here
 * calls up into the generator.
 *
 * Shared state and its guards:
 *	floor_ms		atomic: uid_next()'s floor (ms since the uid epoch), as
 *					last set: at shared-memory init from uid.hwm, then only
 *					raised (UidFloorRaise).  While the generator's state sits
 *					at it, nothing has been issued since, and a clock behind
 *					it by up to the reserve window is waited out.
 *	origin			atomic: who set floor_ms last (UidFloorOrigin), written
 *					after a raise; read only to explain a refusal.
 *	static_worker	the static uid.worker_id (-1 in lease mode), written once
 *					by the postmaster at shared-memory init.
 */
#include "postgres.h"

#include "port/atomics.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "floor/floor.h"
#include "floor/hwm.h"
#include "floor/primary_watch.h"
#include "floor/wal_floor.h"
#include "ids.h"

typedef struct UidFloorShared
{
	pg_atomic_uint64 floor_ms;
	pg_atomic_uint32 origin;
	int			static_worker;
} UidFloorShared;

static UidFloorShared *fl = NULL;

/* uid.reserve_window_ms, read inline on the hot path (floor.h) */
int			uid_reserve_window_ms = 1000;

/* the reservations of hwm.c, read inline on the hot path (floor.h) */
pg_atomic_uint64 *uid_floor_reserved_ms = NULL;

static char *uid_issued_through = NULL;	/* shown by UidIssuedThroughShow */

/*
 * The value of uid.issued_through, computed when shown: what a standby asks
 * its primary for (primary_watch.c) over a replication connection.  The
 * worker id is in every ID and the times are close to now, so any role may
 * read it.  The time is the end of uid_next()'s reservation, or its floor
 * where that is later (a floor raised while uid.hwm was lost): in either
 * case at or past every ID issued under a static worker id.
 */
static const char *
UidIssuedThroughShow(void)
{
	static char buf[96];
	char		worker[16];

	if (fl == NULL)
		return "";
	if (fl->static_worker < 0)
		strlcpy(worker, "lease", sizeof(worker));
	else
		snprintf(worker, sizeof(worker), "%d", fl->static_worker);
	snprintf(buf, sizeof(buf), "worker=%s reserved_ms=%lld clock_ms=%lld", worker,
			 (long long) Max(UidHwmReservedMs(), UidFloorMs()),
			 (long long) UidClockNowUnixMs());
	return buf;
}

void
UidFloorDefineSettings(void)
{
	DefineCustomIntVariable("uid.reserve_window_ms",
							"How far ahead of the clock uid_next() and uuid7() durably reserve time.",
							"After a crash, the first uid_next() may wait up to this long; "
							"a larger window means fewer writes to uid.hwm.",
							&uid_reserve_window_ms,
							1000, 10, 600000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	UidWalFloorDefineSettings();
	DefineCustomStringVariable(UID_ISSUED_THROUGH_SETTING,
							   "What uid_next() of this server may have issued through: its worker id, "
							   "the end of its reserved time (ms since the uid epoch) and its clock (Unix ms).",
							   "Read by the standbys of this server, so that a promotion onto the same "
							   "static worker id starts past it.",
							   &uid_issued_through,
							   "",
							   PGC_INTERNAL,
							   GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							   NULL, NULL, UidIssuedThroughShow);
}

/*
 * In _PG_init, while the preloaded libraries load: the WAL resource manager
 * (its records can only be replayed by a server that registered it before
 * recovery starts) and, for a static worker id (static_worker >= 0), the
 * primary watch of a server that starts as a standby.
 */
void
UidFloorRegister(int static_worker)
{
	UidWalFloorRegister();
	if (static_worker >= 0)
		UidPrimaryWatchRegister(static_worker);
}

Size
UidFloorShmemSize(void)
{
	Size		size = MAXALIGN(sizeof(UidFloorShared));

	size = add_size(size, UidHwmShmemSize());
	size = add_size(size, UidWalFloorShmemSize());
	size = add_size(size, UidPrimaryWatchShmemSize());
	return size;
}

/*
 * In the postmaster at start-up and after each crash-and-restart cycle
 * (and in each child under EXEC_BACKEND), before the generators' own: reads
 * uid.hwm, so that uid_next()'s floor starts at its mark.  static_worker is
 * the static uid.worker_id, -1 in lease mode (the lease worker names the
 * worker id later, UidFloorSetWorker).
 */
void
UidFloorShmemInit(int static_worker)
{
	bool		found;

	UidHwmShmemInit();
	UidWalFloorShmemInit();
	UidPrimaryWatchShmemInit();
	uid_floor_reserved_ms = UidHwmReservedArray();

	fl = ShmemInitStruct("uid floor", MAXALIGN(sizeof(UidFloorShared)), &found);
	if (found)
		return;
	pg_atomic_init_u64(&fl->floor_ms, (uint64) UidHwmRestoredFloor(UID_GEN_UID_NEXT));
	pg_atomic_init_u32(&fl->origin, UID_FLOOR_RESTORED);
	fl->static_worker = static_worker;
	UidWalFloorSetWorker(static_worker);
}

/*
 * Clean postmaster exit: the exact last issued time of each generator
 * replaces the reservations in uid.hwm (hwm.c).
 */
void
UidFloorShutdown(const int64 *last_ms)
{
	UidHwmShutdown(last_ms);
}

/* The time (ms since the uid epoch) at or below which generator g may issue nothing from start-up. */
int64
UidFloorRestored(UidGenerator g)
{
	return UidHwmRestoredFloor(g);
}

/* Generator g's floor at start-up and where it came from, for the start-up log line. */
void
UidFloorDescribe(UidGenerator g, char *buf, size_t len)
{
	UidHwmDescribeFloor(g, buf, len);
}

/* The worker id that the WAL records name from now on (-1: none). */
void
UidFloorSetWorker(int worker)
{
	UidWalFloorSetWorker(worker);
}

/* Makes generator g's reservation cover millisecond ms (hwm.c), with the current window. */
void
UidFloorEnsureCovers(UidGenerator g, int64 ms)
{
	UidHwmEnsureCovers(g, ms, uid_reserve_window_ms);
}

/* After a checkpoint began, the reservations go into the WAL again (hwm.c). */
void
UidFloorRelogIfCheckpointed(void)
{
	UidHwmRelogIfCheckpointed();
}

/*
 * Raises uid_next()'s floor to ms, recording who did; the caller then
 * raises the generator's state to it (first the floor that allows the
 * start-up wait, then the state).
 */
void
UidFloorRaise(int64 ms, UidFloorOrigin origin)
{
	if (UidAtomicRaiseU64(&fl->floor_ms, (uint64) ms))
		pg_atomic_write_u32(&fl->origin, origin);
}

/*
 * Raises the floor to ms after making the reservation cover it, durably;
 * while uid_next()'s floor is lost (hwm.c) in memory only: nothing is
 * issued then, and uid_advance_past() covers the state it finds.
 */
void
UidFloorCoverAndRaise(int64 ms, UidFloorOrigin origin)
{
	if (!UidHwmFloorLost(UID_GEN_UID_NEXT))
		UidFloorEnsureCovers(UID_GEN_UID_NEXT, ms);
	UidFloorRaise(ms, origin);
}

/* uid_next()'s floor (ms since the uid epoch). */
int64
UidFloorMs(void)
{
	return (int64) pg_atomic_read_u64(&fl->floor_ms);
}

/*
 * Where uid_next()'s floor came from, for uid_stats.floor_source, and the
 * floor itself (ms since the uid epoch) in *ms.
 */
const char *
UidFloorSource(int64 *ms)
{
	static const char *const names[] = {
		[UID_FLOOR_RESTORED] = "uid.hwm",
		[UID_FLOOR_LEASE] = "lease",
		[UID_FLOOR_RECOVERY] = "replayed_commit",
		[UID_FLOOR_WAL] = "wal",
		[UID_FLOOR_PRIMARY] = "primary_watch",
		[UID_FLOOR_ADVANCE] = "uid_advance_past",
	};
	uint32		origin = pg_atomic_read_u32(&fl->origin);

	*ms = UidFloorMs();
	/* uid.hwm lost where values were issued: it refuses (UID07) */
	if (UidHwmFloorLost(UID_GEN_UID_NEXT))
		return "lost";
	return origin < lengthof(names) ? names[origin] : "unknown";
}

/*
 * Why nothing may be issued at or below the floor, for the UID01 error
 * (clock.c) while the generator's state still sits at it.
 */
const char *
UidFloorExplain(void)
{
	bool		legacy;
	UidHwmStatus status;

	switch ((UidFloorOrigin) pg_atomic_read_u32(&fl->origin))
	{
		case UID_FLOOR_LEASE:
			return "the last time the previous holder of this worker id issued an ID";
		case UID_FLOOR_RECOVERY:
			return "the commit time of the last transaction replayed by recovery, "
				"so that no new ID sorts below the IDs stored before the promotion or restore";
		case UID_FLOOR_WAL:
			return "the end of the reservation of time that the write-ahead log replayed by recovery records, "
				"so that no new ID repeats or sorts below one issued before the crash, restore or promotion";
		case UID_FLOOR_PRIMARY:
			return "the last time the old primary, which used the same static worker id, "
				"could have issued an ID in before this server's promotion (learned from it while this server was its standby)";
		case UID_FLOOR_ADVANCE:
			return "the time uid_advance_past() moved uid_next() to";
		case UID_FLOOR_RESTORED:
			break;
	}
	status = UidHwmRestoredStatus(&legacy);
	if (legacy)
		return "uid_next()'s floor restored from uid.hwm, written by a uid before 1.2 "
			"that kept one floor for uid_next() and uuid7()";
	if (status == UID_HWM_RESERVED)
		return "the time uid_next() had reserved in uid.hwm when the previous run "
			"stopped without a clean shutdown";
	return "uid_next()'s last time in the previous run (its last ID, or a time "
		"uid_advance_past() moved it to), restored from uid.hwm";
}

/*
 * A promoted standby with the static worker id of the primary it replaced:
 * the transactions that primary committed last may never have reached this
 * server, nor the reservation records it wrote last, so neither the last
 * replayed commit nor the replayed WAL bounds their IDs.  Start past the
 * time the old primary could have reached by the promotion, as learned from
 * it (primary_watch.c).  Logged either way when this server streamed from a
 * primary, so an operator can see what a promotion assumed.
 */
static void
UidFloorApplyPrimary(void)
{
	int			worker = fl->static_worker;
	int			primary_worker;
	int64		ms = UidPrimaryWatchFloorMs(worker, &primary_worker);

	if (ms > 0)
	{
		UidFloorCoverAndRaise(ms, UID_FLOOR_PRIMARY);
		ereport(LOG,
				(errmsg("uid: promoted with the static worker id %d that the old primary also used; "
						"uid_next() issues only after %s",
						worker,
						timestamptz_to_str(UidUnixMsToTimestamptz(ms + UID_EPOCH_MS))),
				 errhint("Give each server its own uid.worker_id, or use uid.worker_id = 'lease'.")));
	}
	else if (primary_worker == -2)
		ereport(LOG,
				(errmsg("uid: promoted without knowing the old primary's worker id: it never answered this standby"),
				 errdetail("If it used the same static worker id (%d), IDs of its transactions that never reached this server "
						   "could be issued again while this server's clock is behind the old primary's.",
						   worker),
				 errhint("Give each server its own uid.worker_id, or use uid.worker_id = 'lease'.")));
}

/*
 * The floor that the replayed WAL gave, in the log; when uid.hwm was missing
 * this is what stands in for it.
 */
static void
UidFloorLogWal(int64 ms, int worker)
{
	bool		legacy;
	UidHwmStatus status = UidHwmRestoredStatus(&legacy);
	bool		missing = status == UID_HWM_NEW || status == UID_HWM_LOST;

	ereport(missing ? WARNING : LOG,
			(errmsg("uid: uid_next() issues only after %s, the end of the reservation of worker id %d in the replayed WAL",
					timestamptz_to_str(UidUnixMsToTimestamptz(ms + UID_EPOCH_MS)), worker),
			 missing ? errdetail("uid.hwm was missing or empty at start-up; the reservations in the WAL stand in for it.") : 0));
}

/*
 * The start-up floor of uid_next(), applied once, before the first ID after
 * the recovery of this start (if any) has ended; returns the floor (ms since
 * the uid epoch), which the generator raises its state to.  Raised, durably
 * (UidFloorCoverAndRaise), to the commit time of the last replayed
 * transaction, then to the largest reservation in the replayed WAL, then,
 * for a static worker id, to what the primary watch learned.  A clock behind
 * the floor then refuses (UID01) rather than risk an ID issued before.
 */
int64
UidFloorAtStart(void)
{
	int64		ms = UidLastReplayedUnixMs() - UID_EPOCH_MS;
	int			wal_worker;
	int64		wal_ms = UidWalFloorReplayedMs(UID_GEN_UID_NEXT, &wal_worker);

	if (ms > 0 && ms <= UID_MAX_TIME)
		UidFloorCoverAndRaise(ms, UID_FLOOR_RECOVERY);
	if (wal_ms > 0 && wal_ms > UidFloorMs())
	{
		UidFloorCoverAndRaise(wal_ms, UID_FLOOR_WAL);
		UidFloorLogWal(wal_ms, wal_worker);
	}
	if (fl->static_worker >= 0)
		UidFloorApplyPrimary();
	return UidFloorMs();
}

/*
 * The start-up floor of uuid7() (Unix ms), or -1: the later of the commit
 * time of the last replayed transaction and generator g's largest
 * reservation in the replayed WAL.  uuid7() runs ahead of the clock from
 * there rather than refuse.
 */
int64
UidFloorReplayedUnixMs(UidGenerator g)
{
	int			worker;
	int64		wal_ms = UidWalFloorReplayedMs(g, &worker);

	return Max(UidLastReplayedUnixMs(), wal_ms > 0 ? wal_ms + UID_EPOCH_MS : -1);
}

/* Whether generator g's floor is lost (uid.hwm missing where values were issued): it refuses, UID07. */
bool
UidFloorLost(UidGenerator g)
{
	return UidHwmFloorLost(g);
}

/* The UID07 error of a generator whose floor is lost. */
void
UidFloorRefuseLost(UidGenerator g)
{
	UidHwmRefuseLost(g);
}

/*
 * An operator gave the largest value of generator g stored, and the caller
 * raised g's state past it (ms since the uid epoch): g issues again.
 */
void
UidFloorFound(UidGenerator g, int64 ms)
{
	UidHwmFloorFound(g, ms, uid_reserve_window_ms);
}

/* The end of uid_next()'s durable reservation (uid_stats.reserved_until). */
int64
UidFloorReservedMs(void)
{
	return UidHwmReservedMs();
}

/* The reservations written since start-up (uid_stats.reserve_writes). */
uint64
UidFloorReserveWrites(void)
{
	return UidHwmWrites();
}

/* uid.wal_reservations: whether the reservations go into the WAL. */
bool
UidFloorWalReservations(void)
{
	return uid_wal_reservations;
}

/* Where uid's last WAL record ends, as far as this server knows (wal_floor.c). */
XLogRecPtr
UidFloorWalLastRecord(UidFloorWalLastKind *kind)
{
	return UidWalFloorLastRecord(kind);
}
