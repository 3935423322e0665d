-- ---------------------------------------------------------------------------
-- uid_raise() (src/core/raise.c): the errors of uid's own PL/pgSQL functions
-- (tickets, counters) without PL/pgSQL's CONTEXT lines, which name uid's
-- inside and nothing the caller wrote.  Also run by the upgrade from 1.3.
-- ---------------------------------------------------------------------------

-- Every call passes four arguments of type text (NULL::text for none): an
-- exact match, so that no function another role creates under this name in
-- the extension's schema (one of fewer arguments, or of other types) is
-- picked instead.  uid's own functions raise through the same C function
-- declared in their own schemas, uid_counter._raise() and
-- uid_ticket._raise() (sql/parts/counter_functions.sql,
-- ticket_functions.sql), and call nothing in the extension's schema by
-- name: one function of this name created there before uid had it, with a
-- fifth argument that has a default, makes every call by name ambiguous.
CREATE OR REPLACE FUNCTION uid_raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_raise(text, text, text, text) IS
'Raises an ERROR with this SQLSTATE, message, detail and hint (NULL: none) and no CONTEXT lines; an EXCEPTION block catches it as a RAISE. What uid''s own PL/pgSQL functions raise their errors with.';
