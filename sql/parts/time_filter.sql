-- ---------------------------------------------------------------------------
-- Planner support: time filters on IDs use the index
-- ---------------------------------------------------------------------------
-- While planning, uid turns "uid_time(id) >= t" into "id >= uid_first_at(t)"
-- (and likewise for >, <, <=, =, BETWEEN, (uid_decode(id)).ts and
-- uuid7_time(u)), so that such filters use the index on the ID, its
-- statistics and partition pruning (src/tables/time_filter.c).  The bounds it uses,
-- exact to the microsecond of t, NULL where no ID qualifies:

CREATE FUNCTION uid_first_at(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_first_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_first_at(timestamptz) IS
'The lowest ID whose time is at or after ts: uid_time(id) >= ts is id >= uid_first_at(ts). 0 before 2026, NULL after the layout.';

CREATE FUNCTION uid_first_after(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_first_after'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_first_after(timestamptz) IS
'The lowest ID whose time is after ts: uid_time(id) > ts is id >= uid_first_after(ts). 0 before 2026, NULL after the layout.';

CREATE FUNCTION uid_last_before(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_last_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_last_before(timestamptz) IS
'The highest ID whose time is before ts: uid_time(id) < ts is id <= uid_last_before(ts) for IDs >= 0. NULL before 2026, the highest bigint after the layout.';

CREATE FUNCTION uid_last_at(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_last_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_last_at(timestamptz) IS
'The highest ID whose time is at or before ts (the last of its millisecond): uid_time(id) <= ts is id <= uid_last_at(ts) for IDs >= 0. NULL before 2026, the highest bigint after the layout.';

CREATE FUNCTION uuid7_first_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_first_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_first_at(timestamptz) IS
'The lowest UUIDv7 whose time is at or after ts: for v7 UUIDs, uuid7_time(u) >= ts is u >= uuid7_first_at(ts). NULL after the 48-bit time field.';

CREATE FUNCTION uuid7_first_after(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_first_after'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_first_after(timestamptz) IS
'The lowest UUIDv7 whose time is after ts: for v7 UUIDs, uuid7_time(u) > ts is u >= uuid7_first_after(ts). NULL after the 48-bit time field.';

CREATE FUNCTION uuid7_last_before(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_last_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_last_before(timestamptz) IS
'The highest UUIDv7 whose time is before ts: for v7 UUIDs, uuid7_time(u) < ts is u <= uuid7_last_before(ts). NULL before 1970.';

CREATE FUNCTION uuid7_last_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_last_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_last_at(timestamptz) IS
'The highest UUIDv7 whose time is at or before ts (the last of its millisecond): for v7 UUIDs, uuid7_time(u) <= ts is u <= uuid7_last_at(ts). NULL before 1970.';

-- A support function that answers no request: the planner calls it while it
-- simplifies a query naming one of the time functions that carry it
-- (sql/parts/layout.sql, uuid7.sql), which loads uid
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
