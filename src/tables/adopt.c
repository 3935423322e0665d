/*
 * adopt.c
 *		Adopted sequences: a sequence that an existing table (or an
 *		application, through nextval()) draws from, switched to uid in place
 *		by uid_adopt() (sql/parts/adopt.sql).  nextval(), currval() and lastval()
 *		of an adopted sequence return uid IDs; every other sequence behaves
 *		as before.  docs/adopting.md tells the whole story.
 *
 * The mark is a security label of provider "uid" on the sequence
 * ('adopted', or 'adopted identity always' / 'adopted identity by default'
 * for a former identity column, so that uid_unadopt() can restore it).
 * PostgreSQL lets only the sequence's owner (or a superuser) label it; the
 * provider's check below also requires the owner of every table whose
 * column draws from the sequence (a table whose owner may call nextval()
 * on it: a default another role wrote without USAGE or UPDATE on the
 * sequence never drew from it, and cannot veto the owner), and refuses any
 * other object and any other label.  pg_dump, pg_restore and pg_upgrade
 * carry the label with the sequence.
 *
 * A call with INCREMENT n > 1 reserves 2n IDs: a batch.  It is held to
 * uid_next_batch()'s rules at every call: uid.max_batch, and EXECUTE on
 * uid_next_batch(integer) for the caller.
 *
 * The calls: in a database where some sequence is adopted, the planner hook
 * replaces, in every query it plans, PostgreSQL's nextval(regclass),
 * currval(regclass) and lastval() by uid_sequence_nextval(),
 * uid_sequence_currval() and uid_sequence_lastval(), which serve adopted
 * sequences from the generator and hand every other sequence to
 * PostgreSQL's own functions; and it wraps an identity column's
 * NextValueExpr in uid_sequence_plain(), which notes that the session's
 * last sequence value is PostgreSQL's again (for lastval()).  In a database
 * without adoptions the hook changes nothing.  Labelling or unlabelling a
 * sequence invalidates every cached plan of the database (the check queues
 * the invalidation), so no plan made before keeps calling the other
 * function.
 *
 * What the planner never sees (COPY's defaults of columns uid did not move,
 * CALL arguments, ALTER TABLE's defaults) calls PostgreSQL's nextval() on
 * the sequence itself: uid_adopt() leaves the sequence at its maximum, so
 * such a call fails ("reached maximum value") instead of returning a plain
 * sequence value.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_attrdef.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_seclabel.h"
#include "catalog/pg_sequence.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/seclabel.h"
#include "commands/sequence.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/planner.h"
#include "parser/parse_func.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "tables/adopt.h"
#include "core/catalog.h"
#include "core/generator.h"
#include "ids.h"

#define UID_LABEL_PROVIDER	"uid"

/*
 * The largest INCREMENT an adopted sequence may have: a call with INCREMENT
 * n > 1 answers N and reserves the 2n IDs N - n .. N + n - 1, the n below
 * it and the n from it, so that every Hibernate optimizer is safe (pooled
 * takes N - n .. N - 1 in Hibernate 3.6 and N - n + 1 .. N in later
 * versions, pooled-lo N .. N + n - 1).  They must be consecutive numbers:
 * the sequence numbers of one millisecond (4096).
 */
#define UID_ADOPT_MAX_INCREMENT	(UID_SEQ_PER_MS / 2)

/* What this backend knows of one sequence it has called or planned. */
typedef struct AdoptedSeq
{
	Oid			relid;			/* hash key */
	bool		known;			/* adopted and increment are current */
	bool		adopted;
	int64		increment;
	Oid			acl_user;		/* the role the ACL checks below are for
								 * (adopted sequences only; InvalidOid: none
								 * made since known was set) */
	bool		may_next;		/* USAGE or UPDATE: nextval() */
	bool		may_read;		/* USAGE or SELECT: currval(), lastval() */
	bool		may_batch;		/* EXECUTE on uid_next_batch(): INCREMENT > 1 */
	bool		have_last;		/* this session's currval(), once nextval() ran */
	int64		last;
} AdoptedSeq;

static HTAB *adopted_seqs = NULL;

/* Whether the database has any adopted sequence: -1 not known. */
static int	db_adoptions = -1;

/* uid's SQL functions the planner calls instead, verified as uid's own. */
static bool uid_functions_known = false;
static Oid	fn_nextval = InvalidOid;
static Oid	fn_currval = InvalidOid;
static Oid	fn_lastval = InvalidOid;
static Oid	fn_plain = InvalidOid;
static Oid	fn_next_batch = InvalidOid;

/* lastval(): whether the session's last sequence value was uid's, and which */
static bool last_is_uid = false;
static Oid	last_uid_seq = InvalidOid;
static int64 last_uid_value = 0;

static planner_hook_type prev_planner_hook = NULL;
static ProcessUtility_hook_type prev_utility_hook = NULL;

PG_FUNCTION_INFO_V1(uid_sequence_nextval);
PG_FUNCTION_INFO_V1(uid_sequence_currval);
PG_FUNCTION_INFO_V1(uid_sequence_lastval);
PG_FUNCTION_INFO_V1(uid_sequence_plain);

/* ---- what is adopted ---- */

static bool
IsUidLabel(const char *label)
{
	return strcmp(label, "adopted") == 0 ||
		strcmp(label, "adopted identity always") == 0 ||
		strcmp(label, "adopted identity by default") == 0;
}

static void
ForgetAll(void)
{
	HASH_SEQ_STATUS status;
	AdoptedSeq *seq;

	if (adopted_seqs == NULL)
		return;
	hash_seq_init(&status, adopted_seqs);
	while ((seq = hash_seq_search(&status)) != NULL)
		seq->known = false;
}

/* A relation changed (InvalidOid: every one): what we knew may be stale. */
static void
AdoptRelcacheCallback(Datum arg, Oid relid)
{
	AdoptedSeq *seq;

	if (!OidIsValid(relid))
	{
		db_adoptions = -1;
		ForgetAll();
		return;
	}
	if (adopted_seqs != NULL &&
		(seq = hash_search(adopted_seqs, &relid, HASH_FIND, NULL)) != NULL)
		seq->known = false;
}

/* A sequence's parameters or a role's memberships changed. */
static void
AdoptSyscacheCallback(UID_SYSCACHE_CALLBACK_PARAMS)
{
	ForgetAll();
}

/*
 * A function changed: uid's may have been created, updated or dropped, or
 * EXECUTE on uid_next_batch() granted or revoked.
 */
static void
AdoptProcCallback(UID_SYSCACHE_CALLBACK_PARAMS)
{
	uid_functions_known = false;
	ForgetAll();
}

static void LookupUidFunctions(void);

/*
 * The entry of relid, current.  The caller holds a lock on the sequence,
 * so invalidations sent before it was taken have been read.
 */
static AdoptedSeq *
LookupSeq(Oid relid)
{
	AdoptedSeq *seq;
	bool		found;
	Oid			user = GetUserId();

	if (adopted_seqs == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(AdoptedSeq);
		adopted_seqs = hash_create("uid adopted sequences", 16, &ctl,
								   HASH_ELEM | HASH_BLOBS);
	}
	seq = hash_search(adopted_seqs, &relid, HASH_ENTER, &found);
	if (!found)
	{
		seq->known = false;
		seq->have_last = false;
	}
	if (!seq->known)
	{
		ObjectAddress addr;
		char	   *label;
		HeapTuple	tuple;

		ObjectAddressSet(addr, RelationRelationId, relid);
		label = GetSecurityLabel(&addr, UID_LABEL_PROVIDER);
		seq->adopted = label != NULL && IsUidLabel(label) &&
			get_rel_relkind(relid) == RELKIND_SEQUENCE;
		seq->increment = 1;
		if (seq->adopted)
		{
			tuple = SearchSysCache1(SEQRELID, ObjectIdGetDatum(relid));
			if (HeapTupleIsValid(tuple))
			{
				seq->increment = ((Form_pg_sequence) GETSTRUCT(tuple))->seqincrement;
				ReleaseSysCache(tuple);
			}
		}
		seq->acl_user = InvalidOid;
		seq->known = true;
	}
	/* PostgreSQL's own functions check the privileges of other sequences */
	if (seq->adopted && seq->acl_user != user)
	{
		seq->may_next = pg_class_aclcheck(relid, user, ACL_USAGE | ACL_UPDATE) == ACLCHECK_OK;
		seq->may_read = pg_class_aclcheck(relid, user, ACL_USAGE | ACL_SELECT) == ACLCHECK_OK;
		LookupUidFunctions();
		seq->may_batch = OidIsValid(fn_next_batch) && UidCanExecute(fn_next_batch);
		seq->acl_user = user;
	}
	return seq;
}

/* Whether any sequence of this database carries uid's label. */
static bool
DatabaseHasAdoptions(void)
{
	if (db_adoptions < 0)
	{
		Relation	rel;
		ScanKeyData key;
		SysScanDesc scan;

		rel = table_open(SecLabelRelationId, AccessShareLock);
		ScanKeyInit(&key, Anum_pg_seclabel_provider, BTEqualStrategyNumber, F_TEXTEQ,
					CStringGetTextDatum(UID_LABEL_PROVIDER));
		scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &key);
		db_adoptions = HeapTupleIsValid(systable_getnext(scan)) ? 1 : 0;
		systable_endscan(scan);
		table_close(rel, AccessShareLock);
	}
	return db_adoptions > 0;
}

/*
 * uid's function name(argtype) in uid's schema, if it is a member of the
 * extension (a function of that name someone else created is never
 * called); InvalidOid if not there (the SQL objects are older than the
 * library until ALTER EXTENSION uid UPDATE).
 */
static Oid
UidMemberFunction(Oid ext, const char *schema, const char *name, int nargs, Oid argtype)
{
	Oid			funcid;

	funcid = LookupFuncName(list_make2(makeString(pstrdup(schema)), makeString(pstrdup(name))),
							nargs, &argtype, true);
	if (OidIsValid(funcid) && getExtensionOfObject(ProcedureRelationId, funcid) != ext)
		funcid = InvalidOid;
	return funcid;
}

/* uid's sequence functions and uid_next_batch(), once per change of pg_proc. */
static void
LookupUidFunctions(void)
{
	if (!uid_functions_known)
	{
		Oid			ext = get_extension_oid("uid", true);
		Oid			schema = OidIsValid(ext) ? UidExtensionSchema() : InvalidOid;
		char	   *schema_name = OidIsValid(schema) ? get_namespace_name(schema) : NULL;

		fn_nextval = fn_currval = fn_lastval = fn_plain = fn_next_batch = InvalidOid;
		if (schema_name != NULL)
		{
			fn_nextval = UidMemberFunction(ext, schema_name, "uid_sequence_nextval", 1, REGCLASSOID);
			fn_currval = UidMemberFunction(ext, schema_name, "uid_sequence_currval", 1, REGCLASSOID);
			fn_lastval = UidMemberFunction(ext, schema_name, "uid_sequence_lastval", 0, InvalidOid);
			fn_plain = UidMemberFunction(ext, schema_name, "uid_sequence_plain", 1, ANYELEMENTOID);
			fn_next_batch = UidMemberFunction(ext, schema_name, "uid_next_batch", 1, INT4OID);
		}
		uid_functions_known = true;
	}
}

/* Whether the planner should replace the sequence functions here. */
static bool
AdoptionActive(void)
{
	if (!DatabaseHasAdoptions())
		return false;
	LookupUidFunctions();
	return OidIsValid(fn_nextval) && OidIsValid(fn_currval) &&
		OidIsValid(fn_lastval) && OidIsValid(fn_plain);
}

/* ---- the label's check ---- */

/*
 * The error unless the current user owns relation relid, whose column
 * draws from sequence seqid.  A table whose owner may not call nextval()
 * on the sequence never drew from it: not required.
 */
static void
RequireOwner(Oid relid, Oid seqid)
{
	if (pg_class_aclcheck(seqid, UidRelationOwner(relid), ACL_USAGE | ACL_UPDATE) != ACLCHECK_OK)
		return;
	if (!UidOwnsRelation(relid))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s to adopt sequence %s",
						get_rel_name(relid), get_rel_name(seqid)),
				 errdetail("A column of %s draws its values from the sequence.",
						   get_rel_name(relid)),
				 errhint("Have the owner of every table that uses the sequence adopt it.")));
}

/*
 * Every table with a column that uses sequence seqid (a default that calls
 * it, or the column that owns it) must be the current user's: no role
 * changes what another role's inserts get.
 */
static void
RequireOwnerOfUsers(Oid seqid)
{
	Relation	rel;
	ScanKeyData key[2];
	SysScanDesc scan;
	HeapTuple	tuple;

	rel = table_open(DependRelationId, AccessShareLock);
	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(RelationRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(seqid));
	scan = systable_beginscan(rel, DependReferenceIndexId, true, NULL, 2, key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);

		if (dep->classid == AttrDefaultRelationId)
			RequireOwner(GetAttrDefaultColumnAddress(dep->objid).objectId, seqid);
	}
	systable_endscan(scan);

	/* the column the sequence is OWNED BY */
	ScanKeyInit(&key[0], Anum_pg_depend_classid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(RelationRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_objid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(seqid));
	scan = systable_beginscan(rel, DependDependerIndexId, true, NULL, 2, key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend dep = (Form_pg_depend) GETSTRUCT(tuple);

		if (dep->refclassid == RelationRelationId && dep->refobjsubid != 0 &&
			(dep->deptype == DEPENDENCY_AUTO || dep->deptype == DEPENDENCY_INTERNAL))
			RequireOwner(dep->refobjid, seqid);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/*
 * SECURITY LABEL FOR uid: PostgreSQL has checked that the user owns the
 * object.  Only sequences, only uid's labels, only by the owner of the
 * tables that use the sequence; then every plan of the database is
 * invalidated at commit, so that each is planned again knowing it.
 */
static void
AdoptRelabel(const ObjectAddress *object, const char *seclabel)
{
	if (seclabel != NULL && !IsUidLabel(seclabel))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not a label of uid", seclabel),
				 errhint("uid's labels are 'adopted', 'adopted identity always' and "
						 "'adopted identity by default'; uid_adopt() sets them.")));
	if (object->classId != RelationRelationId || object->objectSubId != 0 ||
		get_rel_relkind(object->objectId) != RELKIND_SEQUENCE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("uid labels sequences only"),
				 errhint("Move a table's column to uid with uid_adopt().")));
	if (seclabel != NULL)
		RequireOwnerOfUsers(object->objectId);
	CacheInvalidateRelcacheAll();
}

/* ---- the planner hook ---- */

/*
 * Replaces, in place, the calls of PostgreSQL's sequence functions by uid's
 * (same arguments, same result); notes an identity column's NextValueExpr.
 */
static bool
ReplaceSequenceCalls(Node *node, bool *found_identity)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, ReplaceSequenceCalls, found_identity, 0);
	if (IsA(node, FuncExpr))
	{
		FuncExpr   *f = (FuncExpr *) node;

		if (f->funcid == F_NEXTVAL)
			f->funcid = fn_nextval;
		else if (f->funcid == F_CURRVAL)
			f->funcid = fn_currval;
		else if (f->funcid == F_LASTVAL)
			f->funcid = fn_lastval;
	}
	else if (IsA(node, NextValueExpr))
		*found_identity = true;
	return expression_tree_walker(node, ReplaceSequenceCalls, found_identity);
}

/* NextValueExpr -> uid_sequence_plain(NextValueExpr) */
static Node *
WrapIdentityValues(Node *node, void *context)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, NextValueExpr))
	{
		NextValueExpr *nve = (NextValueExpr *) node;

		return (Node *) makeFuncExpr(fn_plain, nve->typeId, list_make1(copyObject(nve)),
									 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	}
	if (IsA(node, Query))
		return (Node *) query_tree_mutator((Query *) node, WrapIdentityValues, context, 0);
	return expression_tree_mutator(node, WrapIdentityValues, context);
}

static PlannedStmt *
AdoptPlanner(UID_PLANNER_HOOK_PARAMS)
{
	if (AdoptionActive())
	{
		bool		found_identity = false;

		ReplaceSequenceCalls((Node *) parse, &found_identity);
		if (found_identity)
			parse = query_tree_mutator(parse, WrapIdentityValues, NULL, QTW_DONT_COPY_QUERY);
	}
	if (prev_planner_hook)
		return prev_planner_hook(UID_PLANNER_HOOK_ARGS);
	return standard_planner(UID_PLANNER_HOOK_ARGS);
}

/* DISCARD SEQUENCES and DISCARD ALL forget uid's currval() and lastval() too. */
static void
AdoptUtility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
			 ProcessUtilityContext context, ParamListInfo params,
			 QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *stmt = pstmt->utilityStmt;

	if (prev_utility_hook)
		prev_utility_hook(pstmt, queryString, readOnlyTree, context, params,
						  queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
								queryEnv, dest, qc);

	if (IsA(stmt, DiscardStmt) &&
		(((DiscardStmt *) stmt)->target == DISCARD_ALL ||
		 ((DiscardStmt *) stmt)->target == DISCARD_SEQUENCES))
	{
		if (adopted_seqs != NULL)
			hash_destroy(adopted_seqs);
		adopted_seqs = NULL;
		last_is_uid = false;
	}
}

/* ---- the SQL functions ---- */

static void
PermissionDenied(Oid relid)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for sequence %s", get_rel_name(relid))));
}

/*
 * A call of an adopted sequence with INCREMENT n > 1 reserves 2n IDs: the
 * rules of uid_next_batch() apply, so that neither uid.max_batch nor a
 * REVOKE of uid_next_batch() can be got round by adopting a sequence.
 */
static void
RequireBatchAllowed(Oid relid, AdoptedSeq *seq)
{
	if (!seq->may_batch)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to draw " INT64_FORMAT " IDs at once from adopted sequence %s",
						2 * seq->increment, get_rel_name(relid)),
				 errdetail("Each nextval() of an adopted sequence with INCREMENT n > 1 reserves 2n IDs, "
						   "a batch as uid_next_batch() draws; this role may not execute uid_next_batch()."),
				 errhint("Grant EXECUTE on uid_next_batch(integer) to the role, or ALTER SEQUENCE %s INCREMENT 1.",
						 get_rel_name(relid))));
	if (2 * seq->increment > uid_max_batch)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("adopted sequence %s reserves " INT64_FORMAT " IDs per nextval(), more than uid.max_batch (%d)",
						get_rel_name(relid), 2 * seq->increment, uid_max_batch),
				 errhint("Lower its INCREMENT to at most %d, or have a superuser raise uid.max_batch.",
						 uid_max_batch / 2)));
}

/*
 * nextval(regclass) in a database with adoptions.  An adopted sequence:
 * the next uid ID, or with INCREMENT n > 1 the ID N of a run of 2n
 * consecutive IDs N - n .. N + n - 1 reserved for the caller.  Any other: PostgreSQL's nextval(), value for
 * value.  The lock is nextval's own: uid_unadopt() waits for it.
 */
Datum
uid_sequence_nextval(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	AdoptedSeq *seq;
	int64		id;

	LockRelationOid(relid, RowExclusiveLock);
	seq = LookupSeq(relid);
	if (!seq->adopted)
	{
		id = nextval_internal(relid, true);
		last_is_uid = false;
		PG_RETURN_INT64(id);
	}
	if (!seq->may_next)
		PermissionDenied(relid);
	if (seq->increment < 1 || seq->increment > UID_ADOPT_MAX_INCREMENT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("adopted sequence %s has INCREMENT " INT64_FORMAT ", outside 1 .. %d",
						get_rel_name(relid), seq->increment, UID_ADOPT_MAX_INCREMENT),
				 errdetail("Each nextval() of an adopted sequence reserves 2 x INCREMENT "
						   "consecutive IDs, at most one millisecond's %d.", UID_SEQ_PER_MS),
				 errhint("ALTER SEQUENCE %s INCREMENT with a value from 1 to %d.",
						 get_rel_name(relid), UID_ADOPT_MAX_INCREMENT)));
	if (seq->increment > 1)
		RequireBatchAllowed(relid, seq);
	if (seq->increment == 1)
		id = UidGeneratorNextRun("nextval", 1);
	else
		id = UidGeneratorNextRun("nextval", (int) (2 * seq->increment)) + seq->increment;
	seq->last = id;
	seq->have_last = true;
	last_is_uid = true;
	last_uid_seq = relid;
	last_uid_value = id;
	PG_RETURN_INT64(id);
}

/* currval(regclass): the session's last nextval() of the sequence. */
Datum
uid_sequence_currval(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	AdoptedSeq *seq;

	LockRelationOid(relid, AccessShareLock);
	seq = LookupSeq(relid);
	if (!seq->adopted || !seq->have_last)
		return DirectFunctionCall1(currval_oid, ObjectIdGetDatum(relid));
	if (!seq->may_read)
		PermissionDenied(relid);
	PG_RETURN_INT64(seq->last);
}

/* lastval(): the value of the session's last nextval(), of any sequence. */
Datum
uid_sequence_lastval(PG_FUNCTION_ARGS)
{
	if (!last_is_uid)
		return lastval(fcinfo);
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(last_uid_seq)))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("lastval is not yet defined in this session"),
				 errdetail("The sequence of the session's last nextval() was dropped.")));
	/* as PostgreSQL's lastval(): also if the sequence is no longer adopted */
	LockRelationOid(last_uid_seq, AccessShareLock);
	if (pg_class_aclcheck(last_uid_seq, GetUserId(), ACL_USAGE | ACL_SELECT) != ACLCHECK_OK)
		PermissionDenied(last_uid_seq);
	PG_RETURN_INT64(last_uid_value);
}

/*
 * An identity column's next value, passed through: the session's last
 * sequence value is now PostgreSQL's.
 */
Datum
uid_sequence_plain(PG_FUNCTION_ARGS)
{
	last_is_uid = false;
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/* _PG_init, preloaded or not: the label provider and the hooks. */
void
UidAdoptInit(void)
{
	register_label_provider(UID_LABEL_PROVIDER, AdoptRelabel);
	CacheRegisterRelcacheCallback(AdoptRelcacheCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(SEQRELID, AdoptSyscacheCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, AdoptSyscacheCallback, (Datum) 0);
	CacheRegisterSyscacheCallback(PROCOID, AdoptProcCallback, (Datum) 0);
	prev_planner_hook = planner_hook;
	planner_hook = AdoptPlanner;
	prev_utility_hook = ProcessUtility_hook;
	ProcessUtility_hook = AdoptUtility;
}
