-- uid: time-sortable unique IDs.  This script is assembled from
-- sql/install/*.sql by the Makefile; edit the parts, not the result.

\echo Use "CREATE EXTENSION uid" to load this file. \quit
