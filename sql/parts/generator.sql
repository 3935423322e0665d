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

CREATE FUNCTION uid_advance_past(id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_advance_past'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION uid_advance_past(bigint) IS
'Every later uid_next() of this server is greater than id (durably): for data restored from another server. True if the generator moved. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_advance_past(bigint) FROM PUBLIC;
