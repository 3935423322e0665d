-- ---------------------------------------------------------------------------
-- Worker ids from a lease table (src/lease/lease.c; the table and its statements:
-- src/lease/lease_store.c, run by the lease worker, src/lease/lease_worker.c)
-- ---------------------------------------------------------------------------
-- The lease table itself lives in the lease store (uid.lease_database of this
-- server, or the coordination database of uid.lease_conninfo) and is created
-- there by the lease worker, so the store needs no CREATE EXTENSION.  Every
-- statement can run again over an older version's objects: the upgrade from
-- 1.3 runs this file too, for uid_lease_ledger().

CREATE OR REPLACE FUNCTION uid_lease_status(
    OUT mode text,
    OUT state text,
    OUT worker_id integer,
    OUT token bigint,
    OUT store text,
    OUT acquired_at timestamptz,
    OUT renewed_at timestamptz,
    OUT expires_at timestamptz,
    OUT generate_until timestamptz,
    OUT renewals bigint,
    OUT renewal_failures bigint,
    OUT consecutive_failures integer,
    OUT losses bigint,
    OUT free_ids integer,
    OUT last_error text,
    OUT worker_pid integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_status'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_status() IS
'This server''s worker id lease: state, worker id, fencing token, expiry (store clock), issuing deadline (this server''s clock), renewals and failures, free ids in the pool.';

CREATE OR REPLACE FUNCTION uid_lease_release()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_release'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_release() IS
'Gives this server''s worker id back to the lease store at once; uid_next() fails until uid_lease_acquire() or a restart. True when released within 10 s.';

CREATE OR REPLACE FUNCTION uid_lease_acquire()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_acquire'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_acquire() IS
'Undoes uid_lease_release(): the lease worker takes a free worker id again. True when one is held within 10 s.';

REVOKE ALL ON FUNCTION uid_lease_release() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_lease_acquire() FROM PUBLIC;

-- The lease worker refuses a lease schema or table that neither its role in
-- the store nor a superuser owns.  uid_lease_table_sql() prints the statements
-- that create them, owned by a given role, for creating them beforehand in a
-- coordination database (the same text the lease worker runs).

CREATE OR REPLACE FUNCTION uid_lease_table_sql(owner name, schema name DEFAULT 'uid_lease')
RETURNS text
AS 'MODULE_PATHNAME', 'uid_lease_table_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_table_sql(name, name) IS
'The statements that create the lease table and its schema, owned by owner: the definition the lease worker uses, for creating it beforehand in a lease store.';

-- the uid_stats view (sql/parts/stats_view.sql) calls uid_lease_status():
-- pg_monitor keeps it, whatever PUBLIC has
GRANT EXECUTE ON FUNCTION uid_lease_status() TO pg_monitor;

-- The tenure ledger's state for monitoring, the last two columns of the
-- uid_stats view.
CREATE OR REPLACE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;
