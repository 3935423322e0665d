-- ---------------------------------------------------------------------------
-- The statements adoption runs on a table, as its owner (src/tables/owner_ddl.c)
-- ---------------------------------------------------------------------------
-- uid_adopt() and uid_unadopt() (sql/parts/adopt.sql) name each change of
-- a column or a sequence and its values; this function writes the
-- statement, checks it and runs it.  A table's statement runs as the
-- table's owner under a security-restricted operation: changing a column's
-- type re-checks the table's constraints and rebuilds its indexes, which
-- runs the owner's code.  A sequence's statement runs as the caller.  The
-- caller must have the privileges of the owner of what changes: PUBLIC may
-- execute it.  With dry, it returns the statements and checks or runs
-- nothing.

CREATE OR REPLACE FUNCTION uid_adopt._alter(change text, tbl regclass, col name, seq regclass,
                                            n1 bigint, n2 bigint, dry boolean)
RETURNS text[]
AS 'MODULE_PATHNAME', 'uid_adopt_alter'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION uid_adopt._alter(text, regclass, name, regclass, bigint, bigint, boolean) IS
'Part of uid_adopt() and uid_unadopt(): the statements of one change (type bigint, type uid, default uuid7, default gen_random_uuid, default uid_sequence_nextval, default nextval, identity to sequence, sequence to identity always or by default; sequence as bigint, no cycle, bounds n1 n2, restart n1), checked and run (a table''s as its owner, under a security-restricted operation) unless dry; the caller must have the owner''s privileges.';
