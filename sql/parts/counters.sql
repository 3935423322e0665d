-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: the functions and views (src/tables/counters.c).  Every
-- statement can run again over an older version's objects: the upgrade from
-- 1.3 runs this file too.
-- ---------------------------------------------------------------------------

-- Argument checks shared by the counter functions.
CREATE OR REPLACE FUNCTION uid_counter._check_prefix(prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS NULL THEN
        PERFORM uid_counter._raise('22004'::text,
            'counter prefix must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
    IF $1 !~ '^[A-Z][A-Z0-9_]{0,15}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter prefix: %s', pg_catalog.quote_literal($1)),
            NULL::text,
            'A prefix is 1 to 16 characters: an upper-case letter, then upper-case letters, digits or "_".'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_prefix(text) IS
'Raises 22004 for NULL and 22023 for an invalid counter prefix.';

CREATE OR REPLACE FUNCTION uid_counter._check_tenant(tenant text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS NULL THEN
        PERFORM uid_counter._raise('22004'::text,
            'counter tenant must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
    IF $1 !~ '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter tenant: %s', pg_catalog.quote_literal($1)),
            NULL::text,
            'A tenant is 1 to 63 characters: a letter or digit, then letters, digits or "_", ".", ":", "@", "-".'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_tenant(text) IS
'Raises 22004 for NULL and 22023 for an invalid tenant.';

-- A grant names its role by name and OID, and holds only while both match
-- a role of this server: a role dropped and created again under the same
-- name has a new OID and no grant.  The role is stored as a name, not as
-- regrole, so that replicating a grant to a server without that role does
-- not stop the replication (regrole input fails there).  A row written
-- here, by uid_counter_grant() or by pg_restore, is bound to the local role
-- of its name (OID 0, never a role's, when there is none); rows that
-- logical replication applies are not (the trigger fires on local writes
-- only), so another server's grant is inert here unless the role has the
-- same name and OID.
CREATE OR REPLACE FUNCTION uid_counter._bind_grant_role()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    NEW.role_oid := coalesce((SELECT r.oid FROM pg_catalog.pg_roles r
                               WHERE r.rolname = NEW.role), 0);
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION uid_counter._bind_grant_role() IS
'Trigger of uid_counter.grants: binds a row written on this server to the OID of the local role of its name (0 when there is none).';

REVOKE ALL ON FUNCTION uid_counter._bind_grant_role() FROM PUBLIC;

CREATE OR REPLACE TRIGGER bind_role BEFORE INSERT OR UPDATE OF role ON uid_counter.grants
    FOR EACH ROW EXECUTE FUNCTION uid_counter._bind_grant_role();

CREATE OR REPLACE FUNCTION uid_counter_format(prefix text, number bigint, width integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT $1 || '-' ||
       CASE WHEN pg_catalog.length($2::text) >= $3 THEN $2::text
            ELSE pg_catalog.lpad($2::text, $3, '0') END
$$;

COMMENT ON FUNCTION uid_counter_format(text, bigint, integer) IS
'PREFIX-number, the number zero-padded to width digits; a wider number is printed whole, never cut.';

-- Whether uid_counter.counters receives another writer's changes: a
-- subscription of this database lists it (src/tables/counters.c; cached per
-- session until pg_subscription_rel changes).
CREATE OR REPLACE FUNCTION uid_counter._replicated()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_counter_replicated'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._replicated() IS
'True when a subscription of this database lists uid_counter.counters (pg_subscription_rel): counters then draw only from ranges of this server (uid.counter_node).';

-- uid_counter._next()'s steps, each run as the extension's owner from it
-- (not SECURITY DEFINER themselves; not executable by PUBLIC).

-- The grant, before anything is read, locked or written: the caller is a
-- superuser, or has the privileges of a role granted (tenant, prefix)
-- (pg_has_role ... USAGE, as for table privileges).  A grant counts only
-- for the role of its name and OID (not a dropped role's successor, nor
-- another server's role); others are skipped, never an error.
CREATE OR REPLACE FUNCTION uid_counter._may_draw(tenant text, prefix text, caller oid)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
BEGIN
    IF c_caller IS NULL
       OR (NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                        WHERE r.oid = c_caller AND r.rolsuper)
           AND NOT EXISTS (SELECT 1
                             FROM uid_counter.grants g
                             JOIN pg_catalog.pg_roles r
                               ON r.oid = g.role_oid
                              AND r.rolname = g.role
                            WHERE g.tenant = ANY (ARRAY[c_tenant, '*'])
                              AND g.prefix = ANY (ARRAY[c_prefix, '*'])
                              AND pg_catalog.pg_has_role(c_caller, r.oid, 'USAGE'))) THEN
        PERFORM uid_counter._raise('42501'::text,
            pg_catalog.format('permission denied for counter %s of tenant %s', c_prefix, pg_catalog.quote_literal(c_tenant)),
            pg_catalog.format('Role %s holds no grant of tenant %s and prefix %s.',
                                             coalesce(pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(c_caller)), 'NULL'),
                                             pg_catalog.quote_literal(c_tenant), c_prefix),
            'An administrator grants it with uid_counter_grant(tenant, role[, prefix]).'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._may_draw(text, text, oid) IS
'Refuses (42501) a caller that is no superuser and holds no grant of (tenant, prefix): the first step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._may_draw(text, text, oid) FROM PUBLIC;

-- Ranges may not change under a draw (see the header of
-- sql/parts/counter_schema.sql): ROW SHARE on uid_counter.ranges, and under
-- REPEATABLE READ or SERIALIZABLE the row of uid_counter.range_epoch.
CREATE OR REPLACE FUNCTION uid_counter._share_ranges()
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    LOCK TABLE uid_counter.ranges IN ROW SHARE MODE;
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM 1 FROM uid_counter.range_epoch FOR SHARE;
        IF NOT FOUND THEN
            -- no range change before our snapshot; if the first one
            -- committed since, this insert meets its row and fails with
            -- 40001 (ON CONFLICT under a transaction snapshot)
            INSERT INTO uid_counter.range_epoch (id, changed_at)
            VALUES (1, pg_catalog.now())
            ON CONFLICT ON CONSTRAINT range_epoch_pkey DO NOTHING;
        END IF;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._share_ranges() IS
'Holds the counters'' ranges still for the rest of the transaction, or fails with 40001 when a range changed after its snapshot: the second step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._share_ranges() FROM PUBLIC;

-- Where the counter (tenant, prefix) starts, how wide it prints and the
-- range it draws from; refuses a counter this server may not draw from and
-- a start beyond the end of the range.
CREATE OR REPLACE FUNCTION uid_counter._bounds(tenant text, prefix text,
    OUT v_start bigint, OUT v_width integer, OUT r_lo bigint, OUT r_hi bigint)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    r_node   text;
    here     text;
    refused  boolean;
BEGIN
    SELECT coalesce(t.start, g.start, 1), coalesce(t.width, g.width, 3)
      INTO v_start, v_width
      FROM (SELECT 1) AS one
      LEFT JOIN uid_counter.settings t
             ON t.prefix = c_prefix
            AND t.tenant = c_tenant
      LEFT JOIN uid_counter.settings g
             ON g.prefix = c_prefix
            AND g.tenant = '';

    SELECT r.lo, r.hi, r.node INTO r_lo, r_hi, r_node
      FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix
       AND r.tenant = c_tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM uid_counter.ranges r
                   WHERE r.prefix = c_prefix) THEN
            PERFORM uid_counter._raise('55000'::text,
                pg_catalog.format('tenant %s has no range of counter prefix %s', pg_catalog.quote_literal(c_tenant), c_prefix),
                'Other tenants own ranges of this prefix, so every tenant drawing from it needs one.'::text,
                'Give the tenant a range with uid_counter_set_range().'::text);
        END IF;
        r_lo := 0;
        r_hi := 9223372036854775806;
    END IF;

    -- Another writer: only a range of this server may be drawn from (see
    -- the header of sql/parts/counter_schema.sql).  _replicated() is cached
    -- per session.
    refused := CASE WHEN r_node IS NULL THEN uid_counter._replicated()
                    ELSE r_node IS DISTINCT FROM
                         NULLIF(pg_catalog.current_setting('uid.counter_node', true), '') END;
    IF refused THEN
        here := NULLIF(pg_catalog.current_setting('uid.counter_node', true), '');
        PERFORM uid_counter._raise('UID06'::text,
            pg_catalog.format('counter %s/%s is not this server''s to draw from', c_prefix, c_tenant),
            CASE WHEN r_node IS NOT NULL
                                THEN pg_catalog.format('Its range belongs to node %s; uid.counter_node is %s.',
                                                       pg_catalog.quote_literal(r_node),
                                                       coalesce(pg_catalog.quote_literal(here), 'not set'))
                                ELSE 'uid_counter.counters receives replicated changes from another server (a subscription of this database lists it), so numbers drawn here could be drawn there too.' END,
            'Draw on the server that owns the counter. To draw on several servers, give each its own tenant and range: set uid.counter_node on each server and uid_counter_set_range(tenant, prefix, lo, hi, node => ...); or leave schema uid_counter out of the publication.'::text);
    END IF;

    v_start := greatest(v_start, r_lo);
    IF v_start > r_hi THEN
        PERFORM uid_counter._raise('2200H'::text,
            pg_catalog.format('counter %s/%s cannot start at %s beyond the end of its range %s', c_prefix, c_tenant, v_start, r_hi),
            NULL::text,
            'Lower the start with uid_counter_configure() or widen the range with uid_counter_set_range().'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._bounds(text, text) IS
'The start, width and range of the counter (tenant, prefix) after its checks: the third step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._bounds(text, text) FROM PUBLIC;

-- The work of uid_counter_next(), after a grant check.  Its steps call
-- nothing in the extension's schema either.
CREATE OR REPLACE FUNCTION uid_counter._next(tenant text, prefix text, caller oid)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
    b        record;
    v_width  integer;
    r_hi     bigint;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    PERFORM uid_counter._may_draw(c_tenant, c_prefix, c_caller);
    PERFORM uid_counter._share_ranges();
    b := uid_counter._bounds(c_tenant, c_prefix);
    v_width := b.v_width;
    r_hi := b.r_hi;

    INSERT INTO uid_counter.counters AS c (prefix, tenant, first_value, last_value)
    VALUES (c_prefix, c_tenant, b.v_start, b.v_start)
    ON CONFLICT ON CONSTRAINT counters_pkey DO UPDATE
        SET last_value = greatest(c.last_value + 1, excluded.last_value)
    RETURNING c.last_value INTO v;

    IF v > r_hi THEN
        -- the error undoes the update: nothing is used up
        PERFORM uid_counter._raise('2200H'::text,
            pg_catalog.format('counter %s/%s reached the end of its range (%s)', c_prefix, c_tenant, r_hi),
            NULL::text,
            'Widen the tenant''s range with uid_counter_set_range().'::text);
    END IF;

    -- uid_counter_format(), written out: a SECURITY DEFINER function calls
    -- nothing in the extension's schema by name, where the owner of that
    -- schema (for public, the database owner) may create functions (see
    -- uid_counter._raise(), sql/parts/raise.sql)
    RETURN c_prefix || '-' ||
           CASE WHEN pg_catalog.length(v::text) >= v_width THEN v::text
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
CREATE OR REPLACE FUNCTION uid_counter._next_entry()
RETURNS regprocedure
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::pg_catalog.regprocedure
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_depend d
    ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
   AND d.objid = p.oid
   AND d.deptype = 'e'
  JOIN pg_catalog.pg_extension e
    ON e.oid = d.refobjid
   AND e.extname = 'uid'
 WHERE p.proname = 'uid_counter_next'
   AND p.proargtypes = '25 25'::pg_catalog.oidvector  -- (text, text)
$$;

COMMENT ON FUNCTION uid_counter._next_entry() IS
'uid_counter_next(text, text) of extension uid, by membership: what uid_counter_grant() and uid_counter_revoke() grant EXECUTE on.';

REVOKE ALL ON FUNCTION uid_counter._next_entry() FROM PUBLIC;

-- The checks of a grant's arguments: tenant and prefix may be '*'.
CREATE OR REPLACE FUNCTION uid_counter._check_grant(tenant text, role regrole, prefix text)
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
        PERFORM uid_counter._raise('22004'::text,
            'counter grant role must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_grant(text, regrole, text) IS
'Raises 22004 for a NULL argument and 22023 for a tenant or prefix that is neither valid nor ''*''.';

CREATE OR REPLACE FUNCTION uid_counter_grant(tenant text, role regrole, prefix text DEFAULT '*')
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
    -- the trigger binds the row to c_role's OID
    INSERT INTO uid_counter.grants (tenant, prefix, role, role_oid)
    VALUES (c_tenant, c_prefix, pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid), c_role::pg_catalog.oid)
    ON CONFLICT ON CONSTRAINT grants_pkey DO NOTHING;
    added := FOUND;
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s',
                              uid_counter._next_entry(), c_role);
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_counter_grant(text, regrole, text) IS
'Lets role (and the roles that have its privileges) draw the numbers of tenant with uid_counter_next(), for one prefix or (''*'', the default) every prefix; tenant ''*'' is every tenant. True if the grant is new.';

CREATE OR REPLACE FUNCTION uid_counter_revoke(tenant text, role regrole, prefix text DEFAULT '*')
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
     WHERE g.tenant = c_tenant
       AND g.prefix = c_prefix
       AND g.role_oid = c_role::pg_catalog.oid
       AND g.role = pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid);
    removed := FOUND;
    IF NOT EXISTS (SELECT 1 FROM uid_counter.grants g
                   WHERE g.role_oid = c_role::pg_catalog.oid
                     AND g.role = pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid)) THEN
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

CREATE OR REPLACE VIEW uid_counter_grants AS
SELECT g.tenant, g.prefix, g.role, g.granted_at,
       EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.oid OPERATOR(pg_catalog.=) g.role_oid
                  AND r.rolname OPERATOR(pg_catalog.=) g.role) AS applies
FROM uid_counter.grants g;

COMMENT ON VIEW uid_counter_grants IS
'Counter grants: which role may draw the numbers of which tenant and prefix (''*'': all); applies is false for a dropped role and for a grant replicated from a server whose role of that name is another.';

-- The end of every range change: the row of uid_counter.range_epoch that
-- REPEATABLE READ counter calls lock, written (the first change inserts it).
CREATE OR REPLACE FUNCTION uid_counter._range_changed()
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
INSERT INTO uid_counter.range_epoch AS e (id, changed_at)
VALUES (1, pg_catalog.now())
ON CONFLICT ON CONSTRAINT range_epoch_pkey DO UPDATE SET changed_at = excluded.changed_at
$$;

COMMENT ON FUNCTION uid_counter._range_changed() IS
'Ends a range change: writes the row of uid_counter.range_epoch (inserting it the first time), so that older REPEATABLE READ counter calls fail with 40001.';

REVOKE ALL ON FUNCTION uid_counter._range_changed() FROM PUBLIC;

-- The start of every range change.  It must see every number issued so far
-- (READ COMMITTED, and the lock below).  It waits for counter calls in
-- flight, and while it waits every new counter call queues behind it: so it
-- never waits longer than the session's lock_timeout, or 5 s when that is 0
-- (wait forever), then fails with 55P03 and changes nothing.
CREATE OR REPLACE FUNCTION uid_counter._lock_ranges(caller text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved text := pg_catalog.current_setting('lock_timeout');
    bound text := saved;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM uid_counter._raise('25000'::text,
            'counter ranges can only be changed in a READ COMMITTED transaction'::text,
            NULL::text,
            'The checks must see every number issued so far; run the call at the default isolation level.'::text);
    END IF;
    IF saved = '0' THEN
        bound := '5s';
    END IF;
    BEGIN
        PERFORM pg_catalog.set_config('lock_timeout', bound, true);
        LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;
    EXCEPTION WHEN lock_not_available THEN
        PERFORM uid_counter._raise('55P03'::text,
            pg_catalog.format('%s: counter ranges are in use by a transaction that drew a number', $1),
            pg_catalog.format('Waited %s (lock_timeout, or 5s when it is 0) for the transactions that called uid_counter_next() to end; nothing was changed.', bound),
            'Retry; pg_locks shows the sessions that hold uid_counter.ranges. SET lock_timeout to wait longer.'::text);
    END;
    PERFORM pg_catalog.set_config('lock_timeout', saved, true);
END
$$;

COMMENT ON FUNCTION uid_counter._lock_ranges(text) IS
'Starts a range change: 25000 outside READ COMMITTED; locks uid_counter.ranges, waiting at most lock_timeout (5 s when it is 0), else 55P03.';

REVOKE ALL ON FUNCTION uid_counter._lock_ranges(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_configure(prefix text, tenant text DEFAULT NULL,
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
    IF c_start < 0 OR c_start > 9223372036854775806 THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter start: %s', c_start),
            NULL::text,
            'start is the first number issued, 0 to 9223372036854775806; NULL falls back.'::text);
    END IF;
    IF c_width < 1 OR c_width > 19 THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter width: %s', c_width),
            NULL::text,
            'width is the number of digits numbers are zero-padded to, 1 to 19; NULL falls back.'::text);
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

-- The work of both forms of uid_counter_set_range(), as their owner.
CREATE OR REPLACE FUNCTION uid_counter._set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_lo     ALIAS FOR $3;
    c_hi     ALIAS FOR $4;
    c_node   ALIAS FOR $5;
    other    record;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_node !~ '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter node: %s', pg_catalog.quote_literal(c_node)),
            NULL::text,
            'A node is a server''s uid.counter_node: 1 to 63 characters, a letter or digit, then letters, digits or "_", ".", ":", "@", "-"; NULL for none.'::text);
    END IF;
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo < 0
       OR c_hi > 9223372036854775806 OR c_lo > c_hi THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter range: [%s, %s]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')),
            NULL::text,
            'A range is lo <= hi, both between 0 and 9223372036854775806.'::text);
    END IF;
    -- READ COMMITTED; waits (bounded) for counter calls in flight; new ones
    -- wait for our commit
    PERFORM uid_counter._lock_ranges('uid_counter_set_range');

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant = c_tenant;
    IF FOUND AND (other.first_value < c_lo
                  OR other.last_value > c_hi) THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('range [%s, %s] does not contain the numbers tenant %s already issued of prefix %s', c_lo, c_hi, pg_catalog.quote_literal(c_tenant), c_prefix),
            pg_catalog.format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
            'Choose a range that contains them.'::text);
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant <> c_tenant
       AND c.first_value <= c_hi AND c.last_value >= c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        PERFORM uid_counter._raise('23P01'::text,
            pg_catalog.format('range [%s, %s] of prefix %s overlaps numbers tenant %s already issued', c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)),
            pg_catalog.format('Tenant %s issued numbers between %s and %s.',
                                             pg_catalog.quote_literal(other.tenant), other.first_value, other.last_value),
            'Choose a range that avoids them.'::text);
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix AND r.tenant <> c_tenant
       AND r.lo <= c_hi AND r.hi >= c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        PERFORM uid_counter._raise('23P01'::text,
            pg_catalog.format('range [%s, %s] of prefix %s overlaps the range of tenant %s', c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)),
            pg_catalog.format('Tenant %s owns [%s, %s].', pg_catalog.quote_literal(other.tenant), other.lo, other.hi),
            'Choose a range that avoids it.'::text);
    END IF;

    -- the exclusion constraint enforces the same rule for any other writer
    INSERT INTO uid_counter.ranges AS r (prefix, tenant, lo, hi, node)
    VALUES (c_prefix, c_tenant, c_lo, c_hi, c_node)
    ON CONFLICT ON CONSTRAINT ranges_pkey DO UPDATE
        SET lo = excluded.lo, hi = excluded.hi, node = excluded.node;

    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) IS
'The work of uid_counter_set_range(), both forms; node NULL: a range of no server in particular.';

REVOKE ALL ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, NULL);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) IS
'Gives a tenant the range [lo, hi] of a prefix (replacing its range); refused if it overlaps another tenant''s range or issued numbers, or leaves out numbers the tenant issued.';

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, $5);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) IS
'uid_counter_set_range() of a range that only the server whose uid.counter_node is node draws from (NULL: any server, as without node), for servers that replicate their counters to each other.';

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
     WHERE r.prefix = c_prefix AND r.tenant = c_tenant;
    IF NOT FOUND THEN
        PERFORM uid_counter._raise('42704'::text,
            pg_catalog.format('tenant %s has no range of counter prefix %s', pg_catalog.quote_literal(c_tenant), c_prefix),
            NULL::text,
            'The view uid_counter_settings lists the ranges.'::text);
    END IF;
    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter_unset_range(text, text) IS
'Removes a tenant''s range of a prefix; the numbers it issued stay reserved against other tenants'' ranges.';

REVOKE EXECUTE ON FUNCTION uid_counter_configure(text, text, bigint, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_unset_range(text, text) FROM PUBLIC;

CREATE OR REPLACE VIEW uid_counter_settings AS
SELECT coalesce(s.prefix, r.prefix) AS prefix,
       -- NULLIF's = is text = text, an exact match that pg_catalog, searched
       -- first, always wins
       NULLIF(coalesce(s.tenant, r.tenant), '') AS tenant,
       s.start,
       s.width,
       r.lo AS range_lo,
       r.hi AS range_hi,
       r.node AS range_node
FROM uid_counter.settings s
FULL JOIN uid_counter.ranges r
       ON r.prefix OPERATOR(pg_catalog.=) s.prefix
      AND r.tenant OPERATOR(pg_catalog.=) s.tenant;

COMMENT ON VIEW uid_counter_settings IS
'Counter settings and ranges as configured: one row per (prefix, tenant); tenant NULL is the prefix''s global row; range_node: the server that alone draws from the range.';

CREATE OR REPLACE VIEW uid_counters AS
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
