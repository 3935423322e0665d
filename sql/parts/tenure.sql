-- Tenure ledger (src/lease/lease_store.c, src/lease/tenure.c)
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

REVOKE ALL ON FUNCTION uid_tenures(integer), uid_whence(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenures(integer), uid_whence(bigint) TO pg_monitor;

-- The uid form (docs/security.md; sql/parts/advance_past_uid.sql says why),
-- which checks EXECUTE on the bigint form.
CREATE FUNCTION pg_catalog.uid_whence(id @extschema@.uid,
    OUT worker_id integer, OUT token bigint, OUT system_identifier numeric,
    OUT timeline integer, OUT host text, OUT port integer,
    OUT started_at timestamptz, OUT first_ms bigint, OUT last_ms bigint,
    OUT ended_at timestamptz, OUT ended_how text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_whence_uid'
LANGUAGE C VOLATILE STRICT;
