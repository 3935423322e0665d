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
