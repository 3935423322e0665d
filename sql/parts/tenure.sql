-- Tenure ledger (src/lease/lease_store.c, src/lease/tenure.c, src/tables/audit.c)
-- The ledger of the lease store, read through uid_tenures(), and the
-- operator's functions over it.  EXECUTE: superusers and pg_monitor only
-- (the ledger names hosts and ports; docs/security.md).

CREATE FUNCTION uid_tenures(of_worker integer DEFAULT NULL,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_tenures'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_tenures(integer) IS
'The tenure ledger of the lease store (of one worker id if given): one row per tenure, with the Unix milliseconds first_ms to last_ms its holder could issue in.';

CREATE FUNCTION uid_whence(id bigint,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_whence'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION uid_whence(bigint) IS
'The tenure(s) whose worker id and window of milliseconds contain this uid_next() id: the server that issued it. More than one row means two tenures overlap (an alarm); none, that no tenure the ledger keeps explains it.';

-- not STRICT: a NULL argument is an error (src/tables/audit.c)
CREATE FUNCTION uid_audit(tbl regclass, col name, sample real DEFAULT 1.0,
    OUT kind text, OUT worker_id integer, OUT day date, OUT ids bigint, OUT example text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_audit'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_audit(regclass, name, real) IS
'Audits a column of uid_next() ids (bigint) against the tenure ledger: per worker id and day (UTC), the ids no tenure explains (foreign, cloned, restored elsewhere) and those from the future beyond uid.lease_max_clock_skew, with the lowest of each, and the total per worker id; for a UUIDv7 column (uuid), those from the future. sample: the fraction of pages read.';

REVOKE ALL ON FUNCTION uid_tenures(integer), uid_whence(bigint),
    uid_audit(regclass, name, real) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenures(integer), uid_whence(bigint),
    uid_audit(regclass, name, real) TO pg_monitor;

