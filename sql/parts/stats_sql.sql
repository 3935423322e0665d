-- ---------------------------------------------------------------------------
-- Observability: the SQL functions of uid_stats (src/core/stats_sql.c; the
-- counters: src/core/stats.c)
-- ---------------------------------------------------------------------------
-- uid_stats() keeps the twelve columns it had in 1.0, for queries and views
-- built on it; uid_stats_1_1() has them all (the uid_stats view of 1.1 and
-- 1.2 and 1.3 read it; 1.4's reads uid_stats_1_4(), below),
-- and the lease state.  Every statement can run again over an older
-- version's objects: the upgrade from 1.3 runs this file too, for
-- uid_stats_1_4().

CREATE OR REPLACE FUNCTION uid_stats(
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

CREATE OR REPLACE FUNCTION uid_stats_1_1(
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


CREATE OR REPLACE FUNCTION uid_stats_reset()
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_stats_reset'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_reset() IS
'Starts every counter of uid_stats from zero; returns the time of the reset. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_stats_reset() FROM PUBLIC;

-- The view and the functions behind it are for pg_monitor, not PUBLIC.
REVOKE ALL ON FUNCTION uid_stats() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_stats_1_1() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_stats() TO pg_monitor;
GRANT EXECUTE ON FUNCTION uid_stats_1_1() TO pg_monitor;

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
