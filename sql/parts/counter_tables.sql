-- The counters' tables (sql/parts/counter_schema.sql says how they work).

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

