-- ---------------------------------------------------------------------------
-- Snowflake-style bigint IDs: reading them back (src/forms/layout.c)
-- ---------------------------------------------------------------------------

-- A support function that answers no request: the planner calls it while it
-- simplifies a query naming one of the time functions below, which loads uid
-- (and so the rewrite of time filters into ranges of IDs, src/tables/time_filter.c)
-- before the tables of that query are planned, also when uid is not in
-- shared_preload_libraries.  Not callable from SQL (internal).
CREATE FUNCTION uid_time_filter_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uid_time_filter_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_time_filter_support(internal) IS
'Planner support of uid_time, uuid7_time, uid_decode and uid''s uuid_extract_timestamp: loads uid so that their comparisons with a timestamp become ranges on the ID.';

REVOKE ALL ON FUNCTION uid_time_filter_support(internal) FROM PUBLIC;

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

