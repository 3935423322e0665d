-- ---------------------------------------------------------------------------
-- uid's schema keeps its name
-- ---------------------------------------------------------------------------

-- uid's PL/pgSQL functions (adoption, catch-up, tickets, counters) call
-- uid's own functions by the schema name they were installed with
-- (@extschema@.name).  Renaming that schema would let whoever may create
-- one (the owner of the database owns public) make a new schema of the old
-- name and put functions of uid's names and arguments in it: the next
-- superuser running uid_adopt() or uid_catch_up() would run them, with its
-- rights.  This event trigger refuses renaming uid's schema (55000); a
-- change of its owner is left alone.  It compares the schema's name after
-- the command with the one the install script was run with, so it needs no
-- state of its own, runs as the role whose command fired it and only reads
-- the catalog.

CREATE FUNCTION uid_guard_schema()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext_schema oid;
    now_named text;
BEGIN
    SELECT e.extnamespace INTO ext_schema
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_event_trigger_ddl_commands() c
                   WHERE c.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
                     AND c.objid OPERATOR(pg_catalog.=) ext_schema) THEN
        RETURN;
    END IF;
    SELECT pg_catalog.quote_ident(n.nspname) INTO now_named
    FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) ext_schema;
    IF now_named OPERATOR(pg_catalog.<>) '@extschema@' THEN
        RAISE EXCEPTION USING
            ERRCODE = 'object_not_in_prerequisite_state',
            MESSAGE = pg_catalog.format('schema %s holds the extension uid and cannot be renamed', '@extschema@'),
            DETAIL = 'uid''s functions call each other by this schema''s name; another schema of that name could put its own functions in their place.',
            HINT = 'Keep the name; to move uid, dump the database, drop the extension, and create it again in the schema you want (CREATE EXTENSION uid SCHEMA ...).';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_guard_schema() IS
'Event trigger: refuses renaming the schema that holds uid (55000), whose name uid''s functions call each other by.';

REVOKE ALL ON FUNCTION uid_guard_schema() FROM PUBLIC;

CREATE EVENT TRIGGER uid_guard_schema ON ddl_command_end
    WHEN TAG IN ('ALTER SCHEMA')
    EXECUTE FUNCTION uid_guard_schema();
