-- uid 1.2 -> 1.3: adopting existing tables and sequences, the tenure ledger,
-- and uid's own tables under publications of every table.
-- The Makefile builds sql/uid--1.2--1.3.sql from this file, what changes
-- in place (tables altered, objects replaced, rows moved), followed by the
-- parts whose objects are new in 1.3 (sql/parts/owner_read.sql, adopt.sql,
-- tenure.sql and catch_up.sql), so that each is written once.
-- Each section below belongs to one concern; keep them apart.  Every
-- operator and call is qualified: this script runs with the extension's
-- schema on the search path, where other roles may create objects.

\echo Use "ALTER EXTENSION uid UPDATE TO '1.3'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- The tenure ledger's counts in uid_stats (src/stats_sql.c; the ledger
-- itself: sql/parts/tenure.sql)
-- ---------------------------------------------------------------------------
-- The ledger's state for monitoring: uid_lease_ledger(), and two columns
-- more at the end of the uid_stats view.
CREATE FUNCTION uid_lease_ledger(OUT tenures bigint, OUT tenure_overlaps bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease_ledger'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid_lease_ledger() IS
'The tenure ledger of the lease store as this server''s lease worker last counted it (every 10 s at most): tenures recorded, and pairs of tenures of one worker id that overlap (an alarm). NULL before the first count.';

GRANT EXECUTE ON FUNCTION uid_lease_ledger() TO pg_monitor;

CREATE OR REPLACE VIEW uid_stats AS
SELECT s.worker_id, s.ids_issued, s.uuids_issued, s.batch_calls,
       s.clock_waits, s.clock_refusals, s.max_clock_step_ms, s.overflow_waits,
       s.reserve_writes, s.last_issued_at, s.reserved_until, s.clock_steps,
       s.stats_reset, s.layout_ends_at, s.layout_days_left,
       l.mode AS lease_mode, l.state AS lease_state, l.token AS lease_token,
       l.expires_at AS lease_expires_at, l.renewed_at AS lease_renewed_at,
       l.renewal_failures AS lease_renewal_failures, l.free_ids AS lease_free_ids,
       t.tenures AS lease_tenures, t.tenure_overlaps AS lease_tenure_overlaps
FROM @extschema@.uid_stats_1_1() s
CROSS JOIN @extschema@.uid_lease_status() l
CROSS JOIN @extschema@.uid_lease_ledger() t;

COMMENT ON VIEW uid_stats IS
'One row per server: worker id and lease, IDs and UUIDs issued, clock waits and refusals, overflow waits, durable reservation, days left in the layout, the tenure ledger''s tenures and overlaps.';

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

-- The error of a ticket name that has no sequence on this server: another
-- server's ticket when _tickets has its metadata (replicated here), else
-- none at all.
CREATE FUNCTION uid_ticket._absent(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    other record;
BEGIN
    SELECT pg_catalog.string_agg(t.node::text, ', ' ORDER BY t.node) AS nodes,
           pg_catalog.min(t.nodes) AS of_nodes
      INTO other
      FROM uid_ticket._tickets t
     WHERE t.name OPERATOR(pg_catalog.=) $1;
    IF other.nodes IS NOT NULL THEN
        RAISE EXCEPTION 'ticket "%" is ticket metadata from another node: it has no sequence on this server', $1
            USING ERRCODE = '55000',
                  DETAIL = pg_catalog.format('uid_ticket._tickets lists node %s of %s (replicated from the servers that created them); sequences are not replicated.',
                                             other.nodes, other.of_nodes),
                  HINT = 'Draw from the server that created it, or give this server its own series: uid_ticket_create(name, node, nodes) with a node no other server of the set uses.';
    END IF;
    RAISE EXCEPTION 'ticket "%" does not exist', $1
        USING ERRCODE = '42704',
              HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
END
$$;

COMMENT ON FUNCTION uid_ticket._absent(text) IS
'Raises the error of a ticket without a sequence here: 55000 when _tickets holds another server''s metadata of that name, else 42704.';

CREATE OR REPLACE FUNCTION uid_ticket_create(name text, node integer, nodes integer DEFAULT 2,
                                  block integer DEFAULT 1)
RETURNS regclass
LANGUAGE plpgsql VOLATILE
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
    IF t_nodes IS NULL OR t_nodes OPERATOR(pg_catalog.<) 1
       OR t_nodes OPERATOR(pg_catalog.>) 1024 THEN
        RAISE EXCEPTION 'invalid number of ticket nodes: %', coalesce(t_nodes::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'nodes is the number of servers sharing the series, 1 to 1024 (2 for an odd/even pair).';
    END IF;
    IF t_node IS NULL OR t_node OPERATOR(pg_catalog.<) 1
       OR t_node OPERATOR(pg_catalog.>) t_nodes THEN
        RAISE EXCEPTION 'invalid ticket node: % (nodes = %)', coalesce(t_node::text, 'NULL'), t_nodes
            USING ERRCODE = '22023',
                  HINT = 'node is this server''s place in the series, 1 to nodes; each server of the set needs a different one.';
    END IF;
    IF t_block IS NULL OR t_block OPERATOR(pg_catalog.<) 1
       OR t_block OPERATOR(pg_catalog.>) 1000000 THEN
        RAISE EXCEPTION 'invalid ticket block size: %', coalesce(t_block::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'block is the number of tickets one uid_ticket_next_block() call reserves, 1 to 1000000.';
    END IF;
    IF pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t_name)) IS NOT NULL THEN
        RAISE EXCEPTION 'ticket "%" already exists', t_name
            USING ERRCODE = '42710',
                  HINT = 'Drop it first with uid_ticket_drop(), or choose another name.';
    END IF;

    -- Rows without a sequence here: other servers' tickets of this name
    -- (replicated), or what a restore without the sequences left.  This
    -- server joins their set only with the same nodes and a node of its own.
    SELECT * INTO other FROM uid_ticket._tickets t
     WHERE t.name OPERATOR(pg_catalog.=) t_name
       AND (t.node OPERATOR(pg_catalog.=) t_node OR t.nodes OPERATOR(pg_catalog.<>) t_nodes)
     ORDER BY t.node OPERATOR(pg_catalog.=) t_node DESC, t.node
     LIMIT 1;
    IF FOUND AND other.node OPERATOR(pg_catalog.=) t_node THEN
        RAISE EXCEPTION 'ticket "%" node % already exists on another server', t_name, t_node
            USING ERRCODE = '42710',
                  DETAIL = 'uid_ticket._tickets has its metadata but this server has no sequence: another server of the set created it and its row was replicated here.',
                  HINT = 'Choose a node no other server of the set uses. To take over that node''s series from a server that no longer hands it out, drop the row with uid_ticket_drop(), create the ticket, and setval() it above that server''s last ticket.';
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION 'ticket "%" has nodes = % on another server, not %', t_name, other.nodes, t_nodes
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('uid_ticket._tickets has the metadata of node %s of %s, replicated from the server that created it.', other.node, other.nodes),
                  HINT = 'Every server of a set needs the same nodes: pass nodes => the set''s number of servers.';
    END IF;

    -- the last block must fit in bigint: its first ticket is the sequence's
    -- maximum value
    -- (OPERATOR() syntax has no precedence: parenthesise)
    maxv := 9223372036854775807 OPERATOR(pg_catalog.-)
            ((t_block::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t_nodes);

    EXECUTE pg_catalog.format(
        'CREATE SEQUENCE uid_ticket.%I AS bigint INCREMENT BY %s MINVALUE %s MAXVALUE %s START WITH %s CACHE 1 NO CYCLE',
        t_name, t_nodes::bigint OPERATOR(pg_catalog.*) t_block, t_node, maxv, t_node);
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
AS $$
DECLARE
    seq regclass;
BEGIN
    -- the hot path: the name check inline (PERFORM would cost a query)
    IF $1 IS NULL OR $1 OPERATOR(pg_catalog.!~) '^[a-z][a-z0-9_]{0,47}$' THEN
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
        ON s.seqrelid OPERATOR(pg_catalog.=) seq::pg_catalog.oid
       AND s.seqmin OPERATOR(pg_catalog.=) x.node
     WHERE x.name OPERATOR(pg_catalog.=) t_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ticket "%" does not exist', t_name
            USING ERRCODE = '42704',
                  DETAIL = 'Its sequence exists, but uid_ticket._tickets has no row of its node.',
                  HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
    END IF;
    want := coalesce(want, t.block);
    IF want OPERATOR(pg_catalog.<) 1 OR want OPERATOR(pg_catalog.>) t.block THEN
        RAISE EXCEPTION 'invalid ticket block size request: % (ticket "%" has blocks of %)', want, t_name, t.block
            USING ERRCODE = '22023',
                  HINT = 'Ask for a size of 1 to block tickets, or create the ticket with a larger block.';
    END IF;
    first := uid_ticket._nextval(seq);
    step := t.nodes;
    count := want;
    last := first OPERATOR(pg_catalog.+)
            ((want::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes);
    RETURN;
END
$$;

COMMENT ON FUNCTION uid_ticket_next_block(text, integer) IS
'Reserves size (default: the ticket''s block) tickets of this server''s series in one nextval(): first, first + step, ..., last.';

CREATE OR REPLACE FUNCTION uid_ticket_drop(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    seq regclass;
BEGIN
    PERFORM uid_ticket._check_name($1);
    seq := pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', $1));
    IF seq IS NULL THEN
        -- only other servers' metadata of this name: remove it
        DELETE FROM uid_ticket._tickets t WHERE t.name OPERATOR(pg_catalog.=) $1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'ticket "%" does not exist', $1
                USING ERRCODE = '42704',
                      HINT = 'The view uid_tickets lists the tickets.';
        END IF;
        RETURN;
    END IF;
    -- this server's ticket: its sequence and its own row; the rows of the
    -- other servers of its set stay theirs
    DELETE FROM uid_ticket._tickets t
     USING pg_catalog.pg_sequence s
     WHERE t.name OPERATOR(pg_catalog.=) $1
       AND s.seqrelid OPERATOR(pg_catalog.=) seq::pg_catalog.oid
       AND s.seqmin OPERATOR(pg_catalog.=) t.node;
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
CREATE FUNCTION uid_counter._bind_grant_role()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    NEW.role_oid := coalesce((SELECT r.oid FROM pg_catalog.pg_roles r
                               WHERE r.rolname OPERATOR(pg_catalog.=) NEW.role), 0);
    RETURN NEW;
END
$$;

COMMENT ON FUNCTION uid_counter._bind_grant_role() IS
'Trigger of uid_counter.grants: binds a row written on this server to the OID of the local role of its name (0 when there is none).';

REVOKE ALL ON FUNCTION uid_counter._bind_grant_role() FROM PUBLIC;

CREATE TRIGGER bind_role BEFORE INSERT OR UPDATE OF role ON uid_counter.grants
    FOR EACH ROW EXECUTE FUNCTION uid_counter._bind_grant_role();

-- Deleted grants of other servers' roles too, and the deletion reached
-- those servers: a grant now holds only for its role's name and OID.
DROP FUNCTION uid_counter._forget_dropped_roles();

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
     WHERE g.tenant OPERATOR(pg_catalog.=) c_tenant
       AND g.prefix OPERATOR(pg_catalog.=) c_prefix
       AND g.role_oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid
       AND g.role OPERATOR(pg_catalog.=) pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid);
    removed := FOUND;
    IF NOT EXISTS (SELECT 1 FROM uid_counter.grants g
                   WHERE g.role_oid OPERATOR(pg_catalog.=) c_role::pg_catalog.oid
                     AND g.role OPERATOR(pg_catalog.=) pg_catalog.pg_get_userbyid(c_role::pg_catalog.oid)) THEN
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM %s',
                                  uid_counter._next_entry(), c_role);
    END IF;
    RETURN removed;
END
$$;

COMMENT ON FUNCTION uid_counter_revoke(text, regrole, text) IS
'Removes exactly the grant (tenant, role, prefix) made by uid_counter_grant(); when the role has no grant left, also EXECUTE on uid_counter_next(). True if a grant was removed.';

CREATE VIEW uid_counter_grants AS
SELECT g.tenant, g.prefix, g.role, g.granted_at,
       EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.oid OPERATOR(pg_catalog.=) g.role_oid
                  AND r.rolname OPERATOR(pg_catalog.=) g.role) AS applies
FROM uid_counter.grants g;

COMMENT ON VIEW uid_counter_grants IS
'Counter grants: which role may draw the numbers of which tenant and prefix (''*'': all); applies is false for a dropped role and for a grant replicated from a server whose role of that name is another.';

-- Whether uid_counter.counters receives another writer's changes: a
-- subscription of this database lists it (src/counters.c; cached per
-- session until pg_subscription_rel changes).
CREATE FUNCTION uid_counter._replicated()
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_counter_replicated'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION uid_counter._replicated() IS
'True when a subscription of this database lists uid_counter.counters (pg_subscription_rel): counters then draw only from ranges of this server (uid.counter_node).';

-- The work of uid_counter_next(), after a grant check.
CREATE OR REPLACE FUNCTION uid_counter._next(tenant text, prefix text, caller oid)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c_tenant ALIAS FOR $1;
    c_prefix ALIAS FOR $2;
    c_caller ALIAS FOR $3;
    v_start  bigint;
    v_width  integer;
    r_lo     bigint;
    r_hi     bigint;
    r_node   text;
    here     text;
    refused  boolean;
    v        bigint;
BEGIN
    PERFORM uid_counter._check_tenant(c_tenant);
    PERFORM uid_counter._check_prefix(c_prefix);
    -- The grant, before anything is read, locked or written: the caller is a
    -- superuser, or has the privileges of a role granted (tenant, prefix)
    -- (pg_has_role ... USAGE, as for table privileges).  A grant counts only
    -- for the role of its name and OID (not a dropped role's successor, nor
    -- another server's role); others are skipped, never an error.  Written
    -- here, not in a function of its own, so that plpgsql keeps the plans
    -- for the session.
    IF c_caller IS NULL
       OR (NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                        WHERE r.oid OPERATOR(pg_catalog.=) c_caller AND r.rolsuper)
           AND NOT EXISTS (SELECT 1
                             FROM uid_counter.grants g
                             JOIN pg_catalog.pg_roles r
                               ON r.oid OPERATOR(pg_catalog.=) g.role_oid
                              AND r.rolname OPERATOR(pg_catalog.=) g.role
                            WHERE g.tenant OPERATOR(pg_catalog.=) ANY (ARRAY[c_tenant, '*'])
                              AND g.prefix OPERATOR(pg_catalog.=) ANY (ARRAY[c_prefix, '*'])
                              AND pg_catalog.pg_has_role(c_caller, r.oid, 'USAGE'))) THEN
        RAISE EXCEPTION 'permission denied for counter % of tenant %', c_prefix, pg_catalog.quote_literal(c_tenant)
            USING ERRCODE = '42501',
                  DETAIL = pg_catalog.format('Role %s holds no grant of tenant %s and prefix %s.',
                                             coalesce(pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(c_caller)), 'NULL'),
                                             pg_catalog.quote_literal(c_tenant), c_prefix),
                  HINT = 'An administrator grants it with uid_counter_grant(tenant, role[, prefix]).';
    END IF;

    -- ranges may not change under us (see the header of this part)
    LOCK TABLE uid_counter.ranges IN ROW SHARE MODE;
    IF pg_catalog.current_setting('transaction_isolation') OPERATOR(pg_catalog.<>) 'read committed' THEN
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

    SELECT coalesce(t.start, g.start, 1), coalesce(t.width, g.width, 3)
      INTO v_start, v_width
      FROM (SELECT 1) AS one
      LEFT JOIN uid_counter.settings t
             ON t.prefix OPERATOR(pg_catalog.=) c_prefix
            AND t.tenant OPERATOR(pg_catalog.=) c_tenant
      LEFT JOIN uid_counter.settings g
             ON g.prefix OPERATOR(pg_catalog.=) c_prefix
            AND g.tenant OPERATOR(pg_catalog.=) '';

    SELECT r.lo, r.hi, r.node INTO r_lo, r_hi, r_node
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix
       AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM uid_counter.ranges r
                   WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix) THEN
            RAISE EXCEPTION 'tenant % has no range of counter prefix %',
                    pg_catalog.quote_literal(c_tenant), c_prefix
                USING ERRCODE = '55000',
                      DETAIL = 'Other tenants own ranges of this prefix, so every tenant drawing from it needs one.',
                      HINT = 'Give the tenant a range with uid_counter_set_range().';
        END IF;
        r_lo := 0;
        r_hi := 9223372036854775806;
    END IF;

    -- Another writer: only a range of this server may be drawn from (see
    -- the header of this part).  _replicated() is cached per session.
    refused := CASE WHEN r_node IS NULL THEN uid_counter._replicated()
                    ELSE r_node IS DISTINCT FROM
                         NULLIF(pg_catalog.current_setting('uid.counter_node', true), '') END;
    IF refused THEN
        here := NULLIF(pg_catalog.current_setting('uid.counter_node', true), '');
        RAISE EXCEPTION 'counter %/% is not this server''s to draw from', c_prefix, c_tenant
            USING ERRCODE = 'UID06',
                  DETAIL = CASE WHEN r_node IS NOT NULL
                                THEN pg_catalog.format('Its range belongs to node %s; uid.counter_node is %s.',
                                                       pg_catalog.quote_literal(r_node),
                                                       coalesce(pg_catalog.quote_literal(here), 'not set'))
                                ELSE 'uid_counter.counters receives replicated changes from another server (a subscription of this database lists it), so numbers drawn here could be drawn there too.' END,
                  HINT = 'Draw on the server that owns the counter. To draw on several servers, give each its own tenant and range: set uid.counter_node on each server and uid_counter_set_range(tenant, prefix, lo, hi, node => ...); or leave schema uid_counter out of the publication.';
    END IF;

    v_start := greatest(v_start, r_lo);
    IF v_start OPERATOR(pg_catalog.>) r_hi THEN
        RAISE EXCEPTION 'counter %/% cannot start at % beyond the end of its range %',
                c_prefix, c_tenant, v_start, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Lower the start with uid_counter_configure() or widen the range with uid_counter_set_range().';
    END IF;

    INSERT INTO uid_counter.counters AS c (prefix, tenant, first_value, last_value)
    VALUES (c_prefix, c_tenant, v_start, v_start)
    ON CONFLICT ON CONSTRAINT counters_pkey DO UPDATE
        SET last_value = greatest(c.last_value OPERATOR(pg_catalog.+) 1, excluded.last_value)
    RETURNING c.last_value INTO v;

    IF v OPERATOR(pg_catalog.>) r_hi THEN
        -- the error undoes the update: nothing is used up
        RAISE EXCEPTION 'counter %/% reached the end of its range (%)', c_prefix, c_tenant, r_hi
            USING ERRCODE = '2200H',
                  HINT = 'Widen the tenant''s range with uid_counter_set_range().';
    END IF;

    -- uid_counter_format(), written out: a SECURITY DEFINER function calls
    -- nothing in the extension's schema by name, as the owner of that schema
    -- (for public, the database owner) could rename it and put a function of
    -- that name in its place
    RETURN c_prefix OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
           CASE WHEN pg_catalog.length(v::text) OPERATOR(pg_catalog.>=) v_width THEN v::text
                ELSE pg_catalog.lpad(v::text, v_width, '0') END;
END
$$;

COMMENT ON FUNCTION uid_counter._next(text, text, oid) IS
'uid_counter_next() for the role caller: checks its grant, then draws the number as the extension owner. Reached only through uid_counter_next().';

-- The end of every range change: the row of uid_counter.range_epoch that
-- REPEATABLE READ counter calls lock, written (the first change inserts it).
CREATE FUNCTION uid_counter._range_changed()
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

-- The work of both forms of uid_counter_set_range(), as their owner.
CREATE FUNCTION uid_counter._set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
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
    IF c_node OPERATOR(pg_catalog.!~) '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,62}$' THEN
        RAISE EXCEPTION 'invalid counter node: %', pg_catalog.quote_literal(c_node)
            USING ERRCODE = '22023',
                  HINT = 'A node is a server''s uid.counter_node: 1 to 63 characters, a letter or digit, then letters, digits or "_", ".", ":", "@", "-"; NULL for none.';
    END IF;
    IF c_lo IS NULL OR c_hi IS NULL OR c_lo OPERATOR(pg_catalog.<) 0
       OR c_hi OPERATOR(pg_catalog.>) 9223372036854775806 OR c_lo OPERATOR(pg_catalog.>) c_hi THEN
        RAISE EXCEPTION 'invalid counter range: [%, %]', coalesce(c_lo::text, 'NULL'), coalesce(c_hi::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'A range is lo <= hi, both between 0 and 9223372036854775806.';
    END IF;
    -- READ COMMITTED; waits (bounded) for counter calls in flight; new ones
    -- wait for our commit
    PERFORM uid_counter._lock_ranges('uid_counter_set_range');

    SELECT c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF FOUND AND (other.first_value OPERATOR(pg_catalog.<) c_lo
                  OR other.last_value OPERATOR(pg_catalog.>) c_hi) THEN
        RAISE EXCEPTION 'range [%, %] does not contain the numbers tenant % already issued of prefix %',
                c_lo, c_hi, pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '22023',
                  DETAIL = pg_catalog.format('The tenant issued numbers between %s and %s.', other.first_value, other.last_value),
                  HINT = 'Choose a range that contains them.';
    END IF;

    SELECT c.tenant, c.first_value, c.last_value INTO other
      FROM uid_counter.counters c
     WHERE c.prefix OPERATOR(pg_catalog.=) c_prefix AND c.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND c.first_value OPERATOR(pg_catalog.<=) c_hi AND c.last_value OPERATOR(pg_catalog.>=) c_lo
     ORDER BY c.tenant
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps numbers tenant % already issued',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s issued numbers between %s and %s.',
                                             pg_catalog.quote_literal(other.tenant), other.first_value, other.last_value),
                  HINT = 'Choose a range that avoids them.';
    END IF;

    SELECT r.tenant, r.lo, r.hi INTO other
      FROM uid_counter.ranges r
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.<>) c_tenant
       AND r.lo OPERATOR(pg_catalog.<=) c_hi AND r.hi OPERATOR(pg_catalog.>=) c_lo
     ORDER BY r.lo
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'range [%, %] of prefix % overlaps the range of tenant %',
                c_lo, c_hi, c_prefix, pg_catalog.quote_literal(other.tenant)
            USING ERRCODE = '23P01',
                  DETAIL = pg_catalog.format('Tenant %s owns [%s, %s].', pg_catalog.quote_literal(other.tenant), other.lo, other.hi),
                  HINT = 'Choose a range that avoids it.';
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

CREATE FUNCTION uid_counter_set_range(tenant text, prefix text, lo bigint, hi bigint, node text)
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

REVOKE EXECUTE ON FUNCTION uid_counter_set_range(text, text, bigint, bigint, text) FROM PUBLIC;

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
     WHERE r.prefix OPERATOR(pg_catalog.=) c_prefix AND r.tenant OPERATOR(pg_catalog.=) c_tenant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tenant % has no range of counter prefix %', pg_catalog.quote_literal(c_tenant), c_prefix
            USING ERRCODE = '42704',
                  HINT = 'The view uid_counter_settings lists the ranges.';
    END IF;
    PERFORM uid_counter._range_changed();
END
$$;

COMMENT ON FUNCTION uid_counter_unset_range(text, text) IS
'Removes a tenant''s range of a prefix; the numbers it issued stay reserved against other tenants'' ranges.';

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
