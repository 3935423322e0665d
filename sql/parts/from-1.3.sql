-- uid 1.3 -> 1.4.
-- The Makefile builds sql/uid--1.3--1.4.sql from this file, what changes
-- in place (tables altered, objects dropped, rows moved), followed by the
-- parts whose objects are new or replaced in 1.4 (UID_UPGRADE_1_3_PARTS),
-- so that each object is written once, in sql/parts/.  Every operator and
-- call is qualified: this script runs with the extension's schema on the
-- search path, where other roles may create objects.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.4'" to load this file. \quit

-- The counters' helpers run with search_path pinned, as every function of
-- uid's does (their bodies: sql/parts/counters.sql).
ALTER FUNCTION uid_counter._prefix_code(pg_catalog.text) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION uid_counter._span(pg_catalog.text, pg_catalog.int8, pg_catalog.int8) SET search_path = pg_catalog, pg_temp;

-- uid_adopt() and uid_unadopt() name their changes to uid_adopt._alter()
-- (sql/parts/owner_ddl.sql), which writes each statement itself, instead
-- of writing SQL for uid_alter_as_owner() to parse back.
DROP FUNCTION uid_alter_as_owner(pg_catalog.text);
