-- ---------------------------------------------------------------------------
-- The uid_stats view (src/core/stats_sql.c, src/lease/lease.c): one row of the
-- generator's counters, the lease and the tenure ledger's counts.  Also
-- run by the upgrade from 1.3, which puts uid_stats_1_4() behind the view.
-- ---------------------------------------------------------------------------

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
