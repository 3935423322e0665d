-- ---------------------------------------------------------------------------
-- uid_raise() (src/core/raise.c): the errors of uid's own PL/pgSQL functions
-- (tickets, counters) without PL/pgSQL's CONTEXT lines, which name uid's
-- inside and nothing the caller wrote, declared once in the extension's
-- schema and once in each of the schemas uid_counter and uid_ticket
-- (sql/parts/counter_schema.sql, ticket_tables.sql, which come first).
-- Also run by the upgrade from 1.3.
-- ---------------------------------------------------------------------------

-- Every call passes four arguments of type text (NULL::text for none): an
-- exact match, so that no function another role creates under this name in
-- the extension's schema (one of fewer arguments, or of other types) is
-- picked instead.  uid's own functions raise through the same C function
-- declared in their own schemas, uid_counter._raise() and
-- uid_ticket._raise() (below), and call nothing in the extension's schema by
-- name: one function of this name created there before uid had it, with a
-- fifth argument that has a default, makes every call by name ambiguous.
CREATE OR REPLACE FUNCTION uid_raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_raise(text, text, text, text) IS
'Raises an ERROR with this SQLSTATE, message, detail and hint (NULL: none) and no CONTEXT lines; an EXCEPTION block catches it as a RAISE. What uid''s own PL/pgSQL functions raise their errors with.';

-- uid_raise() (src/core/raise.c) for the counter functions: the same C
-- function, declared in uid_counter, where only the extension's owner may
-- create functions.  The counter functions that run as the extension's
-- owner (SECURITY DEFINER) and the checks they call raise their errors
-- through it and call nothing in the extension's schema by name: the
-- owner of that schema (for public, the database owner) may create
-- functions there, and one of uid_raise()'s name created before uid had
-- one (uid_guard_names refuses it after) is a candidate of every call by
-- that name: had it won, it would run with the owner's rights.  A second
-- entry of the C function is the simplest way there: PL/pgSQL calls a function only by
-- name (one found by OID, as _next_entry() finds uid_counter_next(), would
-- still be called through SQL that names it), and a PL/pgSQL RAISE would
-- add CONTEXT lines that uid_raise() leaves out.
CREATE OR REPLACE FUNCTION uid_counter._raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._raise(text, text, text, text) IS
'uid_raise() in uid_counter: what the counter functions raise their errors with, so that the ones that run as the extension''s owner call nothing in the extension''s schema by name.';

REVOKE ALL ON FUNCTION uid_counter._raise(text, text, text, text) FROM PUBLIC;

-- uid_raise() (src/core/raise.c) for the ticket functions: the same C
-- function, declared in uid_ticket, so that they call nothing in the
-- extension's schema by name.  Whoever may create there (the owner of
-- public, or every role on clusters upgraded from 14 or older) could, before
-- uid had the name uid_raise (CREATE EXTENSION, or the update to 1.4, which
-- adds it), create a uid_raise(text, text, text, text, integer DEFAULT 0),
-- with which every call of uid_raise() by name is ambiguous (42725) and
-- every ticket refusal would have lost its SQLSTATE and message.  Only the
-- extension's owner and the ticket administrators it grants CREATE on
-- uid_ticket create functions in uid_ticket.  The ticket functions run as
-- their caller: EXECUTE stays PUBLIC's, as uid_raise()'s.
CREATE OR REPLACE FUNCTION uid_ticket._raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_ticket._raise(text, text, text, text) IS
'uid_raise() in uid_ticket: what the ticket functions raise their errors with, so that they call nothing in the extension''s schema by name.';
