-- uid 1.1 -> 1.2: security hardening, planner support for time filters,
-- text forms and keyed masking.
-- Each section below belongs to one concern; keep them apart.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.2'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Privileges: counters, stats, leases
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- Leases
-- ---------------------------------------------------------------------------
-- The lease worker refuses a lease schema or table that neither its role in
-- the store nor a superuser owns.  uid_lease_table_sql() prints the statements
-- that create them, owned by a given role, for creating them beforehand in a
-- coordination database (the same text the lease worker runs).

CREATE FUNCTION uid_lease_table_sql(owner name, schema name DEFAULT 'uid_lease')
RETURNS text
AS 'MODULE_PATHNAME', 'uid_lease_table_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_table_sql(name, name) IS
'The statements that create the lease table and its schema, owned by owner: the definition the lease worker uses, for creating it beforehand in a lease store.';


-- ---------------------------------------------------------------------------
-- Planner support: time filters on IDs use the index
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- IDs that leave the database: text forms and keyed masking
-- ---------------------------------------------------------------------------



-- ---------------------------------------------------------------------------
-- PostgreSQL 18 names
-- ---------------------------------------------------------------------------

