-- ---------------------------------------------------------------------------
-- The uid_stats view (src/core/stats_sql.c, src/lease/lease.c): one row of the
-- generator's counters, the lease and the tenure ledger's counts.  Also
-- run by the upgrade from 1.3, which puts uid_stats_1_4() behind the view.
-- ---------------------------------------------------------------------------

-- The tenure ledger's state for monitoring, the last two columns of the
-- uid_stats view.
CREATE OR REPLACE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;

COMMENT ON FUNCTION uid_stats_1_1() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; the uid_stats view of 1.1 to 1.3 read it, for pg_monitor.';

-- The columns of uid_stats_1_1() and where uid_next()'s floor came from,
-- for every role: it refuses roles outside
-- pg_monitor itself, with a hint that names the grant (src/core/stats_sql.c);
-- PostgreSQL's own "permission denied for view uid_stats" has none.
CREATE OR REPLACE FUNCTION uid_stats_1_4(
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
    OUT layout_days_left integer,
    OUT floor_source text,
    OUT floor_at timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats_1_4'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_1_4() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; behind the uid_stats view. Refuses roles without the privileges of pg_monitor (42501).';

GRANT EXECUTE ON FUNCTION uid_stats_1_4() TO PUBLIC;

CREATE OR REPLACE VIEW uid_stats AS
SELECT s.worker_id, s.ids_issued, s.uuids_issued, s.batch_calls,
       s.clock_waits, s.clock_refusals, s.max_clock_step_ms, s.overflow_waits,
       s.reserve_writes, s.last_issued_at, s.reserved_until, s.clock_steps,
       s.stats_reset, s.layout_ends_at, s.layout_days_left,
       l.mode AS lease_mode, l.state AS lease_state, l.token AS lease_token,
       l.expires_at AS lease_expires_at, l.renewed_at AS lease_renewed_at,
       l.renewal_failures AS lease_renewal_failures, l.free_ids AS lease_free_ids,
       t.tenures AS lease_tenures, t.tenure_overlaps AS lease_tenure_overlaps,
       s.floor_source, s.floor_at
FROM @extschema@.uid_stats_1_4() s
CROSS JOIN @extschema@.uid_lease_status() l
CROSS JOIN @extschema@.uid_lease_ledger() t;

COMMENT ON VIEW uid_stats IS
'One row per server: worker id and lease, IDs and UUIDs issued, clock waits and refusals, overflow waits, durable reservation, days left in the layout, the tenure ledger''s tenures and overlaps, where uid_next()''s floor came from.';

-- Monitoring data, for members of pg_monitor: the view is PUBLIC, and
-- uid_stats_1_4() refuses other roles.
GRANT SELECT ON uid_stats TO PUBLIC;
GRANT SELECT ON uid_stats TO pg_monitor;

