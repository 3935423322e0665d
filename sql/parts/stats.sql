-- ---------------------------------------------------------------------------
-- Observability (src/stats.c)
-- ---------------------------------------------------------------------------
-- uid_stats() keeps the twelve columns it had in 1.0, for queries and views
-- built on it; the uid_stats view reads uid_stats_1_1(), which has them all,
-- and the lease state.

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

CREATE FUNCTION uid_stats_1_1(
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
    OUT clock_steps bigint,
    OUT stats_reset timestamptz,
    OUT layout_ends_at timestamptz,
    OUT layout_days_left integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats_1_1'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_1_1() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; behind the uid_stats view.';

-- The tenure ledger's state for monitoring (src/lease.c), the last two
-- columns of the uid_stats view.
CREATE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;

CREATE VIEW uid_stats AS
SELECT s.worker_id, s.ids_issued, s.uuids_issued, s.batch_calls,
       s.clock_waits, s.clock_refusals, s.max_clock_step_ms, s.overflow_waits,
       s.reserve_writes, s.last_issued_at, s.reserved_until, s.clock_steps,
       s.stats_reset, s.layout_ends_at, s.layout_days_left,
       l.mode AS lease_mode, l.state AS lease_state, l.token AS lease_token,
       l.expires_at AS lease_expires_at, l.renewed_at AS lease_renewed_at,
       l.renewal_failures AS lease_renewal_failures, l.free_ids AS lease_free_ids,
       t.tenures AS lease_tenures, t.tenure_overlaps AS lease_tenure_overlaps
FROM @extschema@.uid_stats_1_1() s
CROSS JOIN @extschema@.uid_lease_status() l
CROSS JOIN @extschema@.uid_lease_ledger() t;

COMMENT ON VIEW uid_stats IS
'One row per server: worker id and lease, IDs and UUIDs issued, clock waits and refusals, overflow waits, durable reservation, days left in the layout, the tenure ledger''s tenures and overlaps.';

CREATE FUNCTION uid_stats_reset()
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_stats_reset'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_reset() IS
'Starts every counter of uid_stats from zero; returns the time of the reset. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_stats_reset() FROM PUBLIC;

CREATE FUNCTION uid_advance_past(id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_advance_past'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION uid_advance_past(bigint) IS
'Every later uid_next() of this server is greater than id (durably): for data restored from another server. True if the generator moved. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_advance_past(bigint) FROM PUBLIC;

-- The view and the functions behind it are for pg_monitor, not PUBLIC.
REVOKE ALL ON FUNCTION uid_stats() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_stats_1_1() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_stats() TO pg_monitor;
GRANT EXECUTE ON FUNCTION uid_stats_1_1() TO pg_monitor;
-- the view also calls uid_lease_status(): pg_monitor keeps it, whatever PUBLIC has
GRANT EXECUTE ON FUNCTION uid_lease_status() TO pg_monitor;
GRANT SELECT ON uid_stats TO pg_monitor;

