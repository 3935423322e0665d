-- uid_tenure_overlaps(), what the UidTenureOverlap alert tells operators
-- to run, over uid_tenures() (sql/parts/tenure.sql).  Also run by the upgrade
-- from 1.3, which replaced a call of uid_tenures() that left out its
-- defaulted argument: a function of another role under that name with no
-- arguments (the constructor of a multirange type, which CREATE TYPE makes)
-- made it ambiguous (42725).  Every call passes every argument, of exactly
-- the declared types.

CREATE OR REPLACE FUNCTION uid_tenure_overlaps(
    OUT worker_id integer,
    OUT token_a bigint, OUT system_identifier_a numeric, OUT host_a text, OUT port_a integer,
    OUT first_ms_a bigint, OUT last_ms_a bigint,
    OUT token_b bigint, OUT system_identifier_b numeric, OUT host_b text, OUT port_b integer,
    OUT first_ms_b bigint, OUT last_ms_b bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH t AS MATERIALIZED (
        SELECT * FROM @extschema@.uid_tenures(NULL::pg_catalog.int4) AS u
        WHERE u.first_ms <= u.last_ms)
    SELECT a.worker_id, a.token, a.system_identifier, a.host, a.port, a.first_ms, a.last_ms,
           b.token, b.system_identifier, b.host, b.port, b.first_ms, b.last_ms
    FROM t AS a JOIN t AS b ON b.worker_id = a.worker_id
     AND (a.first_ms < b.first_ms
          OR (a.first_ms = b.first_ms AND a.token < b.token))
     AND b.first_ms <= a.last_ms
    ORDER BY a.worker_id, a.first_ms, b.first_ms
$$;

COMMENT ON FUNCTION uid_tenure_overlaps() IS
'Every pair of tenures of one worker id whose windows of milliseconds overlap: two servers could have issued the same id. Empty on a healthy fleet.';

REVOKE ALL ON FUNCTION uid_tenure_overlaps() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenure_overlaps() TO pg_monitor;
