-- ---------------------------------------------------------------------------
-- IDs that leave the database: text forms (src/forms/text_forms.c)
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

-- The uid form (docs/security.md; sql/parts/advance_past_uid.sql says why
-- uid's functions of an id have one, in pg_catalog): the same C function.
CREATE FUNCTION pg_catalog.uid_to_text(id @extschema@.uid)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
