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
-- (src/core/catalog.c), so that one grant or revoke decides both.
--
-- Each uid form is declared in the part of its C function, beside its
-- bigint form: uid_decode(uid) and uid_time(uid) in layout.sql,
-- uid_to_text(uid) in text_forms.sql, uid_to_text(uid, text) in typeid.sql,
-- uid_mask(uid) and uid_unmask(uid), with and without a key, in mask.sql,
-- uid_whence(uid) in tenure.sql; here uid_advance_past(uid), whose C is
-- beside generator.c's uid_advance_past(bigint).

CREATE FUNCTION pg_catalog.uid_advance_past(id @extschema@.uid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_advance_past_uid'
LANGUAGE C VOLATILE STRICT;
