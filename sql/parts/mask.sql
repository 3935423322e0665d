-- ---------------------------------------------------------------------------
-- IDs that leave the database: keyed masking (src/forms/mask.c, src/forms/ff1.c)
-- ---------------------------------------------------------------------------

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

-- The uid forms (docs/security.md; sql/parts/advance_past_uid.sql says why
-- uid's functions of an id have one, in pg_catalog): with a key, the same C
-- function; without, a wrapper that checks EXECUTE on the bigint form.
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
