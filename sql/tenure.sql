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

-- invalid: no such column, a column of another type, a sample out of range
SELECT * FROM uid_audit('audited', 'nope');
SELECT * FROM uid_audit('audited', 'n');
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
ORDER BY p.proname;
DROP TABLE audited;
