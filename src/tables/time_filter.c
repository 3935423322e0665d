/*
 * time_filter.c
 *		Time filters on IDs use the index on the ID.  While planning, uid
 *		turns a comparison of an ID's time with a timestamp into a range on
 *		the ID itself:
 *
 *			uid_time(id) >= t		id >= uid_first_at(t)
 *			uid_time(id) >  t		id >= uid_first_after(t)
 *			uid_time(id) <  t		id <= uid_last_before(t)	and id >= 0
 *			uid_time(id) <= t		id <= uid_last_at(t)		and id >= 0
 *			uid_time(id) =  t		id >= uid_first_at(t)		and id <= uid_last_at(t)
 *
 *		and the same for (uid_decode(id)).ts, and for uuid7_time(u) with the
 *		uuid7_* bounds plus the filter "uuid7_time(u) IS NOT NULL": a UUID of
 *		another version can sort inside the range but has no v7 time.  A
 *		table that declares its column to hold v7 UUIDs only, by the CHECK
 *		constraint "uuid7_time(u) IS NOT NULL", needs no filter; there
 *		uuid_extract_timestamp(u) and (uid_decode(u)).ts, which equal
 *		uuid7_time(u) on v7 UUIDs, are rewritten too (elsewhere they are
 *		not: they also decode version 1 UUIDs, whose time does not follow
 *		their sort order, so no range of the column holds all matches).
 *
 *		The rewritten conditions serve btree and BRIN indexes on the column
 *		(and indexes that lead with it), row estimates from the column's
 *		statistics, and partition pruning, as hand-written ones do: lower
 *		bounds are inclusive, so a range partition that ends where the range
 *		starts is pruned.
 *
 * Why a rewrite and not a planner support function: PostgreSQL asks a
 * support function for index conditions only about an operator one of whose
 * operands is the indexed column itself (indxpath.c,
 * match_opclause_to_indexcol).  In "uid_time(id) >= t" the operand is a
 * function of the column, so no support function of uid_time() or of ">="
 * is ever asked; estimates and partition pruning have no such entry point
 * either.  So uid rewrites the condition, at the one moment where that is
 * safe and complete: when the planner builds each table of a query
 * (get_relation_info_hook; build_simple_rel_hook from 19 on).  By then views
 * are merged into the query, constants folded, SQL functions inlined and the
 * parameters of custom plans substituted, and the conditions are not yet
 * distributed to the tables.  uid_time() and friends carry a support function
 * (uid_time_filter_support) that answers nothing: naming it makes the
 * planner load uid, and so install this hook, before it builds the tables of
 * the first query that mentions them, also when uid is not preloaded.
 *
 * Exactness: uid_time() truncates to the millisecond and t has microseconds.
 * The bounds are the first ID (UUIDv7) of the first millisecond at or after
 * t (after t), and the last of the last millisecond before t (at or before
 * t), so each rewritten comparison is true exactly when the original one is,
 * for every non-negative ID and every t: -infinity, infinity and times
 * outside the layout included.  The bound functions never raise an error;
 * where no ID qualifies they return NULL, which a comparison in a WHERE
 * condition treats as false, as the original would.  uid_time() raises an
 * error for a negative ID; the rewritten conditions do not match negative
 * IDs ("id >= 0" is added to a comparison that has only an upper bound).
 * The rewrite is made only where a condition's NULL counts as false: in the
 * AND and OR trees of WHERE and JOIN ... ON conditions, not under NOT, in
 * CASE or in a select list.
 *
 * What is left alone: volatile right-hand sides (evaluated once per row, they
 * could differ between the two bounds of "="), "=" against values of other
 * tables (a hash or merge join on "=" beats two inequalities), comparisons
 * that the table serves as written (an expression index on the time itself,
 * a partial index whose predicate names it, a partition key on it), and
 * callers without EXECUTE on the time function (the original call raises
 * the error it would have raised; a rewritten plan is cached for its role
 * only).
 *
 * No shared state.  uid.rewrite_time_filters (default on) turns it off, for
 * cached plans too.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"
#include "optimizer/planmain.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "core/catalog.h"
#include "compat.h"
#include "forms/layout.h"
#include "tables/time_filter.h"
#include "ids.h"
#include "core/uuid7.h"

PG_FUNCTION_INFO_V1(uid_first_at);
PG_FUNCTION_INFO_V1(uid_first_after);
PG_FUNCTION_INFO_V1(uid_last_before);
PG_FUNCTION_INFO_V1(uid_last_at);
PG_FUNCTION_INFO_V1(uuid7_first_at);
PG_FUNCTION_INFO_V1(uuid7_first_after);
PG_FUNCTION_INFO_V1(uuid7_last_before);
PG_FUNCTION_INFO_V1(uuid7_last_at);
PG_FUNCTION_INFO_V1(uid_time_filter_support);

static bool uid_rewrite_time_filters = true;
static uid_rel_hook_type prev_rel_hook = NULL;

/* this backend has planned a rewrite since its plan cache was last reset */
static bool rewritten_plans_cached = false;

/* ---- the bounds ---- */

/*
 * The four bounds of a time t, each a millisecond: the first at or after t,
 * the first after t, the last before t, the last at or before t.  An ID's
 * time is a whole millisecond, so "uid_time(id) >= t" holds exactly when the
 * ID's millisecond is at or after the first of these, and so on.
 */
typedef enum TimeBound
{
	FIRST_AT,
	FIRST_AFTER,
	LAST_BEFORE,
	LAST_AT,
	NUM_TIME_BOUNDS
} TimeBound;

#define IsFirstBound(b) ((b) == FIRST_AT || (b) == FIRST_AFTER)

/*
 * The bound of ts as a Unix millisecond; PG_INT64_MIN for -infinity and
 * PG_INT64_MAX for infinity (the callers clamp to their layout).  ts counts
 * microseconds from a whole millisecond, so it lies on a millisecond exactly
 * when ts % 1000 is 0.
 */
static int64
BoundUnixMs(TimestampTz ts, TimeBound bound)
{
	int64		floor_ms,
				ceil_ms;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		return PG_INT64_MIN;
	if (TIMESTAMP_IS_NOEND(ts))
		return PG_INT64_MAX;
	floor_ms = UidTimestamptzToUnixMs(ts);
	ceil_ms = floor_ms + (ts % 1000 != 0 ? 1 : 0);
	switch (bound)
	{
		case FIRST_AT:
			return ceil_ms;
		case FIRST_AFTER:
			return floor_ms + 1;
		case LAST_BEFORE:
			return ceil_ms - 1;
		default:
			return floor_ms;
	}
}

/*
 * The bigint bound: the first ID of the first millisecond, or the last ID of
 * the last one.  False if there is no such ID (a first millisecond after the
 * layout, a last one before it); a first millisecond before the layout gives
 * ID 0, a last one after it the highest ID.
 */
static bool
UidBoundId(TimestampTz ts, TimeBound bound, int64 *id)
{
	int64		ms = BoundUnixMs(ts, bound);

	if (IsFirstBound(bound))
	{
		if (ms > UID_EPOCH_MS + UID_MAX_TIME)
			return false;
		*id = UidCompose(ms < UID_EPOCH_MS ? 0 : ms - UID_EPOCH_MS, 0, 0);
	}
	else
	{
		if (ms < UID_EPOCH_MS)
			return false;
		*id = UidCompose(Min(ms - UID_EPOCH_MS, UID_MAX_TIME), UID_MAX_WORKER, UID_MAX_SEQ);
	}
	return true;
}

/*
 * The UUID bound: the lowest version 7 UUID of the first millisecond (48-bit
 * time, version 7, variant, every other bit 0: uuid7_from_time's), or the
 * highest one of the last (every other bit 1).  NULL if there is none,
 * clamped to the 48-bit time field like UidBoundId.
 */
static pg_uuid_t *
Uuid7Bound(TimestampTz ts, TimeBound bound)
{
	static const uint8 lowest[10] = {0x70, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
	static const uint8 highest[10] = {0x7f, 0xff, 0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	const int64 max_ms = (INT64CONST(1) << 48) - 1;
	int64		ms = BoundUnixMs(ts, bound);
	pg_uuid_t  *u;

	if (IsFirstBound(bound) ? ms > max_ms : ms < 0)
		return NULL;
	ms = Max(Min(ms, max_ms), 0);
	u = (pg_uuid_t *) palloc(UUID_LEN);
	for (int i = 5; i >= 0; i--, ms >>= 8)
		u->data[i] = (uint8) ms;
	memcpy(&u->data[6], IsFirstBound(bound) ? lowest : highest, 10);
	return u;
}

static Datum
UidBoundDatum(FunctionCallInfo fcinfo, TimeBound bound)
{
	int64		id;

	if (!UidBoundId(PG_GETARG_TIMESTAMPTZ(0), bound, &id))
		PG_RETURN_NULL();
	PG_RETURN_INT64(id);
}

static Datum
Uuid7BoundDatum(FunctionCallInfo fcinfo, TimeBound bound)
{
	pg_uuid_t  *u = Uuid7Bound(PG_GETARG_TIMESTAMPTZ(0), bound);

	if (u == NULL)
		PG_RETURN_NULL();
	PG_RETURN_UUID_P(u);
}

/*
 * The SQL functions.  uid_first_at(t): the lowest ID whose time is at or
 * after t, so "uid_time(id) >= t" is "id >= uid_first_at(t)";
 * uid_first_after(t): for "uid_time(id) > t"; uid_last_before(t): the
 * highest ID whose time is before t, for "<"; uid_last_at(t): for "<=".
 * NULL when there is no such ID.  uuid7_*: the same for version 7 UUIDs.
 */
#define UID_BOUND_FUNCTION(name, datum_of, bound) \
Datum \
name(PG_FUNCTION_ARGS) \
{ \
	return datum_of(fcinfo, bound); \
}

UID_BOUND_FUNCTION(uid_first_at, UidBoundDatum, FIRST_AT)
UID_BOUND_FUNCTION(uid_first_after, UidBoundDatum, FIRST_AFTER)
UID_BOUND_FUNCTION(uid_last_before, UidBoundDatum, LAST_BEFORE)
UID_BOUND_FUNCTION(uid_last_at, UidBoundDatum, LAST_AT)
UID_BOUND_FUNCTION(uuid7_first_at, Uuid7BoundDatum, FIRST_AT)
UID_BOUND_FUNCTION(uuid7_first_after, Uuid7BoundDatum, FIRST_AFTER)
UID_BOUND_FUNCTION(uuid7_last_before, Uuid7BoundDatum, LAST_BEFORE)
UID_BOUND_FUNCTION(uuid7_last_at, Uuid7BoundDatum, LAST_AT)

/* The bound functions by ID kind (bigint, UUID) and bound, for the rewrite. */
static const struct
{
	const char *name;
	PGFunction	addr;
}			bound_functions[2][NUM_TIME_BOUNDS] = {
	{{"uid_first_at", uid_first_at}, {"uid_first_after", uid_first_after},
	 {"uid_last_before", uid_last_before}, {"uid_last_at", uid_last_at}},
	{{"uuid7_first_at", uuid7_first_at}, {"uuid7_first_after", uuid7_first_after},
	 {"uuid7_last_before", uuid7_last_before}, {"uuid7_last_at", uuid7_last_at}},
};

/*
 * uid_time_filter_support(internal): attached to uid_time(bigint),
 * uuid7_time(uuid), uid_decode(bigint), uid_decode(uuid) and uid's own
 * uuid_extract_timestamp(uuid).  It answers no request: its use
 * is that the planner calls it while simplifying a query that names one of
 * them, which loads uid, and with it the rewrite below, before the planner
 * builds that query's tables.
 */
Datum
uid_time_filter_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(NULL);
}

/* ---- recognising the time of an ID ---- */

typedef enum UidIdKind
{
	UID_ID_BIGINT,				/* uid_time(id), (uid_decode(id)).ts */
	UID_ID_UUID7				/* uuid7_time(u), and on v7-only columns
								 * uuid_extract_timestamp(u), (uid_decode(u)).ts */
} UidIdKind;

/* One comparison of an ID's time with a timestamp, time on the left. */
typedef struct TimeComparison
{
	UidIdKind	kind;
	Expr	   *time;			/* uid_time(id) as written */
	Expr	   *column;			/* id: a Var, possibly relabelled */
	Oid			time_func;		/* uid_time, uuid7_time, uid_decode, ... */
	bool		v7_only;		/* exact only on a column of v7 UUIDs */
	int			strategy;		/* BTLessStrategyNumber ... */
	Expr	   *bound;			/* t */
} TimeComparison;

/* What the rewrite of one table's conditions needs and reads once. */
typedef struct RewriteContext
{
	PlannerInfo *root;
	RelOptInfo *rel;
	bool		checks_read;
	List	   *checks;			/* TableChecks(), once read */
} RewriteContext;

/*
 * The C function behind funcid if it is one of uid's time or bound functions,
 * else NULL.  The caller compares the address, so that a function of another
 * library or language with the same name never passes.
 */
static PGFunction
UidTimeFunctionAddress(Oid funcid)
{
	HeapTuple	tup;
	Form_pg_proc proc;
	Datum		prosrc;
	char	   *src;
	bool		isnull;
	bool		ours;
	FmgrInfo	flinfo;

	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		return NULL;
	proc = (Form_pg_proc) GETSTRUCT(tup);
	if (proc->prolang != ClanguageId || proc->pronargs != 1 || proc->proretset)
	{
		ReleaseSysCache(tup);
		return NULL;
	}
	prosrc = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc, &isnull);
	if (isnull)
	{
		ReleaseSysCache(tup);
		return NULL;
	}
	src = TextDatumGetCString(prosrc);
	ReleaseSysCache(tup);
	/* the symbol names first: fmgr_info loads the library of a C function */
	ours = strcmp(src, "uid_time") == 0 || strcmp(src, "uuid7_time") == 0 ||
		strcmp(src, "uid_decode") == 0 || strcmp(src, "uid_decode_uuid") == 0 ||
		strcmp(src, "uid_compat_uuid_extract_timestamp") == 0;
	for (int k = 0; k < 2 && !ours; k++)
		for (int b = 0; b < NUM_TIME_BOUNDS && !ours; b++)
			ours = strcmp(src, bound_functions[k][b].name) == 0;
	pfree(src);
	if (!ours)
		return NULL;
	fmgr_info(funcid, &flinfo);
	return flinfo.fn_addr;
}

/* expr is a column of this query level of the given type (after relabelling). */
static bool
IsColumnOfType(Node *expr, Oid type)
{
	Node	   *inner = expr;

	while (IsA(inner, RelabelType))
		inner = (Node *) ((RelabelType *) inner)->arg;
	return IsA(inner, Var) && ((Var *) inner)->varlevelsup == 0 && exprType(expr) == type;
}

static Var *
ColumnVar(Expr *column)
{
	while (IsA(column, RelabelType))
		column = ((RelabelType *) column)->arg;
	return (Var *) column;
}

/*
 * Whether expr is the time of an ID column: uid_time(id), (uid_decode(id)).ts
 * or uuid7_time(u); or one that equals uuid7_time(u) on a column of version
 * 7 UUIDs only (v7_only): uuid_extract_timestamp(u) (uid's, and
 * PostgreSQL's from 18 on) and (uid_decode(u)).ts, which also decode
 * version 1 UUIDs, whose time does not follow their sort order.  Fills
 * kind, time, column, time_func and v7_only.
 */
static bool
MatchIdTime(Expr *expr, TimeComparison *tc)
{
	FuncExpr   *call;
	bool		field_ts = false;
	PGFunction	addr;
	Node	   *arg;

	if (IsA(expr, FuncExpr))
		call = (FuncExpr *) expr;
	else if (IsA(expr, FieldSelect) && ((FieldSelect *) expr)->fieldnum == 1 &&
			 IsA(((FieldSelect *) expr)->arg, FuncExpr))
	{
		/* field 1 of uid_decode(), by position whatever its name: ts */
		call = (FuncExpr *) ((FieldSelect *) expr)->arg;
		field_ts = true;
	}
	else
		return false;
	if (exprType((Node *) expr) != TIMESTAMPTZOID || list_length(call->args) != 1)
		return false;

	arg = linitial(call->args);
	tc->v7_only = false;
	if (IsColumnOfType(arg, INT8OID) ||
		(exprType(arg) != UUIDOID && IsColumnOfType(arg, UidIdTypeOid())))
	{
		addr = UidTimeFunctionAddress(call->funcid);
		if (addr != (field_ts ? uid_decode : uid_time))
			return false;
		tc->kind = UID_ID_BIGINT;
		/* uid_time(uid): the column as bigint, whose operators the bound takes */
		if (exprType(arg) != INT8OID)
			arg = (Node *) makeRelabelType((Expr *) arg, INT8OID, -1, InvalidOid,
										   COERCE_IMPLICIT_CAST);
	}
	else if (IsColumnOfType(arg, UUIDOID))
	{
		if (!field_ts && call->funcid == UID_BUILTIN_UUID_EXTRACT_TIMESTAMP_V7)
			tc->v7_only = true;
		else
		{
			addr = UidTimeFunctionAddress(call->funcid);
			if (field_ts ? addr != uid_decode_uuid :
				addr != uuid7_time && addr != uid_compat_uuid_extract_timestamp)
				return false;
			tc->v7_only = addr != uuid7_time;
		}
		tc->kind = UID_ID_UUID7;
	}
	else
		return false;
	tc->time = expr;
	tc->column = (Expr *) arg;
	tc->time_func = call->funcid;
	return true;
}

/*
 * Whether clause compares the time of an ID column with a timestamp by one
 * of the btree operators of timestamptz, in a form the rewrite keeps exact.
 * Fills tc with the time on the left.
 */
static bool
MatchTimeComparison(Node *clause, TimeComparison *tc)
{
	OpExpr	   *op;
	Expr	   *left,
			   *right;

	if (!IsA(clause, OpExpr))
		return false;
	op = (OpExpr *) clause;
	if (list_length(op->args) != 2)
		return false;
	set_opfuncid(op);
	switch (op->opfuncid)
	{
		case F_TIMESTAMPTZ_LT:
			tc->strategy = BTLessStrategyNumber;
			break;
		case F_TIMESTAMPTZ_LE:
			tc->strategy = BTLessEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_EQ:
			tc->strategy = BTEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_GE:
			tc->strategy = BTGreaterEqualStrategyNumber;
			break;
		case F_TIMESTAMPTZ_GT:
			tc->strategy = BTGreaterStrategyNumber;
			break;
		default:
			return false;
	}

	left = linitial(op->args);
	right = lsecond(op->args);
	if (MatchIdTime(left, tc))
		tc->bound = right;
	else if (MatchIdTime(right, tc))
	{
		tc->bound = left;
		tc->strategy = BTCommuteStrategyNumber(tc->strategy);
	}
	else
		return false;

	/* the bound is evaluated once per row in the original: keep that */
	if (contain_volatile_functions((Node *) tc->bound))
		return false;
	/* "=" against another table's column: leave it to hash and merge joins */
	if (tc->strategy == BTEqualStrategyNumber && contain_vars_of_level((Node *) tc->bound, 0))
		return false;
	/* the original call would raise "permission denied": let it */
	if (!UidCanExecute(tc->time_func))
		return false;
	return true;
}

static bool
ContainsExprWalker(Node *node, void *target)
{
	if (node == NULL)
		return false;
	if (equal(node, target))
		return true;
	return expression_tree_walker(node, ContainsExprWalker, target);
}

/*
 * Whether rel already serves a comparison of the time expression itself: an
 * index on it (an expression index on uid_time(id)), a partial index whose
 * predicate names it (WHERE uid_time(id) >= ...: the comparison must imply
 * the predicate), or a partition key on it (PARTITION BY RANGE
 * (uid_time(id)): pruning).  The rewrite would take those away.
 */
static bool
TimeIsServed(RelOptInfo *rel, Expr *time)
{
	ListCell   *lc;

	foreach(lc, rel->indexlist)
	{
		IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);
		ListCell   *le;

		foreach(le, index->indexprs)
		{
			if (equal(lfirst(le), time))
				return true;
		}
		if (ContainsExprWalker((Node *) index->indpred, time))
			return true;
	}
	for (int k = 0; rel->part_scheme != NULL && rel->partexprs != NULL &&
		 k < rel->part_scheme->partnatts; k++)
	{
		if (ContainsExprWalker((Node *) rel->partexprs[k], time))
			return true;
	}
	return false;
}

/*
 * Whether a table that inherits from relid, at any depth, is a foreign table.
 * CREATE FOREIGN TABLE ... PARTITION OF copies the parent's CHECK
 * constraints to it, checking no row.  No lock: the planner locks the
 * children later, and a change of them invalidates the plan.
 */
static bool
HasForeignDescendant(Oid relid)
{
	List	   *descendants = find_all_inheritors(relid, NoLock, NULL);
	ListCell   *lc;
	bool		found = false;

	foreach(lc, descendants)
	{
		if (get_rel_relkind(lfirst_oid(lc)) == RELKIND_FOREIGN_TABLE)
		{
			found = true;
			break;
		}
	}
	list_free(descendants);
	return found;
}

/*
 * Whether funcid is neither PostgreSQL's own nor a function of extension
 * uid (uid_ext, InvalidOid if uid is not installed).
 */
static bool
IsOutsideFunction(Oid funcid, void *context)
{
	Oid			uid_ext = *(Oid *) context;

	if (funcid < FirstNormalObjectId)
		return false;
	return !OidIsValid(uid_ext) ||
		getExtensionOfObject(ProcedureRelationId, funcid) != uid_ext;
}

/* Whether the expression calls a function that IsOutsideFunction names */
static bool
CallsOutsideFunctionWalker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (check_functions_in_node(node, IsOutsideFunction, context))
		return true;
	return expression_tree_walker(node, CallsOutsideFunctionWalker, context);
}

/*
 * The validated CHECK constraints of rel's table as implicitly AND-ed
 * conditions on rel's columns, processed as the planner processes WHERE
 * conditions (as its own get_relation_constraints does, which is not
 * exported).  None for foreign tables, whose constraints nothing enforces,
 * nor for a parent read with its children where one of them is foreign;
 * NO INHERIT constraints only where the table's own rows are all read.
 *
 * Constant folding runs IMMUTABLE functions with constant arguments, as the
 * role that plans the query, and a constraint is written by the table's
 * owner: a constraint that calls any function other than PostgreSQL's own
 * or uid's is taken as written, unfolded (the proof then sees it as it is,
 * and folds nothing of it: a test a role's own function decides proves
 * nothing).
 */
static List *
TableChecks(PlannerInfo *root, RelOptInfo *rel)
{
	RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	Relation	relation;
	TupleConstr *constr;
	List	   *result = NIL;
	Oid			uid_ext = get_extension_oid("uid", true);

	if (rte->rtekind != RTE_RELATION || rte->relkind == RELKIND_FOREIGN_TABLE ||
		(rte->inh && HasForeignDescendant(rte->relid)))
		return NIL;
	relation = table_open(rte->relid, NoLock);	/* the planner holds a lock */
	constr = relation->rd_att->constr;
	for (int i = 0; constr != NULL && i < constr->num_check; i++)
	{
		Node	   *check;

		/* NOT VALID, and NOT ENFORCED (18), constraints are not valid */
		if (!constr->check[i].ccvalid || (constr->check[i].ccnoinherit && rte->inh))
			continue;
		check = stringToNode(constr->check[i].ccbin);
		if (rel->relid != 1)
			ChangeVarNodes(check, 1, rel->relid, 0);
		if (!CallsOutsideFunctionWalker(check, &uid_ext))
			check = eval_const_expressions(root, check);
		check = (Node *) canonicalize_qual((Expr *) check, true);
		result = list_concat(result, make_ands_implicit((Expr *) check));
	}
	table_close(relation, NoLock);
	return result;
}

/*
 * Whether the table declares that the column holds version 7 UUIDs only,
 * by a CHECK constraint that implies "uuid7_time(u) IS NOT NULL" (such as
 * that one).  Then a range of the column is exact without a filter.
 *
 * A row passes a CHECK constraint that is true or NULL, so the proof is
 * PostgreSQL's weak implication (the constraints not false make the test not
 * false, and "IS NOT NULL" is never NULL): "uuid7_time(u) > '2000-01-01'"
 * lets in every non-v7 UUID, for which it is NULL, and proves nothing.
 */
static bool
ColumnIsAllV7(RewriteContext *cxt, Expr *v7_test)
{
	if (!cxt->checks_read)
	{
		cxt->checks = TableChecks(cxt->root, cxt->rel);
		cxt->checks_read = true;
	}
	return cxt->checks != NIL && predicate_implied_by(list_make1(v7_test), cxt->checks, true);
}

/* ---- building the rewritten conditions ---- */

/*
 * uid's SQL function name(argtype), if it is there, is uid's and the user
 * may execute it; InvalidOid otherwise (the library is newer than the SQL
 * objects until ALTER EXTENSION uid UPDATE; a function of that name created
 * by someone else is never called).
 */
static Oid
UidFunction(const char *name, Oid argtype, PGFunction expected)
{
	Oid			schema = UidExtensionSchema();
	char	   *schema_name = OidIsValid(schema) ? get_namespace_name(schema) : NULL;
	Oid			funcid;

	if (schema_name == NULL)
		return InvalidOid;
	funcid = LookupFuncName(list_make2(makeString(schema_name), makeString(pstrdup(name))),
							1, &argtype, true);
	if (!OidIsValid(funcid) || UidTimeFunctionAddress(funcid) != expected ||
		!UidCanExecute(funcid))
		return InvalidOid;
	return funcid;
}

/*
 * "column >= first(t)" or "column <= last(t)", the call folded to a
 * constant where t is one.  InvalidOid bound function: NULL.
 */
static Expr *
BoundComparison(PlannerInfo *root, TimeComparison *tc, TimeBound bound)
{
	Oid			type = exprType((Node *) tc->column);
	TypeCacheEntry *typentry = lookup_type_cache(type, TYPECACHE_BTREE_OPFAMILY);
	int			strategy = IsFirstBound(bound) ? BTGreaterEqualStrategyNumber : BTLessEqualStrategyNumber;
	Oid			opno = get_opfamily_member(typentry->btree_opf, type, type, strategy);
	int			k = tc->kind == UID_ID_UUID7 ? 1 : 0;
	Oid			func = UidFunction(bound_functions[k][bound].name, TIMESTAMPTZOID,
								   bound_functions[k][bound].addr);
	Expr	   *call;
	OpExpr	   *op;

	if (!OidIsValid(func))
		return NULL;
	if (!OidIsValid(opno))
		elog(ERROR, "no btree operator of strategy %d for type %u", strategy, type);
	call = (Expr *) makeFuncExpr(func, type, list_make1(copyObject(tc->bound)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	call = (Expr *) eval_const_expressions(root, (Node *) call);
	op = (OpExpr *) make_opclause(opno, BOOLOID, false, copyObject(tc->column), call,
								  InvalidOid, InvalidOid);
	set_opfuncid(op);
	record_plan_function_dependency(root, func);
	return (Expr *) op;
}

/*
 * The conditions on the column that replace tc, or NIL if the bound
 * functions are not there to be used.  Sets *lower and *upper to whether
 * they bound the column from below and from above.
 */
static List *
RewriteComparison(PlannerInfo *root, TimeComparison *tc, bool *lower, bool *upper)
{
	Expr	   *low = NULL,
			   *high = NULL;

	switch (tc->strategy)
	{
		case BTGreaterEqualStrategyNumber:
			low = BoundComparison(root, tc, FIRST_AT);
			break;
		case BTGreaterStrategyNumber:
			low = BoundComparison(root, tc, FIRST_AFTER);
			break;
		case BTLessStrategyNumber:
			high = BoundComparison(root, tc, LAST_BEFORE);
			break;
		case BTLessEqualStrategyNumber:
			high = BoundComparison(root, tc, LAST_AT);
			break;
		default:				/* equal: the millisecond of t, if t is one */
			low = BoundComparison(root, tc, FIRST_AT);
			high = BoundComparison(root, tc, LAST_AT);
			if (low == NULL || high == NULL)
				return NIL;
			break;
	}
	if (low == NULL && high == NULL)
		return NIL;
	*lower = low != NULL;
	*upper = high != NULL;
	record_plan_function_dependency(root, tc->time_func);

	/*
	 * The rewrite was made because this role may execute the functions; the
	 * cached plan must not serve another role (after SET ROLE), which may
	 * lack EXECUTE on the time function the plan no longer calls.
	 */
	root->glob->dependsOnRole = true;
	rewritten_plans_cached = true;
	if (low != NULL && high != NULL)
		return list_make2(low, high);
	return list_make1(low != NULL ? low : high);
}

/* "column >= 0": the rewritten upper bounds must not match negative IDs */
static Expr *
NonNegative(Expr *column)
{
	TypeCacheEntry *typentry = lookup_type_cache(INT8OID, TYPECACHE_BTREE_OPFAMILY);
	Oid			opno = get_opfamily_member(typentry->btree_opf, INT8OID, INT8OID,
										   BTGreaterEqualStrategyNumber);
	OpExpr	   *op;

	op = (OpExpr *) make_opclause(opno, BOOLOID, false, copyObject(column),
								  (Expr *) makeConst(INT8OID, -1, InvalidOid, sizeof(int64),
													 Int64GetDatum(0), false, FLOAT8PASSBYVAL),
								  InvalidOid, InvalidOid);
	set_opfuncid(op);
	return (Expr *) op;
}

/*
 * "uuid7_time(u) IS NOT NULL": u is a version 7 UUID.  NULL if uid's
 * uuid7_time() is not there to be called.
 */
static Expr *
IsVersion7(Expr *column)
{
	Oid			func = UidFunction("uuid7_time", UUIDOID, uuid7_time);
	NullTest   *test;

	if (!OidIsValid(func))
		return NULL;
	test = makeNode(NullTest);
	test->arg = (Expr *) makeFuncExpr(func, TIMESTAMPTZOID, list_make1(copyObject(column)),
									  InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	test->nulltesttype = IS_NOT_NULL;
	test->argisrow = false;
	test->location = -1;
	return (Expr *) test;
}

static bool
ListHasEqual(List *list, void *node)
{
	ListCell   *lc;

	foreach(lc, list)
	{
		if (equal(lfirst(lc), node))
			return true;
	}
	return false;
}

static Node *RewriteQualTree(RewriteContext *cxt, Node *node, bool *changed);

/*
 * One level of AND-ed conditions (a WHERE or ON list, or an arm of an OR):
 * the list with each time comparison on a column of rel replaced, then one
 * "id >= 0" per bigint column that got an upper bound and no lower bound,
 * and one "uuid7_time(u) IS NOT NULL" per UUID column not declared to hold
 * version 7 UUIDs only.  Sets *changed if it replaced anything; the list is
 * returned as it was if not.
 */
static List *
RewriteConjuncts(RewriteContext *cxt, List *conjuncts, bool *changed)
{
	List	   *result = NIL;
	List	   *lower_bounded = NIL;	/* bigint columns */
	List	   *upper_bounded = NIL;	/* bigint columns */
	List	   *v7_tests = NIL;
	bool		any = false;
	ListCell   *lc;

	foreach(lc, conjuncts)
	{
		Node	   *clause = (Node *) lfirst(lc);
		TimeComparison tc;
		Expr	   *v7_test = NULL;
		List	   *replacement = NIL;
		bool		lower = false,
					upper = false;

		if (is_andclause(clause))
		{
			result = list_concat(result,
								 RewriteConjuncts(cxt, ((BoolExpr *) clause)->args, &any));
			continue;
		}
		if (is_orclause(clause))
		{
			result = lappend(result, RewriteQualTree(cxt, clause, &any));
			continue;
		}
		if (MatchTimeComparison(clause, &tc) &&
			(Index) ColumnVar(tc.column)->varno == cxt->rel->relid &&
			!TimeIsServed(cxt->rel, tc.time))
		{
			bool		exact = true;

			if (tc.kind == UID_ID_UUID7)
			{
				v7_test = IsVersion7(tc.column);
				exact = v7_test != NULL;
				if (exact && ColumnIsAllV7(cxt, v7_test))
					v7_test = NULL;
				else if (tc.v7_only)
					exact = false;
			}
			if (exact)
				replacement = RewriteComparison(cxt->root, &tc, &lower, &upper);
		}
		if (replacement == NIL)
		{
			result = lappend(result, clause);
			continue;
		}
		any = true;
		result = list_concat(result, replacement);
		if (v7_test != NULL && !ListHasEqual(v7_tests, v7_test))
			v7_tests = lappend(v7_tests, v7_test);
		if (tc.kind == UID_ID_BIGINT)
		{
			if (lower && !ListHasEqual(lower_bounded, tc.column))
				lower_bounded = lappend(lower_bounded, tc.column);
			if (upper && !ListHasEqual(upper_bounded, tc.column))
				upper_bounded = lappend(upper_bounded, tc.column);
		}
	}
	if (!any)
		return conjuncts;
	*changed = true;

	foreach(lc, upper_bounded)
	{
		if (!ListHasEqual(lower_bounded, lfirst(lc)))
			result = lappend(result, NonNegative((Expr *) lfirst(lc)));
	}
	return list_concat(result, v7_tests);
}

/*
 * A condition in which NULL counts as false (a WHERE or ON condition, or an
 * AND or OR inside one), rewritten.  NOT, CASE and the rest are left alone:
 * there NULL and false differ, and the rewritten form of a uuid7_time()
 * comparison gives false where the original gives NULL.
 */
static Node *
RewriteQualTree(RewriteContext *cxt, Node *node, bool *changed)
{
	bool		any = false;
	List	   *result;

	if (is_orclause(node))
	{
		ListCell   *lc;

		result = NIL;
		foreach(lc, ((BoolExpr *) node)->args)
			result = lappend(result, RewriteQualTree(cxt, (Node *) lfirst(lc), &any));
		if (!any)
			return node;
		*changed = true;
		return (Node *) make_orclause(result);
	}
	if (is_andclause(node))
	{
		result = RewriteConjuncts(cxt, ((BoolExpr *) node)->args, &any);
		if (!any)
			return node;
		*changed = true;
		return (Node *) make_andclause(result);
	}
	result = RewriteConjuncts(cxt, list_make1(node), &any);
	if (!any)
		return node;
	*changed = true;
	return (Node *) make_ands_explicit(result);
}

/*
 * Rewrites the conditions of the join tree (WHERE, JOIN ... ON) that compare
 * the time of a column of cxt->rel.  After preprocessing each is an
 * implicitly AND-ed list.
 */
static void
RewriteJoinTree(RewriteContext *cxt, Node *jtnode)
{
	bool		changed = false;

	if (jtnode == NULL)
		return;
	if (IsA(jtnode, FromExpr))
	{
		FromExpr   *f = (FromExpr *) jtnode;
		ListCell   *lc;

		foreach(lc, f->fromlist)
			RewriteJoinTree(cxt, (Node *) lfirst(lc));
		if (f->quals != NULL && IsA(f->quals, List))
			f->quals = (Node *) RewriteConjuncts(cxt, (List *) f->quals, &changed);
	}
	else if (IsA(jtnode, JoinExpr))
	{
		JoinExpr   *j = (JoinExpr *) jtnode;

		RewriteJoinTree(cxt, j->larg);
		RewriteJoinTree(cxt, j->rarg);
		if (j->quals != NULL && IsA(j->quals, List))
			j->quals = (Node *) RewriteConjuncts(cxt, (List *) j->quals, &changed);
	}
}

/*
 * The planner is building rel, a table of the query of root, before it
 * distributes the query's conditions to its tables: rewrite the time
 * comparisons on rel's columns.  Child tables (partitions, inheritance) get
 * their parent's conditions, rewritten already.
 */
static void
uid_rel_hook_fn(UID_REL_HOOK_PARAMS)
{
	if (prev_rel_hook)
		prev_rel_hook(UID_REL_HOOK_ARGS);

	if (uid_rewrite_time_filters && rel->reloptkind == RELOPT_BASEREL &&
		root->parse->jointree != NULL)
	{
		RewriteContext cxt = {root, rel, false, NIL};

		RewriteJoinTree(&cxt, (Node *) root->parse->jointree);
	}
}

/*
 * Turning uid.rewrite_time_filters off must reach the plans already cached
 * (prepared statements, PL/pgSQL), or the setting would not be the way out
 * it is meant to be: invalidate them, so that they are planned again.
 */
static void
uid_rewrite_time_filters_assign(bool newval, void *extra)
{
	if (!newval && rewritten_plans_cached)
	{
		ResetPlanCache();
		rewritten_plans_cached = false;
	}
}

/* _PG_init: the setting and the hook, preloaded or not. */
void
UidTimeFilterInit(void)
{
	DefineCustomBoolVariable("uid.rewrite_time_filters",
							 "Turns comparisons of uid_time(id), (uid_decode(id)).ts and uuid7_time(u) with a timestamp into ranges on the ID column while planning.",
							 "Then such filters use indexes on the ID, its statistics and partition pruning.",
							 &uid_rewrite_time_filters,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, uid_rewrite_time_filters_assign, NULL);

	prev_rel_hook = uid_rel_hook;
	uid_rel_hook = uid_rel_hook_fn;
}
