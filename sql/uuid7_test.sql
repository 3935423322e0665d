--
-- uuid7: UUIDv7 generation and decoding (src/core/uuid7.c), PostgreSQL 18's
-- names on older servers, and moving a v4 key column to uuid7().
--
SET timezone = 'UTC';

-- SQLSTATE of a statement, or 'ok'
CREATE FUNCTION pg_temp.sqlstate_of(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$$;

-- What uuid_extract_timestamp() answers for a version 7 UUID on this
-- server: its time with 18's built-in and with uid's own (installed before
-- 17), but NULL on 17, whose built-in decodes version 1 only; uid cannot
-- replace a pg_catalog function.  uuid7_time() decodes it everywhere.
CREATE FUNCTION pg_temp.extract_timestamp_of_v7(u uuid) RETURNS timestamptz
LANGUAGE sql AS $$
    SELECT CASE WHEN current_setting('server_version_num')::int / 10000 = 17
                THEN NULL ELSE uuid7_time(u) END
$$;

-- The 64 ordered bits of a v7 UUID made by uuid7(): 48-bit ms, 12-bit
-- fraction (rand_a), 4-bit counter (top of rand_b).
CREATE FUNCTION pg_temp.state_of(u uuid) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
    SELECT ('x' || pg_catalog.substr(pg_catalog.replace(u::text, '-', ''), 1, 12))::bit(48)::bigint::numeric * 65536
         + (pg_catalog.get_byte(pg_catalog.uuid_send(u), 6) & 15) * 4096
         + pg_catalog.get_byte(pg_catalog.uuid_send(u), 7) * 16
         + ((pg_catalog.get_byte(pg_catalog.uuid_send(u), 8) >> 2) & 15)
$$;

--
-- uuid7(): bit-level RFC 9562 checks on 20000 values of one backend
--
CREATE TEMP TABLE g AS
SELECT n, uuid7() AS u, clock_timestamp() AS t
FROM generate_series(1, 20000) AS n;

SELECT count(*) AS n,
       count(DISTINCT u) AS distinct_values,
       bool_and(get_byte(uuid_send(u), 6) >> 4 = 7) AS version_7,
       bool_and(get_byte(uuid_send(u), 8) >> 6 = 2) AS variant_10,
       bool_and(u::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$') AS text_form,
       bool_and(uuid7_time(u) BETWEEN t - interval '5 s' AND t + interval '5 s') AS time_near_clock,
       bool_and(uuid7_time(u) = date_trunc('milliseconds', uuid7_time(u))) AS time_in_ms,
       bool_and(u <> '00000000-0000-0000-0000-000000000000' AND
                u <> 'ffffffff-ffff-ffff-ffff-ffffffffffff') AS not_nil_or_max
FROM g;

-- strictly increasing in call order, both as uuid and as 64-bit state
-- (time, fraction, counter): the order does not rest on the random bits
SELECT count(*) FILTER (WHERE u <= prev_u) AS uuid_not_increasing,
       count(*) FILTER (WHERE pg_temp.state_of(u) <= prev_s) AS state_not_increasing
FROM (SELECT u, pg_temp.state_of(u) AS s_,
             lag(u) OVER (ORDER BY n) AS prev_u,
             lag(pg_temp.state_of(u)) OVER (ORDER BY n) AS prev_s
      FROM g) s
WHERE prev_u IS NOT NULL;

-- the 58 random bits: every bit takes both values over 20000 UUIDs
-- (byte 8 holds 2 of them, bytes 9 to 15 the other 56)
SELECT bit_or(get_byte(uuid_send(u), 8) & 3) AS byte8_low_or,
       bit_and(get_byte(uuid_send(u), 8) | 252) AS byte8_low_and
FROM g;
SELECT bool_and(o = 255) AS bytes9_15_or_all_ones,
       bool_and(a = 0) AS bytes9_15_and_all_zeros
FROM (SELECT i, bit_or(get_byte(uuid_send(u), i)) AS o, bit_and(get_byte(uuid_send(u), i)) AS a
      FROM g, generate_series(9, 15) AS i
      GROUP BY i) AS per_byte;

-- the random parts are all different
SELECT count(DISTINCT substring(uuid_send(u) FROM 10 FOR 7)) AS distinct_random_tails FROM g;

-- decoders agree with each other on generated values
SELECT bool_and((uid_decode(u)).ts = uuid7_time(u)) AS decode_ts,
       bool_and((uid_decode(u)).version = 7 AND (uid_decode(u)).variant = 2) AS decode_version_variant,
       bool_and(uuid_extract_timestamp(u) IS NOT DISTINCT FROM pg_temp.extract_timestamp_of_v7(u)) AS extract_timestamp,
       bool_and(uuid_extract_version(u) = 7) AS extract_version,
       bool_and(uuid7_from_time(uuid7_time(u)) <= u AND
                u < uuid7_from_time(uuid7_time(u) + interval '1 ms')) AS within_ms_bounds
FROM g;

--
-- uuid7(timestamptz): the given millisecond, random rest
--
CREATE TEMP TABLE b AS
SELECT uuid7('2022-02-22 19:22:22.1239+00') AS u FROM generate_series(1, 2000);

SELECT count(DISTINCT u) AS distinct_values,
       min(uuid7_time(u)) AS min_time, max(uuid7_time(u)) AS max_time,
       bool_and(get_byte(uuid_send(u), 6) >> 4 = 7) AS version_7,
       bool_and(get_byte(uuid_send(u), 8) >> 6 = 2) AS variant_10,
       bool_and(substr(u::text, 1, 13) = '017f22e2-7a2b') AS time_bits,
       bit_or(get_byte(uuid_send(u), 6) & 15) AS rand_a_high_or,
       bit_or(get_byte(uuid_send(u), 7)) AS rand_a_low_or,
       bit_and(get_byte(uuid_send(u), 7)) AS rand_a_low_and
FROM b;

-- ends of the 48-bit range, and beyond
SELECT uuid7_time(uuid7('1970-01-01 00:00:00+00')) AS first_ms,
       substr(uuid7('1970-01-01 00:00:00+00')::text, 1, 15) AS first_prefix,
       uuid7_time(uuid7('10889-08-02 05:31:50.655+00')) AS last_ms,
       substr(uuid7('10889-08-02 05:31:50.655+00')::text, 1, 15) AS last_prefix;
SELECT uuid7('1969-12-31 23:59:59.999+00');
SELECT uuid7('10889-08-02 05:31:50.656+00');
SELECT uuid7('infinity');
SELECT uuid7('-infinity');
SELECT uuid7(NULL::timestamptz) IS NULL AS null_in_null_out;

--
-- uuid7_time(), uuid7_from_time()
--
SELECT uuid7_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS rfc_v7_vector,
       uuid7_time('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1,
       uuid7_time('1EC9414C-232A-6B00-B3C8-9F6BDECED846') AS v6,
       uuid7_time('919108f7-52d1-4320-9bac-f847db4148a8') AS v4,
       uuid7_time('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F') AS v7_microsoft_variant,
       uuid7_time('017F22E2-79B0-7CC3-18C4-DC0C0C07398F') AS v7_ncs_variant,
       uuid7_time('00000000-0000-0000-0000-000000000000') AS nil,
       uuid7_time('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid7_time(NULL) AS null_in;

SELECT uuid7_from_time('2022-02-22 19:22:22.123456+00') AS bound,
       uuid7_time(uuid7_from_time('2022-02-22 19:22:22.123456+00')) AS round_trip,
       uuid7_from_time('1970-01-01 00:00:00+00') AS first,
       uuid7_from_time('10889-08-02 05:31:50.655+00') AS last;
SELECT uuid7_from_time('1969-12-31 23:59:59.999999+00');
SELECT uuid7_from_time('10889-08-02 05:31:50.656+00');
SELECT uuid7_from_time('infinity');
SELECT uuid7_from_time(NULL) IS NULL AS null_in_null_out;

-- round trip over many times, and the bound is below every UUID of its ms
SELECT bool_and(uuid7_time(uuid7_from_time(ts)) = date_trunc('milliseconds', ts)) AS round_trip,
       bool_and(uuid7_time(uuid7(ts)) = date_trunc('milliseconds', ts)) AS uuid7_ts_round_trip,
       bool_and(uuid7_from_time(ts) <= uuid7(ts)) AS bound_below,
       bool_and(uuid7(ts) < uuid7_from_time(ts + interval '1 ms')) AS next_bound_above
FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + i * interval '1 day 1 hour 1.234567 s' AS ts
      FROM generate_series(0, 3000000, 997) AS i) AS s;

-- errors carry SQLSTATE 22008
SELECT pg_temp.sqlstate_of($$SELECT uuid7('1969-12-31 23:59:59.999+00')$$) AS uuid7_before_1970,
       pg_temp.sqlstate_of($$SELECT uuid7('infinity')$$) AS uuid7_infinity,
       pg_temp.sqlstate_of($$SELECT uuid7_from_time('10889-08-02 05:31:50.656+00')$$) AS from_time_after_end,
       pg_temp.sqlstate_of($$SELECT uuidv7(interval '-100 years')$$) AS uuidv7_before_1970,
       pg_temp.sqlstate_of($$SELECT uuidv7(interval '9000 years')$$) AS uuidv7_after_end,
       pg_temp.sqlstate_of($$SELECT 'not-a-uuid'::uuid$$) AS bad_text;

--
-- uid_decode(uuid): RFC 9562 Appendix A vectors and the other variants
--
SELECT v.name, d.*
FROM (VALUES ('A.1 v1', 'C232AB00-9414-11EC-B3C8-9F6BDECED846'::uuid),
             ('A.3 v4', '919108f7-52d1-4320-9bac-f847db4148a8'),
             ('A.5 v6', '1EC9414C-232A-6B00-B3C8-9F6BDECED846'),
             ('A.6 v7', '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'),
             ('B.1 v8', '2489E9AD-2EE2-8E00-8EC9-32D5F69181C0'),
             ('v1 at Gregorian epoch', '00000000-0000-1000-8000-000000000000'),
             ('v1 last time', 'ffffffff-ffff-1fff-8000-000000000000'),
             ('v6 last time', 'ffffffff-ffff-6fff-8000-000000000000'),
             ('v1 one tick before Unix epoch', '13813fff-1dd2-11b2-8000-000000000000'),
             ('v7 last time', 'ffffffff-ffff-7fff-bfff-ffffffffffff'),
             ('v7 Microsoft variant', '017F22E2-79B0-7CC3-D8C4-DC0C0C07398F'),
             ('v7 future variant', '017F22E2-79B0-7CC3-F8C4-DC0C0C07398F'),
             ('NCS variant', '11111111-1111-1111-1111-111111111111'),
             ('nil', '00000000-0000-0000-0000-000000000000'),
             ('max', 'ffffffff-ffff-ffff-ffff-ffffffffffff')) AS v(name, u),
     LATERAL uid_decode(v.u) AS d;

-- one row, not a set: usable in WHERE
SELECT count(*) AS v7_rows FROM g WHERE (uid_decode(u)).version = 7;
SELECT * FROM uid_decode(NULL::uuid);

--
-- PostgreSQL 18 names.  PostgreSQL built in uuid_extract_timestamp() and
-- uuid_extract_version() in 17, uuidv4() and uuidv7() in 18.  uid creates
-- each one that pg_catalog lacks: each signature exists exactly once, in
-- pg_catalog from the release that built it in, before that as a member of
-- uid.
--
SELECT s.sig,
       count(p.oid) AS n,
       bool_and(CASE WHEN current_setting('server_version_num')::int >= s.since * 10000
                     THEN n.nspname = 'pg_catalog' AND e.extname IS NULL
                     ELSE n.nspname <> 'pg_catalog' AND e.extname = 'uid' END) AS expected_owner
FROM (VALUES ('uuidv7()', 18), ('uuidv7(interval)', 18), ('uuidv4()', 18),
             ('uuid_extract_timestamp(uuid)', 17), ('uuid_extract_version(uuid)', 17)) AS s(sig, since)
LEFT JOIN pg_proc p
       ON p.proname = split_part(s.sig, '(', 1)
      AND oidvectortypes(p.proargtypes) = rtrim(split_part(s.sig, '(', 2), ')')
LEFT JOIN pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
LEFT JOIN pg_extension e ON e.oid = d.refobjid
GROUP BY s.sig
ORDER BY s.sig;

-- uuid_extract_timestamp / uuid_extract_version: RFC 9562 vectors and
-- PostgreSQL 18's answers (v1 and v7 only; NULL unless the RFC variant).
-- uuid7_time() gives 18's answer for v7 on every version.
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1,
       uuid7_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_uuid7_time,
       uuid_extract_timestamp('1EC9414C-232A-6B00-B3C8-9F6BDECED846') AS v6,
       uuid_extract_timestamp('919108f7-52d1-4320-9bac-f847db4148a8') AS v4,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F') AS v7_other_variant;
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') =
           timestamptz '2022-02-22 14:22:22-05' AS rfc_v1_time,
       uuid7_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') =
           timestamptz '2022-02-22 14:22:22-05' AS rfc_v7_uuid7_time,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') IS NOT DISTINCT FROM
           pg_temp.extract_timestamp_of_v7('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS rfc_v7_extract_as_documented,
       uuid_extract_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846') =
           uuid7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS same_instant;
SELECT uuid_extract_version('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1,
       uuid_extract_version('919108f7-52d1-4320-9bac-f847db4148a8') AS v4,
       uuid_extract_version('11111111-1111-5111-8111-111111111111') AS v5,
       uuid_extract_version('1EC9414C-232A-6B00-B3C8-9F6BDECED846') AS v6,
       uuid_extract_version('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7,
       uuid_extract_version('11111111-1111-1111-1111-111111111111') AS ncs_variant,
       uuid_extract_version('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_extract_version(NULL) AS null_in,
       pg_typeof(uuid_extract_version(uuidv4())) AS type;

-- uuidv4(), uuidv7()
SELECT count(DISTINCT u) AS distinct_values,
       bool_and(uuid_extract_version(u) = 4) AS version_4,
       bool_and(get_byte(uuid_send(u), 8) >> 6 = 2) AS variant_10,
       bit_or(get_byte(uuid_send(u), 0)) AS byte0_or,
       bit_and(get_byte(uuid_send(u), 0)) AS byte0_and,
       bit_or(get_byte(uuid_send(u), 15)) AS byte15_or,
       bit_and(get_byte(uuid_send(u), 15)) AS byte15_and
FROM (SELECT uuidv4() AS u FROM generate_series(1, 5000)) AS s;

CREATE TEMP TABLE v7 AS
SELECT n, uuidv7() AS u, clock_timestamp() AS t FROM generate_series(1, 5000) AS n;
SELECT count(*) AS n,
       count(*) FILTER (WHERE u > prev) AS increasing,
       bool_and(uuid_extract_version(u) = 7) AS version_7,
       bool_and(uuid7_time(u) BETWEEN t - interval '5 s' AND t + interval '5 s') AS time_near_clock,
       bool_and(uuid_extract_timestamp(u) IS NOT DISTINCT FROM pg_temp.extract_timestamp_of_v7(u)) AS extract_timestamp
FROM (SELECT u, t, lag(u) OVER (ORDER BY n) AS prev FROM v7) AS s;
-- before 18, uuidv7() and uuid7() draw from one generator
SELECT (uuidv7() < uuid7() AND uuid7() < uuidv7()) OR
       current_setting('server_version_num')::int >= 180000 AS one_generator;

-- uuidv7(interval): shifted times from 1970 to year 10888 do not overflow
SELECT y,
       extract(year FROM uuid7_time(u)) AS year_of_uuid,
       abs(extract(epoch FROM uuid7_time(u) - target)) < 5 AS near_target,
       uuid_extract_version(u) AS version
FROM (SELECT y, target, uuidv7(target - clock_timestamp()) AS u
      FROM (SELECT y, make_timestamptz(y, 6, 1, 0, 0, 0, 'UTC') AS target
            FROM unnest(ARRAY[1970, 1971, 2000, 2038, 2106, 3000, 5000, 9999, 10000, 10888]) AS y) AS t) AS s
ORDER BY y;
SELECT abs(extract(epoch FROM uuid7_time(
           uuidv7(timestamptz '1970-01-01 00:00:10+00' - clock_timestamp())))
           - 10) < 5 AS near_1970_start,
       abs(extract(epoch FROM uuid7_time(
           uuidv7(timestamptz '10889-08-02 05:31:40+00' - clock_timestamp()))
           - timestamptz '10889-08-02 05:31:40+00')) < 5 AS near_10889_end;
SELECT pg_temp.sqlstate_of($$SELECT uuidv7(timestamptz '1969-12-31 23:59:59+00' - clock_timestamp())$$) AS before_1970,
       pg_temp.sqlstate_of($$SELECT uuidv7(timestamptz '10889-08-02 05:31:51+00' - clock_timestamp())$$) AS after_10889,
       pg_temp.sqlstate_of($$SELECT uuidv7(interval '1000000 years')$$) AS beyond_timestamptz;
SELECT uuidv7(NULL::interval) IS NULL AS null_in_null_out;
-- with one shift, values are increasing like uuidv7()'s
SELECT count(*) FILTER (WHERE u <= prev) AS not_increasing,
       bool_and(uuid7_time(u) BETWEEN t + interval '1 hour' - interval '5 s'
                                            AND t + interval '1 hour' + interval '5 s') AS shifted_by_1h
FROM (SELECT u, t, lag(u) OVER (ORDER BY n) AS prev
      FROM (SELECT n, uuidv7(interval '1 hour') AS u, clock_timestamp() AS t
            FROM generate_series(1, 5000) AS n) AS a) AS s;

--
-- Statistics: every uuid7() is counted (and uid's uuidv7() on servers
-- before 18); uuid7(timestamptz) does not use the generator and is not
--
SELECT uuids_issued AS before FROM uid_stats \gset
SELECT count(uuid7()) + count(uuid7(now())) AS made
FROM generate_series(1, 1000);
SELECT uuids_issued - :before AS counted FROM uid_stats;

--
-- Migration: a uuid key column holding gen_random_uuid() (v4) values gets
-- DEFAULT uuid7().  Old and new values compare, index and parse as before.
--
CREATE TABLE uuid7_migration (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text);
INSERT INTO uuid7_migration (note) SELECT 'old ' || i FROM generate_series(1, 1000) AS i;
ALTER TABLE uuid7_migration ALTER COLUMN id SET DEFAULT uuid7();
INSERT INTO uuid7_migration (note) SELECT 'new ' || i FROM generate_series(1, 1000) AS i;

SELECT split_part(note, ' ', 1) AS generation,
       count(*) AS n,
       count(DISTINCT id) AS distinct_ids,
       min(uuid_extract_version(id)) AS min_version,
       max(uuid_extract_version(id)) AS max_version,
       count(uuid7_time(id)) AS with_v7_time,
       count((uid_decode(id)).ts) AS with_decoded_time,
       bool_and(id::text::uuid = id) AS text_round_trip,
       bool_and(upper(id::text)::uuid = id) AS upper_case_parses
FROM uuid7_migration
GROUP BY 1
ORDER BY 1;

-- binary round trip and comparison operators across old and new values
SELECT count(*) AS pairs,
       bool_and((a.id < b.id) = (uuid_send(a.id) < uuid_send(b.id))) AS order_is_byte_order,
       bool_and((a.id = b.id) = (a.note = b.note)) AS equal_iff_same_row
FROM (SELECT * FROM uuid7_migration ORDER BY note LIMIT 300) AS a,
     (SELECT * FROM uuid7_migration ORDER BY note DESC LIMIT 300) AS b;

-- the new keys are ordered like their insertion, and lookups of old and
-- new keys use the primary key index
SELECT count(*) FILTER (WHERE id <= prev) AS new_not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY split_part(note, ' ', 2)::int) AS prev
      FROM uuid7_migration WHERE note LIKE 'new %') AS s;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT note FROM uuid7_migration WHERE id = '919108f7-52d1-4320-9bac-f847db4148a8';
SELECT count(*) AS found_by_index
FROM uuid7_migration AS m
WHERE (SELECT x.note FROM uuid7_migration AS x WHERE x.id = m.id) = m.note;
-- a time range on the v7 keys: an index range scan between two bounds
EXPLAIN (COSTS OFF) SELECT count(*) FROM uuid7_migration
WHERE id >= uuid7_from_time('2026-01-01') AND id < uuid7_from_time('2026-01-02');
SELECT count(*) AS new_in_last_minute
FROM uuid7_migration
WHERE id >= uuid7_from_time(clock_timestamp() - interval '1 minute')
  AND id < uuid7_from_time(clock_timestamp() + interval '1 minute')
  AND uuid7_time(id) IS NOT NULL;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the unique index still rejects a repeated old or new key
SELECT pg_temp.sqlstate_of($$INSERT INTO uuid7_migration (id, note)
    SELECT id, 'again' FROM uuid7_migration WHERE note = 'old 1'$$) AS repeated_old_key,
       pg_temp.sqlstate_of($$INSERT INTO uuid7_migration (id, note)
    SELECT id, 'again' FROM uuid7_migration WHERE note = 'new 1'$$) AS repeated_new_key;
DROP TABLE uuid7_migration;

--
-- uuid7_advance_past(): later uuid7() values sort after a given key.
-- Superuser only by default.  Kept last: it moves the server's generator.
--
SELECT uuid7_advance_past('919108f7-52d1-4320-9bac-f847db4148a8');
SELECT uuid7_advance_past(uuid7_from_time('2000-01-01')) AS moved_back;
-- more than a day ahead of the clock: refused, nothing moves
SELECT uuid7_advance_past(uuid7_from_time('3000-01-01 00:00:00+00'));
SELECT uuid7_from_time(clock_timestamp() + interval '1 s') AS key \gset
SELECT uuid7() < :'key' AS before_the_key;
SELECT uuid7_advance_past(:'key') AS moved;
SELECT uuid7() > :'key' AS after_the_key;
CREATE ROLE regress_uuid7_user;
SET ROLE regress_uuid7_user;
SELECT uuid7_advance_past(uuid7_from_time('2000-01-01'));
SELECT uuid7() IS NOT NULL AS ordinary_users_generate;
RESET ROLE;
DROP ROLE regress_uuid7_user;
