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
-- ---------------------------------------------------------------------------
-- uid_raise() (src/core/raise.c): the errors of uid's own PL/pgSQL functions
-- (tickets, counters) without PL/pgSQL's CONTEXT lines, which name uid's
-- inside and nothing the caller wrote, declared once in the extension's
-- schema and once in each of the schemas uid_counter and uid_ticket
-- (sql/parts/counter_schema.sql, ticket_tables.sql, which come first).
-- Also run by the upgrade from 1.3.
-- ---------------------------------------------------------------------------

-- Every call passes four arguments of type text (NULL::text for none): an
-- exact match, so that no function another role creates under this name in
-- the extension's schema (one of fewer arguments, or of other types) is
-- picked instead.  uid's own functions raise through the same C function
-- declared in their own schemas, uid_counter._raise() and
-- uid_ticket._raise() (below), and call nothing in the extension's schema by
-- name: one function of this name created there before uid had it, with a
-- fifth argument that has a default, makes every call by name ambiguous.
CREATE OR REPLACE FUNCTION uid_raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_raise(text, text, text, text) IS
'Raises an ERROR with this SQLSTATE, message, detail and hint (NULL: none) and no CONTEXT lines; an EXCEPTION block catches it as a RAISE. What uid''s own PL/pgSQL functions raise their errors with.';

-- uid_raise() (src/core/raise.c) for the counter functions: the same C
-- function, declared in uid_counter, where only the extension's owner may
-- create functions.  The counter functions that run as the extension's
-- owner (SECURITY DEFINER) and the checks they call raise their errors
-- through it and call nothing in the extension's schema by name: the
-- owner of that schema (for public, the database owner) may create
-- functions there, and one of uid_raise()'s name created before uid had
-- one (uid_guard_names refuses it after) is a candidate of every call by
-- that name: had it won, it would run with the owner's rights.  A second
-- entry of the C function is the simplest way there: PL/pgSQL calls a function only by
-- name (one found by OID, as _next_entry() finds uid_counter_next(), would
-- still be called through SQL that names it), and a PL/pgSQL RAISE would
-- add CONTEXT lines that uid_raise() leaves out.
CREATE OR REPLACE FUNCTION uid_counter._raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._raise(text, text, text, text) IS
'uid_raise() in uid_counter: what the counter functions raise their errors with, so that the ones that run as the extension''s owner call nothing in the extension''s schema by name.';

REVOKE ALL ON FUNCTION uid_counter._raise(text, text, text, text) FROM PUBLIC;

-- uid_raise() (src/core/raise.c) for the ticket functions: the same C
-- function, declared in uid_ticket, so that they call nothing in the
-- extension's schema by name.  Whoever may create there (the owner of
-- public, or every role on clusters upgraded from 14 or older) could, before
-- uid had the name uid_raise (CREATE EXTENSION, or the update to 1.4, which
-- adds it), create a uid_raise(text, text, text, text, integer DEFAULT 0),
-- with which every call of uid_raise() by name is ambiguous (42725) and
-- every ticket refusal would have lost its SQLSTATE and message.  Only the
-- extension's owner and the ticket administrators it grants CREATE on
-- uid_ticket create functions in uid_ticket.  The ticket functions run as
-- their caller: EXECUTE stays PUBLIC's, as uid_raise()'s.
CREATE OR REPLACE FUNCTION uid_ticket._raise(sqlstate text, message text, detail text, hint text)
RETURNS void
AS 'MODULE_PATHNAME', 'uid_raise'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_ticket._raise(text, text, text, text) IS
'uid_raise() in uid_ticket: what the ticket functions raise their errors with, so that they call nothing in the extension''s schema by name.';
-- The uid type's comment (the type: id_type.sql), a part of its own so
-- that the upgrade from 1.3, which changed it, writes it from here too.

COMMENT ON TYPE uid IS
'A 64-bit id stored, indexed and compared exactly like bigint (its comparison operators are its own, in pg_catalog; its operator classes are bigint''s), which the JSON functions emit as a string of its digits. It holds and reads back bigint''s whole range; uid never issues a negative value (add CHECK (id >= 0) to refuse them).';
-- uid_restore_operator_families(), which the install script calls
-- (sql/parts/id_type.sql says what it adds and why).  Also run by the
-- upgrade from 1.3, which replaced its body.

CREATE OR REPLACE FUNCTION uid_restore_operator_families()
RETURNS text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    added text;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid = a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid = f.opfmethod
                   WHERE f.opfname = 'integer_ops' AND m.amname = 'btree'
                   AND f.opfnamespace = 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype = '@extschema@.uid'::pg_catalog.regtype) THEN
        ALTER OPERATOR FAMILY pg_catalog.integer_ops USING btree ADD
        OPERATOR 1 pg_catalog.< (@extschema@.uid, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, @extschema@.uid),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, bigint),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, bigint),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, bigint),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, bigint),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, bigint),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, integer),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, integer),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, integer),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, integer),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, integer),
        OPERATOR 1 pg_catalog.< (integer, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (integer, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (integer, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (integer, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (integer, @extschema@.uid),
        OPERATOR 1 pg_catalog.< (@extschema@.uid, smallint),
        OPERATOR 2 pg_catalog.<= (@extschema@.uid, smallint),
        OPERATOR 3 pg_catalog.= (@extschema@.uid, smallint),
        OPERATOR 4 pg_catalog.>= (@extschema@.uid, smallint),
        OPERATOR 5 pg_catalog.> (@extschema@.uid, smallint),
        OPERATOR 1 pg_catalog.< (smallint, @extschema@.uid),
        OPERATOR 2 pg_catalog.<= (smallint, @extschema@.uid),
        OPERATOR 3 pg_catalog.= (smallint, @extschema@.uid),
        OPERATOR 4 pg_catalog.>= (smallint, @extschema@.uid),
        OPERATOR 5 pg_catalog.> (smallint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, @extschema@.uid) @extschema@.uid_cmp(@extschema@.uid, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, bigint) @extschema@.uid_cmp(@extschema@.uid, bigint),
        FUNCTION 1 (bigint, @extschema@.uid) @extschema@.uid_cmp(bigint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, integer) @extschema@.uid_cmp(@extschema@.uid, integer),
        FUNCTION 1 (integer, @extschema@.uid) @extschema@.uid_cmp(integer, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid, smallint) @extschema@.uid_cmp(@extschema@.uid, smallint),
        FUNCTION 1 (smallint, @extschema@.uid) @extschema@.uid_cmp(smallint, @extschema@.uid),
        FUNCTION 2 (@extschema@.uid, @extschema@.uid) @extschema@.uid_sortsupport(internal);
        added := 'btree';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_amop a JOIN pg_catalog.pg_opfamily f ON f.oid = a.amopfamily
                   JOIN pg_catalog.pg_am m ON m.oid = f.opfmethod
                   WHERE f.opfname = 'integer_ops' AND m.amname = 'hash'
                   AND f.opfnamespace = 'pg_catalog'::pg_catalog.regnamespace
                   AND a.amoplefttype = '@extschema@.uid'::pg_catalog.regtype) THEN
        ALTER OPERATOR FAMILY pg_catalog.integer_ops USING hash ADD
        OPERATOR 1 pg_catalog.= (@extschema@.uid, @extschema@.uid),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, bigint),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, integer),
        OPERATOR 1 pg_catalog.= (integer, @extschema@.uid),
        OPERATOR 1 pg_catalog.= (@extschema@.uid, smallint),
        OPERATOR 1 pg_catalog.= (smallint, @extschema@.uid),
        FUNCTION 1 (@extschema@.uid) @extschema@.uid_hash(@extschema@.uid),
        FUNCTION 2 (@extschema@.uid) @extschema@.uid_hash_extended(@extschema@.uid, bigint);
        added := pg_catalog.concat_ws(' ', added, 'hash');
    END IF;
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_restore_operator_families() IS
'Adds the uid type''s operators and support functions to the btree and hash families integer_ops where they are missing (after pg_upgrade, which does not carry them); returns the families it completed, NULL if none. Superuser.';

REVOKE ALL ON FUNCTION uid_restore_operator_families() FROM PUBLIC;
-- ---------------------------------------------------------------------------
-- Worker ids from a lease table (src/lease/lease.c; the table and its statements:
-- src/lease/lease_store.c, run by the lease worker, src/lease/lease_worker.c)
-- ---------------------------------------------------------------------------
-- The lease table itself lives in the lease store (uid.lease_database of this
-- server, or the coordination database of uid.lease_conninfo) and is created
-- there by the lease worker, so the store needs no CREATE EXTENSION.  Every
-- statement can run again over an older version's objects: the upgrade from
-- 1.3 runs this file too, for uid_lease_ledger().

CREATE OR REPLACE FUNCTION uid_lease_status(
    OUT mode text,
    OUT state text,
    OUT worker_id integer,
    OUT token bigint,
    OUT store text,
    OUT acquired_at timestamptz,
    OUT renewed_at timestamptz,
    OUT expires_at timestamptz,
    OUT generate_until timestamptz,
    OUT renewals bigint,
    OUT renewal_failures bigint,
    OUT consecutive_failures integer,
    OUT losses bigint,
    OUT free_ids integer,
    OUT last_error text,
    OUT worker_pid integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_status'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_status() IS
'This server''s worker id lease: state, worker id, fencing token, expiry (store clock), issuing deadline (this server''s clock), renewals and failures, free ids in the pool.';

CREATE OR REPLACE FUNCTION uid_lease_release()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_release'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_release() IS
'Gives this server''s worker id back to the lease store at once; uid_next() fails until uid_lease_acquire() or a restart. True when released within 10 s.';

CREATE OR REPLACE FUNCTION uid_lease_acquire()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_lease_acquire'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_lease_acquire() IS
'Undoes uid_lease_release(): the lease worker takes a free worker id again. True when one is held within 10 s.';

REVOKE ALL ON FUNCTION uid_lease_release() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_lease_acquire() FROM PUBLIC;

-- The lease worker refuses a lease schema or table that neither its role in
-- the store nor a superuser owns.  uid_lease_table_sql() prints the statements
-- that create them, owned by a given role, for creating them beforehand in a
-- coordination database (the same text the lease worker runs).

CREATE OR REPLACE FUNCTION uid_lease_table_sql(owner name, schema name DEFAULT 'uid_lease')
RETURNS text
AS 'MODULE_PATHNAME', 'uid_lease_table_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_table_sql(name, name) IS
'The statements that create the lease table and its schema, owned by owner: the definition the lease worker uses, for creating it beforehand in a lease store.';

-- the uid_stats view (sql/parts/stats_view.sql) calls uid_lease_status():
-- pg_monitor keeps it, whatever PUBLIC has
GRANT EXECUTE ON FUNCTION uid_lease_status() TO pg_monitor;

-- The tenure ledger's state for monitoring, the last two columns of the
-- uid_stats view.
CREATE OR REPLACE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;
-- ---------------------------------------------------------------------------
-- Observability: the SQL functions of uid_stats (src/core/stats_sql.c; the
-- counters: src/core/stats.c)
-- ---------------------------------------------------------------------------
-- uid_stats() keeps the twelve columns it had in 1.0, for queries and views
-- built on it; uid_stats_1_1() has them all (the uid_stats view of 1.1 and
-- 1.2 and 1.3 read it; 1.4's reads uid_stats_1_4(), below),
-- and the lease state.  Every statement can run again over an older
-- version's objects: the upgrade from 1.3 runs this file too, for
-- uid_stats_1_4().

CREATE OR REPLACE FUNCTION uid_stats(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats() IS
'Counters of the uid generators since the server started; one row.';

CREATE OR REPLACE FUNCTION uid_stats_1_1(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint,
    OUT stats_reset timestamptz,
    OUT layout_ends_at timestamptz,
    OUT layout_days_left integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats_1_1'
LANGUAGE C VOLATILE PARALLEL SAFE;


CREATE OR REPLACE FUNCTION uid_stats_reset()
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_stats_reset'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_reset() IS
'Starts every counter of uid_stats from zero; returns the time of the reset. Superuser only by default.';

REVOKE ALL ON FUNCTION uid_stats_reset() FROM PUBLIC;

-- The view and the functions behind it are for pg_monitor, not PUBLIC.
REVOKE ALL ON FUNCTION uid_stats() FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_stats_1_1() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_stats() TO pg_monitor;
GRANT EXECUTE ON FUNCTION uid_stats_1_1() TO pg_monitor;

COMMENT ON FUNCTION uid_stats_1_1() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; the uid_stats view of 1.1 to 1.3 read it, for pg_monitor.';

-- The columns of uid_stats_1_1() and where uid_next()'s floor came from,
-- for every role: it refuses roles outside
-- pg_monitor itself, with a hint that names the grant (src/core/stats_sql.c);
-- PostgreSQL's own "permission denied for view uid_stats" has none.
CREATE OR REPLACE FUNCTION uid_stats_1_4(
    OUT worker_id integer,
    OUT ids_issued bigint,
    OUT uuids_issued bigint,
    OUT batch_calls bigint,
    OUT clock_waits bigint,
    OUT clock_refusals bigint,
    OUT max_clock_step_ms bigint,
    OUT overflow_waits bigint,
    OUT reserve_writes bigint,
    OUT last_issued_at timestamptz,
    OUT reserved_until timestamptz,
    OUT clock_steps bigint,
    OUT stats_reset timestamptz,
    OUT layout_ends_at timestamptz,
    OUT layout_days_left integer,
    OUT floor_source text,
    OUT floor_at timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_stats_1_4'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_stats_1_4() IS
'Counters of the uid generators since the server started or uid_stats_reset(), and the end of the 41-bit time field; behind the uid_stats view. Refuses roles without the privileges of pg_monitor (42501).';

GRANT EXECUTE ON FUNCTION uid_stats_1_4() TO PUBLIC;
-- ---------------------------------------------------------------------------
-- The uid_stats view (src/core/stats_sql.c, src/lease/lease.c): one row of the
-- generator's counters, the lease and the tenure ledger's counts.  Also
-- run by the upgrade from 1.3, which puts uid_stats_1_4() behind the view.
-- ---------------------------------------------------------------------------

CREATE OR REPLACE VIEW uid_stats AS
SELECT s.worker_id, s.ids_issued, s.uuids_issued, s.batch_calls,
       s.clock_waits, s.clock_refusals, s.max_clock_step_ms, s.overflow_waits,
       s.reserve_writes, s.last_issued_at, s.reserved_until, s.clock_steps,
       s.stats_reset, s.layout_ends_at, s.layout_days_left,
       l.mode AS lease_mode, l.state AS lease_state, l.token AS lease_token,
       l.expires_at AS lease_expires_at, l.renewed_at AS lease_renewed_at,
       l.renewal_failures AS lease_renewal_failures, l.free_ids AS lease_free_ids,
       t.tenures AS lease_tenures, t.tenure_overlaps AS lease_tenure_overlaps,
       s.floor_source, s.floor_at
FROM @extschema@.uid_stats_1_4() s
CROSS JOIN @extschema@.uid_lease_status() l
CROSS JOIN @extschema@.uid_lease_ledger() t;

COMMENT ON VIEW uid_stats IS
'One row per server: worker id and lease, IDs and UUIDs issued, clock waits and refusals, overflow waits, durable reservation, days left in the layout, the tenure ledger''s tenures and overlaps, where uid_next()''s floor came from.';

-- Monitoring data, for members of pg_monitor: the view is PUBLIC, and
-- uid_stats_1_4() refuses other roles.
GRANT SELECT ON uid_stats TO PUBLIC;
GRANT SELECT ON uid_stats TO pg_monitor;
-- ---------------------------------------------------------------------------
-- Ticket sequences: the functions and the view (src/tables/tickets.c).  Every
-- statement can run again over an older version's objects: the upgrade
-- from 1.3 runs this file too.
-- ---------------------------------------------------------------------------

-- nextval() that flushes the WAL record covering the value (src/tables/tickets.c)
CREATE OR REPLACE FUNCTION uid_ticket._nextval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_ticket_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_ticket._nextval(regclass) IS
'nextval(seq), then flushes WAL up to the sequence page''s LSN, so that no value handed out is handed out again after a crash.';

-- The checks shared by the ticket functions.
CREATE OR REPLACE FUNCTION uid_ticket._check_name(name text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF name IS NULL THEN
        PERFORM uid_ticket._raise('22004'::text,
            'ticket name must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
    IF name !~ '^[a-z][a-z0-9_]{0,47}$' THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('invalid ticket name: %s', pg_catalog.quote_literal(name)),
            NULL::text,
            'A ticket name is 1 to 48 characters: a lower-case letter, then lower-case letters, digits or "_".'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_ticket._check_name(text) IS
'Raises 22004 for NULL and 22023 for a name that is not a valid ticket name.';

-- The error of a ticket name that has no sequence on this server: another
-- server's ticket when _tickets has its metadata (replicated here), else
-- none at all.
CREATE OR REPLACE FUNCTION uid_ticket._absent(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    other record;
BEGIN
    SELECT pg_catalog.string_agg(t.node::text, ', ' ORDER BY t.node) AS nodes,
           pg_catalog.min(t.nodes) AS of_nodes
      INTO other
      FROM uid_ticket._tickets t
     WHERE t.name = $1;
    IF other.nodes IS NOT NULL THEN
        PERFORM uid_ticket._raise('55000'::text,
            pg_catalog.format('ticket "%s" is ticket metadata from another node: it has no sequence on this server', $1),
            pg_catalog.format('uid_ticket._tickets lists node %s of %s (replicated from the servers that created them); sequences are not replicated.',
                                             other.nodes, other.of_nodes),
            'Draw from the server that created it, or give this server its own series: uid_ticket_create(name, node, nodes) with a node no other server of the set uses.'::text);
    END IF;
    PERFORM uid_ticket._raise('42704'::text,
        pg_catalog.format('ticket "%s" does not exist', $1),
        NULL::text,
        'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.'::text);
END
$$;

COMMENT ON FUNCTION uid_ticket._absent(text) IS
'Raises the error of a ticket without a sequence here: 55000 when _tickets holds another server''s metadata of that name, else 42704.';

CREATE OR REPLACE FUNCTION uid_ticket_create(name text, node integer, nodes integer DEFAULT 2,
                                  block integer DEFAULT 1)
RETURNS regclass
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t_name  ALIAS FOR $1;
    t_node  ALIAS FOR $2;
    t_nodes ALIAS FOR $3;
    t_block ALIAS FOR $4;
    maxv    bigint;
    seq     regclass;
    other   uid_ticket._tickets;
BEGIN
    PERFORM uid_ticket._check_name(t_name);
    IF t_nodes IS NULL OR t_nodes < 1
       OR t_nodes > 1024 THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('invalid number of ticket nodes: %s', coalesce(t_nodes::text, 'NULL')),
            NULL::text,
            'nodes is the number of servers sharing the series, 1 to 1024 (2 for an odd/even pair).'::text);
    END IF;
    IF t_node IS NULL OR t_node < 1
       OR t_node > t_nodes THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('invalid ticket node: %s (nodes = %s)', coalesce(t_node::text, 'NULL'), t_nodes),
            NULL::text,
            'node is this server''s place in the series, 1 to nodes; each server of the set needs a different one.'::text);
    END IF;
    IF t_block IS NULL OR t_block < 1
       OR t_block > 1000000 THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('invalid ticket block size: %s', coalesce(t_block::text, 'NULL')),
            NULL::text,
            'block is the number of tickets one uid_ticket_next_block() call reserves, 1 to 1000000.'::text);
    END IF;
    IF pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t_name)) IS NOT NULL THEN
        PERFORM uid_ticket._raise('42710'::text,
            pg_catalog.format('ticket "%s" already exists', t_name),
            NULL::text,
            'Drop it first with uid_ticket_drop(), or choose another name.'::text);
    END IF;

    -- Rows without a sequence here: other servers' tickets of this name
    -- (replicated), or what a restore without the sequences left.  This
    -- server joins their set only with the same nodes and a node of its own.
    SELECT * INTO other FROM uid_ticket._tickets t
     WHERE t.name = t_name
       AND (t.node = t_node OR t.nodes <> t_nodes)
     ORDER BY t.node = t_node DESC, t.node
     LIMIT 1;
    IF FOUND AND other.node = t_node THEN
        PERFORM uid_ticket._raise('42710'::text,
            pg_catalog.format('ticket "%s" node %s already exists on another server', t_name, t_node),
            'uid_ticket._tickets has its metadata but this server has no sequence: another server of the set created it and its row was replicated here.'::text,
            'Choose a node no other server of the set uses. To take over that node''s series from a server that no longer hands it out, drop the row with uid_ticket_drop(), create the ticket, and setval() it above that server''s last ticket.'::text);
    END IF;
    IF FOUND THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('ticket "%s" has nodes = %s on another server, not %s', t_name, other.nodes, t_nodes),
            pg_catalog.format('uid_ticket._tickets has the metadata of node %s of %s, replicated from the server that created it.', other.node, other.nodes),
            'Every server of a set needs the same nodes: pass nodes => the set''s number of servers.'::text);
    END IF;

    -- the last block must fit in bigint: its first ticket is the sequence's
    -- maximum value
    maxv := 9223372036854775807 -
            ((t_block::bigint - 1) * t_nodes);

    EXECUTE pg_catalog.format(
        'CREATE SEQUENCE uid_ticket.%I AS bigint INCREMENT BY %s MINVALUE %s MAXVALUE %s START WITH %s CACHE 1 NO CYCLE',
        t_name, t_nodes::bigint * t_block, t_node, maxv, t_node);
    EXECUTE pg_catalog.format(
        'COMMENT ON SEQUENCE uid_ticket.%I IS %L', t_name,
        pg_catalog.format('uid ticket: node %s of %s, blocks of %s; use uid_ticket_next(%L)',
                          t_node, t_nodes, t_block, t_name));
    INSERT INTO uid_ticket._tickets (name, node, nodes, block)
    VALUES (t_name, t_node, t_nodes, t_block);

    seq := pg_catalog.format('uid_ticket.%I', t_name)::regclass;
    RETURN seq;
END
$$;

COMMENT ON FUNCTION uid_ticket_create(text, integer, integer, integer) IS
'Creates the ticket sequence uid_ticket.<name> handing out node, node + nodes, node + 2*nodes, ... in blocks of block tickets; returns the sequence.';

CREATE OR REPLACE FUNCTION uid_ticket_next(name text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    seq regclass;
BEGIN
    -- the hot path: the name check inline (PERFORM would cost a query)
    IF $1 IS NULL OR $1 !~ '^[a-z][a-z0-9_]{0,47}$' THEN
        PERFORM uid_ticket._check_name($1);
    END IF;
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', $1));
    IF seq IS NULL THEN
        PERFORM uid_ticket._absent($1);
    END IF;
    RETURN uid_ticket._nextval(seq);
END
$$;

COMMENT ON FUNCTION uid_ticket_next(text) IS
'The next ticket of this server''s series; with block > 1 it takes a whole block and returns its first ticket (the rest is a gap).';

CREATE OR REPLACE FUNCTION uid_ticket_next_block(name text, size integer DEFAULT NULL,
    OUT first bigint, OUT last bigint, OUT step integer, OUT count integer)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t_name  ALIAS FOR $1;
    want    integer := $2;
    seq     regclass;
    t       uid_ticket._tickets;
BEGIN
    PERFORM uid_ticket._check_name(t_name);
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t_name));
    IF seq IS NULL THEN
        PERFORM uid_ticket._absent(t_name);
    END IF;
    -- this server's row: the node its sequence starts at
    SELECT x.* INTO t
      FROM uid_ticket._tickets x
      JOIN pg_catalog.pg_sequence s
        ON s.seqrelid = seq::pg_catalog.oid
       AND s.seqmin = x.node
     WHERE x.name = t_name;
    IF NOT FOUND THEN
        PERFORM uid_ticket._raise('42704'::text,
            pg_catalog.format('ticket "%s" does not exist', t_name),
            'Its sequence exists, but uid_ticket._tickets has no row of its node.'::text,
            'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.'::text);
    END IF;
    want := coalesce(want, t.block);
    IF want < 1 OR want > t.block THEN
        PERFORM uid_ticket._raise('22023'::text,
            pg_catalog.format('invalid ticket block size request: %s (ticket "%s" has blocks of %s)', want, t_name, t.block),
            NULL::text,
            'Ask for a size of 1 to block tickets, or create the ticket with a larger block.'::text);
    END IF;
    first := uid_ticket._nextval(seq);
    step := t.nodes;
    count := want;
    last := first +
            ((want::bigint - 1) * t.nodes);
    RETURN;
END
$$;

COMMENT ON FUNCTION uid_ticket_next_block(text, integer) IS
'Reserves size (default: the ticket''s block) tickets of this server''s series in one nextval(): first, first + step, ..., last.';

CREATE OR REPLACE FUNCTION uid_ticket_drop(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    seq regclass;
BEGIN
    PERFORM uid_ticket._check_name($1);
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', $1));
    IF seq IS NULL THEN
        -- only other servers' metadata of this name: remove it
        DELETE FROM uid_ticket._tickets t WHERE t.name = $1;
        IF NOT FOUND THEN
            PERFORM uid_ticket._raise('42704'::text,
                pg_catalog.format('ticket "%s" does not exist', $1),
                NULL::text,
                'The view uid_tickets lists the tickets.'::text);
        END IF;
        RETURN;
    END IF;
    -- this server's ticket: its sequence and its own row; the rows of the
    -- other servers of its set stay theirs
    DELETE FROM uid_ticket._tickets t
     USING pg_catalog.pg_sequence s
     WHERE t.name = $1
       AND s.seqrelid = seq::pg_catalog.oid
       AND s.seqmin = t.node;
    EXECUTE pg_catalog.format('DROP SEQUENCE uid_ticket.%I', $1);
END
$$;

COMMENT ON FUNCTION uid_ticket_drop(text) IS
'Drops this server''s ticket sequence and its metadata; where the server has no sequence of that name, removes the metadata of other servers'' tickets of that name.';

CREATE OR REPLACE VIEW uid_tickets AS
SELECT t.name,
       t.node,
       t.nodes,
       t.block,
       CASE WHEN s.sequencename IS NOT NULL
            THEN pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t.name)) END AS sequence,
       s.last_value OPERATOR(pg_catalog.+)
           ((t.block::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes)
           AS last_issued,
       t.created_at
FROM uid_ticket._tickets t
LEFT JOIN pg_catalog.pg_sequences s
       ON s.schemaname OPERATOR(pg_catalog.=) 'uid_ticket'
      AND s.sequencename OPERATOR(pg_catalog.=) t.name
      AND s.min_value OPERATOR(pg_catalog.=) t.node;

COMMENT ON VIEW uid_tickets IS
'One row per ticket: its place in the series (node of nodes), block size, sequence, and the last ticket handed out (NULL before the first); sequence NULL for another server''s ticket whose metadata was replicated here.';

GRANT SELECT ON uid_tickets TO PUBLIC;

-- Creating and dropping a ticket is the administrator's (the
-- functions run as the caller, who also needs CREATE on schema uid_ticket and
-- write access to uid_ticket._tickets); drawing stays PUBLIC and is decided
-- by USAGE on each ticket's sequence.
REVOKE ALL ON FUNCTION uid_ticket_create(text, integer, integer, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_ticket_drop(text) FROM PUBLIC;
-- The counters' number line (sql/parts/counter_schema.sql): the exact code
-- of a prefix and the span of a range on it, which uid_counter.ranges
-- stores and its exclusion constraint compares.  Also run by the upgrade
-- from 1.3, which replaced their bodies.

-- The exact code of a prefix: its characters as base-38 digits 1..37, padded
-- with 0 to 16 digits.  Distinct valid prefixes have distinct codes.
CREATE OR REPLACE FUNCTION uid_counter._prefix_code(prefix text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    code numeric := 0;
    d    integer;
BEGIN
    FOR i IN 1..16 LOOP
        d := 0;
        IF i <= pg_catalog.length($1) THEN
            d := pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
                                   pg_catalog.substr($1, i, 1));
            IF d = 0 THEN
                RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
                    USING ERRCODE = '22023';
            END IF;
        END IF;
        code := code * 38 + d;
    END LOOP;
    RETURN code;
END
$$;

COMMENT ON FUNCTION uid_counter._prefix_code(text) IS
'Exact base-38 code of a counter prefix; places each prefix''s ranges in its own window of one number line.';

CREATE OR REPLACE FUNCTION uid_counter._span(prefix text, lo bigint, hi bigint)
RETURNS numrange
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT pg_catalog.numrange(
    uid_counter._prefix_code($1) * 9223372036854775808::numeric
        + $2,
    uid_counter._prefix_code($1) * 9223372036854775808::numeric
        + $3,
    '[]')
$$;

COMMENT ON FUNCTION uid_counter._span(text, bigint, bigint) IS
'The range [lo, hi] of a prefix on the shared number line used by the exclusion constraint.';
-- ---------------------------------------------------------------------------
-- Tenant-scoped counters: the functions and views (src/tables/counters.c).  Every
-- statement can run again over an older version's objects: the upgrade from
-- 1.3 runs this file too.
-- ---------------------------------------------------------------------------

-- Argument checks shared by the counter functions.
CREATE OR REPLACE FUNCTION uid_counter._check_prefix(prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS NULL THEN
        PERFORM uid_counter._raise('22004'::text,
            'counter prefix must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
    IF $1 !~ '^[A-Z][A-Z0-9_]{0,15}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter prefix: %s', pg_catalog.quote_literal($1)),
            NULL::text,
            'A prefix is 1 to 16 characters: an upper-case letter, then upper-case letters, digits or "_".'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_prefix(text) IS
'Raises 22004 for NULL and 22023 for an invalid counter prefix.';

CREATE OR REPLACE FUNCTION uid_counter._check_tenant(tenant text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS NULL THEN
        PERFORM uid_counter._raise('22004'::text,
            'counter tenant must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
    IF $1 !~ '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter tenant: %s', pg_catalog.quote_literal($1)),
            NULL::text,
            'A tenant is 1 to 63 characters: a letter or digit, then letters, digits or "_", ".", ":", "@", "-".'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_tenant(text) IS
'Raises 22004 for NULL and 22023 for an invalid tenant.';

-- A grant names its role by name and OID, and holds only while both match
-- a role of this server: a role dropped and created again under the same
-- name has a new OID and no grant.  The role is stored as a name, not as
-- regrole, so that replicating a grant to a server without that role does
-- not stop the replication (regrole input fails there).  A row written
-- here, by uid_counter_grant() or by pg_restore, is bound to the local role
-- of its name (OID 0, never a role's, when there is none); rows that
-- logical replication applies are not (the trigger fires on local writes
-- only), so another server's grant is inert here unless the role has the
-- same name and OID.
CREATE OR REPLACE FUNCTION uid_counter._bind_grant_role()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    NEW.role_oid := coalesce((SELECT r.oid FROM pg_catalog.pg_roles r
                               WHERE r.rolname = NEW.role), 0);
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION uid_counter._bind_grant_role() IS
'Trigger of uid_counter.grants: binds a row written on this server to the OID of the local role of its name (0 when there is none).';

REVOKE ALL ON FUNCTION uid_counter._bind_grant_role() FROM PUBLIC;

CREATE OR REPLACE TRIGGER bind_role BEFORE INSERT OR UPDATE OF role ON uid_counter.grants
    FOR EACH ROW EXECUTE FUNCTION uid_counter._bind_grant_role();

CREATE OR REPLACE FUNCTION uid_counter_format(prefix text, number bigint, width integer)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT $1 || '-' ||
       CASE WHEN pg_catalog.length($2::text) >= $3 THEN $2::text
            ELSE pg_catalog.lpad($2::text, $3, '0') END
$$;

COMMENT ON FUNCTION uid_counter_format(text, bigint, integer) IS
'PREFIX-number, the number zero-padded to width digits; a wider number is printed whole, never cut.';

-- Whether uid_counter.counters receives another writer's changes: a
-- subscription of this database lists it (src/tables/counters.c; cached per
-- session until pg_subscription_rel changes).
CREATE OR REPLACE FUNCTION uid_counter._replicated()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_counter_replicated'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._replicated() IS
'True when a subscription of this database lists uid_counter.counters (pg_subscription_rel): counters then draw only from ranges of this server (uid.counter_node).';

-- uid_counter._next()'s steps, each run as the extension's owner from it
-- (not SECURITY DEFINER themselves; not executable by PUBLIC).

-- The grant, before anything is read, locked or written: the caller is a
-- superuser, or has the privileges of a role granted (tenant, prefix)
-- (pg_has_role ... USAGE, as for table privileges).  A grant counts only
-- for the role of its name and OID (not a dropped role's successor, nor
-- another server's role); others are skipped, never an error.
CREATE OR REPLACE FUNCTION uid_counter._may_draw(tenant text, prefix text, caller oid)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
BEGIN
    IF c_caller IS NULL
       OR (NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                        WHERE r.oid = c_caller AND r.rolsuper)
           AND NOT EXISTS (SELECT 1
                             FROM uid_counter.grants g
                             JOIN pg_catalog.pg_roles r
                               ON r.oid = g.role_oid
                              AND r.rolname = g.role
                            WHERE g.tenant = ANY (ARRAY[c_tenant, '*'])
                              AND g.prefix = ANY (ARRAY[c_prefix, '*'])
                              AND pg_catalog.pg_has_role(c_caller, r.oid, 'USAGE'))) THEN
        PERFORM uid_counter._raise('42501'::text,
            pg_catalog.format('permission denied for counter %s of tenant %s', c_prefix, pg_catalog.quote_literal(c_tenant)),
            pg_catalog.format('Role %s holds no grant of tenant %s and prefix %s.',
                                             coalesce(pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(c_caller)), 'NULL'),
                                             pg_catalog.quote_literal(c_tenant), c_prefix),
            'An administrator grants it with uid_counter_grant(tenant, role[, prefix]).'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._may_draw(text, text, oid) IS
'Refuses (42501) a caller that is no superuser and holds no grant of (tenant, prefix): the first step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._may_draw(text, text, oid) FROM PUBLIC;

-- Ranges may not change under a draw (see the header of
-- sql/parts/counter_schema.sql): ROW SHARE on uid_counter.ranges, and under
-- REPEATABLE READ or SERIALIZABLE the row of uid_counter.range_epoch.
CREATE OR REPLACE FUNCTION uid_counter._share_ranges()
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    LOCK TABLE uid_counter.ranges IN ROW SHARE MODE;
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM 1 FROM uid_counter.range_epoch FOR SHARE;
        IF NOT FOUND THEN
            -- no range change before our snapshot; if the first one
            -- committed since, this insert meets its row and fails with
            -- 40001 (ON CONFLICT under a transaction snapshot)
            INSERT INTO uid_counter.range_epoch (id, changed_at)
            VALUES (1, pg_catalog.now())
            ON CONFLICT ON CONSTRAINT range_epoch_pkey DO NOTHING;
        END IF;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._share_ranges() IS
'Holds the counters'' ranges still for the rest of the transaction, or fails with 40001 when a range changed after its snapshot: the second step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._share_ranges() FROM PUBLIC;

-- Where the counter (tenant, prefix) starts, how wide it prints and the
-- range it draws from; refuses a counter this server may not draw from and
-- a start beyond the end of the range.
CREATE OR REPLACE FUNCTION uid_counter._bounds(tenant text, prefix text,
    OUT v_start bigint, OUT v_width integer, OUT r_lo bigint, OUT r_hi bigint)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    r_node   text;
    here     text;
    refused  boolean;
BEGIN
    SELECT coalesce(t.start, g.start, 1), coalesce(t.width, g.width, 3)
      INTO v_start, v_width
      FROM (SELECT 1) AS one
      LEFT JOIN uid_counter.settings t
             ON t.prefix = c_prefix
            AND t.tenant = c_tenant
      LEFT JOIN uid_counter.settings g
             ON g.prefix = c_prefix
            AND g.tenant = '';

    SELECT r.lo, r.hi, r.node INTO r_lo, r_hi, r_node
      FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix
       AND r.tenant = c_tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM uid_counter.ranges r
                   WHERE r.prefix = c_prefix) THEN
            PERFORM uid_counter._raise('55000'::text,
                pg_catalog.format('tenant %s has no range of counter prefix %s', pg_catalog.quote_literal(c_tenant), c_prefix),
                'Other tenants own ranges of this prefix, so every tenant drawing from it needs one.'::text,
                'Give the tenant a range with uid_counter_set_range().'::text);
        END IF;
        r_lo := 0;
        r_hi := 9223372036854775806;
    END IF;

    -- Another writer: only a range of this server may be drawn from (see
    -- the header of sql/parts/counter_schema.sql).  _replicated() is cached
    -- per session.
    refused := CASE WHEN r_node IS NULL THEN uid_counter._replicated()
                    ELSE r_node IS DISTINCT FROM
                         NULLIF(pg_catalog.current_setting('uid.counter_node', true), '') END;
    IF refused THEN
        here := NULLIF(pg_catalog.current_setting('uid.counter_node', true), '');
        PERFORM uid_counter._raise('UID06'::text,
            pg_catalog.format('counter %s/%s is not this server''s to draw from', c_prefix, c_tenant),
            CASE WHEN r_node IS NOT NULL
                                THEN pg_catalog.format('Its range belongs to node %s; uid.counter_node is %s.',
                                                       pg_catalog.quote_literal(r_node),
                                                       coalesce(pg_catalog.quote_literal(here), 'not set'))
                                ELSE 'uid_counter.counters receives replicated changes from another server (a subscription of this database lists it), so numbers drawn here could be drawn there too.' END,
            'Draw on the server that owns the counter. To draw on several servers, give each its own tenant and range: set uid.counter_node on each server and uid_counter_set_range(tenant, prefix, lo, hi, node => ...); or leave schema uid_counter out of the publication.'::text);
    END IF;

    v_start := greatest(v_start, r_lo);
    IF v_start > r_hi THEN
        PERFORM uid_counter._raise('2200H'::text,
            pg_catalog.format('counter %s/%s cannot start at %s beyond the end of its range %s', c_prefix, c_tenant, v_start, r_hi),
            NULL::text,
            'Lower the start with uid_counter_configure() or widen the range with uid_counter_set_range().'::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._bounds(text, text) IS
'The start, width and range of the counter (tenant, prefix) after its checks: the third step of uid_counter._next().';

REVOKE ALL ON FUNCTION uid_counter._bounds(text, text) FROM PUBLIC;

-- The work of uid_counter_next(), after a grant check.  Its steps call
-- nothing in the extension's schema either.
CREATE OR REPLACE FUNCTION uid_counter._next(tenant text, prefix text, caller oid)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
    b        record;
    v_width  integer;
    r_hi     bigint;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    PERFORM uid_counter._may_draw(c_tenant, c_prefix, c_caller);
    PERFORM uid_counter._share_ranges();
    b := uid_counter._bounds(c_tenant, c_prefix);
    v_width := b.v_width;
    r_hi := b.r_hi;

    INSERT INTO uid_counter.counters AS c (prefix, tenant, first_value, last_value)
    VALUES (c_prefix, c_tenant, b.v_start, b.v_start)
    ON CONFLICT ON CONSTRAINT counters_pkey DO UPDATE
        SET last_value = greatest(c.last_value + 1, excluded.last_value)
    RETURNING c.last_value INTO v;

    IF v > r_hi THEN
        -- the error undoes the update: nothing is used up
        PERFORM uid_counter._raise('2200H'::text,
            pg_catalog.format('counter %s/%s reached the end of its range (%s)', c_prefix, c_tenant, r_hi),
            NULL::text,
            'Widen the tenant''s range with uid_counter_set_range().'::text);
    END IF;

    -- uid_counter_format(), written out: a SECURITY DEFINER function calls
    -- nothing in the extension's schema by name, where the owner of that
    -- schema (for public, the database owner) may create functions (see
    -- uid_counter._raise(), sql/parts/raise.sql)
    RETURN c_prefix || '-' ||
           CASE WHEN pg_catalog.length(v::text) >= v_width THEN v::text
                ELSE pg_catalog.lpad(v::text, v_width, '0') END;
END
$$;

COMMENT ON FUNCTION uid_counter._next(text, text, oid) IS
'uid_counter_next() for the role caller: checks its grant, then draws the number as the extension owner. Reached only through uid_counter_next().';

REVOKE ALL ON FUNCTION uid_counter._next(text, text, oid) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_next(tenant text, prefix text)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_counter_next'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_counter_next(text, text) IS
'The next number of the (tenant, prefix) counter, formatted as PREFIX-000123; transactional and gap-free (a rollback gives the number back). Only for roles granted the tenant with uid_counter_grant().';

REVOKE ALL ON FUNCTION uid_counter_next(text, text) FROM PUBLIC;

-- uid_counter_next(text, text), found through the extension's membership,
-- never by a schema name that the schema's owner could move.
CREATE OR REPLACE FUNCTION uid_counter._next_entry()
RETURNS regprocedure
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT p.oid::pg_catalog.regprocedure
  FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_depend d
    ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
   AND d.objid = p.oid
   AND d.deptype = 'e'
  JOIN pg_catalog.pg_extension e
    ON e.oid = d.refobjid
   AND e.extname = 'uid'
 WHERE p.proname = 'uid_counter_next'
   AND p.proargtypes = '25 25'::pg_catalog.oidvector  -- (text, text)
$$;

COMMENT ON FUNCTION uid_counter._next_entry() IS
'uid_counter_next(text, text) of extension uid, by membership: what uid_counter_grant() and uid_counter_revoke() grant EXECUTE on.';

REVOKE ALL ON FUNCTION uid_counter._next_entry() FROM PUBLIC;

-- The checks of a grant's arguments: tenant and prefix may be '*'.
CREATE OR REPLACE FUNCTION uid_counter._check_grant(tenant text, role regrole, prefix text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF $1 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_tenant($1);
    END IF;
    IF $3 IS DISTINCT FROM '*' THEN
        PERFORM uid_counter._check_prefix($3);
    END IF;
    IF $2 IS NULL THEN
        PERFORM uid_counter._raise('22004'::text,
            'counter grant role must not be NULL'::text,
            NULL::text,
            NULL::text);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter._check_grant(text, regrole, text) IS
'Raises 22004 for a NULL argument and 22023 for a tenant or prefix that is neither valid nor ''*''.';

CREATE OR REPLACE FUNCTION uid_counter_grant(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    added    boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    -- the trigger binds the row to c_role's OID
    INSERT INTO uid_counter.grants (tenant, prefix, role, role_oid)
    VALUES (c_tenant, c_prefix, pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid), c_role::pg_catalog.oid)
    ON CONFLICT ON CONSTRAINT grants_pkey DO NOTHING;
    added := FOUND;
    EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s',
                              uid_counter._next_entry(), c_role);
    RETURN added;
END
$$;

COMMENT ON FUNCTION uid_counter_grant(text, regrole, text) IS
'Lets role (and the roles that have its privileges) draw the numbers of tenant with uid_counter_next(), for one prefix or (''*'', the default) every prefix; tenant ''*'' is every tenant. True if the grant is new.';

CREATE OR REPLACE FUNCTION uid_counter_revoke(tenant text, role regrole, prefix text DEFAULT '*')
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_role   ALIAS FOR $2;
    c_prefix ALIAS FOR $3;
    removed  boolean;
BEGIN
    PERFORM uid_counter._check_grant(c_tenant, c_role, c_prefix);
    DELETE FROM uid_counter.grants g
     WHERE g.tenant = c_tenant
       AND g.prefix = c_prefix
       AND g.role_oid = c_role::pg_catalog.oid
       AND g.role = pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid);
    removed := FOUND;
    IF NOT EXISTS (SELECT 1 FROM uid_counter.grants g
                   WHERE g.role_oid = c_role::pg_catalog.oid
                     AND g.role = pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid)) THEN
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM %s',
                                  uid_counter._next_entry(), c_role);
    END IF;
    RETURN removed;
END
$$;

COMMENT ON FUNCTION uid_counter_revoke(text, regrole, text) IS
'Removes exactly the grant (tenant, role, prefix) made by uid_counter_grant(); when the role has no grant left, also EXECUTE on uid_counter_next(). True if a grant was removed.';

REVOKE ALL ON FUNCTION uid_counter_grant(text, regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION uid_counter_revoke(text, regrole, text) FROM PUBLIC;

CREATE OR REPLACE VIEW uid_counter_grants AS
SELECT g.tenant, g.prefix, g.role, g.granted_at,
       EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.oid OPERATOR(pg_catalog.=) g.role_oid
                  AND r.rolname OPERATOR(pg_catalog.=) g.role) AS applies
FROM uid_counter.grants g;

COMMENT ON VIEW uid_counter_grants IS
'Counter grants: which role may draw the numbers of which tenant and prefix (''*'': all); applies is false for a dropped role and for a grant replicated from a server whose role of that name is another.';

-- The end of every range change: the row of uid_counter.range_epoch that
-- REPEATABLE READ counter calls lock, written (the first change inserts it).
CREATE OR REPLACE FUNCTION uid_counter._range_changed()
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
INSERT INTO uid_counter.range_epoch AS e (id, changed_at)
VALUES (1, pg_catalog.now())
ON CONFLICT ON CONSTRAINT range_epoch_pkey DO UPDATE SET changed_at = excluded.changed_at
$$;

COMMENT ON FUNCTION uid_counter._range_changed() IS
'Ends a range change: writes the row of uid_counter.range_epoch (inserting it the first time), so that older REPEATABLE READ counter calls fail with 40001.';

REVOKE ALL ON FUNCTION uid_counter._range_changed() FROM PUBLIC;

-- The start of every range change.  It must see every number issued so far
-- (READ COMMITTED, and the lock below).  It waits for counter calls in
-- flight, and while it waits every new counter call queues behind it: so it
-- never waits longer than the session's lock_timeout, or 5 s when that is 0
-- (wait forever), then fails with 55P03 and changes nothing.
CREATE OR REPLACE FUNCTION uid_counter._lock_ranges(caller text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved text := pg_catalog.current_setting('lock_timeout');
    bound text := saved;
BEGIN
    IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
        PERFORM uid_counter._raise('25000'::text,
            'counter ranges can only be changed in a READ COMMITTED transaction'::text,
            NULL::text,
            'The checks must see every number issued so far; run the call at the default isolation level.'::text);
    END IF;
    IF saved = '0' THEN
        bound := '5s';
    END IF;
    BEGIN
        PERFORM pg_catalog.set_config('lock_timeout', bound, true);
        LOCK TABLE uid_counter.ranges IN EXCLUSIVE MODE;
    EXCEPTION WHEN lock_not_available THEN
        PERFORM uid_counter._raise('55P03'::text,
            pg_catalog.format('%s: counter ranges are in use by a transaction that drew a number', $1),
            pg_catalog.format('Waited %s (lock_timeout, or 5s when it is 0) for the transactions that called uid_counter_next() to end; nothing was changed.', bound),
            'Retry; pg_locks shows the sessions that hold uid_counter.ranges. SET lock_timeout to wait longer.'::text);
    END;
    PERFORM pg_catalog.set_config('lock_timeout', saved, true);
END
$$;

COMMENT ON FUNCTION uid_counter._lock_ranges(text) IS
'Starts a range change: 25000 outside READ COMMITTED; locks uid_counter.ranges, waiting at most lock_timeout (5 s when it is 0), else 55P03.';

REVOKE ALL ON FUNCTION uid_counter._lock_ranges(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_configure(prefix text, tenant text DEFAULT NULL,
                                      start bigint DEFAULT NULL, width integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_prefix ALIAS FOR $1;
    c_tenant ALIAS FOR $2;
    c_start  ALIAS FOR $3;
    c_width  ALIAS FOR $4;
BEGIN
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_tenant IS NOT NULL THEN
        PERFORM uid_counter._check_tenant(c_tenant);
    END IF;
    IF c_start < 0 OR c_start > 9223372036854775806 THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter start: %s', c_start),
            NULL::text,
            'start is the first number issued, 0 to 9223372036854775806; NULL falls back.'::text);
    END IF;
    IF c_width < 1 OR c_width > 19 THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter width: %s', c_width),
            NULL::text,
            'width is the number of digits numbers are zero-padded to, 1 to 19; NULL falls back.'::text);
    END IF;

    IF c_start IS NULL AND c_width IS NULL THEN
        DELETE FROM uid_counter.settings s
         WHERE s.prefix = c_prefix AND s.tenant = coalesce(c_tenant, '');
    ELSE
        INSERT INTO uid_counter.settings AS s (prefix, tenant, start, width)
        VALUES (c_prefix, coalesce(c_tenant, ''), c_start, c_width)
        ON CONFLICT ON CONSTRAINT settings_pkey DO UPDATE
            SET start = excluded.start, width = excluded.width;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_counter_configure(text, text, bigint, integer) IS
'Sets start and width of a prefix for one tenant (or, tenant NULL, for all); NULL fields fall back to the global row, then to start 1, width 3; both NULL removes the row.';

-- The work of both forms of uid_counter_set_range(), as their owner.
CREATE OR REPLACE FUNCTION uid_counter._set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_lo     ALIAS FOR $3;
    c_hi     ALIAS FOR $4;
    c_node   ALIAS FOR $5;
    other    record;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    IF c_node !~ '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter node: %s', pg_catalog.quote_literal(c_node)),
            NULL::text,
            'A node is a server''s uid.counter_node: 1 to 63 characters, a letter or digit, then letters, digits or "_", ".", ":", "@", "-"; NULL for none.'::text);
    END IF;
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo < 0
       OR c_hi > 9223372036854775806 OR c_lo > c_hi THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('invalid counter range: [%s, %s]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')),
            NULL::text,
            'A range is lo <= hi, both between 0 and 9223372036854775806.'::text);
    END IF;
    -- READ COMMITTED; waits (bounded) for counter calls in flight; new ones
    -- wait for our commit
    PERFORM uid_counter._lock_ranges('uid_counter_set_range');

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant = c_tenant;
    IF FOUND AND (other.first_value < c_lo
                  OR other.last_value > c_hi) THEN
        PERFORM uid_counter._raise('22023'::text,
            pg_catalog.format('range [%s, %s] does not contain the numbers tenant %s already issued of prefix %s', c_lo, c_hi, pg_catalog.quote_literal(c_tenant), c_prefix),
            pg_catalog.format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
            'Choose a range that contains them.'::text);
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix = c_prefix AND c.tenant <> c_tenant
       AND c.first_value <= c_hi AND c.last_value >= c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        PERFORM uid_counter._raise('23P01'::text,
            pg_catalog.format('range [%s, %s] of prefix %s overlaps numbers tenant %s already issued', c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)),
            pg_catalog.format('Tenant %s issued numbers between %s and %s.',
                                             pg_catalog.quote_literal(other.tenant), other.first_value, other.last_value),
            'Choose a range that avoids them.'::text);
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix AND r.tenant <> c_tenant
       AND r.lo <= c_hi AND r.hi >= c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        PERFORM uid_counter._raise('23P01'::text,
            pg_catalog.format('range [%s, %s] of prefix %s overlaps the range of tenant %s', c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)),
            pg_catalog.format('Tenant %s owns [%s, %s].', pg_catalog.quote_literal(other.tenant), other.lo, other.hi),
            'Choose a range that avoids it.'::text);
    END IF;

    -- the exclusion constraint enforces the same rule for any other writer
    INSERT INTO uid_counter.ranges AS r (prefix, tenant, lo, hi, node)
    VALUES (c_prefix, c_tenant, c_lo, c_hi, c_node)
    ON CONFLICT ON CONSTRAINT ranges_pkey DO UPDATE
        SET lo = excluded.lo, hi = excluded.hi, node = excluded.node;

    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) IS
'The work of uid_counter_set_range(), both forms; node NULL: a range of no server in particular.';

REVOKE ALL ON FUNCTION uid_counter._set_range(text, text, bigint, bigint, text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, NULL);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) IS
'Gives a tenant the range [lo, hi] of a prefix (replacing its range); refused if it overlaps another tenant''s range or issued numbers, or leaves out numbers the tenant issued.';

CREATE OR REPLACE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM uid_counter._set_range($1, $2, $3, $4, $5);
END
$$;

COMMENT ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) IS
'uid_counter_set_range() of a range that only the server whose uid.counter_node is node draws from (NULL: any server, as without node), for servers that replicate their counters to each other.';

CREATE OR REPLACE FUNCTION uid_counter_unset_range(tenant text, prefix text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    PERFORM uid_counter._lock_ranges('uid_counter_unset_range');
    DELETE FROM uid_counter.ranges r
     WHERE r.prefix = c_prefix AND r.tenant = c_tenant;
    IF NOT FOUND THEN
        PERFORM uid_counter._raise('42704'::text,
            pg_catalog.format('tenant %s has no range of counter prefix %s', pg_catalog.quote_literal(c_tenant), c_prefix),
            NULL::text,
            'The view uid_counter_settings lists the ranges.'::text);
    END IF;
    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter_unset_range(text, text) IS
'Removes a tenant''s range of a prefix; the numbers it issued stay reserved against other tenants'' ranges.';

REVOKE EXECUTE ON FUNCTION uid_counter_configure(text, text, bigint, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_counter_unset_range(text, text) FROM PUBLIC;

CREATE OR REPLACE VIEW uid_counter_settings AS
SELECT coalesce(s.prefix, r.prefix) AS prefix,
       -- NULLIF's = is text = text, an exact match that pg_catalog, searched
       -- first, always wins
       NULLIF(coalesce(s.tenant, r.tenant), '') AS tenant,
       s.start,
       s.width,
       r.lo AS range_lo,
       r.hi AS range_hi,
       r.node AS range_node
FROM uid_counter.settings s
FULL JOIN uid_counter.ranges r
       ON r.prefix OPERATOR(pg_catalog.=) s.prefix
      AND r.tenant OPERATOR(pg_catalog.=) s.tenant;

COMMENT ON VIEW uid_counter_settings IS
'Counter settings and ranges as configured: one row per (prefix, tenant); tenant NULL is the prefix''s global row; range_node: the server that alone draws from the range.';

CREATE OR REPLACE VIEW uid_counters AS
SELECT c.prefix,
       c.tenant,
       c.first_value,
       c.last_value,
       uid_counter_format(c.prefix, c.last_value,
           coalesce(t.width, g.width, 3)) AS last_id
FROM uid_counter.counters c
LEFT JOIN uid_counter.settings t
       ON t.prefix OPERATOR(pg_catalog.=) c.prefix AND t.tenant OPERATOR(pg_catalog.=) c.tenant
LEFT JOIN uid_counter.settings g
       ON g.prefix OPERATOR(pg_catalog.=) c.prefix AND g.tenant OPERATOR(pg_catalog.=) '';

COMMENT ON VIEW uid_counters IS
'One row per (prefix, tenant) counter: the numbers issued so far and the last ID as printed with the current width.';
-- ---------------------------------------------------------------------------
-- uid_decode(text): whatever form of an ID a user pastes (src/forms/decode_text.c)
-- ---------------------------------------------------------------------------

-- A text argument, so that uid_decode('121866...'), an untyped literal,
-- resolves to this one function: for an unknown argument the string
-- category wins over uid_decode(bigint) and uid_decode(uuid) (and the uid
-- type's uid_decode(uid)).  Its columns are a superset of theirs: the form
-- and prefix read, the ID or the UUID, the fields of its kind (the other
-- kind's are NULL), and a note for a number too small to be an ID that
-- uid_next() issued.  It carries the planner support every time function
-- of uid has (layout.sql), which only loads uid: no filter on a text column
-- becomes a range of IDs.
CREATE FUNCTION uid_decode(input text,
    OUT form text, OUT prefix text, OUT id bigint, OUT uuid uuid,
    OUT ts timestamptz, OUT worker_id integer, OUT sequence integer,
    OUT ms_since_epoch bigint, OUT version integer, OUT variant integer,
    OUT note text)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_decode_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uid_decode(text) IS
'Any form of an ID, told apart by length and alphabet: 1 to 19 decimal digits (form bigint), uid_to_text() (text), uid_to_text(id, prefix) (prefixed), a UUID as 8-4-4-4-12 (uuid) or 32 hex digits (hex), uuid_to_text() (uuid_text), a TypeID (typeid), PostgreSQL 19''s base32hex of a UUID (base32hex); one row of the form, prefix, id or uuid and their fields; 22P02 for anything else, and for an input that reads as two forms.';
-- ---------------------------------------------------------------------------
-- Adopting existing tables and sequences (src/tables/adopt.c, docs/adopting.md)
-- ---------------------------------------------------------------------------
-- An adopted sequence carries uid's security label; in a database with one,
-- the planner calls these four functions instead of nextval(), currval()
-- and lastval() (and around an identity column's next value).  Each checks
-- the sequence's privileges as PostgreSQL's own functions do, and hands
-- every sequence that is not adopted to them: PUBLIC may execute them.
--
-- The upgrade from 1.3 runs this file too (every function and view
-- CREATE OR REPLACE).  uid_adopt() and uid_unadopt() run as the caller, a
-- superuser often, and call uid's other functions by name in the
-- extension's schema, where its owner may create functions: every such
-- call passes arguments of exactly the declared types ('adopt it'::text,
-- not an untyped literal), and an exact match is chosen before any other
-- candidate (docs/security.md, "How uid keeps those promises").

CREATE OR REPLACE FUNCTION uid_sequence_nextval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_nextval(regclass) IS
'nextval() where some sequence is adopted: a uid ID for an adopted sequence (with INCREMENT n > 1, an ID N whose N - n .. N + n - 1 are reserved for the caller), PostgreSQL''s nextval() for any other.';

CREATE OR REPLACE FUNCTION uid_sequence_currval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_currval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_currval(regclass) IS
'currval() where some sequence is adopted: the session''s last nextval() of the sequence.';

CREATE OR REPLACE FUNCTION uid_sequence_lastval()
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_sequence_lastval'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_lastval() IS
'lastval() where some sequence is adopted: the session''s last nextval() of any sequence, adopted or not.';

CREATE OR REPLACE FUNCTION uid_sequence_plain(value anyelement)
RETURNS anyelement
AS 'MODULE_PATHNAME', 'uid_sequence_plain'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_sequence_plain(anyelement) IS
'Passes an identity column''s next value through, noting for lastval() that the session''s last sequence value is PostgreSQL''s.';

-- The columns that draw from a sequence: defaults that call it, and the
-- identity column it belongs to.  Partitions and inheritance children have
-- defaults of their own and are listed with their parent.
CREATE OR REPLACE FUNCTION uid_sequence_columns(seq regclass)
RETURNS TABLE (tbl regclass, col name, kind text)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT d.adrelid::regclass, a.attname, 'default'::text
    FROM pg_depend dep
    JOIN pg_attrdef d ON d.oid = dep.objid
    JOIN pg_attribute a
      ON a.attrelid = d.adrelid AND a.attnum = d.adnum
    WHERE dep.classid = 'pg_attrdef'::regclass
      AND dep.refclassid = 'pg_class'::regclass
      AND dep.refobjid = $1
    UNION
    SELECT dep.refobjid::regclass, a.attname, 'identity'
    FROM pg_depend dep
    JOIN pg_attribute a
      ON a.attrelid = dep.refobjid
     AND a.attnum = dep.refobjsubid
    WHERE dep.classid = 'pg_class'::regclass
      AND dep.objid = $1
      AND dep.deptype = 'i'
      AND dep.refobjsubid > 0
    ORDER BY 1, 2
$$;

COMMENT ON FUNCTION uid_sequence_columns(regclass) IS
'The columns that draw from the sequence: defaults that call it (kind default) and the identity column it belongs to (kind identity).';

-- Whether the owner of a table may draw from a sequence (USAGE or UPDATE on
-- it): the rule by which uid_adopt(), uid_unadopt() and uid_catch_up() tell
-- a column whose values came from the sequence from one whose default
-- another role wrote without that privilege.  Such a default never drew a
-- value: the column is left as it is (its table is not locked, read or
-- changed), so that what its owner stores there cannot move or stop the
-- sequence's owner.
CREATE OR REPLACE FUNCTION uid_sequence_may_draw(tbl regclass, seq regclass)
RETURNS boolean
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT has_sequence_privilege(c.relowner, $2, 'USAGE, UPDATE')
    FROM pg_class c WHERE c.oid = $1
$$;

COMMENT ON FUNCTION uid_sequence_may_draw(regclass, regclass) IS
'Whether the table''s owner may draw from the sequence (USAGE or UPDATE on it): uid_adopt(), uid_unadopt() and uid_catch_up() leave the columns of a table whose owner may not as they are.';

-- The columns of uid_sequence_columns() whose table's owner may draw from
-- the sequence: uid_adopt() and uid_unadopt() move these, and leave the
-- others as they are.
CREATE OR REPLACE FUNCTION uid_sequence_users(seq regclass)
RETURNS TABLE (tbl regclass, col name, kind text, may_draw boolean)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT u.tbl, u.col, u.kind, @extschema@.uid_sequence_may_draw(u.tbl, $1)
    FROM @extschema@.uid_sequence_columns($1) AS u
    ORDER BY 1, 2
$$;

COMMENT ON FUNCTION uid_sequence_users(regclass) IS
'The columns of uid_sequence_columns() and whether their table''s owner may draw from the sequence (USAGE or UPDATE): uid_adopt() and uid_unadopt() move those that may and leave the others as they are.';

-- The adopted sequences of this database.
CREATE OR REPLACE VIEW uid_adoptions AS
SELECT c.oid::pg_catalog.regclass AS sequence,
       CASE l.label WHEN 'adopted' THEN 'default'::pg_catalog.text
            WHEN 'adopted identity always' THEN 'identity always'
            ELSE 'identity by default' END AS origin,
       s.seqincrement AS increment,
       ARRAY(SELECT pg_catalog.format('%s.%I', u.tbl, u.col)
             FROM @extschema@.uid_sequence_columns(c.oid::pg_catalog.regclass) AS u) AS columns
FROM pg_catalog.pg_seclabel l
JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) l.objoid
JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) c.oid
WHERE l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
  AND l.provider OPERATOR(pg_catalog.=) 'uid';

COMMENT ON VIEW uid_adoptions IS
'The adopted sequences: what the columns were before (default, identity always, identity by default), the INCREMENT, the columns that draw from them.';

GRANT SELECT ON uid_adoptions TO PUBLIC;

-- The owner check of uid_adopt() and uid_unadopt(): PostgreSQL's own rule,
-- the privileges of the owning role.
CREATE OR REPLACE FUNCTION uid_require_owner(rel regclass, what text)
RETURNS void
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c pg_class;
BEGIN
    SELECT * INTO c FROM pg_class WHERE oid = rel;
    IF NOT pg_has_role(c.relowner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of % % to %', CASE c.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, rel, what
            USING ERRCODE = '42501',
                  HINT = 'Run it as the owner of the table, of its sequence and of every table that uses the sequence.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_require_owner(regclass, text) IS
'Raises 42501 unless the current role has the privileges of the relation''s owner.';

-- The relation uid_adopt() or uid_unadopt() was given: its kind ('S' a
-- sequence, 'r' or 'p' a table), and for a table the column (default: its
-- single-column primary key), once the caller is known to own it and,
-- unless dry, the table is locked (the statement is returned in locked).
CREATE OR REPLACE FUNCTION uid_adopt_target(rel regclass, col name, fn text, dry boolean,
                                 OUT kind "char", OUT column_name name, OUT locked text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF rel IS NULL THEN
        RAISE EXCEPTION '%() needs a table or a sequence', fn USING ERRCODE = '22004';
    END IF;
    kind := (SELECT c.relkind FROM pg_class c WHERE c.oid = rel);
    column_name := col;
    IF kind = 'S' THEN
        IF col IS NOT NULL THEN
            RAISE EXCEPTION 'a column was given for sequence %', rel
                USING ERRCODE = '22023',
                      HINT = 'Pass the table and its column, or the sequence alone.';
        END IF;
        RETURN;
    END IF;
    IF kind <> ALL (ARRAY['r', 'p']::"char"[]) THEN
        RAISE EXCEPTION '% is neither a table nor a sequence', rel
            USING ERRCODE = '42809',
                  HINT = format('%s() moves a table''s column, or a sequence, to uid.', fn);
    END IF;
    PERFORM @extschema@.uid_require_owner(rel, CASE fn WHEN 'uid_adopt' THEN 'adopt it' ELSE 'unadopt it' END);
    IF NOT dry THEN
        -- no insert runs while the column changes, and none of the rows
        -- read later is then still being written
        locked := format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', rel);
        EXECUTE locked;
    END IF;
    IF col IS NULL THEN
        SELECT min(a.attname) INTO column_name
        FROM pg_index i
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = rel AND i.indisprimary AND i.indnatts = 1;
        IF column_name IS NULL THEN
            RAISE EXCEPTION 'table % has no single-column primary key', rel
                USING ERRCODE = '22023', HINT = format('Name the column: %s(''table'', ''column'').', fn);
        END IF;
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt_target(regclass, name, text, boolean) IS
'The relation given to uid_adopt() or uid_unadopt(): its kind and column, the caller checked as its owner, the table locked unless dry.';

-- The other tables that draw from seq, and seq itself, locked: the
-- statements, run.  ALTER SEQUENCE ... NO CYCLE takes the lock nextval()
-- waits for (LOCK TABLE does not take sequences); an adopted sequence never
-- cycles.  Every table must be the caller's.
CREATE OR REPLACE FUNCTION uid_adopt_lock(seq regclass, locked_already regclass, fn text, dry boolean)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    users record;
    s     text;
BEGIN
    PERFORM @extschema@.uid_require_owner(seq, CASE fn WHEN 'uid_adopt' THEN 'adopt it' ELSE 'unadopt it' END);
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) LOOP
        IF NOT users.may_draw THEN
            RAISE NOTICE 'column %.% is left as it is: its default names sequence %, but its owner may not draw from it', users.tbl, users.col, seq;
            RETURN NEXT format('-- left as it is: %s.%I (its owner may not draw from %s)', users.tbl, users.col, seq);
            CONTINUE;
        END IF;
        PERFORM @extschema@.uid_require_owner(users.tbl,
            CASE fn WHEN 'uid_adopt' THEN 'adopt the sequence it uses' ELSE 'unadopt the sequence it uses' END);
        IF users.kind = 'identity' AND locked_already IS NULL THEN
            RAISE EXCEPTION 'sequence % belongs to identity column %.%', seq, users.tbl, users.col
                USING ERRCODE = '55000',
                      HINT = format('Pass the column: %s(%L, %L).', fn, users.tbl, users.col);
        END IF;
    END LOOP;
    IF dry THEN
        RETURN;
    END IF;
    FOR users IN SELECT DISTINCT u.tbl FROM @extschema@.uid_sequence_users(seq) AS u
                 WHERE u.may_draw AND u.tbl IS DISTINCT FROM locked_already LOOP
        s := format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', users.tbl);
        EXECUTE s;
        RETURN NEXT s;
    END LOOP;
    RETURN QUERY SELECT unnest(uid_adopt._alter('sequence no cycle'::text, NULL::regclass, NULL::name, seq,
                                                NULL::bigint, NULL::bigint, false));
END
$$;

COMMENT ON FUNCTION uid_adopt_lock(regclass, regclass, text, boolean) IS
'Checks that the caller owns the sequence and every table whose owner may draw from it, and (unless dry) locks them: the statements run, and a comment for each column left as it is.';

-- ---------------------------------------------------------------------------
-- The steps of uid_adopt(), uid_unadopt() and uid_catch_up()
-- (sql/parts/catch_up.sql), in a schema of their own.  Each runs as the
-- caller and does only what the caller may do: PUBLIC may execute them.
-- The statements they run on a table or a sequence are written, checked
-- and run by uid_adopt._alter() (sql/parts/owner_ddl.sql).
-- ---------------------------------------------------------------------------
CREATE SCHEMA uid_adopt;

COMMENT ON SCHEMA uid_adopt IS
'The steps of uid_adopt(), uid_unadopt() and uid_catch_up(): internal, called by them only.';

GRANT USAGE ON SCHEMA uid_adopt TO PUBLIC;

-- A table's column as uid_adopt() reads it: its number, type, identity and
-- default (text and object).
CREATE OR REPLACE FUNCTION uid_adopt._column(rel regclass, col name,
    OUT attnum smallint, OUT atttypid oid, OUT attidentity "char", OUT expr text, OUT defoid oid)
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    SELECT a.attnum, a.atttypid, a.attidentity, pg_get_expr(d.adbin, d.adrelid), d.oid
    INTO attnum, atttypid, attidentity, expr, defoid
    FROM pg_attribute a
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of table % does not exist', col, rel USING ERRCODE = '42703';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt._column(regclass, name) IS
'Part of uid_adopt(): the column''s number, type, identity and default; 42703 if there is none of that name.';

-- The objects a column's default depends on (a built-in function is
-- pinned and not among them): the functions it calls (catalog pg_proc),
-- the sequences it names (pg_class).
CREATE OR REPLACE FUNCTION uid_adopt._default_refs(rel regclass, col name)
RETURNS TABLE (catalog regclass, obj oid)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT dep.refclassid::regclass, dep.refobjid
    FROM pg_attribute a
    JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid
    WHERE a.attrelid = rel AND a.attname = col
$$;

COMMENT ON FUNCTION uid_adopt._default_refs(regclass, name) IS
'Part of uid_adopt() and uid_unadopt(): the objects the column''s default depends on (functions it calls, sequences it names).';

CREATE OR REPLACE FUNCTION uid_adopt._default_sequence(rel regclass, col name)
RETURNS regclass
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT r.obj::regclass
    FROM uid_adopt._default_refs(rel, col) AS r
    JOIN pg_class s ON s.oid = r.obj AND s.relkind = 'S'
    WHERE r.catalog = 'pg_class'::regclass
$$;

COMMENT ON FUNCTION uid_adopt._default_sequence(regclass, name) IS
'Part of uid_adopt() and uid_unadopt(): the sequence the column''s default names, NULL if none.';

-- uid's label of a sequence: NULL, 'adopted', 'adopted identity always' or
-- 'adopted identity by default'.
CREATE OR REPLACE FUNCTION uid_adopt._label(seq regclass)
RETURNS text
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT l.label FROM pg_seclabel l
    WHERE l.objoid = seq AND l.classoid = 'pg_class'::regclass AND l.provider = 'uid'
$$;

COMMENT ON FUNCTION uid_adopt._label(regclass) IS
'Part of uid_adopt() and uid_unadopt(): uid''s security label of the sequence (NULL if it is not adopted).';

-- A UUID column: uuid7() for new rows, old values untouched.  The
-- defaults it replaces: gen_random_uuid(), uuidv4() and uuid-ossp's.
CREATE OR REPLACE FUNCTION uid_adopt._adopt_uuid(rel regclass, col name, expr text, as_uid boolean, dry boolean)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    deffn regprocedure;
BEGIN
    IF as_uid THEN
        RAISE EXCEPTION 'as_uid => true needs a bigint column; %.% is uuid', rel, col
            USING ERRCODE = '42804',
                  HINT = 'A UUID is already a JSON string; leave as_uid out for uuid columns.';
    END IF;
    IF '@extschema@.uuid7()'::regprocedure IN (SELECT r.obj FROM uid_adopt._default_refs(rel, col) AS r
                                                 WHERE r.catalog = 'pg_proc'::regclass) THEN
        RAISE NOTICE 'column %.% already uses uuid7(): nothing to do', rel, col;
        RETURN NULL;
    END IF;
    -- (a built-in function is pinned: a default that calls one depends on
    -- no function, deffn is NULL, and the test below is NULL, not true)
    deffn := (SELECT r.obj FROM uid_adopt._default_refs(rel, col) AS r WHERE r.catalog = 'pg_proc'::regclass LIMIT 1);
    IF expr IS NOT NULL AND NOT (
         expr ~ '^[a-z0-9_."]*\(\)$'
         AND (deffn = 'gen_random_uuid()'::regprocedure
              OR (to_regprocedure('pg_catalog.uuidv4()') IS NOT NULL
                  AND deffn = to_regprocedure('pg_catalog.uuidv4()'))
              OR EXISTS (SELECT 1 FROM pg_depend e
                         JOIN pg_extension x ON x.oid = e.refobjid
                         JOIN pg_proc p ON p.oid = e.objid
                         WHERE e.classid = 'pg_proc'::regclass AND e.objid = deffn AND e.deptype = 'e'
                           AND x.extname = 'uuid-ossp'
                           AND p.proname = ANY (ARRAY['uuid_generate_v4', 'uuid_generate_v1', 'uuid_generate_v1mc']::name[])))) THEN
        RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', rel, col, expr
            USING ERRCODE = '55000',
                  HINT = 'uid_adopt() moves UUID columns whose default is gen_random_uuid(), uuidv4(), uuid_generate_v4(), uuid_generate_v1() or uuid_generate_v1mc(); set another default with ALTER TABLE.';
    END IF;
    RETURN uid_adopt._alter('default uuid7'::text, rel, col, NULL::regclass, NULL::bigint, NULL::bigint, dry);
END
$$;

COMMENT ON FUNCTION uid_adopt._adopt_uuid(regclass, name, text, boolean, boolean) IS
'Part of uid_adopt(): a UUID column''s default to uuid7() (unless dry); the statements, NULL if it uses uuid7() already.';

-- The sequence an integer column draws from, and the label its adoption
-- gives it; label 'uid_next' for a column that uses uid_next() already.
CREATE OR REPLACE FUNCTION uid_adopt._source(rel regclass, col name, attidentity "char", expr text,
                                             OUT seq regclass, OUT label text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF attidentity <> '' THEN
        seq := pg_get_serial_sequence(rel::text, col)::regclass;
        label := CASE attidentity WHEN 'a' THEN 'adopted identity always' ELSE 'adopted identity by default' END;
        RETURN;
    END IF;
    IF expr IS NULL THEN
        RAISE EXCEPTION 'column %.% has no default', rel, col
            USING ERRCODE = '55000',
                  HINT = 'If the application takes values from a sequence itself (Hibernate''s SEQUENCE strategy), adopt that sequence: uid_adopt(''its_seq''). Otherwise SET DEFAULT uid_next().';
    END IF;
    IF expr ~ 'uid_next\(\)' THEN
        label := 'uid_next';
        RETURN;
    END IF;
    seq := uid_adopt._default_sequence(rel, col);
    label := 'adopted';
    -- uid_sequence_nextval(): adopted, or restored without its label
    -- (pg_dump --no-security-labels), which is set again
    IF seq IS NULL OR expr !~ '^(pg_catalog\.|[a-z_"]+\.)?(nextval|uid_sequence_nextval)\(''[^'']*''::regclass\)$' THEN
        RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', rel, col, expr
            USING ERRCODE = '55000',
                  HINT = 'uid_adopt() moves columns whose default is nextval() of a sequence, identity columns and UUID columns.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt._source(regclass, name, "char", text) IS
'Part of uid_adopt(): the sequence an integer column draws from (identity or nextval() default) and the label its adoption gives it.';

-- The columns whose foreign keys reference a table's column and are not
-- bigint (or uid) yet.
CREATE OR REPLACE FUNCTION uid_adopt._narrow_references(referenced regclass, referenced_attnum smallint)
RETURNS TABLE (tbl regclass, col name)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT c.conrelid::regclass, fa.attname
    FROM pg_constraint c
    CROSS JOIN LATERAL generate_subscripts(c.confkey, 1) AS k(i)
    JOIN pg_attribute fa ON fa.attrelid = c.conrelid AND fa.attnum = c.conkey[k.i]
    WHERE c.contype = 'f' AND c.confrelid = referenced AND c.confkey[k.i] = referenced_attnum
      AND c.conparentid = 0
      AND fa.atttypid <> ALL (ARRAY['int8', '@extschema@.uid']::regtype[])
    ORDER BY format('%s.%I', c.conrelid::regclass, fa.attname)
$$;

COMMENT ON FUNCTION uid_adopt._narrow_references(regclass, smallint) IS
'Part of uid_adopt(): the columns that reference the column and are not bigint.';

-- The statements that widen an integer or smallint column, every column
-- that references it and its sequence to bigint; run unless dry.
CREATE OR REPLACE FUNCTION uid_adopt._widening(rel regclass, col name, attnum smallint,
                                               seq regclass, identity boolean, dry boolean)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ref      record;
    widening text[] := '{}';
BEGIN
    FOR ref IN SELECT * FROM uid_adopt._narrow_references(rel, attnum) LOOP
        widening := widening || uid_adopt._alter('type bigint'::text, ref.tbl, ref.col,
                                                 NULL::regclass, NULL::bigint, NULL::bigint, dry);
    END LOOP;
    widening := widening || uid_adopt._alter('type bigint'::text, rel, col, NULL::regclass, NULL::bigint, NULL::bigint, dry);
    IF NOT identity THEN
        widening := widening || uid_adopt._alter('sequence as bigint'::text, NULL::regclass, NULL::name, seq,
                                                 NULL::bigint, NULL::bigint, dry);
    END IF;
    RETURN widening;
END
$$;

COMMENT ON FUNCTION uid_adopt._widening(regclass, name, smallint, regclass, boolean, boolean) IS
'Part of uid_adopt(): the statements that widen the column, the columns that reference it and its sequence to bigint, run (each table''s as its owner) unless dry.';

-- integer and smallint: the column and every column that references it
-- become bigint first (widen); otherwise refused, with the statements
-- that would.
CREATE OR REPLACE FUNCTION uid_adopt._widen(rel regclass, col name, attnum smallint, atttypid oid,
                                            seq regclass, identity boolean, widen boolean, dry boolean)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    fks text[];
BEGIN
    IF NOT widen AND NOT dry THEN
        fks := ARRAY(SELECT format('%s.%I', r.tbl, r.col) FROM uid_adopt._narrow_references(rel, attnum) AS r);
        RAISE EXCEPTION 'column %.% is %: uid IDs need bigint', rel, col, atttypid::regtype
            USING ERRCODE = '42804',
                  DETAIL = format('Columns that reference it: %s. These statements widen them: %s.',
                                  CASE WHEN cardinality(fks) = 0 THEN 'none' ELSE array_to_string(fks, ', ') END,
                                  array_to_string(uid_adopt._widening(rel, col, attnum, seq, identity, true), '; ')),
                  HINT = 'Run uid_adopt() with widen => true to run them in the same transaction: each rewrites its table under an ACCESS EXCLUSIVE lock.';
    END IF;
    RETURN uid_adopt._widening(rel, col, attnum, seq, identity, dry);
END
$$;

COMMENT ON FUNCTION uid_adopt._widen(regclass, name, smallint, oid, regclass, boolean, boolean, boolean) IS
'Part of uid_adopt(): an integer or smallint column widened to bigint with the columns that reference it (widen), or refused with 42804 and the statements that would.';

-- A sequence's INCREMENT as adoption needs it: a call with INCREMENT n > 1
-- is a batch of 2n IDs, which uid_sequence_nextval() holds to
-- uid_next_batch()'s limits at every call; refused here first.
CREATE OR REPLACE FUNCTION uid_adopt._check_increment(seq regclass, OUT incr bigint, OUT seq_min bigint)
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    SELECT q.seqincrement, q.seqmin INTO incr, seq_min FROM pg_sequence q WHERE q.seqrelid = seq;
    IF incr < 1 OR incr > 2048 THEN
        RAISE EXCEPTION 'sequence % has INCREMENT %, outside 1 .. 2048', seq, incr
            USING ERRCODE = '22023',
                  DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer (for every Hibernate optimizer): at most one millisecond''s 4096.',
                  HINT = 'Lower the INCREMENT (Hibernate: allocationSize) to at most 2048 first; descending sequences cannot be adopted.';
    END IF;
    IF incr = 1 THEN
        RETURN;
    END IF;
    IF 2 * incr > current_setting('uid.max_batch')::int8 THEN
        RAISE EXCEPTION 'sequence % has INCREMENT %: each nextval() would reserve % IDs, more than uid.max_batch (%)',
                        seq, incr, 2 * incr, current_setting('uid.max_batch')
            USING ERRCODE = '54000',
                  DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer: a batch, as uid_next_batch() draws.',
                  HINT = 'Lower the INCREMENT (Hibernate: allocationSize), or have a superuser raise uid.max_batch.';
    END IF;
    IF NOT has_function_privilege('@extschema@.uid_next_batch(integer)'::regprocedure, 'EXECUTE') THEN
        RAISE EXCEPTION 'permission denied to adopt sequence % with INCREMENT %: its nextval() draws batches', seq, incr
            USING ERRCODE = '42501',
                  DETAIL = 'Each nextval() of an adopted sequence with INCREMENT n > 1 reserves 2n IDs, a batch; this role may not execute uid_next_batch().',
                  HINT = 'Lower the INCREMENT to 1, or have EXECUTE on uid_next_batch(integer) granted to the roles that draw from it.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt._check_increment(regclass) IS
'Part of uid_adopt(): the sequence''s INCREMENT and MINVALUE; 22023, 54000 or 42501 for an INCREMENT adoption cannot serve.';

-- The greatest value stored in the columns whose owner may draw from seq
-- (through their indexes; notice: say so of a column without one), and
-- where.
CREATE OR REPLACE FUNCTION uid_adopt._stored_top(seq regclass, notice boolean, OUT top bigint, OUT top_where text)
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    users record;
    m     bigint;
BEGIN
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
        IF notice AND (SELECT k.relkind FROM pg_class k WHERE k.oid = users.tbl) = 'r'
           AND NOT EXISTS (SELECT 1 FROM pg_index i
                           JOIN pg_class ic ON ic.oid = i.indexrelid
                           JOIN pg_am am ON am.oid = ic.relam
                           JOIN pg_attribute ia ON ia.attrelid = users.tbl AND ia.attnum = i.indkey[0]
                           WHERE i.indrelid = users.tbl AND ia.attname = users.col AND am.amname = 'btree') THEN
            RAISE NOTICE 'column %.% has no index: its largest value is found by reading the whole table', users.tbl, users.col;
        END IF;
        m := @extschema@.uid_stored_max(users.tbl, users.col);
        IF m IS NOT NULL AND (top IS NULL OR m > top) THEN
            top := m;
            top_where := format('column %s.%I', users.tbl, users.col);
        END IF;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_adopt._stored_top(regclass, boolean) IS
'Part of uid_adopt() and uid_unadopt(): the greatest value stored in the columns whose owner may draw from the sequence, and which column holds it.';

-- The largest value handed out, in the columns and by the sequence (values
-- an application holds but has not stored yet are below its last value +
-- INCREMENT), must be below the first ID uid would issue now.
CREATE OR REPLACE FUNCTION uid_adopt._check_below_uid(seq regclass, incr bigint, seq_last bigint, seq_called boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    top       bigint;
    top_where text;
    stored    record;
    first_id  bigint;
BEGIN
    top := CASE WHEN seq_called THEN seq_last + (incr - 1) END;
    top_where := format('sequence %s', seq);
    SELECT * INTO stored FROM uid_adopt._stored_top(seq, true);
    IF stored.top IS NOT NULL AND (top IS NULL OR stored.top > top) THEN
        top := stored.top;
        top_where := stored.top_where;
    END IF;
    first_id := @extschema@.uid_next();
    IF top IS NOT NULL AND top >= first_id THEN
        RAISE EXCEPTION '% holds values up to %, not below the first ID uid would issue now (%)',
                top_where, top, first_id
            USING ERRCODE = 'UID04',
                  DETAIL = format('Read as uid IDs, the values reach %s UTC, %s s ahead of this server''s clock.',
                                  to_char(@extschema@.uid_time(top) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                                  ((top >> 22) - (first_id >> 22)) / 1000),
                  HINT = 'New IDs must sort above the existing ones. IDs from a Snowflake-style generator with an earlier epoch stay ahead of uid''s; keep that generator for this table, or give the table new keys.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt._check_below_uid(regclass, bigint, bigint, boolean) IS
'Part of uid_adopt(): UID04 unless every value the sequence and its columns handed out is below the first ID uid would issue now.';

-- The switch: the column defaults (an identity turned into a default), the
-- sequence left at its maximum, the column to the uid type (as_uid: bigint's
-- representation, so the table and its indexes are kept as they are), and
-- the label; run unless dry.
CREATE OR REPLACE FUNCTION uid_adopt._switch(rel regclass, col name, seq regclass, label text,
                                             incr bigint, seq_min bigint, seq_last bigint,
                                             to_uid boolean, dry boolean)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    steps text[] := '{}';
    users record;
    -- written before an identity's sequence is made again under its name
    last  text[] := ARRAY[format('SELECT pg_catalog.setval(%L, %s, true)', seq, seq_last),
                          format('SECURITY LABEL FOR uid ON SEQUENCE %s IS %L', seq, label)];
BEGIN
    IF label <> 'adopted' THEN
        steps := uid_adopt._alter('identity to sequence'::text, rel, col, seq, seq_last, incr, dry);
    ELSE
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps || uid_adopt._alter('default uid_sequence_nextval'::text, users.tbl, users.col, seq,
                                               NULL::bigint, NULL::bigint, dry);
        END LOOP;
        steps := steps || uid_adopt._alter('sequence bounds'::text, NULL::regclass, NULL::name, seq,
                                           LEAST(seq_min, seq_last - 1), seq_last, dry);
    END IF;
    IF to_uid THEN
        steps := steps || uid_adopt._alter('type uid'::text, rel, col, NULL::regclass, NULL::bigint, NULL::bigint, dry);
    END IF;
    IF NOT dry THEN
        EXECUTE last[1];
        EXECUTE last[2];
    END IF;
    RETURN steps || last;
END
$$;

COMMENT ON FUNCTION uid_adopt._switch(regclass, name, regclass, text, bigint, bigint, bigint, boolean, boolean) IS
'Part of uid_adopt(): the defaults to uid_sequence_nextval() (an identity to a default), the sequence frozen at its last value, the column to the uid type (to_uid), the label; run unless dry.';

-- uid_adopt: see docs/adopting.md.  Runs as the caller (never SECURITY
-- DEFINER): the caller must own everything it changes.
CREATE OR REPLACE FUNCTION uid_adopt(rel regclass, col name DEFAULT NULL,
                          dry_run boolean DEFAULT false, widen boolean DEFAULT false,
                          as_uid boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a_rel      ALIAS FOR $1;
    a_col      ALIAS FOR $2;
    a_dry      ALIAS FOR $3;
    a_widen    ALIAS FOR $4;
    a_as_uid   ALIAS FOR $5;
    rkind      "char";
    att        record;
    seq        regclass;
    label      text := 'adopted';
    steps      text[] := '{}';
    locked     text;
    incr       bigint;
    seq_min    bigint;
    seq_last   bigint;
    seq_called boolean;
    to_uid     boolean := false;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, locked
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_adopt'::text, a_dry) AS t;
    IF locked IS NOT NULL THEN
        steps := ARRAY[locked];
    END IF;
    IF rkind = 'S' THEN
        IF a_as_uid THEN
            RAISE EXCEPTION 'as_uid => true needs a table column, not sequence %', a_rel
                USING ERRCODE = '22023',
                      HINT = 'Adopt the table whose column draws from the sequence: uid_adopt(''the_table'', ''its_column'', as_uid => true).';
        END IF;
        seq := a_rel;
    ELSE
        SELECT * INTO att FROM uid_adopt._column(a_rel, a_col);
        IF att.atttypid = 'uuid'::regtype THEN
            -- (NULL: nothing to do)
            RETURN QUERY SELECT unnest(steps || u)
                         FROM uid_adopt._adopt_uuid(a_rel, a_col, att.expr, a_as_uid, a_dry) AS u
                         WHERE u IS NOT NULL;
            RETURN;
        END IF;
        IF att.atttypid <> ALL (ARRAY['int8', 'int4', 'int2', '@extschema@.uid']::regtype[]) THEN
            RAISE EXCEPTION 'column %.% is of type %, not bigint or uuid', a_rel, a_col, att.atttypid::regtype
                USING ERRCODE = '42804',
                      HINT = 'uid_adopt() moves bigint and uid columns (bigserial, identity, nextval() defaults) and uuid columns.';
        END IF;
        SELECT s.seq, s.label INTO seq, label FROM uid_adopt._source(a_rel, a_col, att.attidentity, att.expr) AS s;
        IF label = 'uid_next' THEN
            IF a_as_uid AND att.atttypid <> '@extschema@.uid'::regtype THEN
                RETURN QUERY SELECT unnest(steps || uid_adopt._alter('type uid'::text, a_rel, a_col, NULL::regclass,
                                                                     NULL::bigint, NULL::bigint, a_dry));
                RETURN;
            END IF;
            RAISE NOTICE 'column %.% already uses uid_next(): nothing to do', a_rel, a_col;
            RETURN;
        END IF;
        IF att.atttypid <> ALL (ARRAY['int8', '@extschema@.uid']::regtype[]) THEN
            steps := steps || uid_adopt._widen(a_rel, a_col, att.attnum, att.atttypid, seq,
                                               att.attidentity <> '', a_widen, a_dry);
        END IF;
        -- the column to the uid type: bigint's representation, so the
        -- table and its indexes are kept as they are
        to_uid := a_as_uid AND att.atttypid <> '@extschema@.uid'::regtype;
    END IF;

    -- the sequence and every column that draws from it
    PERFORM @extschema@.uid_require_owner(seq, 'adopt it'::text);
    IF uid_adopt._label(seq) IS NOT NULL THEN
        IF rkind = 'S' THEN
            RAISE NOTICE 'sequence % is adopted already: nothing to do', seq;
        ELSE
            RAISE NOTICE 'column %.% is adopted already (sequence %): nothing to do', a_rel, a_col, seq;
        END IF;
        RETURN;
    END IF;
    SELECT c.incr, c.seq_min INTO incr, seq_min FROM uid_adopt._check_increment(seq) AS c;
    steps := steps || ARRAY(SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind <> 'S' THEN a_rel END,
                                                                      'uid_adopt'::text, a_dry) AS l);
    EXECUTE format('SELECT last_value, is_called FROM %s', seq) INTO seq_last, seq_called;
    PERFORM uid_adopt._check_below_uid(seq, incr, seq_last, seq_called);
    steps := steps || uid_adopt._switch(a_rel, a_col, seq, label, incr, seq_min, seq_last, to_uid, a_dry);
    RETURN QUERY SELECT unnest(steps);
END
$$;

COMMENT ON FUNCTION uid_adopt(regclass, name, boolean, boolean, boolean) IS
'Moves a table''s column (default: its single-column primary key), or a sequence, to uid in place, in the calling transaction; as_uid => true also changes the column to the uid type (no rewrite); returns the statements it ran (dry_run: would run). See docs/adopting.md.';

-- The column (or sequence) uid_unadopt() was given: the sequence it draws
-- from, NULL (with a notice) if it is not adopted.
CREATE OR REPLACE FUNCTION uid_adopt._unadopt_sequence(rel regclass, col name, rkind "char")
RETURNS regclass
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    seq regclass := CASE WHEN rkind = 'S' THEN rel ELSE uid_adopt._default_sequence(rel, col) END;
BEGIN
    IF seq IS NULL THEN
        RAISE NOTICE 'column %.% is not adopted: nothing to do', rel, col;
        RETURN NULL;
    END IF;
    PERFORM @extschema@.uid_require_owner(seq, 'unadopt it'::text);
    IF uid_adopt._label(seq) IS NULL THEN
        RAISE NOTICE 'sequence % is not adopted: nothing to do', seq;
        RETURN NULL;
    END IF;
    RETURN seq;
END
$$;

COMMENT ON FUNCTION uid_adopt._unadopt_sequence(regclass, name, "char") IS
'Part of uid_unadopt(): the adopted sequence the column draws from (or the sequence given), the caller checked as its owner; NULL if none.';

-- The switch back: a default's sequence restarted and the defaults to
-- nextval(), or an identity made again from its sequence; run unless dry.
CREATE OR REPLACE FUNCTION uid_adopt._switch_back(seq regclass, label text, incr bigint, restart bigint, dry boolean)
RETURNS text[]
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    steps text[];
    users record;
    owner record;
BEGIN
    IF label = 'adopted' THEN
        steps := ARRAY[format('SECURITY LABEL FOR uid ON SEQUENCE %s IS NULL', seq)];
        IF NOT dry THEN
            EXECUTE steps[1];
        END IF;
        steps := steps || uid_adopt._alter('sequence restart'::text, NULL::regclass, NULL::name, seq,
                                           restart, NULL::bigint, dry);
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps || uid_adopt._alter('default nextval'::text, users.tbl, users.col, seq,
                                               NULL::bigint, NULL::bigint, dry);
        END LOOP;
        RETURN steps;
    END IF;
    -- the identity's column: the one that owns the sequence
    SELECT dep.refobjid::regclass AS tbl, a.attname AS col INTO owner
    FROM pg_depend dep
    JOIN pg_attribute a ON a.attrelid = dep.refobjid AND a.attnum = dep.refobjsubid
    WHERE dep.classid = 'pg_class'::regclass AND dep.objid = seq
      AND dep.refobjsubid > 0 AND dep.deptype = 'a';
    RETURN uid_adopt._alter(CASE label WHEN 'adopted identity always' THEN 'sequence to identity always'
                                       ELSE 'sequence to identity by default' END,
                            owner.tbl, owner.col, seq, incr, restart, dry);
END
$$;

COMMENT ON FUNCTION uid_adopt._switch_back(regclass, text, bigint, bigint, boolean) IS
'Part of uid_unadopt(): the sequence''s label removed, the sequence restarted and the defaults to nextval(), or the identity made again; run unless dry.';

-- uid_unadopt: the inverse.  The sequence (or identity) comes back with its
-- next value above every value stored and every ID this server issued, so
-- the table keeps working without uid; the IDs issued stay as they are.
CREATE OR REPLACE FUNCTION uid_unadopt(rel regclass, col name DEFAULT NULL, dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a_rel   ALIAS FOR $1;
    a_col   ALIAS FOR $2;
    a_dry   ALIAS FOR $3;
    rkind   "char";
    seq     regclass;
    label   text;
    incr    bigint;
    steps   text[] := '{}';
    locked  text;
    restart bigint;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, locked
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_unadopt'::text, a_dry) AS t;
    IF locked IS NOT NULL THEN
        steps := ARRAY[locked];
    END IF;
    -- a UUID column back to version 4
    IF rkind <> 'S' AND '@extschema@.uuid7()'::regprocedure IN (SELECT r.obj FROM uid_adopt._default_refs(a_rel, a_col) AS r
                                                                 WHERE r.catalog = 'pg_proc'::regclass) THEN
        RETURN QUERY SELECT unnest(steps || uid_adopt._alter('default gen_random_uuid'::text, a_rel, a_col, NULL::regclass,
                                                             NULL::bigint, NULL::bigint, a_dry));
        RETURN;
    END IF;
    seq := uid_adopt._unadopt_sequence(a_rel, a_col, rkind);
    IF seq IS NULL THEN
        RETURN;
    END IF;
    label := uid_adopt._label(seq);
    incr := (SELECT q.seqincrement FROM pg_sequence q WHERE q.seqrelid = seq);
    steps := steps || ARRAY(SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind <> 'S' THEN a_rel END,
                                                                      'uid_unadopt'::text, a_dry) AS l);
    -- above every stored value and every ID this server issued (blocks an
    -- application holds included): the next ID uid would issue
    restart := GREATEST(@extschema@.uid_next(), (SELECT s.top FROM uid_adopt._stored_top(seq, false) AS s)) + incr + 1;
    RETURN QUERY SELECT unnest(steps || uid_adopt._switch_back(seq, label, incr, restart, a_dry));
END
$$;

COMMENT ON FUNCTION uid_unadopt(regclass, name, boolean) IS
'The inverse of uid_adopt(): the column (or sequence) back to its sequence, identity or gen_random_uuid(), the sequence''s next value above every value stored and every ID this server issued. Issued IDs stay. See docs/adopting.md.';
-- ---------------------------------------------------------------------------
-- The statements adoption runs on a table, as its owner (src/tables/owner_ddl.c)
-- ---------------------------------------------------------------------------
-- uid_adopt() and uid_unadopt() (sql/parts/adopt.sql) name each change of
-- a column or a sequence and its values; this function writes the
-- statement, checks it and runs it.  A table's statement runs as the
-- table's owner under a security-restricted operation: changing a column's
-- type re-checks the table's constraints and rebuilds its indexes, which
-- runs the owner's code.  A sequence's statement runs as the caller.  The
-- caller must have the privileges of the owner of what changes: PUBLIC may
-- execute it.  With dry, it returns the statements and checks or runs
-- nothing.

CREATE OR REPLACE FUNCTION uid_adopt._alter(change text, tbl regclass, col name, seq regclass,
                                            n1 bigint, n2 bigint, dry boolean)
RETURNS text[]
AS 'MODULE_PATHNAME', 'uid_adopt_alter'
LANGUAGE C VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION uid_adopt._alter(text, regclass, name, regclass, bigint, bigint, boolean) IS
'Part of uid_adopt() and uid_unadopt(): the statements of one change (type bigint, type uid, default uuid7, default gen_random_uuid, default uid_sequence_nextval, default nextval, identity to sequence, sequence to identity always or by default; sequence as bigint, no cycle, bounds n1 n2, restart n1), checked and run (a table''s as its owner, under a security-restricted operation) unless dry; the caller must have the owner''s privileges.';
-- ---------------------------------------------------------------------------
-- Moving the writes to another server: uid_catch_up() (docs/operations.md)
-- ---------------------------------------------------------------------------
-- A server that takes over the writes of another (a blue/green upgrade by
-- logical replication, a restore) holds rows its generators never issued:
-- with the other server's worker id and a clock behind its clock, uid_next()
-- could issue them again, and ticket sequences, which logical replication
-- does not carry, start again from their first number.  uid_catch_up() reads
-- the greatest value of every column whose default is uid's uid_next(),
-- uuid7() or uuidv7(), or an adopted sequence, and of every column that
-- draws from a ticket sequence, and moves the generators and sequences past
-- them.  It reads everything and checks every limit before it changes
-- anything.  It runs as the caller: PostgreSQL checks the caller's
-- privileges on each table, sequence and function.  Its steps are functions
-- of schema uid_adopt (sql/parts/adopt.sql), which run as the caller too.
--
-- The upgrade from 1.3 runs this file too (every function CREATE OR
-- REPLACE).

-- Before a column is read: the caller's SELECT privilege on it, no
-- row-level security that applies to the caller, and (unless
-- a dry run) a SHARE lock on its table until the end of the transaction, so
-- that no insert is in progress while its greatest value is read and none
-- can follow until the generators have moved.
CREATE OR REPLACE FUNCTION uid_catch_up_lock(rel regclass, col name, dry_run boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT has_column_privilege(rel, col, 'SELECT') THEN
        RAISE EXCEPTION 'permission denied to read column % of table %', col, rel
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() reads every column whose default is uid_next(), uuid7(), an adopted or a ticket sequence: run it as a role that may read and lock each such table (a superuser).';
    END IF;
    -- rows a policy hides would be left out of the greatest value
    IF row_security_active(rel) THEN
        RAISE EXCEPTION 'row-level security applies to table % for this role: uid_catch_up() would not see every row', rel
            USING ERRCODE = '42501',
                  HINT = 'Run it as a superuser or a role with BYPASSRLS.';
    END IF;
    IF NOT dry_run THEN
        EXECUTE format('LOCK TABLE %s IN SHARE MODE', rel);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_catch_up_lock(regclass, name, boolean) IS
'Part of uid_catch_up(): raises 42501 unless the caller may read the column and every row of its table; unless dry_run, locks its table in SHARE mode. It runs as the caller and does only what the caller may do: PUBLIC may execute it.';

-- uid_catch_up()'s arguments, checked before anything is read; a warning
-- for each enabled subscription of this database.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_check(dry_run boolean, floors jsonb, allow_ahead interval,
                                                     ticket_ahead bigint)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    f record;
BEGIN
    IF dry_run IS NULL THEN
        RAISE EXCEPTION 'dry_run must not be NULL'
            USING ERRCODE = '22004',
                  HINT = 'Pass true to see what uid_catch_up() would do, false to do it.';
    END IF;
    IF NOT dry_run AND current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'uid_catch_up() must run at isolation level READ COMMITTED, not %',
                        upper(current_setting('transaction_isolation'))
            USING ERRCODE = '25000',
                  HINT = 'Its reads must see every row committed before it locked the table; run it in a transaction of the default isolation level.';
    END IF;
    IF allow_ahead IS NULL OR allow_ahead < '0'::interval OR allow_ahead > '1 day'::interval THEN
        RAISE EXCEPTION 'allow_ahead must be from 0 to 1 day, not %', coalesce(allow_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how far ahead of this server''s clock a stored value may be (the old server''s clock ahead of this one''s): ''2 seconds''.';
    END IF;
    IF ticket_ahead IS NULL OR ticket_ahead < 0 THEN
        RAISE EXCEPTION 'ticket_ahead must be from 0 to 9223372036854775807, not %', coalesce(ticket_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how many draws past its next ticket a stored ticket may move a ticket sequence (default 1000000000).';
    END IF;
    IF jsonb_typeof(floors) <> 'object' THEN
        RAISE EXCEPTION 'ticket_floors must be a JSON object, not %', jsonb_typeof(floors)
            USING ERRCODE = '22023',
                  HINT = 'Map ticket names to the value their next ticket must be above: ''{"orders": 5000}''.';
    END IF;
    FOR f IN SELECT e.key, e.value FROM jsonb_each(floors) AS e LOOP
        PERFORM uid_ticket._check_name(f.key);
        IF to_regclass(format('uid_ticket.%I', f.key)) IS NULL THEN
            RAISE EXCEPTION 'ticket "%" does not exist', f.key
                USING ERRCODE = '42704',
                      HINT = 'The view uid_tickets lists the tickets; ticket_floors names only those.';
        END IF;
        IF jsonb_typeof(f.value) <> 'number'
           OR f.value::text::numeric <> trunc(f.value::text::numeric)
           OR f.value::text::numeric > 9223372036854775807
           OR f.value::text::numeric < -9223372036854775808 THEN
            RAISE EXCEPTION 'invalid floor for ticket "%": %', f.key, f.value::text
                USING ERRCODE = '22023',
                      HINT = 'A floor is a bigint: the next ticket is above it.';
        END IF;
    END LOOP;

    FOR f IN SELECT s.subname FROM pg_subscription s
             JOIN pg_database d ON d.oid = s.subdbid
             WHERE d.datname = current_database() AND s.subenabled
             ORDER BY 1 LOOP
        RAISE WARNING 'subscription "%" is enabled: rows it applies after uid_catch_up() are not covered', f.subname
            USING HINT = 'Stop the writes on the old server, wait until the subscription has applied them, and disable it first (ALTER SUBSCRIPTION ... DISABLE).';
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_check(boolean, jsonb, interval, bigint) IS
'Part of uid_catch_up(): its arguments checked (22004, 25000, 22023, 42704); a warning for each enabled subscription.';

-- The columns uid_catch_up() reads, in the order of their tables' OIDs
-- (the order in which concurrent calls lock them): those whose default
-- calls uid_next(), uuid7(), uuidv7() or uid_ticket_next() (kind uid_next,
-- uuid7, ticket), and those that draw from an adopted sequence (kind
-- uid_next, with its INCREMENT).  A partition whose partitioned ancestor
-- has the same default on the same column is read through the ancestor.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_columns()
RETURNS TABLE (kind text, rel regclass, attname name, inc bigint, seq regclass, expr text, typ oid)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH gen AS (
        SELECT p.oid,
               CASE p.proname WHEN 'uid_next' THEN 'uid_next'::text
                              WHEN 'uid_ticket_next' THEN 'ticket' ELSE 'uuid7' END AS kind
        FROM pg_proc p
        JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid
                        AND e.refclassid = 'pg_extension'::regclass AND e.deptype = 'e'
        JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'uid'
        WHERE (p.proname = 'uid_next' AND p.pronargs = 0)
           OR (p.proname = 'uuid7' AND p.pronargs = 0)
           OR p.proname = 'uuidv7'
           OR (p.proname = 'uid_ticket_next' AND p.pronargs = 1)),
    adopted AS (
        SELECT l.objoid AS seq, s.seqincrement AS inc
        FROM pg_seclabel l
        JOIN pg_sequence s ON s.seqrelid = l.objoid
        WHERE l.classoid = 'pg_class'::regclass AND l.provider = 'uid'),
    col AS (
        SELECT gen.kind, ad.adrelid AS rel, a.attname, 1::bigint AS inc, NULL::regclass AS seq,
               pg_get_expr(ad.adbin, ad.adrelid) AS expr
        FROM pg_depend d
        JOIN gen ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = gen.oid
        JOIN pg_attrdef ad ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
        JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        UNION
        SELECT 'uid_next', sc.tbl::oid, sc.col, adopted.inc, adopted.seq::regclass, NULL
        FROM adopted, @extschema@.uid_sequence_columns(adopted.seq::regclass) AS sc)
    SELECT c1.kind, c1.rel::regclass, c1.attname, c1.inc, c1.seq, c1.expr,
           coalesce(nullif(ty.typbasetype, 0), ty.oid)
    FROM col c1
    JOIN pg_class k ON k.oid = c1.rel
    JOIN pg_attribute a ON a.attrelid = c1.rel AND a.attname = c1.attname
    JOIN pg_type ty ON ty.oid = a.atttypid
    WHERE k.relkind = ANY ('{r,p}'::"char"[])
      AND NOT (k.relispartition AND EXISTS (
            SELECT 1 FROM pg_partition_ancestors(c1.rel::regclass) an
            JOIN col c2 ON c2.rel = an.relid::oid
            WHERE an.relid::oid <> c1.rel AND c2.kind = c1.kind AND c2.attname = c1.attname))
    ORDER BY c1.rel, c1.attname, c1.kind
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_columns() IS
'Part of uid_catch_up(): the columns whose default calls uid_next(), uuid7(), uuidv7() or uid_ticket_next(), or that draw from an adopted sequence, with their generator, INCREMENT, default and type.';

-- One column of a generator (kind uid_next or uuid7): checked, locked
-- (unless dry_run) and read.  A caller of an adopted sequence with
-- INCREMENT n may store up to n - 1 values above the one it drew: the
-- value counted (uid_value) is the greatest plus n - 1.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_read(kind text, rel regclass, col name, inc bigint, seq regclass,
                                                    typ oid, dry_run boolean, reading text,
                                                    OUT stored_max text, OUT action text,
                                                    OUT uid_value bigint, OUT uuid_value uuid)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM @extschema@.uid_catch_up_lock(rel, col, dry_run);
    IF typ <> ALL (CASE WHEN kind = 'uuid7' THEN '{uuid}'::regtype[]::oid[]
                        ELSE ARRAY['int2', 'int4', 'int8', '@extschema@.uid']::regtype[]::oid[] END) THEN
        RAISE WARNING 'column % of table % is not % column: not read', col, rel,
                      CASE WHEN kind = 'uuid7' THEN 'a uuid' ELSE 'an integer' END
            USING HINT = CASE WHEN kind = 'uuid7'
                              THEN 'Move uuid7() past its values by hand with uuid7_advance_past().'
                              ELSE 'Move uid_next() past its values by hand with uid_advance_past().' END;
        action := 'not read: not of its generator''s type';
        RETURN;
    END IF;
    IF kind = 'uuid7' THEN
        uuid_value := @extschema@.uid_stored_max_uuid7(rel, col);
        stored_max := uuid_value::text;
        action := CASE WHEN uuid_value IS NULL THEN reading || ': no version 7 value' ELSE reading END;
        RETURN;
    END IF;
    uid_value := @extschema@.uid_stored_max(rel, col);
    IF uid_value IS NOT NULL THEN
        uid_value := LEAST(uid_value::numeric + (inc - 1), 9223372036854775807)::bigint;
    END IF;
    stored_max := uid_value::text;
    action := CASE WHEN seq IS NULL THEN reading
                   ELSE format('%s (adopted sequence %s%s)', reading, seq,
                               CASE WHEN inc > 1 THEN format(', INCREMENT %s: the value plus %s', inc, inc - 1)
                                    ELSE '' END) END;
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_read(text, regclass, name, bigint, regclass, oid, boolean, text) IS
'Part of uid_catch_up(): one column of uid_next() or uuid7() checked, locked unless dry_run, and read: its greatest value (plus INCREMENT - 1 for an adopted sequence) and the row''s action.';

-- The columns that draw from a ticket sequence (a default that calls it,
-- or calls uid_ticket_next() with its name; calls: the columns of kind
-- ticket of _catch_up_columns()), each checked, locked (unless dry_run)
-- and read.  Any role may write a default that names a ticket and store
-- what it likes in that column without ever drawing from it: a column
-- whose table's owner may not draw from the sequence is left alone (not
-- locked, not read), as uid_adopt() leaves it.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_ticket_columns(seq regclass, name text, call_rel regclass[],
                                                              call_col name[], call_expr text[],
                                                              dry_run boolean, reading text)
RETURNS TABLE (rel regclass, col name, stored numeric, action text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    IF NOT has_sequence_privilege(seq, 'SELECT') OR (NOT dry_run AND NOT has_sequence_privilege(seq, 'UPDATE')) THEN
        RAISE EXCEPTION 'permission denied for ticket sequence %', seq
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() reads every ticket sequence and moves it with setval(): run it as a role with SELECT and UPDATE on each (a superuser).';
    END IF;
    FOR r IN
        SELECT u.tbl, u.attname, u.may_draw, coalesce(nullif(ty.typbasetype, 0), ty.oid) AS typ
        FROM (SELECT su.tbl, su.col AS attname, su.may_draw FROM @extschema@.uid_sequence_users(seq) AS su
              UNION
              SELECT x.tbl, x.attname, @extschema@.uid_sequence_may_draw(x.tbl, seq)
              FROM ROWS FROM (unnest(call_rel), unnest(call_col), unnest(call_expr)) AS x(tbl, attname, expr)
              WHERE strpos(x.expr, format('uid_ticket_next(%L::text)', name)) > 0) AS u
        JOIN pg_attribute a ON a.attrelid = u.tbl AND a.attname = u.attname
        JOIN pg_type ty ON ty.oid = a.atttypid
        ORDER BY 1, 2
    LOOP
        rel := r.tbl;
        col := r.attname;
        stored := NULL;
        IF NOT r.may_draw THEN
            RAISE WARNING 'column %.% is left alone: it draws from ticket sequence %, but its table''s owner may not', rel, col, seq
                USING HINT = format('If its values are tickets of %s, grant USAGE on the sequence to the table''s owner, or pass the greatest in ticket_floors: ''{"%s": ...}''.', seq, name);
            action := format('left alone: its table''s owner may not draw from %s', seq);
        ELSE
            PERFORM @extschema@.uid_catch_up_lock(rel, col, dry_run);
            IF r.typ <> ALL (ARRAY['int2', 'int4', 'int8', '@extschema@.uid']::regtype[]::oid[]) THEN
                RAISE WARNING 'column % of table % is not an integer column: not read', col, rel
                    USING HINT = format('Pass the greatest ticket it holds in ticket_floors: ''{"%s": ...}''.', name);
                action := 'not read: not an integer column';
            ELSE
                stored := @extschema@.uid_stored_max(rel, col);
                action := reading;
            END IF;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_ticket_columns(regclass, text, regclass[], name[], text[], boolean, text) IS
'Part of uid_catch_up(): the columns that draw from the ticket sequence, each checked, locked unless dry_run and read (stored NULL: not read), or left alone if its table''s owner may not draw from the sequence.';

-- Where a ticket sequence moves: its next ticket must be above col_max
-- (the greatest stored value) and the floor given, and keep its node's
-- residue (congruent to its START modulo its INCREMENT).  A stored value
-- that would move it more than ticket_ahead draws past its next ticket (or
-- the floor given) is refused, and so is one no ticket of the series can
-- be above.  val NULL: no change.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_ticket_plan(seq regclass, name text, col_max numeric, col_where text,
                                                           floors jsonb, ticket_ahead bigint, dry_run boolean,
                                                           OUT val bigint, OUT called boolean,
                                                           OUT stored_max text, OUT action text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s          pg_sequence;
    seq_last   bigint;
    seq_called boolean;
    cur_next   numeric;
    target     numeric;
    floor_v    bigint;
    floor_next numeric;
    base       numeric;
    draws      numeric;
BEGIN
    SELECT * INTO s FROM pg_sequence WHERE seqrelid = seq;
    EXECUTE format('SELECT last_value, is_called FROM %s', seq) INTO seq_last, seq_called;
    cur_next := CASE WHEN seq_called THEN seq_last::numeric + s.seqincrement ELSE seq_last END;
    -- the smallest ticket of the series above the stored values, and above
    -- the floor; the stored values are measured from the sequence's next
    -- ticket, or the floor's if higher
    target := CASE WHEN col_max IS NULL OR col_max < s.seqstart THEN s.seqstart
                   ELSE s.seqstart + ((div(col_max - s.seqstart, s.seqincrement) + 1) * s.seqincrement) END;
    IF floors ? name THEN
        floor_v := (floors ->> name)::numeric::bigint;
        floor_next := CASE WHEN floor_v < s.seqstart THEN s.seqstart
                           ELSE s.seqstart + ((div(floor_v::numeric - s.seqstart, s.seqincrement) + 1) * s.seqincrement) END;
        IF col_max IS NULL OR floor_v > col_max THEN
            col_max := floor_v;
            col_where := 'the floor given';
            target := floor_next;
        END IF;
    END IF;
    base := GREATEST(cur_next, floor_next);
    stored_max := col_max::text;
    IF target <= cur_next THEN
        -- a sequence that has handed out its last ticket has no next one
        action := CASE WHEN cur_next > s.seqmax
                       THEN format('already past: no ticket left (its last draw was %s)', seq_last)
                       ELSE format('already past: next ticket %s', cur_next) END;
        RETURN;
    END IF;
    -- (every number printed is a value of the column, the floor, or the
    -- sequence's bounds: all within bigint)
    IF target > s.seqmax THEN
        RAISE EXCEPTION 'ticket sequence % cannot move past % (%): its last ticket is %', seq, col_max, col_where, s.seqmax
            USING ERRCODE = '2200H',
                  DETAIL = 'Nothing was changed.',
                  HINT = 'Check the stored values and the floor given; create a new ticket for the column if they are right.';
    END IF;
    draws := div(target - base, s.seqincrement);
    IF draws > ticket_ahead THEN
        RAISE EXCEPTION 'a stored ticket, % %, would move ticket sequence % % draws past %',
                        col_max, col_where, seq, draws,
                        format(CASE WHEN base > cur_next THEN 'the ticket its floor asks for (%s)'
                                    ELSE 'its next ticket (%s)' END, base)
            USING ERRCODE = 'UID05',
                  DETAIL = format('uid_catch_up() moves a ticket sequence at most ticket_ahead (%s) draws past its next ticket (or the floor given): nothing was changed.', ticket_ahead),
                  HINT = format('If the value is right (the old server handed out that many tickets), run uid_catch_up() again with ticket_ahead => %s; if not, correct or remove the row.', draws);
    END IF;
    -- setval(seq, target - increment, true) where that is a value of the
    -- series, so that uid_tickets shows the last ticket handed out
    called := target > s.seqstart;
    val := (CASE WHEN called THEN target - s.seqincrement ELSE target END)::bigint;
    action := CASE WHEN dry_run THEN 'would set: ' ELSE 'set: ' END || format('next ticket %s', target);
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_ticket_plan(regclass, text, numeric, text, jsonb, bigint, boolean) IS
'Part of uid_catch_up(): the setval() that moves the ticket sequence past the stored values and the floor given, keeping its residue (val NULL: already past), and the row''s action; 2200H or UID05 for a move it refuses.';

-- Every limit, before anything changes.  A value ahead of the clock would
-- hold the generator up until the clock gets there (uid_next() refuses with
-- UID01 meanwhile): a value planted by any role that may write to such a
-- table would stop every database's IDs.  Refused unless allow_ahead (and
-- uid.clock_max_wait_ms, which uid_next() waits out silently) covers it.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_check_ahead(uid_max bigint, uid_where text, uuid_max uuid,
                                                           uuid_where text, allow_ahead interval, dry_run boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ahead_ok interval := GREATEST(allow_ahead, current_setting('uid.clock_max_wait_ms')::interval);
    f        record;
BEGIN
    FOR f IN
        SELECT x.what, x.val, x.at, x.mover, x.src,
               round((date_part('epoch', x.at - clock_timestamp()) * 1000)::numeric) AS ms
        FROM (VALUES ('uid', uid_max::text, @extschema@.uid_time(uid_max), 'uid_advance_past() moves uid_next()', uid_where),
                     ('UUID', uuid_max::text, @extschema@.uuid7_time(uuid_max), 'uuid7_advance_past() moves uuid7()', uuid_where))
             AS x(what, val, at, mover, src)
        WHERE x.at > (clock_timestamp() + ahead_ok)
    LOOP
        IF f.at > (clock_timestamp() + '1 day'::interval) THEN
            RAISE EXCEPTION 'a stored %, % in %, carries the time %, more than a day ahead of this server''s clock',
                            f.what, f.val, f.src, f.at
                USING ERRCODE = 'UID05',
                      DETAIL = f.mover || ' at most a day past the clock; nothing was changed.',
                      HINT = format('Check the value and this server''s clock; uid_catch_up() can move past it once the clock is past %s (see "Moving the writes: uid_catch_up()" in docs/operations.md).',
                                    f.at - '1 day'::interval);
        END IF;
        RAISE EXCEPTION 'a stored %, % in %, carries the time %, % ms ahead of this server''s clock',
                        f.what, f.val, f.src, f.at, f.ms
            USING ERRCODE = 'UID05',
                  DETAIL = format('Moving past it would hold %s up for %s ms: nothing was changed.',
                                  CASE f.what WHEN 'uid' THEN 'uid_next() (refusing with UID01)' ELSE 'uuid7()' END, f.ms),
                  HINT = 'If the value is right (the old server''s clock runs ahead of this one''s), run uid_catch_up() again with allow_ahead => an interval that covers it; if not, correct or remove the row.';
    END LOOP;
    IF NOT dry_run AND (
        (uid_max IS NOT NULL AND NOT has_function_privilege('@extschema@.uid_advance_past(bigint)'::regprocedure, 'EXECUTE'))
        OR (uuid_max IS NOT NULL AND NOT has_function_privilege('@extschema@.uuid7_advance_past(uuid)'::regprocedure, 'EXECUTE'))) THEN
        RAISE EXCEPTION 'permission denied for function uid_advance_past or uuid7_advance_past'
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() moves the generators with them: grant EXECUTE on both to the role that runs it, or run it as a superuser.';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_check_ahead(bigint, text, uuid, text, interval, boolean) IS
'Part of uid_catch_up(): UID05 for a stored uid or UUID ahead of the clock by more than allow_ahead (or a day), 42501 without EXECUTE on the functions that move the generators.';

-- The generators moved past the greatest stored values (not transactional,
-- so before the sequences: a failure of the first leaves everything as it
-- was); a row for each.
CREATE OR REPLACE FUNCTION uid_adopt._catch_up_move(uid_max bigint, uuid_max uuid, dry_run boolean)
RETURNS TABLE (kind text, object text, column_name name, stored_max text, action text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ready text := '';
BEGIN
    kind := 'uid_next';
    object := 'uid_next()';
    stored_max := uid_max::text;
    IF uid_max IS NULL THEN
        action := 'nothing stored: no change';
    ELSE
        IF @extschema@.uid_time(uid_max) > clock_timestamp() THEN
            ready := format('; the clock is behind it: uid_next() waits or refuses (UID01) until %s',
                            @extschema@.uid_time(uid_max) + '1 ms'::interval);
        END IF;
        action := CASE WHEN dry_run THEN 'would advance past it (unless already past)' || ready
                       WHEN @extschema@.uid_advance_past(uid_max) THEN 'advanced past it' || ready
                       ELSE 'already past: no change' END;
    END IF;
    RETURN NEXT;
    kind := 'uuid7';
    object := 'uuid7()';
    stored_max := uuid_max::text;
    action := CASE WHEN uuid_max IS NULL THEN 'nothing stored: no change'
                   WHEN dry_run THEN 'would advance past it (unless already past)'
                   WHEN @extschema@.uuid7_advance_past(uuid_max) THEN 'advanced past it'
                   ELSE 'already past: no change' END;
    RETURN NEXT;
END
$$;

COMMENT ON FUNCTION uid_adopt._catch_up_move(bigint, uuid, boolean) IS
'Part of uid_catch_up(): uid_next() and uuid7() moved past the greatest stored values unless dry_run; a row for each.';

CREATE OR REPLACE FUNCTION uid_catch_up(dry_run boolean DEFAULT false,
                                        ticket_floors jsonb DEFAULT '{}',
                                        allow_ahead interval DEFAULT '0',
                                        ticket_ahead bigint DEFAULT 1000000000)
RETURNS TABLE (kind text, object text, column_name name, stored_max text, action text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    floors      jsonb := coalesce(ticket_floors, '{}'::jsonb);
    reading     text := CASE WHEN dry_run THEN 'read (dry run: no lock)' ELSE 'read under a SHARE lock' END;
    r           record;
    got         record;
    t           record;
    uid_max     bigint;
    uuid_max    uuid;
    uid_where   text;
    uuid_where  text;
    col_max     numeric;
    col_where   text;
    plan        record;
    plan_seq    regclass[] := '{}';
    plan_val    bigint[] := '{}';
    plan_called boolean[] := '{}';
    plan_row    text[] := '{}';
    plan_max    text[] := '{}';
    call_rel    regclass[] := '{}';
    call_col    name[] := '{}';
    call_expr   text[] := '{}';
BEGIN
    PERFORM uid_adopt._catch_up_check(dry_run, floors, allow_ahead, ticket_ahead);

    -- the columns of uid_next() and uuid7(); those of uid_ticket_next()
    -- are read with the ticket their default names, below
    FOR r IN SELECT * FROM uid_adopt._catch_up_columns() LOOP
        IF r.kind = 'ticket' THEN
            call_rel := call_rel || r.rel;
            call_col := call_col || r.attname;
            call_expr := call_expr || r.expr;
            CONTINUE;
        END IF;
        SELECT * INTO got FROM uid_adopt._catch_up_read(r.kind, r.rel, r.attname, r.inc, r.seq, r.typ, dry_run, reading);
        IF got.uid_value IS NOT NULL AND (uid_max IS NULL OR got.uid_value > uid_max) THEN
            uid_max := got.uid_value;
            uid_where := format('%s.%I', r.rel, r.attname);
        END IF;
        IF got.uuid_value IS NOT NULL AND (uuid_max IS NULL OR got.uuid_value > uuid_max) THEN
            uuid_max := got.uuid_value;
            uuid_where := format('%s.%I', r.rel, r.attname);
        END IF;
        RETURN QUERY SELECT r.kind, r.rel::text, r.attname, got.stored_max, got.action;
    END LOOP;

    -- the ticket sequences, each past the values of its columns and the
    -- floor given
    FOR t IN SELECT c.oid::regclass AS seq, c.relname AS name
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'uid_ticket' AND c.relkind = 'S'
             ORDER BY c.relname LOOP
        col_max := NULL;
        col_where := NULL;
        FOR got IN SELECT * FROM uid_adopt._catch_up_ticket_columns(t.seq, t.name::text, call_rel, call_col, call_expr,
                                                                    dry_run, reading) LOOP
            IF got.stored IS NOT NULL AND (col_max IS NULL OR got.stored > col_max) THEN
                col_max := got.stored;
                col_where := format('in %s.%I', got.rel, got.col);
            END IF;
            RETURN QUERY SELECT 'ticket'::text, got.rel::text, got.col, got.stored::text, got.action;
        END LOOP;
        SELECT * INTO plan FROM uid_adopt._catch_up_ticket_plan(t.seq, t.name::text, col_max, col_where, floors,
                                                                ticket_ahead, dry_run);
        plan_seq := plan_seq || t.seq;
        plan_val := plan_val || plan.val;
        plan_called := plan_called || plan.called;
        plan_max := plan_max || plan.stored_max;
        plan_row := plan_row || plan.action;
    END LOOP;

    -- every limit before anything changes; then the generators, then the
    -- sequences
    IF uid_max < 0 THEN
        uid_max := NULL;
    END IF;
    PERFORM uid_adopt._catch_up_check_ahead(uid_max, uid_where, uuid_max, uuid_where, allow_ahead, dry_run);
    RETURN QUERY SELECT * FROM uid_adopt._catch_up_move(uid_max, uuid_max, dry_run);
    FOR i IN 1 .. cardinality(plan_seq) LOOP
        IF NOT dry_run AND plan_val[i] IS NOT NULL THEN
            PERFORM setval(plan_seq[i], plan_val[i], plan_called[i]);
        END IF;
        RETURN QUERY SELECT 'ticket'::text, plan_seq[i]::text, NULL::name, plan_max[i], plan_row[i];
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) IS
'Run on a server before its first write when it takes over another''s writes: moves uid_next() and uuid7() past every value stored in columns that use them (or an adopted sequence), and each ticket sequence past the values of the columns that draw from it (those of a table whose owner may not draw from it are left alone) and the floor given in ticket_floors, keeping its residue; one row per column read or left alone and per action. Each table is read as its owner (security-restricted). A stored value ahead of this server''s clock by more than allow_ahead (and uid.clock_max_wait_ms), or a stored ticket that would move its sequence more than ticket_ahead draws, is refused with UID05. dry_run: read and report only. Superuser only unless granted.';

REVOKE ALL ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) FROM PUBLIC;
-- uid_tenure_overlaps(), what the UidTenureOverlap alert tells operators
-- to run, over uid_tenures() (sql/parts/tenure.sql).  Also run by the upgrade
-- from 1.3, which replaced a call of uid_tenures() that left out its
-- defaulted argument: a function of another role under that name with no
-- arguments (the constructor of a multirange type, which CREATE TYPE makes)
-- made it ambiguous (42725).  Every call passes every argument, of exactly
-- the declared types.

CREATE OR REPLACE FUNCTION uid_tenure_overlaps(
    OUT worker_id integer,
    OUT token_a bigint, OUT system_identifier_a numeric, OUT host_a text, OUT port_a integer,
    OUT first_ms_a bigint, OUT last_ms_a bigint,
    OUT token_b bigint, OUT system_identifier_b numeric, OUT host_b text, OUT port_b integer,
    OUT first_ms_b bigint, OUT last_ms_b bigint)
RETURNS SETOF record
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH t AS MATERIALIZED (
        SELECT * FROM @extschema@.uid_tenures(NULL::pg_catalog.int4) AS u
        WHERE u.first_ms <= u.last_ms)
    SELECT a.worker_id, a.token, a.system_identifier, a.host, a.port, a.first_ms, a.last_ms,
           b.token, b.system_identifier, b.host, b.port, b.first_ms, b.last_ms
    FROM t AS a JOIN t AS b ON b.worker_id = a.worker_id
     AND (a.first_ms < b.first_ms
          OR (a.first_ms = b.first_ms AND a.token < b.token))
     AND b.first_ms <= a.last_ms
    ORDER BY a.worker_id, a.first_ms, b.first_ms
$$;

COMMENT ON FUNCTION uid_tenure_overlaps() IS
'Every pair of tenures of one worker id whose windows of milliseconds overlap: two servers could have issued the same id. Empty on a healthy fleet.';

REVOKE ALL ON FUNCTION uid_tenure_overlaps() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_tenure_overlaps() TO pg_monitor;
-- ---------------------------------------------------------------------------
-- No other function under the name of one of uid's, in uid's schema
-- ---------------------------------------------------------------------------

-- pg_dump writes a call of uid's function with its schema and without its
-- arguments' types: DEFAULT public.uid_next().  A function another role
-- creates in that schema under the same name, which can be called with the
-- same arguments (public.uid_next(x integer DEFAULT 0)), changes nothing in
-- the database, whose defaults name their function by OID; but every
-- restore of its dump then fails at that default ("function
-- public.uid_next() is not unique"), and the table and its rows are not
-- restored, and every call of public.uid_next() by name fails the same
-- way.  Every role may create in public on clusters upgraded from 14 or
-- older (and the owner of a database owns it from 15 on), so a role that
-- cannot read the data could keep it out of every restore.  This
-- event trigger refuses such a function when it is created, renamed or
-- moved into uid's schema (42723): any function there under a name of one
-- of uid's functions that is not uid's own (a member of the extension, as
-- every function its scripts create, CREATE OR REPLACE of ALTER EXTENSION
-- UPDATE included, already is when the trigger fires).  A dump taken
-- before it existed restores its tables: the restore's CREATE FUNCTION of
-- the planted function is the statement that fails.  It runs as the role
-- whose command fired it and only reads the catalog.

CREATE OR REPLACE FUNCTION uid_guard_names()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cmd record;
    ext oid;
    ext_schema oid;
    fn record;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, ext_schema
    FROM pg_catalog.pg_extension e WHERE e.extname = 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    FOR cmd IN SELECT c.objid FROM pg_catalog.pg_event_trigger_ddl_commands() c
               WHERE c.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass LOOP
        SELECT p.proname, p.pronamespace INTO fn
        FROM pg_catalog.pg_proc p WHERE p.oid = cmd.objid;
        CONTINUE WHEN NOT FOUND OR fn.pronamespace <> ext_schema;
        -- uid's own
        CONTINUE WHEN EXISTS (
            SELECT FROM pg_catalog.pg_depend d
            WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
              AND d.objid = cmd.objid
              AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
              AND d.refobjid = ext
              AND d.deptype = 'e');
        IF EXISTS (
            SELECT FROM pg_catalog.pg_proc p
            JOIN pg_catalog.pg_depend d
              ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND d.objid = p.oid
             AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND d.refobjid = ext
             AND d.deptype = 'e'
            WHERE p.proname = fn.proname
              AND p.pronamespace = ext_schema) THEN
            RAISE EXCEPTION USING
                ERRCODE = 'duplicate_function',
                MESSAGE = pg_catalog.format('function %s has the name of a function of uid in uid''s schema %I',
                                            cmd.objid::pg_catalog.regprocedure, ext_schema::pg_catalog.regnamespace),
                DETAIL = 'A dump names uid''s function by its schema and name; with a second function of that name there, its restore can fail.',
                HINT = 'Create the function in another schema or under another name.';
        END IF;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_guard_names() IS
'Event trigger: refuses a function that is not uid''s created, renamed or moved into uid''s schema under the name of one of uid''s functions (42723), which would make restores of dumps that call uid''s function fail.';

REVOKE ALL ON FUNCTION uid_guard_names() FROM PUBLIC;

-- ---------------------------------------------------------------------------
-- A DEFAULT of uid's generators only on a column that holds every value
-- ---------------------------------------------------------------------------

-- PostgreSQL accepts DEFAULT uid_next() on an integer column (the default
-- is the call with an assignment cast to integer) and fails at the first
-- INSERT with a bare "integer out of range".  This event trigger refuses
-- it when the default is set (42804): CREATE TABLE (also LIKE ... INCLUDING
-- DEFAULTS and PARTITION OF), ALTER TABLE ... ADD COLUMN, ALTER COLUMN ...
-- SET DEFAULT and ALTER COLUMN ... TYPE.  A column default whose expression
-- calls uid_next() must be of a type that holds every ID: bigint, uid,
-- numeric (unconstrained, or with at least 19 digits before the point),
-- text, varchar or char (unconstrained, or at least 19 characters); one
-- that calls uuid7() or uuidv7(): uuid, text, varchar or char
-- (unconstrained, or at least 36 characters); a domain by its base type.
-- A command that rewrites the table (ADD COLUMN with such a default,
-- ALTER COLUMN ... TYPE) evaluates the default for every row before it
-- ends, so the same check runs at table_rewrite, before the rewrite
-- (event trigger uid_guard_defaults_rewrite).  It goes by the catalog
-- only: the default's dependencies on uid's own functions (pg_depend,
-- members of the extension), the column's type and uid's type in the
-- extension's schema, so it calls nothing another role created.  It runs
-- as the role whose command fired it, and fires for each ALTER TABLE of a
-- table, so a table that already had such a default (from before 1.4) is
-- refused there until its column is widened or its default dropped.

CREATE FUNCTION uid_guard_defaults()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext oid;
    ext_schema oid;
    uid_type oid;
    rels oid[];
    col record;
    dom record;
    base oid;
    typmod integer;
    fits boolean;
    width integer;
BEGIN
    SELECT e.oid, e.extnamespace INTO ext, ext_schema
    FROM pg_catalog.pg_extension e WHERE e.extname = 'uid';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- uid's schema holds its type: no other type of that name can be there
    SELECT t.oid INTO uid_type
    FROM pg_catalog.pg_type t
    WHERE t.typname = 'uid' AND t.typnamespace = ext_schema;
    -- a rewrite (ADD COLUMN with a volatile default, ALTER COLUMN ... TYPE)
    -- evaluates the default for every row before the command ends: check
    -- the table as the catalog already has it, before the rewrite
    IF TG_EVENT = 'table_rewrite' THEN
        rels := ARRAY[pg_catalog.pg_event_trigger_table_rewrite_oid()];
    ELSE
        SELECT pg_catalog.array_agg(DISTINCT c.objid) INTO rels
        FROM pg_catalog.pg_event_trigger_ddl_commands() c
        WHERE c.classid = 'pg_catalog.pg_class'::pg_catalog.regclass;
    END IF;
    FOR col IN
        SELECT DISTINCT a.attrelid, a.attname, a.atttypid, a.atttypmod, p.proname
        FROM pg_catalog.pg_attrdef ad
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        JOIN pg_catalog.pg_depend dd
          ON dd.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
         AND dd.objid = ad.oid
         AND dd.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
        JOIN pg_catalog.pg_proc p ON p.oid = dd.refobjid
        JOIN pg_catalog.pg_depend de
          ON de.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
         AND de.objid = p.oid
         AND de.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
         AND de.refobjid = ext
         AND de.deptype = 'e'
        WHERE ad.adrelid = ANY (rels)
          AND p.proname = ANY (ARRAY['uid_next', 'uuid7', 'uuidv7']::pg_catalog.name[])
          AND NOT a.attisdropped
        ORDER BY a.attrelid, a.attname
    LOOP
        -- a domain by its base type, and the first typmod on the way
        base := col.atttypid;
        typmod := col.atttypmod;
        LOOP
            SELECT t.typtype, t.typbasetype, t.typtypmod INTO STRICT dom
            FROM pg_catalog.pg_type t WHERE t.oid = base;
            EXIT WHEN dom.typtype <> 'd';
            IF typmod < 0 THEN
                typmod := dom.typtypmod;
            END IF;
            base := dom.typbasetype;
        END LOOP;
        width := CASE WHEN col.proname = 'uid_next' THEN 19 ELSE 36 END;
        fits := CASE
            WHEN base = ANY (ARRAY['pg_catalog.text'::pg_catalog.regtype,
                                                         'pg_catalog.varchar'::pg_catalog.regtype,
                                                         'pg_catalog.bpchar'::pg_catalog.regtype]::pg_catalog.oid[])
                THEN typmod < 0 OR typmod - 4 >= width
            WHEN col.proname <> 'uid_next'
                THEN base = 'pg_catalog.uuid'::pg_catalog.regtype
            WHEN base = 'pg_catalog.numeric'::pg_catalog.regtype
                THEN typmod < 0
                     OR ((typmod - 4) >> 16)
                        - ((typmod - 4) & 65535)
                        >= width
            ELSE base = 'pg_catalog.int8'::pg_catalog.regtype
                 OR base = uid_type
        END;
        CONTINUE WHEN fits;
        RAISE EXCEPTION USING
            ERRCODE = 'datatype_mismatch',
            MESSAGE = pg_catalog.format('column %I of %s cannot hold the values of its default %s()',
                                        col.attname, col.attrelid::pg_catalog.regclass, col.proname),
            DETAIL = pg_catalog.format('The column''s type is %s; %s',
                                       pg_catalog.format_type(col.atttypid, col.atttypmod),
                                       CASE WHEN col.proname = 'uid_next'
                                            THEN 'uid_next() returns bigint IDs of 19 digits, which it cannot hold: the first INSERT would fail.'
                                            ELSE pg_catalog.format('%s() returns a uuid.', col.proname) END),
            HINT = CASE WHEN col.proname = 'uid_next'
                        THEN 'Make the column bigint or uid.'
                        ELSE 'Make the column uuid.' END;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_guard_defaults() IS
'Event trigger: refuses a column default that calls uid_next() on a column whose type cannot hold every ID (bigint, uid, numeric or text do), or uuid7() / uuidv7() on one that cannot hold a UUID (42804).';

REVOKE ALL ON FUNCTION uid_guard_defaults() FROM PUBLIC;

CREATE EVENT TRIGGER uid_guard_defaults ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE')
    EXECUTE FUNCTION uid_guard_defaults();

CREATE EVENT TRIGGER uid_guard_defaults_rewrite ON table_rewrite
    WHEN TAG IN ('ALTER TABLE')
    EXECUTE FUNCTION uid_guard_defaults();
-- ---------------------------------------------------------------------------
-- Leaving shared_preload_libraries (src/core/wal_removal.c).  Also run by
-- the upgrade from 1.3.
-- ---------------------------------------------------------------------------

-- Reads server state (replication slots, standbys' replay positions, the
-- checkpoint): for superusers and pg_monitor, as pg_stat_replication's
-- positions are.
CREATE OR REPLACE FUNCTION uid_removal_check(
    OUT ready boolean,
    OUT what text,
    OUT lsn pg_lsn,
    OUT detail text,
    OUT action text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_removal_check'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION uid_removal_check() IS
'Whether uid can leave shared_preload_libraries now: a first row with the verdict and the end of uid''s last WAL record, then one row per thing that would read that record (crash recovery, logical and physical slots, standbys, backups and archives), with what to do. For superusers and pg_monitor.';

REVOKE ALL ON FUNCTION uid_removal_check() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uid_removal_check() TO pg_monitor;
