-- Ticket sequences: native sequences handing out node, node + nodes, ...
-- uid's errors carry no CONTEXT lines: psql shows them as it does by default

-- err(statement): 'ok', or the SQLSTATE and message of the error it raised
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- an odd/even pair, seen from each side in one database
SELECT uid_ticket_create('orders_odd', 1);
SELECT uid_ticket_create('orders_even', 2, 2);
SELECT uid_ticket_next('orders_odd') FROM generate_series(1, 3);
SELECT uid_ticket_next('orders_even') FROM generate_series(1, 3);

-- three servers: node 3 of 3 gives 3, 6, 9
SELECT uid_ticket_create('three', 3, 3);
SELECT array_agg(uid_ticket_next('three')) FROM generate_series(1, 3);

-- a native sequence: visible in pg_sequences, not an extension member
SELECT schemaname, sequencename, start_value, min_value, increment_by, cycle, cache_size, last_value
  FROM pg_sequences WHERE schemaname = 'uid_ticket' ORDER BY sequencename;
SELECT count(*) AS members FROM pg_depend
 WHERE classid = 'pg_class'::regclass AND deptype = 'e'
   AND objid IN ('uid_ticket.orders_odd'::regclass, 'uid_ticket.three'::regclass);

-- blocks: node 2 of 4, blocks of 5: each nextval reserves 5 tickets 4 apart
SELECT uid_ticket_create('batch', 2, 4, 5);
SELECT increment_by, max_value FROM pg_sequences WHERE sequencename = 'batch';
SELECT * FROM uid_ticket_next_block('batch');
SELECT * FROM uid_ticket_next_block('batch', 2);   -- the rest of the block is a gap
SELECT * FROM uid_ticket_next_block('batch', size => 5);
SELECT uid_ticket_next('batch');                   -- takes a whole block too
SELECT * FROM uid_ticket_next_block('batch');
-- every ticket of node 2 of 4 is 2 modulo 4, and blocks never overlap
WITH b AS (SELECT (uid_ticket_next_block('batch')).* FROM generate_series(1, 50)),
     t AS (SELECT generate_series(first, last, step) AS v FROM b)
SELECT count(*) AS tickets, count(DISTINCT v) AS distinct_tickets,
       bool_and(v % 4 = 2) AS all_of_node_2
  FROM t;

-- as a column default
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_ticket_next('orders_odd'), what text);
INSERT INTO orders (what) VALUES ('a'), ('b');
SELECT * FROM orders ORDER BY id;
DROP TABLE orders;

-- privileges are the sequence's: a role needs USAGE on it
CREATE ROLE regress_uid_ticket_user;
SET ROLE regress_uid_ticket_user;
SELECT pg_temp.err('SELECT uid_ticket_next(''orders_odd'')');
RESET ROLE;
GRANT USAGE ON SEQUENCE uid_ticket.orders_odd TO regress_uid_ticket_user;
SET ROLE regress_uid_ticket_user;
SELECT uid_ticket_next('orders_odd');
SELECT pg_temp.err('SELECT uid_ticket_create(''mine'', 1)');
RESET ROLE;
REVOKE USAGE ON SEQUENCE uid_ticket.orders_odd FROM regress_uid_ticket_user;
DROP ROLE regress_uid_ticket_user;

-- the listing
SELECT name, node, nodes, block, sequence, last_issued FROM uid_tickets ORDER BY name;

-- errors come with a hint
SELECT uid_ticket_create('Orders', 1);
SELECT * FROM uid_ticket_next_block('batch', 6);
SELECT uid_ticket_next('nosuch');

-- bad names: invalid characters, upper case, too long, empty, NULL; and
-- injection attempts, which are refused before any SQL is built
SELECT pg_temp.err('SELECT uid_ticket_create(''Orders'', 1)');
SELECT pg_temp.err('SELECT uid_ticket_create(''1orders'', 1)');
SELECT pg_temp.err('SELECT uid_ticket_create('''', 1)');
SELECT pg_temp.err('SELECT uid_ticket_create(NULL, 1)');
SELECT pg_temp.err('SELECT uid_ticket_create(repeat(''a'', 49), 1)');
SELECT uid_ticket_create(repeat('a', 48), 1) IS NOT NULL AS made_48;
SELECT pg_temp.err('SELECT uid_ticket_drop(repeat(''a'', 48))');
SELECT pg_temp.err('SELECT uid_ticket_create(''x; DROP TABLE uid_ticket._tickets; --'', 1)');
SELECT pg_temp.err('SELECT uid_ticket_create(''x"; DROP SCHEMA uid_ticket CASCADE; --'', 1)');
SELECT pg_temp.err('SELECT uid_ticket_create(''_tickets'', 1)');
SELECT pg_temp.err('SELECT uid_ticket_next(''orders_odd''''); SELECT 1; --'')');
SELECT pg_temp.err('SELECT uid_ticket_next(''_tickets'')');
SELECT pg_temp.err('SELECT uid_ticket_next(''orders_odd" CASCADE; --'')');
SELECT pg_temp.err('SELECT uid_ticket_drop(''orders_odd, uid_ticket.orders_even'')');
SELECT pg_temp.err('SELECT * FROM uid_ticket_next_block(''"batch"'')');
-- nothing was harmed
SELECT count(*) AS tickets FROM uid_ticket._tickets;

-- bad node, nodes and block values
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 0)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 3)');             -- nodes defaults to 2
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', NULL)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, 0)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, 1025)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, NULL)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, 2, 0)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, 2, 1000001)');
SELECT pg_temp.err('SELECT uid_ticket_create(''bad'', 1, 2, NULL)');
SELECT pg_temp.err('SELECT * FROM uid_ticket_next_block(''batch'', 0)');
SELECT pg_temp.err('SELECT * FROM uid_ticket_next_block(''batch'', 6)');
SELECT count(*) AS no_bad_ticket FROM uid_tickets WHERE name = 'bad';

-- unknown names and duplicates
SELECT pg_temp.err('SELECT uid_ticket_next(''nosuch'')');
SELECT pg_temp.err('SELECT * FROM uid_ticket_next_block(''nosuch'')');
SELECT pg_temp.err('SELECT uid_ticket_drop(''nosuch'')');
SELECT pg_temp.err('SELECT uid_ticket_create(''three'', 1, 3)');
SELECT pg_temp.err('SELECT uid_ticket_next(NULL)');

-- the largest block fits below the bigint maximum and then stops
SELECT uid_ticket_create('edge', 1, 2, 3);
SELECT setval('uid_ticket.edge', (SELECT max_value FROM pg_sequences WHERE sequencename = 'edge'));
SELECT last_issued FROM uid_tickets WHERE name = 'edge';
SELECT pg_temp.err('SELECT uid_ticket_next(''edge'')');

-- Ticket metadata from another node: a publication of every table brings
-- the other servers' rows of uid_ticket._tickets, never their sequences.
-- Here the row of node 1 of 2 arrives as the apply worker writes it.
INSERT INTO uid_ticket._tickets (name, node, nodes, block) VALUES ('shared', 1, 2, 1);
SELECT pg_temp.err('SELECT uid_ticket_next(''shared'')');
SELECT pg_temp.err('SELECT * FROM uid_ticket_next_block(''shared'')');
SELECT name, node, nodes, sequence, last_issued FROM uid_tickets WHERE name = 'shared';
-- this server cannot take node 1 (it is the other server's), nor another
-- number of nodes; node 2 of 2 is this server's series beside it
SELECT pg_temp.err('SELECT uid_ticket_create(''shared'', 1, 2)');
SELECT pg_temp.err('SELECT uid_ticket_create(''shared'', 2, 3)');
SELECT uid_ticket_create('shared', 2, 2);
SELECT uid_ticket_next('shared'), uid_ticket_next('shared');
SELECT * FROM uid_ticket_next_block('shared');
SELECT name, node, nodes, sequence, last_issued FROM uid_tickets WHERE name = 'shared' ORDER BY node;
SELECT pg_temp.err('SELECT uid_ticket_create(''shared'', 2, 2)');
-- dropping this server's ticket leaves the other server's row
SELECT uid_ticket_drop('shared');
SELECT name, node, sequence FROM uid_tickets WHERE name = 'shared';
-- with no sequence here, dropping removes the other servers' rows
SELECT uid_ticket_drop('shared');
SELECT count(*) AS shared_left FROM uid_ticket._tickets WHERE name = 'shared';
SELECT pg_temp.err('SELECT uid_ticket_drop(''shared'')');

-- uid's own errors as a caller sees them: message, detail and hint, and no
-- CONTEXT lines of uid's PL/pgSQL inside
SELECT uid_ticket_next('no_such_ticket');
SELECT uid_ticket_create('Bad Name', 1);
SELECT * FROM uid_ticket_next_block('batch', 0);
-- an EXCEPTION block of the caller catches them by their condition
DO $$
BEGIN
    PERFORM uid_ticket_next('no_such_ticket');
EXCEPTION WHEN undefined_object THEN
    RAISE NOTICE 'caught %: %', SQLSTATE, SQLERRM;
END
$$;

-- dropping removes the sequence and the metadata
SELECT uid_ticket_drop('edge');
SELECT uid_ticket_drop('orders_odd');
SELECT uid_ticket_drop('orders_even');
SELECT uid_ticket_drop('three');
SELECT uid_ticket_drop('batch');
SELECT count(*) AS sequences_left FROM pg_sequences WHERE schemaname = 'uid_ticket';
SELECT count(*) AS tickets_left FROM uid_tickets;
