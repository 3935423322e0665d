-- Adopting existing tables: uid_adopt() and uid_unadopt(), and nextval(),
-- currval() and lastval() of adopted sequences (docs/adopting.md).
-- IDs differ from run to run: the checks print what they compare, and
-- statements that carry an ID show it as N.  Everything lives in a schema
-- of its own, dropped at the end.
CREATE SCHEMA adopt;
SET search_path = adopt, public;
\set SHOW_CONTEXT never
CREATE FUNCTION steps(text[]) RETURNS SETOF text LANGUAGE sql AS
$$ SELECT regexp_replace(s, '[0-9]{12,}', 'N', 'g') FROM unnest($1) AS s $$;
SELECT uid_from_time(now() - interval '1 minute') AS recent \gset
-- an error whose message carries IDs and times: its SQLSTATE, message and
-- detail with every number as N
CREATE FUNCTION err(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; msg text; det text;
BEGIN
    EXECUTE stmt;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN st || ': ' || regexp_replace(msg || ' / ' || det, '[0-9]+', 'N', 'g');
END $$;

-- What goes wrong without adoption: a bigserial table whose default is
-- simply set to uid_next() keeps the old sequence in currval() and lastval(),
-- which drivers read as the new row's id.
CREATE TABLE naive (id bigserial PRIMARY KEY, v text);
INSERT INTO naive (v) VALUES ('a'), ('b');
ALTER TABLE naive ALTER COLUMN id SET DEFAULT uid_next();
INSERT INTO naive (v) VALUES ('c');
SELECT currval('naive_id_seq') AS currval_is_still_the_sequences, lastval() AS lastval_too;

-- Plans made before the adoption: planned again after it.
CREATE TABLE orders (id bigserial PRIMARY KEY, v text);
INSERT INTO orders (v) VALUES ('a'), ('b');
PREPARE next_order AS SELECT nextval('orders_id_seq') AS n;
CREATE FUNCTION plpgsql_next() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN RETURN nextval('orders_id_seq'); END $$;
EXECUTE next_order;
SELECT plpgsql_next();

-- A bigserial table, adopted: the same calls now name the new row.
SELECT steps(array_agg(s)) FROM uid_adopt('orders', dry_run => true) AS s;
SELECT pg_get_expr(adbin, adrelid) AS default_after_dry_run FROM pg_attrdef WHERE adrelid = 'orders'::regclass;
SELECT steps(array_agg(s)) FROM uid_adopt('orders') AS s;
SELECT * FROM uid_adoptions;
INSERT INTO orders (v) VALUES ('c') RETURNING id > :recent AS new_format_id;
SELECT currval('orders_id_seq') = max(id) AS currval_is_the_row, lastval() = max(id) AS lastval_is_the_row,
       pg_get_serial_sequence('orders', 'id') AS serial_sequence
FROM orders;
SELECT array_agg(id ORDER BY id) AS old_ids_unchanged FROM orders WHERE id < 100;
EXECUTE next_order \gset
SELECT :n > :recent AS prepared_before_gets_uid_id;
SELECT plpgsql_next() > :recent AS plpgsql_before_gets_uid_id;
SELECT nextval('orders_id_seq') > (SELECT max(id) FROM orders) AS nextval_above_every_row;
-- with a parameter in a generic plan, and with the sequence from a column
SET plan_cache_mode = force_generic_plan;
PREPARE next_of(regclass) AS SELECT nextval($1) AS n;
EXECUTE next_of('orders_id_seq') \gset
SELECT :n > :recent AS generic_plan_gets_uid_id, currval('orders_id_seq') = :n AS currval_follows;
RESET plan_cache_mode;
SELECT nextval(s::regclass) > :recent AS from_a_column FROM (VALUES ('orders_id_seq')) AS v(s);
SELECT n > :recent AS in_from FROM nextval('orders_id_seq') AS n;
-- a second adoption changes nothing
SELECT count(*) AS steps_of_second_adoption FROM uid_adopt('orders');

-- lastval() follows the last sequence the session used, adopted or not:
-- a serial default, a plain nextval() and an identity column.
CREATE SEQUENCE plain_seq;
CREATE TABLE plain_ident (id bigint GENERATED ALWAYS AS IDENTITY, v text);
INSERT INTO orders (v) VALUES ('d');
SELECT nextval('plain_seq') = lastval() AS lastval_follows_plain_nextval;
INSERT INTO orders (v) VALUES ('e');
SELECT lastval() > :recent AS lastval_follows_adopted;
INSERT INTO plain_ident (v) VALUES ('x');
SELECT lastval() AS lastval_follows_identity;
SELECT currval('orders_id_seq') = (SELECT max(id) FROM orders) AS currval_kept;
-- DISCARD SEQUENCES forgets uid's values too
DISCARD SEQUENCES;
SELECT currval('orders_id_seq');
SELECT lastval();

-- Paths the planner does not see call PostgreSQL's nextval() on the
-- sequence, which the adoption left at its maximum: they fail, loudly.
CREATE TABLE other_default (id bigint DEFAULT nextval('orders_id_seq'), x int);
COPY other_default (x) FROM stdin;
1
\.
INSERT INTO other_default (x) VALUES (1) RETURNING id > :recent AS insert_gets_uid_id;
CREATE PROCEDURE show(v bigint) LANGUAGE plpgsql AS $$ BEGIN END $$;
CALL show(nextval('orders_id_seq'));
SELECT setval('orders_id_seq', 10);
DROP TABLE other_default;
DROP PROCEDURE show(bigint);

-- The label itself: uid's labels only, on sequences only.
SECURITY LABEL FOR uid ON SEQUENCE plain_seq IS 'something';
SECURITY LABEL FOR uid ON TABLE orders IS 'adopted';

-- Identity columns, ALWAYS and BY DEFAULT: they become defaults, the
-- sequence keeps its name; ALWAYS no longer refuses supplied values.
CREATE TABLE ident_always (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
CREATE TABLE ident_default (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v text);
INSERT INTO ident_always (v) VALUES ('a');
INSERT INTO ident_default (v) VALUES ('a');
SELECT steps(array_agg(s)) FROM uid_adopt('ident_always') AS s;
SELECT count(*) AS steps FROM uid_adopt('ident_default', 'id');
SELECT attname, attidentity = '' AS no_identity, pg_get_expr(adbin, adrelid) AS default
FROM pg_attribute JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
WHERE attrelid IN ('ident_always'::regclass, 'ident_default'::regclass) ORDER BY attrelid;
INSERT INTO ident_always (v) VALUES ('b') RETURNING id > :recent AS new_format_id,
    currval(pg_get_serial_sequence('ident_always', 'id')) = id AS currval_is_the_row;
INSERT INTO ident_always (id, v) VALUES (7, 'supplied') RETURNING id;
SELECT origin FROM uid_adoptions WHERE sequence::text LIKE 'ident%' ORDER BY 1;

-- UUID columns: uuid7() for new rows, old values untouched.
CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v text);
INSERT INTO docs (v) VALUES ('old');
SELECT * FROM uid_adopt('docs');
INSERT INTO docs (v) VALUES ('new');
SELECT v, uuid_extract_version(id) FROM docs ORDER BY v;
SELECT count(*) AS steps_of_second_adoption FROM uid_adopt('docs');
CREATE TABLE docs_other (id uuid DEFAULT md5('x')::uuid);
SELECT * FROM uid_adopt('docs_other', 'id');

-- integer columns: refused, with every column that references them and the
-- statements that widen them; the dry run prints them; widen runs them.
CREATE TABLE parent (id serial PRIMARY KEY);
CREATE TABLE child (id bigserial PRIMARY KEY, parent_id integer REFERENCES parent);
CREATE TABLE child2 (parent_id smallint REFERENCES parent);
INSERT INTO parent DEFAULT VALUES;
INSERT INTO child (parent_id) VALUES (1);
SELECT * FROM uid_adopt('parent');
SELECT steps(array_agg(s)) FROM uid_adopt('parent', dry_run => true) AS s;
SELECT steps(array_agg(s)) FROM uid_adopt('parent', widen => true) AS s;
SELECT attrelid::regclass, attname, atttypid::regtype FROM pg_attribute
WHERE attrelid IN ('parent'::regclass, 'child'::regclass, 'child2'::regclass) AND attname LIKE '%id'
ORDER BY 1, 2;
INSERT INTO parent DEFAULT VALUES RETURNING id > :recent AS new_format_id;
INSERT INTO child (parent_id) SELECT max(id) FROM parent RETURNING parent_id > :recent AS child_references_it;

-- A sequence shared by several tables, and a sequence only an application
-- calls (Hibernate's hibernate_sequence): adopt the sequence.
CREATE SEQUENCE shared_seq;
CREATE TABLE s1 (id bigint PRIMARY KEY DEFAULT nextval('shared_seq'));
CREATE TABLE s2 (id bigint PRIMARY KEY DEFAULT nextval('shared_seq'));
INSERT INTO s1 DEFAULT VALUES;
INSERT INTO s2 DEFAULT VALUES;
SELECT steps(array_agg(s)) FROM uid_adopt('s1') AS s;
INSERT INTO s2 DEFAULT VALUES RETURNING id > :recent AS other_table_moved_too;
CREATE SEQUENCE hibernate_sequence INCREMENT 50;
SELECT nextval('hibernate_sequence');
SELECT steps(array_agg(s)) FROM uid_adopt('hibernate_sequence') AS s;
-- INCREMENT 50: each answer N has N - 50 .. N + 49 to itself, for the
-- pooled (N - 50 .. N - 1 in Hibernate 3.6, N - 49 .. N later) and the
-- pooled-lo (N .. N + 49) optimizers
SELECT uid_next() AS before \gset
SELECT nextval('hibernate_sequence') AS h1 \gset
SELECT nextval('hibernate_sequence') AS h2 \gset
SELECT :before < :h1 - 50 AS earlier_ids_below_the_block, :h2 - :h1 >= 100 AS blocks_apart,
       uid_next() > :h2 + 49 AS later_ids_above_the_block;
CREATE SEQUENCE big_step INCREMENT 4096;
SELECT * FROM uid_adopt('big_step');
CREATE SEQUENCE down_seq INCREMENT -1;
SELECT * FROM uid_adopt('down_seq');

-- Partitioned tables (partitions made later too) and inheritance children.
CREATE TABLE events (id bigserial, k int, PRIMARY KEY (id, k)) PARTITION BY LIST (k);
CREATE TABLE events_1 PARTITION OF events FOR VALUES IN (1);
INSERT INTO events (k) VALUES (1);
SELECT steps(array_agg(s)) FROM uid_adopt('events', 'id') AS s;
CREATE TABLE events_2 PARTITION OF events FOR VALUES IN (2);
INSERT INTO events (k) VALUES (1), (2) RETURNING k, id > :recent AS new_format_id;
INSERT INTO events_2 (k) VALUES (2) RETURNING id > :recent AS partition_made_later;
CREATE TABLE base (id bigserial PRIMARY KEY);
CREATE TABLE derived (extra int) INHERITS (base);
CREATE INDEX ON derived (id);
SELECT count(*) AS steps FROM uid_adopt('base');
INSERT INTO derived DEFAULT VALUES RETURNING id > :recent AS child_moved;

-- Values ahead of uid (another generator with an earlier epoch): refused.
CREATE TABLE foreign_ids (id bigserial PRIMARY KEY);
INSERT INTO foreign_ids VALUES (uid_from_time(now() + interval '400 days'));
SELECT err($$SELECT * FROM uid_adopt('foreign_ids')$$);
SELECT pg_get_expr(adbin, adrelid) AS unchanged FROM pg_attrdef WHERE adrelid = 'foreign_ids'::regclass;

-- What cannot be adopted.
CREATE TABLE no_default (id bigint PRIMARY KEY);
SELECT * FROM uid_adopt('no_default');
CREATE TABLE text_key (id text PRIMARY KEY);
SELECT * FROM uid_adopt('text_key');
CREATE TABLE no_pk (id bigserial);
SELECT * FROM uid_adopt('no_pk');
SELECT * FROM uid_adopt('no_pk', 'nope');
CREATE VIEW v AS SELECT 1 AS id;
SELECT * FROM uid_adopt('v');
SELECT * FROM uid_adopt('orders_id_seq', 'id');
SELECT * FROM uid_adopt(NULL);
SELECT * FROM uid_adopt(pg_get_serial_sequence('plain_ident', 'id')::regclass);
CREATE TABLE uses_uid (id bigint PRIMARY KEY DEFAULT uid_next());
SELECT * FROM uid_adopt('uses_uid');

-- Another role's table, sequence or column: refused (42501).
CREATE ROLE regress_adopt_other;
GRANT USAGE ON SCHEMA adopt TO regress_adopt_other;
CREATE TABLE mine (id bigserial PRIMARY KEY);
ALTER TABLE mine OWNER TO regress_adopt_other;
CREATE TABLE uses_mine (id bigint PRIMARY KEY DEFAULT nextval('mine_id_seq'));
ALTER TABLE uses_mine OWNER TO regress_adopt_other;
SET ROLE regress_adopt_other;
SELECT * FROM uid_adopt('orders');
SELECT * FROM uid_unadopt('ident_default');
SELECT * FROM uid_adopt('shared_seq');
SECURITY LABEL FOR uid ON SEQUENCE orders_id_seq IS NULL;
RESET ROLE;
-- a sequence of one's own that another role's table uses
ALTER TABLE uses_mine OWNER TO CURRENT_USER;
SET ROLE regress_adopt_other;
SELECT * FROM uid_adopt('mine');
SECURITY LABEL FOR uid ON SEQUENCE mine_id_seq IS 'adopted';
RESET ROLE;
DROP TABLE uses_mine, mine;

-- uid_unadopt(): a sequence default (or identity) again, its next value
-- above every stored value and every ID this server issued.
SELECT steps(array_agg(s)) FROM uid_unadopt('orders') AS s;
INSERT INTO orders (v) VALUES ('after') RETURNING id > :recent AS above_the_uid_ids;
SELECT count(*) = count(DISTINCT id) AS unique_ids, currval('orders_id_seq') = max(id) AS plain_currval FROM orders;
SELECT count(*) AS steps_of_second_unadoption FROM uid_unadopt('orders');
SELECT steps(array_agg(s)) FROM uid_unadopt('ident_always') AS s;
INSERT INTO ident_always (v) VALUES ('after') RETURNING id > :recent AS above_the_uid_ids;
INSERT INTO ident_always (id, v) VALUES (8, 'supplied');
SELECT steps(array_agg(s)) FROM uid_unadopt('docs') AS s;
SELECT steps(array_agg(s)) FROM uid_unadopt('hibernate_sequence') AS s;
SELECT nextval('hibernate_sequence') - 50 > :h2 + 49 AS pooled_block_above;
SELECT sequence FROM uid_adoptions ORDER BY 1::text;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA adopt CASCADE;
RESET client_min_messages;
DROP ROLE regress_adopt_other;
SELECT count(*) AS adoptions_left FROM uid_adoptions;
