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
-- (src/forms/id_type_functions.c), so that one grant or revoke decides both.
--
-- The uid forms whose C function is the bigint form's sit beside it, in
-- that function's part: uid_decode(uid) and uid_time(uid) in layout.sql,
-- uid_to_text(uid) in text_forms.sql, uid_to_text(uid, text) in typeid.sql,
-- uid_mask(uid, bytea) and uid_unmask(uid, bytea) in mask.sql.  Here: the
-- four of src/forms/id_type_functions.c.

CREATE FUNCTION pg_catalog.uid_mask(id @extschema@.uid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_mask_uid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION pg_catalog.uid_unmask(masked @extschema@.uid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_unmask_uid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

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
