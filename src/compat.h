/*
 * compat.h
 *		Differences between the PostgreSQL major versions uid supports (15 to
 *		19), kept here so that function bodies stay version-free.  Every other
 *		file includes this one instead of testing PG_VERSION_NUM itself.
 */
#ifndef UID_COMPAT_H
#define UID_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "uid requires PostgreSQL 15 or later"
#endif

/*
 * Tuples built by the set-returning and composite functions: 19's funcapi.h
 * no longer includes access/htup_details.h, which declares heap_form_tuple.
 */
#include "access/htup_details.h"
#include "funcapi.h"

#include "miscadmin.h"

/*
 * The slot of the current process in per-backend arrays.  17 renamed
 * BackendId (1-based) to ProcNumber (0-based).  Returns -1 outside a backend.
 */
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#define UidMyBackendSlot() (MyProcNumber >= 0 ? (int) MyProcNumber : -1)
#else
#include "storage/backendid.h"
#define UidMyBackendSlot() (MyBackendId != InvalidBackendId ? (int) MyBackendId - 1 : -1)
#endif

/*
 * Wait events shown in pg_stat_activity while uid waits.  17 added named
 * extension wait events (wait_event_type "Extension", wait_event the name);
 * before that they all show as "Extension".  UID_DECLARE_WAIT_EVENT(fn,
 * "Name") defines fn() returning the event.  Not for the postmaster:
 * registering a name takes a lock.
 */
#include "utils/wait_event.h"
#if PG_VERSION_NUM >= 170000
#define UID_DECLARE_WAIT_EVENT(fn, name) \
static inline uint32 \
fn(void) \
{ \
	static uint32 event = 0; \
	if (event == 0) \
		event = WaitEventExtensionNew(name); \
	return event; \
}
#else
#define UID_DECLARE_WAIT_EVENT(fn, name) \
static inline uint32 \
fn(void) \
{ \
	return PG_WAIT_EXTENSION; \
}
#endif

/*
 * Memory for the "extra" of a GUC check hook, which guc.c frees: malloc
 * before 16, guc_malloc (in GUC's memory context) from 16 on.
 */
#include "utils/guc.h"
#if PG_VERSION_NUM >= 160000
#define UidGucMalloc(size) guc_malloc(LOG, (size))
#else
#define UidGucMalloc(size) malloc(size)
#endif

/*
 * A function that never returns, marked before its declaration: 18 replaced
 * pg_attribute_noreturn() with pg_noreturn.
 */
#if PG_VERSION_NUM >= 180000
#define UidNoReturn pg_noreturn
#else
#define UidNoReturn pg_attribute_noreturn()
#endif

/*
 * The planner hook in which time_filter.c rewrites time filters: called for
 * each table of a query after the query is simplified and before its
 * conditions are distributed.  19 replaced get_relation_info_hook (tables
 * only) with build_simple_rel_hook (every range table entry), with other
 * parameters; UID_REL_HOOK_PARAMS declares them (root and rel in both) and
 * UID_REL_HOOK_ARGS passes them on to the previous hook.
 */
#if PG_VERSION_NUM >= 190000
#include "optimizer/pathnode.h"
typedef build_simple_rel_hook_type uid_rel_hook_type;
#define uid_rel_hook build_simple_rel_hook
#define UID_REL_HOOK_PARAMS PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte
#define UID_REL_HOOK_ARGS root, rel, rte
#else
#include "optimizer/plancat.h"
typedef get_relation_info_hook_type uid_rel_hook_type;
#define uid_rel_hook get_relation_info_hook
#define UID_REL_HOOK_PARAMS PlannerInfo *root, Oid relationObjectId, bool inhparent, RelOptInfo *rel
#define UID_REL_HOOK_ARGS root, relationObjectId, inhparent, rel
#endif

/*
 * The process decoding from or streaming a replication slot, 0 when none:
 * 19 keeps its ProcNumber where earlier versions kept its pid.  Read under
 * the slot's mutex.
 */
#include "replication/slot.h"
#if PG_VERSION_NUM >= 190000
#include "storage/proc.h"
#define UidSlotActivePid(slot) \
	((slot)->active_proc != INVALID_PROC_NUMBER ? \
	 GetPGProcByNumber((slot)->active_proc)->pid : 0)
#else
#define UidSlotActivePid(slot) ((slot)->active_pid)
#endif

/* Every setting the server knows, placeholders too: 16 returns the count. */
#include "utils/guc_tables.h"
#if PG_VERSION_NUM >= 160000
#define UidGucVariables(nvars) get_guc_variables(nvars)
#else
static inline struct config_generic **
UidGucVariables(int *nvars)
{
	*nvars = GetNumConfigOptions();
	return get_guc_variables();
}
#endif

/* Whether the current user may execute a function: 16 renamed the check. */
#include "utils/acl.h"
#if PG_VERSION_NUM >= 160000
#define UidCanExecute(funcid) \
	(object_aclcheck(ProcedureRelationId, (funcid), GetUserId(), ACL_EXECUTE) == ACLCHECK_OK)
#else
#define UidCanExecute(funcid) \
	(pg_proc_aclcheck((funcid), GetUserId(), ACL_EXECUTE) == ACLCHECK_OK)
#endif

/* Whether the current user may use a schema: the same renaming. */
#include "catalog/pg_namespace.h"
#if PG_VERSION_NUM >= 160000
#define UidCanUseSchema(nspid) \
	(object_aclcheck(NamespaceRelationId, (nspid), GetUserId(), ACL_USAGE) == ACLCHECK_OK)
#else
#define UidCanUseSchema(nspid) \
	(pg_namespace_aclcheck((nspid), GetUserId(), ACL_USAGE) == ACLCHECK_OK)
#endif

/*
 * pg_catalog.uuid_extract_timestamp() decodes version 7 UUIDs from 18 on (17's
 * decodes version 1 only; before 17 uid installs its own).  Its OID where it
 * does, else InvalidOid (no function has it).
 */
#include "utils/fmgroids.h"
/*
 * libpq 18 has max_protocol_version, and libpq 19 by default asks for a
 * protocol version above every real one (to test the server's negotiation):
 * poolers older than that negotiation, pgbouncer 1.18 among them, refuse
 * the connection ("bad packet header").  The lease worker needs nothing of
 * protocol 3.2, so it asks for 3.0 unless uid.lease_conninfo says
 * otherwise.  Used inside the keyword and value lists of PQconnectStartParams.
 */
#if PG_VERSION_NUM >= 180000
#define UID_LIBPQ_PROTOCOL_KEYWORD		"max_protocol_version",
#define UID_LIBPQ_PROTOCOL_VALUE		"3.0",
#else
#define UID_LIBPQ_PROTOCOL_KEYWORD
#define UID_LIBPQ_PROTOCOL_VALUE
#endif

#if PG_VERSION_NUM >= 180000
#define UID_BUILTIN_UUID_EXTRACT_TIMESTAMP_V7 F_UUID_EXTRACT_TIMESTAMP
#else
#define UID_BUILTIN_UUID_EXTRACT_TIMESTAMP_V7 InvalidOid
#endif


/* The planner hook: 19 passes the EXPLAIN state too. */
#if PG_VERSION_NUM >= 190000
#define UID_PLANNER_HOOK_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams, ExplainState *es
#define UID_PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams, es
#else
#define UID_PLANNER_HOOK_PARAMS Query *parse, const char *query_string, int cursorOptions, \
	ParamListInfo boundParams
#define UID_PLANNER_HOOK_ARGS parse, query_string, cursorOptions, boundParams
#endif

/* Whether the current user owns a relation: 16 renamed the check. */
#if PG_VERSION_NUM >= 160000
#define UidOwnsRelation(relid) object_ownercheck(RelationRelationId, (relid), GetUserId())
#else
#define UidOwnsRelation(relid) pg_class_ownercheck((relid), GetUserId())
#endif

/* A sequential scan of a table: 19 added the caller's scan flags. */
#include "access/tableam.h"
#if PG_VERSION_NUM >= 190000
#define UidTableBeginScan(rel, snapshot) table_beginscan((rel), (snapshot), 0, NULL, SO_NONE)
#else
#define UidTableBeginScan(rel, snapshot) table_beginscan((rel), (snapshot), 0, NULL)
#endif

/*
 * Subscriptions that apply only changes that originated on their publisher
 * (origin = none, two-way logical replication): 16 added
 * pg_subscription.suborigin.  UID_SUBSCRIPTION_ORIGIN_ATTNUM is its column,
 * InvalidAttrNumber where no subscription has one.
 */
#include "catalog/pg_subscription.h"
#if PG_VERSION_NUM >= 160000
#define UID_SUBSCRIPTION_ORIGIN_ATTNUM Anum_pg_subscription_suborigin
#else
#define UID_SUBSCRIPTION_ORIGIN_ATTNUM InvalidAttrNumber
#endif

/* The parameters of a syscache invalidation callback: 19 typed the cache id. */
#include "utils/inval.h"
#if PG_VERSION_NUM >= 190000
#define UID_SYSCACHE_CALLBACK_PARAMS Datum arg, SysCacheIdentifier cacheid, uint32 hashvalue
#else
#define UID_SYSCACHE_CALLBACK_PARAMS Datum arg, int cacheid, uint32 hashvalue
#endif

/*
 * How a publication of every table can leave the lease tables out: 19 has
 * FOR ALL TABLES EXCEPT (TABLE ...); before, only publications that list
 * their tables or schemas do.  The tail of the hint that says so.
 */
#if PG_VERSION_NUM >= 190000
#define UID_PUBLICATION_EXCEPT_HINT \
	", or FOR ALL TABLES EXCEPT (TABLE %s.lease, %s.tenure)"
#define UID_PUBLICATION_EXCEPT_HINT_ARGS(schema) , (schema), (schema)
#else
#define UID_PUBLICATION_EXCEPT_HINT ""
#define UID_PUBLICATION_EXCEPT_HINT_ARGS(schema)
#endif

/*
 * Input functions report a bad value softly where the caller asks for it
 * (16 added soft errors: pg_input_is_valid(), COPY ... ON_ERROR); 15
 * raises.  UidInputError(fcinfo->context, (errcode(...), errmsg(...)))
 * returns from the input function.
 */
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#define UidInputError(escontext, ...) ereturn((escontext), (Datum) 0, __VA_ARGS__)
#else
#define UidInputError(escontext, ...) do { ereport(ERROR, __VA_ARGS__); return (Datum) 0; } while (0)
#endif

#include <ctype.h>
#include "utils/builtins.h"

/* What reading an integer found: a value, bad syntax, or out of range. */
typedef enum UidParse
{
	UID_PARSE_OK,
	UID_PARSE_SYNTAX,
	UID_PARSE_RANGE
} UidParse;

/*
 * bigint's own text form, as the server's int8in reads it, without raising:
 * 16 added pg_strtoint64_safe() (and with it the hexadecimal, octal, binary
 * and underscored forms int8in accepts from 16 on); 15's int8in reads white
 * space, a sign and decimal digits, which 15 parses here by hand.
 */
static inline UidParse
UidParseInt64(const char *s, int64 *result)
{
#if PG_VERSION_NUM >= 160000
	ErrorSaveContext escontext = {.type = T_ErrorSaveContext};

	escontext.details_wanted = true;
	*result = pg_strtoint64_safe(s, (Node *) &escontext);
	if (!escontext.error_occurred)
		return UID_PARSE_OK;
	return escontext.error_data->sqlerrcode == ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE ?
		UID_PARSE_RANGE : UID_PARSE_SYNTAX;
#else
	/* 15's int8in: white space, a sign, decimal digits, white space */
	const char *p = s;
	bool		negative = false;
	uint64		value = 0;
	bool		any = false;

	while (isspace((unsigned char) *p))
		p++;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	while (isdigit((unsigned char) *p))
	{
		any = true;
		if (value > (PG_UINT64_MAX - 9) / 10)
		{
			while (isdigit((unsigned char) *p))
				p++;
			while (isspace((unsigned char) *p))
				p++;
			return *p == '\0' ? UID_PARSE_RANGE : UID_PARSE_SYNTAX;
		}
		value = value * 10 + (*p++ - '0');
	}
	while (isspace((unsigned char) *p))
		p++;
	if (!any || *p != '\0')
		return UID_PARSE_SYNTAX;
	if (negative)
	{
		if (value > (uint64) PG_INT64_MAX + 1)
			return UID_PARSE_RANGE;
		*result = value == (uint64) PG_INT64_MAX + 1 ? PG_INT64_MIN : -(int64) value;
	}
	else
	{
		if (value > (uint64) PG_INT64_MAX)
			return UID_PARSE_RANGE;
		*result = (int64) value;
	}
	return UID_PARSE_OK;
#endif
}

#endif							/* UID_COMPAT_H */
