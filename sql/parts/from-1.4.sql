-- uid 1.4 -> 1.5.
-- The Makefile builds sql/uid--1.4--1.5.sql from this file, what changes
-- in place (tables altered, objects dropped, rows moved), followed by the
-- parts whose objects are new or replaced in 1.5 (UID_UPGRADE_1_4_PARTS),
-- so that each object is written once, in sql/parts/.  Every operator and
-- call of a statement it runs is qualified: this script runs with the
-- extension's schema on the search path, where other roles may create
-- objects (function bodies: sql/parts/header.sql).

\echo Use "ALTER EXTENSION uid UPDATE TO '1.5'" to load this file. \quit
