
-- ---------------------------------------------------------------------------
-- Ticket sequences: dense numbers from native sequences, for N servers that
-- hand out interleaved series (node, node + nodes, node + 2*nodes, ...).
--
-- Each ticket is a plain PostgreSQL sequence uid_ticket.<name> (WAL-logged,
-- crash-safe, replicated, listed in pg_sequences, dumped by pg_dump: it is
-- created after CREATE EXTENSION, so it is not an extension member).  Its
-- metadata lives in uid_ticket._tickets, which pg_dump keeps as extension
-- configuration.  Ticket names cannot start with "_", so no ticket can be
-- named like the metadata table.
--
-- Design: the sequence counts blocks.  It starts at node and increments by
-- nodes * block, so one nextval() atomically reserves the block
--   v, v + nodes, ..., v + (block - 1) * nodes
-- of this node's series.  Every value of node n is congruent to n modulo
-- nodes, so servers with different nodes never collide, and blocks of one
-- server never overlap.  uid_ticket_next() takes a whole block and returns
-- its first ticket: with block > 1 the rest of the block is a gap.  Keep
-- block = 1 for tickets that are drawn one at a time.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_ticket;

COMMENT ON SCHEMA uid_ticket IS
'Ticket sequences created by uid_ticket_create(), and their metadata (_tickets).';

GRANT USAGE ON SCHEMA uid_ticket TO PUBLIC;

CREATE TABLE uid_ticket._tickets (
    name        text PRIMARY KEY
                CHECK (name OPERATOR(pg_catalog.~) '^[a-z][a-z0-9_]{0,47}$'),
    node        integer NOT NULL,
    nodes       integer NOT NULL CHECK (nodes BETWEEN 1 AND 1024),
    block       integer NOT NULL CHECK (block BETWEEN 1 AND 1000000),
    created_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (node BETWEEN 1 AND nodes)
);

COMMENT ON TABLE uid_ticket._tickets IS
'One row per ticket sequence made by uid_ticket_create(); kept by pg_dump.';

SELECT pg_catalog.pg_extension_config_dump('uid_ticket._tickets', '');

GRANT SELECT ON uid_ticket._tickets TO PUBLIC;

-- nextval() that flushes the WAL record covering the value (src/tickets.c)
CREATE FUNCTION uid_ticket._nextval(seq regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_ticket_nextval'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_ticket._nextval(regclass) IS
'nextval(seq), then flushes WAL up to the sequence page''s LSN, so that no value handed out is handed out again after a crash.';

-- The checks shared by the ticket functions.
CREATE FUNCTION uid_ticket._check_name(name text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF name IS NULL THEN
        RAISE EXCEPTION 'ticket name must not be NULL'
            USING ERRCODE = '22004';
    END IF;
    IF name OPERATOR(pg_catalog.!~) '^[a-z][a-z0-9_]{0,47}$' THEN
        RAISE EXCEPTION 'invalid ticket name: %', pg_catalog.quote_literal(name)
            USING ERRCODE = '22023',
                  HINT = 'A ticket name is 1 to 48 characters: a lower-case letter, then lower-case letters, digits or "_".';
    END IF;
END
$$;

COMMENT ON FUNCTION uid_ticket._check_name(text) IS
'Raises 22004 for NULL and 22023 for a name that is not a valid ticket name.';

CREATE FUNCTION uid_ticket_create(name text, node integer, nodes integer DEFAULT 2,
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
    IF EXISTS (SELECT 1 FROM uid_ticket._tickets t
               WHERE t.name OPERATOR(pg_catalog.=) t_name) THEN
        RAISE EXCEPTION 'ticket "%" already exists', t_name
            USING ERRCODE = '42710',
                  HINT = 'Drop it first with uid_ticket_drop(), or choose another name.';
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

CREATE FUNCTION uid_ticket_next(name text)
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
        RAISE EXCEPTION 'ticket "%" does not exist', $1
            USING ERRCODE = '42704',
                  HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
    END IF;
    RETURN uid_ticket._nextval(seq);
END
$$;

COMMENT ON FUNCTION uid_ticket_next(text) IS
'The next ticket of this server''s series; with block > 1 it takes a whole block and returns its first ticket (the rest is a gap).';

CREATE FUNCTION uid_ticket_next_block(name text, size integer DEFAULT NULL,
    OUT first bigint, OUT last bigint, OUT step integer, OUT count integer)
RETURNS record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
    t_name  ALIAS FOR $1;
    want    integer := $2;
    t       uid_ticket._tickets;
BEGIN
    PERFORM uid_ticket._check_name(t_name);
    SELECT * INTO t FROM uid_ticket._tickets x WHERE x.name OPERATOR(pg_catalog.=) t_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ticket "%" does not exist', t_name
            USING ERRCODE = '42704',
                  HINT = 'Create it with uid_ticket_create(); the view uid_tickets lists the tickets.';
    END IF;
    want := coalesce(want, t.block);
    IF want OPERATOR(pg_catalog.<) 1 OR want OPERATOR(pg_catalog.>) t.block THEN
        RAISE EXCEPTION 'invalid ticket block size request: % (ticket "%" has blocks of %)', want, t_name, t.block
            USING ERRCODE = '22023',
                  HINT = 'Ask for a size of 1 to block tickets, or create the ticket with a larger block.';
    END IF;
    first := uid_ticket._nextval(pg_catalog.format('uid_ticket.%I', t_name)::regclass);
    step := t.nodes;
    count := want;
    last := first OPERATOR(pg_catalog.+)
            ((want::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes);
    RETURN;
END
$$;

COMMENT ON FUNCTION uid_ticket_next_block(text, integer) IS
'Reserves size (default: the ticket''s block) tickets of this server''s series in one nextval(): first, first + step, ..., last.';

CREATE FUNCTION uid_ticket_drop(name text)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
    PERFORM uid_ticket._check_name($1);
    DELETE FROM uid_ticket._tickets t WHERE t.name OPERATOR(pg_catalog.=) $1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ticket "%" does not exist', $1
            USING ERRCODE = '42704',
                  HINT = 'The view uid_tickets lists the tickets.';
    END IF;
    EXECUTE pg_catalog.format('DROP SEQUENCE uid_ticket.%I', $1);
END
$$;

COMMENT ON FUNCTION uid_ticket_drop(text) IS
'Drops a ticket sequence and its metadata.';

CREATE VIEW uid_tickets AS
SELECT t.name,
       t.node,
       t.nodes,
       t.block,
       pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', t.name)) AS sequence,
       s.last_value OPERATOR(pg_catalog.+)
           ((t.block::bigint OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) t.nodes)
           AS last_issued,
       t.created_at
FROM uid_ticket._tickets t
LEFT JOIN pg_catalog.pg_sequences s
       ON s.schemaname OPERATOR(pg_catalog.=) 'uid_ticket'
      AND s.sequencename OPERATOR(pg_catalog.=) t.name;

COMMENT ON VIEW uid_tickets IS
'One row per ticket: its place in the series (node of nodes), block size, sequence, and the last ticket handed out (NULL before the first).';

GRANT SELECT ON uid_tickets TO PUBLIC;
