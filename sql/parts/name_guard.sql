-- ---------------------------------------------------------------------------
-- No other function under the name of one of uid's, in uid's schema
-- ---------------------------------------------------------------------------

-- pg_dump writes a call of uid's function with its schema and without its
-- arguments' types: DEFAULT public.uid_next().  A function another role
-- creates in that schema under the same name, which can be called with the
-- same arguments (public.uid_next(x integer DEFAULT 0)), changes nothing in
-- the database, whose defaults name their function by OID; but every
-- restore of its dump then fails at that default ("function
-- public.uid_next() is not unique"), and the table and its rows are not
-- restored, and every call of public.uid_next() by name fails the same
-- way.  Every role may create in public on clusters upgraded from 14 or
-- older (and the owner of a database owns it from 15 on), so a role that
-- cannot read the data could keep it out of every restore.  This
-- event trigger refuses such a function when it is created, renamed or
-- moved into uid's schema (42723): any function there under a name of one
-- of uid's functions that is not uid's own (a member of the extension, as
-- every function its scripts create, CREATE OR REPLACE of ALTER EXTENSION
-- UPDATE included, already is when the trigger fires).  A dump taken
-- before it existed restores its tables: the restore's CREATE FUNCTION of
-- the planted function is the statement that fails.  It runs as the role
-- whose command fired it and only reads the catalog.

CREATE OR REPLACE FUNCTION uid_guard_names()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cmd record;
    ext oid;
    ext_schema oid;
    fn record;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, ext_schema
    FROM pg_catalog.pg_extension e WHERE e.extname = 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    FOR cmd IN SELECT c.objid FROM pg_catalog.pg_event_trigger_ddl_commands() c
               WHERE c.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass LOOP
        SELECT p.proname, p.pronamespace INTO fn
        FROM pg_catalog.pg_proc p WHERE p.oid = cmd.objid;
        CONTINUE WHEN NOT FOUND OR fn.pronamespace <> ext_schema;
        -- uid's own
        CONTINUE WHEN EXISTS (
            SELECT FROM pg_catalog.pg_depend d
            WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
              AND d.objid = cmd.objid
              AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
              AND d.refobjid = ext
              AND d.deptype = 'e');
        IF EXISTS (
            SELECT FROM pg_catalog.pg_proc p
            JOIN pg_catalog.pg_depend d
              ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND d.objid = p.oid
             AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND d.refobjid = ext
             AND d.deptype = 'e'
            WHERE p.proname = fn.proname
              AND p.pronamespace = ext_schema) THEN
            RAISE EXCEPTION USING
                ERRCODE = 'duplicate_function',
                MESSAGE = pg_catalog.format('function %s has the name of a function of uid in uid''s schema %I',
                                            cmd.objid::pg_catalog.regprocedure, ext_schema::pg_catalog.regnamespace),
                DETAIL = 'A dump names uid''s function by its schema and name; with a second function of that name there, its restore can fail.',
                HINT = 'Create the function in another schema or under another name.';
        END IF;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_guard_names() IS
'Event trigger: refuses a function that is not uid''s created, renamed or moved into uid''s schema under the name of one of uid''s functions (42723), which would make restores of dumps that call uid''s function fail.';

REVOKE ALL ON FUNCTION uid_guard_names() FROM PUBLIC;
