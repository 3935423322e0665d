-- ---------------------------------------------------------------------------
-- The greatest stored value of a table another role may own (src/tables/owner_read.c)
-- ---------------------------------------------------------------------------
-- uid_catch_up(), uid_adopt() and uid_unadopt() read tables whoever owns
-- them.  Planning a read runs code the table's owner chose (index
-- predicates and expressions, policies), so these two read each table of
-- the inheritance tree as its owner, under a security-restricted operation
-- with search_path pinned, after checking that the caller may read the
-- column and every row.  PUBLIC may execute them: they tell the caller only
-- what its own SELECT max(col) would.

CREATE FUNCTION uid_stored_max(rel regclass, col name)
RETURNS numeric
AS 'MODULE_PATHNAME', 'uid_stored_max'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_stored_max(regclass, name) IS
'The greatest value of an integer column of the table, its partitions and children (NULL if none), each read as its owner under a security-restricted operation; the caller must be allowed to read the column and every row.';

CREATE FUNCTION uid_stored_max_uuid7(rel regclass, col name)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uid_stored_max_uuid7'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_stored_max_uuid7(regclass, name) IS
'The greatest version 7 value of a uuid column of the table, its partitions and children (NULL if none), each read as its owner under a security-restricted operation; the caller must be allowed to read the column and every row.';


-- The ALTER TABLE (and CREATE SEQUENCE ... OWNED BY) statements of
-- uid_adopt() and uid_unadopt(), run as the table's owner under a
-- security-restricted operation (src/tables/owner_ddl.c): changing a column's
-- type re-checks the table's constraints and rebuilds its indexes, which
-- runs the owner's code.  It runs only those statements, and only for a
-- caller with the privileges of the table's owner: PUBLIC may execute it.
CREATE FUNCTION uid_alter_as_owner(statement text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_alter_as_owner'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_alter_as_owner(text) IS
'Runs one ALTER TABLE (column type without USING, default, identity) or CREATE SEQUENCE ... OWNED BY statement as the table''s owner under a security-restricted operation; the caller must have the owner''s privileges. Used by uid_adopt() and uid_unadopt().';
