-- ---------------------------------------------------------------------------
-- Leaving shared_preload_libraries (src/core/wal_removal.c).  Also run by
-- the upgrade from 1.3.
-- ---------------------------------------------------------------------------

-- Reads server state (replication slots, standbys' replay positions, the
-- checkpoint): for superusers and pg_monitor, as pg_stat_replication's
-- positions are.
CREATE OR REPLACE FUNCTION uid_removal_check(
    OUT ready boolean,
    OUT what text,
    OUT lsn pg_lsn,
    OUT detail text,
    OUT action text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_removal_check'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_removal_check() IS
'Whether uid can leave shared_preload_libraries now: a first row with the verdict and the end of uid''s last WAL record, then one row per thing that would read that record (crash recovery, logical and physical slots, standbys, backups and archives), with what to do. For superusers and pg_monitor.';

REVOKE ALL ON FUNCTION uid_removal_check() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_removal_check() TO pg_monitor;
