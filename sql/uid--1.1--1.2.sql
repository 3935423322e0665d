-- uid 1.1 -> 1.2: security hardening, planner support for time filters,
-- text forms and keyed masking.
-- Each section below belongs to one concern; keep them apart.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.2'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Privileges: counters, stats, leases
-- ---------------------------------------------------------------------------
-- Every function's privileges are a decision; docs/security.md lists them in
-- one table.  Every operator below is qualified: this script runs with the
-- extension's schema on the search path, where other roles may create objects.

-- Counters: a role draws only the numbers of the tenants (and prefixes) it is
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
    role        regrole NOT NULL,
    granted_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (tenant, prefix, role)
);

COMMENT ON TABLE uid_counter.grants IS
'Which roles may draw the numbers of which tenant and prefix (''*'': every tenant, every prefix); kept by pg_dump by role name.';

SELECT pg_catalog.pg_extension_config_dump('uid_counter.grants', '');

-- Roles that 1.1 administrators granted EXECUTE on uid_counter_next() to (the
-- hardening 1.1 recommended) keep drawing every tenant's numbers; roles that
-- relied on PUBLIC do not.  On a fresh install nothing matches.
INSERT INTO uid_counter.grants (tenant, prefix, role)
SELECT DISTINCT '*', '*', a.grantee::regrole
  FROM pg_catalog.pg_proc p,
       LATERAL pg_catalog.aclexplode(p.proacl) a
 WHERE p.oid OPERATOR(pg_catalog.=) '@extschema@.uid_counter_next(text, text)'::pg_catalog.regprocedure
   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'
   AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid
   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner;

-- The work of uid_counter_next() (1.1's function, after a grant check).
CREATE FUNCTION uid_counter._next(tenant text, prefix text, caller oid)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
    v_start  bigint;
    v_width  integer;
    r_lo     bigint;
    r_hi     bigint;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    -- The grant, before anything is read, locked or written: the caller is a
    -- superuser, or has the privileges of a role granted (tenant, prefix)
    -- (pg_has_role ... USAGE, as for table privileges).  Grants of dropped
    -- roles are skipped, never an error.  Written here, not in a function of
    -- its own, so that plpgsql keeps the plans for the session.
    IF c_caller IS NULL
       OR (NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                        WHERE r.oid OPERATOR(pg_catalog.=) c_caller AND r.rolsuper)
           AND NOT EXISTS (SELECT 1
                             FROM uid_counter.grants g
                             JOIN pg_catalog.pg_roles r
                               ON r.oid OPERATOR(pg_catalog.=) g.role::pg_catalog.oid
                            WHERE g.tenant OPERATOR(pg_catalog.=) ANY (ARRAY[c_tenant, '*'])
                              AND g.prefix OPERATOR(pg_catalog.=) ANY (ARRAY[c_prefix, '*'])
                              AND pg_catalog.pg_has_role(c_caller, r.oid, 'USAGE'))) THEN
        RAISE EXCEPTION 'permission denied for counter % of tenant %', c_prefix, pg_catalog.quote_literal(c_tenant)
            USING ERRCODE = '42501',
                  DETAIL = pg_catalog.format('Role %s holds no grant of tenant %s and prefix %s.',
                                             coalesce(pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(c_caller)), 'NULL'),
                                             pg_catalog.quote_literal(c_tenant), c_prefix),
                  HINT = 'An administrator grants it with uid_counter_grant(tenant, role[, prefix]).';
    END IF;

    -- ranges may not change under us (see the header of the counters part
    -- of the 1.0 script)
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

    -- uid_counter_format(), written out: a SECURITY DEFINER function calls
    -- nothing in the extension's schema by name, as the owner of that schema
    -- (for public, the database owner) could rename it and put a function of
    -- that name in its place
    RETURN c_prefix OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
           CASE WHEN pg_catalog.length(v::text) OPERATOR(pg_catalog.>=) v_width THEN v::text
                ELSE pg_catalog.lpad(v::text, v_width, '0') END;
END
$$;

COMMENT ON FUNCTION uid_counter._next(text, text, oid) IS
'uid_counter_next() for the role caller: checks its grant, then draws the number as the extension owner. Reached only through uid_counter_next().';

REVOKE ALL ON FUNCTION uid_counter._next(text, text, oid) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_next(tenant text, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_counter_next'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_counter_next(text, text) IS
'The next number of the (tenant, prefix) counter, formatted as PREFIX-000123; transactional and gap-free (a rollback gives the number back). Only for roles granted the tenant with uid_counter_grant().';

REVOKE ALL ON FUNCTION uid_counter_next(text, text) FROM PUBLIC;

-- uid_counter_next(text, text), found through the extension's membership,
-- never by a schema name that the schema's owner could move.
CREATE FUNCTION uid_counter._next_entry()
RETURNS regprocedure
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::pg_catalog.regprocedure
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_depend d
    ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
   AND d.objid OPERATOR(pg_catalog.=) p.oid
   AND d.deptype OPERATOR(pg_catalog.=) 'e'
  JOIN pg_catalog.pg_extension e
    ON e.oid OPERATOR(pg_catalog.=) d.refobjid
   AND e.extname OPERATOR(pg_catalog.=) 'uid'
 WHERE p.proname OPERATOR(pg_catalog.=) 'uid_counter_next'
   AND p.proargtypes OPERATOR(pg_catalog.=) '25 25'::pg_catalog.oidvector  -- (text, text)
$$;

COMMENT ON FUNCTION uid_counter._next_entry() IS
'uid_counter_next(text, text) of extension uid, by membership: what uid_counter_grant() and uid_counter_revoke() grant EXECUTE on.';

REVOKE ALL ON FUNCTION uid_counter._next_entry() FROM PUBLIC;

-- Removes the grants of roles that no longer exist, so that a new role that
-- happens to get a dropped role's OID inherits nothing.
CREATE FUNCTION uid_counter._forget_dropped_roles()
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DELETE FROM uid_counter.grants g
 WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                    WHERE r.oid OPERATOR(pg_catalog.=) g.role::pg_catalog.oid)
$$;

COMMENT ON FUNCTION uid_counter._forget_dropped_roles() IS
'Deletes counter grants whose role was dropped; run by uid_counter_grant() and uid_counter_revoke().';

REVOKE ALL ON FUNCTION uid_counter._forget_dropped_roles() FROM PUBLIC;

-- The checks of a grant's arguments: tenant and prefix may be '*'.
CREATE FUNCTION uid_counter._check_grant(tenant text, role regrole, prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_tenant($1);
    END IF;
    IF $3 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_prefix($3);
    END IF;
    IF $2 IS NULL THEN
        RAISE EXCEPTION 'counter grant role must not be NULL'
            USING ERRCODE = '22004';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_grant(text, regrole, text) IS
'Raises 22004 for a NULL argument and 22023 for a tenant or prefix that is neither valid nor ''*''.';

CREATE FUNCTION uid_counter_grant(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    added    boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    PERFORM uid_counter._forget_dropped_roles();
    INSERT INTO uid_counter.grants (tenant, prefix, role)
    VALUES (c_tenant, c_prefix, c_role)
    ON CONFLICT ON CONSTRAINT grants_pkey DO NOTHING;
    added := FOUND;
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s',
                              uid_counter._next_entry(), c_role);
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_counter_grant(text, regrole, text) IS
'Lets role (and the roles that have its privileges) draw the numbers of tenant with uid_counter_next(), for one prefix or (''*'', the default) every prefix; tenant ''*'' is every tenant. True if the grant is new.';

CREATE FUNCTION uid_counter_revoke(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    removed  boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    DELETE FROM uid_counter.grants g
     WHERE g.tenant OPERATOR(pg_catalog.=) c_tenant
       AND g.prefix OPERATOR(pg_catalog.=) c_prefix
       AND g.role::pg_catalog.oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid;
    removed := FOUND;
    PERFORM uid_counter._forget_dropped_roles();
    IF NOT EXISTS (SELECT 1 FROM uid_counter.grants g
                   WHERE g.role::pg_catalog.oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid) THEN
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM %s',
                                  uid_counter._next_entry(), c_role);
    END IF;
    RETURN removed;
END
$$;

COMMENT ON FUNCTION uid_counter_revoke(text, regrole, text) IS
'Removes exactly the grant (tenant, role, prefix) made by uid_counter_grant(); when the role has no grant left, also EXECUTE on uid_counter_next(). True if a grant was removed.';

REVOKE ALL ON FUNCTION uid_counter_grant(text, regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_counter_revoke(text, regrole, text) FROM PUBLIC;

CREATE VIEW uid_counter_grants AS
SELECT g.tenant, g.prefix, g.role, g.granted_at
FROM uid_counter.grants g;

COMMENT ON VIEW uid_counter_grants IS
'Counter grants: which role may draw the numbers of which tenant and prefix (''*'': all); a number in role is a dropped role.';

-- The start of every range change.  It must see every number issued so far
-- (READ COMMITTED, and the lock below).  It waits for counter calls in
-- flight, and while it waits every new counter call queues behind it: so it
-- never waits longer than the session's lock_timeout, or 5 s when that is 0
-- (wait forever), then fails with 55P03 and changes nothing.
CREATE FUNCTION uid_counter._lock_ranges(caller text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved text := pg_catalog.current_setting('lock_timeout');
    bound text := saved;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed' THEN
        RAISE EXCEPTION 'counter ranges can only be changed in a READ COMMITTED transaction'
            USING ERRCODE = '25000',
                  HINT = 'The checks must see every number issued so far; run the call at the default isolation level.';
    END IF;
    IF saved OPERATOR(pg_catalog.=) '0' THEN
        bound := '5s';
    END IF;
    BEGIN
        PERFORM pg_catalog.set_config('lock_timeout', bound, true);
        LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;
    EXCEPTION WHEN lock_not_available THEN
        RAISE EXCEPTION '%: counter ranges are in use by a transaction that drew a number', $1
            USING ERRCODE = '55P03',
                  DETAIL = pg_catalog.format('Waited %s (lock_timeout, or 5s when it is 0) for the transactions that called uid_counter_next() to end; nothing was changed.', bound),
                  HINT = 'Retry; pg_locks shows the sessions that hold uid_counter.ranges. SET lock_timeout to wait longer.';
    END;
    PERFORM pg_catalog.set_config('lock_timeout', saved, true);
END
$$;

COMMENT ON FUNCTION uid_counter._lock_ranges(text) IS
'Starts a range change: 25000 outside READ COMMITTED; locks uid_counter.ranges, waiting at most lock_timeout (5 s when it is 0), else 55P03.';

REVOKE ALL ON FUNCTION uid_counter._lock_ranges(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint)
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
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo OPERATOR(pg_catalog.<) 0
       OR c_hi OPERATOR(pg_catalog.>) 9223372036854775806 OR c_lo OPERATOR(pg_catalog.>) c_hi THEN
        RAISE EXCEPTION 'invalid counter range: [%, %]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'A range is lo <= hi, both between 0 and 9223372036854775806.';
    END IF;
    -- READ COMMITTED; waits (bounded) for counter calls in flight; new ones
    -- wait for our commit
    PERFORM uid_counter._lock_ranges('uid_counter_set_range');

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF FOUND AND (other.first_value OPERATOR(pg_catalog.<) c_lo
                  OR other.last_value OPERATOR(pg_catalog.>) c_hi) THEN
        RAISE EXCEPTION 'range [%, %] does not contain the numbers tenant % already issued of prefix %',
                c_lo, c_hi, pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
                  HINT = 'Choose a range that contains them.';
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND c.first_value OPERATOR(pg_catalog.<=) c_hi AND c.last_value OPERATOR(pg_catalog.>=) c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps numbers tenant % already issued',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s issued numbers between %s and %s.',
                                             pg_catalog.quote_literal(other.tenant), other.first_value, other.last_value),
                  HINT = 'Choose a range that avoids them.';
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND r.lo OPERATOR(pg_catalog.<=) c_hi AND r.hi OPERATOR(pg_catalog.>=) c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps the range of tenant %',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s owns [%s, %s].', pg_catalog.quote_literal(other.tenant), other.lo, other.hi),
                  HINT = 'Choose a range that avoids it.';
    END IF;

    -- the exclusion constraint enforces the same rule for any other writer
    INSERT INTO uid_counter.ranges AS r (prefix, tenant, lo, hi)
    VALUES (c_prefix, c_tenant, c_lo, c_hi)
    ON CONFLICT ON CONSTRAINT ranges_pkey DO UPDATE SET lo = excluded.lo, hi = excluded.hi;

    UPDATE uid_counter.range_epoch SET changed_at = pg_catalog.now();
END
$$;

CREATE OR REPLACE FUNCTION uid_counter_unset_range(tenant text, prefix text)
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
    PERFORM uid_counter._lock_ranges('uid_counter_unset_range');
    DELETE FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tenant % has no range of counter prefix %', pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '42704',
                  HINT = 'The view uid_counter_settings lists the ranges.';
    END IF;
    UPDATE uid_counter.range_epoch SET changed_at = pg_catalog.now();
END
$$;

-- Tickets: creating and dropping a ticket is the administrator's (the
-- functions run as the caller, who also needs CREATE on schema uid_ticket and
-- write access to uid_ticket._tickets); drawing stays PUBLIC and is decided
-- by USAGE on each ticket's sequence.
REVOKE ALL ON FUNCTION uid_ticket_create(text, integer, integer, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_ticket_drop(text) FROM PUBLIC;

-- Stats: the view and the functions behind it for pg_monitor, not PUBLIC
-- (1.1 had the functions PUBLIC and the view owner-only).
REVOKE ALL ON FUNCTION uid_stats() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_stats_1_1() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_stats() TO pg_monitor;
GRANT EXECUTE ON FUNCTION uid_stats_1_1() TO pg_monitor;
-- the view also calls uid_lease_status(): pg_monitor keeps it, whatever PUBLIC has
GRANT EXECUTE ON FUNCTION uid_lease_status() TO pg_monitor;
GRANT SELECT ON uid_stats TO pg_monitor;


-- ---------------------------------------------------------------------------
-- Leases
-- ---------------------------------------------------------------------------
-- The lease worker refuses a lease schema or table that neither its role in
-- the store nor a superuser owns.  uid_lease_table_sql() prints the statements
-- that create them, owned by a given role, for creating them beforehand in a
-- coordination database (the same text the lease worker runs).

CREATE FUNCTION uid_lease_table_sql(owner name, schema name DEFAULT 'uid_lease')
RETURNS text
AS 'MODULE_PATHNAME', 'uid_lease_table_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_table_sql(name, name) IS
'The statements that create the lease table and its schema, owned by owner: the definition the lease worker uses, for creating it beforehand in a lease store.';


-- ---------------------------------------------------------------------------
-- Planner support: time filters on IDs use the index
-- ---------------------------------------------------------------------------
-- While planning, uid turns "uid_time(id) >= t" into "id >= uid_first_at(t)"
-- (and likewise for >, <, <=, =, BETWEEN, (uid_decode(id)).ts and
-- uuid7_time(u)), so that such filters use the index on the ID, its
-- statistics and partition pruning (src/time_filter.c).  The bounds it uses,
-- exact to the microsecond of t, NULL where no ID qualifies:

CREATE FUNCTION uid_first_at(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_first_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_first_at(timestamptz) IS
'The lowest ID whose time is at or after ts: uid_time(id) >= ts is id >= uid_first_at(ts). 0 before 2026, NULL after the layout.';

CREATE FUNCTION uid_first_after(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_first_after'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_first_after(timestamptz) IS
'The lowest ID whose time is after ts: uid_time(id) > ts is id >= uid_first_after(ts). 0 before 2026, NULL after the layout.';

CREATE FUNCTION uid_last_before(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_last_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_last_before(timestamptz) IS
'The highest ID whose time is before ts: uid_time(id) < ts is id <= uid_last_before(ts) for IDs >= 0. NULL before 2026, the highest bigint after the layout.';

CREATE FUNCTION uid_last_at(ts timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_last_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_last_at(timestamptz) IS
'The highest ID whose time is at or before ts (the last of its millisecond): uid_time(id) <= ts is id <= uid_last_at(ts) for IDs >= 0. NULL before 2026, the highest bigint after the layout.';

CREATE FUNCTION uuid7_first_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_first_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_first_at(timestamptz) IS
'The lowest UUIDv7 whose time is at or after ts: for v7 UUIDs, uuid7_time(u) >= ts is u >= uuid7_first_at(ts). NULL after the 48-bit time field.';

CREATE FUNCTION uuid7_first_after(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_first_after'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_first_after(timestamptz) IS
'The lowest UUIDv7 whose time is after ts: for v7 UUIDs, uuid7_time(u) > ts is u >= uuid7_first_after(ts). NULL after the 48-bit time field.';

CREATE FUNCTION uuid7_last_before(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_last_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_last_before(timestamptz) IS
'The highest UUIDv7 whose time is before ts: for v7 UUIDs, uuid7_time(u) < ts is u <= uuid7_last_before(ts). NULL before 1970.';

CREATE FUNCTION uuid7_last_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'uuid7_last_at'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuid7_last_at(timestamptz) IS
'The highest UUIDv7 whose time is at or before ts (the last of its millisecond): for v7 UUIDs, uuid7_time(u) <= ts is u <= uuid7_last_at(ts). NULL before 1970.';

-- A support function that answers no request: the planner calls it while it
-- simplifies a query naming one of the time functions, which loads uid (and
-- so the rewrite) before the tables of that query are planned, also when uid
-- is not in shared_preload_libraries.  Not callable from SQL (internal).
CREATE FUNCTION uid_time_filter_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'uid_time_filter_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_time_filter_support(internal) IS
'Planner support of uid_time, uuid7_time, uid_decode and uid''s uuid_extract_timestamp: loads uid so that their comparisons with a timestamp become ranges on the ID.';

REVOKE ALL ON FUNCTION uid_time_filter_support(internal) FROM PUBLIC;

ALTER FUNCTION @extschema@.uid_time(bigint) SUPPORT @extschema@.uid_time_filter_support;
ALTER FUNCTION @extschema@.uuid7_time(uuid) SUPPORT @extschema@.uid_time_filter_support;
ALTER FUNCTION @extschema@.uid_decode(bigint) SUPPORT @extschema@.uid_time_filter_support;
ALTER FUNCTION @extschema@.uid_decode(uuid) SUPPORT @extschema@.uid_time_filter_support;

-- uid's own uuid_extract_timestamp(uuid), on servers whose pg_catalog lacks
-- one (before 17); pg_catalog's is not uid's to change.
DO $uid$
BEGIN
    IF EXISTS (SELECT FROM pg_catalog.pg_depend d
               JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
                                              AND e.extname OPERATOR(pg_catalog.=) 'uid'
               WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                 AND d.objid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure('@extschema@.uuid_extract_timestamp(uuid)')
                 AND d.deptype OPERATOR(pg_catalog.=) 'e') THEN
        ALTER FUNCTION @extschema@.uuid_extract_timestamp(uuid) SUPPORT @extschema@.uid_time_filter_support;
    END IF;
END
$uid$;



-- ---------------------------------------------------------------------------
-- IDs that leave the database: text forms and keyed masking
-- (src/text_forms.c, src/mask.c, src/ff1.c)
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

-- ---------------------------------------------------------------------------
-- PostgreSQL 18 names
-- ---------------------------------------------------------------------------

-- After pg_upgrade to a release that has some of these names built in (17:
-- uuid_extract_timestamp and uuid_extract_version; 18: also uuidv4 and
-- uuidv7), uid's own functions of those names come along as members of the
-- extension, although unqualified calls now reach pg_catalog's.  Drop each
-- such stand-in that no other object uses; keep one that a column default,
-- view or function still uses, and warn (docs/versions.md: how to move
-- those objects and retire it by hand).  On a fresh install there is
-- nothing to drop: the stand-ins exist only where pg_catalog lacks the name.
DO $uid$
DECLARE
    f record;
BEGIN
    FOR f IN
        SELECT pg_catalog.format('%I.%I(%s)', n.nspname, p.proname,
                                 pg_catalog.pg_get_function_identity_arguments(p.oid)) AS sig
        FROM pg_catalog.pg_depend d
        JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
        JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
        WHERE e.extname OPERATOR(pg_catalog.=) 'uid'
          AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
          AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
          AND d.deptype OPERATOR(pg_catalog.=) 'e'
          AND n.nspname OPERATOR(pg_catalog.<>) 'pg_catalog'
          AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['uuidv7', 'uuidv4', 'uuid_extract_timestamp',
                                                         'uuid_extract_version']::pg_catalog.name[])
          AND EXISTS (SELECT FROM pg_catalog.pg_proc b
                      WHERE b.pronamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace
                        AND b.proname OPERATOR(pg_catalog.=) p.proname
                        AND b.proargtypes OPERATOR(pg_catalog.=) p.proargtypes)
        ORDER BY 1
    LOOP
        BEGIN
            EXECUTE pg_catalog.format('DROP FUNCTION %s', f.sig);
        EXCEPTION WHEN dependent_objects_still_exist THEN
            RAISE WARNING 'uid keeps its function %, which other objects use', f.sig
                USING DETAIL = 'PostgreSQL now has a built-in function of that name; unqualified calls reach the built-in.',
                      HINT = pg_catalog.format('Point those objects at uid''s or the built-in function, then run: ALTER EXTENSION uid DROP FUNCTION %s; DROP FUNCTION %s;', f.sig, f.sig);
        END;
    END LOOP;
END
$uid$;
