/*
 * tickets.c
 *		Durable nextval() for the ticket sequences (uid_ticket._nextval(),
 *		created by sql/parts/tickets.sql).
 *
 * A sequence WAL-logs ahead (up to 32 values per record), but nextval() does
 * not flush that record: it becomes durable when some later commit or the
 * WAL writer flushes WAL.  A value returned by a transaction that has not
 * committed yet, or that committed with synchronous_commit = off, can
 * therefore be handed out again after a crash.  For tickets that leave the
 * database (order numbers, references) that is a duplicate, so
 * uid_ticket._nextval() flushes WAL up to the LSN of the sequence page
 * before it returns: at most one flush per 32 values (per pre-logged
 * record), and none when the record is already on disk.
 *
 * No shared state.
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xlog.h"
#include "commands/sequence.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

PG_FUNCTION_INFO_V1(uid_ticket_nextval);

/*
 * Flushes WAL up to the last record that changed the sequence's page, which
 * covers every value nextval() has returned from it so far.
 */
static void
UidTicketMakeDurable(Oid relid)
{
	Relation	rel;
	Buffer		buf;
	XLogRecPtr	lsn;

	/* nextval() holds a lock on the sequence until the end of transaction */
	rel = relation_open(relid, NoLock);
	if (!RelationNeedsWAL(rel))
	{
		relation_close(rel, NoLock);
		return;
	}
	buf = ReadBuffer(rel, 0);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	lsn = PageGetLSN(BufferGetPage(buf));
	UnlockReleaseBuffer(buf);
	relation_close(rel, NoLock);

	XLogFlush(lsn);
}

/*
 * uid_ticket._nextval(regclass): nextval() whose value survives a crash even
 * when the calling transaction never commits.
 */
Datum
uid_ticket_nextval(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		value;

	value = nextval_internal(relid, true);
	UidTicketMakeDurable(relid);
	PG_RETURN_INT64(value);
}
