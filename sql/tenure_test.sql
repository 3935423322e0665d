-- The tenure ledger's functions on a server with a static worker id and no
-- lease store (test/uid_test.conf): bad input, the ledger that cannot be
-- read here, and the audit of a UUIDv7 column, which needs no ledger.
SET timezone = 'UTC';
CREATE TABLE audited (id bigint, u uuid, n integer);
INSERT INTO audited SELECT uid_next(), uuid7(), g FROM generate_series(1, 100) AS g;

-- UUIDv7: a clean column, then one value from the future
SELECT kind, worker_id, ids FROM uid_audit('audited', 'u');
INSERT INTO audited (u) VALUES (uuid7('2030-01-01 00:00:00+00'));
SELECT kind, day, ids FROM uid_audit('audited', 'u');
-- a sample reads a fraction of the pages (all of them on a table this small)
SELECT kind FROM uid_audit('audited', 'u', 0.5) WHERE kind = 'total';

-- NULLs are not counted; a UUID of another version or the nil UUID is not
-- from the future
INSERT INTO audited (id, u) VALUES (1, NULL), (2, NULL), (3, gen_random_uuid()),
    (4, '00000000-0000-0000-0000-000000000000'), (5, 'ffffffff-ffff-8fff-bfff-ffffffffffff');
SELECT kind, day, ids FROM uid_audit('audited', 'u');
-- a table with no rows: the total only
CREATE TABLE audited_empty (id bigint, u uuid);
SELECT kind, worker_id, day, ids, example FROM uid_audit('audited_empty', 'u');
-- a sample of 0.5 over about 100 pages reads some of them, not all
CREATE TABLE audited_big AS SELECT uuid7() AS u FROM generate_series(1, 20000);
SELECT ids > 0 AND ids < 20000 AS subset FROM uid_audit('audited_big', 'u', 0.5) WHERE kind = 'total';
SELECT ids FROM uid_audit('audited_big', 'u', 1) WHERE kind = 'total';
-- a view (as its owner) and an inherited table (each member on its own)
CREATE VIEW audited_view AS SELECT u FROM audited WHERE id IS NOT NULL;
SELECT kind, ids FROM uid_audit('audited_view', 'u');
CREATE TABLE audited_child () INHERITS (audited_empty);
INSERT INTO audited_child (u) SELECT uuid7() FROM generate_series(1, 3);
SELECT kind, ids FROM uid_audit('audited_empty', 'u');
CREATE MATERIALIZED VIEW audited_mv AS SELECT u FROM audited WITH NO DATA;
SELECT * FROM uid_audit('audited_mv', 'u');
REFRESH MATERIALIZED VIEW audited_mv;
SELECT kind, ids FROM uid_audit('audited_mv', 'u') WHERE kind = 'total';

-- the caller needs SELECT on the column (or the table); row-level
-- security that applies to the caller is refused (its policies are the
-- owner's code, never run with the caller's rights)
CREATE ROLE regress_audit_reader IN ROLE pg_monitor;
SET ROLE regress_audit_reader;
SELECT * FROM uid_audit('audited', 'u');
RESET ROLE;
GRANT SELECT (u) ON audited TO regress_audit_reader;
SET ROLE regress_audit_reader;
SELECT kind, ids FROM uid_audit('audited', 'u') WHERE kind = 'total';
RESET ROLE;
ALTER TABLE audited ENABLE ROW LEVEL SECURITY;
CREATE POLICY audited_some ON audited TO regress_audit_reader USING (n <= 10);
GRANT SELECT ON audited TO regress_audit_reader;
SET ROLE regress_audit_reader;
SELECT kind, ids FROM uid_audit('audited', 'u') WHERE kind = 'total';
RESET ROLE;
ALTER TABLE audited DISABLE ROW LEVEL SECURITY;
DROP POLICY audited_some ON audited;
REVOKE ALL ON audited FROM regress_audit_reader;
DROP ROLE regress_audit_reader;

-- invalid: no such column, a column of another type, a sample out of range
SELECT * FROM uid_audit('audited', 'nope');
SELECT * FROM uid_audit('audited', 'ctid');
SELECT * FROM uid_audit('audited', 'n');
ALTER TABLE audited ADD COLUMN t text, ADD COLUMN gone bigint;
ALTER TABLE audited DROP COLUMN gone;
SELECT * FROM uid_audit('audited', 't');
SELECT * FROM uid_audit('audited', 'gone');
SELECT * FROM uid_audit('audited', 'u', 0);
SELECT * FROM uid_audit('audited', 'u', 1.5);
SELECT * FROM uid_audit('audited', 'u', NULL);
SELECT * FROM uid_audit(NULL, 'u');
SELECT * FROM uid_audit('no_such_table', 'u');
-- invalid: a worker id out of range
SELECT * FROM uid_tenures(-1);
SELECT * FROM uid_tenures(1024);

-- NULL in, nothing out
SELECT count(*) FROM uid_whence(NULL);

-- the ledger is read in the lease store only (here: database postgres)
SELECT * FROM uid_tenures();
SELECT * FROM uid_whence(1);
SELECT * FROM uid_tenure_overlaps();
\set VERBOSITY terse
SELECT * FROM uid_audit('audited', 'id');
\set VERBOSITY default

-- EXECUTE: superusers and pg_monitor only
SELECT p.oid::regprocedure AS function,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public,
       has_function_privilege('pg_monitor', p.oid, 'EXECUTE') AS pg_monitor
FROM pg_proc p
WHERE p.proname IN ('uid_tenures', 'uid_whence', 'uid_tenure_overlaps', 'uid_audit')
ORDER BY p.oid::regprocedure::text;
DROP VIEW audited_view;
DROP MATERIALIZED VIEW audited_mv;
DROP TABLE audited, audited_empty, audited_child, audited_big;

-- A sample of no page (1e-30 of the pages) gives one total row of 0, for
-- ids as for UUIDs.  Ids need a ledger: in the lease store's database
-- (postgres), one made empty by hand.
\c postgres
CREATE EXTENSION uid;
DO $$ BEGIN EXECUTE uid_lease_table_sql(current_user); END $$;
CREATE TABLE audited_sample (id bigint, u uuid);
INSERT INTO audited_sample SELECT uid_next(), uuid7() FROM generate_series(1, 1000);
SELECT kind, worker_id, day, ids, example FROM uid_audit('audited_sample', 'id', 1e-30);
SELECT kind, worker_id, day, ids, example FROM uid_audit('audited_sample', 'u', 1e-30);
-- the whole table: the empty ledger explains no id
SELECT kind, worker_id, sum(ids) FROM uid_audit('audited_sample', 'id') GROUP BY kind, worker_id ORDER BY kind;
DROP TABLE audited_sample;
SET client_min_messages = warning;
DROP SCHEMA uid_lease CASCADE;
DROP EXTENSION uid;
\c contrib_regression
