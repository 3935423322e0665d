/*
 * owner_ddl.c
 *		uid_alter_as_owner(): the ALTER TABLE statements uid_adopt() and
 *		uid_unadopt() (sql/parts/adopt.sql) run on a table, run as the
 *		table's owner.
 *
 * ALTER TABLE runs code of the table's owner: changing a column's type
 * re-checks the table's CHECK constraints and rebuilds its indexes (their
 * expressions and predicates), with the rights of the role that runs the
 * statement.  A superuser adopting another role's table would run that
 * role's functions as a superuser.  So each such statement runs under the
 * identity of the table's owner, as a security-restricted operation with
 * search_path pinned (UidBeginAs(), owner_read.c), as VACUUM and REINDEX
 * run another role's code: the owner's code gets the rights it has anyway.
 *
 * The statement is parsed and held to what uid_adopt() and uid_unadopt()
 * write: one ALTER TABLE whose subcommands only change a column's type
 * (without USING), set or drop its default, or add or drop its identity;
 * or one CREATE SEQUENCE ... OWNED BY a table's column, which must belong
 * to the table's owner.  The caller must own the table (have its owner's
 * privileges) before anything runs, so whatever text it passes runs
 * nothing it could not run itself, and with no more than the owner's
 * rights.  A statement that would recurse into an inheritance child or a
 * partition owned by another role is refused: the owner could not alter
 * it, and running it as the caller is what this prevents.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_inherits.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "core/catalog.h"
#include "tables/owner_read.h"

PG_FUNCTION_INFO_V1(uid_alter_as_owner);

static void
RefuseStatement(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("uid_alter_as_owner() does not run this statement: %s", why),
			 errhint("It runs the ALTER TABLE and CREATE SEQUENCE ... OWNED BY statements of uid_adopt() and uid_unadopt().")));
}

/* The ALTER TABLE subcommands uid_adopt() and uid_unadopt() write. */
static void
CheckAlterCommands(AlterTableStmt *stmt)
{
	ListCell   *lc;

	if (stmt->objtype != OBJECT_TABLE)
		RefuseStatement("not ALTER TABLE");
	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = lfirst_node(AlterTableCmd, lc);

		switch (cmd->subtype)
		{
			case AT_AlterColumnType:
				if (cmd->def == NULL || !IsA(cmd->def, ColumnDef) ||
					((ColumnDef *) cmd->def)->raw_default != NULL)
					RefuseStatement("a type change with USING");
				break;
			case AT_ColumnDefault:
			case AT_AddIdentity:
			case AT_DropIdentity:
				break;
			default:
				RefuseStatement("an ALTER TABLE subcommand other than ALTER COLUMN TYPE, SET DEFAULT, DROP DEFAULT, ADD GENERATED or DROP IDENTITY");
		}
	}
}

/* The table of CREATE SEQUENCE ... OWNED BY table.column. */
static RangeVar *
OwnedByTable(CreateSeqStmt *stmt)
{
	ListCell   *lc;

	if (stmt->sequence->relpersistence == RELPERSISTENCE_TEMP)
		RefuseStatement("a temporary sequence");
	foreach(lc, stmt->options)
	{
		DefElem    *opt = lfirst_node(DefElem, lc);

		if (strcmp(opt->defname, "owned_by") == 0)
		{
			List	   *names = castNode(List, opt->arg);

			if (list_length(names) < 2)
				break;			/* OWNED BY NONE */
			return makeRangeVarFromNameList(list_truncate(list_copy(names), list_length(names) - 1));
		}
	}
	RefuseStatement("CREATE SEQUENCE without OWNED BY a table's column");
	return NULL;				/* keep the compiler quiet */
}

/*
 * Refuses the statement if it would reach a member of relid's inheritance
 * tree that another role owns.
 */
static void
CheckMembersOwner(Oid relid, Oid owner)
{
	List	   *members = find_all_inheritors(relid, AccessExclusiveLock, NULL);
	ListCell   *lc;

	foreach(lc, members)
	{
		Oid			member = lfirst_oid(lc);

		if (UidRelationOwner(member) != owner)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("table %s has another owner than table %s", get_rel_name(member), get_rel_name(relid)),
					 errdetail("The statement runs as the owner of %s, which may not alter %s.",
							   get_rel_name(relid), get_rel_name(member)),
					 errhint("Give every partition and inheritance child the owner of the table, or have each owner adopt by hand.")));
	}
}

/*
 * uid_alter_as_owner(statement text): runs one of uid_adopt()'s or
 * uid_unadopt()'s table statements as the table's owner (see the file's
 * header).  The table is looked up under the pinned search_path and locked
 * as the statement will lock it, so the statement finds the same table.
 */
Datum
uid_alter_as_owner(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	List	   *parsed = raw_parser(sql, RAW_PARSE_DEFAULT);
	Node	   *stmt;
	RangeVar   *target;
	LOCKMODE	lock;
	bool		recurse = false;
	Oid			relid;
	Oid			owner;
	char		kind;
	UidAsSave	save;
	int			nestlevel;

	if (list_length(parsed) != 1)
		RefuseStatement("not exactly one statement");
	stmt = linitial_node(RawStmt, parsed)->stmt;
	if (IsA(stmt, AlterTableStmt))
	{
		CheckAlterCommands((AlterTableStmt *) stmt);
		target = ((AlterTableStmt *) stmt)->relation;
		recurse = target->inh;
		lock = AccessExclusiveLock;
	}
	else if (IsA(stmt, CreateSeqStmt))
	{
		target = OwnedByTable((CreateSeqStmt *) stmt);
		lock = AccessShareLock;
	}
	else
	{
		RefuseStatement("neither ALTER TABLE nor CREATE SEQUENCE");
		PG_RETURN_VOID();		/* keep the compiler quiet */
	}

	/* the names as the statement will resolve them */
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	relid = RangeVarGetRelid(target, lock, false);
	AtEOXact_GUC(false, nestlevel);

	/* the caller's ownership first */
	owner = UidRelationOwner(relid);
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of table %s", get_rel_name(relid))));
	/* a view's or a foreign table's column default is moved too */
	kind = get_rel_relkind(relid);
	if (kind != RELKIND_RELATION && kind != RELKIND_PARTITIONED_TABLE &&
		kind != RELKIND_VIEW && kind != RELKIND_FOREIGN_TABLE)
		RefuseStatement("the relation is not a table");
	if (recurse)
		CheckMembersOwner(relid, owner);

	UidBeginAs(owner, &save);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "running the statement on table %s failed", get_rel_name(relid));
	SPI_finish();
	UidEndAs(&save);
	PG_RETURN_VOID();
}
