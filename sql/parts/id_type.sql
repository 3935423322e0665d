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
