-- Lease functions on a server with a static worker id (uid.worker_id = 7,
-- test/uid_test.conf): the status says so, and release/acquire refuse.
SELECT mode, state, worker_id, token, store, acquired_at, expires_at,
       generate_until, renewals, renewal_failures, free_ids, last_error, worker_pid
FROM uid_lease_status();

SELECT (uid_decode(uid_next())).worker_id;
SELECT (uid_lease_status()).mode, uid_lease_status()::text LIKE '(static,static,7,%' AS as_record;

-- invalid: no lease to release or take in static mode
SELECT uid_lease_release();
SELECT uid_lease_acquire();

-- the lease settings exist with their defaults
SELECT name, setting, unit, context FROM pg_settings
WHERE name LIKE 'uid.lease%' OR name = 'uid.worker_id' ORDER BY name;

-- release and acquire are for superusers only
SELECT has_function_privilege('public', 'uid_lease_release()', 'EXECUTE') AS release_public,
       has_function_privilege('public', 'uid_lease_acquire()', 'EXECUTE') AS acquire_public,
       has_function_privilege('public', 'uid_lease_status()', 'EXECUTE') AS status_public;

-- the lease table's definition, as the lease worker runs it (quoted names)
SELECT line FROM regexp_split_to_table(uid_lease_table_sql('uid_lease'), E'\n') AS line;
SELECT line FROM regexp_split_to_table(uid_lease_table_sql('Lease Role', 'my leases'), E'\n') AS line
WHERE line LIKE '%"%';
SELECT uid_lease_table_sql(NULL) IS NULL AS strict;
-- invalid: a reserved schema name
SELECT uid_lease_table_sql('uid_lease', 'pg_leases');
SELECT has_function_privilege('public', 'uid_lease_table_sql(name, name)', 'EXECUTE') AS table_sql_public;
