-- ---------------------------------------------------------------------------
-- Snowflake-style bigint IDs: reading them back (src/forms/layout.c)
-- ---------------------------------------------------------------------------

-- uid_decode() of a bigint, and below of a uid (one C function); of a UUID:
-- sql/parts/uuid7.sql; of any text form: decode_text.sql.
CREATE FUNCTION uid_decode(id bigint,
    OUT ts timestamptz, OUT worker_id integer, OUT sequence integer,
    OUT ms_since_epoch bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uid_decode(bigint) IS
'The time (ms precision), worker id and sequence of a uid_next() ID, as one row.';

CREATE FUNCTION uid_time(id bigint)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uid_time(bigint) IS
'The millisecond a uid_next() ID was issued in.';

CREATE FUNCTION uid_from_time(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_from_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_from_time(timestamptz) IS
'The lowest ID of the millisecond of ts on any worker: a bound for range scans and partitions.';

-- The uid form (docs/security.md; sql/parts/advance_past_uid.sql says why
-- uid's functions of an id have one, in pg_catalog): the same C function.
CREATE FUNCTION pg_catalog.uid_decode(id @extschema@.uid,
    OUT ts timestamptz, OUT worker_id integer, OUT sequence integer,
    OUT ms_since_epoch bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

CREATE FUNCTION pg_catalog.uid_time(id @extschema@.uid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;
