-- uid_audit() (src/tables/audit.c): a column of IDs checked against the
-- tenure ledger (sql/parts/tenure.sql).  EXECUTE: superusers and pg_monitor
-- only, as the ledger's.

-- not STRICT: a NULL argument is an error (src/tables/audit.c)
CREATE FUNCTION uid_audit(tbl regclass, col name, sample real DEFAULT 1.0,
    OUT kind text, OUT worker_id integer, OUT day date, OUT ids bigint, OUT example text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_audit'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_audit(regclass, name, real) IS
'Audits a column of uid_next() ids (bigint) against the tenure ledger: per worker id and day (UTC), the ids no tenure explains (foreign, cloned, restored elsewhere) and those from the future beyond uid.lease_max_clock_skew, with the lowest of each, and the total per worker id; for a UUIDv7 column (uuid), those from the future. sample: the fraction of pages read.';

REVOKE ALL ON FUNCTION uid_audit(regclass, name, real) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_audit(regclass, name, real) TO pg_monitor;
