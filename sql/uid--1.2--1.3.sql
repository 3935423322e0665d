-- uid 1.2 -> 1.3: adopting existing tables and sequences.
-- Each section below belongs to one concern; keep them apart.  Every
-- operator and call is qualified: this script runs with the extension's
-- schema on the search path, where other roles may create objects.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.3'" to load this file. \quit
