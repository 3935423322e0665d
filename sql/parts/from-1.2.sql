-- uid 1.2 -> 1.3: adopting existing tables and sequences, the tenure ledger,
-- and uid's own tables under publications of every table.
-- The Makefile builds sql/uid--1.2--1.3.sql from this file, what changes
-- in place (tables altered, objects dropped, rows moved), followed by the
-- parts whose objects are new or replaced in 1.3 (the uid_stats view, the
-- ticket and counter functions, which every part may create again, and the
-- parts of adoption, the tenure ledger and uid_catch_up()), so that each
-- object is written once, in sql/parts/.
-- Each section below belongs to one concern; keep them apart.  Every
-- operator and call is qualified: this script runs with the extension's
-- schema on the search path, where other roles may create objects.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.3'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- uid's own tables under a publication of every table (docs/operations.md,
-- "Publishing everything: uid's own tables")
-- ---------------------------------------------------------------------------
-- Tickets.
-- Replication: logical replication carries rows, not sequences.  A
-- publication of every table sends the other servers' rows of _tickets here
-- without their sequences, so _tickets is keyed by (name, node): each server
-- of a set adds its own row, and the row of this server is the one whose
-- node is its sequence's MINVALUE.  A row without a sequence here is the
-- metadata of another server's ticket: drawing from it says so, creating
-- the ticket with another node adds this server's series beside it, and
-- dropping the name removes such rows.

ALTER TABLE uid_ticket._tickets DROP CONSTRAINT _tickets_pkey;
ALTER TABLE uid_ticket._tickets ALTER COLUMN name SET NOT NULL;
ALTER TABLE uid_ticket._tickets ADD PRIMARY KEY (name, node);

COMMENT ON TABLE uid_ticket._tickets IS
'One row per ticket sequence made by uid_ticket_create() on this server or, replicated, on another server of its set; kept by pg_dump.';

-- Counters.
-- Replication: a counter is a row that each draw updates, so two servers
-- drawing from one counter while replicating it to each other hand out
-- numbers twice.  uid_counter_next() therefore refuses (UID06) on a server
-- whose uid_counter.counters receives another writer's changes (a
-- subscription lists it in pg_subscription_rel; uid_counter._replicated()),
-- unless the tenant's range belongs to this server: its node is this
-- server's uid.counter_node.  A range that belongs to another server is
-- refused everywhere else.  CREATE EXTENSION writes no row, so a
-- publication of every table copies these tables into a server that has
-- the extension too.

ALTER TABLE uid_counter.ranges
    ADD COLUMN node text CHECK (node OPERATOR(pg_catalog.~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$');

COMMENT ON TABLE uid_counter.ranges IS
'Range [lo, hi] of a prefix owned by a tenant; ranges of one prefix never overlap (exclusion constraint); node: the server (uid.counter_node) that alone draws from it.';

-- The row 1.2 inserted at CREATE EXTENSION is what made a copy between two
-- servers fail (both have it).  Without it a counter call behaves the same
-- (see uid_counter._next()); the next range change writes it again.
DELETE FROM uid_counter.range_epoch;

COMMENT ON TABLE uid_counter.range_epoch IS
'At most one row, written by every range change (none before the first): a counter call in a snapshot older than the change fails (40001).';

-- Grants: the role by name and OID instead of regrole.  Grants of dropped
-- roles (which 1.2 skipped) are not carried over.
DROP VIEW uid_counter_grants;
DELETE FROM uid_counter.grants g
 WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                    WHERE r.oid OPERATOR(pg_catalog.=) g.role::pg_catalog.oid);
ALTER TABLE uid_counter.grants DROP CONSTRAINT grants_pkey;
ALTER TABLE uid_counter.grants ADD COLUMN role_oid oid;
UPDATE uid_counter.grants SET role_oid = role::pg_catalog.oid;
ALTER TABLE uid_counter.grants
    ALTER COLUMN role TYPE name USING pg_catalog.pg_get_userbyid(role::pg_catalog.oid),
    ALTER COLUMN role_oid SET NOT NULL,
    ADD PRIMARY KEY (tenant, prefix, role, role_oid);

COMMENT ON TABLE uid_counter.grants IS
'Which roles may draw the numbers of which tenant and prefix (''*'': every tenant, every prefix); a grant holds for the role of that name and OID only; kept by pg_dump by role name.';

-- Deleted grants of other servers' roles too, and the deletion reached
-- those servers: a grant now holds only for its role's name and OID.
DROP FUNCTION uid_counter._forget_dropped_roles();
