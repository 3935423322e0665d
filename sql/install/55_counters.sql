
-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: gap-free numbers per (tenant, prefix), printed as
-- PREFIX-000123.
--
-- uid_counter.counters holds one row per (prefix, tenant) with the last
-- number issued; uid_counter_next() advances it with one INSERT ... ON
-- CONFLICT DO UPDATE ... RETURNING, so callers of one key queue on that row
-- (and a rolled-back call gives its number back), while callers of other
-- keys never wait.  Settings (start, width) are read on every call, tenant
-- row first, then the prefix's global row (tenant ''), then the defaults
-- (start 1, width 3), field by field, so a change applies to the next call.
--
-- Ranges: a tenant may own a range [lo, hi] of a prefix.  While a prefix has
-- any range, only tenants with a range may draw from it, every number lies in
-- its tenant's range, and no range may overlap another tenant's range or the
-- numbers another tenant already issued: so no two tenants ever print the
-- same ID of that prefix.  The database enforces "no overlap" without
-- btree_gist: each range is stored as a numrange in one shared number line,
--   code(prefix) * 2^63 + [lo, hi]
-- where code() is an exact (collision-free) base-38 encoding of the prefix,
-- under an EXCLUDE USING gist (span WITH &&) constraint.
--
-- Locking: uid_counter_next() takes ROW SHARE on uid_counter.ranges before it
-- reads the ranges; changing ranges takes EXCLUSIVE on it, so a range change
-- waits for counter calls in flight and the calls after it see the change.
-- Under REPEATABLE READ or SERIALIZABLE a counter call whose snapshot is
-- older than a range change fails with 40001 (it locks the row
-- uid_counter.range_epoch, which every range change updates) rather than
-- use stale ranges.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_counter;

COMMENT ON SCHEMA uid_counter IS
'State of the tenant-scoped counters (uid_counter_next and friends).';

-- The exact code of a prefix: its characters as base-38 digits 1..37, padded
-- with 0 to 16 digits.  Distinct valid prefixes have distinct codes.
CREATE FUNCTION uid_counter._prefix_code(prefix text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    code numeric := 0;
    d    integer;
BEGIN
    FOR i IN 1..16 LOOP
        d := 0;
        IF i OPERATOR(pg_catalog.<=) pg_catalog.length($1) THEN
            d := pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
                                   pg_catalog.substr($1, i, 1));
            IF d OPERATOR(pg_catalog.=) 0 THEN
                RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
                    USING ERRCODE = '22023';
            END IF;
        END IF;
        code := code OPERATOR(pg_catalog.*) 38 OPERATOR(pg_catalog.+) d;
    END LOOP;
    RETURN code;
END
$$;

COMMENT ON FUNCTION uid_counter._prefix_code(text) IS
'Exact base-38 code of a counter prefix; places each prefix''s ranges in its own window of one number line.';

CREATE FUNCTION uid_counter._span(prefix text, lo bigint, hi bigint)
RETURNS numrange
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.numrange(
    uid_counter._prefix_code($1) OPERATOR(pg_catalog.*) 9223372036854775808::numeric
        OPERATOR(pg_catalog.+) $2,
    uid_counter._prefix_code($1) OPERATOR(pg_catalog.*) 9223372036854775808::numeric
        OPERATOR(pg_catalog.+) $3,
    '[]')
$$;

COMMENT ON FUNCTION uid_counter._span(text, bigint, bigint) IS
'The range [lo, hi] of a prefix on the shared number line used by the exclusion constraint.';

CREATE TABLE uid_counter.settings (
    prefix  text NOT NULL CHECK (prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    tenant  text NOT NULL DEFAULT '',       -- '' = the prefix's global setting
    start   bigint CHECK (start BETWEEN 0 AND 9223372036854775806),
    width   integer CHECK (width BETWEEN 1 AND 19),
    PRIMARY KEY (prefix, tenant)
);

COMMENT ON TABLE uid_counter.settings IS
'Counter settings per (prefix, tenant); tenant '''' is the prefix''s global row; NULL fields fall back.';

CREATE TABLE uid_counter.ranges (
    prefix  text NOT NULL CHECK (prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    tenant  text NOT NULL CHECK (tenant OPERATOR(pg_catalog.<>) ''),
    lo      bigint NOT NULL CHECK (lo OPERATOR(pg_catalog.>=) 0),
    hi      bigint NOT NULL CHECK (hi OPERATOR(pg_catalog.<=) 9223372036854775806),
    span    numrange GENERATED ALWAYS AS (uid_counter._span(prefix, lo, hi)) STORED,
    PRIMARY KEY (prefix, tenant),
    CHECK (lo OPERATOR(pg_catalog.<=) hi),
    CONSTRAINT ranges_do_not_overlap EXCLUDE USING gist (span WITH &&)
);

COMMENT ON TABLE uid_counter.ranges IS
'Range [lo, hi] of a prefix owned by a tenant; ranges of one prefix never overlap (exclusion constraint).';

CREATE TABLE uid_counter.counters (
    prefix      text NOT NULL,
    tenant      text NOT NULL,
    first_value bigint NOT NULL,
    last_value  bigint NOT NULL,
    PRIMARY KEY (prefix, tenant),
    CHECK (first_value OPERATOR(pg_catalog.<=) last_value)
);

COMMENT ON TABLE uid_counter.counters IS
'Last number issued per (prefix, tenant); every number issued lies in [first_value, last_value].';

CREATE TABLE uid_counter.range_epoch (
    id          integer PRIMARY KEY CHECK (id OPERATOR(pg_catalog.=) 1),
    changed_at  timestamptz NOT NULL
);

COMMENT ON TABLE uid_counter.range_epoch IS
'One row, updated by every range change: a counter call in a snapshot older than the change fails (40001).';

INSERT INTO uid_counter.range_epoch VALUES (1, pg_catalog.now());

SELECT pg_catalog.pg_extension_config_dump('uid_counter.settings', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.ranges', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.counters', '');

-- Argument checks shared by the counter functions.
CREATE FUNCTION uid_counter._check_prefix(prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF $1 IS NULL THEN
        RAISE EXCEPTION 'counter prefix must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF $1 OPERATOR(pg_catalog.!~) '^[A-Z][A-Z0-9_]{0,15}$' THEN
        RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
            USING ERRCODE = '22023',
                  HINT = 'A prefix is 1 to 16 characters: an upper-case letter, then upper-case letters, digits or "_".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_prefix(text) IS
'Raises 22004 for NULL and 22023 for an invalid counter prefix.';

CREATE FUNCTION uid_counter._check_tenant(tenant text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF $1 IS NULL THEN
        RAISE EXCEPTION 'counter tenant must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF $1 OPERATOR(pg_catalog.!~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid counter tenant: %', pg_catalog.quote_literal($1)
            USING ERRCODE = '22023',
                  HINT = 'A tenant is 1 to 63 characters: a letter or digit, then letters, digits or "_", ".", ":", "@", "-".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_tenant(text) IS
'Raises 22004 for NULL and 22023 for an invalid tenant.';

CREATE FUNCTION uid_counter_format(prefix text, number bigint, width integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT $1 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
       CASE WHEN pg_catalog.length($2::text) OPERATOR(pg_catalog.>=) $3 THEN $2::text
            ELSE pg_catalog.lpad($2::text, $3, '0') END
$$;

COMMENT ON FUNCTION uid_counter_format(text, bigint, integer) IS
'PREFIX-number, the number zero-padded to width digits; a wider number is printed whole, never cut.';

CREATE FUNCTION uid_counter_next(tenant text, prefix text)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    v_start  bigint;
    v_width  integer;
    r_lo     bigint;
    r_hi     bigint;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);

    -- ranges may not change under us (see the header of this part)
    LOCK TABLE uid_counter.ranges IN ROW SHARE MODE;
    IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed' THEN
        PERFORM 1 FROM uid_counter.range_epoch FOR SHARE;
    END IF;

    SELECT coalesce(t.start, g.start, 1), coalesce(t.width, g.width, 3)
      INTO v_start, v_width
      FROM (SELECT 1) AS one
      LEFT JOIN uid_counter.settings t
             ON t.prefix OPERATOR(pg_catalog.=) c_prefix
            AND t.tenant OPERATOR(pg_catalog.=) c_tenant
      LEFT JOIN uid_counter.settings g
             ON g.prefix OPERATOR(pg_catalog.=) c_prefix
            AND g.tenant OPERATOR(pg_catalog.=) '';

    SELECT r.lo, r.hi INTO r_lo, r_hi
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix
       AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM uid_counter.ranges r
                   WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix) THEN
            RAISE EXCEPTION 'tenant % has no range of counter prefix %',
                    pg_catalog.quote_literal(c_tenant), c_prefix
                USING ERRCODE = '55000',
                      DETAIL = 'Other tenants own ranges of this prefix, so every tenant drawing from it needs one.',
                      HINT = 'Give the tenant a range with uid_counter_set_range().';
        END IF;
        r_lo := 0;
        r_hi := 9223372036854775806;
    END IF;

    v_start := greatest(v_start, r_lo);
    IF v_start OPERATOR(pg_catalog.>) r_hi THEN
        RAISE EXCEPTION 'counter %/% cannot start at % beyond the end of its range %',
                c_prefix, c_tenant, v_start, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Lower the start with uid_counter_configure() or widen the range with uid_counter_set_range().';
    END IF;

    INSERT INTO uid_counter.counters AS c (prefix, tenant, first_value, last_value)
    VALUES (c_prefix, c_tenant, v_start, v_start)
    ON CONFLICT ON CONSTRAINT counters_pkey DO UPDATE
        SET last_value = greatest(c.last_value OPERATOR(pg_catalog.+) 1, excluded.last_value)
    RETURNING c.last_value INTO v;

    IF v OPERATOR(pg_catalog.>) r_hi THEN
        -- the error undoes the update: nothing is used up
        RAISE EXCEPTION 'counter %/% reached the end of its range (%)', c_prefix, c_tenant, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Widen the tenant''s range with uid_counter_set_range().';
    END IF;

    RETURN @extschema@.uid_counter_format(c_prefix, v, v_width);
END
$$;

COMMENT ON FUNCTION uid_counter_next(text, text) IS
'The next number of the (tenant, prefix) counter, formatted as PREFIX-000123; transactional and gap-free (a rollback gives the number back).';

CREATE FUNCTION uid_counter_configure(prefix text, tenant text DEFAULT NULL,
                                      start bigint DEFAULT NULL, width integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_prefix ALIAS FOR $1;
    c_tenant ALIAS FOR $2;
    c_start  ALIAS FOR $3;
    c_width  ALIAS FOR $4;
BEGIN
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_tenant IS NOT NULL THEN
        PERFORM uid_counter._check_tenant(c_tenant);
    END IF;
    IF c_start OPERATOR(pg_catalog.<) 0 OR c_start OPERATOR(pg_catalog.>) 9223372036854775806 THEN
        RAISE EXCEPTION 'invalid counter start: %', c_start
            USING ERRCODE = '22023',
                  HINT = 'start is the first number issued, 0 to 9223372036854775806; NULL falls back.';
    END IF;
    IF c_width OPERATOR(pg_catalog.<) 1 OR c_width OPERATOR(pg_catalog.>) 19 THEN
        RAISE EXCEPTION 'invalid counter width: %', c_width
            USING ERRCODE = '22023',
                  HINT = 'width is the number of digits numbers are zero-padded to, 1 to 19; NULL falls back.';
    END IF;

    IF c_start IS NULL AND c_width IS NULL THEN
        DELETE FROM uid_counter.settings s
         WHERE s.prefix = c_prefix AND s.tenant = coalesce(c_tenant, '');
    ELSE
        INSERT INTO uid_counter.settings AS s (prefix, tenant, start, width)
        VALUES (c_prefix, coalesce(c_tenant, ''), c_start, c_width)
        ON CONFLICT ON CONSTRAINT settings_pkey DO UPDATE
            SET start = excluded.start, width = excluded.width;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter_configure(text, text, bigint, integer) IS
'Sets start and width of a prefix for one tenant (or, tenant NULL, for all); NULL fields fall back to the global row, then to start 1, width 3; both NULL removes the row.';

CREATE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_lo     ALIAS FOR $3;
    c_hi     ALIAS FOR $4;
    other    record;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo < 0 OR c_hi > 9223372036854775806 OR c_lo > c_hi THEN
        RAISE EXCEPTION 'invalid counter range: [%, %]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'A range is lo <= hi, both between 0 and 9223372036854775806.';
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'counter ranges can only be changed in a READ COMMITTED transaction'
            USING ERRCODE = '25000',
                  HINT = 'The checks must see every number issued so far; run the call at the default isolation level.';
    END IF;

    -- waits for counter calls in flight; new ones wait for our commit
    LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant = c_tenant;
    IF FOUND AND (other.first_value < c_lo OR other.last_value > c_hi) THEN
        RAISE EXCEPTION 'range [%, %] does not contain the numbers tenant % already issued of prefix %',
                c_lo, c_hi, quote_literal(c_tenant), c_prefix
            USING ERRCODE = '22023',
                  DETAIL = format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
                  HINT = 'Choose a range that contains them.';
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant <> c_tenant
       AND c.first_value <= c_hi AND c.last_value >= c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps numbers tenant % already issued',
                c_lo, c_hi, c_prefix, quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = format('Tenant %s issued numbers between %s and %s.',
                                  quote_literal(other.tenant), other.first_value, other.last_value),
                  HINT = 'Choose a range that avoids them.';
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix AND r.tenant <> c_tenant
       AND r.lo <= c_hi AND r.hi >= c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps the range of tenant %',
                c_lo, c_hi, c_prefix, quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = format('Tenant %s owns [%s, %s].', quote_literal(other.tenant), other.lo, other.hi),
                  HINT = 'Choose a range that avoids it.';
    END IF;

    -- the exclusion constraint enforces the same rule for any other writer
    INSERT INTO uid_counter.ranges AS r (prefix, tenant, lo, hi)
    VALUES (c_prefix, c_tenant, c_lo, c_hi)
    ON CONFLICT ON CONSTRAINT ranges_pkey DO UPDATE SET lo = excluded.lo, hi = excluded.hi;

    UPDATE uid_counter.range_epoch SET changed_at = now();
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) IS
'Gives a tenant the range [lo, hi] of a prefix (replacing its range); refused if it overlaps another tenant''s range or issued numbers, or leaves out numbers the tenant issued.';

CREATE FUNCTION uid_counter_unset_range(tenant text, prefix text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'counter ranges can only be changed in a READ COMMITTED transaction'
            USING ERRCODE = '25000',
                  HINT = 'Run the call at the default isolation level.';
    END IF;
    LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;
    DELETE FROM uid_counter.ranges r WHERE r.prefix = c_prefix AND r.tenant = c_tenant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tenant % has no range of counter prefix %', quote_literal(c_tenant), c_prefix
            USING ERRCODE = '42704',
                  HINT = 'The view uid_counter_settings lists the ranges.';
    END IF;
    UPDATE uid_counter.range_epoch SET changed_at = now();
END
$$;

COMMENT ON FUNCTION uid_counter_unset_range(text, text) IS
'Removes a tenant''s range of a prefix; the numbers it issued stay reserved against other tenants'' ranges.';

REVOKE EXECUTE ON FUNCTION uid_counter_configure(text, text, bigint, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_unset_range(text, text) FROM PUBLIC;

CREATE VIEW uid_counter_settings AS
SELECT coalesce(s.prefix, r.prefix) AS prefix,
       NULLIF(coalesce(s.tenant, r.tenant), '') AS tenant,
       s.start,
       s.width,
       r.lo AS range_lo,
       r.hi AS range_hi
FROM uid_counter.settings s
FULL JOIN uid_counter.ranges r
       ON r.prefix OPERATOR(pg_catalog.=) s.prefix
      AND r.tenant OPERATOR(pg_catalog.=) s.tenant;

COMMENT ON VIEW uid_counter_settings IS
'Counter settings and ranges as configured: one row per (prefix, tenant); tenant NULL is the prefix''s global row.';

CREATE VIEW uid_counters AS
SELECT c.prefix,
       c.tenant,
       c.first_value,
       c.last_value,
       uid_counter_format(c.prefix, c.last_value,
           coalesce(t.width, g.width, 3)) AS last_id
FROM uid_counter.counters c
LEFT JOIN uid_counter.settings t
       ON t.prefix OPERATOR(pg_catalog.=) c.prefix AND t.tenant OPERATOR(pg_catalog.=) c.tenant
LEFT JOIN uid_counter.settings g
       ON g.prefix OPERATOR(pg_catalog.=) c.prefix AND g.tenant OPERATOR(pg_catalog.=) '';

COMMENT ON VIEW uid_counters IS
'One row per (prefix, tenant) counter: the numbers issued so far and the last ID as printed with the current width.';
