-- uid 1.1 -> 1.2: security hardening, planner support for time filters,
-- text forms and keyed masking.
-- Each section below belongs to one concern; keep them apart.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.2'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Privileges: counters, stats, leases
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- Leases
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- Planner support: time filters on IDs use the index
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- IDs that leave the database: text forms and keyed masking
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- PostgreSQL 18 names
-- ---------------------------------------------------------------------------

-- After pg_upgrade to a release that has some of these names built in (17:
-- uuid_extract_timestamp and uuid_extract_version; 18: also uuidv4 and
-- uuidv7), uid's own functions of those names come along as members of the
-- extension, although unqualified calls now reach pg_catalog's.  Drop each
-- such stand-in that no other object uses; keep one that a column default,
-- view or function still uses, and warn (docs/versions.md: how to move
-- those objects and retire it by hand).  On a fresh install there is
-- nothing to drop: the stand-ins exist only where pg_catalog lacks the name.
DO $uid$
DECLARE
    f record;
BEGIN
    FOR f IN
        SELECT pg_catalog.format('%I.%I(%s)', n.nspname, p.proname,
                                 pg_catalog.pg_get_function_identity_arguments(p.oid)) AS sig
        FROM pg_catalog.pg_depend d
        JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
        JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
        WHERE e.extname OPERATOR(pg_catalog.=) 'uid'
          AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
          AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.deptype OPERATOR(pg_catalog.=) 'e'
          AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'
          AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['uuidv7', 'uuidv4', 'uuid_extract_timestamp',
                                                         'uuid_extract_version']::pg_catalog.name[])
          AND EXISTS (SELECT FROM pg_catalog.pg_proc b
                      WHERE b.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
                        AND b.proname OPERATOR(pg_catalog.=) p.proname
                        AND b.proargtypes OPERATOR(pg_catalog.=) p.proargtypes)
        ORDER BY 1
    LOOP
        BEGIN
            EXECUTE pg_catalog.format('DROP FUNCTION %s', f.sig);
        EXCEPTION WHEN dependent_objects_still_exist THEN
            RAISE WARNING 'uid keeps its function %, which other objects use', f.sig
                USING DETAIL = 'PostgreSQL now has a built-in function of that name; unqualified calls reach the built-in.',
                      HINT = pg_catalog.format('Point those objects at uid''s or the built-in function, then run: ALTER EXTENSION uid DROP FUNCTION %s; DROP FUNCTION %s;', f.sig, f.sig);
        END;
    END LOOP;
END
$uid$;
