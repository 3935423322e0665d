--
-- Time filters on IDs use the index on the ID (src/tables/time_filter.c):
-- uid_time(id), (uid_decode(id)).ts and uuid7_time(u) compared with a
-- timestamp become ranges on the column while planning.
--
SET timezone = 'UTC';

--
-- The bounds, exact to the microsecond (uid_time() has milliseconds):
-- uid_first_at(t) the lowest ID whose time is at or after t,
-- uid_first_after(t) after t, uid_last_before(t) the highest ID whose time
-- is before t, uid_last_at(t) at or before t.
--
SELECT t, uid_first_at(t) = uid_from_time(c) AS first_at,
       uid_first_after(t) = uid_from_time(f + interval '1 ms') AS first_after,
       uid_last_before(t) = uid_from_time(c) - 1 AS last_before,
       uid_last_at(t) = uid_from_time(f + interval '1 ms') - 1 AS last_at
FROM (VALUES ('2026-03-05 12:00:00+00'::timestamptz, '2026-03-05 12:00:00+00'::timestamptz, '2026-03-05 12:00:00+00'::timestamptz),
             ('2026-03-05 12:00:00.000001', '2026-03-05 12:00:00', '2026-03-05 12:00:00.001'),
             ('2026-03-05 12:00:00.000999', '2026-03-05 12:00:00', '2026-03-05 12:00:00.001'),
             ('2026-03-05 11:59:59.999999', '2026-03-05 11:59:59.999', '2026-03-05 12:00:00')) v(t, f, c);
-- At the ends of the layout: the first and last IDs, or NULL where no ID
-- qualifies; never an error.
SELECT t, uid_first_at(t) AS first_at, uid_first_after(t) AS first_after,
       uid_last_before(t) AS last_before, uid_last_at(t) AS last_at
FROM (VALUES ('-infinity'::timestamptz), ('1999-01-01'), ('2025-12-31 23:59:59.999999'),
             ('2026-01-01 00:00:00'), ('2026-01-01 00:00:00.000001'), ('2026-01-01 00:00:00.001'),
             ('2095-09-07 15:47:35.550999'), ('2095-09-07 15:47:35.551'), ('2095-09-07 15:47:35.551001'),
             ('20000-01-01'), ('infinity')) v(t);
-- UUIDs: the lowest version 7 UUID of the first millisecond (that of
-- uuid7_from_time), the highest of the last; NULL outside the 48-bit field.
SELECT t, uuid7_first_at(t) AS first_at, uuid7_first_after(t) AS first_after,
       uuid7_last_before(t) AS last_before, uuid7_last_at(t) AS last_at
FROM (VALUES ('-infinity'::timestamptz), ('1969-12-31 23:59:59.999999'), ('1970-01-01'),
             ('2026-03-05 12:00:00'), ('2026-03-05 12:00:00.000001'),
             ('10889-08-02 05:31:50.655'), ('10889-08-02 05:31:50.655001'), ('infinity')) v(t);
SELECT uuid7_first_at('2026-03-05 12:00:00') = uuid7_from_time('2026-03-05 12:00:00') AS first_is_from_time,
       uuid7_time(uuid7_last_at('2026-03-05 12:00:00.0005')) AS last_at_is_v7;
SELECT uid_first_at(NULL), uid_first_after(NULL), uid_last_before(NULL), uid_last_at(NULL),
       uuid7_first_at(NULL), uuid7_first_after(NULL), uuid7_last_before(NULL), uuid7_last_at(NULL);

-- The support function that loads uid for the planner is attached to each
-- time function uid owns (uuid_extract_timestamp(uuid) where uid created
-- it, before 17), and to nothing of pg_catalog but uid's own uid_time(uid)
-- and uid_decode(uid).
SELECT p.oid::regprocedure AS uid_function_without_support
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'
WHERE p.proname IN ('uid_time', 'uuid7_time', 'uid_decode', 'uuid_extract_timestamp')
  AND p.prosupport <> 'uid_time_filter_support'::regproc;
SELECT count(*) AS pg_catalog_functions_with_it
FROM pg_proc p WHERE prosupport = 'uid_time_filter_support'::regproc
  AND pronamespace = 'pg_catalog'::regnamespace
  AND p.oid::regprocedure::text NOT IN ('uid_time(uid)', 'uid_decode(uid)');

--
-- A table of 20000 IDs (one every 40 s from 2026-03-01), with rows on the
-- edges of the millisecond T = 2026-03-05 12:00:00: the last ID of the
-- millisecond before T, the first, a middle and the last ID of T, the first
-- ID after T, and the first and last IDs of the layout.  u holds the
-- matching UUIDs, and UUIDs that are not version 7.
--
CREATE TABLE tf (id bigint PRIMARY KEY, u uuid, pad int);
CREATE INDEX tf_u ON tf (u);
INSERT INTO tf SELECT uid_from_time(ts) + g % 4096, uuid7(ts), g
FROM generate_series(1, 20000) g,
     LATERAL (SELECT '2026-03-01'::timestamptz + g * interval '40 s' AS ts) s;
INSERT INTO tf VALUES
    (uid_last_before('2026-03-05 12:00:00'),       uuid7_last_before('2026-03-05 12:00:00'), -1),
    (uid_from_time('2026-03-05 12:00:00'),         uuid7_from_time('2026-03-05 12:00:00'), -2),
    (uid_from_time('2026-03-05 12:00:00') + 77777, uuid7('2026-03-05 12:00:00.0005'), -3),
    (uid_last_at('2026-03-05 12:00:00'),           uuid7_last_at('2026-03-05 12:00:00'), -4),
    (uid_from_time('2026-03-05 12:00:00.001'),     uuid7_from_time('2026-03-05 12:00:00.001'), -5),
    (0,                                            uuid7_from_time('1970-01-01'), -6),
    (9223372036854775807,                          uuid7_last_at('infinity'), -7),
    -- a version 4 UUID whose first 48 bits are those of T: it sorts
    -- inside the range of T but has no version 7 time
    (1, ('0' || to_hex((extract(epoch FROM '2026-03-05 12:00:00'::timestamptz) * 1000)::bigint)
         || '4abc8abcabcabcabcabc')::uuid, -8),
    (2, '00000000-0000-0000-0000-000000000000', -9),
    (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff', -10);
VACUUM ANALYZE tf;
-- Index scans, so that the plans below show what the index is given.
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- Each operator, the time on either side, BETWEEN, (uid_decode(id)).ts.
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) > '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) < '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) <= '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) = '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE '2026-03-05 12:00:00' <= uid_time(id);
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) BETWEEN '2026-03-05' AND '2026-03-06';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE (uid_decode(id)).ts >= '2026-03-05 12:00:00';
-- An OR of ranges: a bitmap scan of each.
SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) < '2026-03-02' OR uid_time(id) >= '2026-03-09';
SET enable_bitmapscan = off;
-- A stable expression is evaluated once, when the scan starts.
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) >= now() - interval '1 hour';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) >= date_trunc('day', now())
                                        AND uid_time(id) < date_trunc('day', now()) + interval '1 day';
-- A parameter of a prepared statement, in a generic plan and in a custom one.
PREPARE tf_since(timestamptz) AS SELECT * FROM tf WHERE uid_time(id) >= $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE tf_since('2026-03-05 12:00:00');
SET plan_cache_mode = force_custom_plan;
EXPLAIN (COSTS OFF) EXECUTE tf_since('2026-03-05 12:00:00');
-- Turning the rewrite off reaches the plans already cached.
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = on;
SET uid.rewrite_time_filters = off;
EXPLAIN (COSTS OFF) EXECUTE tf_since('2026-03-05 12:00:00');
RESET uid.rewrite_time_filters;
SET enable_seqscan = off;
RESET plan_cache_mode;
-- UUIDs: the same range on u; a UUID of another version can sort inside
-- it, so the plan keeps the test that u is a version 7 UUID.
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uuid7_time(u) >= '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uuid7_time(u) BETWEEN '2026-03-05' AND '2026-03-06';
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uuid7_time(u) < now();
-- A view that names the time.
CREATE VIEW tf_view AS SELECT id, uid_time(id) AS created_at, pad FROM tf;
EXPLAIN (COSTS OFF) SELECT * FROM tf_view WHERE created_at >= '2026-03-05 12:00:00';
-- Each row of w bounds an index scan of tf (a join on a time range).
CREATE TABLE tf_w (start timestamptz, stop timestamptz);
INSERT INTO tf_w VALUES ('2026-03-05 12:00:00', '2026-03-05 12:01:00');
ANALYZE tf_w;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT * FROM tf_w JOIN tf ON uid_time(tf.id) >= tf_w.start AND uid_time(tf.id) < tf_w.stop;
SET enable_seqscan = off;
SELECT count(*) FROM tf_w JOIN tf ON uid_time(tf.id) >= tf_w.start AND uid_time(tf.id) < tf_w.stop;
-- A primary key that leads with the ID.
CREATE TABLE tf_pair (id bigint, k int, PRIMARY KEY (id, k));
EXPLAIN (COSTS OFF) SELECT * FROM tf_pair WHERE uid_time(id) >= '2026-03-05 12:00:00';
RESET enable_seqscan;
RESET enable_bitmapscan;

--
-- Results equal the original filter's, evaluated row by row (rewrite off,
-- sequential scan) for every operator and form against times on, just
-- before and just after the edges, outside the layout, infinite and NULL;
-- as constants and as stable expressions evaluated at run time.
--
CREATE FUNCTION pg_temp.tf_rows(q text, rewrite boolean) RETURNS int[]
LANGUAGE plpgsql AS $$
DECLARE
    r int[];
BEGIN
    PERFORM set_config('uid.rewrite_time_filters', rewrite::text, true);
    PERFORM set_config('enable_seqscan', (NOT rewrite)::text, true);
    EXECUTE 'SELECT coalesce(array_agg(pad ORDER BY pad), ''{}'') FROM ' || q INTO r;
    RETURN r;
END
$$;
CREATE TEMP TABLE tf_cases AS
SELECT format('tf WHERE %s %s %s', f, op, b) AS q
FROM unnest(ARRAY['uid_time(id)', '(uid_decode(id)).ts', 'uuid7_time(u)']) f,
     unnest(ARRAY['<', '<=', '=', '>=', '>']) op,
     unnest(ARRAY['2026-03-05 12:00:00', '2026-03-05 11:59:59.999999', '2026-03-05 12:00:00.000001',
                  '2026-03-05 11:59:59.999', '2026-03-05 12:00:00.001', '2026-03-05 12:00:00.0005',
                  '2026-01-01 00:00:00', '2026-01-01 00:00:00.000001', '1970-01-01 00:00:00',
                  '2095-09-07 15:47:35.551', '10889-08-02 05:31:50.655', '2000-01-01', '3000-01-01',
                  'infinity', '-infinity']) t,
     unnest(ARRAY[quote_literal(t) || '::timestamptz',
                  '(' || quote_literal(t) || '::timestamptz + interval ''0 s'')']) b
UNION ALL
SELECT format('tf WHERE %s %s (NULL::timestamptz + interval ''0 s'')', f, op)
FROM unnest(ARRAY['uid_time(id)', 'uuid7_time(u)']) f, unnest(ARRAY['<', '=', '>=']) op
UNION ALL
SELECT format('tf WHERE %s BETWEEN %L AND %L', f, a, b)
FROM unnest(ARRAY['uid_time(id)', 'uuid7_time(u)']) f,
     (VALUES ('2026-03-05 12:00:00', '2026-03-05 12:00:00'),
             ('2026-03-05 11:59:59.9995', '2026-03-05 12:00:00.0005'),
             ('2026-03-02', '2026-03-09')) v(a, b);
WITH r AS MATERIALIZED (SELECT pg_temp.tf_rows(q, true) AS rewritten, pg_temp.tf_rows(q, false) AS as_written
                        FROM tf_cases)
SELECT count(*) AS cases,
       count(*) FILTER (WHERE cardinality(as_written) > 0) AS cases_with_rows,
       count(*) FILTER (WHERE rewritten IS DISTINCT FROM as_written) AS different
FROM r;
-- The rows of the millisecond T, and of T exactly (none: a µs after T).
SELECT pad FROM tf WHERE uid_time(id) = '2026-03-05 12:00:00' ORDER BY pad;
SELECT pad FROM tf WHERE uid_time(id) = '2026-03-05 12:00:00.000001';
SELECT pad FROM tf WHERE uuid7_time(u) = '2026-03-05 12:00:00' ORDER BY pad;
-- The version 4 UUID with the bits of T is in the range but not a match.
SELECT count(*) FROM tf WHERE u > uuid7_last_before('2026-03-05 12:00:00')
                          AND u <= uuid7_last_at('2026-03-05 12:00:00');

--
-- Row estimates follow the column's statistics, not the planner's default
-- selectivities (a third for one inequality, 0.5% for a range).
--
CREATE FUNCTION pg_temp.estimate_ok(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    plan json;
    actual float8;
    est float8;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) SELECT * FROM tf WHERE ' || q INTO plan;
    est := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
    EXECUTE 'SELECT count(*) FROM tf WHERE ' || q INTO actual;
    RETURN est BETWEEN actual / 2 AND actual * 2;
END
$$;
CREATE TEMP TABLE tf_estimates (q text);
INSERT INTO tf_estimates VALUES
    ($$uid_time(id) >= '2026-03-09 12:00'$$),
    ($$uid_time(id) >= '2026-03-06' AND uid_time(id) < '2026-03-07'$$),
    ($$(uid_decode(id)).ts < '2026-03-02 06:00'$$),
    ($$uuid7_time(u) >= '2026-03-09 12:00'$$),
    ($$uuid7_time(u) BETWEEN '2026-03-06' AND '2026-03-07'$$),
    ($$uid_time(id) >= '2026-03-09 12:00'::timestamptz + interval '0 s'$$);
SELECT q, pg_temp.estimate_ok(q) AS rewritten FROM tf_estimates;
SET uid.rewrite_time_filters = off;
SELECT q, pg_temp.estimate_ok(q) AS as_written FROM tf_estimates;
-- Off: the plan of the filter as written.
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';
RESET uid.rewrite_time_filters;

--
-- Left as written.
--
-- A volatile bound (once per row in the original).
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uid_time(id) >= now() - random() * interval '1 s';
-- Outside an AND/OR of WHERE or ON conditions, where NULL is not false.
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE (uuid7_time(u) >= '2026-03-05 12:00:00') IS NOT TRUE;
EXPLAIN (COSTS OFF, VERBOSE) SELECT uid_time(id) >= '2026-03-05 12:00:00' FROM tf;
-- "=" against another table's column: hash and merge joins stay possible.
EXPLAIN (COSTS OFF) SELECT * FROM tf_w JOIN tf ON uid_time(tf.id) = tf_w.start;
-- An expression index on the time itself keeps serving the filter.
CREATE TABLE tf_expr (id bigint, pad int);
CREATE INDEX tf_expr_time ON tf_expr (uid_time(id));
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tf_expr WHERE uid_time(id) >= '2026-03-05 12:00:00';
-- So does a partial index whose predicate names the time (the comparison
-- as written implies the predicate; the range would not).
CREATE INDEX tf_expr_recent ON tf_expr (pad) WHERE (uid_decode(id)).ts >= '2026-03-01';
EXPLAIN (COSTS OFF) SELECT * FROM tf_expr WHERE (uid_decode(id)).ts >= '2026-03-05 12:00:00' AND pad = 1;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- And a partition key on the time: pruning stays.
CREATE TABLE tf_tpart (id bigint NOT NULL, pad int) PARTITION BY RANGE (uid_time(id));
CREATE TABLE tf_tpart_0305 PARTITION OF tf_tpart FOR VALUES FROM ('2026-03-05') TO ('2026-03-06');
CREATE TABLE tf_tpart_0306 PARTITION OF tf_tpart FOR VALUES FROM ('2026-03-06') TO ('2026-03-07');
EXPLAIN (COSTS OFF) SELECT * FROM tf_tpart WHERE uid_time(id) >= '2026-03-06 12:00:00';
-- uuid_extract_timestamp() also decodes version 1 UUIDs, whose time does
-- not follow their sort order: no range of u holds all its matches.  This
-- v1 UUID of 2026-03-05 sorts below every v7 UUID of 2026.
INSERT INTO tf VALUES (4, '00000001-1893-11f1-8000-000000000000', -11);
SELECT uuid_extract_timestamp('00000001-1893-11f1-8000-000000000000') >= '2026-03-05' AS v1_matches,
       '00000001-1893-11f1-8000-000000000000' > uuid7_last_before('2026-03-05') AS in_v7_range;
EXPLAIN (COSTS OFF) SELECT * FROM tf WHERE uuid_extract_timestamp(u) >= '2026-03-05 12:00:00';
SELECT pad FROM tf WHERE uuid_extract_timestamp(u) >= '2026-03-05' AND pad = -11;
DELETE FROM tf WHERE id = 4;

--
-- A column declared to hold version 7 UUIDs only, by the CHECK constraint
-- "uuid7_time(u) IS NOT NULL": the range is exact without a filter, and
-- (uid_decode(u)).ts and uuid_extract_timestamp(u), which equal
-- uuid7_time(u) there, are rewritten too.
--
CREATE TABLE tf_v7 (u uuid PRIMARY KEY CHECK (uuid7_time(u) IS NOT NULL), pad int);
INSERT INTO tf_v7 SELECT u, pad FROM tf WHERE uuid7_time(u) IS NOT NULL;
VACUUM ANALYZE tf_v7;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tf_v7 WHERE uuid7_time(u) >= '2026-03-05 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf_v7 WHERE (uid_decode(u)).ts BETWEEN '2026-03-05' AND '2026-03-06';
-- uuid_extract_timestamp(): uid's (before 17) and PostgreSQL's from 18 on
-- decode version 7 UUIDs; 17's does not, and is left as written.
CREATE FUNCTION pg_temp.plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    plan text := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END
$$;
SELECT (uuid_extract_timestamp(uuid7_from_time('2026-03-05')) IS NOT NULL)
       = (pg_temp.plan_of($$SELECT * FROM tf_v7 WHERE uuid_extract_timestamp(u) >= '2026-03-05 12:00:00'$$)
          ~ 'Index Cond: \(u >= ') AS rewritten_where_it_decodes_v7;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS cases,
       count(*) FILTER (WHERE pg_temp.tf_rows(q, true) IS DISTINCT FROM pg_temp.tf_rows(q, false)) AS different
FROM (SELECT format('tf_v7 WHERE %s %s %L', f, op, t) AS q
      FROM unnest(ARRAY['uuid7_time(u)', '(uid_decode(u)).ts', 'uuid_extract_timestamp(u)']) f,
           unnest(ARRAY['<', '<=', '=', '>=', '>']) op,
           unnest(ARRAY['2026-03-05 12:00:00', '2026-03-05 11:59:59.999999', '2026-03-05 12:00:00.0005',
                        '1970-01-01', 'infinity', '-infinity']) t) c;
-- The declaration holds: no other version gets in.
INSERT INTO tf_v7 VALUES ('00000001-1893-11f1-8000-000000000000', -12);
-- A NOT VALID constraint declares nothing about the rows already there.
CREATE TABLE tf_v7_unchecked (u uuid PRIMARY KEY, pad int);
ALTER TABLE tf_v7_unchecked ADD CHECK (uuid7_time(u) IS NOT NULL) NOT VALID;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tf_v7_unchecked WHERE uuid7_time(u) >= '2026-03-05 12:00:00';
-- A row passes a CHECK constraint that is NULL: "uuid7_time(u) >= '1970-01-01'"
-- lets in every UUID of another version and declares nothing, so the test
-- stays (the v4 UUID with the bits of T, the max UUID are in the range).
CREATE TABLE tf_v7_null_passes (u uuid PRIMARY KEY CHECK (uuid7_time(u) >= '1970-01-01'), pad int);
INSERT INTO tf_v7_null_passes SELECT u, pad FROM tf WHERE u IS NOT NULL;
EXPLAIN (COSTS OFF) SELECT * FROM tf_v7_null_passes WHERE uuid7_time(u) >= '2026-03-05 12:00:00';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS cases,
       count(*) FILTER (WHERE pg_temp.tf_rows(q, true) IS DISTINCT FROM pg_temp.tf_rows(q, false)) AS different
FROM (SELECT format('tf_v7_null_passes WHERE %s %s %L', f, op, t) AS q
      FROM unnest(ARRAY['uuid7_time(u)', '(uid_decode(u)).ts', 'uuid_extract_timestamp(u)']) f,
           unnest(ARRAY['<', '=', '>=']) op,
           unnest(ARRAY['2026-03-05 12:00:00', '1970-01-01', 'infinity']) t) c;
-- CREATE FOREIGN TABLE ... PARTITION OF copies the parent's CHECK
-- constraints without a look at the rows: a parent with a foreign
-- partition declares nothing.  (The foreign partition, whose wrapper has no
-- handler, is pruned; the local one still tests the version.)
CREATE FOREIGN DATA WRAPPER tf_fdw;
CREATE SERVER tf_server FOREIGN DATA WRAPPER tf_fdw;
CREATE TABLE tf_v7_mixed (u uuid CHECK (uuid7_time(u) IS NOT NULL), pad int) PARTITION BY LIST (pad);
CREATE TABLE tf_v7_mixed_local PARTITION OF tf_v7_mixed FOR VALUES IN (1);
CREATE FOREIGN TABLE tf_v7_mixed_remote PARTITION OF tf_v7_mixed FOR VALUES IN (2) SERVER tf_server;
EXPLAIN (COSTS OFF) SELECT * FROM tf_v7_mixed WHERE uuid7_time(u) >= '2026-03-05 12:00:00' AND pad = 1;
EXPLAIN (COSTS OFF) SELECT * FROM ONLY tf_v7_mixed_local WHERE uuid7_time(u) >= '2026-03-05 12:00:00';
DROP TABLE tf_v7_mixed;
DROP SERVER tf_server;
DROP FOREIGN DATA WRAPPER tf_fdw;

--
-- Bad input.  uid_time() raises an error for a negative ID; the rewritten
-- filters do not match negative IDs (an upper bound alone gets "id >= 0").
--
INSERT INTO tf VALUES (-5, NULL, -12);
SELECT count(*) FROM tf WHERE uid_time(id) < '2026-03-02';
SELECT count(*) FROM tf WHERE uid_time(id) <= '2000-01-01';
SET uid.rewrite_time_filters = off;
SELECT count(*) FROM tf WHERE uid_time(id) < '2026-03-02';
RESET uid.rewrite_time_filters;
DELETE FROM tf WHERE id = -5;

-- Without EXECUTE on uid_time() the query fails as before.
CREATE ROLE tf_reader;
GRANT SELECT ON tf TO tf_reader;
REVOKE EXECUTE ON FUNCTION uid_time(bigint) FROM PUBLIC;
SET ROLE tf_reader;
SELECT count(*) FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';
RESET ROLE;
-- Also with a plan cached by a role that may call it: the rewritten plan
-- serves its own role only.
PREPARE tf_by_role AS SELECT count(*) FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';
EXECUTE tf_by_role;
SET ROLE tf_reader;
EXECUTE tf_by_role;
RESET ROLE;
DEALLOCATE tf_by_role;
GRANT EXECUTE ON FUNCTION uid_time(bigint) TO PUBLIC;
SET ROLE tf_reader;
SELECT count(*) FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';
RESET ROLE;
REVOKE ALL ON tf FROM tf_reader;
DROP ROLE tf_reader;

--
-- A table without an index: still a sequential scan, with a cheaper filter.
--
CREATE TABLE tf_heap AS SELECT * FROM tf;
ANALYZE tf_heap;
EXPLAIN (COSTS OFF) SELECT * FROM tf_heap WHERE uid_time(id) >= '2026-03-05 12:00:00';
SELECT count(*) FROM tf_heap WHERE uid_time(id) >= '2026-03-05 12:00:00';
SELECT count(*) FROM tf WHERE uid_time(id) >= '2026-03-05 12:00:00';

--
-- Partitions by day on the ID (bounds from uid_from_time) and on a UUIDv7
-- (bounds from uuid7_from_time): the natural filter prunes, at planning
-- for a constant and when the scan starts for a stable expression.
--
CREATE TABLE tf_part (id bigint NOT NULL, pad int) PARTITION BY RANGE (id);
CREATE TABLE tf_part_0305 PARTITION OF tf_part
    FOR VALUES FROM (uid_from_time('2026-03-05')) TO (uid_from_time('2026-03-06'));
CREATE TABLE tf_part_0306 PARTITION OF tf_part
    FOR VALUES FROM (uid_from_time('2026-03-06')) TO (uid_from_time('2026-03-07'));
CREATE TABLE tf_part_0307 PARTITION OF tf_part
    FOR VALUES FROM (uid_from_time('2026-03-07')) TO (uid_from_time('2026-03-08'));
INSERT INTO tf_part SELECT id, pad FROM tf WHERE uid_time(id) >= '2026-03-05' AND uid_time(id) < '2026-03-08';
-- From the start of a day: its partition and the later ones, as with the
-- hand-written "id >= uid_from_time(...)".
EXPLAIN (COSTS OFF) SELECT * FROM tf_part WHERE uid_time(id) >= '2026-03-06';
EXPLAIN (COSTS OFF) SELECT * FROM tf_part WHERE id >= uid_from_time('2026-03-06');
EXPLAIN (COSTS OFF) SELECT * FROM tf_part WHERE uid_time(id) >= '2026-03-06 12:00:00';
EXPLAIN (COSTS OFF) SELECT * FROM tf_part WHERE uid_time(id) BETWEEN '2026-03-06 00:00:00' AND '2026-03-06 23:59:59.999';
EXPLAIN (COSTS OFF) SELECT * FROM tf_part WHERE uid_time(id) >= '2026-03-06 12:00:00'::timestamptz + interval '0 s';
SELECT count(*) FROM tf_part WHERE uid_time(id) >= '2026-03-06 12:00:00';
SELECT count(*) FROM tf WHERE uid_time(id) >= '2026-03-06 12:00:00' AND uid_time(id) < '2026-03-08';
CREATE TABLE tf_upart (u uuid NOT NULL, pad int) PARTITION BY RANGE (u);
CREATE TABLE tf_upart_0305 PARTITION OF tf_upart
    FOR VALUES FROM (uuid7_from_time('2026-03-05')) TO (uuid7_from_time('2026-03-06'));
CREATE TABLE tf_upart_0306 PARTITION OF tf_upart
    FOR VALUES FROM (uuid7_from_time('2026-03-06')) TO (uuid7_from_time('2026-03-07'));
EXPLAIN (COSTS OFF) SELECT * FROM tf_upart WHERE uuid7_time(u) >= '2026-03-06';
EXPLAIN (COSTS OFF) SELECT * FROM tf_upart WHERE uuid7_time(u) < '2026-03-06';

DROP TABLE tf, tf_w, tf_pair, tf_expr, tf_heap, tf_part, tf_tpart, tf_upart, tf_v7, tf_v7_unchecked,
    tf_v7_null_passes CASCADE;
