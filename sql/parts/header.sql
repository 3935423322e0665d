-- uid 1.5: time-sortable unique IDs.  The install script of the current
-- version, complete on its own: CREATE EXTENSION uid runs this file alone.
-- The scripts of earlier versions stay as they shipped, for the upgrade
-- path (uid--1.0.sql, then uid--1.0--1.1.sql, uid--1.1--1.2.sql,
-- uid--1.2--1.3.sql, uid--1.3--1.4.sql and uid--1.4--1.5.sql);
-- sql/upgrade.sql checks that both paths make the same objects.
-- Every operator and call of a statement it runs is qualified: this script
-- runs with the extension's schema on the search path, where other roles
-- may create objects.  Function bodies write operators plainly: each
-- function pins search_path = pg_catalog, pg_temp, and its body resolves
-- under that when it runs (test/unit/sql_operators.sh).

\echo Use "CREATE EXTENSION uid" to load this file. \quit
