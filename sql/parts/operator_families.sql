-- uid_restore_operator_families(), which the install script calls
-- (sql/parts/id_type.sql says what it adds and why).  Also run by the
-- upgrade from 1.3, which replaced its body.

CREATE OR REPLACE FUNCTION uid_restore_operator_families()
RETURNS text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    added text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid = a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid = f.opfmethod
                   WHERE f.opfname = 'integer_ops' AND m.amname = 'btree'
                   AND f.opfnamespace = 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype = '@extschema@.uid'::pg_catalog.regtype) THEN
        ALTER OPERATOR FAMILY pg_catalog.integer_ops USING btree ADD
        OPERATOR 1 pg_catalog.< (@extschema@.uid, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, @extschema@.uid),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, bigint),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, bigint),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, bigint),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, bigint),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, bigint),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, integer),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, integer),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, integer),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, integer),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, integer),
        OPERATOR 1 pg_catalog.< (integer, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (integer, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (integer, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (integer, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (integer, @extschema@.uid),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, smallint),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, smallint),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, smallint),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, smallint),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, smallint),
        OPERATOR 1 pg_catalog.< (smallint, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (smallint, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (smallint, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (smallint, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (smallint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, @extschema@.uid) @extschema@.uid_cmp(@extschema@.uid, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, bigint) @extschema@.uid_cmp(@extschema@.uid, bigint),
        FUNCTION 1 (bigint, @extschema@.uid) @extschema@.uid_cmp(bigint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, integer) @extschema@.uid_cmp(@extschema@.uid, integer),
        FUNCTION 1 (integer, @extschema@.uid) @extschema@.uid_cmp(integer, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, smallint) @extschema@.uid_cmp(@extschema@.uid, smallint),
        FUNCTION 1 (smallint, @extschema@.uid) @extschema@.uid_cmp(smallint, @extschema@.uid),
        FUNCTION 2 (@extschema@.uid, @extschema@.uid) @extschema@.uid_sortsupport(internal);
        added := 'btree';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid = a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid = f.opfmethod
                   WHERE f.opfname = 'integer_ops' AND m.amname = 'hash'
                   AND f.opfnamespace = 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype = '@extschema@.uid'::pg_catalog.regtype) THEN
        ALTER OPERATOR FAMILY pg_catalog.integer_ops USING hash ADD
        OPERATOR 1 pg_catalog.= (@extschema@.uid, @extschema@.uid),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, bigint),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, integer),
        OPERATOR 1 pg_catalog.= (integer, @extschema@.uid),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, smallint),
        OPERATOR 1 pg_catalog.= (smallint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid) @extschema@.uid_hash(@extschema@.uid),
        FUNCTION 2 (@extschema@.uid) @extschema@.uid_hash_extended(@extschema@.uid, bigint);
        added := pg_catalog.concat_ws(' ', added, 'hash');
    END IF;
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_restore_operator_families() IS
'Adds the uid type''s operators and support functions to the btree and hash families integer_ops where they are missing (after pg_upgrade, which does not carry them); returns the families it completed, NULL if none. Superuser.';

REVOKE ALL ON FUNCTION uid_restore_operator_families() FROM PUBLIC;
