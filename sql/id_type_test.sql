--
-- id_type: the uid type, a bigint that JSON carries as a string.  Stored,
-- indexed and compared as bigint (its operators and operator classes are
-- bigint's, through a free implicit cast); printed by JSON as a string.
--

CREATE SCHEMA id_type;
SET search_path = id_type, public;

-- 'ok', or the SQLSTATE and message of the error a statement raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

--
-- The type: bigint's size, alignment and text and binary forms
--
SELECT t.typlen, t.typbyval, t.typalign, t.typstorage, t.typcategory,
       t.typlen = b.typlen AND t.typalign = b.typalign AS like_bigint
FROM pg_type t, pg_type b WHERE t.oid = 'uid'::regtype AND b.oid = 'int8'::regtype;
SELECT '121354151570051072'::uid AS id, '0'::uid AS lowest,
       ' 42 '::uid AS spaces, '121354151570051072'::uid::text = '121354151570051072'::bigint::text AS same_text;
SELECT uid_send('121354151570051072') = int8send(121354151570051072) AS same_binary;
SELECT pg_temp.err($$SELECT 'abc'::uid$$) AS bad_text,
       pg_temp.err($$SELECT '9223372036854775808'::uid$$) AS out_of_range,
       pg_temp.err($$SELECT ''::uid$$) AS empty,
       pg_temp.err($$SELECT '1.5'::uid$$) AS fraction;

--
-- Casts: to bigint implicitly and free; from bigint, integer literals and
-- parameters on assignment; no rounding from numeric
--
SELECT c.castsource::regtype, c.casttarget::regtype, c.castcontext, c.castmethod
FROM pg_cast c WHERE 'uid'::regtype IN (c.castsource, c.casttarget) ORDER BY 1::text, 2::text;
CREATE TABLE orders (id uid PRIMARY KEY, item text);
INSERT INTO orders VALUES (123, 'int literal'), (121354151570051072, 'bigint literal'),
                          ('121354151570051073', 'text literal');
INSERT INTO orders SELECT 121354151570051074::bigint, 'bigint expression';
SELECT id, pg_typeof(id), item FROM orders ORDER BY id;
SELECT pg_temp.err($$INSERT INTO orders VALUES (1.5, 'numeric')$$) AS numeric_refused;
SELECT id + 1 AS arithmetic, pg_typeof(id + 1) AS is_bigint, id::numeric AS as_numeric
FROM orders WHERE id = 123;
SELECT DISTINCT pg_typeof(coalesce(id, 0)) AS coalesce_type FROM orders;
-- aggregates are bigint's: max() gives a bigint (a JSON number) unless cast
SELECT pg_typeof(max(id)) AS max_type, pg_typeof(max(id)::uid) AS max_cast FROM orders;
-- uid is its category's preferred type (so that uid_to_text(5) picks the uid
-- form): a UNION with uid first stays uid and wants a cast of bigint
SELECT pg_typeof(x) AS union_type FROM (SELECT 1::bigint UNION ALL SELECT id FROM orders) s(x) LIMIT 1;
SELECT pg_temp.err($$SELECT id FROM orders UNION ALL SELECT 1::bigint$$) AS union_uid_first;

--
-- JSON: every producer prints it as a string; every reader takes it back
-- from a string and from a number
--
CREATE TABLE j (id uid, n bigint);
INSERT INTO j VALUES (121354151570051072, 121354151570051072);
SELECT to_json(id) AS to_json, to_jsonb(id) AS to_jsonb, to_json(n) AS bigint_to_json FROM j;
SELECT row_to_json(j) FROM j;
SELECT json_agg(j) AS json_agg, jsonb_agg(j) AS jsonb_agg FROM j;
SELECT json_build_object('id', id) AS json_build_object, jsonb_build_object('id', id) AS jsonb_build_object,
       json_build_array(id) AS json_build_array FROM j;
SELECT json_object_agg(id, id) AS json_object_agg, jsonb_object_agg('k', id) AS jsonb_object_agg FROM j;
SELECT to_jsonb(ARRAY[id, id]) AS array_of_ids FROM j;
SELECT (('{"id": "121354151570051072"}'::json) ->> 'id')::uid AS from_string,
       (('{"id": 121354151570051072}'::jsonb) ->> 'id')::uid AS from_number;
SELECT * FROM json_populate_record(NULL::j, '{"id": "121354151570051072", "n": 1}');
SELECT * FROM json_populate_record(NULL::j, '{"id": 121354151570051072, "n": 1}');
SELECT * FROM jsonb_populate_record(NULL::j, '{"id": "121354151570051072", "n": 1}');
SELECT * FROM jsonb_populate_record(NULL::j, '{"id": 121354151570051072, "n": 1}');
SELECT * FROM jsonb_to_recordset('[{"id": "5"}, {"id": 6}]') AS r(id uid);
SELECT pg_temp.err($$SELECT * FROM jsonb_populate_record(NULL::j, '{"id": 1.5}')$$) AS fraction_refused;

--
-- Indexes: a uid column's index is bigint's (int8_ops), and every way of
-- comparing with an id uses it
--
SELECT c.relname, o.opcname, f.opfname
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_opclass o ON o.oid = i.indclass[0] JOIN pg_opfamily f ON f.oid = o.opcfamily
WHERE i.indrelid = 'orders'::regclass;
INSERT INTO orders SELECT 121354151570051075 + g, 'filler' FROM generate_series(1, 2000) g;
CREATE TABLE items (order_id bigint REFERENCES orders, n int);
CREATE INDEX ON items (order_id);
INSERT INTO items SELECT id, 1 FROM orders;
ANALYZE orders, items;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = 123;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = 121354151570051072;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '121354151570051072';
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id IN (123, 124);
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id IN ('123', '124');
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = ANY ('{123,124}'::bigint[]);
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id > 121354151570051072 ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT * FROM orders ORDER BY id DESC LIMIT 3;
-- parameters: an int8 one, and an untyped one (node-postgres sends those),
-- in generic plans
SET plan_cache_mode = force_generic_plan;
PREPARE by_int8(bigint) AS SELECT item FROM orders WHERE id = $1;
PREPARE by_untyped AS SELECT item FROM orders WHERE id = $1;
PREPARE by_array AS SELECT item FROM orders WHERE id = ANY ($1);
PREPARE after_untyped AS SELECT id FROM orders WHERE id > $1 ORDER BY id LIMIT 2;
SELECT name, parameter_types FROM pg_prepared_statements ORDER BY name;
EXPLAIN (COSTS OFF) EXECUTE by_int8(121354151570051072);
EXPLAIN (COSTS OFF) EXECUTE by_untyped('121354151570051072');
EXPLAIN (COSTS OFF) EXECUTE by_array('{123,121354151570051072}');
EXPLAIN (COSTS OFF) EXECUTE after_untyped('121354151570051072');
EXECUTE by_int8(121354151570051072);
EXECUTE by_untyped('121354151570051072');
EXECUTE by_array('{123,121354151570051072}');
EXECUTE after_untyped('121354151570051072');
RESET plan_cache_mode;
-- joins to bigint columns: nested loop over either index, merge, hash
EXPLAIN (COSTS OFF) SELECT * FROM orders o JOIN items i ON i.order_id = o.id WHERE o.id = 123;
EXPLAIN (COSTS OFF) SELECT * FROM items i JOIN orders o ON o.id = i.order_id WHERE i.n = 7;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN items i ON i.order_id = o.id;
SET enable_mergejoin = off;
SET enable_hashjoin = on;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN items i ON i.order_id = o.id;
RESET enable_mergejoin;
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_bitmapscan;
SELECT count(*) FROM orders o JOIN items i ON i.order_id = o.id;

--
-- Foreign keys both ways: bigint -> uid (items above), uid -> bigint
--
CREATE TABLE legacy (id bigint PRIMARY KEY);
INSERT INTO legacy VALUES (121354151570051072);
CREATE TABLE refs (legacy_id uid REFERENCES legacy, order_id uid REFERENCES orders);
INSERT INTO refs VALUES (121354151570051072, 123);
SELECT pg_temp.err($$INSERT INTO refs VALUES (1, NULL)$$) AS uid_to_bigint,
       pg_temp.err($$INSERT INTO items VALUES (1, 1)$$) AS bigint_to_uid,
       pg_temp.err($$INSERT INTO refs VALUES (NULL, 2)$$) AS uid_to_uid;

--
-- In place: ALTER COLUMN TYPE from bigint keeps the table's file and its
-- indexes' files (same operator class), and back
--
CREATE TABLE moving (id bigint PRIMARY KEY, note text);
CREATE INDEX moving_hash ON moving USING hash (id);
INSERT INTO moving SELECT g, 'x' FROM generate_series(1, 1000) g;
CREATE TABLE moving_refs (moving_id bigint REFERENCES moving);
INSERT INTO moving_refs SELECT g FROM generate_series(1, 1000, 7) g;
CREATE TEMP TABLE files AS
SELECT relname, relfilenode FROM pg_class WHERE relname IN ('moving', 'moving_pkey', 'moving_hash', 'moving_refs');
-- the foreign keys: does PostgreSQL check them again (scans of either
-- table in the ALTER's transaction) and with which operator
BEGIN;
ALTER TABLE moving ALTER COLUMN id TYPE uid;
SELECT pg_stat_get_xact_numscans('moving'::regclass) AS moving_scans,
       pg_stat_get_xact_numscans('moving_refs'::regclass) AS refs_scans;
COMMIT;
SELECT conpfeqop::regoperator[] AS pk_eq_fk, conppeqop::regoperator[] AS pk_eq_pk,
       conffeqop::regoperator[] AS fk_eq_fk
FROM pg_constraint WHERE conrelid = 'moving_refs'::regclass AND contype = 'f';
SELECT f.relname, f.relfilenode = c.relfilenode AS file_kept
FROM files f JOIN pg_class c USING (relname) ORDER BY 1;
SELECT pg_temp.err($$INSERT INTO moving_refs VALUES (1001)$$) AS fk_still_checked;
BEGIN;
ALTER TABLE moving_refs ALTER COLUMN moving_id TYPE uid;
SELECT pg_stat_get_xact_numscans('moving'::regclass) AS moving_scans,
       pg_stat_get_xact_numscans('moving_refs'::regclass) AS refs_scans;
COMMIT;
SELECT conpfeqop::regoperator[] AS pk_eq_fk FROM pg_constraint
WHERE conrelid = 'moving_refs'::regclass AND contype = 'f';
SELECT f.relname, f.relfilenode = c.relfilenode AS file_kept
FROM files f JOIN pg_class c USING (relname) ORDER BY 1;
ALTER TABLE moving ALTER COLUMN id TYPE bigint;
SELECT f.relname, f.relfilenode = c.relfilenode AS file_kept_back
FROM files f JOIN pg_class c USING (relname) ORDER BY 1;

--
-- Everything uid does with a bigint id: decoding, time, text forms, the
-- planner's time filter, partition pruning
--
SELECT (uid_decode(id)).*, uid_time(id), uid_to_text(id),
       uid_from_text(uid_to_text(id)) = id AS text_round_trip
FROM orders WHERE id = 121354151570051072;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE uid_time(id) >= '2027-01-01 00:00:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE (uid_decode(id)).ts < '2027-01-01 00:00:00+00';
RESET enable_seqscan;
CREATE TABLE events (id uid NOT NULL, body text) PARTITION BY RANGE (id);
CREATE TABLE events_a PARTITION OF events FOR VALUES FROM (0) TO (121354151570051072);
CREATE TABLE events_b PARTITION OF events FOR VALUES FROM (121354151570051072) TO (MAXVALUE);
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id >= 121354151570051072;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE uid_time(id) >= '2027-01-01 00:00:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE uid_time(id) < '2026-06-01 00:00:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id = '5';

--
-- uid_next() as the default
--
CREATE TABLE fresh (id uid PRIMARY KEY DEFAULT uid_next(), item text);
INSERT INTO fresh (item) SELECT 'n' FROM generate_series(1, 100);
SELECT count(DISTINCT id) AS distinct_ids, bool_and(uid_time(id) > now() - interval '1 hour') AS recent,
       (SELECT bool_and(j ->> 'id' = id::text) FROM fresh f, LATERAL row_to_json(f) AS r(j)) AS json_strings
FROM fresh;

-- the audit, the stored maximum and uid_catch_up() read the type as they
-- read bigint
CREATE TABLE fresh_bigint AS SELECT id::bigint AS id FROM fresh;
-- (this server has no ledger: the audit of either column stops at the
-- same point, past the column's type check)
SELECT pg_temp.err($$SELECT * FROM uid_audit('fresh', 'id')$$)
     = pg_temp.err($$SELECT * FROM uid_audit('fresh_bigint', 'id')$$) AS audit_as_bigint;
SELECT uid_stored_max('fresh', 'id') = (SELECT max(id) FROM fresh) AS stored_max;
SELECT c.kind, c.column_name, c.stored_max::bigint = (SELECT max(id) FROM fresh) AS read
FROM uid_catch_up(true) c WHERE c.object = 'id_type.fresh';
-- masking through the type: a masked id is an id too
SELECT bool_and(uid_unmask(uid_mask(id, '\x2b7e151628aed2a6abf7158809cf4f3c'),
                           '\x2b7e151628aed2a6abf7158809cf4f3c') = id) AS mask_round_trip
FROM fresh;

--
-- uid_adopt(..., as_uid => true): a bigserial and an identity column moved
-- to uid_next() and to the type in one step, tables and indexes kept
--
CREATE TABLE serial_orders (id bigserial PRIMARY KEY, item text);
CREATE TABLE serial_lines (order_id bigint REFERENCES serial_orders, n int);
INSERT INTO serial_orders (item) VALUES ('a'), ('b');
INSERT INTO serial_lines VALUES (1, 1), (2, 1);
CREATE TABLE identity_orders (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, item text);
INSERT INTO identity_orders (item) VALUES ('a');
CREATE TEMP TABLE adopt_files AS
SELECT relname, relfilenode FROM pg_class
WHERE relname IN ('serial_orders', 'serial_orders_pkey', 'identity_orders', 'identity_orders_pkey');
SELECT s FROM uid_adopt('serial_orders', as_uid => true) AS s WHERE s LIKE 'ALTER TABLE%TYPE%';
SELECT count(*) FROM uid_adopt('identity_orders', as_uid => true);
SELECT f.relname, f.relfilenode = c.relfilenode AS file_kept
FROM adopt_files f JOIN pg_class c USING (relname) ORDER BY 1;
SELECT attrelid::regclass, format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid IN ('serial_orders'::regclass, 'identity_orders'::regclass, 'serial_lines'::regclass)
  AND attname IN ('id', 'order_id') ORDER BY 1::text;
INSERT INTO serial_orders (item) VALUES ('c') RETURNING id > 2 AS new_id_above, pg_typeof(id);
INSERT INTO identity_orders (item) VALUES ('b') RETURNING id > 1 AS new_id_above, pg_typeof(id);
INSERT INTO serial_lines SELECT max(id), 2 FROM serial_orders;
SELECT json_agg(s.id ORDER BY s.id)::text LIKE '["1", "2", "%"]' AS strings FROM serial_orders s;
SELECT pg_temp.err($$SELECT uid_adopt('serial_orders_id_seq', as_uid => true)$$) AS sequence_refused;
-- a column already on uid_next(): as_uid just changes its type
CREATE TABLE next_orders (id bigint PRIMARY KEY DEFAULT uid_next());
SELECT * FROM uid_adopt('next_orders', as_uid => true);
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid = 'next_orders'::regclass AND attname = 'id';


--
-- The edges: bigint's whole range, negative values included, as text (uid_in)
-- and in binary (uid_recv, through COPY): what the casts store reads back
-- (dumps, COPY and logical replication of such values: TAP 141); syntax and
-- overflow errors name the type uid; an integer with an exponent reads the
-- same from json and jsonb
--
SELECT '-1'::uid AS minus_one, '-9223372036854775808'::uid AS min, ' +9223372036854775807 '::uid AS max,
       '-0'::uid AS minus_zero, '-1e3'::uid AS minus_thousand, '-9223372036854775808e0'::uid AS min_exponent,
       pg_typeof('-1'::uid) AS type;
SELECT pg_temp.err($$SELECT '1e3'::uid$$) AS exponent, '1e3'::uid AS thousand, '1.5e1'::uid AS fifteen,
       pg_temp.err($$SELECT '1.50e1'::uid$$) AS scale, pg_temp.err($$SELECT '10e-1'::uid$$) AS fraction,
       pg_temp.err($$SELECT '1e30'::uid$$) AS too_big,
       pg_temp.err($$SELECT '-9223372036854775809'::uid$$) AS too_small,
       pg_temp.err($$SELECT '-9223372036854775809e0'::uid$$) AS too_small_exponent,
       pg_temp.err($$SELECT '-'::uid$$) AS sign_alone;
SELECT '9223372036854775808'::uid;
\set VERBOSITY sqlstate
SELECT '9223372036854775808'::uid;
\set VERBOSITY default
SELECT uid_send('-1') = int8send(-1) AS same_binary_negative;
CREATE TABLE edges (k int, id uid);
INSERT INTO edges SELECT k, v FROM unnest('{-9223372036854775808,-1,0,1,9223372036854775807}'::bigint[]) WITH ORDINALITY AS u(v, k);
SELECT current_setting('data_directory') || '/uid_regress_edges.bin' AS edges_file \gset
COPY edges TO :'edges_file' (FORMAT binary);
CREATE TABLE edges_back (LIKE edges);
COPY edges_back FROM :'edges_file' (FORMAT binary);
SELECT string_agg(id::text, ',' ORDER BY k) AS binary_round_trip FROM edges_back;
DROP TABLE edges, edges_back;
SELECT * FROM json_populate_record(NULL::j, '{"id": 1E3, "n": 1}');
SELECT * FROM jsonb_populate_record(NULL::j, '{"id": 1E3, "n": 1}');
SELECT pg_temp.err($$SELECT * FROM json_populate_record(NULL::j, '{"id": 1.5E0}')$$) AS json_fraction,
       pg_temp.err($$SELECT * FROM jsonb_populate_record(NULL::j, '{"id": 1.5E0}')$$) AS jsonb_fraction;

--
-- Comparisons: uid's own operators, in pg_catalog, for every pair; none is
-- ambiguous; numeric compares exactly
--
SELECT o.oprnamespace::regnamespace AS schema, o.oprname, o.oprleft::regtype, o.oprright::regtype,
       o.oprcanmerge, o.oprcanhash
FROM pg_operator o WHERE 'uid'::regtype IN (o.oprleft, o.oprright) AND o.oprname = '='
ORDER BY 3::text, 4::text;
SELECT '5'::uid = 5 AS int4, '5'::uid = 5::smallint AS int2, 5 = '5'::uid AS int4_left,
       '5'::uid = 5::bigint AS int8, '5'::uid < 5.5 AS numeric_lt, '5'::uid = 5.0 AS numeric_eq,
       5.5 > '5'::uid AS numeric_left, '5'::uid <> 5.5 AS numeric_ne, '5'::uid = -1 AS negative_int;
SELECT count(*) AS numeric_filter FROM orders WHERE id < 124.5;
SELECT uid_to_text(5) = uid_to_text(5::bigint) AS int_literal, uid_to_text('5') AS unknown_literal,
       pg_typeof(uid_time('5'::uid)) AS uid_time, (uid_decode('5'::uid)).sequence AS decode;
-- the uid forms of the granted functions follow the grant of the bigint form
CREATE ROLE id_type_masker;
SET ROLE id_type_masker;
SELECT pg_temp.err($$SELECT uid_mask('5'::uid)$$) AS uid_form_not_granted,
       pg_temp.err($$SELECT uid_mask(5)$$) AS literal_not_granted;
RESET ROLE;
GRANT EXECUTE ON FUNCTION uid_mask(bigint) TO id_type_masker;
SET ROLE id_type_masker;
SELECT pg_temp.err($$SELECT uid_mask('5'::uid)$$) NOT LIKE '42501%' AS uid_form_granted,
       pg_temp.err($$SELECT uid_mask(5::bigint)$$) NOT LIKE '42501%' AS bigint_form_granted;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION uid_mask(bigint) FROM id_type_masker;
DROP ROLE id_type_masker;
-- the families integer_ops hold uid's operators (IN lists and row
-- comparisons use them), and so does uid's own uid_ops; restoring them
-- again adds nothing
SELECT f.opfname, m.amname, count(*) AS operators
FROM pg_amop a JOIN pg_opfamily f ON f.oid = a.amopfamily JOIN pg_am m ON m.oid = f.opfmethod
WHERE 'uid'::regtype IN (a.amoplefttype, a.amoprighttype) GROUP BY 1, 2 ORDER BY 2;
SELECT uid_restore_operator_families() AS added_again;
-- what pg_upgrade leaves: the families without uid's entries.  The next
-- session warns once when it plans a uid comparison; IN lists do not use the
-- index until uid_restore_operator_families() puts the entries back.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT m.amname, a.amopstrategy AS n, a.amoplefttype::regtype AS l, a.amoprighttype::regtype AS r
             FROM pg_amop a JOIN pg_opfamily f ON f.oid = a.amopfamily JOIN pg_am m ON m.oid = f.opfmethod
             WHERE f.opfname = 'integer_ops' AND 'uid'::regtype IN (a.amoplefttype, a.amoprighttype) LOOP
        EXECUTE format('ALTER OPERATOR FAMILY pg_catalog.integer_ops USING %s DROP OPERATOR %s (%s, %s)',
                       r.amname, r.n, r.l, r.r);
    END LOOP;
    FOR r IN SELECT m.amname, p.amprocnum AS n, p.amproclefttype::regtype AS l, p.amprocrighttype::regtype AS r
             FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily JOIN pg_am m ON m.oid = f.opfmethod
             WHERE f.opfname = 'integer_ops' AND 'uid'::regtype IN (p.amproclefttype, p.amprocrighttype) LOOP
        EXECUTE format('ALTER OPERATOR FAMILY pg_catalog.integer_ops USING %s DROP FUNCTION %s (%s, %s)',
                       r.amname, r.n, r.l, r.r);
    END LOOP;
END
$$;
\c
SET search_path = id_type, public;
-- whether a query's plan reads an index (18 and later also print
-- "Disabled: true" under a node the enable_* settings turned off)
CREATE FUNCTION pg_temp.reads_index(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF l ~ 'Index' THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
END
$$;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.reads_index($$SELECT * FROM orders WHERE id IN ('123', '124')$$) AS in_list_reads_index;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '123';
-- a row comparison finds uid's own family, uid_ops: it works, without the index
SELECT id FROM orders WHERE (id, item) > ('123', 'a') ORDER BY id LIMIT 1;
SELECT uid_restore_operator_families() AS restored;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id IN ('123', '124');
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE (id, item) > ('123', 'a') ORDER BY id LIMIT 1;
SELECT id FROM orders WHERE (id, item) > ('123', 'a') ORDER BY id LIMIT 1;
SELECT pg_temp.reads_index($$SELECT * FROM orders WHERE id < 124.5$$) AS numeric_reads_index;
-- a join of two uid columns (of two tables: 18 and later remove a self-join
-- on a unique key) is a merge or a hash join, as bigint's is
CREATE TABLE orders_again (id uid PRIMARY KEY);
INSERT INTO orders_again SELECT id FROM orders;
ANALYZE orders_again;
EXPLAIN (COSTS OFF) SELECT * FROM orders o1 JOIN orders_again o2 ON o1.id = o2.id WHERE o1.id = '123';
SET enable_nestloop = off;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o1 JOIN orders_again o2 ON o1.id = o2.id;
SET enable_mergejoin = off;
SET enable_hashjoin = on;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o1 JOIN orders_again o2 ON o1.id = o2.id;
SELECT count(*) FROM orders o1 JOIN orders_again o2 ON o1.id = o2.id;
RESET enable_mergejoin;
RESET enable_nestloop;
RESET enable_hashjoin;
RESET enable_bitmapscan;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA id_type CASCADE;
RESET client_min_messages;
