-- The upgrade paths to the current version, from 1.0 and from the last
-- release (1.4): every 1.0 object and
-- every user object built on 1.0 keeps working, and the upgraded extension
-- has exactly the objects of a fresh install.  A fresh install runs the
-- current version's own script (uid--1.5.sql), the upgrade runs uid--1.0.sql
-- and each upgrade script after it: two independent texts that must make the
-- same objects.  Runs in databases of its own.
SET timezone = 'UTC';
-- Both databases come from a template that holds the function listing the members.
CREATE DATABASE uid_upgrade_template;
\c uid_upgrade_template
-- The members of the extension, one line each, with what defines them:
-- functions with their arguments and defaults, result, language, volatility,
-- strictness, parallel safety, security, settings, planner support, body
-- (comments and white space aside), privileges and comment; tables and views
-- with their columns, constraints, indexes, definition, privileges and
-- comment; schemas with their privileges and comment; types with their
-- comment.  Privileges granted to the test's own roles are left out.
CREATE FUNCTION acl(aclitem[]) RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(a::text, ',' ORDER BY a::text), '')
    FROM unnest($1) AS a WHERE a::text NOT LIKE '%regress_upgrade_%'
$$;
CREATE FUNCTION code(text) RETURNS text LANGUAGE sql AS $$
    SELECT btrim(regexp_replace(regexp_replace($1, '--[^\n]*', '', 'g'), '\s+', ' ', 'g'))
$$;
CREATE FUNCTION definition(classid oid, objid oid) RETURNS text LANGUAGE sql AS $$
    SELECT concat_ws(' | ', p.provolatile::text || p.proisstrict::text || p.proparallel::text,
                     pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
                     l.lanname, p.prosecdef, p.proleakproof, p.procost, p.prorows,
                     p.proconfig::text, p.prosupport::text, p.probin, code(p.prosrc),
                     acl(p.proacl), obj_description(p.oid, 'pg_proc'))
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE classid = 'pg_proc'::regclass AND p.oid = objid
    UNION ALL
    SELECT concat_ws(' | ', c.relkind::text,
                     (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                                        || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                                        || ' ' || a.attgenerated::text || ' '
                                        || coalesce(pg_get_expr(ad.adbin, ad.adrelid), ''),
                                        ', ' ORDER BY a.attnum)
                      FROM pg_attribute a
                      LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
                      WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
                     (SELECT string_agg(co.conname || ' ' || pg_get_constraintdef(co.oid), ', '
                                        ORDER BY co.conname)
                      FROM pg_constraint co WHERE co.conrelid = c.oid),
                     (SELECT string_agg(pg_get_indexdef(i.indexrelid), ', ' ORDER BY 1)
                      FROM pg_index i WHERE i.indrelid = c.oid),
                     CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) END,
                     acl(c.relacl), obj_description(c.oid, 'pg_class'))
    FROM pg_class c
    WHERE classid = 'pg_class'::regclass AND c.oid = objid
    UNION ALL
    SELECT concat_ws(' | ', acl(n.nspacl), obj_description(n.oid, 'pg_namespace'))
    FROM pg_namespace n
    WHERE classid = 'pg_namespace'::regclass AND n.oid = objid
    UNION ALL
    SELECT concat_ws(' | ', obj_description(t.oid, 'pg_type'))
    FROM pg_type t
    WHERE classid = 'pg_type'::regclass AND t.oid = objid
$$;
CREATE FUNCTION members() RETURNS SETOF text LANGUAGE sql AS $$
    SELECT regexp_replace(pg_describe_object(d.classid, d.objid, d.objsubid)
                          || coalesce(' | ' || definition(d.classid, d.objid), ''),
                          '\s+', ' ', 'g')
    FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'
    WHERE d.deptype = 'e'
$$;
-- The tables pg_dump keeps as the extension's configuration.
CREATE FUNCTION configuration() RETURNS text LANGUAGE sql AS $$
    SELECT extconfig::regclass[]::text || ' ' || extcondition::text
    FROM pg_extension WHERE extname = 'uid'
$$;
\c contrib_regression
CREATE DATABASE uid_upgrade TEMPLATE uid_upgrade_template;
CREATE DATABASE uid_fresh TEMPLATE uid_upgrade_template;

\c uid_fresh
CREATE EXTENSION uid;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
-- CREATE EXTENSION writes no row into its tables: a publication of every
-- table copies them into a server that has the extension too.
CREATE FUNCTION pg_temp.rows_of(rel regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM %s', rel) INTO n;
    RETURN n;
END
$$;
SELECT c.oid::regclass AS table_with_rows
FROM pg_class c
JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'
WHERE c.relkind = 'r' AND pg_temp.rows_of(c.oid) > 0;
-- Kept for the comparison at the end.  Which objects PostgreSQL records as
-- members differs between versions (17 adds the row and array types of the
-- extension's tables and views; 18 has five of the functions built in), so
-- the two databases are compared with each other, not with fixed counts.
SELECT string_agg(m, E'\n' ORDER BY m) AS fresh_members FROM members() AS m \gset
SELECT configuration() AS fresh_configuration \gset
SELECT count(*) FILTER (WHERE m LIKE 'function uid_next() %') AS uid_next_is_a_member
FROM members() AS m;

\c uid_upgrade
SET timezone = 'UTC';
CREATE EXTENSION uid VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'uid';

-- A user's objects on 1.0.
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(),
                     ref uuid NOT NULL UNIQUE DEFAULT uuid7(), n int);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 100) g;
SELECT uid_ticket_create('invoices', 1, 2);
SELECT uid_ticket_next('invoices');
SELECT uid_counter_next('acme', 'REQ');
CREATE VIEW my_stats AS SELECT worker_id, ids_issued FROM uid_stats;
CREATE TABLE orders_before AS SELECT * FROM orders;
CREATE TABLE functions_before AS
    SELECT p.oid::regprocedure::text AS sig, p.provolatile, p.proisstrict, p.proparallel,
           pg_get_function_result(p.oid) AS result
    FROM pg_proc p
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid';
-- Not in 1.0:
SELECT to_regprocedure('uid_stats_reset()') IS NULL AS no_reset,
       to_regprocedure('uid_advance_past(bigint)') IS NULL AS no_advance;

-- Counters as 1.1 advised hardening them: EXECUTE revoked from PUBLIC and
-- granted to the application role.  Another role relies on PUBLIC.
CREATE ROLE regress_upgrade_app;
CREATE ROLE regress_upgrade_other;
REVOKE EXECUTE ON FUNCTION uid_counter_next(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_counter_next(text, text) TO regress_upgrade_app;
SET ROLE regress_upgrade_app;
SELECT uid_counter_next('globex', 'REQ') AS app_draws_before;
RESET ROLE;
GRANT EXECUTE ON FUNCTION uid_counter_next(text, text) TO PUBLIC;
SET ROLE regress_upgrade_other;
SELECT uid_counter_next('globex', 'REQ') AS public_draws_before;
SELECT count(*) AS uid_stats_public_before FROM uid_stats();
RESET ROLE;

ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';

-- Counters need a grant from 1.2 on: the role 1.1 granted EXECUTE to keeps
-- drawing every tenant's numbers (a '*' grant); PUBLIC no longer draws.
SELECT tenant, prefix, role, applies FROM uid_counter_grants;
-- the row 1.2 seeded into range_epoch is gone; the ticket is this server's
SELECT count(*) AS range_epoch_rows FROM uid_counter.range_epoch;
SELECT name, node, nodes, sequence FROM uid_tickets;
\set VERBOSITY terse
SET ROLE regress_upgrade_app;
SELECT uid_counter_next('globex', 'REQ') AS app_draws_after, uid_counter_next('initech', 'INV') AS any_tenant;
SET ROLE regress_upgrade_other;
SELECT uid_counter_next('globex', 'REQ');
-- uid_stats and the functions behind it: pg_monitor, not PUBLIC
SELECT count(*) FROM uid_stats();
SELECT count(*) FROM uid_stats;
SET ROLE pg_monitor;
SELECT count(*) AS pg_monitor_view, bool_and(ids_issued >= 0) AS pg_monitor_counts FROM uid_stats;
SELECT count(*) AS pg_monitor_1_0 FROM uid_stats();
RESET ROLE;
\set VERBOSITY default

-- Every 1.0 function is still there with the same signature and properties.
SELECT b.sig AS changed_or_missing
FROM functions_before b
LEFT JOIN (SELECT p.oid::regprocedure::text AS sig, p.provolatile, p.proisstrict, p.proparallel,
                  pg_get_function_result(p.oid) AS result
           FROM pg_proc p) a USING (sig)
WHERE a.sig IS NULL OR (a.provolatile, a.proisstrict, a.proparallel, a.result)
                       IS DISTINCT FROM (b.provolatile, b.proisstrict, b.proparallel, b.result);

-- Data and defaults keep working.
SELECT count(*) AS unchanged_rows FROM orders JOIN orders_before USING (id, ref, n);
INSERT INTO orders (n) VALUES (101)
RETURNING id > (SELECT max(id) FROM orders_before) AS id_after,
          ref > (SELECT max(ref::text)::uuid FROM orders_before) AS ref_after;
SELECT uid_ticket_next('invoices') AS ticket_goes_on, uid_counter_next('acme', 'REQ') AS counter_goes_on;

-- The user's view on uid_stats still works; uid_stats() still has its 1.0 row.
SELECT worker_id, ids_issued >= 101 AS counted FROM my_stats;
SELECT count(*) AS uid_stats_1_0_columns FROM json_object_keys(row_to_json(uid_stats()));

-- New in 1.1.
SELECT layout_ends_at, layout_days_left > 0 AS days_left, lease_mode, lease_state
FROM uid_stats;
SELECT uid_stats_reset() <= clock_timestamp() AS reset;
SELECT ids_issued, batch_calls, clock_waits, stats_reset <= clock_timestamp() AS reset_time FROM uid_stats;
SELECT uid_next() > 0 AS next;
SELECT ids_issued FROM uid_stats;
-- uid_advance_past: later IDs are above a given one, whatever its worker.
-- (the first uid_next() after the move waits the 50 ms out: nothing was
-- issued above the new floor yet, so up to uid.reserve_window_ms is waited)
SELECT uid_from_time(clock_timestamp() + interval '50 ms') | (1023 << 12) | 4095 AS past \gset
SELECT uid_advance_past(:past) AS moved;
SELECT uid_next() > :past AS above;
SELECT uid_advance_past(:past) AS not_moved_again;
SELECT uid_advance_past(0) AS not_moved;
SELECT uid_advance_past(-1);
-- more than a day ahead of the clock: refused, nothing moves
SELECT uid_advance_past(9223372036854775807);
SELECT uid_next() < uid_from_time(clock_timestamp() + interval '1 hour') AS not_moved_ahead;
SET ROLE pg_monitor;  -- not a superuser
SELECT uid_stats_reset();
SELECT uid_advance_past(0);
RESET ROLE;

-- The upgraded extension has exactly the members of a fresh install, each
-- defined the same way: this lists each one that is only on one side or
-- differs.
(SELECT 'only after the upgrade' AS side, m AS member FROM members() AS m
 EXCEPT
 SELECT 'only after the upgrade', f FROM unnest(string_to_array(:'fresh_members', E'\n')) AS f)
UNION ALL
(SELECT 'only in a fresh install', f FROM unnest(string_to_array(:'fresh_members', E'\n')) AS f
 EXCEPT
 SELECT 'only in a fresh install', m FROM members() AS m)
ORDER BY 1, 2;
SELECT count(*) = array_length(string_to_array(:'fresh_members', E'\n'), 1) AS same_number_of_members
FROM members();
SELECT configuration() = :'fresh_configuration' AS same_configuration_tables;

DROP OWNED BY regress_upgrade_app, regress_upgrade_other;

-- A table adopted under 1.3: until the update, the library serves 1.3's
-- SQL, whose uid_adopt() runs its ALTER TABLE statements through
-- uid_alter_as_owner(), which the update to 1.4 drops; the current
-- uid_unadopt() moves the column back.
\c contrib_regression
CREATE DATABASE uid_adopted_1_3 TEMPLATE uid_upgrade_template;
\c uid_adopted_1_3
CREATE EXTENSION uid VERSION '1.3';
CREATE TABLE adopted_at_1_3 (id serial PRIMARY KEY);
INSERT INTO adopted_at_1_3 DEFAULT VALUES;
SELECT count(*) AS steps_at_1_3 FROM uid_adopt('adopted_at_1_3', widen => true);
ALTER EXTENSION uid UPDATE;
SELECT count(*) AS steps_after_update FROM uid_unadopt('adopted_at_1_3');
DROP TABLE adopted_at_1_3;

-- The upgrade from the last release alone: its frozen install script
-- (uid--1.4.sql), then the upgrade script built from the parts of this
-- version: the same members as a fresh install too.
\c contrib_regression
CREATE DATABASE uid_from_last TEMPLATE uid_upgrade_template;
\c uid_from_last
CREATE EXTENSION uid VERSION '1.4';
ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
(SELECT 'only after the upgrade' AS side, m AS member FROM members() AS m
 EXCEPT
 SELECT 'only after the upgrade', f FROM unnest(string_to_array(:'fresh_members', E'\n')) AS f)
UNION ALL
(SELECT 'only in a fresh install', f FROM unnest(string_to_array(:'fresh_members', E'\n')) AS f
 EXCEPT
 SELECT 'only in a fresh install', m FROM members() AS m)
ORDER BY 1, 2;
SELECT count(*) = array_length(string_to_array(:'fresh_members', E'\n'), 1) AS same_number_of_members
FROM members();
SELECT configuration() = :'fresh_configuration' AS same_configuration_tables;

\c contrib_regression
DROP ROLE regress_upgrade_app, regress_upgrade_other;
DROP DATABASE uid_upgrade;
DROP DATABASE uid_fresh;
DROP DATABASE uid_from_last;
DROP DATABASE uid_adopted_1_3;
DROP DATABASE uid_upgrade_template;
