-- ---------------------------------------------------------------------------
-- The uid type: a 64-bit id that JSON carries as a string (docs/exposing-ids.md)
-- ---------------------------------------------------------------------------

-- bigint's own representation, I/O and operators.  PostgreSQL's JSON
-- functions print their own numeric types as JSON numbers and every other
-- type through its output function, as a JSON string: that is the whole
-- difference from bigint.  The I/O functions hand their calls to bigint's
-- (src/forms/id_type.c says why they are entry points of the library and not
-- LANGUAGE internal), and read bigint's whole range, negative values included:
-- the casts below store them unchecked, and what a column holds must come back
-- from a dump, COPY and logical replication.  The
-- comparison operators are the type's own (below), so that no
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

-- The casts.  To bigint: implicit and free, so every bigint operator,
-- operator class and function applies to the type (an index on a uid
-- column is a bigint index: int8_ops, the default through this cast).
-- From bigint: on assignment and free (DEFAULT uid_next(), an int8
-- parameter); an expression that computes on ids stays bigint until it is
-- stored.  From integer and smallint: implicit, as to bigint, so that
-- literals and COALESCE(id, 0) keep the type.  No cast from numeric: it
-- would round 1.5 to an id.  None checks the sign: a check would make the
-- cast from bigint a function, and ALTER COLUMN TYPE uid from bigint would
-- rewrite the table; a column that must refuse negative values says so
-- (CHECK (id >= 0)).  The type's comment: id_type_comment.sql.

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
-- The uid type's own comparison operators (src/forms/id_type.c)
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
-- library (src/forms/id_type.c says why not LANGUAGE internal) in the extension's
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

-- (sql/parts/operator_families.sql)
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
