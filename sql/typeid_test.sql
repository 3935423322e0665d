--
-- typeid: prefixed text forms (src/forms/typeid.c).  TypeIDs of UUIDs,
-- uuid_to_typeid / uuid_from_typeid, as specification 0.3.0 of
-- jetify-com/typeid defines them, and the prefixed form of a 64-bit ID,
-- uid_to_text(id, prefix) / uid_from_text(form, prefix), which is not a
-- TypeID.
--
SET timezone = 'UTC';

-- 'ok', or the SQLSTATE, message, detail and hint of the error a statement
-- raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    detail text;
    hint text;
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ': ' || SQLERRM || coalesce(E'\n  DETAIL: ' || nullif(detail, ''), '')
        || coalesce(E'\n  HINT: ' || nullif(hint, ''), '');
END
$$;

-- the SQLSTATE alone
CREATE FUNCTION pg_temp.state(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$$;

-- All five are IMMUTABLE, STRICT and PARALLEL SAFE, decoders included, so
-- that a decoded constant is folded at planning and an index can use it.
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel,
       pg_get_function_result(p.oid) AS returns
FROM pg_proc p
WHERE p.oid IN ('uuid_to_typeid(uuid, text)'::regprocedure, 'uuid_from_typeid(text)'::regprocedure,
                'uuid_from_typeid(text, text)'::regprocedure, 'uid_to_text(bigint, text)'::regprocedure,
                'uid_from_text(text, text)'::regprocedure)
ORDER BY 1::text;

--
-- The specification's valid examples (spec/valid.yml and the table of
-- prefixes of its README), written out here: each TypeID encodes from its
-- prefix and UUID exactly, and decodes to that UUID, with and without the
-- prefix expected.
--
CREATE TEMP TABLE valid (name text, typeid text, prefix text, u uuid);
INSERT INTO valid VALUES
  ('nil',              '00000000000000000000000000',        '',        '00000000-0000-0000-0000-000000000000'),
  ('one',              '00000000000000000000000001',        '',        '00000000-0000-0000-0000-000000000001'),
  ('ten',              '0000000000000000000000000a',        '',        '00000000-0000-0000-0000-00000000000a'),
  ('sixteen',          '0000000000000000000000000g',        '',        '00000000-0000-0000-0000-000000000010'),
  ('thirty-two',       '00000000000000000000000010',        '',        '00000000-0000-0000-0000-000000000020'),
  ('max-valid',        '7zzzzzzzzzzzzzzzzzzzzzzzzz',        '',        'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  ('valid-alphabet',   'prefix_0123456789abcdefghjkmnpqrs', 'prefix',  '0110c853-1d09-52d8-d73e-1194e95b5f19'),
  ('valid-uuidv7',     'prefix_01h455vb4pex5vsknk084sn02q', 'prefix',  '01890a5d-ac96-774b-bcce-b302099a8057'),
  ('prefix-underscore','pre_fix_00000000000000000000000000','pre_fix', '00000000-0000-0000-0000-000000000000'),
  -- the prefixes of the README's table, with its suffix; the UUID of that
  -- suffix (which the README does not give) computed independently
  ('no prefix',        '01h5fskfsk4fpeqwnsyz5hj55t',        '',        '01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('user',             'user_01h5fskfsk4fpeqwnsyz5hj55t',   'user',    '01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('my_type',          'my_type_01h5fskfsk4fpeqwnsyz5hj55t','my_type', '01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('a_b_c',            'a_b_c_01h5fskfsk4fpeqwnsyz5hj55t',  'a_b_c',   '01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('my__type',         'my__type_01h5fskfsk4fpeqwnsyz5hj55t','my__type','01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('a',                'a_01h5fskfsk4fpeqwnsyz5hj55t',      'a',       '01895f99-bf33-23ec-ebf2-b9f7cb1914ba'),
  ('63 characters',    'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk_01h5fskfsk4fpeqwnsyz5hj55t',
                       'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk',
                                                                   '01895f99-bf33-23ec-ebf2-b9f7cb1914ba');
SELECT name, uuid_to_typeid(u, prefix) AS encoded, uuid_to_typeid(u, prefix) = typeid AS encodes,
       uuid_from_typeid(typeid) = u AS decodes, uuid_from_typeid(typeid, prefix) = u AS decodes_with_prefix
FROM valid ORDER BY name;
-- the v7 example's time
SELECT uuid7_time(uuid_from_typeid('prefix_01h455vb4pex5vsknk084sn02q')) AS v7_example_time;
-- the suffix is uuid_to_text() in lower case (for a v7, its ULID)
SELECT count(*) AS valid_examples,
       count(*) FILTER (WHERE right(typeid, 26) <> lower(uuid_to_text(u))) AS suffix_differs
FROM valid;

--
-- Invalid TypeIDs, each refused with 22P02 and the first problem from the
-- left: the specification's invalid examples (spec/invalid.yml) and more
-- from its rules.
--
-- the prefix: upper case, digits, other symbols, non-ASCII, white space,
-- 64 characters, an underscore first or last, a separator without a prefix
SELECT pg_temp.err($$SELECT uuid_from_typeid('PREFIX_00000000000000000000000000')$$) AS prefix_uppercase;
SELECT pg_temp.err($$SELECT uuid_from_typeid('12345_00000000000000000000000000')$$) AS prefix_numeric;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user2_00000000000000000000000000')$$) AS prefix_digit_inside;
SELECT pg_temp.err($$SELECT uuid_from_typeid('pre.fix_00000000000000000000000000')$$) AS prefix_period;
SELECT pg_temp.err($$SELECT uuid_from_typeid('pre-fix_00000000000000000000000000')$$) AS prefix_hyphen;
SELECT pg_temp.err($$SELECT uuid_from_typeid('préfix_00000000000000000000000000')$$) AS prefix_non_ascii;
SELECT pg_temp.err($$SELECT uuid_from_typeid('  prefix_00000000000000000000000000')$$) AS prefix_spaces;
SELECT pg_temp.err($$SELECT uuid_from_typeid('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000')$$) AS prefix_64_chars;
SELECT pg_temp.err($$SELECT uuid_from_typeid('_prefix_00000000000000000000000000')$$) AS prefix_underscore_start;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix__00000000000000000000000000')$$) AS prefix_underscore_end;
SELECT pg_temp.err($$SELECT uuid_from_typeid('_00000000000000000000000000')$$) AS separator_empty_prefix;
SELECT pg_temp.err($$SELECT uuid_from_typeid('_')$$) AS separator_alone;
SELECT pg_temp.err($$SELECT uuid_from_typeid('')$$) AS empty;
-- the suffix: empty, 25 and 27 characters, white space, upper case,
-- hyphens, letters outside the alphabet, Crockford's aliases, a first
-- character above 7
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_')$$) AS prefix_without_suffix;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_1234567890123456789012345')$$) AS suffix_short;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_123456789012345678901234567')$$) AS suffix_long;
SELECT pg_temp.err($$SELECT uuid_from_typeid('0000000000000000000000000')$$) AS bare_suffix_short;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_1234567890123456789012345 ')$$) AS suffix_spaces;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_0123456789ABCDEFGHJKMNPQRS')$$) AS suffix_uppercase;
SELECT pg_temp.err($$SELECT uuid_from_typeid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')$$) AS bare_suffix_uppercase;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_123456789-123456789-123456')$$) AS suffix_hyphens;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_ooooooiiiiiiuuuuuuulllllll')$$) AS suffix_wrong_alphabet;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_i23456789ol23456789oi23456')$$) AS suffix_ambiguous_crockford;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_123456789-0123456789-0123456')$$) AS suffix_hyphens_crockford;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_0000000000000000000000000é')$$) AS suffix_non_ascii;
SELECT pg_temp.err($$SELECT uuid_from_typeid('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz')$$) AS suffix_overflow;
SELECT pg_temp.err($$SELECT uuid_from_typeid('zzzzzzzzzzzzzzzzzzzzzzzzzz')$$) AS bare_suffix_overflow;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user')$$) AS prefix_alone;
SELECT pg_temp.err($$SELECT uuid_from_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba')$$) AS uuid_syntax;
-- every one of the specification's invalid examples: 22P02, with or
-- without a prefix expected
SELECT t AS invalid_typeid, pg_temp.state(format('SELECT uuid_from_typeid(%L)', t)) AS any_prefix,
       pg_temp.state(format('SELECT uuid_from_typeid(%L, %L)', t, 'prefix')) AS prefix_expected
FROM unnest(ARRAY['PREFIX_00000000000000000000000000', '12345_00000000000000000000000000',
                  'pre.fix_00000000000000000000000000', 'préfix_00000000000000000000000000',
                  '  prefix_00000000000000000000000000',
                  'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000',
                  '_00000000000000000000000000', '_', 'prefix_1234567890123456789012345',
                  'prefix_123456789012345678901234567', 'prefix_1234567890123456789012345 ',
                  'prefix_0123456789ABCDEFGHJKMNPQRS', 'prefix_123456789-123456789-123456',
                  'prefix_ooooooiiiiiiuuuuuuulllllll', 'prefix_i23456789ol23456789oi23456',
                  'prefix_123456789-0123456789-0123456', 'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz',
                  '_prefix_00000000000000000000000000', 'prefix__00000000000000000000000000',
                  '', 'prefix_']) WITH ORDINALITY AS x(t, n)
ORDER BY n;

-- every character of the suffix alphabet reads; every other ASCII
-- character is refused in every place of the suffix
SELECT count(*) FILTER (WHERE pg_temp.state(format('SELECT uuid_from_typeid(%L)',
                                                   overlay('00000000000000000000000000' placing chr(c) from p))) = 'ok') AS accepted,
       string_agg(DISTINCT chr(c), '' ORDER BY chr(c))
         FILTER (WHERE pg_temp.state(format('SELECT uuid_from_typeid(%L)',
                                            overlay('00000000000000000000000000' placing chr(c) from p))) = 'ok') AS accepted_characters,
       count(*) FILTER (WHERE pg_temp.state(format('SELECT uuid_from_typeid(%L)',
                                                   overlay('00000000000000000000000000' placing chr(c) from p))) = '22P02') AS refused
FROM generate_series(1, 127) c, generate_series(2, 26, 8) p;

-- the first character: 0 to 7
SELECT string_agg(d, '' ORDER BY d) FILTER (WHERE pg_temp.state(format('SELECT uuid_from_typeid(%L)', d || repeat('z', 25))) = 'ok') AS first_accepted,
       string_agg(d, '' ORDER BY d) FILTER (WHERE pg_temp.state(format('SELECT uuid_from_typeid(%L)', d || repeat('z', 25))) = '22P02') AS first_refused
FROM regexp_split_to_table('0123456789abcdefghjkmnpqrstvwxyz', '') d;

-- STRICT: NULL in, NULL out
SELECT uuid_to_typeid(NULL, 'user') IS NULL AS a, uuid_to_typeid(uuid7(), NULL) IS NULL AS b,
       uuid_from_typeid(NULL) IS NULL AS c, uuid_from_typeid(NULL, 'user') IS NULL AS d,
       uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', NULL) IS NULL AS e;

--
-- The prefix given: a TypeID of another prefix is refused with 22023; a
-- prefix argument that breaks the rules too, when encoding and when
-- decoding (before the TypeID is read)
--
SELECT pg_temp.err($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', 'order')$$) AS other_prefix;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', 'use')$$) AS shorter_prefix;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', '')$$) AS none_expected;
SELECT pg_temp.err($$SELECT uuid_from_typeid('01h5fskfsk4fpeqwnsyz5hj55t', 'user')$$) AS none_given;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55t', 'User')$$) AS bad_expected;
SELECT pg_temp.err($$SELECT uuid_from_typeid('user_01h5fskfsk4fpeqwnsyz5hj55u', 'order')$$) AS malformed_before_other;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', 'User')$$) AS uppercase;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', 'user2')$$) AS digit;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', '_user')$$) AS leading_underscore;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', 'user_')$$) AS trailing_underscore;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', '_')$$) AS underscore_alone;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', repeat('a', 64))$$) AS sixty_four;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', 'ünïcode')$$) AS non_ascii;
SELECT pg_temp.err($$SELECT uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', ' user')$$) AS space;
SELECT length(uuid_to_typeid('01895f99-bf33-23ec-ebf2-b9f7cb1914ba', repeat('a', 63))) AS longest;

--
-- Round trips: uuid7() values and pseudo-random UUIDs of every version,
-- with and without a prefix
--
CREATE TEMP TABLE v7 AS SELECT g, uuid7() AS u FROM generate_series(1, 20000) g;
SELECT count(*) AS uuid7_values,
       count(*) FILTER (WHERE uuid_from_typeid(uuid_to_typeid(u, 'user')) <> u) AS not_restored,
       count(*) FILTER (WHERE uuid_from_typeid(uuid_to_typeid(u, 'user'), 'user') <> u) AS not_restored_checked,
       count(*) FILTER (WHERE uuid_from_typeid(uuid_to_typeid(u, '')) <> u) AS not_restored_bare,
       count(*) FILTER (WHERE uuid_to_typeid(u, 'user') !~ '^user_[0-7][0-9a-hjkmnp-tv-z]{25}$') AS outside_alphabet,
       count(*) FILTER (WHERE uuid_to_typeid(uuid_from_typeid(uuid_to_typeid(u, 'user')), 'user')
                              <> uuid_to_typeid(u, 'user')) AS not_reencoded
FROM v7;
SELECT count(*) AS random_uuids,
       count(*) FILTER (WHERE uuid_from_typeid(uuid_to_typeid(u, 'a_b')) <> u) AS not_restored
FROM (SELECT (lpad(to_hex(hashint8extended(g, 7)), 16, '0') || lpad(to_hex(hashint8extended(g, 8)), 16, '0'))::uuid AS u
      FROM generate_series(1, 100000) g) s;

--
-- Order: TypeIDs of increasing uuid7() values, one prefix, increase as
-- text under COLLATE "C"; so do those of any UUIDs
--
SELECT count(*) AS consecutive_uuid7,
       count(*) FILTER (WHERE t <= prev COLLATE "C") AS not_increasing
FROM (SELECT uuid_to_typeid(u, 'user') AS t, lag(uuid_to_typeid(u, 'user')) OVER (ORDER BY g) AS prev
      FROM v7) s WHERE prev IS NOT NULL;
SELECT count(*) AS uuid_values,
       count(*) FILTER (WHERE rank_by_value <> rank_by_text) AS order_differs
FROM (SELECT row_number() OVER (ORDER BY u) AS rank_by_value,
             row_number() OVER (ORDER BY uuid_to_typeid(u, 'order') COLLATE "C") AS rank_by_text
      FROM (SELECT (lpad(to_hex(hashint8extended(g, 9)), 16, '0') || lpad(to_hex(hashint8extended(g, 10)), 16, '0'))::uuid AS u
            FROM generate_series(1, 100000) g
            UNION SELECT '00000000-0000-0000-0000-000000000000'
            UNION SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff') s) r;

--
-- The prefixed form of a 64-bit ID: the prefix, an underscore and
-- uid_to_text(id); not a TypeID
--
SELECT uid_to_text(0, 'order') AS zero, uid_to_text(120792503275237376, 'order') AS an_id,
       uid_to_text(9223372036854775807, 'a_b') AS max, uid_to_text(120792503275237376, '') AS no_prefix;
SELECT uid_from_text('order_03B944H4M0C00', 'order') AS an_id,
       uid_from_text('order_03b944h4m0c00', 'order') AS lower_case,
       uid_from_text('order_O3B944H4MOCOO', 'order') AS o_for_0,
       uid_from_text('a_b_7zzzzzzzzzzzz', 'a_b') AS max,
       uid_from_text('03B944H4M0C00', '') AS no_prefix;
-- a TypeID parser refuses it, and it refuses a TypeID
SELECT pg_temp.state($$SELECT uuid_from_typeid('order_03B944H4M0C00')$$) AS as_typeid,
       pg_temp.state($$SELECT uid_from_text('user_01h5fskfsk4fpeqwnsyz5hj55t', 'user')$$) AS typeid_as_uid;

CREATE TEMP TABLE ids AS
SELECT hashint8extended(g, 11) & 9223372036854775807 AS x FROM generate_series(1, 100000) g
UNION SELECT (1::bigint << p) + d FROM generate_series(0, 61) p, generate_series(-1, 1) d
UNION SELECT 0 UNION SELECT 9223372036854775807;
SELECT count(*) AS uid_values,
       count(*) FILTER (WHERE uid_from_text(uid_to_text(x, 'order'), 'order') <> x) AS not_restored,
       count(*) FILTER (WHERE uid_to_text(x, 'order') <> 'order_' || uid_to_text(x)) AS not_uid_to_text,
       count(*) FILTER (WHERE rank_by_value <> rank_by_text) AS order_differs
FROM (SELECT x, row_number() OVER (ORDER BY x) AS rank_by_value,
             row_number() OVER (ORDER BY uid_to_text(x, 'order') COLLATE "C") AS rank_by_text
      FROM ids) s;
-- consecutive uid_next() values keep their order as text
SELECT count(*) AS consecutive_ids,
       count(*) FILTER (WHERE t <= prev COLLATE "C") AS not_increasing,
       count(*) FILTER (WHERE uid_from_text(t, 'order') <> id) AS not_restored
FROM (SELECT id, uid_to_text(id, 'order') AS t, lag(uid_to_text(id, 'order')) OVER (ORDER BY id) AS prev
      FROM uid_next_batch(5000) id) s WHERE prev IS NOT NULL;

-- its errors: 22P02 for a malformed form, 22023 for another prefix or a
-- bad prefix argument, 22003 for a negative ID
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944H4M0C0', 'order')$$) AS twelve_digits;
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944H4M0C000', 'order')$$) AS fourteen_digits;
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944U4M0C00', 'order')$$) AS u;
SELECT pg_temp.err($$SELECT uid_from_text('order_83B944H4M0C00', 'order')$$) AS overflow;
SELECT pg_temp.err($$SELECT uid_from_text('order_ 03B944H4M0C00', 'order')$$) AS space;
SELECT pg_temp.err($$SELECT uid_from_text('Order_03B944H4M0C00', 'order')$$) AS uppercase_prefix;
SELECT pg_temp.err($$SELECT uid_from_text('order__03B944H4M0C00', 'order')$$) AS double_separator;
SELECT pg_temp.err($$SELECT uid_from_text('_03B944H4M0C00', '')$$) AS separator_without_prefix;
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944H4M0C00', 'user')$$) AS other_prefix;
SELECT pg_temp.err($$SELECT uid_from_text('03B944H4M0C00', 'order')$$) AS none_given;
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944H4M0C00', '')$$) AS none_expected;
SELECT pg_temp.err($$SELECT uid_from_text('order_03B944H4M0C00', 'order1')$$) AS bad_expected;
SELECT pg_temp.err($$SELECT uid_to_text(1, 'Order')$$) AS bad_prefix;
SELECT pg_temp.err($$SELECT uid_to_text(-1, 'order')$$) AS negative;
SELECT uid_to_text(NULL::bigint, 'order') IS NULL AS a, uid_to_text(1, NULL) IS NULL AS b,
       uid_from_text(NULL, 'order') IS NULL AS c, uid_from_text('order_0000000000001', NULL) IS NULL AS d;

--
-- Masked IDs through both forms: mask, prefixed text, decode, unmask
--
SELECT count(*) AS masked_ids,
       count(*) FILTER (WHERE uid_unmask(uid_from_text(uid_to_text(uid_mask(x, k), 'order'), 'order'), k) <> x) AS not_restored
FROM ids, (SELECT '\x2B7E151628AED2A6ABF7158809CF4F3C'::bytea AS k) key
WHERE x % 10 = 0;
SELECT count(*) AS masked_uuid7,
       count(*) FILTER (WHERE uuid7_unmask(uuid_from_typeid(uuid_to_typeid(uuid7_mask(u, k), 'doc'), 'doc'), k) <> u) AS not_restored,
       count(*) FILTER (WHERE uuid_to_typeid(uuid7_mask(u, k), 'doc') !~ '^doc_[0-7][0-9a-hjkmnp-tv-z]{25}$') AS not_a_typeid
FROM v7, (SELECT '\x2B7E151628AED2A6ABF7158809CF4F3C'::bytea AS k) key;
-- under uid.mask_key (uid is preloaded for the tests)
SET uid.mask_key = '2b7e151628aed2a6abf7158809cf4f3c';
SELECT uid_to_text(uid_mask(1000), 'order') AS masked_form,
       uid_unmask(uid_from_text(uid_to_text(uid_mask(1000), 'order'), 'order')) AS unmasked;
SELECT count(*) FILTER (WHERE uuid7_unmask(uuid_from_typeid(uuid_to_typeid(uuid7_mask(u), 'doc'), 'doc')) <> u) AS uuid7_not_restored
FROM v7 WHERE g <= 1000;
RESET uid.mask_key;

--
-- A decoded constant is an index lookup: the decoders are IMMUTABLE, so
-- the planner folds them into a constant the primary key's index takes
--
CREATE TABLE typeid_docs (id uuid PRIMARY KEY, title text);
INSERT INTO typeid_docs SELECT u, 'doc ' || g FROM v7;
INSERT INTO typeid_docs VALUES ('01890a5d-ac96-774b-bcce-b302099a8057', 'the example');
CREATE TABLE typeid_orders (id bigint PRIMARY KEY, item text);
INSERT INTO typeid_orders
SELECT uid_from_time('2026-03-01'::timestamptz + g * interval '40 s') + g % 4096, 'item ' || g
FROM generate_series(1, 20000) g;
VACUUM ANALYZE typeid_docs;
VACUUM ANALYZE typeid_orders;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM typeid_docs WHERE id = uuid_from_typeid('doc_01h455vb4pex5vsknk084sn02q', 'doc');
EXPLAIN (COSTS OFF) SELECT * FROM typeid_docs WHERE id = uuid_from_typeid('doc_01h455vb4pex5vsknk084sn02q');
EXPLAIN (COSTS OFF) SELECT * FROM typeid_orders WHERE id = uid_from_text('order_03B944H4M0C00', 'order');
-- a parameter, as an API passes it: a generic plan decodes it once, when
-- the scan starts
PREPARE typeid_doc(text) AS SELECT title FROM typeid_docs WHERE id = uuid_from_typeid($1, 'doc');
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE typeid_doc('doc_01h455vb4pex5vsknk084sn02q');
EXECUTE typeid_doc('doc_01h455vb4pex5vsknk084sn02q');
EXECUTE typeid_doc('doc_01h455vb4pex5vsknk084sn02r');
SELECT pg_temp.state($$EXECUTE typeid_doc('order_01h455vb4pex5vsknk084sn02q')$$) AS other_prefix;
RESET plan_cache_mode;
DEALLOCATE typeid_doc;

--
-- Time filters keep working beside a decoded ID, and on one: the decoded
-- value is a plain bigint (uuid), so uid_time() of the column is still
-- rewritten into a range of the index (src/tables/time_filter.c)
--
EXPLAIN (COSTS OFF) SELECT * FROM typeid_orders
WHERE id = uid_from_text('order_03B944H4M0C00', 'order') AND uid_time(id) >= '2026-03-05 12:00:00';
-- everything made since the ID in hand was made
EXPLAIN (COSTS OFF) SELECT * FROM typeid_orders
WHERE uid_time(id) >= uid_time(uid_from_text('order_03B944H4M0C00', 'order'));
SELECT (SELECT count(*) FROM typeid_orders WHERE uid_time(id) >= uid_time(uid_from_text(t, 'order'))) AS since_form,
       (SELECT count(*) FROM typeid_orders WHERE uid_time(id) >= uid_time(x)) AS since_id
FROM (SELECT id AS x, uid_to_text(id, 'order') AS t FROM typeid_orders ORDER BY id OFFSET 15000 LIMIT 1) o;
EXPLAIN (COSTS OFF) SELECT * FROM typeid_docs
WHERE uuid7_time(id) >= uuid7_time(uuid_from_typeid('doc_01h455vb4pex5vsknk084sn02q', 'doc'));
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE typeid_docs, typeid_orders;
