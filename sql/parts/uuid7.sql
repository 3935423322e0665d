-- ---------------------------------------------------------------------------
-- UUIDv7 (src/core/uuid7.c, src/core/random.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION uuid7()
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uuid7() IS
'A new UUIDv7 (RFC 9562): 48-bit Unix ms, 12-bit sub-ms fraction, 4-bit counter, 58 random bits; strictly increasing across the server when uid is preloaded, per backend otherwise.';

CREATE FUNCTION uuid7(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7(timestamptz) IS
'A UUIDv7 of the millisecond of ts with 74 random bits, for backfills and tests; not ordered with uuid7().';

CREATE FUNCTION uuid7_time(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uuid7_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uuid7_time(uuid) IS
'The millisecond of a version 7 UUID; NULL for any other version or variant.';

CREATE FUNCTION uuid7_from_time(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_from_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_from_time(timestamptz) IS
'The lowest UUIDv7 of the millisecond of ts (all bits but time, version and variant 0): a bound for range scans and partitions.';

CREATE FUNCTION uuid7_advance_past(id uuid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uuid7_advance_past'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uuid7_advance_past(uuid) IS
'Makes every later uuid7() of this server (of this backend without preloading) greater than the given v7 UUID; true if the generator moved. Superuser only unless granted.';

REVOKE ALL ON FUNCTION uuid7_advance_past(uuid) FROM PUBLIC;

-- uid_decode() of a UUID (its C function is this file's); of a bigint and of
-- a uid: sql/parts/layout.sql; of any text form: decode_text.sql.
CREATE FUNCTION uid_decode(id uuid,
    OUT ts timestamptz, OUT version integer, OUT variant integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_decode_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uid_decode(uuid) IS
'Time (versions 1, 6, 7), version (RFC 9562 variant only) and variant field (0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved) of any UUID, as one row.';

-- PostgreSQL 18 names, so that SQL written for 18 runs on older servers.
-- pg_catalog has uuid_extract_timestamp and uuid_extract_version from 17 on
-- (17's uuid_extract_timestamp decodes version 1 only: NULL for v7) and all
-- five from 18 on.  Creating our own there would fail to win (pg_catalog
-- comes first in every search path) and could only confuse, so each one is
-- created only when pg_catalog lacks that exact signature.
DO $uid$
BEGIN
    IF pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NULL THEN
        EXECUTE $f$
            CREATE FUNCTION uuidv7() RETURNS uuid
            AS 'MODULE_PATHNAME', 'uuid7'
            LANGUAGE C VOLATILE PARALLEL SAFE $f$;
        EXECUTE $f$
            COMMENT ON FUNCTION uuidv7() IS
            'PostgreSQL 18 name of uuid7(), installed by uid on servers before 18' $f$;
    END IF;

    IF pg_catalog.to_regprocedure('pg_catalog.uuidv7(interval)') IS NULL THEN
        EXECUTE $f$
            CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
            AS 'MODULE_PATHNAME', 'uid_compat_uuidv7_interval'
            LANGUAGE C VOLATILE STRICT PARALLEL SAFE $f$;
        EXECUTE $f$
            COMMENT ON FUNCTION uuidv7(interval) IS
            'A UUIDv7 whose time is now + shift (PostgreSQL 18 function, installed by uid on servers before 18)' $f$;
    END IF;

    IF pg_catalog.to_regprocedure('pg_catalog.uuidv4()') IS NULL THEN
        EXECUTE $f$
            CREATE FUNCTION uuidv4() RETURNS uuid
            AS 'MODULE_PATHNAME', 'uid_compat_uuidv4'
            LANGUAGE C VOLATILE PARALLEL SAFE $f$;
        EXECUTE $f$
            COMMENT ON FUNCTION uuidv4() IS
            'A random (version 4) UUID (PostgreSQL 18 function, installed by uid on servers before 18)' $f$;
    END IF;

    IF pg_catalog.to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)') IS NULL THEN
        EXECUTE $f$
            CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
            AS 'MODULE_PATHNAME', 'uid_compat_uuid_extract_timestamp'
            LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
            SUPPORT @extschema@.uid_time_filter_support $f$;
        EXECUTE $f$
            COMMENT ON FUNCTION uuid_extract_timestamp(uuid) IS
            'Time of a version 1 or 7 UUID, else NULL (PostgreSQL 18 function, installed by uid on servers before 18)' $f$;
    END IF;

    IF pg_catalog.to_regprocedure('pg_catalog.uuid_extract_version(uuid)') IS NULL THEN
        EXECUTE $f$
            CREATE FUNCTION uuid_extract_version(uuid) RETURNS smallint
            AS 'MODULE_PATHNAME', 'uid_compat_uuid_extract_version'
            LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE $f$;
        EXECUTE $f$
            COMMENT ON FUNCTION uuid_extract_version(uuid) IS
            'Version of a UUID of the RFC 9562 variant, else NULL (PostgreSQL 18 function, installed by uid on servers before 18)' $f$;
    END IF;
END
$uid$;

