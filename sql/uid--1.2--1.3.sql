-- uid 1.2 -> 1.3: adopting existing tables and sequences.
-- Each section below belongs to one concern; keep them apart.  Every
-- operator and call is qualified: this script runs with the extension's
-- schema on the search path, where other roles may create objects.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.3'" to load this file. \quit

-- Tenure ledger (src/lease_store.c)
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
LANGUAGE sql VOLATILE STRICT
AS $$
    SELECT t.worker_id, t.token, t.system_identifier, t.timeline, t.host, t.port,
           t.started_at, t.first_ms, t.last_ms, t.ended_at, t.ended_how
    FROM (SELECT ($1 OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.+)
                 pg_catalog.floor(pg_catalog.date_part('epoch'::pg_catalog.text, @extschema@.uid_time(0))
                                  OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8 AS ms,
                 (($1 OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1023)::pg_catalog.int4 AS w) AS i,
         @extschema@.uid_tenures(i.w) AS t
    WHERE $1 OPERATOR(pg_catalog.>=) 0
      AND i.ms OPERATOR(pg_catalog.>=) t.first_ms AND i.ms OPERATOR(pg_catalog.<=) t.last_ms
    ORDER BY t.first_ms, t.token
$$;

COMMENT ON FUNCTION uid_whence(bigint) IS
'The tenure(s) whose worker id and window of milliseconds contain this uid_next() id: the server that issued it. More than one row means two tenures overlap (an alarm); none, that no tenure the ledger keeps explains it.';

CREATE FUNCTION uid_tenure_overlaps(
    OUT worker_id integer,
    OUT token_a bigint, OUT system_identifier_a numeric, OUT host_a text, OUT port_a integer,
    OUT first_ms_a bigint, OUT last_ms_a bigint,
    OUT token_b bigint, OUT system_identifier_b numeric, OUT host_b text, OUT port_b integer,
    OUT first_ms_b bigint, OUT last_ms_b bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE
AS $$
    WITH t AS MATERIALIZED (
        SELECT * FROM @extschema@.uid_tenures() AS u
        WHERE u.first_ms OPERATOR(pg_catalog.<=) u.last_ms)
    SELECT a.worker_id, a.token, a.system_identifier, a.host, a.port, a.first_ms, a.last_ms,
           b.token, b.system_identifier, b.host, b.port, b.first_ms, b.last_ms
    FROM t AS a JOIN t AS b ON b.worker_id OPERATOR(pg_catalog.=) a.worker_id
     AND (a.first_ms OPERATOR(pg_catalog.<) b.first_ms
          OR (a.first_ms OPERATOR(pg_catalog.=) b.first_ms AND a.token OPERATOR(pg_catalog.<) b.token))
     AND b.first_ms OPERATOR(pg_catalog.<=) a.last_ms
    ORDER BY a.worker_id, a.first_ms, b.first_ms
$$;

COMMENT ON FUNCTION uid_tenure_overlaps() IS
'Every pair of tenures of one worker id whose windows of milliseconds overlap: two servers could have issued the same id. Empty on a healthy fleet.';

CREATE FUNCTION uid_audit(tbl regclass, col name, sample real DEFAULT 1.0,
    OUT kind text, OUT worker_id integer, OUT day date, OUT ids bigint, OUT example text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE
-- the planner cannot estimate the ledger's windows: a hash join and a hash
-- aggregate, never sorts of the audited table
SET enable_mergejoin = off
SET enable_sort = off
AS $$
DECLARE
    a_tbl    ALIAS FOR $1;
    a_col    ALIAS FOR $2;
    a_sample ALIAS FOR $3;
    typ      oid;
    src      text;
    skew_ms  bigint;
    epoch_ms bigint;
    until_ms bigint;
BEGIN
    IF a_tbl IS NULL OR a_col IS NULL THEN
        RAISE EXCEPTION 'uid_audit() needs a table and a column'
            USING ERRCODE = '22004',
                  HINT = 'Call it as uid_audit(''schema.table'', ''column'').';
    END IF;
    IF a_sample IS NULL OR NOT (a_sample OPERATOR(pg_catalog.>) 0 AND a_sample OPERATOR(pg_catalog.<=) 1) THEN
        RAISE EXCEPTION 'invalid sample for uid_audit(): %', coalesce(a_sample::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'sample is the fraction of the table''s pages read, above 0 and at most 1 (1: the whole table).';
    END IF;
    SELECT a.atttypid INTO typ FROM pg_catalog.pg_attribute AS a
    WHERE a.attrelid OPERATOR(pg_catalog.=) a_tbl AND a.attname OPERATOR(pg_catalog.=) a_col
      AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of % does not exist', a_col, a_tbl
            USING ERRCODE = '42703',
                  HINT = 'Name a bigint column of uid_next() ids or a uuid column of UUIDv7 values.';
    END IF;
    IF typ OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8'::pg_catalog.regtype, 'pg_catalog.uuid'::pg_catalog.regtype]::pg_catalog.oid[]) THEN
        RAISE EXCEPTION 'column "%" of % is of type %, not bigint or uuid', a_col, a_tbl, typ::pg_catalog.regtype
            USING ERRCODE = '42804',
                  HINT = 'uid_audit() reads uid_next() ids (bigint) or UUIDv7 values (uuid).';
    END IF;
    -- the clock skew allowed: the lease setting, 1 s where uid is not preloaded
    SELECT coalesce((SELECT s.setting::pg_catalog.int8 FROM pg_catalog.pg_settings AS s
                     WHERE s.name OPERATOR(pg_catalog.=) 'uid.lease_max_clock_skew'), 1000) INTO skew_ms;
    src := pg_catalog.format('(SELECT x.%I AS v FROM %s AS x%s) AS s', a_col, a_tbl,
                             CASE WHEN a_sample OPERATOR(pg_catalog.<) 1
                                  THEN pg_catalog.format(' TABLESAMPLE SYSTEM (%s)', a_sample::pg_catalog.float8 OPERATOR(pg_catalog.*) 100)
                                  ELSE '' END);
    IF typ OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype THEN
        -- UUIDv7: no worker id, only time: those from the future
        RETURN QUERY EXECUTE pg_catalog.format($q$
            WITH c AS (SELECT s.v, @extschema@.uuid7_time(s.v) AS ts FROM %s WHERE s.v IS NOT NULL)
            SELECT 'future'::pg_catalog.text, NULL::pg_catalog.int4, c.ts::pg_catalog.date, pg_catalog.count(*),
                   pg_catalog.min(c.v::pg_catalog.text)
            FROM c WHERE c.ts OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp()
                 OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs => $1::pg_catalog.float8 OPERATOR(pg_catalog./) 1000))
            GROUP BY 3
            UNION ALL
            SELECT 'total', NULL, NULL, pg_catalog.count(*), NULL FROM c
            ORDER BY 1, 3$q$, src) USING skew_ms;
        RETURN;
    END IF;
    -- uid_next() ids: a hash join on the worker id and the day against the
    -- ledger's windows cut into days (one probe finds the one or two
    -- tenures of that worker id and day), then counts per worker id and day;
    -- times in ms since uid's epoch, as in the ids, so that each row costs
    -- two shifts and a mask
    epoch_ms := pg_catalog.floor(pg_catalog.date_part('epoch'::pg_catalog.text, @extschema@.uid_time(0))
                                 OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8;
    until_ms := pg_catalog.floor(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
                                 OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8
                OPERATOR(pg_catalog.+) skew_ms OPERATOR(pg_catalog.-) epoch_ms;
    RETURN QUERY EXECUTE pg_catalog.format($q$
        WITH t AS MATERIALIZED (
                SELECT u.worker_id AS w, b.d, u.first_ms OPERATOR(pg_catalog.-) %2$s AS lo,
                       u.last_ms OPERATOR(pg_catalog.-) %2$s AS hi
                FROM @extschema@.uid_tenures() AS u,
                     pg_catalog.generate_series((u.first_ms OPERATOR(pg_catalog.-) %2$s) OPERATOR(pg_catalog./) 86400000,
                                                (u.last_ms OPERATOR(pg_catalog.-) %2$s) OPERATOR(pg_catalog./) 86400000) AS b(d)
                WHERE u.first_ms OPERATOR(pg_catalog.<=) u.last_ms),
             i AS (SELECT s.v, s.v OPERATOR(pg_catalog.>>) 22 AS ms,
                          (s.v OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog./) 86400000 AS d,
                          ((s.v OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1023)::pg_catalog.int4 AS w
                   FROM %1$s WHERE s.v IS NOT NULL),
             k AS (SELECT i.w, i.d, i.v,
                          i.ms OPERATOR(pg_catalog.>) %3$s AS fut, t.w IS NULL OR i.v OPERATOR(pg_catalog.<) 0 AS unexp
                   FROM i LEFT JOIN t ON t.w OPERATOR(pg_catalog.=) i.w
                    AND t.d OPERATOR(pg_catalog.=) i.d
                    AND i.ms OPERATOR(pg_catalog.>=) t.lo AND i.ms OPERATOR(pg_catalog.<=) t.hi),
             g AS MATERIALIZED (SELECT k.w, k.d, pg_catalog.count(*) AS n,
                          pg_catalog.count(*) FILTER (WHERE k.fut) AS nf, pg_catalog.min(k.v) FILTER (WHERE k.fut) AS vf,
                          pg_catalog.count(*) FILTER (WHERE k.unexp AND NOT k.fut) AS nu,
                          pg_catalog.min(k.v) FILTER (WHERE k.unexp AND NOT k.fut) AS vu
                   FROM k GROUP BY k.w, k.d)
        SELECT x.kind, x.w, CASE WHEN x.d IS NOT NULL THEN
                   pg_catalog.timezone('UTC'::pg_catalog.text,
                       pg_catalog.to_timestamp((((x.d OPERATOR(pg_catalog.*) 86400000) OPERATOR(pg_catalog.+) %2$s)
                                                OPERATOR(pg_catalog./) 1000)::pg_catalog.float8))::pg_catalog.date END,
               x.n, x.v::pg_catalog.text
        FROM (SELECT 'future'::pg_catalog.text AS kind, g.w, g.d, g.nf AS n, g.vf AS v FROM g
              WHERE g.nf OPERATOR(pg_catalog.>) 0
              UNION ALL
              SELECT 'unexplained', g.w, g.d, g.nu, g.vu FROM g WHERE g.nu OPERATOR(pg_catalog.>) 0
              UNION ALL
              SELECT 'total', g.w, NULL, pg_catalog.sum(g.n)::pg_catalog.int8, NULL FROM g GROUP BY g.w) AS x
        ORDER BY 1, 2, 3$q$, src, epoch_ms, until_ms);
END
$$;

COMMENT ON FUNCTION uid_audit(regclass, name, real) IS
'Audits a column of uid_next() ids (bigint) against the tenure ledger: per worker id and day (UTC), the ids no tenure explains (foreign, cloned, restored elsewhere) and those from the future beyond uid.lease_max_clock_skew, with the lowest of each, and the total per worker id; for a UUIDv7 column (uuid), those from the future. sample: the fraction of pages read.';

REVOKE ALL ON FUNCTION uid_tenures(integer), uid_whence(bigint), uid_tenure_overlaps(),
    uid_audit(regclass, name, real) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenures(integer), uid_whence(bigint), uid_tenure_overlaps(),
    uid_audit(regclass, name, real) TO pg_monitor;

-- The ledger's state for monitoring: uid_lease_ledger(), and two columns
-- more at the end of the uid_stats view.
CREATE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;

CREATE OR REPLACE VIEW uid_stats AS
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
