
-- ---------------------------------------------------------------------------
-- A DEFAULT of uid's generators only on a column that holds every value
-- ---------------------------------------------------------------------------

-- PostgreSQL accepts DEFAULT uid_next() on an integer column (the default
-- is the call with an assignment cast to integer) and fails at the first
-- INSERT with a bare "integer out of range".  This event trigger refuses
-- it when the default is set (42804): CREATE TABLE (also LIKE ... INCLUDING
-- DEFAULTS and PARTITION OF), ALTER TABLE ... ADD COLUMN, ALTER COLUMN ...
-- SET DEFAULT and ALTER COLUMN ... TYPE.  A column default whose expression
-- calls uid_next() must be of a type that holds every ID: bigint, uid,
-- numeric (unconstrained, or with at least 19 digits before the point),
-- text, varchar or char (unconstrained, or at least 19 characters); one
-- that calls uuid7() or uuidv7(): uuid, text, varchar or char
-- (unconstrained, or at least 36 characters); a domain by its base type.
-- A command that rewrites the table (ADD COLUMN with such a default,
-- ALTER COLUMN ... TYPE) evaluates the default for every row before it
-- ends, so the same check runs at table_rewrite, before the rewrite
-- (event trigger uid_guard_defaults_rewrite).  It goes by the catalog
-- only: the default's dependencies on uid's own functions (pg_depend,
-- members of the extension), the column's type and uid's type in the
-- extension's schema, so it calls nothing another role created.  It runs
-- as the role whose command fired it, and fires for each ALTER TABLE of a
-- table, so a table that already had such a default (from before 1.4) is
-- refused there until its column is widened or its default dropped.

CREATE FUNCTION uid_guard_defaults()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext oid;
    ext_schema oid;
    uid_type oid;
    rels oid[];
    col record;
    dom record;
    base oid;
    typmod integer;
    fits boolean;
    width integer;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, ext_schema
    FROM pg_catalog.pg_extension e WHERE e.extname = 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- uid's schema holds its type: no other type of that name can be there
    SELECT t.oid INTO uid_type
    FROM pg_catalog.pg_type t
    WHERE t.typname = 'uid' AND t.typnamespace = ext_schema;
    -- a rewrite (ADD COLUMN with a volatile default, ALTER COLUMN ... TYPE)
    -- evaluates the default for every row before the command ends: check
    -- the table as the catalog already has it, before the rewrite
    IF TG_EVENT = 'table_rewrite' THEN
        rels := ARRAY[pg_catalog.pg_event_trigger_table_rewrite_oid()];
    ELSE
        SELECT pg_catalog.array_agg(DISTINCT c.objid) INTO rels
        FROM pg_catalog.pg_event_trigger_ddl_commands() c
        WHERE c.classid = 'pg_catalog.pg_class'::pg_catalog.regclass;
    END IF;
    FOR col IN
        SELECT DISTINCT a.attrelid, a.attname, a.atttypid, a.atttypmod, p.proname
        FROM pg_catalog.pg_attrdef ad
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        JOIN pg_catalog.pg_depend dd
          ON dd.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
         AND dd.objid = ad.oid
         AND dd.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
        JOIN pg_catalog.pg_proc p ON p.oid = dd.refobjid
        JOIN pg_catalog.pg_depend de
          ON de.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
         AND de.objid = p.oid
         AND de.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
         AND de.refobjid = ext
         AND de.deptype = 'e'
        WHERE ad.adrelid = ANY (rels)
          AND p.proname = ANY (ARRAY['uid_next', 'uuid7', 'uuidv7']::pg_catalog.name[])
          AND NOT a.attisdropped
        ORDER BY a.attrelid, a.attname
    LOOP
        -- a domain by its base type, and the first typmod on the way
        base := col.atttypid;
        typmod := col.atttypmod;
        LOOP
            SELECT t.typtype, t.typbasetype, t.typtypmod INTO STRICT dom
            FROM pg_catalog.pg_type t WHERE t.oid = base;
            EXIT WHEN dom.typtype <> 'd';
            IF typmod < 0 THEN
                typmod := dom.typtypmod;
            END IF;
            base := dom.typbasetype;
        END LOOP;
        width := CASE WHEN col.proname = 'uid_next' THEN 19 ELSE 36 END;
        fits := CASE
            WHEN base = ANY (ARRAY['pg_catalog.text'::pg_catalog.regtype,
                                                         'pg_catalog.varchar'::pg_catalog.regtype,
                                                         'pg_catalog.bpchar'::pg_catalog.regtype]::pg_catalog.oid[])
                THEN typmod < 0 OR typmod - 4 >= width
            WHEN col.proname <> 'uid_next'
                THEN base = 'pg_catalog.uuid'::pg_catalog.regtype
            WHEN base = 'pg_catalog.numeric'::pg_catalog.regtype
                THEN typmod < 0
                     OR ((typmod - 4) >> 16)
                        - ((typmod - 4) & 65535)
                        >= width
            ELSE base = 'pg_catalog.int8'::pg_catalog.regtype
                 OR base = uid_type
        END;
        CONTINUE WHEN fits;
        RAISE EXCEPTION USING
            ERRCODE = 'datatype_mismatch',
            MESSAGE = pg_catalog.format('column %I of %s cannot hold the values of its default %s()',
                                        col.attname, col.attrelid::pg_catalog.regclass, col.proname),
            DETAIL = pg_catalog.format('The column''s type is %s; %s',
                                       pg_catalog.format_type(col.atttypid, col.atttypmod),
                                       CASE WHEN col.proname = 'uid_next'
                                            THEN 'uid_next() returns bigint IDs of 19 digits, which it cannot hold: the first INSERT would fail.'
                                            ELSE pg_catalog.format('%s() returns a uuid.', col.proname) END),
            HINT = CASE WHEN col.proname = 'uid_next'
                        THEN 'Make the column bigint or uid.'
                        ELSE 'Make the column uuid.' END;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_guard_defaults() IS
'Event trigger: refuses a column default that calls uid_next() on a column whose type cannot hold every ID (bigint, uid, numeric or text do), or uuid7() / uuidv7() on one that cannot hold a UUID (42804).';

REVOKE ALL ON FUNCTION uid_guard_defaults() FROM PUBLIC;

CREATE EVENT TRIGGER uid_guard_defaults ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE')
    EXECUTE FUNCTION uid_guard_defaults();

CREATE EVENT TRIGGER uid_guard_defaults_rewrite ON table_rewrite
    WHEN TAG IN ('ALTER TABLE')
    EXECUTE FUNCTION uid_guard_defaults();
