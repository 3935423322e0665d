/*
 * audit.c
 *		uid_audit(): a column of uid_next() ids (bigint) or UUIDv7 values
 *		(uuid) checked in one pass over the table.
 *
 * For ids, the tenure ledger (tenure.c) is read once and its windows kept
 * per worker id, sorted by their first millisecond; every id is decoded to
 * its worker id and millisecond and looked up in that worker id's windows
 * by binary search.  Counts are kept per worker id and day (UTC): the ids,
 * those from the future beyond uid.lease_max_clock_skew, and those no
 * window explains, with the lowest of each.  An id that lies in n
 * overlapping windows counts n times, as one row per matching tenure
 * would.  For UUIDv7 values only the future is checked, per day of the
 * session's time zone.
 *
 * The caller's checks come first, as a query's would: USAGE on the schema
 * (however the table was named), SELECT on the table or the column; a
 * table to which row-level security applies for the caller is refused (its
 * policies are its owner's code).  Then every member of the inheritance
 * tree (partitions, inheritance children) is read on its own, as
 * uid_stored_max() reads them (owner_read.c): a whole table by a scan of
 * the table access method, which plans nothing and so runs none of its
 * owner's code; a sample (TABLESAMPLE SYSTEM) by a query of that table
 * alone (FROM ONLY) as its owner, under a security-restricted operation
 * with search_path pinned, so that its partial-index predicates and index
 * expressions run with its owner's rights, never the caller's; a foreign
 * table by the same query as the caller (its user mapping is the caller's,
 * as in the caller's own query).  A view is read by a query as its owner.
 * The column is looked up only once the table is locked (a call may wait
 * there for an ALTER TABLE that renames or retypes it), in each member
 * once it is locked, and a query's column must be of that type: a value is
 * never decoded as another type than its own.  All memory is in one
 * context per call, dropped before the result is returned.
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "catalog/pg_inherits.h"
#include "access/tableam.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "core/catalog.h"
#include "compat.h"
#include "lease/lease_settings.h"
#include "tables/owner_read.h"
#include "lease/tenure.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_audit);

#define AUDIT_MS_PER_DAY	INT64CONST(86400000)
/* rows fetched from the cursor at a time */
#define AUDIT_BATCH			10000

/* One tenure's window, in ms since the uid epoch, both ends included. */
typedef struct AuditWindow
{
	int64		lo;
	int64		hi;
	int64		max_hi;			/* the highest hi of this and every earlier window */
} AuditWindow;

/* The windows of one worker id, by lo. */
typedef struct AuditWorker
{
	int			n;
	AuditWindow *windows;
} AuditWorker;

/* The counts of one worker id (-1 for UUIDs) and day. */
typedef struct AuditGroup
{
	int64		key;			/* hash key: AuditKey(worker, day) */
	int32		worker;
	int32		day;			/* bigint: days since the uid epoch; uuid: DateADT */
	int64		n;
	int64		n_future;
	int64		n_unexplained;
	int64		min_future;
	int64		min_unexplained;
	pg_uuid_t	min_future_uuid;
} AuditGroup;

typedef struct Audit
{
	AuditWorker workers[UID_MAX_WORKER + 1];
	HTAB	   *groups;
	/* the group each worker id saw last (ids come in runs of one day) */
	AuditGroup *last[UID_MAX_WORKER + 1];
	int64		uuids;			/* uuid: the values read */
	int64		until_ms;		/* bigint: the last ms not in the future, since the uid epoch */
	TimestampTz until_ts;		/* uuid: the last time not in the future */
} Audit;

static inline int64
AuditKey(int32 worker, int32 day)
{
	return (int64) (((uint64) (uint32) worker << 32) | (uint32) day);
}

static AuditGroup *
AuditGroupOf(Audit *a, int32 worker, int32 day)
{
	int64		key = AuditKey(worker, day);
	bool		found;
	AuditGroup *g = hash_search(a->groups, &key, HASH_ENTER, &found);

	if (!found)
	{
		memset(g, 0, sizeof(*g));
		g->key = key;
		g->worker = worker;
		g->day = day;
	}
	return g;
}

static int
AuditWindowCmp(const void *a, const void *b)
{
	const AuditWindow *x = a;
	const AuditWindow *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/* Reads the ledger once: the windows that issued anything, per worker id. */
static void
AuditLoadWindows(Audit *a)
{
	UidTenureFilter filter = {-1, false, 0};
	List	   *rows = UidTenureRead(&filter);
	int			count[UID_MAX_WORKER + 1] = {0};
	ListCell   *lc;

	foreach(lc, rows)
	{
		char	  **v = lfirst(lc);
		int			w = (int) strtol(v[UID_TENURE_COL_WORKER], NULL, 10);

		if (w >= 0 && w <= UID_MAX_WORKER)
			count[w]++;
	}
	for (int w = 0; w <= UID_MAX_WORKER; w++)
		if (count[w] > 0)
			a->workers[w].windows = palloc(sizeof(AuditWindow) * count[w]);
	foreach(lc, rows)
	{
		char	  **v = lfirst(lc);
		int			w = (int) strtol(v[UID_TENURE_COL_WORKER], NULL, 10);
		int64		first = strtoi64(v[UID_TENURE_COL_FIRST_MS], NULL, 10);
		int64		last = strtoi64(v[UID_TENURE_COL_LAST_MS], NULL, 10);
		AuditWorker *aw;

		if (w < 0 || w > UID_MAX_WORKER || first > last)
			continue;
		aw = &a->workers[w];
		aw->windows[aw->n].lo = first - UID_EPOCH_MS;
		aw->windows[aw->n].hi = last - UID_EPOCH_MS;
		aw->n++;
	}
	for (int w = 0; w <= UID_MAX_WORKER; w++)
	{
		AuditWorker *aw = &a->workers[w];
		int64		max_hi = PG_INT64_MIN;

		if (aw->n > 1)
			qsort(aw->windows, aw->n, sizeof(AuditWindow), AuditWindowCmp);
		for (int i = 0; i < aw->n; i++)
		{
			max_hi = Max(max_hi, aw->windows[i].hi);
			aw->windows[i].max_hi = max_hi;
		}
	}
}

/* How many of a worker id's windows contain ms. */
static inline int
AuditMatches(const AuditWorker *aw, int64 ms)
{
	int			lo = 0;
	int			hi = aw->n;
	int			m = 0;

	/* the first window that starts after ms */
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (aw->windows[mid].lo <= ms)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back over those that start at or before it, while one may reach it */
	for (int i = lo - 1; i >= 0 && aw->windows[i].max_hi >= ms; i--)
		if (aw->windows[i].hi >= ms)
			m++;
	return m;
}

/* One uid_next() id. */
static inline void
AuditId(Audit *a, int64 v)
{
	int64		ms = v >> (UID_WORKER_BITS + UID_SEQ_BITS);
	int			w = (int) ((v >> UID_SEQ_BITS) & UID_MAX_WORKER);
	int32		day = (int32) (ms / AUDIT_MS_PER_DAY);
	int			m = AuditMatches(&a->workers[w], ms);
	int64		rows = m > 0 ? m : 1;
	AuditGroup *g = a->last[w];

	if (g == NULL || g->day != day)
		g = a->last[w] = AuditGroupOf(a, w, day);
	g->n += rows;
	if (ms > a->until_ms)
	{
		if (g->n_future == 0 || v < g->min_future)
			g->min_future = v;
		g->n_future += rows;
	}
	else if (m == 0 || v < 0)
	{
		if (g->n_unexplained == 0 || v < g->min_unexplained)
			g->min_unexplained = v;
		g->n_unexplained += rows;
	}
}

/* One UUID: counted, and if it is a v7 one from the future, per day. */
static inline void
AuditUuid(Audit *a, const pg_uuid_t *u)
{
	AuditGroup *g;

	a->uuids++;
	if (!UuidIsV7(u))
		return;
	{
		TimestampTz ts = UidUnixMsToTimestamptz(Uuid7Ms(u));
		DateADT		day;

		if (ts <= a->until_ts)
			return;
		day = DatumGetDateADT(DirectFunctionCall1(timestamptz_date, TimestampTzGetDatum(ts)));
		g = AuditGroupOf(a, -1, day);
		if (g->n_future == 0 || memcmp(u->data, g->min_future_uuid.data, UUID_LEN) < 0)
			g->min_future_uuid = *u;
		g->n_future++;
	}
}

/*
 * Raises the error of an argument uid_audit() refuses.  The column is looked
 * up later, by AuditColumn(), once the table is locked.
 */
static void
AuditCheckArgs(FunctionCallInfo fcinfo, Oid *relid, char **col, float8 *sample)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("uid_audit() needs a table and a column"),
				 errhint("Call it as uid_audit('schema.table', 'column').")));
	if (PG_ARGISNULL(2) || isnan(PG_GETARG_FLOAT4(2)) ||
		!(PG_GETARG_FLOAT4(2) > 0 && PG_GETARG_FLOAT4(2) <= 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid sample for uid_audit(): %s",
						PG_ARGISNULL(2) ? "NULL" :
						DatumGetCString(DirectFunctionCall1(float4out, PG_GETARG_DATUM(2)))),
				 errhint("sample is the fraction of the table's pages read, above 0 and at most 1 (1: the whole table).")));
	*relid = PG_GETARG_OID(0);
	*col = NameStr(*PG_GETARG_NAME(1));
	*sample = (float8) PG_GETARG_FLOAT4(2);
}

/*
 * The table, opened with the lock a query takes.  The call may wait here
 * for another transaction's ALTER TABLE, which can rename, drop or retype
 * the column: so nothing about the column is read before.
 */
static Relation
AuditOpen(Oid relid)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid),
				 errhint("Name an existing table; it may have been dropped while uid_audit() waited for it.")));
	return rel;
}

/*
 * The column's number and type, from the locked table's descriptor: the
 * one its rows are read with, which cannot change until the audit ends.
 */
static void
AuditColumn(Relation rel, const char *col, AttrNumber *attnum, Oid *typid)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Form_pg_attribute att = NULL;

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, i);

		if (!a->attisdropped && strcmp(NameStr(a->attname), col) == 0)
		{
			att = a;
			break;
		}
	}
	if (att == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of %s does not exist", col,
						DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(RelationGetRelid(rel))))),
				 errhint("Name a bigint column of uid_next() ids or a uuid column of UUIDv7 values.")));
	*typid = att->atttypid;
	*attnum = att->attnum;
	if (!UidIsIdType(*typid) && *typid != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of %s is of type %s, not bigint, uid or uuid", col,
						DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(RelationGetRelid(rel)))),
						format_type_be(*typid)),
				 errhint("uid_audit() reads uid_next() ids (bigint or uid) or UUIDv7 values (uuid).")));
}

/* One non-NULL value of the column. */
static inline void
AuditValue(Audit *a, Oid typid, Datum d)
{
	if (typid != UUIDOID)		/* bigint or the uid type: an int64 */
		AuditId(a, DatumGetInt64(d));
	else
		AuditUuid(a, DatumGetUUIDP(d));
}

/*
 * Reads the column of one table by a scan of the table access method: a
 * whole table, read as it is stored.  No code of its owner's runs (nothing
 * is planned).
 */
static void
AuditScanTable(Audit *a, Relation rel, AttrNumber attnum, Oid typid)
{
	TableScanDesc scan = UidTableBeginScan(rel, GetActiveSnapshot());
	TupleTableSlot *slot = table_slot_create(rel, NULL);

	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		d = slot_getattr(slot, attnum, &isnull);

		if (!isnull)
			AuditValue(a, typid, d);
		CHECK_FOR_INTERRUPTS();
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
}

/*
 * Reads the column of relid through a cursor of a query run as reader
 * (UidBeginAs(), owner_read.c): the table alone (FROM ONLY) if only, its
 * pages or a sample of them (TABLESAMPLE SYSTEM), non-NULL values only.
 */
static void
AuditScanQuery(Audit *a, Oid relid, bool only, Oid reader, const char *col, Oid typid, float8 sample)
{
	StringInfoData sql;
	Portal		portal;
	char	   *nsp = get_namespace_name(get_rel_namespace(relid));
	char	   *rel = get_rel_name(relid);
	UidAsSave	save;

	if (nsp == NULL || rel == NULL)
		elog(ERROR, "cache lookup failed for relation %u", relid);
	initStringInfo(&sql);
	appendStringInfo(&sql, "SELECT x.%s FROM %s%s AS x", quote_identifier(col),
					 only ? "ONLY " : "", quote_qualified_identifier(nsp, rel));
	if (sample < 1)
		appendStringInfo(&sql, " TABLESAMPLE pg_catalog.system (%s)",
						 DatumGetCString(DirectFunctionCall1(float8out, Float8GetDatum(sample * 100))));
	appendStringInfo(&sql, " WHERE x.%s IS NOT NULL", quote_identifier(col));

	UidBeginAs(reader, &save);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	portal = SPI_cursor_open_with_args(NULL, sql.data, 0, NULL, NULL, NULL, true, CURSOR_OPT_NO_SCROLL);
	/*
	 * The query finds the table by its names, not by the locked table's OID:
	 * if they now lead elsewhere (a schema renamed meanwhile), its column
	 * may be of another type than the one decoded for.
	 */
	if (portal->tupDesc == NULL || portal->tupDesc->natts != 1 ||
		TupleDescAttr(portal->tupDesc, 0)->atttypid != typid)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("uid_audit() read column \"%s\" of %s as type %s, but the query of it returned %s",
						col, quote_qualified_identifier(nsp, rel), format_type_be(typid),
						portal->tupDesc == NULL || portal->tupDesc->natts != 1 ? "no single column" :
						format_type_be(TupleDescAttr(portal->tupDesc, 0)->atttypid)),
				 errhint("The table or its schema changed while uid_audit() ran; call it again.")));
	for (;;)
	{
		SPITupleTable *tt;

		SPI_cursor_fetch(portal, true, AUDIT_BATCH);
		if (SPI_processed == 0)
			break;
		tt = SPI_tuptable;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			bool		isnull;
			Datum		d = SPI_getbinval(tt->vals[i], tt->tupdesc, 1, &isnull);

			if (!isnull)
				AuditValue(a, typid, d);
		}
		SPI_freetuptable(tt);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
	SPI_finish();
	UidEndAs(&save);
}

/*
 * The caller's checks, as a query of the column would make them: USAGE on
 * the schema (however the table was named), SELECT on the table or the
 * column.  Row-level security that applies to the caller is refused: its
 * policies are the owner's code, which must not run with the caller's
 * rights, and run as the owner they would pick other rows.
 */
static void
AuditCheckCaller(Relation rel, AttrNumber attnum)
{
	Oid			relid = RelationGetRelid(rel);
	Oid			user = GetUserId();

	UidCheckSchemaUsage(relid);
	if (pg_class_aclcheck(relid, user, ACL_SELECT) != ACLCHECK_OK &&
		pg_attribute_aclcheck(relid, attnum, user, ACL_SELECT) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(rel->rd_rel->relkind), RelationGetRelationName(rel));
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
		UidRefuseRowSecurity(relid, "this role");
}

/*
 * Reads the column of rel, which the caller may read, and of every member
 * of its inheritance tree, each on its own: a whole table by a scan of it
 * (AuditScanTable), a sample or a foreign table through a query of it
 * alone (FROM ONLY) as UidReaderOf() it (its owner, the caller for a
 * foreign table).  A view (or any relation that stores nothing) is read
 * by a query as its owner: its rules are its owner's code, and its owner's
 * rights are the ones it reads its tables with; a security_invoker view
 * reads them with the reader's, which would then be the owner's, not the
 * caller's: it is refused.
 */
static void
AuditRead(Audit *a, Relation rel, const char *col, Oid typid, float8 sample)
{
	Oid			relid = RelationGetRelid(rel);
	char		relkind = rel->rd_rel->relkind;
	List	   *members;
	ListCell   *lc;

	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE &&
		relkind != RELKIND_MATVIEW && relkind != RELKIND_FOREIGN_TABLE)
	{
		if (relkind == RELKIND_VIEW && RelationHasSecurityInvoker(rel))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("uid_audit() does not read view %s: it has security_invoker", RelationGetRelationName(rel)),
					 errhint("Audit the table the view reads.")));
		AuditScanQuery(a, relid, false, UidRelationOwner(relid), col, typid, sample);
		return;
	}
	members = find_all_inheritors(relid, AccessShareLock, NULL);
	foreach(lc, members)
	{
		Oid			member = lfirst_oid(lc);
		char		kind = get_rel_relkind(member);
		Relation	mrel;
		AttrNumber	attnum;
		Oid			atttype;

		if (kind != RELKIND_RELATION && kind != RELKIND_MATVIEW && kind != RELKIND_FOREIGN_TABLE)
			continue;			/* a partitioned table has no rows of its own */
		/* locked by find_all_inheritors(): its columns cannot change */
		mrel = relation_open(member, NoLock);
		attnum = get_attnum(member, col);
		atttype = attnum == InvalidAttrNumber ? InvalidOid : get_atttype(member, attnum);
		if (atttype != typid)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("column \"%s\" of %s is not of type %s", col,
							RelationGetRelationName(mrel), format_type_be(typid)),
					 errhint("The table changed while uid_audit() ran; call it again.")));
		if (kind != RELKIND_FOREIGN_TABLE && sample >= 1 && RelationIsPopulated(mrel))
			AuditScanTable(a, mrel, attnum, typid);
		else					/* the query raises the error of a matview not populated */
			AuditScanQuery(a, member, true, UidReaderOf(member), col, typid, sample);
		relation_close(mrel, NoLock);
	}
}

static int
AuditGroupCmp(const void *a, const void *b)
{
	const AuditGroup *x = *(AuditGroup *const *) a;
	const AuditGroup *y = *(AuditGroup *const *) b;

	if (x->worker != y->worker)
		return x->worker < y->worker ? -1 : 1;
	return (x->day > y->day) - (x->day < y->day);
}

/* Appends one row (kind, worker_id, day, ids, example) to the result. */
static void
AuditEmit(ReturnSetInfo *rsinfo, const char *kind, int32 worker, bool has_day, DateADT day,
		  int64 ids, char *example)
{
	Datum		values[5];
	bool		nulls[5] = {false, worker < 0, !has_day, false, example == NULL};

	values[0] = CStringGetTextDatum(kind);
	values[1] = Int32GetDatum(worker);
	values[2] = DateADTGetDatum(day);
	values[3] = Int64GetDatum(ids);
	values[4] = example ? CStringGetTextDatum(example) : (Datum) 0;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* The result, ordered by kind, worker id and day, as uid_audit() returns it. */
static void
AuditReturn(Audit *a, ReturnSetInfo *rsinfo, Oid typid)
{
	long		n = hash_get_num_entries(a->groups);
	AuditGroup **groups = palloc(sizeof(AuditGroup *) * Max(n, 1));
	HASH_SEQ_STATUS seq;
	AuditGroup *g;
	long		i = 0;
	/* uid epoch day -> DateADT */
	int32		day0 = (int32) (UID_EPOCH_MS / AUDIT_MS_PER_DAY) - (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE);

	hash_seq_init(&seq, a->groups);
	while ((g = hash_seq_search(&seq)) != NULL)
		groups[i++] = g;
	qsort(groups, n, sizeof(AuditGroup *), AuditGroupCmp);

	if (typid == UUIDOID)
	{
		for (i = 0; i < n; i++)
			if (groups[i]->n_future > 0)
				AuditEmit(rsinfo, "future", -1, true, groups[i]->day, groups[i]->n_future,
						  DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(&groups[i]->min_future_uuid))));
		AuditEmit(rsinfo, "total", -1, false, 0, a->uuids, NULL);
		return;
	}
	for (i = 0; i < n; i++)
		if (groups[i]->n_future > 0)
			AuditEmit(rsinfo, "future", groups[i]->worker, true, groups[i]->day + day0,
					  groups[i]->n_future, psprintf(INT64_FORMAT, groups[i]->min_future));
	/* nothing read (an empty table or sample): one total, as for UUIDs */
	if (n == 0)
		AuditEmit(rsinfo, "total", -1, false, 0, 0, NULL);
	for (i = 0; i < n;)
	{
		int32		w = groups[i]->worker;
		int64		total = 0;

		for (; i < n && groups[i]->worker == w; i++)
			total += groups[i]->n;
		AuditEmit(rsinfo, "total", w, false, 0, total, NULL);
	}
	for (i = 0; i < n; i++)
		if (groups[i]->n_unexplained > 0)
			AuditEmit(rsinfo, "unexplained", groups[i]->worker, true, groups[i]->day + day0,
					  groups[i]->n_unexplained, psprintf(INT64_FORMAT, groups[i]->min_unexplained));
}

/*
 * uid_audit(tbl regclass, col name, sample real DEFAULT 1.0): rows (kind,
 * worker_id, day, ids, example); see the file's header and docs/leases.md.
 */
Datum
uid_audit(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid;
	char	   *col;
	AttrNumber	attnum;
	Oid			typid;
	Relation	rel;
	float8		sample;
	MemoryContext cxt;
	MemoryContext old;
	Audit	   *a;
	HASHCTL		hctl;
	TimestampTz now;

	AuditCheckArgs(fcinfo, &relid, &col, &sample);
	rel = AuditOpen(relid);
	AuditColumn(rel, col, &attnum, &typid);
	AuditCheckCaller(rel, attnum);
	InitMaterializedSRF(fcinfo, 0);

	cxt = AllocSetContextCreate(CurrentMemoryContext, "uid_audit", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	a = palloc0(sizeof(Audit));
	hctl.keysize = sizeof(int64);
	hctl.entrysize = sizeof(AuditGroup);
	hctl.hcxt = cxt;
	a->groups = hash_create("uid_audit groups", 256, &hctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	if (typid != UUIDOID)
		AuditLoadWindows(a);

	/* the future: beyond the clock skew the leases allow */
	now = GetCurrentTimestamp();
	a->until_ms = UidTimestamptzToUnixMs(now) + uid_lease_max_clock_skew_ms - UID_EPOCH_MS;
	a->until_ts = now + (TimestampTz) uid_lease_max_clock_skew_ms * 1000;

	AuditRead(a, rel, col, typid, sample);
	relation_close(rel, AccessShareLock);
	/* the rows are copied into the result's tuplestore */
	AuditReturn(a, rsinfo, typid);

	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return (Datum) 0;
}
