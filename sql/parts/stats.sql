-- ---------------------------------------------------------------------------
-- Observability (src/core/stats.c, src/core/stats_sql.c)
-- ---------------------------------------------------------------------------
-- uid_stats() keeps the twelve columns it had in 1.0, for queries and views
-- built on it; uid_stats_1_1() has them all (the uid_stats view of 1.1 and
-- 1.2 and 1.3 read it; 1.4's reads uid_stats_1_4(), stats_view.sql),
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

