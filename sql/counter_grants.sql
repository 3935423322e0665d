-- Counter grants: a role draws the numbers of a tenant only when it holds a
-- grant of that tenant (and prefix), made by uid_counter_grant().
\set SHOW_CONTEXT never

-- err(statement): 'ok', or the SQLSTATE and message of the error it raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
GRANT EXECUTE ON FUNCTION pg_temp.err(text) TO PUBLIC;

-- the counters of the roles below, as (prefix, tenant, last_value)
CREATE FUNCTION pg_temp.counters() RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(format('%s/%s=%s', prefix, tenant, last_value), ' '
                               ORDER BY prefix, tenant), '(none)')
      FROM uid_counter.counters
$$;

CREATE ROLE regress_app_acme;
CREATE ROLE regress_app_globex;
CREATE ROLE regress_member_inherit IN ROLE regress_app_acme;
CREATE ROLE regress_member_noinherit NOINHERIT IN ROLE regress_app_acme;
CREATE ROLE regress_nobody;

-- Out of the box no ordinary role may draw: EXECUTE is not PUBLIC's.
SELECT has_function_privilege('public', 'uid_counter_next(text, text)', 'EXECUTE') AS public_may_draw;
SET ROLE regress_nobody;
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ')$$);
RESET ROLE;

-- A grant: acme's numbers, every prefix.  It also grants EXECUTE.
SELECT uid_counter_grant('acme', 'regress_app_acme') AS new_grant;
SELECT uid_counter_grant('acme', 'regress_app_acme') AS new_grant_again;
SELECT has_function_privilege('regress_app_acme', 'uid_counter_next(text, text)', 'EXECUTE') AS may_execute;
SET ROLE regress_app_acme;
SELECT uid_counter_next('acme', 'REQ'), uid_counter_next('acme', 'INV');
-- another tenant: refused before anything is read or written
SELECT pg_temp.err($$SELECT uid_counter_next('globex', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('junk', 'JUNK')$$);
-- the work function cannot be called directly (with a forged caller)
SELECT pg_temp.err($$SELECT uid_counter._next('globex', 'REQ', 10)$$);
-- nor can the granted role grant itself more
SELECT pg_temp.err($$SELECT uid_counter_grant('globex', 'regress_app_acme')$$);
-- nor read the counters of the tenants
SELECT pg_temp.err($$SELECT * FROM uid_counters$$);
SELECT pg_temp.err($$SELECT * FROM uid_counter_grants$$);
RESET ROLE;
SELECT pg_temp.counters();

-- Bad input is checked before the grant, with the usual errors.
SET ROLE regress_app_acme;
SELECT pg_temp.err($$SELECT uid_counter_next(NULL, 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', NULL)$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'bad')$$);
RESET ROLE;

-- Members that inherit a granted role's privileges may draw; a NOINHERIT
-- member only after SET ROLE, as for table privileges.
SET ROLE regress_member_inherit;
SELECT uid_counter_next('acme', 'REQ');
RESET ROLE;
SET ROLE regress_member_noinherit;
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ')$$);
SET ROLE regress_app_acme;
SELECT uid_counter_next('acme', 'REQ');
RESET ROLE;

-- The caller is the role privileges are checked against: inside a SECURITY
-- DEFINER function, its owner.
CREATE FUNCTION pg_temp.draw_as_acme(t text) RETURNS text
LANGUAGE sql SECURITY DEFINER AS $$ SELECT uid_counter_next(t, 'REQ') $$;
ALTER FUNCTION pg_temp.draw_as_acme(text) OWNER TO regress_app_acme;
GRANT EXECUTE ON FUNCTION pg_temp.draw_as_acme(text) TO regress_nobody;
SET ROLE regress_nobody;
SELECT pg_temp.draw_as_acme('acme');
SELECT pg_temp.err($$SELECT pg_temp.draw_as_acme('globex')$$);
RESET ROLE;

-- A grant of one prefix.
SELECT uid_counter_grant('globex', 'regress_app_globex', 'INV') AS new_grant;
SET ROLE regress_app_globex;
SELECT uid_counter_next('globex', 'INV');
SELECT pg_temp.err($$SELECT uid_counter_next('globex', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'INV')$$);
RESET ROLE;

-- Every tenant ('*'), one prefix.
SELECT uid_counter_grant('*', 'regress_app_globex', 'TKT') AS new_grant;
SET ROLE regress_app_globex;
SELECT uid_counter_next('initech', 'TKT'), uid_counter_next('acme', 'TKT');
SELECT pg_temp.err($$SELECT uid_counter_next('initech', 'INV')$$);
RESET ROLE;

-- The listing.
SELECT tenant, prefix, role, applies FROM uid_counter_grants ORDER BY tenant, prefix, role;

-- Revoking removes exactly the grant named; EXECUTE goes with the last one.
SELECT uid_counter_revoke('globex', 'regress_app_globex') AS removed;   -- no such grant (prefix '*')
SELECT uid_counter_revoke('*', 'regress_app_globex', 'TKT') AS removed;
SELECT has_function_privilege('regress_app_globex', 'uid_counter_next(text, text)', 'EXECUTE') AS may_execute;
SELECT uid_counter_revoke('globex', 'regress_app_globex', 'INV') AS removed;
SELECT has_function_privilege('regress_app_globex', 'uid_counter_next(text, text)', 'EXECUTE') AS may_execute;
SET ROLE regress_app_globex;
SELECT pg_temp.err($$SELECT uid_counter_next('globex', 'INV')$$);
RESET ROLE;

-- Bad grants.
SELECT pg_temp.err($$SELECT uid_counter_grant('acme', NULL)$$);
SELECT pg_temp.err($$SELECT uid_counter_grant(NULL, 'regress_app_acme')$$);
SELECT pg_temp.err($$SELECT uid_counter_grant('ac me', 'regress_app_acme')$$);
SELECT pg_temp.err($$SELECT uid_counter_grant('acme', 'regress_app_acme', 'req')$$);
SELECT pg_temp.err($$SELECT uid_counter_grant('acme', 'regress_no_such_role')$$);
SELECT pg_temp.err($$SELECT uid_counter_grant('acme', 'regress_app_acme', NULL)$$);
SELECT pg_temp.err($$INSERT INTO uid_counter.grants (tenant, prefix, role) VALUES ('a*', '*', 'regress_app_acme')$$);

-- A grant holds for its role's name and OID: a role dropped and created
-- again under the same name has a new OID and no grant (applies is false).
CREATE ROLE regress_app_gone;
SELECT uid_counter_grant('acme', 'regress_app_gone') AS new_grant;
REVOKE EXECUTE ON FUNCTION uid_counter_next(text, text) FROM regress_app_gone;
DROP ROLE regress_app_gone;
SELECT role, applies FROM uid_counter_grants WHERE role = 'regress_app_gone';
CREATE ROLE regress_app_gone;
GRANT EXECUTE ON FUNCTION uid_counter_next(text, text) TO regress_app_gone;
SET ROLE regress_app_gone;
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ')$$);
RESET ROLE;
SELECT uid_counter_grant('acme', 'regress_app_gone') AS new_grant;
SELECT role, applies FROM uid_counter_grants WHERE role = 'regress_app_gone' ORDER BY applies;
SELECT uid_counter_revoke('acme', 'regress_app_gone') AS removed;
DROP ROLE regress_app_gone;

-- A grant row for a role this server does not have, as logical replication
-- applies it from another server (no trigger fires: session_replication_role
-- replica), is stored and inert; written locally it is bound to no role.
SET session_replication_role = replica;
INSERT INTO uid_counter.grants (tenant, prefix, role, role_oid)
VALUES ('acme', '*', 'regress_elsewhere', 4000000000),
       ('acme', '*', 'regress_app_globex', 4000000001);
RESET session_replication_role;
INSERT INTO uid_counter.grants (tenant, prefix, role, role_oid)
VALUES ('acme', 'REQ', 'regress_elsewhere', 4000000002);
SELECT role, prefix, role_oid, applies FROM uid_counter_grants JOIN uid_counter.grants USING (tenant, prefix, role)
 WHERE role IN ('regress_elsewhere', 'regress_app_globex') AND tenant = 'acme' ORDER BY 1, 2;
GRANT EXECUTE ON FUNCTION uid_counter_next(text, text) TO regress_app_globex;
SET ROLE regress_app_globex;
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ')$$);
RESET ROLE;
REVOKE EXECUTE ON FUNCTION uid_counter_next(text, text) FROM regress_app_globex;
DELETE FROM uid_counter.grants WHERE role_oid IN (0, 4000000000, 4000000001);

-- A superuser draws without a grant.
SELECT uid_counter_next('hooli', 'REQ');

-- Range changes give back the session's lock_timeout (they wait at most it,
-- or 5 s when it is 0).
BEGIN;
SET LOCAL lock_timeout = '250ms';
SELECT uid_counter_set_range('acme', 'RNG', 1, 10);
SHOW lock_timeout;
COMMIT;
BEGIN;
SELECT uid_counter_unset_range('acme', 'RNG');
SHOW lock_timeout;
COMMIT;

-- Nothing was drawn for the refused calls: only the granted ones are here.
SELECT pg_temp.counters();

-- leave no state behind
SELECT uid_counter_revoke(tenant, role::text::regrole, prefix) FROM uid_counter_grants WHERE applies;
DELETE FROM uid_counter.grants;
DROP FUNCTION pg_temp.draw_as_acme(text);
DROP ROLE regress_member_inherit, regress_member_noinherit, regress_nobody,
          regress_app_acme, regress_app_globex;
TRUNCATE uid_counter.counters, uid_counter.settings, uid_counter.ranges;
