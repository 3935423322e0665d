-- uid's schema keeps its name (event trigger uid_guard_schema): a rename
-- is refused, so that no other schema can take the name uid's functions
-- call each other by; other schemas, and a change of owner, are left alone.
\set VERBOSITY default
CREATE ROLE regress_schema_guard_owner;
ALTER SCHEMA public RENAME TO public_elsewhere;
SELECT nspname FROM pg_namespace WHERE oid = (SELECT extnamespace FROM pg_extension WHERE extname = 'uid');
ALTER SCHEMA public OWNER TO regress_schema_guard_owner;
SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'public';
ALTER SCHEMA public OWNER TO pg_database_owner;
CREATE SCHEMA regress_schema_guard;
ALTER SCHEMA regress_schema_guard RENAME TO regress_schema_guard_renamed;
DROP SCHEMA regress_schema_guard_renamed;
DROP ROLE regress_schema_guard_owner;
