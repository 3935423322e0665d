-- A DEFAULT of uid_next() or uuid7() only on a column that holds every value
-- (event trigger uid_guard_defaults): refused at DDL time (42804) rather
-- than at the first INSERT ("integer out of range").
\set VERBOSITY default
SET client_min_messages = warning;
CREATE SCHEMA regress_dg;
SET search_path = regress_dg, public;
-- refused: CREATE TABLE with integer, smallint, real, double precision,
-- numeric(10), varchar(10), a domain over integer; uuid7() into bigint or varchar(20)
CREATE TABLE t_int (id integer PRIMARY KEY DEFAULT uid_next());
CREATE TABLE t_small (id smallint DEFAULT uid_next());
CREATE TABLE t_float (id double precision DEFAULT uid_next());
CREATE TABLE t_real (id real DEFAULT uid_next());
CREATE TABLE t_num (id numeric(10) DEFAULT uid_next());
CREATE TABLE t_num_scale (id numeric(20, 2) DEFAULT uid_next());
CREATE TABLE t_vc (id varchar(10) DEFAULT uid_next());
CREATE DOMAIN small_id AS integer;
CREATE TABLE t_dom (id small_id DEFAULT uid_next());
CREATE TABLE t_cast (id integer DEFAULT uid_next()::integer);
CREATE TABLE t_u_vc (u varchar(20) DEFAULT uuid7());
CREATE TABLE t_u_ts (u text DEFAULT uuid7(now()), v varchar(35) DEFAULT uuid7(now()));
-- nothing was created
SELECT count(*) FROM pg_class WHERE relnamespace = 'regress_dg'::regnamespace AND relkind = 'r';
-- accepted: bigint, uid, numeric, numeric(19), text, varchar, varchar(19),
-- a domain over bigint; uuid7() into uuid, text, varchar(36)
CREATE DOMAIN big_id AS bigint;
CREATE TABLE t_ok (
    a bigint PRIMARY KEY DEFAULT uid_next(),
    b uid DEFAULT uid_next(),
    c numeric DEFAULT uid_next(),
    d numeric(19) DEFAULT uid_next(),
    e text DEFAULT uid_next(),
    f varchar DEFAULT uid_next(),
    g varchar(19) DEFAULT uid_next(),
    h big_id DEFAULT uid_next(),
    i uuid DEFAULT uuid7(),
    j text DEFAULT uuid7(),
    k varchar(36) DEFAULT uuid7(),
    l integer DEFAULT 1);
INSERT INTO t_ok DEFAULT VALUES;
SELECT num_nulls(a, b, c, d, e, f, g, h, i, j, k) AS nulls, length(k) FROM t_ok;
-- ALTER TABLE ... ADD COLUMN
ALTER TABLE t_ok ADD COLUMN m integer DEFAULT uid_next();
ALTER TABLE t_ok ADD COLUMN m bigint DEFAULT uid_next();
-- ALTER COLUMN ... SET DEFAULT
ALTER TABLE t_ok ALTER COLUMN l SET DEFAULT uid_next();
ALTER TABLE t_ok ALTER COLUMN l SET DEFAULT 2;
-- ALTER COLUMN ... TYPE with the default kept
ALTER TABLE t_ok ALTER COLUMN a TYPE integer;
ALTER TABLE t_ok ALTER COLUMN i TYPE varchar(20);
ALTER TABLE t_ok ALTER COLUMN h TYPE numeric;
-- LIKE ... INCLUDING DEFAULTS copies the default with the column's type
CREATE TABLE t_like (LIKE t_ok INCLUDING DEFAULTS);
-- other DDL on an unrelated table is not affected
CREATE TABLE t_plain (x integer DEFAULT 7);
ALTER TABLE t_plain ADD COLUMN y smallint;
SELECT attname, format_type(atttypid, atttypmod)
FROM pg_attribute WHERE attrelid = 't_ok'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
RESET search_path;
DROP SCHEMA regress_dg CASCADE;
