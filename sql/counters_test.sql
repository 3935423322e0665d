-- Tenant-scoped counters: gap-free numbers per (tenant, prefix), PREFIX-001
-- uid's errors carry no CONTEXT lines: psql shows them as it does by default

-- err(statement): 'ok', or the SQLSTATE and message of the error it raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- defaults: start 1, width 3; each (tenant, prefix) has its own counter
SELECT uid_counter_next('acme', 'REQ') FROM generate_series(1, 3);
SELECT uid_counter_next('globex', 'REQ');
SELECT uid_counter_next('acme', 'INV');

-- formatting: zero-padded to width, wider numbers printed whole
SELECT uid_counter_format('REQ', 7, 3), uid_counter_format('REQ', 1234, 3),
       uid_counter_format('REQ', 0, 1), uid_counter_format('X', 9223372036854775807, 19);

-- settings: tenant field, then the prefix's global field, then the default
SELECT uid_counter_configure('TCK', start => 100);              -- global start
SELECT uid_counter_configure('TCK', 'acme', width => 6);        -- acme: width only
SELECT uid_counter_configure('TCK', 'initech', start => 5000, width => 2);
SELECT uid_counter_next('acme', 'TCK');      -- start 100 (global), width 6 (acme)
SELECT uid_counter_next('globex', 'TCK');    -- start 100, width 3 (default)
SELECT uid_counter_next('initech', 'TCK');   -- start 5000, width 2: printed whole
SELECT * FROM uid_counter_settings ORDER BY prefix, tenant NULLS FIRST;

-- changes apply at once: width on the next call; a higher start jumps ahead;
-- a lower start never reissues a number
SELECT uid_counter_configure('TCK', 'acme', width => 2);
SELECT uid_counter_next('acme', 'TCK');
SELECT uid_counter_configure('TCK', start => 900);
SELECT uid_counter_next('acme', 'TCK'), uid_counter_next('globex', 'TCK');
SELECT uid_counter_configure('TCK', start => 1);
SELECT uid_counter_next('acme', 'TCK');
-- both NULL removes the row: acme falls back to the default width again
SELECT uid_counter_configure('TCK', 'acme');
SELECT uid_counter_next('acme', 'TCK');

-- transactional and gap-free: a rolled-back number is given back
BEGIN;
SELECT uid_counter_next('acme', 'GAP');
SELECT uid_counter_next('acme', 'GAP');
ROLLBACK;
SELECT uid_counter_next('acme', 'GAP');
BEGIN;
SELECT uid_counter_next('acme', 'GAP');
SAVEPOINT s;
SELECT uid_counter_next('acme', 'GAP');
ROLLBACK TO s;
SELECT uid_counter_next('acme', 'GAP');
COMMIT;
SELECT prefix, tenant, first_value, last_value, last_id FROM uid_counters
 WHERE prefix = 'GAP';

-- as a column default
CREATE TABLE requests (id text PRIMARY KEY DEFAULT uid_counter_next('acme', 'RQ'), what text);
INSERT INTO requests (what) VALUES ('a'), ('b');
SELECT * FROM requests ORDER BY id;
DROP TABLE requests;

-- ranges: two tenants share prefix SHR without ever printing the same ID
SELECT uid_counter_set_range('acme', 'SHR', 1, 3);
SELECT uid_counter_set_range('globex', 'SHR', 1000, 1999);
SELECT uid_counter_next('acme', 'SHR') FROM generate_series(1, 3);
SELECT uid_counter_next('globex', 'SHR') FROM generate_series(1, 2);
-- the end of a range is an error, and uses nothing up
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'SHR')$$);
SELECT last_value FROM uid_counters WHERE prefix = 'SHR' AND tenant = 'acme';
-- widening the range lets the tenant go on
SELECT uid_counter_set_range('acme', 'SHR', 1, 10);
SELECT uid_counter_next('acme', 'SHR');
-- a tenant without a range may not draw from a prefix with ranges
SELECT pg_temp.err($$SELECT uid_counter_next('initech', 'SHR')$$);
-- overlaps are refused: other ranges, other tenants' issued numbers, and a
-- range that would leave out the tenant's own issued numbers
SELECT pg_temp.err($$SELECT uid_counter_set_range('initech', 'SHR', 10, 20)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('initech', 'SHR', 1999, 3000)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'SHR', 5, 100)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'SHR', 1, 1500)$$);
SELECT uid_counter_set_range('initech', 'SHR', 2000, 2999);
SELECT uid_counter_next('initech', 'SHR');
-- a tenant's range starts at lo even when the start setting is lower
SELECT uid_counter_set_range('acme', 'SHR2', 50, 60);
SELECT uid_counter_next('acme', 'SHR2');
-- the same bounds under another prefix do not conflict
SELECT uid_counter_set_range('globex', 'SHR2', 1000, 1999);
SELECT uid_counter_set_range('globex', 'SHR3', 1000, 1999);
-- unsetting: the tenant's issued numbers stay reserved against the others
SELECT uid_counter_unset_range('initech', 'SHR');
SELECT pg_temp.err($$SELECT uid_counter_set_range('globex', 'SHR', 1000, 2000)$$);
SELECT pg_temp.err($$SELECT uid_counter_unset_range('initech', 'SHR')$$);
SELECT * FROM uid_counter_settings WHERE range_lo IS NOT NULL ORDER BY prefix, tenant;
-- every ID printed under SHR is distinct
SELECT count(*) AS counters, count(DISTINCT last_value) AS distinct_last
  FROM uid_counters WHERE prefix = 'SHR';

-- the database itself refuses overlapping ranges (exclusion constraint),
-- even for a writer that bypasses the functions
SELECT pg_temp.err($$INSERT INTO uid_counter.ranges (prefix, tenant, lo, hi) VALUES ('SHR', 'hooli', 1500, 1500)$$);
SELECT pg_temp.err($$INSERT INTO uid_counter.ranges (prefix, tenant, lo, hi) VALUES ('SHR3', 'hooli', 1500, 1500)$$);
SELECT pg_temp.err($$INSERT INTO uid_counter.ranges (prefix, tenant, lo, hi) VALUES ('SHR', 'hooli', 5000, 5000)$$);
DELETE FROM uid_counter.ranges WHERE tenant = 'hooli';
-- prefix codes are exact: prefixes that differ only in padding or length
-- land in different windows
SELECT uid_counter._prefix_code('A') <> uid_counter._prefix_code('A_') AS a_vs_a_,
       uid_counter._prefix_code('B') > uid_counter._prefix_code('AZZZZZZZZZZZZZZZ') AS ordered;

-- range changes need READ COMMITTED
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'RR', 1, 10)$$);
COMMIT;

-- bad tenants and prefixes, including injection attempts
SELECT uid_counter_next('acme', 'req');
SELECT uid_counter_next('ac me', 'REQ');
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'req')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', '1REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ-')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'ABCDEFGHIJKLMNOPQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', '')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', NULL)$$);
SELECT pg_temp.err($$SELECT uid_counter_next(NULL, 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('-acme', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next(repeat('a', 64), 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme''; DELETE FROM uid_counter.counters; --', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ''); DROP SCHEMA uid_counter CASCADE; --')$$);
SELECT pg_temp.err($$SELECT uid_counter_configure('REQ', 'acme', start => -1)$$);
SELECT pg_temp.err($$SELECT uid_counter_configure('REQ', 'acme', width => 0)$$);
SELECT pg_temp.err($$SELECT uid_counter_configure('REQ', 'acme', width => 20)$$);
SELECT pg_temp.err($$SELECT uid_counter_configure('req', start => 1)$$);
SELECT pg_temp.err($$SELECT uid_counter_configure('REQ', 'a b', start => 1)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'NEW', 10, 5)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'NEW', -1, 5)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'NEW', 1, NULL)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'NEW', 1, 9223372036854775807)$$);
SELECT pg_temp.err($$SELECT uid_counter_unset_range('acme', 'NEW')$$);
-- a start beyond the end of the tenant's range
SELECT uid_counter_set_range('acme', 'SHR4', 1, 5);
SELECT uid_counter_configure('SHR4', 'acme', start => 6);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'SHR4')$$);
-- nothing was changed by the bad calls
SELECT count(*) AS counters FROM uid_counters WHERE prefix IN ('NEW', 'SHR4') OR tenant = 'ac me';
SELECT count(*) AS counters, sum(last_value) AS sum_last FROM uid_counters;

-- the end of the number line: the last number is issued once, then an error
SELECT uid_counter_configure('END', start => 9223372036854775805);
SELECT uid_counter_next('acme', 'END'), uid_counter_next('acme', 'END');
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'END')$$);

-- privileges: a role draws only the tenants it is granted (the grant model
-- has its own file, counter_grants), only the owner configures, and nobody
-- else writes the tables directly
CREATE ROLE regress_uid_counter_user;
SET ROLE regress_uid_counter_user;
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'ROLE')$$);
RESET ROLE;
SELECT uid_counter_grant('acme', 'regress_uid_counter_user');
SET ROLE regress_uid_counter_user;
SELECT uid_counter_next('acme', 'ROLE');
SELECT pg_temp.err($$SELECT uid_counter_configure('ROLE', start => 5)$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('acme', 'ROLE', 1, 5)$$);
SELECT pg_temp.err($$UPDATE uid_counter.counters SET last_value = 0$$);
RESET ROLE;
SELECT uid_counter_revoke('acme', 'regress_uid_counter_user');
DROP ROLE regress_uid_counter_user;

-- the state is extension configuration: pg_dump keeps it
SELECT e.cfg::regclass::text AS configuration_table
  FROM pg_extension x, unnest(x.extconfig) AS e(cfg)
 WHERE x.extname = 'uid'
   AND e.cfg::regclass::text ~ '^uid_(ticket|counter)\.'
 ORDER BY 1;

-- admin functions are not for PUBLIC
SELECT p.proname, has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_run
  FROM pg_proc p WHERE p.proname LIKE 'uid_counter_%' ORDER BY 1;

-- Other writers.  A range may belong to one server (node, matched against
-- that server's uid.counter_node, which only the server's configuration
-- sets): no other server draws from it.
SELECT uid_counter_set_range('owned-a', 'NOD', 1, 100, node => 'node_a');
SELECT uid_counter_set_range('anywhere', 'NOD', 101, 200);
SELECT prefix, tenant, range_lo, range_hi, range_node FROM uid_counter_settings
 WHERE prefix = 'NOD' ORDER BY tenant;
SHOW uid.counter_node;
SELECT pg_temp.err($$SELECT uid_counter_next('owned-a', 'NOD')$$);
SELECT pg_temp.err($$SET uid.counter_node = 'node_a'$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('x', 'NOD', 300, 400, node => 'node a')$$);
SELECT pg_temp.err($$SELECT uid_counter_set_range('x', 'NOD', 300, 400, node => '')$$);
SELECT uid_counter_next('anywhere', 'NOD');
-- A subscription that lists uid_counter.counters (here one that never
-- connects, its table listed by hand): every counter without a range of
-- this server refuses, the next call after pg_subscription_rel changes
-- already.
SELECT uid_counter._replicated() AS replicated;
SET client_min_messages = error;  -- its warning differs between versions
CREATE SUBSCRIPTION regress_uid_sub CONNECTION 'dbname=regress_uid_nowhere' PUBLICATION p
  WITH (connect = false, enabled = false, create_slot = false, slot_name = NONE);
RESET client_min_messages;
INSERT INTO pg_subscription_rel (srsubid, srrelid, srsubstate, srsublsn)
SELECT s.oid, 'uid_counter.counters'::regclass, 'r', NULL
  FROM pg_subscription s WHERE s.subname = 'regress_uid_sub';
SELECT uid_counter._replicated() AS replicated;
SELECT pg_temp.err($$SELECT uid_counter_next('anywhere', 'NOD')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('acme', 'REQ')$$);
SELECT pg_temp.err($$SELECT uid_counter_next('owned-a', 'NOD')$$);
DELETE FROM pg_subscription_rel WHERE srrelid = 'uid_counter.counters'::regclass;
DROP SUBSCRIPTION regress_uid_sub;
SELECT uid_counter._replicated() AS replicated;
SELECT uid_counter_next('anywhere', 'NOD');
-- range_epoch: written by range changes (CREATE EXTENSION seeds no row);
-- a REPEATABLE READ call without it inserts it, and fails with 40001 if the
-- first range change committed after its snapshot
DELETE FROM uid_counter.range_epoch;
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT uid_counter_next('anywhere', 'NOD');
COMMIT;
SELECT count(*) AS epoch_rows FROM uid_counter.range_epoch;
DELETE FROM uid_counter.range_epoch;
SELECT uid_counter_unset_range('anywhere', 'NOD');
SELECT count(*) AS epoch_rows FROM uid_counter.range_epoch;

-- uid's own errors as a caller sees them: message, detail and hint, and no
-- CONTEXT lines of uid's PL/pgSQL inside
SELECT uid_counter_next('acme', 'bad prefix');
SELECT uid_counter_configure('REQ', start => -1);
-- an EXCEPTION block of the caller catches them by their condition
DO $$
BEGIN
    PERFORM uid_counter_next('acme', 'bad prefix');
EXCEPTION WHEN invalid_parameter_value THEN
    RAISE NOTICE 'caught %: %', SQLSTATE, SQLERRM;
END
$$;

-- leave no state behind for the tests that follow
TRUNCATE uid_counter.counters, uid_counter.settings, uid_counter.ranges;
