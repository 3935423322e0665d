
-- ---------------------------------------------------------------------------
-- Observability (src/stats.c)
-- ---------------------------------------------------------------------------

CREATE FUNCTION uid_stats(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats() IS
'Counters of the uid generators since the server started; one row.';

CREATE VIEW uid_stats AS SELECT * FROM uid_stats();

COMMENT ON VIEW uid_stats IS
'One row per server: worker id, IDs issued, clock waits and refusals, overflow waits, durable reservation.';
