--
-- mask: uid_mask / uid_unmask and uuid7_mask / uuid7_unmask (src/forms/mask.c,
-- src/forms/ff1.c), FF1-AES under uid.mask_key or an explicit key, and the
-- secrecy of uid.mask_key towards ordinary roles.
--
SET timezone = 'UTC';

-- 'ok', or the SQLSTATE, message and detail of the error a statement raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    detail text;
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
    RETURN SQLSTATE || ': ' || SQLERRM || coalesce(E'\n  ' || nullif(detail, ''), '');
END
$$;

-- NIST's AES-128, AES-192 and AES-256 sample keys (SP 800-38G examples)
CREATE TEMP TABLE k (name text PRIMARY KEY, key bytea);
INSERT INTO k VALUES
  ('aes128', '\x2B7E151628AED2A6ABF7158809CF4F3C'),
  ('aes192', '\x2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F'),
  ('aes256', '\x2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94'),
  ('other', '\x000102030405060708090a0b0c0d0e0f');

-- The free bits of a UUID: 48-bit time, 12-bit rand_a, 62-bit rand_b
CREATE FUNCTION pg_temp.free_bits(u uuid) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT substr(b::text, 1, 48) || substr(b::text, 53, 12) || substr(b::text, 67, 62)
    FROM (SELECT ('x' || replace(u::text, '-', ''))::bit(128) AS b) s
$$;

--
-- Known answers: FF1-AES over 63 bits (uid_mask) and 122 bits (uuid7_mask)
-- under NIST's sample keys.  test/unit/ff1_test.c checks the same values
-- against a transcription of the standard; a change here is a change of
-- the algorithm, which would make every masked ID in use unreadable.
--
SELECT x, uid_mask(x, (SELECT key FROM k WHERE name = 'aes128')) AS aes128,
          uid_mask(x, (SELECT key FROM k WHERE name = 'aes256')) AS aes256
FROM unnest(ARRAY[0, 1, 2, 4194304, 4611686018427387904, 9223372036854775807,
                  1234567890123456789]::bigint[]) x;

SELECT u, uuid7_mask(u, (SELECT key FROM k WHERE name = 'aes128')) AS aes128,
          uuid7_mask(u, (SELECT key FROM k WHERE name = 'aes256')) AS aes256
FROM unnest(ARRAY['00000000-0000-7000-8000-000000000000',
                  '00000000-0000-7000-8000-000000000001',
                  '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',   -- RFC 9562's v7 example
                  '03ffffff-ffff-7fff-bfff-ffffffffffff'    -- the last time uuid7_mask takes
                  ]::uuid[]) u;

-- the masked UUID carries FF1's output bits in the free bits, unchanged
SELECT pg_temp.free_bits(uuid7_mask('017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
                                    (SELECT key FROM k WHERE name = 'aes128')))
       = ((x'00698696dde1d069' || x'228926b20db2ad65') << 6)::bit(122)::text
       AS free_bits_are_ff1_output;

--
-- The setting: the one-argument functions use uid.mask_key
--
SET uid.mask_key = '';
SELECT pg_temp.err('SELECT uid_mask(1)') AS no_key;
SET uid.mask_key = '2b7e151628aed2a6abf7158809cf4f3c';
SHOW uid.mask_key;
SELECT current_setting('uid.mask_key') AS current_setting;
SELECT count(*) AS pg_settings_rows FROM pg_settings WHERE name = 'uid.mask_key';
SELECT count(*) AS same_as_explicit_key
FROM generate_series(0, 999) x
WHERE uid_mask(x) = uid_mask(x, (SELECT key FROM k WHERE name = 'aes128'))
  AND uid_unmask(x) = uid_unmask(x, (SELECT key FROM k WHERE name = 'aes128'))
  AND uuid7_mask(uuid7_from_time(to_timestamp(x))) = uuid7_mask(uuid7_from_time(to_timestamp(x)), (SELECT key FROM k WHERE name = 'aes128'));
SET uid.mask_key = '2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94';
SHOW uid.mask_key;
SELECT uid_mask(0) AS aes256_of_0, uid_unmask(uid_mask(0)) AS back;
SET uid.mask_key = '2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F';
SHOW uid.mask_key;
SELECT uid_mask(0) = uid_mask(0, (SELECT key FROM k WHERE name = 'aes192')) AS aes192;

--
-- Round trips: 0, 1, the largest value, every power of two and its
-- neighbours, under the setting and under each key size
--
CREATE TEMP TABLE edge AS
SELECT 0::bigint AS x UNION SELECT 9223372036854775807
UNION SELECT (1::bigint << p) + d FROM generate_series(0, 62) p, generate_series(-1, 1) d;

SELECT k.name, count(*) AS values,
       count(*) FILTER (WHERE uid_unmask(uid_mask(x, key), key) <> x) AS not_restored,
       count(*) FILTER (WHERE uid_mask(x, key) < 0) AS negative,
       count(DISTINCT uid_mask(x, key)) AS distinct_masks
FROM edge, k GROUP BY k.name ORDER BY k.name;

SELECT count(*) AS values,
       count(*) FILTER (WHERE uid_unmask(uid_mask(x)) <> x) AS not_restored,
       count(*) FILTER (WHERE uid_mask(uid_unmask(x)) <> x) AS unmask_then_mask_differs
FROM edge;

-- UUIDv7 edges: each of the 122 free bits alone, none, all (up to the last
-- time uuid7_mask takes)
CREATE TEMP TABLE edge7 AS
SELECT '00000000-0000-7000-8000-000000000000'::uuid AS u
UNION SELECT '03ffffff-ffff-7fff-bfff-ffffffffffff'
-- one bit of time (up to 2^41 ms) or rand_a
UNION SELECT (lpad(to_hex((1::bigint << p) | 28672), 16, '0') || '8000000000000000')::uuid
      FROM generate_series(0, 57) p WHERE p NOT BETWEEN 12 AND 15
-- one bit of rand_b
UNION SELECT ('0000000000007000' || lpad(to_hex((1::bigint << p) | (2::bigint << 62)), 16, '0'))::uuid
      FROM generate_series(0, 61) p;

SELECT count(*) AS v7_values,
       bool_and(uuid_extract_version(u) = 7) AS all_v7,
       count(*) FILTER (WHERE uuid7_unmask(uuid7_mask(u)) <> u) AS not_restored,
       count(*) FILTER (WHERE uuid_extract_version(uuid7_mask(u)) <> 4
                           OR (get_byte(uuid_send(uuid7_mask(u)), 8) >> 6) <> 2) AS not_v4_rfc
FROM edge7;

SELECT k.name, count(*) AS v7_values,
       count(*) FILTER (WHERE uuid7_unmask(uuid7_mask(u, key), key) <> u) AS not_restored
FROM edge7, k GROUP BY k.name ORDER BY k.name;

--
-- A million pseudo-random values per function
--
SET uid.mask_key = '2b7e151628aed2a6abf7158809cf4f3c';

SELECT count(*) AS uid_mask_random,
       count(*) FILTER (WHERE uid_unmask(m) <> x) AS not_restored,
       count(*) FILTER (WHERE m < 0) AS negative
FROM (SELECT x, uid_mask(x) AS m
      FROM (SELECT hashint8extended(g, 1) & 9223372036854775807 AS x
            FROM generate_series(1, 1000000) g) s OFFSET 0) s2;

SELECT count(*) AS uid_unmask_random,
       count(*) FILTER (WHERE uid_mask(uid_unmask(x)) <> x) AS not_restored
FROM (SELECT hashint8extended(g, 2) & 9223372036854775807 AS x
      FROM generate_series(1, 1000000) g) s;

SELECT count(*) AS uid_mask_key_random,
       count(*) FILTER (WHERE uid_unmask(uid_mask(x, key), key) <> x) AS not_restored
FROM (SELECT hashint8extended(g, 3) & 9223372036854775807 AS x
      FROM generate_series(1, 1000000) g) s, k WHERE k.name = 'aes256';

-- random v7 UUIDs with times spread over 1970 .. 2109
CREATE TEMP TABLE v7 AS
SELECT (lpad(to_hex(((hashint8extended(g, 4) >> 22 & 4398046511103) << 16)
                    | 28672 | (hashint8extended(g, 5) & 4095)), 16, '0')
        || lpad(to_hex((2::bigint << 62) | (hashint8extended(g, 6) & 4611686018427387903)), 16, '0'))::uuid AS u
FROM generate_series(1, 1000000) g;

SELECT count(*) AS uuid7_mask_random,
       bool_and(uuid_extract_version(u) = 7) AS all_v7,
       count(*) FILTER (WHERE uuid7_unmask(uuid7_mask(u)) <> u) AS not_restored
FROM v7;

SELECT count(*) AS uuid7_mask_key_random,
       count(*) FILTER (WHERE uuid7_unmask(uuid7_mask(u, key), key) <> u) AS not_restored
FROM v7, k WHERE k.name = 'aes256';

--
-- Parallel workers use the session's key (it travels with the query)
--
CREATE TABLE mask_par AS SELECT g::bigint AS x FROM generate_series(1, 100000) g;
ANALYZE mask_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT sum(uid_mask(x) % 1000), sum(uid_unmask(x) % 1000) FROM mask_par;
SELECT sum(uid_mask(x) % 1000) AS par_m, sum(uid_unmask(x) % 1000) AS par_u FROM mask_par \gset
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
SELECT :par_m = sum(uid_mask(x, (SELECT key FROM k WHERE name = 'aes128')) % 1000) AS parallel_mask_same,
       :par_u = sum(uid_unmask(x, (SELECT key FROM k WHERE name = 'aes128')) % 1000) AS parallel_unmask_same
FROM mask_par;
DROP TABLE mask_par;

--
-- What masking hides: consecutive IDs give unrelated values
--
CREATE TEMP TABLE consecutive AS
SELECT x, uid_mask(x) AS m FROM generate_series(4611686018427387904, 4611686018427387904 + 999999) x;

SELECT count(DISTINCT m) AS distinct_masks,
       -- order: about half of the neighbours go up
       round(avg((m > lag_m)::int), 2) AS share_increasing,
       -- time: the top bit (the time's highest) is set in about half
       round(avg(((m >> 62) & 1)::numeric), 2) AS share_top_bit,
       -- volume: the low 22 bits (worker, sequence) are spread evenly
       round(avg((m & 4194303)::numeric) / 4194303, 2) AS mean_low_bits_share
FROM (SELECT m, lag(m) OVER (ORDER BY x) AS lag_m FROM consecutive) s;

-- avalanche: flipping any one input bit flips about half the output bits,
-- and each output bit about half the time
CREATE TEMP TABLE flips AS
SELECT i, uid_mask(x) # uid_mask(x # (1::bigint << i)) AS d
FROM generate_series(1, 300) x, generate_series(0, 62) i;

SELECT min(mean_flipped) > 29 AND max(mean_flipped) < 34 AS per_input_bit
FROM (SELECT i, avg(bit_count(d::bit(64))) AS mean_flipped FROM flips GROUP BY i) s;

SELECT min(share) > 0.47 AND max(share) < 0.53 AS per_output_bit
FROM (SELECT o, avg((d >> o) & 1) AS share FROM flips, generate_series(0, 62) o GROUP BY o) s;

-- masked UUIDs: version 4, RFC variant, no time to read, no order
SELECT count(*) AS uuid7_masked,
       bool_and(uuid_extract_version(m) = 4 AND (get_byte(uuid_send(m), 8) >> 6) = 2) AS all_v4_rfc,
       count(uuid7_time(m)) AS with_v7_time,
       round(avg((m > lag_m)::int), 2) AS share_increasing
FROM (SELECT m, lag(m) OVER (ORDER BY u) AS lag_m
      FROM (SELECT u, uuid7_mask(u) AS m
            FROM (SELECT uuid7_from_time(timestamptz '2026-03-01' + g * interval '1 ms') AS u
                  FROM generate_series(1, 100000) g) s) s2) s3;

-- another key, other values
SELECT count(*) FILTER (WHERE uid_mask(x, a.key) = uid_mask(x, b.key)) AS same_under_two_keys
FROM generate_series(0, 99999) x, k a, k b WHERE a.name = 'aes128' AND b.name = 'other';

--
-- uuid7_unmask of what uuid7_mask did not make with this key
--
-- UUIDs of version 4 not made by uuid7_mask: refused unless their unmasked
-- time happens to fall before 2109-05-15 (1 in 64)
SELECT count(*) AS foreign_v4,
       count(*) FILTER (WHERE pg_temp.err(format('SELECT uuid7_unmask(%L)', u)) LIKE '22023:%') AS refused
FROM (SELECT (lpad(to_hex((hashint8extended(g, 7) & ~61440::bigint) | 16384), 16, '0')
              || lpad(to_hex((hashint8extended(g, 8) & 4611686018427387903) | (2::bigint << 62)), 16, '0'))::uuid AS u
      FROM generate_series(1, 6400) g) s;

-- masked with another key
SELECT count(*) AS other_key,
       count(*) FILTER (WHERE pg_temp.err(format('SELECT uuid7_unmask(%L)', uuid7_mask(u, key))) LIKE '22023:%') AS refused
FROM (SELECT u FROM v7 LIMIT 6400) s, k WHERE k.name = 'other';

SELECT pg_temp.err($$SELECT uuid7_unmask('1a61a5b7-7874-41a4-a289-26b20db2ad65', '\x000102030405060708090a0b0c0d0e0f')$$) AS wrong_key;

-- uid_unmask cannot tell: every non-negative bigint is the mask of one
SELECT uid_unmask(12345, (SELECT key FROM k WHERE name = 'other')) >= 0 AS any_value_unmasks;

--
-- Bad input
--
SELECT pg_temp.err('SELECT uid_mask(-1)') AS mask_negative;
SELECT pg_temp.err('SELECT uid_unmask(-9223372036854775808)') AS unmask_negative;
SELECT pg_temp.err($$SELECT uid_mask(-1, '\x2B7E151628AED2A6ABF7158809CF4F3C')$$) AS mask_key_negative;
SELECT pg_temp.err($$SELECT uid_unmask(-1, '\x2B7E151628AED2A6ABF7158809CF4F3C')$$) AS unmask_key_negative;
SELECT len, pg_temp.err(format('SELECT uid_mask(1, %L::bytea)', '\x' || repeat('ab', len))) AS key_length
FROM unnest(ARRAY[0, 8, 15, 17, 31, 33, 64]) len;
SELECT pg_temp.err($$SELECT uuid7_mask('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x00')$$) AS uuid_short_key;
SELECT pg_temp.err($$SELECT uid_unmask(1, '\x00')$$) AS unmask_short_key;
SELECT pg_temp.err($$SELECT uuid7_unmask('1a61a5b7-7874-41a4-a289-26b20db2ad65', '\x00')$$) AS uuid_unmask_short_key;
SELECT pg_temp.err($$SELECT uuid7_mask('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')$$) AS mask_v4;
SELECT pg_temp.err($$SELECT uuid7_mask('00000000-0000-0000-0000-000000000000')$$) AS mask_nil;
SELECT pg_temp.err($$SELECT uuid7_mask('017f22e2-79b0-7cc3-d8c4-dc0c0c07398f')$$) AS mask_v7_wrong_variant;
SELECT pg_temp.err($$SELECT uuid7_mask('04000000-0000-7000-8000-000000000000')$$) AS mask_time_2109;
SELECT pg_temp.err($$SELECT uuid7_mask('ffffffff-ffff-7fff-bfff-ffffffffffff', '\x2B7E151628AED2A6ABF7158809CF4F3C')$$) AS mask_key_time_10889;
SELECT pg_temp.err($$SELECT uuid7_unmask('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$) AS unmask_v7;
SELECT pg_temp.err($$SELECT uuid7_unmask('1a61a5b7-7874-41a4-e289-26b20db2ad65')$$) AS unmask_v4_wrong_variant;
SELECT pg_temp.err($$SELECT uuid7_unmask('ffffffff-ffff-ffff-ffff-ffffffffffff', '\x2B7E151628AED2A6ABF7158809CF4F3C')$$) AS unmask_key_max;

-- STRICT: NULL in, NULL out
SELECT uid_mask(NULL) IS NULL AS a, uid_unmask(NULL) IS NULL AS b,
       uid_mask(1, NULL) IS NULL AS c, uid_unmask(NULL, '\x00') IS NULL AS d,
       uuid7_mask(NULL) IS NULL AS e, uuid7_unmask(NULL) IS NULL AS f,
       uuid7_mask(NULL, NULL) IS NULL AS g, uuid7_unmask('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', NULL) IS NULL AS h;

--
-- Bad keys in the setting: refused without the value in the message
--
SELECT v, pg_temp.err(format('SET uid.mask_key = %L', v)) AS set_key,
       position(v IN pg_temp.err(format('SET uid.mask_key = %L', v))) = 0 AS value_not_in_message
FROM unnest(ARRAY['2b7e151628aed2a6abf7158809cf4f3',
                  '2b7e151628aed2a6abf7158809cf4f3cc',
                  '2b7e151628aed2a6abf7158809cf4f3g',
                  'g2b7e151628aed2a6abf7158809cf4f3',
                  'secret secret secret secret secr']) v;
SHOW uid.mask_key;
-- (ALTER SYSTEM cannot run in a function: its error shows as is)
ALTER SYSTEM SET uid.mask_key = 'not a key';
SELECT pg_temp.err(format('ALTER DATABASE %I SET uid.mask_key = %L', current_database(),
                          '2b7e151628aed2a6abf7158809cf4f3c')) AS per_database;
SELECT pg_temp.err('ALTER ROLE CURRENT_USER SET uid.mask_key = ''2b7e151628aed2a6abf7158809cf4f3c''') AS per_role;
SELECT pg_temp.err('CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql SET uid.mask_key = ''2b7e151628aed2a6abf7158809cf4f3c'' AS ''SELECT 1''') AS per_function;
SELECT count(*) AS stored_settings FROM pg_db_role_setting
WHERE array_to_string(setconfig, ',') LIKE '%mask_key%';
-- an empty value unsets the key
SET uid.mask_key = '';
SHOW uid.mask_key;
SELECT pg_temp.err('SELECT uuid7_mask(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')') AS no_key;
RESET uid.mask_key;

--
-- An ordinary role: cannot read, set or use the key; the explicit-key
-- functions and the text forms are for everyone
--
SET uid.mask_key = '2b7e151628aed2a6abf7158809cf4f3c';
CREATE ROLE regress_uid_hostile NOSUPERUSER;
SET ROLE regress_uid_hostile;
-- (SQLSTATEs only: the wording of these PostgreSQL messages changes with
-- the version; no error may hold the key or its check value)
SELECT q, left(e, 5) AS sqlstate,
       position('2b7e1516' IN lower(e)) = 0 AND position('7df76b' IN lower(e)) = 0 AS key_not_shown
FROM unnest(ARRAY[
       'SHOW uid.mask_key',
       'SELECT current_setting(''uid.mask_key'')',
       'SELECT current_setting(''uid.mask_key'', true)',
       'SET uid.mask_key FROM CURRENT',
       'SELECT count(*) FROM pg_file_settings',
       'SET uid.mask_key = ''000102030405060708090a0b0c0d0e0f''',
       'SET uid.mask_key = ''not a key''',
       'SELECT uid_mask(1)',
       'SELECT uid_unmask(1)',
       'SELECT uuid7_mask(''017f22e2-79b0-7cc3-98c4-dc0c0c07398f'')',
       'SELECT uuid7_unmask(''1a61a5b7-7874-41a4-a289-26b20db2ad65'')']) q,
     LATERAL pg_temp.err(q) e;
SELECT count(*) AS pg_settings_rows FROM pg_settings WHERE name LIKE 'uid.mask%';
SELECT count(*) AS show_all_rows FROM pg_show_all_settings() WHERE name LIKE 'uid.mask%';
SELECT uid_unmask(uid_mask(42, '\x000102030405060708090a0b0c0d0e0f'), '\x000102030405060708090a0b0c0d0e0f') AS explicit_key,
       uid_from_text(uid_to_text(42)) AS text_form;
RESET ROLE;
DROP ROLE regress_uid_hostile;

-- the key was in force all along
SHOW uid.mask_key;
RESET uid.mask_key;
