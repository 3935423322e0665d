-- uid 1.3 -> 1.4.
-- The Makefile builds sql/uid--1.3--1.4.sql from this file, what changes
-- in place (tables altered, objects dropped, rows moved), followed by the
-- parts whose objects are new or replaced in 1.4 (UID_UPGRADE_1_3_PARTS),
-- so that each object is written once, in sql/parts/.  Every operator and
-- call of a statement it runs is qualified: this script runs with the
-- extension's schema on the search path, where other roles may create
-- objects (function bodies: sql/parts/header.sql).

\echo Use "ALTER EXTENSION uid UPDATE TO '1.4'" to load this file. \quit

-- uid_adopt() and uid_unadopt() name their changes to uid_adopt._alter()
-- (sql/parts/owner_ddl.sql), which writes each statement itself, instead
-- of writing SQL for uid_alter_as_owner() to parse back.
DROP FUNCTION uid_alter_as_owner(pg_catalog.text);
