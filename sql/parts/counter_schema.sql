-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: gap-free numbers per (tenant, prefix), printed as
-- PREFIX-000123.
--
-- uid_counter.counters holds one row per (prefix, tenant) with the last
-- number issued; uid_counter_next() advances it with one INSERT ... ON
-- CONFLICT DO UPDATE ... RETURNING, so callers of one key queue on that row
-- (and a rolled-back call gives its number back), while callers of other
-- keys never wait.  Settings (start, width) are read on every call, tenant
-- row first, then the prefix's global row (tenant ''), then the defaults
-- (start 1, width 3), field by field, so a change applies to the next call.
--
-- Ranges: a tenant may own a range [lo, hi] of a prefix.  While a prefix has
-- any range, only tenants with a range may draw from it, every number lies in
-- its tenant's range, and no range may overlap another tenant's range or the
-- numbers another tenant already issued: so no two tenants ever print the
-- same ID of that prefix.  The database enforces "no overlap" without
-- btree_gist: each range is stored as a numrange in one shared number line,
--   code(prefix) * 2^63 + [lo, hi]
-- where code() is an exact (collision-free) base-38 encoding of the prefix,
-- under an EXCLUDE USING gist (span WITH &&) constraint.
--
-- Locking: uid_counter_next() takes ROW SHARE on uid_counter.ranges before it
-- reads the ranges; changing ranges takes EXCLUSIVE on it, so a range change
-- waits for counter calls in flight and the calls after it see the change.
-- Under REPEATABLE READ or SERIALIZABLE a counter call whose snapshot is
-- older than a range change fails with 40001 (it locks the row
-- uid_counter.range_epoch, which every range change updates) rather than
-- use stale ranges.
--
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
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_counter;

COMMENT ON SCHEMA uid_counter IS
'State of the tenant-scoped counters (uid_counter_next and friends).';
