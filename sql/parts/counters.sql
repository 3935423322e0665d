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
--
-- Replication: a counter is a row that each draw updates, so two servers
-- drawing from one counter while replicating it to each other hand out
-- numbers twice.  uid_counter_next() therefore refuses (UID06) on a server
-- whose uid_counter.counters receives another writer's changes (a
-- subscription lists it in pg_subscription_rel; uid_counter._replicated()),
-- unless the tenant's range belongs to this server: its node is this
-- server's uid.counter_node.  A range that belongs to another server is
-- refused everywhere else.  CREATE EXTENSION writes no row, so a
-- publication of every table copies these tables into a server that has
-- the extension too.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_counter;

COMMENT ON SCHEMA uid_counter IS
'State of the tenant-scoped counters (uid_counter_next and friends).';

-- The exact code of a prefix: its characters as base-38 digits 1..37, padded
-- with 0 to 16 digits.  Distinct valid prefixes have distinct codes.
CREATE FUNCTION uid_counter._prefix_code(prefix text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
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
SET search_path = pg_catalog, pg_temp
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
    start   bigint CHECK (start OPERATOR(pg_catalog.>=) 0
                          AND start OPERATOR(pg_catalog.<=) 9223372036854775806),
    width   integer CHECK (width OPERATOR(pg_catalog.>=) 1 AND width OPERATOR(pg_catalog.<=) 19),
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
    node    text CHECK (node OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$'),
    PRIMARY KEY (prefix, tenant),
    CHECK (lo OPERATOR(pg_catalog.<=) hi),
    -- qualified: an unqualified && would pick up an &&(numrange, numrange)
    -- planted in the extension's schema, an exact match where pg_catalog's
    -- is polymorphic
    CONSTRAINT ranges_do_not_overlap EXCLUDE USING gist (span WITH OPERATOR(pg_catalog.&&))
);

COMMENT ON TABLE uid_counter.ranges IS
'Range [lo, hi] of a prefix owned by a tenant; ranges of one prefix never overlap (exclusion constraint); node: the server (uid.counter_node) that alone draws from it.';

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
'At most one row, written by every range change (none before the first): a counter call in a snapshot older than the change fails (40001).';

SELECT pg_catalog.pg_extension_config_dump('uid_counter.settings', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.ranges', '');
SELECT pg_catalog.pg_extension_config_dump('uid_counter.counters', '');

-- Grants: a role draws only the numbers of the tenants (and prefixes) it is
-- granted.  uid_counter_next() runs as the caller (a C function, so that it
-- knows who calls: inside a SECURITY DEFINER function current_user is the
-- owner) and hands the caller's role to uid_counter._next(), which checks the
-- grant and then does the work as the extension owner.  uid_counter._next()
-- is not executable by PUBLIC; only that C function reaches it.

CREATE TABLE uid_counter.grants (
    tenant      text NOT NULL
                CHECK (tenant OPERATOR(pg_catalog.=) '*'
                       OR tenant OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$'),
    prefix      text NOT NULL
                CHECK (prefix OPERATOR(pg_catalog.=) '*'
                       OR prefix OPERATOR(pg_catalog.~) '^[A-Z][A-Z0-9_]{0,15}$'),
    role        name NOT NULL,
    granted_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    role_oid    oid NOT NULL,
    PRIMARY KEY (tenant, prefix, role, role_oid)
);

COMMENT ON TABLE uid_counter.grants IS
'Which roles may draw the numbers of which tenant and prefix (''*'': every tenant, every prefix); a grant holds for the role of that name and OID only; kept by pg_dump by role name.';

SELECT pg_catalog.pg_extension_config_dump('uid_counter.grants', '');

