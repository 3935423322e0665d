/*
 * primary_watch.c
 *		A standby with a static worker id asks its primary, about once a
 *		second, what the primary's uid_next() may have issued through, so
 *		that a promotion onto the same static worker id starts past every ID
 *		the old primary could have issued, also those of transactions that
 *		never reached this standby.
 *
 * Why: after a failover of asynchronous replication, the transactions the
 * old primary committed last may be lost, while their clients were told
 * they committed and kept their IDs.  The end-of-recovery floor (the last
 * replayed commit, floor.c) cannot cover them.  If the new primary uses
 * the same static worker id and its clock is behind the old one's, it would
 * issue those IDs again.  A standby that knows the old primary's clock
 * offset and reservation raises its floor at promotion past the time the old
 * primary could have reached by then.
 *
 * How: the standby's watch connects with primary_conninfo as a physical
 * replication connection (the one kind its role is sure to be allowed) and
 * runs "SHOW uid.issued_through", a read-only setting whose value the
 * primary computes when asked (floor.c): its worker id (or "lease"),
 * the end of its durable reservation of uid_next() time, and its clock.
 * The clock offset is bounded from above: the primary read its clock after
 * this server read its own before sending the question.
 *
 * The floor at promotion is the later of the primary's last reservation and
 * this server's clock at the promotion plus the offset.  It assumes the old
 * primary's clock did not jump forward after the last answer; the server log
 * says what was learned, and docs/operations.md what it does not cover.
 *
 * Shared state (UidPrimaryWatchShared): written by the watch under its
 * spinlock, read once by the first uid_next() after the promotion.
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/guc.h"

#include "compat.h"
#include "floor/floor.h"
#include "floor/primary_watch.h"
#include "ids.h"
#include "pq_wait.h"

/* How often the primary is asked, and how long one question may take. */
#define UID_WATCH_INTERVAL_MS	1000
#define UID_WATCH_TIMEOUT_MS	5000

typedef struct UidPrimaryWatchShared
{
	slock_t		mutex;
	bool		streaming;		/* primary_conninfo was set while in recovery */
	bool		known;			/* the primary answered at least once */
	int			primary_worker; /* its static worker id, -1 in lease mode */
	int64		reserved_ms;	/* end of its uid_next() reservation (uid epoch) */
	int64		offset_ms;		/* its clock minus ours, bounded from above */
	int64		ended_unix_ms;	/* our clock when the watch saw recovery end */
} UidPrimaryWatchShared;

static UidPrimaryWatchShared *watch = NULL;

UID_DECLARE_WAIT_EVENT(UidWaitPrimaryWatch, "UidPrimaryWatch")

Size
UidPrimaryWatchShmemSize(void)
{
	return MAXALIGN(sizeof(UidPrimaryWatchShared));
}

void
UidPrimaryWatchShmemInit(void)
{
	bool		found;

	watch = ShmemInitStruct("uid primary watch", UidPrimaryWatchShmemSize(), &found);
	if (found)
		return;
	memset(watch, 0, sizeof(*watch));
	SpinLockInit(&watch->mutex);
}

/*
 * Registered by _PG_init for a static worker id on a server that starts as a
 * standby (standby.signal in the data directory, which is the working
 * directory of the postmaster): elsewhere there is no primary to ask.
 */
void
UidPrimaryWatchRegister(int static_worker)
{
	BackgroundWorker worker;

	if (access("standby.signal", F_OK) != 0)
		return;
	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	worker.bgw_restart_time = 5;
	strlcpy(worker.bgw_library_name, "uid", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, "uid_primary_watch_main", BGW_MAXLEN);
	strlcpy(worker.bgw_name, "uid primary watch", BGW_MAXLEN);
	strlcpy(worker.bgw_type, "uid primary watch", BGW_MAXLEN);
	worker.bgw_main_arg = Int32GetDatum(static_worker);
	RegisterBackgroundWorker(&worker);
}

/*
 * The floor (ms since the uid epoch) that a server promoted with static
 * worker id worker must start above, or -1 if none is needed.  Sets
 * *primary_worker to the primary's worker id (-1: lease mode), or to -2 if
 * this server streamed from a primary that never answered, -3 if it did not
 * stream at all.
 */
int64
UidPrimaryWatchFloorMs(int worker, int *primary_worker)
{
	UidPrimaryWatchShared s;
	int64		end_ms;

	SpinLockAcquire(&watch->mutex);
	s = *watch;
	SpinLockRelease(&watch->mutex);

	*primary_worker = s.known ? s.primary_worker : (s.streaming ? -2 : -3);
	if (!s.known || s.primary_worker != worker)
		return -1;
	end_ms = s.ended_unix_ms > 0 ? s.ended_unix_ms : UidClockNowUnixMs();
	return Min(Max(s.reserved_ms, end_ms + s.offset_ms - UID_EPOCH_MS), UID_MAX_TIME);
}

/* A wait's latch: a shutdown request ends it (and the worker). */
static bool
UidWatchLatchCheck(void *arg)
{
	return ShutdownRequestPending;
}

/* When a question asked now must have its answer. */
static TimestampTz
UidWatchDeadline(void)
{
	return GetCurrentTimestamp() + (TimestampTz) UID_WATCH_TIMEOUT_MS * 1000;
}

/*
 * Waits until conn's socket is ready for event or the deadline passes;
 * a shutdown request ends the worker.  False on timeout.
 */
static bool
UidWatchWait(PGconn *conn, int event, TimestampTz deadline)
{
	UidPqWaitResult r = UidPqWait(conn, event, deadline, UidWaitPrimaryWatch(), UidWatchLatchCheck, NULL);

	if (r == UID_PQ_STOPPED)
	{
		PQfinish(conn);
		proc_exit(0);
	}
	return r == UID_PQ_READY;
}

/*
 * Opens a physical replication connection with primary_conninfo, without
 * blocking past the timeout.  NULL (and *error set) on failure.
 */
static PGconn *
UidWatchConnect(const char *conninfo, char *error, size_t errlen)
{
	/* primary_conninfo first: the values after it win */
	const char *const keys[] = {"dbname", "replication", "application_name", NULL};
	const char *const vals[] = {conninfo, "true", "uid primary watch", NULL};
	PGconn	   *conn = PQconnectStartParams(keys, vals, 1);
	UidPqWaitResult r = UidPqConnectPoll(conn, UidWatchDeadline(), UidWaitPrimaryWatch(),
										 UidWatchLatchCheck, NULL);

	if (r == UID_PQ_READY)
		return conn;
	if (r == UID_PQ_STOPPED)
	{
		PQfinish(conn);
		proc_exit(0);
	}
	strlcpy(error, r == UID_PQ_TIMEOUT ? "no answer within the timeout" :
			conn ? PQerrorMessage(conn) : "out of memory", errlen);
	PQfinish(conn);
	return NULL;
}

/*
 * Asks the primary once.  Returns its answer in *value (malloc'd by libpq's
 * result, copied into value) and this server's clock just before asking in
 * *asked_ms; false with *error set if there is no answer.
 */
static bool
UidWatchAsk(PGconn *conn, char *value, size_t valuelen, int64 *asked_ms,
			char *error, size_t errlen)
{
	TimestampTz deadline = UidWatchDeadline();
	PGresult   *res;
	bool		ok = false;

	*asked_ms = UidClockNowUnixMs();
	if (!PQsendQuery(conn, "SHOW " UID_ISSUED_THROUGH_SETTING))
	{
		strlcpy(error, PQerrorMessage(conn), errlen);
		return false;
	}
	while (PQisBusy(conn))
	{
		if (!UidWatchWait(conn, WL_SOCKET_READABLE, deadline))
		{
			strlcpy(error, "no answer within the timeout", errlen);
			return false;
		}
		if (!PQconsumeInput(conn))
		{
			strlcpy(error, PQerrorMessage(conn), errlen);
			return false;
		}
	}
	strlcpy(error, "no result", errlen);
	while ((res = PQgetResult(conn)) != NULL)
	{
		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && PQnfields(res) == 1)
		{
			strlcpy(value, PQgetvalue(res, 0, 0), valuelen);
			ok = true;
		}
		else
			strlcpy(error, PQresultErrorMessage(res), errlen);
		PQclear(res);
	}
	return ok;
}

/*
 * Records an answer ("worker=N|lease reserved_ms=R clock_ms=C") given to a
 * question asked at asked_ms.  Warns once per change of what was learned
 * when the primary uses this server's own static worker id.
 */
static void
UidWatchRecord(const char *value, int64 asked_ms, int my_worker, int *warned_worker)
{
	char		wbuf[16];
	long long	reserved;
	long long	clock;
	int			primary_worker;
	int64		offset;

	if (sscanf(value, "worker=%15s reserved_ms=%lld clock_ms=%lld", wbuf, &reserved, &clock) != 3)
	{
		ereport(LOG,
				(errmsg("uid primary watch: the primary's %s is not understood: \"%s\"",
						UID_ISSUED_THROUGH_SETTING, value)));
		return;
	}
	primary_worker = strcmp(wbuf, "lease") == 0 ? -1 : atoi(wbuf);
	offset = (int64) clock - asked_ms;

	SpinLockAcquire(&watch->mutex);
	watch->known = true;
	watch->primary_worker = primary_worker;
	watch->reserved_ms = (int64) reserved;
	watch->offset_ms = offset;
	SpinLockRelease(&watch->mutex);

	if (primary_worker == my_worker && *warned_worker != my_worker)
		ereport(WARNING,
				(errmsg("uid: this standby and its primary both use uid.worker_id = %d", my_worker),
				 errdetail("If this standby is promoted, uid_next() starts past the last time the old primary could have issued an ID in by then "
						   "(its clock runs %lld ms ahead of this server's, at most), and refuses (UID01) until this server's clock gets there.",
						   (long long) offset),
				 errhint("Give each server its own uid.worker_id in its own configuration (with Patroni, in each member's postgresql.parameters, not in bootstrap.dcs), or use uid.worker_id = 'lease'.")));
	*warned_worker = primary_worker;
}

/* The watch's entry point (bgw_function_name); bgw_main_arg is our static worker id. */
void
uid_primary_watch_main(Datum arg)
{
	int			my_worker = DatumGetInt32(arg);
	int			warned_worker = -2;
	bool		failing = false;
	PGconn	   *conn = NULL;
	char	   *conn_for = NULL;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();

	for (;;)
	{
		char		error[256];
		char		value[128];
		int64		asked_ms;

		if (ShutdownRequestPending)
			break;
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		if (!RecoveryInProgress())
		{
			SpinLockAcquire(&watch->mutex);
			watch->ended_unix_ms = UidClockNowUnixMs();
			SpinLockRelease(&watch->mutex);
			break;
		}

		/* a new primary_conninfo (a switchover): ask the new primary */
		if (conn != NULL && (conn_for == NULL || PrimaryConnInfo == NULL ||
							 strcmp(conn_for, PrimaryConnInfo) != 0 ||
							 PQstatus(conn) != CONNECTION_OK))
		{
			PQfinish(conn);
			conn = NULL;
		}
		if (PrimaryConnInfo != NULL && PrimaryConnInfo[0] != '\0')
		{
			SpinLockAcquire(&watch->mutex);
			watch->streaming = true;
			SpinLockRelease(&watch->mutex);
			if (conn == NULL)
			{
				if (conn_for)
					pfree(conn_for);
				conn_for = pstrdup(PrimaryConnInfo);
				conn = UidWatchConnect(conn_for, error, sizeof(error));
			}
			if (conn != NULL && UidWatchAsk(conn, value, sizeof(value), &asked_ms, error, sizeof(error)))
			{
				UidWatchRecord(value, asked_ms, my_worker, &warned_worker);
				failing = false;
			}
			else if (!failing)
			{
				size_t		len = strlen(error);

				/* once per run of failures; the last answer stays valid */
				while (len > 0 && error[len - 1] == '\n')
					error[--len] = '\0';
				ereport(LOG,
						(errmsg("uid primary watch: could not ask the primary what it issued: %s",
								error)));
				failing = true;
			}
		}

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 UID_WATCH_INTERVAL_MS, UidWaitPrimaryWatch());
		ResetLatch(MyLatch);
	}
	PQfinish(conn);
	proc_exit(0);
}
