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

-- The uid form (docs/security.md; sql/parts/advance_past_uid.sql says why
-- uid's functions of an id have one, in pg_catalog): the same C function.
CREATE FUNCTION pg_catalog.uid_to_text(id @extschema@.uid, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_to_text_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
