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
--
-- Replication: logical replication carries rows, not sequences.  A
-- publication of every table sends the other servers' rows of _tickets here
-- without their sequences, so _tickets is keyed by (name, node): each server
-- of a set adds its own row, and the row of this server is the one whose
-- node is its sequence's MINVALUE.  A row without a sequence here is the
-- metadata of another server's ticket: drawing from it says so, creating
-- the ticket with another node adds this server's series beside it, and
-- dropping the name removes such rows.
-- ---------------------------------------------------------------------------

CREATE SCHEMA uid_ticket;

COMMENT ON SCHEMA uid_ticket IS
'Ticket sequences created by uid_ticket_create(), and their metadata (_tickets).';

GRANT USAGE ON SCHEMA uid_ticket TO PUBLIC;

CREATE TABLE uid_ticket._tickets (
    name        text NOT NULL
                CHECK (name OPERATOR(pg_catalog.~) '^[a-z][a-z0-9_]{0,47}$'),
    node        integer NOT NULL,
    nodes       integer NOT NULL CHECK (nodes OPERATOR(pg_catalog.>=) 1 AND nodes OPERATOR(pg_catalog.<=) 1024),
    block       integer NOT NULL CHECK (block OPERATOR(pg_catalog.>=) 1 AND block OPERATOR(pg_catalog.<=) 1000000),
    created_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (node OPERATOR(pg_catalog.>=) 1 AND node OPERATOR(pg_catalog.<=) nodes),
    PRIMARY KEY (name, node)
);

COMMENT ON TABLE uid_ticket._tickets IS
'One row per ticket sequence made by uid_ticket_create() on this server or, replicated, on another server of its set; kept by pg_dump.';

SELECT pg_catalog.pg_extension_config_dump('uid_ticket._tickets', '');

GRANT SELECT ON uid_ticket._tickets TO PUBLIC;

