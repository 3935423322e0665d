--
-- Tables partitioned by the time in their IDs (sql/parts/partitions.sql,
-- docs/partitioning.md): uid_partitions_maintain() makes the partitions of
-- calendar periods ahead, named by date, bounded by the first ID of each
-- period, and drops those older than keep.
--
SET timezone = 'UTC';
SET client_min_messages = warning;
-- its own schema, dropped at the end: other tests have tables named orders
CREATE SCHEMA part_test;
SET search_path = part_test, public;
CREATE FUNCTION parts(p regclass) RETURNS TABLE (part name, bound text)
LANGUAGE sql AS $$
    SELECT c.relname, pg_get_expr(c.relpartbound, c.oid)
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = p ORDER BY 1
$$;
-- adjacent partitions share their bound: no gap, no overlap
CREATE FUNCTION gapless(p regclass) RETURNS boolean
LANGUAGE sql AS $$
    SELECT bool_and(lo = prev_hi) FROM (
        SELECT substring(bound from 'FROM \(''?([^'')]*)') AS lo,
               lag(substring(bound from 'TO \(''?([^'')]*)')) OVER (ORDER BY part) AS prev_hi
        FROM parts(p) WHERE bound <> 'DEFAULT') b
    WHERE prev_hi IS NOT NULL
$$;

-- uid keys, daily: the day of at_time and 3 days ahead
CREATE TABLE orders (id uid PRIMARY KEY DEFAULT uid_next(), note text) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('orders', at_time => '2026-12-05 10:00+00');
SELECT * FROM parts('orders');
-- bounds exactly uid_first_at(day) .. uid_first_at(day + 1)
SELECT part, bound = format('FOR VALUES FROM (''%s'') TO (''%s'')', uid_first_at(d), uid_first_at(d + interval '1 day')) AS exact
FROM parts('orders') JOIN generate_series('2026-12-05'::timestamptz, '2026-12-08', '1 day') d
  ON part = 'orders_p' || to_char(d, 'YYYYMMDD');
SELECT gapless('orders');
-- idempotent: nothing to do
SELECT * FROM uid_partitions_maintain('orders', at_time => '2026-12-05 23:59+00');
-- a day later: one more
SELECT * FROM uid_partitions_maintain('orders', at_time => '2026-12-06 00:00+00');
-- retention: partitions wholly before at_time - keep, never the one holding the cutoff
SELECT * FROM uid_partitions_maintain('orders', keep => '2 days', at_time => '2026-12-08 12:00+00');
SELECT part FROM parts('orders');
SELECT gapless('orders');
-- IDs of their day land in its partition
INSERT INTO orders VALUES (uid_first_at('2026-12-08'), 'first of the 8th'),
                          (uid_first_at('2026-12-08') - 1, 'last of the 7th'),
                          (uid_first_at('2026-12-09 13:00'), 'the 9th');
SELECT tableoid::regclass, note FROM orders ORDER BY id;

-- a row inserted now lands in today's partition (UTC)
CREATE TABLE events (id uid PRIMARY KEY DEFAULT uid_next()) PARTITION BY RANGE (id);
SELECT count(*) FROM uid_partitions_maintain('events', ahead => 1);
WITH r AS (INSERT INTO events DEFAULT VALUES RETURNING tableoid::regclass::text AS part)
SELECT part = 'events_p' || to_char(now(), 'YYYYMMDD') AS today FROM r;

-- bigint keys (uid_next()) and uuid keys (uuid7())
CREATE TABLE big (id bigint PRIMARY KEY DEFAULT uid_next()) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('big', ahead => 1, at_time => '2026-12-05');
SELECT * FROM parts('big');
SELECT gapless('big');
CREATE TABLE u7 (id uuid PRIMARY KEY DEFAULT uuid7()) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('u7', ahead => 1, at_time => '2026-12-05');
SELECT * FROM parts('u7');
SELECT part, bound = format('FOR VALUES FROM (''%s'') TO (''%s'')', uuid7_first_at(d), uuid7_first_at(d + interval '1 day')) AS exact
FROM parts('u7') JOIN generate_series('2026-12-05'::timestamptz, '2026-12-06', '1 day') d
  ON part = 'u7_p' || to_char(d, 'YYYYMMDD');
INSERT INTO u7 VALUES (uuid7('2026-12-05 23:59:59.999')), (uuid7('2026-12-06 00:00'));
SELECT tableoid::regclass, uuid7_time(id) FROM u7 ORDER BY id;
SELECT count(*) FROM uid_partitions_maintain('u7', ahead => 1, keep => '1 day', at_time => '2026-12-07');
SELECT part FROM parts('u7');

-- hourly, weekly (ISO weeks, from Monday), monthly
CREATE TABLE h (id uid PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('h', '1 hour', 2, at_time => '2026-12-05 23:30+00');
SELECT gapless('h');
CREATE TABLE w (id uid PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('w', '1 week', 2, at_time => '2026-12-05');
SELECT bound = format('FOR VALUES FROM (''%s'') TO (''%s'')', uid_first_at('2026-11-30'), uid_first_at('2026-12-07')) AS monday_to_monday
FROM parts('w') WHERE part = 'w_p2026w49';
CREATE TABLE m (id uid PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('m', '1 month', 2, at_time => '2026-12-05');
SELECT bound = format('FOR VALUES FROM (''%s'') TO (''%s'')', uid_first_at('2027-01-01'), uid_first_at('2027-02-01')) AS january
FROM parts('m') WHERE part = 'm_p202701';
-- '24 hours' is not a day; nor are other widths
SELECT * FROM uid_partitions_maintain('m', '24 hours');
SELECT * FROM uid_partitions_maintain('m', '2 days');

-- another time zone: days from local midnight, across the end of daylight
-- saving time (2026-10-25 in Europe/Berlin: a day of 25 hours)
CREATE TABLE tz (id uid PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM uid_partitions_maintain('tz', ahead => 1, time_zone => 'Europe/Berlin', at_time => '2026-10-24 23:30+00');
SELECT name, starts, ends, ends - starts AS length
FROM uid_partition_periods('tz', '1 day', '2026-10-25 00:00+02', 2, 'Europe/Berlin');
SELECT current_setting('TimeZone');

-- a default partition: rows of a range not yet made are refused, not lost
CREATE TABLE d (id uid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE d_default PARTITION OF d DEFAULT;
SELECT * FROM uid_partitions_maintain('d', ahead => 0, at_time => '2026-12-05');
INSERT INTO d VALUES (uid_first_at('2026-12-06 08:00'));
SELECT tableoid::regclass FROM d;
SELECT * FROM uid_partitions_maintain('d', ahead => 1, at_time => '2026-12-05');
-- moved out, the partition is made and the row goes back
BEGIN;
CREATE TEMP TABLE moved AS WITH x AS (DELETE FROM d_default RETURNING *) SELECT * FROM x;
SELECT * FROM uid_partitions_maintain('d', ahead => 1, at_time => '2026-12-05');
INSERT INTO d SELECT * FROM moved;
COMMIT;
SELECT tableoid::regclass FROM d;

-- tables uid cannot partition
CREATE TABLE ts (at timestamptz) PARTITION BY RANGE (at);
SELECT * FROM uid_partitions_maintain('ts');
CREATE TABLE li (id bigint) PARTITION BY LIST (id);
SELECT * FROM uid_partitions_maintain('li');

-- a role that does not own the table is refused; its owner's member is not
CREATE ROLE part_stranger;
CREATE ROLE part_owner;
CREATE ROLE part_member IN ROLE part_owner;
GRANT USAGE, CREATE ON SCHEMA part_test TO part_owner, part_stranger;
CREATE TABLE owned (id uid PRIMARY KEY) PARTITION BY RANGE (id);
ALTER TABLE owned OWNER TO part_owner;
SET ROLE part_stranger;
SELECT * FROM uid_partitions_maintain('owned', at_time => '2026-12-05');
RESET ROLE;
SET ROLE part_member;
SELECT count(*) FROM uid_partitions_maintain('owned', ahead => 0, at_time => '2026-12-05');
RESET ROLE;

-- queries by time prune to the partitions they need (the planner's rewrite
-- of time filters, src/tables/time_filter.c; the server preloads uid)
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE uid_time(id) >= '2026-12-09 13:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM orders
WHERE uid_time(id) BETWEEN '2026-12-08 23:00+00' AND '2026-12-09 01:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM u7 WHERE uuid7_time(id) BETWEEN '2026-12-06 01:00+00' AND '2026-12-06 02:00+00';
-- a parameter: pruned when the plan runs
SET plan_cache_mode = force_generic_plan;
PREPARE since(timestamptz) AS SELECT * FROM orders WHERE id >= uid_from_time($1);
EXPLAIN (COSTS OFF) EXECUTE since('2026-12-09 12:00+00');
PREPARE since_time(timestamptz) AS SELECT * FROM orders WHERE uid_time(id) >= $1;
EXPLAIN (COSTS OFF) EXECUTE since_time('2026-12-09 12:00+00');
RESET plan_cache_mode;
-- the last hour, against today's partitions: those scanned are exactly the
-- ones that may hold an ID of the last hour
SELECT count(*) FROM uid_partitions_maintain('events', ahead => 2, at_time => now() - interval '3 days');
CREATE FUNCTION scanned(q text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
    line text;
    r text[] := '{}';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        r := r || (regexp_match(line, 'Scan.* on (events_p[0-9]+)'))[1];
    END LOOP;
    RETURN (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(r) x WHERE x IS NOT NULL);
END
$$;
SELECT scanned('SELECT * FROM events WHERE uid_time(id) >= now() - interval ''1 hour''')
     = (SELECT array_agg(part::text ORDER BY part) FROM parts('events')
        WHERE substring(bound from 'TO \(''?([^'')]*)')::bigint > uid_first_at(now() - interval '1 hour')) AS pruned;

-- a foreign key to the partitioned table
CREATE TABLE order_lines (order_id uid NOT NULL REFERENCES orders, qty int);
INSERT INTO order_lines SELECT id, 1 FROM orders WHERE note = 'the 9th';
-- an order that does not exist: refused
INSERT INTO order_lines VALUES (uid_first_at('2026-12-09 14:00'), 1);
-- a partition with referenced rows is not dropped (nor any other of that
-- run); PostgreSQL's error names a constraint whose name differs by version
DO $$
BEGIN
    PERFORM uid_partitions_maintain('orders', keep => '1 day', at_time => '2026-12-11 00:00+00');
EXCEPTION WHEN foreign_key_violation THEN
    RAISE WARNING 'refused: %', SQLSTATE;
END
$$;
SELECT part FROM parts('orders');
DELETE FROM order_lines;
SELECT * FROM uid_partitions_maintain('orders', keep => '1 day', at_time => '2026-12-11 00:00+00');
SELECT part FROM parts('orders');

RESET search_path;
DROP SCHEMA part_test CASCADE;
DROP ROLE part_member;
DROP ROLE part_owner;
DROP ROLE part_stranger;
