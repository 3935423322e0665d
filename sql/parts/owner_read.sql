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

