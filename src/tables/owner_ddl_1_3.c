/*
 * owner_ddl_1_3.c
 *		uid_alter_as_owner(): the SQL function through which the SQL
 *		definitions of uid 1.3 (sql/uid--1.3.sql) run the ALTER TABLE
 *		statements of their uid_adopt() and uid_unadopt() as the table's
 *		owner.  The library keeps serving a database whose extension is
 *		still at 1.3 until ALTER EXTENSION uid UPDATE, which drops the
 *		function: from 1.4 on, uid_adopt._alter() (owner_ddl.c) writes each
 *		statement itself and nothing parses SQL text back.
 *
 * The statement is parsed and held to what 1.3's uid_adopt() and
 * uid_unadopt() write: one ALTER TABLE whose subcommands only change a
 * column's type (without USING), set or drop its default, or add or drop
 * its identity; or one CREATE SEQUENCE ... OWNED BY a table's column, which
 * must belong to the table's owner.  The caller must own the table (have
 * its owner's privileges) before anything runs, so whatever text it passes
 * runs nothing it could not run itself, and with no more than the owner's
 * rights; it runs as the owner as owner_ddl.c's statements do.
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
#include "tables/owner_ddl.h"
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
		UidCheckMembersOwner(relid, owner);

	UidBeginAs(owner, &save);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "running the statement on table %s failed", get_rel_name(relid));
	SPI_finish();
	UidEndAs(&save);
	PG_RETURN_VOID();
}
