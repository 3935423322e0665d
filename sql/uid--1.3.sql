-- uid 1.3: time-sortable unique IDs.  The install script of the current
-- version, complete on its own: CREATE EXTENSION uid runs this file alone.
-- The scripts of earlier versions stay as they shipped, for the upgrade
-- path (uid--1.0.sql, then uid--1.0--1.1.sql, uid--1.1--1.2.sql and
-- uid--1.2--1.3.sql);
-- sql/upgrade.sql checks that both paths make the same objects.
-- Every operator and call is qualified: this script runs with the
-- extension's schema on the search path, where other roles may create
-- objects.

\echo Use "CREATE EXTENSION uid" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Snowflake-style bigint IDs: generation (src/core/generator.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION uid_next()
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_next'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_next() IS
'A new 64-bit ID: 41 bits of ms since 2026-01-01, 10 bits of worker id, 12 bits of sequence; strictly increasing across the server. Needs shared_preload_libraries = ''uid''.';

CREATE FUNCTION uid_next_batch(count integer)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'uid_next_batch'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE
ROWS 100;

COMMENT ON FUNCTION uid_next_batch(integer) IS
'count new IDs (at most uid.max_batch), strictly increasing, all later than any ID returned before the call.';

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

-- ---------------------------------------------------------------------------
-- The uid type: a 64-bit id that JSON carries as a string (docs/exposing-ids.md)
-- ---------------------------------------------------------------------------

-- bigint's own representation, I/O and operators.  PostgreSQL's JSON
-- functions print their own numeric types as JSON numbers and every other
-- type through its output function, as a JSON string: that is the whole
-- difference from bigint.  The I/O functions hand their calls to bigint's
-- (src/forms/id_type.c says why they are entry points of the library and not
-- LANGUAGE internal), except that input refuses negative values.  The
-- comparison operators are the type's own (id_type_ops.sql), so that no
-- operator another role plants is a better match; arithmetic, aggregates
-- and every other function of bigint are reached through the cast below.
-- PREFERRED: where a function has a bigint and a uid form (uid_to_text),
-- an integer or an unquoted literal argument picks the uid one, instead of
-- finding the two equally good.

CREATE TYPE uid;

CREATE FUNCTION uid_in(cstring)
RETURNS uid
AS 'MODULE_PATHNAME', 'uid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION uid_out(uid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'uid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION uid_recv(internal)
RETURNS uid
AS 'MODULE_PATHNAME', 'uid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION uid_send(uid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'uid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE uid (
    INPUT = uid_in,
    OUTPUT = uid_out,
    RECEIVE = uid_recv,
    SEND = uid_send,
    LIKE = pg_catalog.int8,
    CATEGORY = 'N',
    PREFERRED = true
);

COMMENT ON TYPE uid IS
'A non-negative 64-bit id stored, indexed and compared exactly like bigint (its comparison operators are its own, in pg_catalog; its operator classes are bigint''s), which the JSON functions emit as a string of its digits.';

-- The casts.  To bigint: implicit and free, so every bigint operator,
-- operator class and function applies to the type (an index on a uid
-- column is a bigint index: int8_ops, the default through this cast).
-- From bigint: on assignment and free (DEFAULT uid_next(), an int8
-- parameter); an expression that computes on ids stays bigint until it is
-- stored.  From integer and smallint: implicit, as to bigint, so that
-- literals and COALESCE(id, 0) keep the type.  No cast from numeric: it
-- would round 1.5 to an id.

CREATE CAST (uid AS bigint) WITHOUT FUNCTION AS IMPLICIT;
CREATE CAST (bigint AS uid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION uid(integer)
RETURNS uid
AS 'int48'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (integer AS uid) WITH FUNCTION uid(integer) AS IMPLICIT;

CREATE FUNCTION uid(smallint)
RETURNS uid
AS 'int28'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (smallint AS uid) WITH FUNCTION uid(smallint) AS IMPLICIT;

CREATE FUNCTION "numeric"(uid)
RETURNS numeric
AS 'int8_numeric'
LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (uid AS numeric) WITH FUNCTION "numeric"(uid) AS ASSIGNMENT;
-- ---------------------------------------------------------------------------
-- The uid type's own comparison operators (src/id_type.c)
-- ---------------------------------------------------------------------------

-- Why: a comparison that reaches bigint's operator through the cast
-- uid -> bigint loses to any operator whose argument types match exactly,
-- wherever on the search path it sits: the owner of a database (who owns
-- public, and may create a schema named after a superuser, "$user") could
-- plant public.=(uid, uid) and have a superuser's WHERE id = '1' run it.
-- uid's operators are those exact matches, for uid against uid, bigint,
-- integer, smallint (without these two, WHERE id = 5 would find three
-- equally good operators) and numeric, and they live in pg_catalog, which
-- is searched before every schema of the search path unless a path names
-- it later (docs/security.md).  Their functions are entry points of uid's
-- library (src/id_type.c says why not LANGUAGE internal) in the extension's
-- schema: an operator calls its function by OID, so its schema does not
-- matter.  Each function's planner support turns the comparison back into
-- bigint's while planning, so plans are bigint's.

CREATE FUNCTION uid_comparison_support(internal) RETURNS internal
AS 'MODULE_PATHNAME', 'uid_comparison_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_comparison_support(internal) IS
'Planner support of the uid type''s comparison functions: turns them into bigint''s operators while planning.';

REVOKE ALL ON FUNCTION uid_comparison_support(internal) FROM PUBLIC;

-- uid with uid
CREATE FUNCTION uid_eq(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(uid, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = uid, RIGHTARG = uid, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- uid with bigint
CREATE FUNCTION uid_eq(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(uid, bigint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = uid, RIGHTARG = bigint, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- bigint with uid
CREATE FUNCTION uid_eq(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(bigint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = bigint, RIGHTARG = uid, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- uid with integer
CREATE FUNCTION uid_eq(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(uid, integer) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = uid, RIGHTARG = integer, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- integer with uid
CREATE FUNCTION uid_eq(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(integer, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = integer, RIGHTARG = uid, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- uid with smallint
CREATE FUNCTION uid_eq(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(uid, smallint) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = uid, RIGHTARG = smallint, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- smallint with uid
CREATE FUNCTION uid_eq(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(smallint, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
    MERGES,
    HASHES
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = smallint, RIGHTARG = uid, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- uid with numeric
CREATE FUNCTION uid_eq(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(uid, numeric) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = uid, RIGHTARG = numeric, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- numeric with uid
CREATE FUNCTION uid_eq(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_eq_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ne(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ne_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_lt(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lt_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_le(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_le_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_gt(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_gt_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;
CREATE FUNCTION uid_ge(numeric, uid) RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_ge_numeric_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
SUPPORT @extschema@.uid_comparison_support;

CREATE OPERATOR pg_catalog.= (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_eq,
    COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
    RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
CREATE OPERATOR pg_catalog.<> (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_ne,
    COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
    RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_lt,
    COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
    RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_le,
    COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
    RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_gt,
    COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
    RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
    LEFTARG = numeric, RIGHTARG = uid, FUNCTION = @extschema@.uid_ge,
    COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
    RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

-- The btree and hash families.  The planner support above gives the
-- planner bigint's operators for every plain comparison (index scans, merge
-- and hash joins are bigint's).  IN lists, = ANY
-- and row comparisons are not simplified and keep uid's operators: for
-- those to use an index on a uid column (whose operator class is bigint's
-- int8_ops, chosen through the cast; uid has no operator class of its own,
-- so ALTER COLUMN TYPE from bigint keeps every index), uid's operators and
-- their support functions join bigint's btree and hash families,
-- integer_ops.  pg_dump writes a family's members only with the family, and
-- integer_ops is built in: pg_upgrade does not carry these entries.
-- Not in them: the operators of (bigint, uid).  A foreign key whose
-- referencing column is uid and whose key is bigint's (int8_ops) compares
-- with the family's operator of (bigint, uid), bigint = bigint where there is
-- none; were it uid's, ALTER COLUMN TYPE bigint -> uid of the referencing
-- column would find the key's operator changed and check every row again
-- (a scan under its ACCESS EXCLUSIVE lock).  The support function of
-- (bigint, uid) is there: btree finds it for an index scan of an IN list.
-- uid_restore_operator_families() adds whichever of the two families lacks
-- them (the install script calls it; a superuser calls it again after
-- pg_upgrade), and uid_comparison_support warns once per session where they
-- are missing.

CREATE FUNCTION uid_cmp(uid, uid) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(uid, bigint) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(bigint, uid) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(uid, integer) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(integer, uid) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp_int4_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(uid, smallint) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp_int2'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_cmp(smallint, uid) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_cmp_int2_uid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME', 'uid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION uid_hash(uid) RETURNS integer
AS 'MODULE_PATHNAME', 'uid_hash'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_hash_extended(uid, bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_hash_extended'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION uid_restore_operator_families()
RETURNS text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    added text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid OPERATOR(pg_catalog.=) a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid OPERATOR(pg_catalog.=) f.opfmethod
                   WHERE f.opfname OPERATOR(pg_catalog.=) 'integer_ops' AND m.amname OPERATOR(pg_catalog.=) 'btree'
                   AND f.opfnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype OPERATOR(pg_catalog.=) '@extschema@.uid'::pg_catalog.regtype) THEN
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
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid OPERATOR(pg_catalog.=) a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid OPERATOR(pg_catalog.=) f.opfmethod
                   WHERE f.opfname OPERATOR(pg_catalog.=) 'integer_ops' AND m.amname OPERATOR(pg_catalog.=) 'hash'
                   AND f.opfnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype OPERATOR(pg_catalog.=) '@extschema@.uid'::pg_catalog.regtype) THEN
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

SELECT uid_restore_operator_families();

-- A btree family of uid's own, uid_ops, with the same operators: a member
-- of the extension, in its schema, so pg_dump and pg_upgrade carry it.  A
-- row comparison, (created_at, id) > ($1, $2), needs its operators in some
-- btree family when it is parsed, and takes the first: integer_ops (the
-- lower OID) where uid's entries are there, so that it uses the index;
-- uid_ops, without the index, where they are missing after pg_upgrade, so
-- that it still works, and so that a view or constraint that holds one is
-- restored by pg_upgrade.  No operator class: an index on a uid column stays
-- a bigint index.

CREATE OPERATOR FAMILY uid_ops USING btree;

ALTER OPERATOR FAMILY uid_ops USING btree ADD
    OPERATOR 1 pg_catalog.< (uid, uid),
    OPERATOR 2 pg_catalog.<= (uid, uid),
    OPERATOR 3 pg_catalog.= (uid, uid),
    OPERATOR 4 pg_catalog.>= (uid, uid),
    OPERATOR 5 pg_catalog.> (uid, uid),
    OPERATOR 1 pg_catalog.< (uid, bigint),
    OPERATOR 2 pg_catalog.<= (uid, bigint),
    OPERATOR 3 pg_catalog.= (uid, bigint),
    OPERATOR 4 pg_catalog.>= (uid, bigint),
    OPERATOR 5 pg_catalog.> (uid, bigint),
    OPERATOR 1 pg_catalog.< (bigint, uid),
    OPERATOR 2 pg_catalog.<= (bigint, uid),
    OPERATOR 3 pg_catalog.= (bigint, uid),
    OPERATOR 4 pg_catalog.>= (bigint, uid),
    OPERATOR 5 pg_catalog.> (bigint, uid),
    OPERATOR 1 pg_catalog.< (uid, integer),
    OPERATOR 2 pg_catalog.<= (uid, integer),
    OPERATOR 3 pg_catalog.= (uid, integer),
    OPERATOR 4 pg_catalog.>= (uid, integer),
    OPERATOR 5 pg_catalog.> (uid, integer),
    OPERATOR 1 pg_catalog.< (integer, uid),
    OPERATOR 2 pg_catalog.<= (integer, uid),
    OPERATOR 3 pg_catalog.= (integer, uid),
    OPERATOR 4 pg_catalog.>= (integer, uid),
    OPERATOR 5 pg_catalog.> (integer, uid),
    OPERATOR 1 pg_catalog.< (uid, smallint),
    OPERATOR 2 pg_catalog.<= (uid, smallint),
    OPERATOR 3 pg_catalog.= (uid, smallint),
    OPERATOR 4 pg_catalog.>= (uid, smallint),
    OPERATOR 5 pg_catalog.> (uid, smallint),
    OPERATOR 1 pg_catalog.< (smallint, uid),
    OPERATOR 2 pg_catalog.<= (smallint, uid),
    OPERATOR 3 pg_catalog.= (smallint, uid),
    OPERATOR 4 pg_catalog.>= (smallint, uid),
    OPERATOR 5 pg_catalog.> (smallint, uid),
    FUNCTION 1 (uid, uid) uid_cmp(uid, uid),
    FUNCTION 1 (uid, bigint) uid_cmp(uid, bigint),
    FUNCTION 1 (bigint, uid) uid_cmp(bigint, uid),
    FUNCTION 1 (uid, integer) uid_cmp(uid, integer),
    FUNCTION 1 (integer, uid) uid_cmp(integer, uid),
    FUNCTION 1 (uid, smallint) uid_cmp(uid, smallint),
    FUNCTION 1 (smallint, uid) uid_cmp(smallint, uid),
    FUNCTION 2 (uid, uid) uid_sortsupport(internal);
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

-- ---------------------------------------------------------------------------
-- Worker ids from a lease table (src/lease/lease.c; the table and its statements:
-- src/lease/lease_store.c, run by the lease worker, src/lease/lease_worker.c)
-- ---------------------------------------------------------------------------
-- The lease table itself lives in the lease store (uid.lease_database of this
-- server, or the coordination database of uid.lease_conninfo) and is created
-- there by the lease worker, so the store needs no CREATE EXTENSION.

CREATE FUNCTION uid_lease_status(
    OUT mode text,
    OUT state text,
    OUT worker_id integer,
    OUT token bigint,
    OUT store text,
    OUT acquired_at timestamptz,
    OUT renewed_at timestamptz,
    OUT expires_at timestamptz,
    OUT generate_until timestamptz,
    OUT renewals bigint,
    OUT renewal_failures bigint,
    OUT consecutive_failures integer,
    OUT losses bigint,
    OUT free_ids integer,
    OUT last_error text,
    OUT worker_pid integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_status'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_status() IS
'This server''s worker id lease: state, worker id, fencing token, expiry (store clock), issuing deadline (this server''s clock), renewals and failures, free ids in the pool.';

CREATE FUNCTION uid_lease_release()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_release'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_release() IS
'Gives this server''s worker id back to the lease store at once; uid_next() fails until uid_lease_acquire() or a restart. True when released within 10 s.';

CREATE FUNCTION uid_lease_acquire()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_acquire'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_acquire() IS
'Undoes uid_lease_release(): the lease worker takes a free worker id again. True when one is held within 10 s.';

REVOKE ALL ON FUNCTION uid_lease_release() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_lease_acquire() FROM PUBLIC;

-- The lease worker refuses a lease schema or table that neither its role in
-- the store nor a superuser owns.  uid_lease_table_sql() prints the statements
-- that create them, owned by a given role, for creating them beforehand in a
-- coordination database (the same text the lease worker runs).

CREATE FUNCTION uid_lease_table_sql(owner name, schema name DEFAULT 'uid_lease')
RETURNS text
AS 'MODULE_PATHNAME', 'uid_lease_table_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_table_sql(name, name) IS
'The statements that create the lease table and its schema, owned by owner: the definition the lease worker uses, for creating it beforehand in a lease store.';

-- ---------------------------------------------------------------------------
-- Ticket sequences: dense numbers from native sequences, for N servers that
-- hand out interleaved series (node, node + nodes, node + 2*nodes, ...).
--
-- Each ticket is a plain PostgreSQL sequence uid_ticket.<name> (WAL-logged,
-- crash-safe, replicated, listed in pg_sequences, dumped by pg_dump: it is
-- created after CREATE EXTENSION, so it is not an extension member).  Its
-- metadata lives in uid_ticket._tickets, which pg_dump keeps as extension
-- configuration.  Ticket names cannot start with "_", so no ticket can be
-- named like the metadata table.
--
-- Design: the sequence counts blocks.  It starts at node and increments by
-- nodes * block, so one nextval() atomically reserves the block
--   v, v + nodes, ..., v + (block - 1) * nodes
-- of this node's series.  Every value of node n is congruent to n modulo
-- nodes, so servers with different nodes never collide, and blocks of one
-- server never overlap.  uid_ticket_next() takes a whole block and returns
-- its first ticket: with block > 1 the rest of the block is a gap.  Keep
-- block = 1 for tickets that are drawn one at a time.
--
-- Replication: logical replication carries rows, not sequences.  A
-- publication of every table sends the other servers' rows of _tickets here
-- without their sequences, so _tickets is keyed by (name, node): each server
-- of a set adds its own row, and the row of this server is the one whose
-- node is its sequence's MINVALUE.  A row without a sequence here is the
-- metadata of another server's ticket: drawing from it says so, creating
-- the ticket with another node adds this server's series beside it, and
-- dropping the name removes such rows.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_ticket;

COMMENT ON SCHEMA uid_ticket IS
'Ticket sequences created by uid_ticket_create(), and their metadata (_tickets).';

GRANT USAGE ON SCHEMA uid_ticket TO PUBLIC;

CREATE TABLE uid_ticket._tickets (
    name        text NOT NULL
                CHECK (name OPERATOR(pg_catalog.~) '^[a-z][a-z0-9_]{0,47}$'),
    node        integer NOT NULL,
    nodes       integer NOT NULL CHECK (nodes OPERATOR(pg_catalog.>=) 1 AND nodes OPERATOR(pg_catalog.<=) 1024),
    block       integer NOT NULL CHECK (block OPERATOR(pg_catalog.>=) 1 AND block OPERATOR(pg_catalog.<=) 1000000),
    created_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (node OPERATOR(pg_catalog.>=) 1 AND node OPERATOR(pg_catalog.<=) nodes),
    PRIMARY KEY (name, node)
);

COMMENT ON TABLE uid_ticket._tickets IS
'One row per ticket sequence made by uid_ticket_create() on this server or, replicated, on another server of its set; kept by pg_dump.';

SELECT pg_catalog.pg_extension_config_dump('uid_ticket._tickets', '');

GRANT SELECT ON uid_ticket._tickets TO PUBLIC;

-- ---------------------------------------------------------------------------
-- Ticket sequences: the functions and the view (src/tables/tickets.c).  Every
-- statement can run again over an older version's objects: the upgrade
-- from 1.2 runs this file too.
-- ---------------------------------------------------------------------------

-- nextval() that flushes the WAL record covering the value (src/tables/tickets.c)
CREATE OR REPLACE FUNCTION uid_ticket._nextval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_ticket_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_ticket._nextval(regclass) IS
'nextval(seq), then flushes WAL up to the sequence page''s LSN, so that no value handed out is handed out again after a crash.';

-- The checks shared by the ticket functions.
CREATE OR REPLACE FUNCTION uid_ticket._check_name(name text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF name IS NULL THEN
        RAISE EXCEPTION 'ticket name must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF name OPERATOR(pg_catalog.!~) '^[a-z][a-z0-9_]{0,47}$' THEN
        RAISE EXCEPTION 'invalid ticket name: %', pg_catalog.quote_literal(name)
            USING ERRCODE = '22023',
                  HINT = 'A ticket name is 1 to 48 characters: a lower-case letter, then lower-case letters, digits or "_".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_ticket._check_name(text) IS
'Raises 22004 for NULL and 22023 for a name that is not a valid ticket name.';

-- The error of a ticket name that has no sequence on this server: another
-- server's ticket when _tickets has its metadata (replicated here), else
-- none at all.
CREATE OR REPLACE FUNCTION uid_ticket._absent(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    other record;
BEGIN
    SELECT pg_catalog.string_agg(t.node::text, ', ' ORDER BY t.node) AS nodes,
           pg_catalog.min(t.nodes) AS of_nodes
      INTO other
      FROM uid_ticket._tickets t
     WHERE t.name OPERATOR(pg_catalog.=) $1;
    IF other.nodes IS NOT NULL THEN
        RAISE EXCEPTION 'ticket "%" is ticket metadata from another node: it has no sequence on this server', $1
            USING ERRCODE = '55000',
                  DETAIL = pg_catalog.format('uid_ticket._tickets lists node %s of %s (replicated from the servers that created them); sequences are not replicated.',
                                             other.nodes, other.of_nodes),
                  HINT = 'Draw from the server that created it, or give this server its own series: uid_ticket_create(name, node, nodes) with a node no other server of the set uses.';
    END IF;
    RAISE EXCEPTION 'ticket "%" does not exist', $1
        USING ERRCODE = '42704',
              HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
END
$$;

COMMENT ON FUNCTION uid_ticket._absent(text) IS
'Raises the error of a ticket without a sequence here: 55000 when _tickets holds another server''s metadata of that name, else 42704.';

CREATE OR REPLACE FUNCTION uid_ticket_create(name text, node integer, nodes integer DEFAULT 2,
                                  block integer DEFAULT 1)
RETURNS regclass
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    t_name  ALIAS FOR $1;
    t_node  ALIAS FOR $2;
    t_nodes ALIAS FOR $3;
    t_block ALIAS FOR $4;
    maxv    bigint;
    seq     regclass;
    other   uid_ticket._tickets;
BEGIN
    PERFORM uid_ticket._check_name(t_name);
    IF t_nodes IS NULL OR t_nodes OPERATOR(pg_catalog.<) 1
       OR t_nodes OPERATOR(pg_catalog.>) 1024 THEN
        RAISE EXCEPTION 'invalid number of ticket nodes: %', coalesce(t_nodes::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'nodes is the number of servers sharing the series, 1 to 1024 (2 for an odd/even pair).';
    END IF;
    IF t_node IS NULL OR t_node OPERATOR(pg_catalog.<) 1
       OR t_node OPERATOR(pg_catalog.>) t_nodes THEN
        RAISE EXCEPTION 'invalid ticket node: % (nodes = %)', coalesce(t_node::text, 'NULL'), t_nodes
            USING ERRCODE = '22023',
                  HINT = 'node is this server''s place in the series, 1 to nodes; each server of the set needs a different one.';
    END IF;
    IF t_block IS NULL OR t_block OPERATOR(pg_catalog.<) 1
       OR t_block OPERATOR(pg_catalog.>) 1000000 THEN
        RAISE EXCEPTION 'invalid ticket block size: %', coalesce(t_block::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'block is the number of tickets one uid_ticket_next_block() call reserves, 1 to 1000000.';
    END IF;
    IF pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t_name)) IS NOT NULL THEN
        RAISE EXCEPTION 'ticket "%" already exists', t_name
            USING ERRCODE = '42710',
                  HINT = 'Drop it first with uid_ticket_drop(), or choose another name.';
    END IF;

    -- Rows without a sequence here: other servers' tickets of this name
    -- (replicated), or what a restore without the sequences left.  This
    -- server joins their set only with the same nodes and a node of its own.
    SELECT * INTO other FROM uid_ticket._tickets t
     WHERE t.name OPERATOR(pg_catalog.=) t_name
       AND (t.node OPERATOR(pg_catalog.=) t_node OR t.nodes OPERATOR(pg_catalog.<>) t_nodes)
     ORDER BY t.node OPERATOR(pg_catalog.=) t_node DESC, t.node
     LIMIT 1;
    IF FOUND AND other.node OPERATOR(pg_catalog.=) t_node THEN
        RAISE EXCEPTION 'ticket "%" node % already exists on another server', t_name, t_node
            USING ERRCODE = '42710',
                  DETAIL = 'uid_ticket._tickets has its metadata but this server has no sequence: another server of the set created it and its row was replicated here.',
                  HINT = 'Choose a node no other server of the set uses. To take over that node''s series from a server that no longer hands it out, drop the row with uid_ticket_drop(), create the ticket, and setval() it above that server''s last ticket.';
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION 'ticket "%" has nodes = % on another server, not %', t_name, other.nodes, t_nodes
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('uid_ticket._tickets has the metadata of node %s of %s, replicated from the server that created it.', other.node, other.nodes),
                  HINT = 'Every server of a set needs the same nodes: pass nodes => the set''s number of servers.';
    END IF;

    -- the last block must fit in bigint: its first ticket is the sequence's
    -- maximum value
    -- (OPERATOR() syntax has no precedence: parenthesise)
    maxv := 9223372036854775807 OPERATOR(pg_catalog.-)
            ((t_block::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t_nodes);

    EXECUTE pg_catalog.format(
        'CREATE SEQUENCE uid_ticket.%I AS bigint INCREMENT BY %s MINVALUE %s MAXVALUE %s START WITH %s CACHE 1 NO CYCLE',
        t_name, t_nodes::bigint OPERATOR(pg_catalog.*) t_block, t_node, maxv, t_node);
    EXECUTE pg_catalog.format(
        'COMMENT ON SEQUENCE uid_ticket.%I IS %L', t_name,
        pg_catalog.format('uid ticket: node %s of %s, blocks of %s; use uid_ticket_next(%L)',
                          t_node, t_nodes, t_block, t_name));
    INSERT INTO uid_ticket._tickets (name, node, nodes, block)
    VALUES (t_name, t_node, t_nodes, t_block);

    seq := pg_catalog.format('uid_ticket.%I', t_name)::regclass;
    RETURN seq;
END
$$;

COMMENT ON FUNCTION uid_ticket_create(text, integer, integer, integer) IS
'Creates the ticket sequence uid_ticket.<name> handing out node, node + nodes, node + 2*nodes, ... in blocks of block tickets; returns the sequence.';

CREATE OR REPLACE FUNCTION uid_ticket_next(name text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    seq regclass;
BEGIN
    -- the hot path: the name check inline (PERFORM would cost a query)
    IF $1 IS NULL OR $1 OPERATOR(pg_catalog.!~) '^[a-z][a-z0-9_]{0,47}$' THEN
        PERFORM uid_ticket._check_name($1);
    END IF;
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', $1));
    IF seq IS NULL THEN
        PERFORM uid_ticket._absent($1);
    END IF;
    RETURN uid_ticket._nextval(seq);
END
$$;

COMMENT ON FUNCTION uid_ticket_next(text) IS
'The next ticket of this server''s series; with block > 1 it takes a whole block and returns its first ticket (the rest is a gap).';

CREATE OR REPLACE FUNCTION uid_ticket_next_block(name text, size integer DEFAULT NULL,
    OUT first bigint, OUT last bigint, OUT step integer, OUT count integer)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    t_name  ALIAS FOR $1;
    want    integer := $2;
    seq     regclass;
    t       uid_ticket._tickets;
BEGIN
    PERFORM uid_ticket._check_name(t_name);
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t_name));
    IF seq IS NULL THEN
        PERFORM uid_ticket._absent(t_name);
    END IF;
    -- this server's row: the node its sequence starts at
    SELECT x.* INTO t
      FROM uid_ticket._tickets x
      JOIN pg_catalog.pg_sequence s
        ON s.seqrelid OPERATOR(pg_catalog.=) seq::pg_catalog.oid
       AND s.seqmin OPERATOR(pg_catalog.=) x.node
     WHERE x.name OPERATOR(pg_catalog.=) t_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ticket "%" does not exist', t_name
            USING ERRCODE = '42704',
                  DETAIL = 'Its sequence exists, but uid_ticket._tickets has no row of its node.',
                  HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
    END IF;
    want := coalesce(want, t.block);
    IF want OPERATOR(pg_catalog.<) 1 OR want OPERATOR(pg_catalog.>) t.block THEN
        RAISE EXCEPTION 'invalid ticket block size request: % (ticket "%" has blocks of %)', want, t_name, t.block
            USING ERRCODE = '22023',
                  HINT = 'Ask for a size of 1 to block tickets, or create the ticket with a larger block.';
    END IF;
    first := uid_ticket._nextval(seq);
    step := t.nodes;
    count := want;
    last := first OPERATOR(pg_catalog.+)
            ((want::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes);
    RETURN;
END
$$;

COMMENT ON FUNCTION uid_ticket_next_block(text, integer) IS
'Reserves size (default: the ticket''s block) tickets of this server''s series in one nextval(): first, first + step, ..., last.';

CREATE OR REPLACE FUNCTION uid_ticket_drop(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    seq regclass;
BEGIN
    PERFORM uid_ticket._check_name($1);
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', $1));
    IF seq IS NULL THEN
        -- only other servers' metadata of this name: remove it
        DELETE FROM uid_ticket._tickets t WHERE t.name OPERATOR(pg_catalog.=) $1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'ticket "%" does not exist', $1
                USING ERRCODE = '42704',
                      HINT = 'The view uid_tickets lists the tickets.';
        END IF;
        RETURN;
    END IF;
    -- this server's ticket: its sequence and its own row; the rows of the
    -- other servers of its set stay theirs
    DELETE FROM uid_ticket._tickets t
     USING pg_catalog.pg_sequence s
     WHERE t.name OPERATOR(pg_catalog.=) $1
       AND s.seqrelid OPERATOR(pg_catalog.=) seq::pg_catalog.oid
       AND s.seqmin OPERATOR(pg_catalog.=) t.node;
    EXECUTE pg_catalog.format('DROP SEQUENCE uid_ticket.%I', $1);
END
$$;

COMMENT ON FUNCTION uid_ticket_drop(text) IS
'Drops this server''s ticket sequence and its metadata; where the server has no sequence of that name, removes the metadata of other servers'' tickets of that name.';

CREATE OR REPLACE VIEW uid_tickets AS
SELECT t.name,
       t.node,
       t.nodes,
       t.block,
       CASE WHEN s.sequencename IS NOT NULL
            THEN pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t.name)) END AS sequence,
       s.last_value OPERATOR(pg_catalog.+)
           ((t.block::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes)
           AS last_issued,
       t.created_at
FROM uid_ticket._tickets t
LEFT JOIN pg_catalog.pg_sequences s
       ON s.schemaname OPERATOR(pg_catalog.=) 'uid_ticket'
      AND s.sequencename OPERATOR(pg_catalog.=) t.name
      AND s.min_value OPERATOR(pg_catalog.=) t.node;

COMMENT ON VIEW uid_tickets IS
'One row per ticket: its place in the series (node of nodes), block size, sequence, and the last ticket handed out (NULL before the first); sequence NULL for another server''s ticket whose metadata was replicated here.';

GRANT SELECT ON uid_tickets TO PUBLIC;

-- Creating and dropping a ticket is the administrator's (the
-- functions run as the caller, who also needs CREATE on schema uid_ticket and
-- write access to uid_ticket._tickets); drawing stays PUBLIC and is decided
-- by USAGE on each ticket's sequence.
REVOKE ALL ON FUNCTION uid_ticket_create(text, integer, integer, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_ticket_drop(text) FROM PUBLIC;

-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: gap-free numbers per (tenant, prefix), printed as
-- PREFIX-000123.
--
-- uid_counter.counters holds one row per (prefix, tenant) with the last
-- number issued; uid_counter_next() advances it with one INSERT ... ON
-- CONFLICT DO UPDATE ... RETURNING, so callers of one key queue on that row
-- (and a rolled-back call gives its number back), while callers of other
-- keys never wait.  Settings (start, width) are read on every call, tenant
-- row first, then the prefix's global row (tenant ''), then the defaults
-- (start 1, width 3), field by field, so a change applies to the next call.
--
-- Ranges: a tenant may own a range [lo, hi] of a prefix.  While a prefix has
-- any range, only tenants with a range may draw from it, every number lies in
-- its tenant's range, and no range may overlap another tenant's range or the
-- numbers another tenant already issued: so no two tenants ever print the
-- same ID of that prefix.  The database enforces "no overlap" without
-- btree_gist: each range is stored as a numrange in one shared number line,
--   code(prefix) * 2^63 + [lo, hi]
-- where code() is an exact (collision-free) base-38 encoding of the prefix,
-- under an EXCLUDE USING gist (span WITH &&) constraint.
--
-- Locking: uid_counter_next() takes ROW SHARE on uid_counter.ranges before it
-- reads the ranges; changing ranges takes EXCLUSIVE on it, so a range change
-- waits for counter calls in flight and the calls after it see the change.
-- Under REPEATABLE READ or SERIALIZABLE a counter call whose snapshot is
-- older than a range change fails with 40001 (it locks the row
-- uid_counter.range_epoch, which every range change updates) rather than
-- use stale ranges.
--
-- Replication: a counter is a row that each draw updates, so two servers
-- drawing from one counter while replicating it to each other hand out
-- numbers twice.  uid_counter_next() therefore refuses (UID06) on a server
-- whose uid_counter.counters receives another writer's changes (a
-- subscription lists it in pg_subscription_rel; uid_counter._replicated()),
-- unless the tenant's range belongs to this server: its node is this
-- server's uid.counter_node.  A range that belongs to another server is
-- refused everywhere else.  CREATE EXTENSION writes no row, so a
-- publication of every table copies these tables into a server that has
-- the extension too.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_counter;

COMMENT ON SCHEMA uid_counter IS
'State of the tenant-scoped counters (uid_counter_next and friends).';

-- The exact code of a prefix: its characters as base-38 digits 1..37, padded
-- with 0 to 16 digits.  Distinct valid prefixes have distinct codes.
CREATE FUNCTION uid_counter._prefix_code(prefix text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    code numeric := 0;
    d    integer;
BEGIN
    FOR i IN 1..16 LOOP
        d := 0;
        IF i OPERATOR(pg_catalog.<=) pg_catalog.length($1) THEN
            d := pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
                                   pg_catalog.substr($1, i, 1));
            IF d OPERATOR(pg_catalog.=) 0 THEN
                RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
                    USING ERRCODE = '22023';
            END IF;
        END IF;
        code := code OPERATOR(pg_catalog.*) 38 OPERATOR(pg_catalog.+) d;
    END LOOP;
    RETURN code;
END
$$;

COMMENT ON FUNCTION uid_counter._prefix_code(text) IS
'Exact base-38 code of a counter prefix; places each prefix''s ranges in its own window of one number line.';

CREATE FUNCTION uid_counter._span(prefix text, lo bigint, hi bigint)
RETURNS numrange
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.numrange(
    uid_counter._prefix_code($1) OPERATOR(pg_catalog.*) 9223372036854775808::numeric
        OPERATOR(pg_catalog.+) $2,
    uid_counter._prefix_code($1) OPERATOR(pg_catalog.*) 9223372036854775808::numeric
        OPERATOR(pg_catalog.+) $3,
    '[]')
$$;

COMMENT ON FUNCTION uid_counter._span(text, bigint, bigint) IS
'The range [lo, hi] of a prefix on the shared number line used by the exclusion constraint.';

CREATE TABLE uid_counter.settings (
    prefix  text NOT NULL CHECK (prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    tenant  text NOT NULL DEFAULT '',       -- '' = the prefix's global setting
    start   bigint CHECK (start OPERATOR(pg_catalog.>=) 0
                          AND start OPERATOR(pg_catalog.<=) 9223372036854775806),
    width   integer CHECK (width OPERATOR(pg_catalog.>=) 1 AND width OPERATOR(pg_catalog.<=) 19),
    PRIMARY KEY (prefix, tenant)
);

COMMENT ON TABLE uid_counter.settings IS
'Counter settings per (prefix, tenant); tenant '''' is the prefix''s global row; NULL fields fall back.';

CREATE TABLE uid_counter.ranges (
    prefix  text NOT NULL CHECK (prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    tenant  text NOT NULL CHECK (tenant OPERATOR(pg_catalog.<>) ''),
    lo      bigint NOT NULL CHECK (lo OPERATOR(pg_catalog.>=) 0),
    hi      bigint NOT NULL CHECK (hi OPERATOR(pg_catalog.<=) 9223372036854775806),
    span    numrange GENERATED ALWAYS AS (uid_counter._span(prefix, lo, hi)) STORED,
    node    text CHECK (node OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$'),
    PRIMARY KEY (prefix, tenant),
    CHECK (lo OPERATOR(pg_catalog.<=) hi),
    -- qualified: an unqualified && would pick up an &&(numrange, numrange)
    -- planted in the extension's schema, an exact match where pg_catalog's
    -- is polymorphic
    CONSTRAINT ranges_do_not_overlap EXCLUDE USING gist (span WITH OPERATOR(pg_catalog.&&))
);

COMMENT ON TABLE uid_counter.ranges IS
'Range [lo, hi] of a prefix owned by a tenant; ranges of one prefix never overlap (exclusion constraint); node: the server (uid.counter_node) that alone draws from it.';

CREATE TABLE uid_counter.counters (
    prefix      text NOT NULL,
    tenant      text NOT NULL,
    first_value bigint NOT NULL,
    last_value  bigint NOT NULL,
    PRIMARY KEY (prefix, tenant),
    CHECK (first_value OPERATOR(pg_catalog.<=) last_value)
);

COMMENT ON TABLE uid_counter.counters IS
'Last number issued per (prefix, tenant); every number issued lies in [first_value, last_value].';

CREATE TABLE uid_counter.range_epoch (
    id          integer PRIMARY KEY CHECK (id OPERATOR(pg_catalog.=) 1),
    changed_at  timestamptz NOT NULL
);

COMMENT ON TABLE uid_counter.range_epoch IS
'At most one row, written by every range change (none before the first): a counter call in a snapshot older than the change fails (40001).';

SELECT pg_catalog.pg_extension_config_dump('uid_counter.settings', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.ranges', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.counters', '');

-- Argument checks shared by the counter functions.
CREATE FUNCTION uid_counter._check_prefix(prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF $1 IS NULL THEN
        RAISE EXCEPTION 'counter prefix must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF $1 OPERATOR(pg_catalog.!~) '^[A-Z][A-Z0-9_]{0,15}$' THEN
        RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
            USING ERRCODE = '22023',
                  HINT = 'A prefix is 1 to 16 characters: an upper-case letter, then upper-case letters, digits or "_".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_prefix(text) IS
'Raises 22004 for NULL and 22023 for an invalid counter prefix.';

CREATE FUNCTION uid_counter._check_tenant(tenant text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF $1 IS NULL THEN
        RAISE EXCEPTION 'counter tenant must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF $1 OPERATOR(pg_catalog.!~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid counter tenant: %', pg_catalog.quote_literal($1)
            USING ERRCODE = '22023',
                  HINT = 'A tenant is 1 to 63 characters: a letter or digit, then letters, digits or "_", ".", ":", "@", "-".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_tenant(text) IS
'Raises 22004 for NULL and 22023 for an invalid tenant.';

-- Grants: a role draws only the numbers of the tenants (and prefixes) it is
-- granted.  uid_counter_next() runs as the caller (a C function, so that it
-- knows who calls: inside a SECURITY DEFINER function current_user is the
-- owner) and hands the caller's role to uid_counter._next(), which checks the
-- grant and then does the work as the extension owner.  uid_counter._next()
-- is not executable by PUBLIC; only that C function reaches it.

CREATE TABLE uid_counter.grants (
    tenant      text NOT NULL
                CHECK (tenant OPERATOR(pg_catalog.=) '*'
                       OR tenant OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$'),
    prefix      text NOT NULL
                CHECK (prefix OPERATOR(pg_catalog.=) '*'
                       OR prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    role        name NOT NULL,
    granted_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    role_oid    oid NOT NULL,
    PRIMARY KEY (tenant, prefix, role, role_oid)
);

COMMENT ON TABLE uid_counter.grants IS
'Which roles may draw the numbers of which tenant and prefix (''*'': every tenant, every prefix); a grant holds for the role of that name and OID only; kept by pg_dump by role name.';

SELECT pg_catalog.pg_extension_config_dump('uid_counter.grants', '');

-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: the functions and views (src/tables/counters.c).  Every
-- statement but the trigger's can run again over an older version's
-- objects: the upgrade from 1.2 runs this file too.
-- ---------------------------------------------------------------------------

-- A grant names its role by name and OID, and holds only while both match
-- a role of this server: a role dropped and created again under the same
-- name has a new OID and no grant.  The role is stored as a name, not as
-- regrole, so that replicating a grant to a server without that role does
-- not stop the replication (regrole input fails there).  A row written
-- here, by uid_counter_grant() or by pg_restore, is bound to the local role
-- of its name (OID 0, never a role's, when there is none); rows that
-- logical replication applies are not (the trigger fires on local writes
-- only), so another server's grant is inert here unless the role has the
-- same name and OID.
CREATE OR REPLACE FUNCTION uid_counter._bind_grant_role()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    NEW.role_oid := coalesce((SELECT r.oid FROM pg_catalog.pg_roles r
                               WHERE r.rolname OPERATOR(pg_catalog.=) NEW.role), 0);
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION uid_counter._bind_grant_role() IS
'Trigger of uid_counter.grants: binds a row written on this server to the OID of the local role of its name (0 when there is none).';

REVOKE ALL ON FUNCTION uid_counter._bind_grant_role() FROM PUBLIC;

CREATE TRIGGER bind_role BEFORE INSERT OR UPDATE OF role ON uid_counter.grants
    FOR EACH ROW EXECUTE FUNCTION uid_counter._bind_grant_role();

CREATE OR REPLACE FUNCTION uid_counter_format(prefix text, number bigint, width integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT $1 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
       CASE WHEN pg_catalog.length($2::text) OPERATOR(pg_catalog.>=) $3 THEN $2::text
            ELSE pg_catalog.lpad($2::text, $3, '0') END
$$;

COMMENT ON FUNCTION uid_counter_format(text, bigint, integer) IS
'PREFIX-number, the number zero-padded to width digits; a wider number is printed whole, never cut.';

-- Whether uid_counter.counters receives another writer's changes: a
-- subscription of this database lists it (src/tables/counters.c; cached per
-- session until pg_subscription_rel changes).
CREATE OR REPLACE FUNCTION uid_counter._replicated()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_counter_replicated'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._replicated() IS
'True when a subscription of this database lists uid_counter.counters (pg_subscription_rel): counters then draw only from ranges of this server (uid.counter_node).';

-- The work of uid_counter_next(), after a grant check.
CREATE OR REPLACE FUNCTION uid_counter._next(tenant text, prefix text, caller oid)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
    v_start  bigint;
    v_width  integer;
    r_lo     bigint;
    r_hi     bigint;
    r_node   text;
    here     text;
    refused  boolean;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    -- The grant, before anything is read, locked or written: the caller is a
    -- superuser, or has the privileges of a role granted (tenant, prefix)
    -- (pg_has_role ... USAGE, as for table privileges).  A grant counts only
    -- for the role of its name and OID (not a dropped role's successor, nor
    -- another server's role); others are skipped, never an error.  Written
    -- here, not in a function of its own, so that plpgsql keeps the plans
    -- for the session.
    IF c_caller IS NULL
       OR (NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                        WHERE r.oid OPERATOR(pg_catalog.=) c_caller AND r.rolsuper)
           AND NOT EXISTS (SELECT 1
                             FROM uid_counter.grants g
                             JOIN pg_catalog.pg_roles r
                               ON r.oid OPERATOR(pg_catalog.=) g.role_oid
                              AND r.rolname OPERATOR(pg_catalog.=) g.role
                            WHERE g.tenant OPERATOR(pg_catalog.=) ANY (ARRAY[c_tenant, '*'])
                              AND g.prefix OPERATOR(pg_catalog.=) ANY (ARRAY[c_prefix, '*'])
                              AND pg_catalog.pg_has_role(c_caller, r.oid, 'USAGE'))) THEN
        RAISE EXCEPTION 'permission denied for counter % of tenant %', c_prefix, pg_catalog.quote_literal(c_tenant)
            USING ERRCODE = '42501',
                  DETAIL = pg_catalog.format('Role %s holds no grant of tenant %s and prefix %s.',
                                             coalesce(pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(c_caller)), 'NULL'),
                                             pg_catalog.quote_literal(c_tenant), c_prefix),
                  HINT = 'An administrator grants it with uid_counter_grant(tenant, role[, prefix]).';
    END IF;

    -- ranges may not change under us (see the header of this part)
    LOCK TABLE uid_counter.ranges IN ROW SHARE MODE;
    IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed' THEN
        PERFORM 1 FROM uid_counter.range_epoch FOR SHARE;
        IF NOT FOUND THEN
            -- no range change before our snapshot; if the first one
            -- committed since, this insert meets its row and fails with
            -- 40001 (ON CONFLICT under a transaction snapshot)
            INSERT INTO uid_counter.range_epoch (id, changed_at)
            VALUES (1, pg_catalog.now())
            ON CONFLICT ON CONSTRAINT range_epoch_pkey DO NOTHING;
        END IF;
    END IF;

    SELECT coalesce(t.start, g.start, 1), coalesce(t.width, g.width, 3)
      INTO v_start, v_width
      FROM (SELECT 1) AS one
      LEFT JOIN uid_counter.settings t
             ON t.prefix OPERATOR(pg_catalog.=) c_prefix
            AND t.tenant OPERATOR(pg_catalog.=) c_tenant
      LEFT JOIN uid_counter.settings g
             ON g.prefix OPERATOR(pg_catalog.=) c_prefix
            AND g.tenant OPERATOR(pg_catalog.=) '';

    SELECT r.lo, r.hi, r.node INTO r_lo, r_hi, r_node
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix
       AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM uid_counter.ranges r
                   WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix) THEN
            RAISE EXCEPTION 'tenant % has no range of counter prefix %',
                    pg_catalog.quote_literal(c_tenant), c_prefix
                USING ERRCODE = '55000',
                      DETAIL = 'Other tenants own ranges of this prefix, so every tenant drawing from it needs one.',
                      HINT = 'Give the tenant a range with uid_counter_set_range().';
        END IF;
        r_lo := 0;
        r_hi := 9223372036854775806;
    END IF;

    -- Another writer: only a range of this server may be drawn from (see
    -- the header of this part).  _replicated() is cached per session.
    refused := CASE WHEN r_node IS NULL THEN uid_counter._replicated()
                    ELSE r_node IS DISTINCT FROM
                         NULLIF(pg_catalog.current_setting('uid.counter_node', true), '') END;
    IF refused THEN
        here := NULLIF(pg_catalog.current_setting('uid.counter_node', true), '');
        RAISE EXCEPTION 'counter %/% is not this server''s to draw from', c_prefix, c_tenant
            USING ERRCODE = 'UID06',
                  DETAIL = CASE WHEN r_node IS NOT NULL
                                THEN pg_catalog.format('Its range belongs to node %s; uid.counter_node is %s.',
                                                       pg_catalog.quote_literal(r_node),
                                                       coalesce(pg_catalog.quote_literal(here), 'not set'))
                                ELSE 'uid_counter.counters receives replicated changes from another server (a subscription of this database lists it), so numbers drawn here could be drawn there too.' END,
                  HINT = 'Draw on the server that owns the counter. To draw on several servers, give each its own tenant and range: set uid.counter_node on each server and uid_counter_set_range(tenant, prefix, lo, hi, node => ...); or leave schema uid_counter out of the publication.';
    END IF;

    v_start := greatest(v_start, r_lo);
    IF v_start OPERATOR(pg_catalog.>) r_hi THEN
        RAISE EXCEPTION 'counter %/% cannot start at % beyond the end of its range %',
                c_prefix, c_tenant, v_start, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Lower the start with uid_counter_configure() or widen the range with uid_counter_set_range().';
    END IF;

    INSERT INTO uid_counter.counters AS c (prefix, tenant, first_value, last_value)
    VALUES (c_prefix, c_tenant, v_start, v_start)
    ON CONFLICT ON CONSTRAINT counters_pkey DO UPDATE
        SET last_value = greatest(c.last_value OPERATOR(pg_catalog.+) 1, excluded.last_value)
    RETURNING c.last_value INTO v;

    IF v OPERATOR(pg_catalog.>) r_hi THEN
        -- the error undoes the update: nothing is used up
        RAISE EXCEPTION 'counter %/% reached the end of its range (%)', c_prefix, c_tenant, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Widen the tenant''s range with uid_counter_set_range().';
    END IF;

    -- uid_counter_format(), written out: a SECURITY DEFINER function calls
    -- nothing in the extension's schema by name, as the owner of that schema
    -- (for public, the database owner) could rename it and put a function of
    -- that name in its place
    RETURN c_prefix OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
           CASE WHEN pg_catalog.length(v::text) OPERATOR(pg_catalog.>=) v_width THEN v::text
                ELSE pg_catalog.lpad(v::text, v_width, '0') END;
END
$$;

COMMENT ON FUNCTION uid_counter._next(text, text, oid) IS
'uid_counter_next() for the role caller: checks its grant, then draws the number as the extension owner. Reached only through uid_counter_next().';

REVOKE ALL ON FUNCTION uid_counter._next(text, text, oid) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_next(tenant text, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_counter_next'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_counter_next(text, text) IS
'The next number of the (tenant, prefix) counter, formatted as PREFIX-000123; transactional and gap-free (a rollback gives the number back). Only for roles granted the tenant with uid_counter_grant().';

REVOKE ALL ON FUNCTION uid_counter_next(text, text) FROM PUBLIC;

-- uid_counter_next(text, text), found through the extension's membership,
-- never by a schema name that the schema's owner could move.
CREATE OR REPLACE FUNCTION uid_counter._next_entry()
RETURNS regprocedure
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::pg_catalog.regprocedure
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_depend d
    ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
   AND d.objid OPERATOR(pg_catalog.=) p.oid
   AND d.deptype OPERATOR(pg_catalog.=) 'e'
  JOIN pg_catalog.pg_extension e
    ON e.oid OPERATOR(pg_catalog.=) d.refobjid
   AND e.extname OPERATOR(pg_catalog.=) 'uid'
 WHERE p.proname OPERATOR(pg_catalog.=) 'uid_counter_next'
   AND p.proargtypes OPERATOR(pg_catalog.=) '25 25'::pg_catalog.oidvector  -- (text, text)
$$;

COMMENT ON FUNCTION uid_counter._next_entry() IS
'uid_counter_next(text, text) of extension uid, by membership: what uid_counter_grant() and uid_counter_revoke() grant EXECUTE on.';

REVOKE ALL ON FUNCTION uid_counter._next_entry() FROM PUBLIC;

-- The checks of a grant's arguments: tenant and prefix may be '*'.
CREATE OR REPLACE FUNCTION uid_counter._check_grant(tenant text, role regrole, prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_tenant($1);
    END IF;
    IF $3 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_prefix($3);
    END IF;
    IF $2 IS NULL THEN
        RAISE EXCEPTION 'counter grant role must not be NULL'
            USING ERRCODE = '22004';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_grant(text, regrole, text) IS
'Raises 22004 for a NULL argument and 22023 for a tenant or prefix that is neither valid nor ''*''.';

CREATE OR REPLACE FUNCTION uid_counter_grant(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    added    boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    -- the trigger binds the row to c_role's OID
    INSERT INTO uid_counter.grants (tenant, prefix, role, role_oid)
    VALUES (c_tenant, c_prefix, pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid), c_role::pg_catalog.oid)
    ON CONFLICT ON CONSTRAINT grants_pkey DO NOTHING;
    added := FOUND;
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s',
                              uid_counter._next_entry(), c_role);
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_counter_grant(text, regrole, text) IS
'Lets role (and the roles that have its privileges) draw the numbers of tenant with uid_counter_next(), for one prefix or (''*'', the default) every prefix; tenant ''*'' is every tenant. True if the grant is new.';

CREATE OR REPLACE FUNCTION uid_counter_revoke(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    removed  boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    DELETE FROM uid_counter.grants g
     WHERE g.tenant OPERATOR(pg_catalog.=) c_tenant
       AND g.prefix OPERATOR(pg_catalog.=) c_prefix
       AND g.role_oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid
       AND g.role OPERATOR(pg_catalog.=) pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid);
    removed := FOUND;
    IF NOT EXISTS (SELECT 1 FROM uid_counter.grants g
                   WHERE g.role_oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid
                     AND g.role OPERATOR(pg_catalog.=) pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid)) THEN
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM %s',
                                  uid_counter._next_entry(), c_role);
    END IF;
    RETURN removed;
END
$$;

COMMENT ON FUNCTION uid_counter_revoke(text, regrole, text) IS
'Removes exactly the grant (tenant, role, prefix) made by uid_counter_grant(); when the role has no grant left, also EXECUTE on uid_counter_next(). True if a grant was removed.';

REVOKE ALL ON FUNCTION uid_counter_grant(text, regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_counter_revoke(text, regrole, text) FROM PUBLIC;

CREATE OR REPLACE VIEW uid_counter_grants AS
SELECT g.tenant, g.prefix, g.role, g.granted_at,
       EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.oid OPERATOR(pg_catalog.=) g.role_oid
                  AND r.rolname OPERATOR(pg_catalog.=) g.role) AS applies
FROM uid_counter.grants g;

COMMENT ON VIEW uid_counter_grants IS
'Counter grants: which role may draw the numbers of which tenant and prefix (''*'': all); applies is false for a dropped role and for a grant replicated from a server whose role of that name is another.';

-- The end of every range change: the row of uid_counter.range_epoch that
-- REPEATABLE READ counter calls lock, written (the first change inserts it).
CREATE OR REPLACE FUNCTION uid_counter._range_changed()
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
INSERT INTO uid_counter.range_epoch AS e (id, changed_at)
VALUES (1, pg_catalog.now())
ON CONFLICT ON CONSTRAINT range_epoch_pkey DO UPDATE SET changed_at = excluded.changed_at
$$;

COMMENT ON FUNCTION uid_counter._range_changed() IS
'Ends a range change: writes the row of uid_counter.range_epoch (inserting it the first time), so that older REPEATABLE READ counter calls fail with 40001.';

REVOKE ALL ON FUNCTION uid_counter._range_changed() FROM PUBLIC;

-- The start of every range change.  It must see every number issued so far
-- (READ COMMITTED, and the lock below).  It waits for counter calls in
-- flight, and while it waits every new counter call queues behind it: so it
-- never waits longer than the session's lock_timeout, or 5 s when that is 0
-- (wait forever), then fails with 55P03 and changes nothing.
CREATE OR REPLACE FUNCTION uid_counter._lock_ranges(caller text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved text := pg_catalog.current_setting('lock_timeout');
    bound text := saved;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed' THEN
        RAISE EXCEPTION 'counter ranges can only be changed in a READ COMMITTED transaction'
            USING ERRCODE = '25000',
                  HINT = 'The checks must see every number issued so far; run the call at the default isolation level.';
    END IF;
    IF saved OPERATOR(pg_catalog.=) '0' THEN
        bound := '5s';
    END IF;
    BEGIN
        PERFORM pg_catalog.set_config('lock_timeout', bound, true);
        LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;
    EXCEPTION WHEN lock_not_available THEN
        RAISE EXCEPTION '%: counter ranges are in use by a transaction that drew a number', $1
            USING ERRCODE = '55P03',
                  DETAIL = pg_catalog.format('Waited %s (lock_timeout, or 5s when it is 0) for the transactions that called uid_counter_next() to end; nothing was changed.', bound),
                  HINT = 'Retry; pg_locks shows the sessions that hold uid_counter.ranges. SET lock_timeout to wait longer.';
    END;
    PERFORM pg_catalog.set_config('lock_timeout', saved, true);
END
$$;

COMMENT ON FUNCTION uid_counter._lock_ranges(text) IS
'Starts a range change: 25000 outside READ COMMITTED; locks uid_counter.ranges, waiting at most lock_timeout (5 s when it is 0), else 55P03.';

REVOKE ALL ON FUNCTION uid_counter._lock_ranges(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_configure(prefix text, tenant text DEFAULT NULL,
                                      start bigint DEFAULT NULL, width integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_prefix ALIAS FOR $1;
    c_tenant ALIAS FOR $2;
    c_start  ALIAS FOR $3;
    c_width  ALIAS FOR $4;
BEGIN
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_tenant IS NOT NULL THEN
        PERFORM uid_counter._check_tenant(c_tenant);
    END IF;
    IF c_start OPERATOR(pg_catalog.<) 0 OR c_start OPERATOR(pg_catalog.>) 9223372036854775806 THEN
        RAISE EXCEPTION 'invalid counter start: %', c_start
            USING ERRCODE = '22023',
                  HINT = 'start is the first number issued, 0 to 9223372036854775806; NULL falls back.';
    END IF;
    IF c_width OPERATOR(pg_catalog.<) 1 OR c_width OPERATOR(pg_catalog.>) 19 THEN
        RAISE EXCEPTION 'invalid counter width: %', c_width
            USING ERRCODE = '22023',
                  HINT = 'width is the number of digits numbers are zero-padded to, 1 to 19; NULL falls back.';
    END IF;

    IF c_start IS NULL AND c_width IS NULL THEN
        DELETE FROM uid_counter.settings s
         WHERE s.prefix = c_prefix AND s.tenant = coalesce(c_tenant, '');
    ELSE
        INSERT INTO uid_counter.settings AS s (prefix, tenant, start, width)
        VALUES (c_prefix, coalesce(c_tenant, ''), c_start, c_width)
        ON CONFLICT ON CONSTRAINT settings_pkey DO UPDATE
            SET start = excluded.start, width = excluded.width;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter_configure(text, text, bigint, integer) IS
'Sets start and width of a prefix for one tenant (or, tenant NULL, for all); NULL fields fall back to the global row, then to start 1, width 3; both NULL removes the row.';

-- The work of both forms of uid_counter_set_range(), as their owner.
CREATE OR REPLACE FUNCTION uid_counter._set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_lo     ALIAS FOR $3;
    c_hi     ALIAS FOR $4;
    c_node   ALIAS FOR $5;
    other    record;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_node OPERATOR(pg_catalog.!~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid counter node: %', pg_catalog.quote_literal(c_node)
            USING ERRCODE = '22023',
                  HINT = 'A node is a server''s uid.counter_node: 1 to 63 characters, a letter or digit, then letters, digits or "_", ".", ":", "@", "-"; NULL for none.';
    END IF;
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo OPERATOR(pg_catalog.<) 0
       OR c_hi OPERATOR(pg_catalog.>) 9223372036854775806 OR c_lo OPERATOR(pg_catalog.>) c_hi THEN
        RAISE EXCEPTION 'invalid counter range: [%, %]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'A range is lo <= hi, both between 0 and 9223372036854775806.';
    END IF;
    -- READ COMMITTED; waits (bounded) for counter calls in flight; new ones
    -- wait for our commit
    PERFORM uid_counter._lock_ranges('uid_counter_set_range');

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF FOUND AND (other.first_value OPERATOR(pg_catalog.<) c_lo
                  OR other.last_value OPERATOR(pg_catalog.>) c_hi) THEN
        RAISE EXCEPTION 'range [%, %] does not contain the numbers tenant % already issued of prefix %',
                c_lo, c_hi, pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
                  HINT = 'Choose a range that contains them.';
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND c.first_value OPERATOR(pg_catalog.<=) c_hi AND c.last_value OPERATOR(pg_catalog.>=) c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps numbers tenant % already issued',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s issued numbers between %s and %s.',
                                             pg_catalog.quote_literal(other.tenant), other.first_value, other.last_value),
                  HINT = 'Choose a range that avoids them.';
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND r.lo OPERATOR(pg_catalog.<=) c_hi AND r.hi OPERATOR(pg_catalog.>=) c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps the range of tenant %',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s owns [%s, %s].', pg_catalog.quote_literal(other.tenant), other.lo, other.hi),
                  HINT = 'Choose a range that avoids it.';
    END IF;

    -- the exclusion constraint enforces the same rule for any other writer
    INSERT INTO uid_counter.ranges AS r (prefix, tenant, lo, hi, node)
    VALUES (c_prefix, c_tenant, c_lo, c_hi, c_node)
    ON CONFLICT ON CONSTRAINT ranges_pkey DO UPDATE
        SET lo = excluded.lo, hi = excluded.hi, node = excluded.node;

    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) IS
'The work of uid_counter_set_range(), both forms; node NULL: a range of no server in particular.';

REVOKE ALL ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, NULL);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) IS
'Gives a tenant the range [lo, hi] of a prefix (replacing its range); refused if it overlaps another tenant''s range or issued numbers, or leaves out numbers the tenant issued.';

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, $5);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) IS
'uid_counter_set_range() of a range that only the server whose uid.counter_node is node draws from (NULL: any server, as without node), for servers that replicate their counters to each other.';

CREATE OR REPLACE FUNCTION uid_counter_unset_range(tenant text, prefix text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    PERFORM uid_counter._lock_ranges('uid_counter_unset_range');
    DELETE FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tenant % has no range of counter prefix %', pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '42704',
                  HINT = 'The view uid_counter_settings lists the ranges.';
    END IF;
    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter_unset_range(text, text) IS
'Removes a tenant''s range of a prefix; the numbers it issued stay reserved against other tenants'' ranges.';

REVOKE EXECUTE ON FUNCTION uid_counter_configure(text, text, bigint, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_unset_range(text, text) FROM PUBLIC;

CREATE OR REPLACE VIEW uid_counter_settings AS
SELECT coalesce(s.prefix, r.prefix) AS prefix,
       -- NULLIF's = is text = text, an exact match that pg_catalog, searched
       -- first, always wins
       NULLIF(coalesce(s.tenant, r.tenant), '') AS tenant,
       s.start,
       s.width,
       r.lo AS range_lo,
       r.hi AS range_hi,
       r.node AS range_node
FROM uid_counter.settings s
FULL JOIN uid_counter.ranges r
       ON r.prefix OPERATOR(pg_catalog.=) s.prefix
      AND r.tenant OPERATOR(pg_catalog.=) s.tenant;

COMMENT ON VIEW uid_counter_settings IS
'Counter settings and ranges as configured: one row per (prefix, tenant); tenant NULL is the prefix''s global row; range_node: the server that alone draws from the range.';

CREATE OR REPLACE VIEW uid_counters AS
SELECT c.prefix,
       c.tenant,
       c.first_value,
       c.last_value,
       uid_counter_format(c.prefix, c.last_value,
           coalesce(t.width, g.width, 3)) AS last_id
FROM uid_counter.counters c
LEFT JOIN uid_counter.settings t
       ON t.prefix OPERATOR(pg_catalog.=) c.prefix AND t.tenant OPERATOR(pg_catalog.=) c.tenant
LEFT JOIN uid_counter.settings g
       ON g.prefix OPERATOR(pg_catalog.=) c.prefix AND g.tenant OPERATOR(pg_catalog.=) '';

COMMENT ON VIEW uid_counters IS
'One row per (prefix, tenant) counter: the numbers issued so far and the last ID as printed with the current width.';

-- ---------------------------------------------------------------------------
-- Observability (src/core/stats.c, src/core/stats_sql.c)
-- ---------------------------------------------------------------------------
-- uid_stats() keeps the twelve columns it had in 1.0, for queries and views
-- built on it; the uid_stats view reads uid_stats_1_1(), which has them all,
-- and the lease state.

CREATE FUNCTION uid_stats(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats() IS
'Counters of the uid generators since the server started; one row.';

CREATE FUNCTION uid_stats_1_1(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint,
    OUT stats_reset timestamptz,
    OUT layout_ends_at timestamptz,
    OUT layout_days_left integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats_1_1'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_1_1() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; behind the uid_stats view.';

CREATE FUNCTION uid_stats_reset()
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_stats_reset'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_reset() IS
'Starts every counter of uid_stats from zero; returns the time of the reset. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_stats_reset() FROM PUBLIC;

CREATE FUNCTION uid_advance_past(id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_advance_past'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION uid_advance_past(bigint) IS
'Every later uid_next() of this server is greater than id (durably): for data restored from another server. True if the generator moved. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_advance_past(bigint) FROM PUBLIC;

-- The view and the functions behind it are for pg_monitor, not PUBLIC.
REVOKE ALL ON FUNCTION uid_stats() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_stats_1_1() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_stats() TO pg_monitor;
GRANT EXECUTE ON FUNCTION uid_stats_1_1() TO pg_monitor;
-- the view also calls uid_lease_status(): pg_monitor keeps it, whatever PUBLIC has
GRANT EXECUTE ON FUNCTION uid_lease_status() TO pg_monitor;

-- ---------------------------------------------------------------------------
-- The uid_stats view (src/core/stats_sql.c, src/lease/lease.c): one row of the
-- generator's counters, the lease and the tenure ledger's counts.  Also
-- run by the upgrade from 1.2, which added the ledger's columns.
-- ---------------------------------------------------------------------------

-- The tenure ledger's state for monitoring, the last two columns of the
-- uid_stats view.
CREATE OR REPLACE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;

CREATE OR REPLACE VIEW uid_stats AS
SELECT s.worker_id, s.ids_issued, s.uuids_issued, s.batch_calls,
       s.clock_waits, s.clock_refusals, s.max_clock_step_ms, s.overflow_waits,
       s.reserve_writes, s.last_issued_at, s.reserved_until, s.clock_steps,
       s.stats_reset, s.layout_ends_at, s.layout_days_left,
       l.mode AS lease_mode, l.state AS lease_state, l.token AS lease_token,
       l.expires_at AS lease_expires_at, l.renewed_at AS lease_renewed_at,
       l.renewal_failures AS lease_renewal_failures, l.free_ids AS lease_free_ids,
       t.tenures AS lease_tenures, t.tenure_overlaps AS lease_tenure_overlaps
FROM @extschema@.uid_stats_1_1() s
CROSS JOIN @extschema@.uid_lease_status() l
CROSS JOIN @extschema@.uid_lease_ledger() t;

COMMENT ON VIEW uid_stats IS
'One row per server: worker id and lease, IDs and UUIDs issued, clock waits and refusals, overflow waits, durable reservation, days left in the layout, the tenure ledger''s tenures and overlaps.';

GRANT SELECT ON uid_stats TO pg_monitor;

-- ---------------------------------------------------------------------------
-- IDs that leave the database: text forms and keyed masking
-- (src/forms/text_forms.c, src/forms/mask.c, src/forms/ff1.c)
-- ---------------------------------------------------------------------------

-- Text forms: fixed-width Crockford base32 whose byte order is the ID order.
-- Pure functions: no preload, safe for every role.

CREATE FUNCTION uid_to_text(id bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_to_text(bigint) IS
'13 characters of Crockford base32 (0-9, A-Z without I, L, O, U) for a non-negative bigint; sorts like the number under COLLATE "C".';

CREATE FUNCTION uid_from_text(form text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_from_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_from_text(text) IS
'The bigint of a uid_to_text() form; ignores case and surrounding white space, reads O as 0 and I, L as 1, refuses anything else (22P02).';

CREATE FUNCTION uuid_to_text(id uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'uuid_to_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_to_text(uuid) IS
'26 characters of Crockford base32 for a UUID (for a v7, its ULID); sorts like the UUID under COLLATE "C".';

CREATE FUNCTION uuid_from_text(form text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_from_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_from_text(text) IS
'The UUID of a uuid_to_text() form (or a ULID); ignores case and surrounding white space, reads O as 0 and I, L as 1, refuses anything else (22P02).';

-- Keyed masking: FF1 (NIST SP 800-38G) with AES.  The one-argument
-- functions use the key in uid.mask_key (STABLE); they are an oracle for
-- that key, so only roles granted EXECUTE may call them.  The two-argument
-- functions take the key (IMMUTABLE) and reveal nothing a caller does not
-- already hold.

CREATE FUNCTION uid_mask(id bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_mask'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_mask(bigint) IS
'A keyed permutation of the non-negative bigints under uid.mask_key: hides the time, order and density of IDs; uid_unmask() reverses it. Needs uid preloaded; EXECUTE only by grant.';

CREATE FUNCTION uid_unmask(masked bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_unmask'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_unmask(bigint) IS
'The bigint that uid_mask() turned into this value under uid.mask_key. Every non-negative bigint unmasks to some value: a wrong key or a foreign value is not detected. EXECUTE only by grant.';

CREATE FUNCTION uid_mask(id bigint, key bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_mask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_mask(bigint, bytea) IS
'uid_mask() under the given 16, 24 or 32 byte AES key (for key rotation).';

CREATE FUNCTION uid_unmask(masked bigint, key bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_unmask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_unmask(bigint, bytea) IS
'uid_unmask() under the given 16, 24 or 32 byte AES key (for key rotation).';

CREATE FUNCTION uuid7_mask(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_mask'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_mask(uuid) IS
'A UUIDv7 (time before 2109-05-15) masked under uid.mask_key into a valid version 4 UUID that reveals neither time nor order; uuid7_unmask() reverses it. Needs uid preloaded; EXECUTE only by grant.';

CREATE FUNCTION uuid7_unmask(masked uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_unmask'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_unmask(uuid) IS
'The UUIDv7 that uuid7_mask() turned into this UUID under uid.mask_key. Refuses (22023) UUIDs that are not version 4, and 63 in 64 of those not masked with this key. EXECUTE only by grant.';

CREATE FUNCTION uuid7_mask(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_mask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_mask(uuid, bytea) IS
'uuid7_mask() under the given 16, 24 or 32 byte AES key (for key rotation).';

CREATE FUNCTION uuid7_unmask(masked uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_unmask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_unmask(uuid, bytea) IS
'uuid7_unmask() under the given 16, 24 or 32 byte AES key (for key rotation).';

REVOKE ALL ON FUNCTION uid_mask(bigint), uid_unmask(bigint),
    uuid7_mask(uuid), uuid7_unmask(uuid) FROM PUBLIC;


-- ---------------------------------------------------------------------------
-- Prefixed text forms (src/forms/typeid.c): TypeIDs of UUIDs (specification 0.3.0
-- of jetify-com/typeid) and the prefixed form of a 64-bit ID, which is not a
-- TypeID.  Pure functions: no preload, safe for every role.
-- ---------------------------------------------------------------------------

CREATE FUNCTION uuid_to_typeid(id uuid, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uuid_to_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_to_typeid(uuid, text) IS
'The TypeID (spec 0.3.0) of a UUID: the prefix (at most 63 of a-z and _, starting and ending with a letter; 22023 otherwise), an underscore unless the prefix is empty, and 26 lower-case Crockford base32 digits; sorts like the UUID under COLLATE "C" for one prefix.';

CREATE FUNCTION uuid_from_typeid(typeid text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_from_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_from_typeid(text) IS
'The UUID of a TypeID of any prefix, read as spec 0.3.0 says (lower case only, no white space); anything else is refused (22P02).';

CREATE FUNCTION uuid_from_typeid(typeid text, prefix text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid_from_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid_from_typeid(text, text) IS
'The UUID of a TypeID whose prefix is the given one (22023 for another prefix, 22P02 for a malformed TypeID).';

CREATE FUNCTION uid_to_text(id bigint, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_to_text(bigint, text) IS
'The prefix (TypeID''s rules; 22023 otherwise), an underscore unless the prefix is empty, and the 13 characters of uid_to_text(id); not a TypeID (whose digits are always 128 bits); sorts like the ID under COLLATE "C" for one prefix.';

CREATE FUNCTION uid_from_text(form text, prefix text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_from_text_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_from_text(text, text) IS
'The bigint of a uid_to_text(id, prefix) form whose prefix is the given one (22023 for another prefix); the digits are read as uid_from_text() reads them, without white space; anything else is refused (22P02).';
-- ---------------------------------------------------------------------------
-- The greatest stored value of a table another role may own (src/tables/owner_read.c)
-- ---------------------------------------------------------------------------
-- uid_catch_up(), uid_adopt() and uid_unadopt() read tables whoever owns
-- them.  Planning a read runs code the table's owner chose (index
-- predicates and expressions, policies), so these two read each table of
-- the inheritance tree as its owner, under a security-restricted operation
-- with search_path pinned, after checking that the caller may read the
-- column and every row.  PUBLIC may execute them: they tell the caller only
-- what its own SELECT max(col) would.

CREATE FUNCTION uid_stored_max(rel regclass, col name)
RETURNS numeric
AS 'MODULE_PATHNAME', 'uid_stored_max'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_stored_max(regclass, name) IS
'The greatest value of an integer column of the table, its partitions and children (NULL if none), each read as its owner under a security-restricted operation; the caller must be allowed to read the column and every row.';

CREATE FUNCTION uid_stored_max_uuid7(rel regclass, col name)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uid_stored_max_uuid7'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_stored_max_uuid7(regclass, name) IS
'The greatest version 7 value of a uuid column of the table, its partitions and children (NULL if none), each read as its owner under a security-restricted operation; the caller must be allowed to read the column and every row.';


-- The ALTER TABLE (and CREATE SEQUENCE ... OWNED BY) statements of
-- uid_adopt() and uid_unadopt(), run as the table's owner under a
-- security-restricted operation (src/tables/owner_ddl.c): changing a column's
-- type re-checks the table's constraints and rebuilds its indexes, which
-- runs the owner's code.  It runs only those statements, and only for a
-- caller with the privileges of the table's owner: PUBLIC may execute it.
CREATE FUNCTION uid_alter_as_owner(statement text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_alter_as_owner'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_alter_as_owner(text) IS
'Runs one ALTER TABLE (column type without USING, default, identity) or CREATE SEQUENCE ... OWNED BY statement as the table''s owner under a security-restricted operation; the caller must have the owner''s privileges. Used by uid_adopt() and uid_unadopt().';
-- ---------------------------------------------------------------------------
-- Adopting existing tables and sequences (src/tables/adopt.c, docs/adopting.md)
-- ---------------------------------------------------------------------------
-- An adopted sequence carries uid's security label; in a database with one,
-- the planner calls these four functions instead of nextval(), currval()
-- and lastval() (and around an identity column's next value).  Each checks
-- the sequence's privileges as PostgreSQL's own functions do, and hands
-- every sequence that is not adopted to them: PUBLIC may execute them.

CREATE FUNCTION uid_sequence_nextval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_nextval(regclass) IS
'nextval() where some sequence is adopted: a uid ID for an adopted sequence (with INCREMENT n > 1, an ID N whose N - n .. N + n - 1 are reserved for the caller), PostgreSQL''s nextval() for any other.';

CREATE FUNCTION uid_sequence_currval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_currval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_currval(regclass) IS
'currval() where some sequence is adopted: the session''s last nextval() of the sequence.';

CREATE FUNCTION uid_sequence_lastval()
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_lastval'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_lastval() IS
'lastval() where some sequence is adopted: the session''s last nextval() of any sequence, adopted or not.';

CREATE FUNCTION uid_sequence_plain(value anyelement)
RETURNS anyelement
AS 'MODULE_PATHNAME', 'uid_sequence_plain'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_plain(anyelement) IS
'Passes an identity column''s next value through, noting for lastval() that the session''s last sequence value is PostgreSQL''s.';

-- The columns that draw from a sequence: defaults that call it, and the
-- identity column it belongs to.  Partitions and inheritance children have
-- defaults of their own and are listed with their parent.
CREATE FUNCTION uid_sequence_columns(seq regclass)
RETURNS TABLE (tbl regclass, col name, kind text)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT d.adrelid::pg_catalog.regclass, a.attname, 'default'::pg_catalog.text
    FROM pg_catalog.pg_depend dep
    JOIN pg_catalog.pg_attrdef d ON d.oid OPERATOR(pg_catalog.=) dep.objid
    JOIN pg_catalog.pg_attribute a
      ON a.attrelid OPERATOR(pg_catalog.=) d.adrelid AND a.attnum OPERATOR(pg_catalog.=) d.adnum
    WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
      AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND dep.refobjid OPERATOR(pg_catalog.=) $1
    UNION
    SELECT dep.refobjid::pg_catalog.regclass, a.attname, 'identity'
    FROM pg_catalog.pg_depend dep
    JOIN pg_catalog.pg_attribute a
      ON a.attrelid OPERATOR(pg_catalog.=) dep.refobjid
     AND a.attnum OPERATOR(pg_catalog.=) dep.refobjsubid
    WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND dep.objid OPERATOR(pg_catalog.=) $1
      AND dep.deptype OPERATOR(pg_catalog.=) 'i'
      AND dep.refobjsubid OPERATOR(pg_catalog.>) 0
    ORDER BY 1, 2
$$;

COMMENT ON FUNCTION uid_sequence_columns(regclass) IS
'The columns that draw from the sequence: defaults that call it (kind default) and the identity column it belongs to (kind identity).';

-- Whether the owner of a table may draw from a sequence (USAGE or UPDATE on
-- it): the rule by which uid_adopt(), uid_unadopt() and uid_catch_up() tell
-- a column whose values came from the sequence from one whose default
-- another role wrote without that privilege.  Such a default never drew a
-- value: the column is left as it is (its table is not locked, read or
-- changed), so that what its owner stores there cannot move or stop the
-- sequence's owner.
CREATE FUNCTION uid_sequence_may_draw(tbl regclass, seq regclass)
RETURNS boolean
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.has_sequence_privilege(c.relowner, $2, 'USAGE, UPDATE')
    FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1
$$;

COMMENT ON FUNCTION uid_sequence_may_draw(regclass, regclass) IS
'Whether the table''s owner may draw from the sequence (USAGE or UPDATE on it): uid_adopt(), uid_unadopt() and uid_catch_up() leave the columns of a table whose owner may not as they are.';

-- The columns of uid_sequence_columns() whose table's owner may draw from
-- the sequence: uid_adopt() and uid_unadopt() move these, and leave the
-- others as they are.
CREATE FUNCTION uid_sequence_users(seq regclass)
RETURNS TABLE (tbl regclass, col name, kind text, may_draw boolean)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT u.tbl, u.col, u.kind, @extschema@.uid_sequence_may_draw(u.tbl, $1)
    FROM @extschema@.uid_sequence_columns($1) AS u
    ORDER BY 1, 2
$$;

COMMENT ON FUNCTION uid_sequence_users(regclass) IS
'The columns of uid_sequence_columns() and whether their table''s owner may draw from the sequence (USAGE or UPDATE): uid_adopt() and uid_unadopt() move those that may and leave the others as they are.';

-- The adopted sequences of this database.
CREATE VIEW uid_adoptions AS
SELECT c.oid::pg_catalog.regclass AS sequence,
       CASE l.label WHEN 'adopted' THEN 'default'::pg_catalog.text
            WHEN 'adopted identity always' THEN 'identity always'
            ELSE 'identity by default' END AS origin,
       s.seqincrement AS increment,
       ARRAY(SELECT pg_catalog.format('%s.%I', u.tbl, u.col)
             FROM @extschema@.uid_sequence_columns(c.oid::pg_catalog.regclass) AS u) AS columns
FROM pg_catalog.pg_seclabel l
JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) l.objoid
JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) c.oid
WHERE l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
  AND l.provider OPERATOR(pg_catalog.=) 'uid';

COMMENT ON VIEW uid_adoptions IS
'The adopted sequences: what the columns were before (default, identity always, identity by default), the INCREMENT, the columns that draw from them.';

GRANT SELECT ON uid_adoptions TO PUBLIC;

-- The owner check of uid_adopt() and uid_unadopt(): PostgreSQL's own rule,
-- the privileges of the owning role.
CREATE FUNCTION uid_require_owner(rel regclass, what text)
RETURNS void
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c
                                   WHERE c.oid OPERATOR(pg_catalog.=) rel), 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of % % to %', CASE (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) rel)
                WHEN 'S' THEN 'sequence' ELSE 'table' END, rel, what
            USING ERRCODE = '42501',
                  HINT = 'Run it as the owner of the table, of its sequence and of every table that uses the sequence.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_require_owner(regclass, text) IS
'Raises 42501 unless the current role has the privileges of the relation''s owner.';

-- The relation uid_adopt() or uid_unadopt() was given: its kind ('S' a
-- sequence, 'r' or 'p' a table), and for a table the column (default: its
-- single-column primary key), once the caller is known to own it and,
-- unless dry, the table is locked (the statement is returned in locked).
CREATE FUNCTION uid_adopt_target(rel regclass, col name, fn text, dry boolean,
                                 OUT kind "char", OUT column_name name, OUT locked text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF rel IS NULL THEN
        RAISE EXCEPTION '%() needs a table or a sequence', fn USING ERRCODE = '22004';
    END IF;
    kind := (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) rel);
    column_name := col;
    IF kind OPERATOR(pg_catalog.=) 'S' THEN
        IF col IS NOT NULL THEN
            RAISE EXCEPTION 'a column was given for sequence %', rel
                USING ERRCODE = '22023',
                      HINT = 'Pass the table and its column, or the sequence alone.';
        END IF;
        RETURN;
    END IF;
    IF kind OPERATOR(pg_catalog.<>) ALL (ARRAY['r', 'p']::"char"[]) THEN
        RAISE EXCEPTION '% is neither a table nor a sequence', rel
            USING ERRCODE = '42809',
                  HINT = pg_catalog.format('%s() moves a table''s column, or a sequence, to uid.', fn);
    END IF;
    PERFORM @extschema@.uid_require_owner(rel, CASE fn WHEN 'uid_adopt' THEN 'adopt it' ELSE 'unadopt it' END);
    IF NOT dry THEN
        -- no insert runs while the column changes, and none of the rows
        -- read later is then still being written
        locked := pg_catalog.format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', rel);
        EXECUTE locked;
    END IF;
    IF col IS NULL THEN
        SELECT pg_catalog.min(a.attname) INTO column_name
        FROM pg_catalog.pg_index i
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid
         AND a.attnum OPERATOR(pg_catalog.=) i.indkey[0]
        WHERE i.indrelid OPERATOR(pg_catalog.=) rel AND i.indisprimary
          AND i.indnatts OPERATOR(pg_catalog.=) 1;
        IF column_name IS NULL THEN
            RAISE EXCEPTION 'table % has no single-column primary key', rel
                USING ERRCODE = '22023', HINT = pg_catalog.format('Name the column: %s(''table'', ''column'').', fn);
        END IF;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt_target(regclass, name, text, boolean) IS
'The relation given to uid_adopt() or uid_unadopt(): its kind and column, the caller checked as its owner, the table locked unless dry.';

-- The other tables that draw from seq, and seq itself, locked: the
-- statements, run.  ALTER SEQUENCE ... NO CYCLE takes the lock nextval()
-- waits for (LOCK TABLE does not take sequences); an adopted sequence never
-- cycles.  Every table must be the caller's.
CREATE FUNCTION uid_adopt_lock(seq regclass, locked_already regclass, fn text, dry boolean)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    users record;
    s     text;
BEGIN
    PERFORM @extschema@.uid_require_owner(seq, CASE fn WHEN 'uid_adopt' THEN 'adopt it' ELSE 'unadopt it' END);
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) LOOP
        IF NOT users.may_draw THEN
            RAISE NOTICE 'column %.% is left as it is: its default names sequence %, but its owner may not draw from it', users.tbl, users.col, seq;
            RETURN NEXT pg_catalog.format('-- left as it is: %s.%I (its owner may not draw from %s)', users.tbl, users.col, seq);
            CONTINUE;
        END IF;
        PERFORM @extschema@.uid_require_owner(users.tbl,
            CASE fn WHEN 'uid_adopt' THEN 'adopt the sequence it uses' ELSE 'unadopt the sequence it uses' END);
        IF users.kind OPERATOR(pg_catalog.=) 'identity' AND locked_already IS NULL THEN
            RAISE EXCEPTION 'sequence % belongs to identity column %.%', seq, users.tbl, users.col
                USING ERRCODE = '55000',
                      HINT = pg_catalog.format('Pass the column: %s(%L, %L).', fn, users.tbl, users.col);
        END IF;
    END LOOP;
    IF dry THEN
        RETURN;
    END IF;
    FOR users IN SELECT DISTINCT u.tbl FROM @extschema@.uid_sequence_users(seq) AS u
                 WHERE u.may_draw AND u.tbl IS DISTINCT FROM locked_already LOOP
        s := pg_catalog.format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', users.tbl);
        EXECUTE s;
        RETURN NEXT s;
    END LOOP;
    s := pg_catalog.format('ALTER SEQUENCE %s NO CYCLE', seq);
    EXECUTE s;
    RETURN NEXT s;
END
$$;

COMMENT ON FUNCTION uid_adopt_lock(regclass, regclass, text, boolean) IS
'Checks that the caller owns the sequence and every table whose owner may draw from it, and (unless dry) locks them: the statements run, and a comment for each column left as it is.';

-- uid_adopt: see docs/adopting.md.  Runs as the caller (never SECURITY
-- DEFINER): the caller must own everything it changes.
CREATE FUNCTION uid_adopt(rel regclass, col name DEFAULT NULL,
                          dry_run boolean DEFAULT false, widen boolean DEFAULT false,
                          as_uid boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a_rel     ALIAS FOR $1;
    a_col     ALIAS FOR $2;
    a_dry     ALIAS FOR $3;
    a_widen   ALIAS FOR $4;
    a_as_uid  ALIAS FOR $5;
    rkind     "char";
    att       record;
    def       text;
    deffn     regprocedure;
    seq       regclass;
    users     record;
    steps     text[] := '{}';
    widening  text[] := '{}';
    fks       text[] := '{}';
    label     text := 'adopted';
    incr      bigint;
    seq_last  bigint;
    seq_called boolean;
    seq_min   bigint;
    top       bigint;
    top_where text;
    m         bigint;
    first_id  bigint;
    s         text;
    run_from  integer;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, s
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_adopt', a_dry) AS t;
    IF s IS NOT NULL THEN
        steps := steps OPERATOR(pg_catalog.||) s;
    END IF;
    IF rkind OPERATOR(pg_catalog.=) 'S' THEN
        IF a_as_uid THEN
            RAISE EXCEPTION 'as_uid => true needs a table column, not sequence %', a_rel
                USING ERRCODE = '22023',
                      HINT = 'Adopt the table whose column draws from the sequence: uid_adopt(''the_table'', ''its_column'', as_uid => true).';
        END IF;
        seq := a_rel;
    ELSE
        SELECT a.attnum, a.atttypid, a.attidentity, a.attgenerated,
               pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS expr, d.oid AS defoid
        INTO att
        FROM pg_catalog.pg_attribute a
        LEFT JOIN pg_catalog.pg_attrdef d
          ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
        WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col
          AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'column "%" of table % does not exist', a_col, a_rel USING ERRCODE = '42703';
        END IF;

        -- a UUID column: uuid7() for new rows, old values untouched
        IF att.atttypid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype THEN
            SELECT dep.refobjid::pg_catalog.regprocedure INTO deffn
            FROM pg_catalog.pg_depend dep
            WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
              AND dep.objid OPERATOR(pg_catalog.=) att.defoid
              AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass;
            IF a_as_uid THEN
                RAISE EXCEPTION 'as_uid => true needs a bigint column; %.% is uuid', a_rel, a_col
                    USING ERRCODE = '42804',
                          HINT = 'A UUID is already a JSON string; leave as_uid out for uuid columns.';
            END IF;
            IF deffn OPERATOR(pg_catalog.=) '@extschema@.uuid7()'::pg_catalog.regprocedure THEN
                RAISE NOTICE 'column %.% already uses uuid7(): nothing to do', a_rel, a_col;
                RETURN;
            END IF;
            IF att.expr IS NOT NULL AND NOT (
                 att.expr OPERATOR(pg_catalog.~) '^[a-z0-9_."]*\(\)$'
                 AND (deffn OPERATOR(pg_catalog.=) 'pg_catalog.gen_random_uuid()'::pg_catalog.regprocedure
                      OR (pg_catalog.to_regprocedure('pg_catalog.uuidv4()') IS NOT NULL
                          AND deffn OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure('pg_catalog.uuidv4()'))
                      OR EXISTS (SELECT 1 FROM pg_catalog.pg_depend e
                                 JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) e.refobjid
                                 JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) e.objid
                                 WHERE e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                                   AND e.objid OPERATOR(pg_catalog.=) deffn
                                   AND e.deptype OPERATOR(pg_catalog.=) 'e'
                                   AND x.extname OPERATOR(pg_catalog.=) 'uuid-ossp'
                                   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['uuid_generate_v4', 'uuid_generate_v1', 'uuid_generate_v1mc']::name[])))) THEN
                RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', a_rel, a_col, att.expr
                    USING ERRCODE = '55000',
                          HINT = 'uid_adopt() moves UUID columns whose default is gen_random_uuid(), uuidv4(), uuid_generate_v4(), uuid_generate_v1() or uuid_generate_v1mc(); set another default with ALTER TABLE.';
            END IF;
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE %s ALTER COLUMN %I SET DEFAULT @extschema@.uuid7()', a_rel, a_col);
            IF NOT a_dry THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[pg_catalog.array_length(steps, 1)]);
            END IF;
            RETURN QUERY SELECT pg_catalog.unnest(steps);
            RETURN;
        END IF;

        IF att.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', 'pg_catalog.int4', 'pg_catalog.int2', '@extschema@.uid']::pg_catalog.regtype[]) THEN
            RAISE EXCEPTION 'column %.% is of type %, not bigint or uuid', a_rel, a_col, att.atttypid::pg_catalog.regtype
                USING ERRCODE = '42804',
                      HINT = 'uid_adopt() moves bigint and uid columns (bigserial, identity, nextval() defaults) and uuid columns.';
        END IF;

        IF att.attidentity OPERATOR(pg_catalog.<>) '' THEN
            seq := pg_catalog.pg_get_serial_sequence(a_rel::pg_catalog.text, a_col)::pg_catalog.regclass;
            label := CASE att.attidentity WHEN 'a' THEN 'adopted identity always'
                     ELSE 'adopted identity by default' END;
        ELSIF att.expr IS NULL THEN
            RAISE EXCEPTION 'column %.% has no default', a_rel, a_col
                USING ERRCODE = '55000',
                      HINT = 'If the application takes values from a sequence itself (Hibernate''s SEQUENCE strategy), adopt that sequence: uid_adopt(''its_seq''). Otherwise SET DEFAULT uid_next().';
        ELSE
            SELECT dep.refobjid::pg_catalog.regclass INTO seq
            FROM pg_catalog.pg_depend dep
            WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
              AND dep.objid OPERATOR(pg_catalog.=) att.defoid
              AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
              AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) dep.refobjid) OPERATOR(pg_catalog.=) 'S';
            IF att.expr OPERATOR(pg_catalog.~) 'uid_next\(\)' THEN
                IF a_as_uid AND att.atttypid OPERATOR(pg_catalog.<>) '@extschema@.uid'::pg_catalog.regtype THEN
                    s := pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE @extschema@.uid', a_rel, a_col);
                    IF NOT a_dry THEN
                        PERFORM @extschema@.uid_alter_as_owner(s);
                    END IF;
                    RETURN QUERY SELECT pg_catalog.unnest(steps OPERATOR(pg_catalog.||) s);
                    RETURN;
                END IF;
                RAISE NOTICE 'column %.% already uses uid_next(): nothing to do', a_rel, a_col;
                RETURN;
            END IF;
            -- uid_sequence_nextval(): adopted, or restored without its
            -- label (pg_dump --no-security-labels), which is set again below
            IF seq IS NULL OR att.expr OPERATOR(pg_catalog.!~) '^(pg_catalog\.|[a-z_"]+\.)?(nextval|uid_sequence_nextval)\(''[^'']*''::regclass\)$' THEN
                RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', a_rel, a_col, att.expr
                    USING ERRCODE = '55000',
                          HINT = 'uid_adopt() moves columns whose default is nextval() of a sequence, identity columns and UUID columns.';
            END IF;
        END IF;

        -- integer and smallint: the column and every column that references
        -- it must become bigint first
        IF att.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', '@extschema@.uid']::pg_catalog.regtype[]) THEN
            SELECT pg_catalog.array_agg(pg_catalog.format('%s.%I', c.conrelid::pg_catalog.regclass, fa.attname)
                                        ORDER BY 1),
                   pg_catalog.array_agg(pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint',
                                                          c.conrelid::pg_catalog.regclass, fa.attname) ORDER BY 1)
            INTO fks, widening
            FROM pg_catalog.pg_constraint c
            CROSS JOIN LATERAL pg_catalog.generate_subscripts(c.confkey, 1) AS k(i)
            JOIN pg_catalog.pg_attribute fa
              ON fa.attrelid OPERATOR(pg_catalog.=) c.conrelid
             AND fa.attnum OPERATOR(pg_catalog.=) c.conkey[k.i]
            WHERE c.contype OPERATOR(pg_catalog.=) 'f'
              AND c.confrelid OPERATOR(pg_catalog.=) a_rel
              AND c.confkey[k.i] OPERATOR(pg_catalog.=) att.attnum
              AND c.conparentid OPERATOR(pg_catalog.=) 0
              AND fa.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', '@extschema@.uid']::pg_catalog.regtype[]);
            fks := COALESCE(fks, '{}');
            widening := COALESCE(widening, '{}') OPERATOR(pg_catalog.||)
                pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint', a_rel, a_col);
            IF att.attidentity OPERATOR(pg_catalog.=) '' THEN
                widening := widening OPERATOR(pg_catalog.||)
                    pg_catalog.format('ALTER SEQUENCE %s AS bigint', seq);
            END IF;
            IF NOT a_widen AND NOT a_dry THEN
                RAISE EXCEPTION 'column %.% is %: uid IDs need bigint', a_rel, a_col, att.atttypid::pg_catalog.regtype
                    USING ERRCODE = '42804',
                          DETAIL = pg_catalog.format('Columns that reference it: %s. These statements widen them: %s.',
                                   CASE WHEN pg_catalog.cardinality(fks) OPERATOR(pg_catalog.=) 0 THEN 'none'
                                        ELSE pg_catalog.array_to_string(fks, ', ') END,
                                   pg_catalog.array_to_string(widening, '; ')),
                          HINT = 'Run uid_adopt() with widen => true to run them in the same transaction: each rewrites its table under an ACCESS EXCLUSIVE lock.';
            END IF;
            FOREACH s IN ARRAY widening LOOP
                IF a_dry THEN
                    NULL;
                ELSIF pg_catalog.starts_with(s, 'ALTER TABLE ') THEN
                    -- each table's as its owner (src/tables/owner_ddl.c)
                    PERFORM @extschema@.uid_alter_as_owner(s);
                ELSE
                    EXECUTE s;
                END IF;
                steps := steps OPERATOR(pg_catalog.||) s;
            END LOOP;
        END IF;
    END IF;

    -- the sequence and every column that draws from it
    PERFORM @extschema@.uid_require_owner(seq, 'adopt it');
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_seclabel l
               WHERE l.objoid OPERATOR(pg_catalog.=) seq
                 AND l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                 AND l.provider OPERATOR(pg_catalog.=) 'uid') THEN
        IF rkind OPERATOR(pg_catalog.=) 'S' THEN
            RAISE NOTICE 'sequence % is adopted already: nothing to do', seq;
        ELSE
            RAISE NOTICE 'column %.% is adopted already (sequence %): nothing to do', a_rel, a_col, seq;
        END IF;
        RETURN;
    END IF;
    SELECT q.seqincrement, q.seqmin INTO incr, seq_min FROM pg_catalog.pg_sequence q
    WHERE q.seqrelid OPERATOR(pg_catalog.=) seq;
    IF incr OPERATOR(pg_catalog.<) 1 OR incr OPERATOR(pg_catalog.>) 2048 THEN
        RAISE EXCEPTION 'sequence % has INCREMENT %, outside 1 .. 2048', seq, incr
            USING ERRCODE = '22023',
                  DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer (for every Hibernate optimizer): at most one millisecond''s 4096.',
                  HINT = 'Lower the INCREMENT (Hibernate: allocationSize) to at most 2048 first; descending sequences cannot be adopted.';
    END IF;
    -- a call with INCREMENT n > 1 is a batch of 2n IDs: uid_sequence_nextval()
    -- holds it to uid_next_batch()'s limits at every call; refused here first
    IF incr OPERATOR(pg_catalog.>) 1 THEN
        IF 2 OPERATOR(pg_catalog.*) incr OPERATOR(pg_catalog.>)
           pg_catalog.current_setting('uid.max_batch')::pg_catalog.int8 THEN
            RAISE EXCEPTION 'sequence % has INCREMENT %: each nextval() would reserve % IDs, more than uid.max_batch (%)',
                            seq, incr, 2 OPERATOR(pg_catalog.*) incr, pg_catalog.current_setting('uid.max_batch')
                USING ERRCODE = '54000',
                      DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer: a batch, as uid_next_batch() draws.',
                      HINT = 'Lower the INCREMENT (Hibernate: allocationSize), or have a superuser raise uid.max_batch.';
        END IF;
        IF NOT pg_catalog.has_function_privilege('@extschema@.uid_next_batch(integer)'::pg_catalog.regprocedure, 'EXECUTE') THEN
            RAISE EXCEPTION 'permission denied to adopt sequence % with INCREMENT %: its nextval() draws batches', seq, incr
                USING ERRCODE = '42501',
                      DETAIL = 'Each nextval() of an adopted sequence with INCREMENT n > 1 reserves 2n IDs, a batch; this role may not execute uid_next_batch().',
                      HINT = 'Lower the INCREMENT to 1, or have EXECUTE on uid_next_batch(integer) granted to the roles that draw from it.';
        END IF;
    END IF;
    steps := steps OPERATOR(pg_catalog.||) ARRAY(
        SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind OPERATOR(pg_catalog.<>) 'S' THEN a_rel END,
                                                 'uid_adopt', a_dry) AS l);

    -- the largest value already handed out: in the columns (through their
    -- indexes) and by the sequence (values an application holds but has
    -- not stored yet are below its last value + INCREMENT)
    EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', seq) INTO seq_last, seq_called;
    top := CASE WHEN seq_called THEN seq_last OPERATOR(pg_catalog.+) (incr OPERATOR(pg_catalog.-) 1) END;
    top_where := pg_catalog.format('sequence %s', seq);
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i
                       JOIN pg_catalog.pg_class ic ON ic.oid OPERATOR(pg_catalog.=) i.indexrelid
                       JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) ic.relam
                       JOIN pg_catalog.pg_attribute ia
                         ON ia.attrelid OPERATOR(pg_catalog.=) users.tbl
                        AND ia.attnum OPERATOR(pg_catalog.=) i.indkey[0]
                       WHERE i.indrelid OPERATOR(pg_catalog.=) users.tbl
                         AND ia.attname OPERATOR(pg_catalog.=) users.col
                         AND am.amname OPERATOR(pg_catalog.=) 'btree')
           AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) users.tbl) OPERATOR(pg_catalog.=) 'r' THEN
            RAISE NOTICE 'column %.% has no index: its largest value is found by reading the whole table', users.tbl, users.col;
        END IF;
        m := @extschema@.uid_stored_max(users.tbl, users.col);
        IF m IS NOT NULL AND (top IS NULL OR m OPERATOR(pg_catalog.>) top) THEN
            top := m;
            top_where := pg_catalog.format('column %s.%I', users.tbl, users.col);
        END IF;
    END LOOP;
    first_id := @extschema@.uid_next();
    IF top IS NOT NULL AND top OPERATOR(pg_catalog.>=) first_id THEN
        RAISE EXCEPTION '% holds values up to %, not below the first ID uid would issue now (%)',
                top_where, top, first_id
            USING ERRCODE = 'UID04',
                  DETAIL = pg_catalog.format('Read as uid IDs, the values reach %s UTC, %s s ahead of this server''s clock.',
                           pg_catalog.to_char(@extschema@.uid_time(top) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                           ((top OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.-) (first_id OPERATOR(pg_catalog.>>) 22)) OPERATOR(pg_catalog./) 1000),
                  HINT = 'New IDs must sort above the existing ones. IDs from a Snowflake-style generator with an earlier epoch stay ahead of uid''s; keep that generator for this table, or give the table new keys.';
    END IF;

    -- the column defaults, an identity turned into a default, the sequence
    -- left at its maximum, and the label
    run_from := COALESCE(pg_catalog.array_length(steps, 1), 0) OPERATOR(pg_catalog.+) 1;
    IF label OPERATOR(pg_catalog.<>) 'adopted' THEN
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', a_rel, a_col),
            pg_catalog.format('CREATE SEQUENCE %s AS bigint INCREMENT %s MINVALUE %s MAXVALUE %s START %s NO CYCLE OWNED BY %s.%I',
                              seq, incr, seq_last OPERATOR(pg_catalog.-) 1, seq_last, seq_last, a_rel, a_col),
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT @extschema@.uid_sequence_nextval(%L::regclass)',
                              a_rel, a_col, seq)];
    ELSE
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT @extschema@.uid_sequence_nextval(%L::regclass)',
                users.tbl, users.col, seq);
        END LOOP;
        steps := steps OPERATOR(pg_catalog.||)
            pg_catalog.format('ALTER SEQUENCE %s MINVALUE %s MAXVALUE %s', seq,
                              LEAST(seq_min, seq_last OPERATOR(pg_catalog.-) 1), seq_last);
    END IF;
    -- the column to the uid type: bigint's representation, so the table
    -- and its indexes are kept as they are (an identity is dropped above)
    -- (as_uid is refused for a sequence above: att is a table's column here)
    IF a_as_uid THEN
        IF att.atttypid OPERATOR(pg_catalog.<>) '@extschema@.uid'::pg_catalog.regtype THEN
            steps := steps OPERATOR(pg_catalog.||)
                pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE @extschema@.uid', a_rel, a_col);
        END IF;
    END IF;
    steps := steps OPERATOR(pg_catalog.||) ARRAY[
        pg_catalog.format('SELECT pg_catalog.setval(%L, %s, true)', seq, seq_last),
        pg_catalog.format('SECURITY LABEL FOR uid ON SEQUENCE %s IS %L', seq, label)];
    IF NOT a_dry THEN
        FOR i IN run_from .. pg_catalog.array_length(steps, 1) LOOP
            -- a table's statements as its owner (src/tables/owner_ddl.c)
            IF pg_catalog.starts_with(steps[i], 'ALTER TABLE ')
               OR pg_catalog.starts_with(steps[i], 'CREATE SEQUENCE ') THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[i]);
            ELSE
                EXECUTE steps[i];
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT pg_catalog.unnest(steps);
END
$$;

COMMENT ON FUNCTION uid_adopt(regclass, name, boolean, boolean, boolean) IS
'Moves a table''s column (default: its single-column primary key), or a sequence, to uid in place, in the calling transaction; as_uid => true also changes the column to the uid type (no rewrite); returns the statements it ran (dry_run: would run). See docs/adopting.md.';

-- uid_unadopt: the inverse.  The sequence (or identity) comes back with its
-- next value above every value stored and every ID this server issued, so
-- the table keeps working without uid; the IDs issued stay as they are.
CREATE FUNCTION uid_unadopt(rel regclass, col name DEFAULT NULL, dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a_rel   ALIAS FOR $1;
    a_col   ALIAS FOR $2;
    a_dry   ALIAS FOR $3;
    rkind   "char";
    seq     regclass;
    label   text;
    incr    bigint;
    users   record;
    steps   text[] := '{}';
    top     bigint;
    m       bigint;
    restart bigint;
    s       text;
    owner_tbl regclass;
    owner_col name;
    run_from integer;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, s
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_unadopt', a_dry) AS t;
    IF s IS NOT NULL THEN
        steps := steps OPERATOR(pg_catalog.||) s;
    END IF;
    IF rkind OPERATOR(pg_catalog.=) 'S' THEN
        seq := a_rel;
    ELSE
        -- a UUID column back to version 4
        IF EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
                   JOIN pg_catalog.pg_attrdef d
                     ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
                   JOIN pg_catalog.pg_depend dep
                     ON dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                    AND dep.objid OPERATOR(pg_catalog.=) d.oid
                    AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                    AND dep.refobjid OPERATOR(pg_catalog.=) '@extschema@.uuid7()'::pg_catalog.regprocedure
                   WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col) THEN
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE %s ALTER COLUMN %I SET DEFAULT pg_catalog.gen_random_uuid()', a_rel, a_col);
            IF NOT a_dry THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[pg_catalog.array_length(steps, 1)]);
            END IF;
            RETURN QUERY SELECT pg_catalog.unnest(steps);
            RETURN;
        END IF;
        SELECT dep.refobjid::pg_catalog.regclass INTO seq
        FROM pg_catalog.pg_attribute a
        JOIN pg_catalog.pg_attrdef d
          ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
        JOIN pg_catalog.pg_depend dep
          ON dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
         AND dep.objid OPERATOR(pg_catalog.=) d.oid
         AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
        WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col
          AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) dep.refobjid) OPERATOR(pg_catalog.=) 'S';
        IF seq IS NULL THEN
            RAISE NOTICE 'column %.% is not adopted: nothing to do', a_rel, a_col;
            RETURN;
        END IF;
    END IF;

    PERFORM @extschema@.uid_require_owner(seq, 'unadopt it');
    SELECT l.label INTO label FROM pg_catalog.pg_seclabel l
    WHERE l.objoid OPERATOR(pg_catalog.=) seq
      AND l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND l.provider OPERATOR(pg_catalog.=) 'uid';
    IF label IS NULL THEN
        RAISE NOTICE 'sequence % is not adopted: nothing to do', seq;
        RETURN;
    END IF;
    SELECT q.seqincrement INTO incr FROM pg_catalog.pg_sequence q
    WHERE q.seqrelid OPERATOR(pg_catalog.=) seq;
    steps := steps OPERATOR(pg_catalog.||) ARRAY(
        SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind OPERATOR(pg_catalog.<>) 'S' THEN a_rel END,
                                                 'uid_unadopt', a_dry) AS l);
    run_from := COALESCE(pg_catalog.array_length(steps, 1), 0) OPERATOR(pg_catalog.+) 1;

    -- above every stored value and every ID this server issued (blocks an
    -- application holds included): the next ID uid would issue
    top := @extschema@.uid_next();
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
        m := @extschema@.uid_stored_max(users.tbl, users.col);
        top := GREATEST(top, m);
    END LOOP;
    restart := top OPERATOR(pg_catalog.+) incr OPERATOR(pg_catalog.+) 1;

    IF label OPERATOR(pg_catalog.=) 'adopted' THEN
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('SECURITY LABEL FOR uid ON SEQUENCE %s IS NULL', seq),
            pg_catalog.format('ALTER SEQUENCE %s NO MAXVALUE RESTART WITH %s', seq, restart)];
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT pg_catalog.nextval(%L::regclass)',
                users.tbl, users.col, seq);
        END LOOP;
    ELSE
        SELECT dep.refobjid::pg_catalog.regclass, a.attname INTO owner_tbl, owner_col
        FROM pg_catalog.pg_depend dep
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) dep.refobjid AND a.attnum OPERATOR(pg_catalog.=) dep.refobjsubid
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
          AND dep.objid OPERATOR(pg_catalog.=) seq
          AND dep.refobjsubid OPERATOR(pg_catalog.>) 0 AND dep.deptype OPERATOR(pg_catalog.=) 'a';
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', owner_tbl, owner_col),
            pg_catalog.format('DROP SEQUENCE %s', seq),
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I ADD GENERATED %s AS IDENTITY (SEQUENCE NAME %s INCREMENT %s START WITH %s)',
                              owner_tbl, owner_col,
                              CASE label WHEN 'adopted identity always' THEN 'ALWAYS' ELSE 'BY DEFAULT' END,
                              seq, incr, restart)];
    END IF;
    IF NOT a_dry THEN
        FOR i IN run_from .. pg_catalog.array_length(steps, 1) LOOP
            -- a table's statements as its owner (src/tables/owner_ddl.c)
            IF pg_catalog.starts_with(steps[i], 'ALTER TABLE ')
               OR pg_catalog.starts_with(steps[i], 'CREATE SEQUENCE ') THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[i]);
            ELSE
                EXECUTE steps[i];
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT pg_catalog.unnest(steps);
END
$$;

COMMENT ON FUNCTION uid_unadopt(regclass, name, boolean) IS
'The inverse of uid_adopt(): the column (or sequence) back to its sequence, identity or gen_random_uuid(), the sequence''s next value above every value stored and every ID this server issued. Issued IDs stay. See docs/adopting.md.';
-- Tenure ledger (src/lease/lease_store.c, src/lease/tenure.c, src/tables/audit.c)
-- The ledger of the lease store, read through uid_tenures(), and the
-- operator's functions over it.  EXECUTE: superusers and pg_monitor only
-- (the ledger names hosts and ports; docs/security.md).

CREATE FUNCTION uid_tenures(of_worker integer DEFAULT NULL,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_tenures'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_tenures(integer) IS
'The tenure ledger of the lease store (of one worker id if given): one row per tenure, with the Unix milliseconds first_ms to last_ms its holder could issue in.';

CREATE FUNCTION uid_whence(id bigint,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_whence'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION uid_whence(bigint) IS
'The tenure(s) whose worker id and window of milliseconds contain this uid_next() id: the server that issued it. More than one row means two tenures overlap (an alarm); none, that no tenure the ledger keeps explains it.';

CREATE FUNCTION uid_tenure_overlaps(
    OUT worker_id integer,
    OUT token_a bigint, OUT system_identifier_a numeric, OUT host_a text, OUT port_a integer,
    OUT first_ms_a bigint, OUT last_ms_a bigint,
    OUT token_b bigint, OUT system_identifier_b numeric, OUT host_b text, OUT port_b integer,
    OUT first_ms_b bigint, OUT last_ms_b bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE
AS $$
    WITH t AS MATERIALIZED (
        SELECT * FROM @extschema@.uid_tenures() AS u
        WHERE u.first_ms OPERATOR(pg_catalog.<=) u.last_ms)
    SELECT a.worker_id, a.token, a.system_identifier, a.host, a.port, a.first_ms, a.last_ms,
           b.token, b.system_identifier, b.host, b.port, b.first_ms, b.last_ms
    FROM t AS a JOIN t AS b ON b.worker_id OPERATOR(pg_catalog.=) a.worker_id
     AND (a.first_ms OPERATOR(pg_catalog.<) b.first_ms
          OR (a.first_ms OPERATOR(pg_catalog.=) b.first_ms AND a.token OPERATOR(pg_catalog.<) b.token))
     AND b.first_ms OPERATOR(pg_catalog.<=) a.last_ms
    ORDER BY a.worker_id, a.first_ms, b.first_ms
$$;

COMMENT ON FUNCTION uid_tenure_overlaps() IS
'Every pair of tenures of one worker id whose windows of milliseconds overlap: two servers could have issued the same id. Empty on a healthy fleet.';

-- not STRICT: a NULL argument is an error (src/tables/audit.c)
CREATE FUNCTION uid_audit(tbl regclass, col name, sample real DEFAULT 1.0,
    OUT kind text, OUT worker_id integer, OUT day date, OUT ids bigint, OUT example text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_audit'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_audit(regclass, name, real) IS
'Audits a column of uid_next() ids (bigint) against the tenure ledger: per worker id and day (UTC), the ids no tenure explains (foreign, cloned, restored elsewhere) and those from the future beyond uid.lease_max_clock_skew, with the lowest of each, and the total per worker id; for a UUIDv7 column (uuid), those from the future. sample: the fraction of pages read.';

REVOKE ALL ON FUNCTION uid_tenures(integer), uid_whence(bigint), uid_tenure_overlaps(),
    uid_audit(regclass, name, real) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenures(integer), uid_whence(bigint), uid_tenure_overlaps(),
    uid_audit(regclass, name, real) TO pg_monitor;

-- ---------------------------------------------------------------------------
-- Moving the writes to another server: uid_catch_up() (docs/operations.md)
-- ---------------------------------------------------------------------------
-- A server that takes over the writes of another (a blue/green upgrade by
-- logical replication, a restore) holds rows its generators never issued:
-- with the other server's worker id and a clock behind its clock, uid_next()
-- could issue them again, and ticket sequences, which logical replication
-- does not carry, start again from their first number.  uid_catch_up() reads
-- the greatest value of every column whose default is uid's uid_next(),
-- uuid7() or uuidv7(), or an adopted sequence, and of every column that
-- draws from a ticket sequence, and moves the generators and sequences past
-- them.  It reads everything and checks every limit before it changes
-- anything.  It runs as the caller: PostgreSQL checks the caller's
-- privileges on each table, sequence and function.

-- Before a column is read: the caller's SELECT privilege on it, no
-- row-level security that applies to the caller, and (unless
-- a dry run) a SHARE lock on its table until the end of the transaction, so
-- that no insert is in progress while its greatest value is read and none
-- can follow until the generators have moved.
CREATE FUNCTION uid_catch_up_lock(rel regclass, col name, dry_run boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT pg_catalog.has_column_privilege(rel, col, 'SELECT') THEN
        RAISE EXCEPTION 'permission denied to read column % of table %', col, rel
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() reads every column whose default is uid_next(), uuid7(), an adopted or a ticket sequence: run it as a role that may read and lock each such table (a superuser).';
    END IF;
    -- rows a policy hides would be left out of the greatest value
    IF pg_catalog.row_security_active(rel) THEN
        RAISE EXCEPTION 'row-level security applies to table % for this role: uid_catch_up() would not see every row', rel
            USING ERRCODE = '42501',
                  HINT = 'Run it as a superuser or a role with BYPASSRLS.';
    END IF;
    IF NOT dry_run THEN
        EXECUTE pg_catalog.format('LOCK TABLE %s IN SHARE MODE', rel);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_catch_up_lock(regclass, name, boolean) IS
'Part of uid_catch_up(): raises 42501 unless the caller may read the column and every row of its table; unless dry_run, locks its table in SHARE mode. It runs as the caller and does only what the caller may do: PUBLIC may execute it.';

CREATE FUNCTION uid_catch_up(dry_run boolean DEFAULT false,
                             ticket_floors jsonb DEFAULT '{}',
                             allow_ahead interval DEFAULT '0',
                             ticket_ahead bigint DEFAULT 1000000000)
RETURNS TABLE (kind text, object text, column_name name, stored_max text, action text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    floors      jsonb := coalesce(ticket_floors, '{}'::jsonb);
    r           record;
    t           record;
    f           record;
    v           bigint;
    u           uuid;
    uid_max     bigint;
    uuid_max    uuid;
    uid_where   text;
    uuid_where  text;
    ahead_ok    interval;
    col_max     numeric;
    col_where   text;
    target      numeric;
    floor_v     bigint;
    floor_next  numeric;
    base        numeric;
    draws       numeric;
    cur_next    numeric;
    seq_last    bigint;
    seq_called  boolean;
    moved       boolean;
    reading     text := CASE WHEN dry_run THEN 'read (dry run: no lock)'
                             ELSE 'read under a SHARE lock' END;
    plan_seq    regclass[] := '{}';
    plan_val    bigint[] := '{}';
    plan_called boolean[] := '{}';
    plan_row    text[] := '{}';
    plan_max    text[] := '{}';
    ready       text;
    integers    pg_catalog.oid[] := ARRAY['int2', 'int4', 'int8', '@extschema@.uid']::pg_catalog.regtype[]::pg_catalog.oid[];
    call_rel    regclass[] := '{}';
    call_col    name[] := '{}';
    call_expr   text[] := '{}';
BEGIN
    IF dry_run IS NULL THEN
        RAISE EXCEPTION 'dry_run must not be NULL'
            USING ERRCODE = '22004',
                  HINT = 'Pass true to see what uid_catch_up() would do, false to do it.';
    END IF;
    IF NOT dry_run AND pg_catalog.current_setting('transaction_isolation')
                       OPERATOR(pg_catalog.<>) 'read committed' THEN
        RAISE EXCEPTION 'uid_catch_up() must run at isolation level READ COMMITTED, not %',
                        pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = '25000',
                  HINT = 'Its reads must see every row committed before it locked the table; run it in a transaction of the default isolation level.';
    END IF;
    IF allow_ahead IS NULL OR allow_ahead OPERATOR(pg_catalog.<) '0'::interval
       OR allow_ahead OPERATOR(pg_catalog.>) '1 day'::interval THEN
        RAISE EXCEPTION 'allow_ahead must be from 0 to 1 day, not %', coalesce(allow_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how far ahead of this server''s clock a stored value may be (the old server''s clock ahead of this one''s): ''2 seconds''.';
    END IF;
    IF ticket_ahead IS NULL OR ticket_ahead OPERATOR(pg_catalog.<) 0 THEN
        RAISE EXCEPTION 'ticket_ahead must be from 0 to 9223372036854775807, not %', coalesce(ticket_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how many draws past its next ticket a stored ticket may move a ticket sequence (default 1000000000).';
    END IF;
    -- uid_next() waits out this much silently: values within it are not ahead
    ahead_ok := GREATEST(allow_ahead, pg_catalog.current_setting('uid.clock_max_wait_ms')::interval);
    IF pg_catalog.jsonb_typeof(floors) OPERATOR(pg_catalog.<>) 'object' THEN
        RAISE EXCEPTION 'ticket_floors must be a JSON object, not %', pg_catalog.jsonb_typeof(floors)
            USING ERRCODE = '22023',
                  HINT = 'Map ticket names to the value their next ticket must be above: ''{"orders": 5000}''.';
    END IF;
    FOR f IN SELECT e.key, e.value FROM pg_catalog.jsonb_each(floors) AS e LOOP
        PERFORM uid_ticket._check_name(f.key);
        IF pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', f.key)) IS NULL THEN
            RAISE EXCEPTION 'ticket "%" does not exist', f.key
                USING ERRCODE = '42704',
                      HINT = 'The view uid_tickets lists the tickets; ticket_floors names only those.';
        END IF;
        IF pg_catalog.jsonb_typeof(f.value) OPERATOR(pg_catalog.<>) 'number'
           OR f.value::text::numeric OPERATOR(pg_catalog.<>) pg_catalog.trunc(f.value::text::numeric)
           OR f.value::text::numeric OPERATOR(pg_catalog.>) 9223372036854775807
           OR f.value::text::numeric OPERATOR(pg_catalog.<) -9223372036854775808 THEN
            RAISE EXCEPTION 'invalid floor for ticket "%": %', f.key, f.value::text
                USING ERRCODE = '22023',
                      HINT = 'A floor is a bigint: the next ticket is above it.';
        END IF;
    END LOOP;

    FOR r IN SELECT s.subname FROM pg_catalog.pg_subscription s
             JOIN pg_catalog.pg_database d ON d.oid OPERATOR(pg_catalog.=) s.subdbid
             WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database() AND s.subenabled
             ORDER BY 1 LOOP
        RAISE WARNING 'subscription "%" is enabled: rows it applies after uid_catch_up() are not covered', r.subname
            USING HINT = 'Stop the writes on the old server, wait until the subscription has applied them, and disable it first (ALTER SUBSCRIPTION ... DISABLE).';
    END LOOP;

    -- The columns, in the order of their tables' OIDs (the order in which
    -- concurrent calls lock them).  A partition whose partitioned ancestor
    -- has the same default on the same column is read through the ancestor.
    FOR r IN
        WITH gen AS (
            SELECT p.oid,
                   CASE p.proname WHEN 'uid_next' THEN 'uid_next'::text
                                  WHEN 'uid_ticket_next' THEN 'ticket' ELSE 'uuid7' END AS kind
            FROM pg_catalog.pg_proc p
            JOIN pg_catalog.pg_depend e
              ON e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND e.objid OPERATOR(pg_catalog.=) p.oid
             AND e.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND e.deptype OPERATOR(pg_catalog.=) 'e'
            JOIN pg_catalog.pg_extension x
              ON x.oid OPERATOR(pg_catalog.=) e.refobjid AND x.extname OPERATOR(pg_catalog.=) 'uid'
            WHERE (p.proname OPERATOR(pg_catalog.=) 'uid_next' AND p.pronargs OPERATOR(pg_catalog.=) 0)
               OR (p.proname OPERATOR(pg_catalog.=) 'uuid7' AND p.pronargs OPERATOR(pg_catalog.=) 0)
               OR p.proname OPERATOR(pg_catalog.=) 'uuidv7'
               OR (p.proname OPERATOR(pg_catalog.=) 'uid_ticket_next' AND p.pronargs OPERATOR(pg_catalog.=) 1)),
        adopted AS (
            SELECT l.objoid AS seq, s.seqincrement AS inc
            FROM pg_catalog.pg_seclabel l
            JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) l.objoid
            WHERE l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
              AND l.provider OPERATOR(pg_catalog.=) 'uid'),
        col AS (
            SELECT gen.kind, ad.adrelid AS rel, a.attname, 1::bigint AS inc, NULL::pg_catalog.regclass AS seq,
                   pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
            FROM pg_catalog.pg_depend d
            JOIN gen ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                    AND d.refobjid OPERATOR(pg_catalog.=) gen.oid
            JOIN pg_catalog.pg_attrdef ad
              ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
             AND d.objid OPERATOR(pg_catalog.=) ad.oid
            JOIN pg_catalog.pg_attribute a
              ON a.attrelid OPERATOR(pg_catalog.=) ad.adrelid AND a.attnum OPERATOR(pg_catalog.=) ad.adnum
            UNION
            SELECT 'uid_next', sc.tbl::pg_catalog.oid, sc.col, adopted.inc, adopted.seq::pg_catalog.regclass, NULL
            FROM adopted, @extschema@.uid_sequence_columns(adopted.seq::pg_catalog.regclass) AS sc)
        SELECT c1.kind, c1.rel::pg_catalog.regclass AS rel, c1.attname, c1.inc, c1.seq, c1.expr,
               coalesce(nullif(ty.typbasetype, 0), ty.oid) AS typ
        FROM col c1
        JOIN pg_catalog.pg_class k ON k.oid OPERATOR(pg_catalog.=) c1.rel
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) c1.rel AND a.attname OPERATOR(pg_catalog.=) c1.attname
        JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) a.atttypid
        WHERE k.relkind OPERATOR(pg_catalog.=) ANY ('{r,p}'::"char"[])
          AND NOT (k.relispartition AND EXISTS (
                SELECT 1 FROM pg_catalog.pg_partition_ancestors(c1.rel::pg_catalog.regclass) an
                JOIN col c2 ON c2.rel OPERATOR(pg_catalog.=) an.relid::pg_catalog.oid
                WHERE an.relid::pg_catalog.oid OPERATOR(pg_catalog.<>) c1.rel
                  AND c2.kind OPERATOR(pg_catalog.=) c1.kind
                  AND c2.attname OPERATOR(pg_catalog.=) c1.attname))
        ORDER BY c1.rel, c1.attname, c1.kind
    LOOP
        IF r.kind OPERATOR(pg_catalog.=) 'ticket' THEN
            -- read with the ticket its default names, below
            call_rel := call_rel OPERATOR(pg_catalog.||) r.rel;
            call_col := call_col OPERATOR(pg_catalog.||) r.attname;
            call_expr := call_expr OPERATOR(pg_catalog.||) r.expr;
            CONTINUE;
        END IF;
        PERFORM @extschema@.uid_catch_up_lock(r.rel, r.attname, dry_run);
        IF r.typ OPERATOR(pg_catalog.<>) ALL (CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7'
                                                   THEN '{uuid}'::pg_catalog.regtype[]::pg_catalog.oid[]
                                                   ELSE integers END) THEN
            RAISE WARNING 'column % of table % is not % column: not read', r.attname, r.rel,
                          CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7' THEN 'a uuid' ELSE 'an integer' END
                USING HINT = CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7'
                                  THEN 'Move uuid7() past its values by hand with uuid7_advance_past().'
                                  ELSE 'Move uid_next() past its values by hand with uid_advance_past().' END;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, NULL::text,
                                'not read: not of its generator''s type'::text;
            CONTINUE;
        END IF;
        IF r.kind OPERATOR(pg_catalog.=) 'uuid7' THEN
            u := @extschema@.uid_stored_max_uuid7(r.rel, r.attname);
            IF u IS NOT NULL AND (uuid_max IS NULL OR u OPERATOR(pg_catalog.>) uuid_max) THEN
                uuid_max := u;
                uuid_where := pg_catalog.format('%s.%I', r.rel, r.attname);
            END IF;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, u::text,
                                CASE WHEN u IS NULL THEN reading OPERATOR(pg_catalog.||) ': no version 7 value' ELSE reading END;
        ELSE
            v := @extschema@.uid_stored_max(r.rel, r.attname);
            IF v IS NOT NULL THEN
                -- a caller of an adopted sequence with INCREMENT n may store
                -- up to n - 1 values above the one it drew
                v := LEAST(v::numeric OPERATOR(pg_catalog.+) (r.inc OPERATOR(pg_catalog.-) 1),
                                      9223372036854775807)::bigint;
                IF uid_max IS NULL OR v OPERATOR(pg_catalog.>) uid_max THEN
                    uid_max := v;
                    uid_where := pg_catalog.format('%s.%I', r.rel, r.attname);
                END IF;
            END IF;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, v::text,
                                CASE WHEN r.seq IS NULL THEN reading
                                     ELSE pg_catalog.format('%s (adopted sequence %s%s)', reading, r.seq,
                                              CASE WHEN r.inc OPERATOR(pg_catalog.>) 1
                                                   THEN pg_catalog.format(', INCREMENT %s: the value plus %s', r.inc, r.inc OPERATOR(pg_catalog.-) 1)
                                                   ELSE '' END) END;
        END IF;
    END LOOP;

    -- The ticket sequences: the next ticket must be above every value stored
    -- in a column that draws from it (a default that calls it, or calls
    -- uid_ticket_next() with its name), above the floor given, and keep its
    -- node's residue: congruent to its START modulo its INCREMENT.  Any role
    -- may write a default that names a ticket and store what it likes in
    -- that column without ever drawing from it: a column whose table's owner
    -- may not draw from the sequence is left alone (not locked, not read),
    -- as uid_adopt() leaves it.  A stored value that would move the
    -- sequence more than ticket_ahead draws past its next ticket (or the
    -- floor given) is refused, and so is one no ticket of the series can be
    -- above.
    FOR t IN
        SELECT c.oid::pg_catalog.regclass AS seq, c.relname AS name,
               s.seqstart, s.seqincrement, s.seqmax
        FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
        JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) c.oid
        WHERE n.nspname OPERATOR(pg_catalog.=) 'uid_ticket' AND c.relkind OPERATOR(pg_catalog.=) 'S'
        ORDER BY c.relname
    LOOP
        IF NOT pg_catalog.has_sequence_privilege(t.seq, 'SELECT')
           OR (NOT dry_run AND NOT pg_catalog.has_sequence_privilege(t.seq, 'UPDATE')) THEN
            RAISE EXCEPTION 'permission denied for ticket sequence %', t.seq
                USING ERRCODE = '42501',
                      HINT = 'uid_catch_up() reads every ticket sequence and moves it with setval(): run it as a role with SELECT and UPDATE on each (a superuser).';
        END IF;
        col_max := NULL;
        col_where := NULL;
        FOR r IN
            SELECT u.rel, u.attname, u.may_draw, coalesce(nullif(ty.typbasetype, 0), ty.oid) AS typ
            FROM (
            SELECT su.tbl AS rel, su.col AS attname, su.may_draw
            FROM @extschema@.uid_sequence_users(t.seq) AS su
            UNION
            SELECT x.rel, x.attname, @extschema@.uid_sequence_may_draw(x.rel, t.seq)
            FROM ROWS FROM (pg_catalog.unnest(call_rel), pg_catalog.unnest(call_col),
                            pg_catalog.unnest(call_expr)) AS x(rel, attname, expr)
            WHERE pg_catalog.strpos(x.expr, pg_catalog.format('uid_ticket_next(%L::text)', t.name))
                  OPERATOR(pg_catalog.>) 0
            ) AS u
            JOIN pg_catalog.pg_attribute a
              ON a.attrelid OPERATOR(pg_catalog.=) u.rel AND a.attname OPERATOR(pg_catalog.=) u.attname
            JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) a.atttypid
            ORDER BY 1, 2
        LOOP
            IF NOT r.may_draw THEN
                RAISE WARNING 'column %.% is left alone: it draws from ticket sequence %, but its table''s owner may not', r.rel, r.attname, t.seq
                    USING HINT = pg_catalog.format('If its values are tickets of %s, grant USAGE on the sequence to the table''s owner, or pass the greatest in ticket_floors: ''{"%s": ...}''.', t.seq, t.name);
                RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, NULL::text,
                                    pg_catalog.format('left alone: its table''s owner may not draw from %s', t.seq);
                CONTINUE;
            END IF;
            PERFORM @extschema@.uid_catch_up_lock(r.rel, r.attname, dry_run);
            IF r.typ OPERATOR(pg_catalog.<>) ALL (integers) THEN
                RAISE WARNING 'column % of table % is not an integer column: not read', r.attname, r.rel
                    USING HINT = pg_catalog.format('Pass the greatest ticket it holds in ticket_floors: ''{"%s": ...}''.', t.name);
                RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, NULL::text,
                                    'not read: not an integer column'::text;
                CONTINUE;
            END IF;
            target := @extschema@.uid_stored_max(r.rel, r.attname);
            IF target IS NOT NULL AND (col_max IS NULL OR target OPERATOR(pg_catalog.>) col_max) THEN
                col_max := target;
                col_where := pg_catalog.format('in %s.%I', r.rel, r.attname);
            END IF;
            RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, target::text, reading;
        END LOOP;

        EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', t.seq) INTO seq_last, seq_called;
        cur_next := CASE WHEN seq_called THEN seq_last::numeric OPERATOR(pg_catalog.+) t.seqincrement
                         ELSE seq_last END;
        -- the smallest ticket of the series above the stored values, and
        -- above the floor; the stored values are measured from the
        -- sequence's next ticket, or the floor's if higher
        target := CASE WHEN col_max IS NULL OR col_max OPERATOR(pg_catalog.<) t.seqstart THEN t.seqstart
                       ELSE t.seqstart OPERATOR(pg_catalog.+)
                            ((pg_catalog.div(col_max OPERATOR(pg_catalog.-) t.seqstart, t.seqincrement)
                              OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) t.seqincrement) END;
        floor_next := NULL;
        IF floors OPERATOR(pg_catalog.?) t.name THEN
            floor_v := (floors OPERATOR(pg_catalog.->>) t.name)::numeric::bigint;
            floor_next := CASE WHEN floor_v OPERATOR(pg_catalog.<) t.seqstart THEN t.seqstart
                               ELSE t.seqstart OPERATOR(pg_catalog.+)
                                    ((pg_catalog.div(floor_v::numeric OPERATOR(pg_catalog.-) t.seqstart, t.seqincrement)
                                      OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) t.seqincrement) END;
            IF col_max IS NULL OR floor_v OPERATOR(pg_catalog.>) col_max THEN
                col_max := floor_v;
                col_where := 'the floor given';
                target := floor_next;
            END IF;
        END IF;
        base := GREATEST(cur_next, floor_next);
        plan_seq := plan_seq OPERATOR(pg_catalog.||) t.seq;
        plan_max := plan_max OPERATOR(pg_catalog.||) col_max::text;
        IF target OPERATOR(pg_catalog.<=) cur_next THEN
            plan_val := plan_val OPERATOR(pg_catalog.||) NULL::bigint;
            plan_called := plan_called OPERATOR(pg_catalog.||) NULL::boolean;
            -- a sequence that has handed out its last ticket has no next one
            plan_row := plan_row OPERATOR(pg_catalog.||)
                        CASE WHEN cur_next OPERATOR(pg_catalog.>) t.seqmax
                             THEN pg_catalog.format('already past: no ticket left (its last draw was %s)', seq_last)
                             ELSE pg_catalog.format('already past: next ticket %s', cur_next) END;
            CONTINUE;
        END IF;
        -- (every number printed is a value of the column, the floor, or the
        -- sequence's bounds: all within bigint)
        IF target OPERATOR(pg_catalog.>) t.seqmax THEN
            RAISE EXCEPTION 'ticket sequence % cannot move past % (%): its last ticket is %', t.seq, col_max, col_where, t.seqmax
                USING ERRCODE = '2200H',
                      DETAIL = 'Nothing was changed.',
                      HINT = 'Check the stored values and the floor given; create a new ticket for the column if they are right.';
        END IF;
        draws := pg_catalog.div(target OPERATOR(pg_catalog.-) base, t.seqincrement);
        IF draws OPERATOR(pg_catalog.>) ticket_ahead THEN
            RAISE EXCEPTION 'a stored ticket, % %, would move ticket sequence % % draws past %',
                            col_max, col_where, t.seq, draws,
                            pg_catalog.format(CASE WHEN base OPERATOR(pg_catalog.>) cur_next
                                                   THEN 'the ticket its floor asks for (%s)'
                                                   ELSE 'its next ticket (%s)' END, base)
                USING ERRCODE = 'UID05',
                      DETAIL = pg_catalog.format('uid_catch_up() moves a ticket sequence at most ticket_ahead (%s) draws past its next ticket (or the floor given): nothing was changed.', ticket_ahead),
                      HINT = pg_catalog.format('If the value is right (the old server handed out that many tickets), run uid_catch_up() again with ticket_ahead => %s; if not, correct or remove the row.', draws);
        END IF;
        -- setval(seq, target - increment, true) where that is a value of the
        -- series, so that uid_tickets shows the last ticket handed out
        plan_called := plan_called OPERATOR(pg_catalog.||) (target OPERATOR(pg_catalog.>) t.seqstart);
        plan_val := plan_val OPERATOR(pg_catalog.||)
                    (CASE WHEN target OPERATOR(pg_catalog.>) t.seqstart
                          THEN target OPERATOR(pg_catalog.-) t.seqincrement ELSE target END)::bigint;
        plan_row := plan_row OPERATOR(pg_catalog.||)
                    (CASE WHEN dry_run THEN 'would set: ' ELSE 'set: ' END
                     OPERATOR(pg_catalog.||) pg_catalog.format('next ticket %s', target));
    END LOOP;

    -- Every limit, before anything changes.
    IF uid_max IS NOT NULL AND uid_max OPERATOR(pg_catalog.<) 0 THEN
        uid_max := NULL;
    END IF;
    -- A value ahead of the clock would hold the generator up until the clock
    -- gets there (uid_next() refuses with UID01 meanwhile): a value planted
    -- by any role that may write to such a table would stop every
    -- database's IDs.  Refused unless allow_ahead covers it.
    FOR f IN
        SELECT x.what, x.val, x.at, x.mover, x.src,
               pg_catalog.round((pg_catalog.date_part('epoch', x.at OPERATOR(pg_catalog.-) pg_catalog.clock_timestamp())
                                 OPERATOR(pg_catalog.*) 1000)::pg_catalog.numeric) AS ms
        FROM (VALUES ('uid', uid_max::text, @extschema@.uid_time(uid_max), 'uid_advance_past() moves uid_next()', uid_where),
                     ('UUID', uuid_max::text, @extschema@.uuid7_time(uuid_max), 'uuid7_advance_past() moves uuid7()', uuid_where))
             AS x(what, val, at, mover, src)
        WHERE x.at OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) ahead_ok)
    LOOP
        IF f.at OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) '1 day'::interval) THEN
            RAISE EXCEPTION 'a stored %, % in %, carries the time %, more than a day ahead of this server''s clock',
                            f.what, f.val, f.src, f.at
                USING ERRCODE = 'UID05',
                      DETAIL = f.mover OPERATOR(pg_catalog.||) ' at most a day past the clock; nothing was changed.',
                      HINT = pg_catalog.format('Check the value and this server''s clock; uid_catch_up() can move past it once the clock is past %s (see "Moving the writes: uid_catch_up()" in docs/operations.md).',
                                               f.at OPERATOR(pg_catalog.-) '1 day'::interval);
        END IF;
        RAISE EXCEPTION 'a stored %, % in %, carries the time %, % ms ahead of this server''s clock',
                        f.what, f.val, f.src, f.at, f.ms
            USING ERRCODE = 'UID05',
                  DETAIL = pg_catalog.format('Moving past it would hold %s up for %s ms: nothing was changed.',
                                             CASE f.what WHEN 'uid' THEN 'uid_next() (refusing with UID01)' ELSE 'uuid7()' END, f.ms),
                  HINT = 'If the value is right (the old server''s clock runs ahead of this one''s), run uid_catch_up() again with allow_ahead => an interval that covers it; if not, correct or remove the row.';
    END LOOP;
    IF NOT dry_run AND (
        (uid_max IS NOT NULL AND NOT pg_catalog.has_function_privilege('@extschema@.uid_advance_past(bigint)'::pg_catalog.regprocedure, 'EXECUTE'))
        OR (uuid_max IS NOT NULL AND NOT pg_catalog.has_function_privilege('@extschema@.uuid7_advance_past(uuid)'::pg_catalog.regprocedure, 'EXECUTE'))) THEN
        RAISE EXCEPTION 'permission denied for function uid_advance_past or uuid7_advance_past'
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() moves the generators with them: grant EXECUTE on both to the role that runs it, or run it as a superuser.';
    END IF;

    -- The changes: the generators (not transactional, so first: a failure
    -- of the first leaves everything as it was), then the sequences.
    IF uid_max IS NULL THEN
        RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, NULL::text,
                            'nothing stored: no change'::text;
    ELSE
        IF @extschema@.uid_time(uid_max) OPERATOR(pg_catalog.>) pg_catalog.clock_timestamp() THEN
            ready := pg_catalog.format('; the clock is behind it: uid_next() waits or refuses (UID01) until %s',
                                       @extschema@.uid_time(uid_max) OPERATOR(pg_catalog.+) '1 ms'::interval);
        ELSE
            ready := '';
        END IF;
        IF dry_run THEN
            RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, uid_max::text,
                                'would advance past it (unless already past)' OPERATOR(pg_catalog.||) ready;
        ELSE
            moved := @extschema@.uid_advance_past(uid_max);
            RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, uid_max::text,
                                CASE WHEN moved THEN 'advanced past it' OPERATOR(pg_catalog.||) ready
                                     ELSE 'already past: no change' END;
        END IF;
    END IF;
    IF uuid_max IS NULL THEN
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, NULL::text,
                            'nothing stored: no change'::text;
    ELSIF dry_run THEN
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, uuid_max::text,
                            'would advance past it (unless already past)'::text;
    ELSE
        moved := @extschema@.uuid7_advance_past(uuid_max);
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, uuid_max::text,
                            CASE WHEN moved THEN 'advanced past it' ELSE 'already past: no change' END;
    END IF;
    FOR i IN 1 .. pg_catalog.cardinality(plan_seq) LOOP
        IF NOT dry_run AND plan_val[i] IS NOT NULL THEN
            PERFORM pg_catalog.setval(plan_seq[i], plan_val[i], plan_called[i]);
        END IF;
        RETURN QUERY SELECT 'ticket'::text, plan_seq[i]::text, NULL::name, plan_max[i], plan_row[i];
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) IS
'Run on a server before its first write when it takes over another''s writes: moves uid_next() and uuid7() past every value stored in columns that use them (or an adopted sequence), and each ticket sequence past the values of the columns that draw from it (those of a table whose owner may not draw from it are left alone) and the floor given in ticket_floors, keeping its residue; one row per column read or left alone and per action. Each table is read as its owner (security-restricted). A stored value ahead of this server''s clock by more than allow_ahead (and uid.clock_max_wait_ms), or a stored ticket that would move its sequence more than ticket_ahead draws, is refused with UID05. dry_run: read and report only. Superuser only unless granted.';

REVOKE ALL ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) FROM PUBLIC;
-- ---------------------------------------------------------------------------
-- uid's functions of an id, for the uid type (docs/security.md)
-- ---------------------------------------------------------------------------

-- uid_to_text(id) on a uid column would otherwise reach uid_to_text(bigint)
-- through the cast, and lose to any uid_to_text(uid) another role planted in
-- a schema of the caller's search path (public, or a schema named after the
-- caller).  These are the exact matches, in pg_catalog, which is searched
-- first: the same C functions as the bigint forms, with the same
-- privileges.  uid_time(uid) and uid_decode(uid) carry the time-filter
-- support, as their bigint forms do.  Because uid is the preferred type of
-- its category, uid_mask(123) and uid_mask($1) pick the uid form too: the
-- uid forms of the four functions whose EXECUTE is granted, not given to
-- everyone (uid_mask, uid_unmask, uid_whence, uid_advance_past), are
-- executable by everyone and check the caller's EXECUTE on the bigint form
-- (src/id_type_functions.c), so that one grant or revoke decides both.

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

CREATE FUNCTION pg_catalog.uid_to_text(id @extschema@.uid)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_to_text(id @extschema@.uid, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_mask(id @extschema@.uid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_mask_uid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_unmask(masked @extschema@.uid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_unmask_uid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_mask(id @extschema@.uid, key bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_mask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_unmask(masked @extschema@.uid, key bytea)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_unmask_with_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_whence(id @extschema@.uid,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_whence_uid'
LANGUAGE C VOLATILE STRICT;

CREATE FUNCTION pg_catalog.uid_advance_past(id @extschema@.uid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_advance_past_uid'
LANGUAGE C VOLATILE STRICT;
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
-- restored.  The owner of a database owns public (15 on), so a role that
-- cannot read the data could still keep it out of every restore.  This
-- event trigger refuses such a function when it is created, renamed or
-- moved into uid's schema (42723): any function there under a name of one
-- of uid's functions that is not uid's own (a member of the extension, as
-- every function its scripts create, CREATE OR REPLACE of ALTER EXTENSION
-- UPDATE included, already is when the trigger fires).  A dump taken
-- before it existed restores its tables: the restore's CREATE FUNCTION of
-- the planted function is the statement that fails.  It runs as the role
-- whose command fired it and only reads the catalog.

CREATE FUNCTION uid_guard_names()
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
    FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    FOR cmd IN SELECT c.objid FROM pg_catalog.pg_event_trigger_ddl_commands() c
               WHERE c.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass LOOP
        SELECT p.proname, p.pronamespace INTO fn
        FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) cmd.objid;
        CONTINUE WHEN NOT FOUND OR fn.pronamespace OPERATOR(pg_catalog.<>) ext_schema;
        -- uid's own
        CONTINUE WHEN EXISTS (
            SELECT FROM pg_catalog.pg_depend d
            WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
              AND d.objid OPERATOR(pg_catalog.=) cmd.objid
              AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
              AND d.refobjid OPERATOR(pg_catalog.=) ext
              AND d.deptype OPERATOR(pg_catalog.=) 'e');
        IF EXISTS (
            SELECT FROM pg_catalog.pg_proc p
            JOIN pg_catalog.pg_depend d
              ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND d.objid OPERATOR(pg_catalog.=) p.oid
             AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND d.refobjid OPERATOR(pg_catalog.=) ext
             AND d.deptype OPERATOR(pg_catalog.=) 'e'
            WHERE p.proname OPERATOR(pg_catalog.=) fn.proname
              AND p.pronamespace OPERATOR(pg_catalog.=) ext_schema) THEN
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

CREATE EVENT TRIGGER uid_guard_names ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE',
                 'ALTER ROUTINE', 'CREATE AGGREGATE', 'ALTER AGGREGATE')
    EXECUTE FUNCTION uid_guard_names();
