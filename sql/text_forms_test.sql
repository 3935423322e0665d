--
-- text_forms: uid_to_text / uid_from_text and uuid_to_text / uuid_from_text
-- (src/forms/text_forms.c): fixed-width Crockford base32 whose byte order is the
-- numeric order.
--

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

-- A UUID from two bigints (bytes 0..7 and 8..15, two's complement)
CREATE FUNCTION pg_temp.uuid_of(hi bigint, lo bigint) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
    SELECT (lpad(to_hex(hi), 16, '0') || lpad(to_hex(lo), 16, '0'))::uuid
$$;

--
-- Known forms
--
SELECT uid_to_text(0) AS zero,
       uid_to_text(1) AS one,
       uid_to_text(31) AS thirty_one,
       uid_to_text(32) AS thirty_two,
       uid_to_text(9223372036854775807) AS max;

-- every digit in its place: 0..31 at the end
SELECT string_agg(right(uid_to_text(d), 1), '' ORDER BY d) AS alphabet
FROM generate_series(0, 31) d;

SELECT uuid_to_text('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_to_text('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_to_text('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS rfc9562_v7_example;

-- a ULID: the ULID specification's example for time 1469918176385 ms
SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAV') AS ulid_as_uuid,
       ('x' || substr(replace(uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAV')::text, '-', ''), 1, 12))::bit(48)::bigint AS ulid_time_ms;

-- for a v7, the first 10 digits are the 48-bit ms time: the last 10 digits of
-- uid_to_text() of that time
SELECT count(*) AS v7_sampled,
       count(*) FILTER (WHERE left(uuid_to_text(u), 10) <>
                              right(uid_to_text((extract(epoch FROM uuid7_time(u)) * 1000)::bigint), 10)) AS time_prefix_differs
FROM (SELECT uuid7(timestamptz '2020-01-01' + g * interval '7 days 3 hours 17 minutes 0.123 seconds') AS u
      FROM generate_series(0, 999) g) s;

--
-- Round trips: 0, 1, the largest value, every power of two and its
-- neighbours
--
SELECT count(*) AS uid_edge_values,
       count(*) FILTER (WHERE uid_from_text(uid_to_text(x)) <> x) AS not_restored,
       count(*) FILTER (WHERE length(uid_to_text(x)) <> 13) AS not_13_characters,
       count(*) FILTER (WHERE uid_to_text(x) !~ '^[0-7][0-9A-HJKMNP-TV-Z]{12}$') AS outside_alphabet
FROM (SELECT 0::bigint AS x UNION ALL SELECT 9223372036854775807
      UNION ALL SELECT (1::bigint << p) + d FROM generate_series(0, 62) p, generate_series(-1, 1) d) s;

SELECT count(*) AS uuid_edge_values,
       count(*) FILTER (WHERE uuid_from_text(uuid_to_text(u)) <> u) AS not_restored,
       count(*) FILTER (WHERE uuid_to_text(u) !~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS outside_alphabet
FROM (SELECT '00000000-0000-0000-0000-000000000000'::uuid AS u
      UNION ALL SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'
      UNION ALL SELECT pg_temp.uuid_of(CASE WHEN p >= 64 THEN 1::bigint << (p - 64) ELSE 0 END,
                                       CASE WHEN p < 64 THEN 1::bigint << p ELSE 0 END)
                FROM generate_series(0, 127) p) s;

-- a million pseudo-random values over the whole range of each
-- (hashint8extended: the same everywhere, as hash partitioning needs)
SELECT count(*) AS uid_random_values,
       count(*) FILTER (WHERE uid_from_text(uid_to_text(x)) <> x) AS not_restored
FROM (SELECT hashint8extended(g, 1) & 9223372036854775807 AS x
      FROM generate_series(1, 1000000) g) s;

SELECT count(*) AS uuid_random_values,
       count(*) FILTER (WHERE uuid_from_text(uuid_to_text(u)) <> u) AS not_restored
FROM (SELECT (lpad(to_hex(hashint8extended(g, 2)), 16, '0') || lpad(to_hex(hashint8extended(g, 3)), 16, '0'))::uuid AS u
      FROM generate_series(1, 1000000) g) s;

--
-- Order: under COLLATE "C" the forms sort exactly like the values
--
CREATE TEMP TABLE ids AS
SELECT hashint8extended(g, 4) & 9223372036854775807 AS x FROM generate_series(1, 100000) g
UNION SELECT (1::bigint << p) + d FROM generate_series(0, 61) p, generate_series(-1, 1) d
UNION SELECT 0 UNION SELECT 9223372036854775807;

SELECT count(*) AS uid_values,
       count(*) FILTER (WHERE rank_by_value <> rank_by_text) AS order_differs
FROM (SELECT row_number() OVER (ORDER BY x) AS rank_by_value,
             row_number() OVER (ORDER BY uid_to_text(x) COLLATE "C") AS rank_by_text
      FROM ids) s;

CREATE TEMP TABLE uuids AS
SELECT (lpad(to_hex(hashint8extended(g, 5)), 16, '0') || lpad(to_hex(hashint8extended(g, 6)), 16, '0'))::uuid AS u
FROM generate_series(1, 100000) g
UNION SELECT pg_temp.uuid_of(CASE WHEN p >= 64 THEN 1::bigint << (p - 64) ELSE 0 END,
                             CASE WHEN p < 64 THEN 1::bigint << p ELSE 0 END)
      FROM generate_series(0, 127) p
UNION SELECT '00000000-0000-0000-0000-000000000000' UNION SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff';

SELECT count(*) AS uuid_values,
       count(*) FILTER (WHERE rank_by_value <> rank_by_text) AS order_differs
FROM (SELECT row_number() OVER (ORDER BY u) AS rank_by_value,
             row_number() OVER (ORDER BY uuid_to_text(u) COLLATE "C") AS rank_by_text
      FROM uuids) s;

-- consecutive uid_next() values keep their order as text
SELECT count(*) AS consecutive_ids,
       count(*) FILTER (WHERE t <= prev COLLATE "C") AS not_increasing
FROM (SELECT uid_to_text(id) AS t, lag(uid_to_text(id)) OVER (ORDER BY id) AS prev
      FROM uid_next_batch(5000) id) s WHERE prev IS NOT NULL;

--
-- Lenient reading: case, O/I/L, surrounding white space
--
SELECT uid_from_text('0000000000001') = 1 AS plain,
       uid_from_text('000000000000z') = 31 AS lower_case,
       uid_from_text('O00000000000o') = 0 AS o_is_0,
       uid_from_text('000000000000I') = 1 AND uid_from_text('000000000000i') = 1 AS i_is_1,
       uid_from_text('000000000000L') = 1 AND uid_from_text('000000000000l') = 1 AS l_is_1,
       uid_from_text(E' \t\n\r\f' || chr(11) || '0000000000001' || chr(11) || E' \t\n\r\f') = 1 AS white_space,
       uid_from_text('7zzzzzzzzzzzz') = 9223372036854775807 AS max_lower;

SELECT uuid_from_text(lower('01ARYZ6S41TSV4RRFFQ69G5FAV')) = uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAV') AS lower_case,
       uuid_from_text('0O0OOOOOOOOOOOOOOOOOOOOOil') = uuid_from_text('00000000000000000000000011') AS aliases,
       uuid_from_text(E'\n 7ZZZZZZZZZZZZZZZZZZZZZZZZZ\t') = 'ffffffff-ffff-ffff-ffff-ffffffffffff' AS max_with_space;

-- STRICT: NULL in, NULL out
SELECT uid_to_text(NULL) IS NULL AS a, uid_from_text(NULL) IS NULL AS b,
       uuid_to_text(NULL) IS NULL AS c, uuid_from_text(NULL) IS NULL AS d;

--
-- Bad input: SQLSTATE 22P02 naming the character and its position
--
SELECT pg_temp.err($$SELECT uid_from_text('0000U00000000')$$) AS u;
SELECT pg_temp.err($$SELECT uid_from_text('0000u00000000')$$) AS lower_u;
SELECT pg_temp.err($$SELECT uid_from_text('00000-0000000')$$) AS hyphen;
SELECT pg_temp.err($$SELECT uid_from_text('000000 000000')$$) AS inner_space;
SELECT pg_temp.err($$SELECT uid_from_text('  00000000000*0')$$) AS star_after_space;
SELECT pg_temp.err($$SELECT uid_from_text('000000000000é')$$) AS multibyte;
SELECT pg_temp.err($$SELECT uid_from_text('00000000000000')$$) AS fourteen_digits;
SELECT pg_temp.err($$SELECT uid_from_text(' 0000000000000 1')$$) AS digit_after_space;
SELECT pg_temp.err($$SELECT uid_from_text('000000000000')$$) AS twelve_digits;
SELECT pg_temp.err($$SELECT uid_from_text('')$$) AS empty;
SELECT pg_temp.err($$SELECT uid_from_text('   ')$$) AS only_space;
SELECT pg_temp.err($$SELECT uid_from_text('8000000000000')$$) AS overflow_8;
SELECT pg_temp.err($$SELECT uid_from_text(' zzzzzzzzzzzzz')$$) AS overflow_z;
SELECT pg_temp.err($$SELECT uid_to_text(-1)$$) AS negative;

SELECT pg_temp.err($$SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAU')$$) AS u;
SELECT pg_temp.err($$SELECT uuid_from_text('01ARYZ6S41-TSV4RRFFQ69G5FAV')$$) AS hyphen;
SELECT pg_temp.err($$SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAV0')$$) AS twenty_seven_digits;
SELECT pg_temp.err($$SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FA')$$) AS twenty_five_digits;
SELECT pg_temp.err($$SELECT uuid_from_text('81ARYZ6S41TSV4RRFFQ69G5FAV')$$) AS overflow;
SELECT pg_temp.err($$SELECT uuid_from_text('0123e4567-e89b-12d3-a456-426614174000')$$) AS uuid_syntax;

-- A bad character is quoted as it is when it is a character of the server
-- encoding (é above, in UTF8), else by its bytes as \xNN: under SQL_ASCII,
-- which checks no byte, é is the bytes \xc3\xa9, and the message is ASCII,
-- valid in every client encoding.
CREATE DATABASE uid_sql_ascii TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C';
\c uid_sql_ascii
CREATE EXTENSION uid;
SELECT uid_from_text('000000000000é');
SELECT uid_from_text('é000000000000');
SELECT uuid_from_text('01ARYZ6S41TSV4RRFFQ69G5FAé');
SELECT uuid_from_text(' 01ARYZ6S41TSV4RRFFQ69G5FA€');
\c contrib_regression
DROP DATABASE uid_sql_ascii;
