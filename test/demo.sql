-- What test/demo.sh runs on its new server (and test/t/150_readme_sql.pl
-- before the README's SQL, so that the README's examples are checked on the
-- server as the demo leaves it): a database, uid in it, a table keyed by
-- the uid type, three rows, and what they look like.
CREATE DATABASE uid_demo;
\connect uid_demo
CREATE EXTENSION uid;
CREATE TABLE orders (id uid PRIMARY KEY DEFAULT uid_next(), item text);
INSERT INTO orders (item) VALUES ('coffee'), ('tea'), ('cake');
SELECT id, item, (uid_decode(id)).* FROM orders ORDER BY id;
-- JSON writes a uid as a string: JavaScript reads every id exactly
SELECT json_agg(o ORDER BY id) FROM orders o;
SELECT * FROM orders WHERE uid_time(id) >= now() - interval '1 minute';
SELECT worker_id, ids_issued, clock_waits, clock_refusals, last_issued_at FROM uid_stats;
