-- uid_catch_up(): a server that takes over another's writes moves its
-- generators and ticket sequences past every value already stored
-- (docs/operations.md, "Moving the writes").  The stored values stand in for
-- rows copied from a server whose clock is ahead: IDs of a time 2 s from now.
-- IDs differ from run to run: the checks print what they compare, and times
-- in the actions are shown as T.  Everything lives in a schema of its own,
-- dropped at the end; the generators are left behind the clock again.
CREATE SCHEMA catch_up;
SET search_path = catch_up, public;
\set SHOW_CONTEXT never
-- the rows of uid_catch_up() about this file's objects and the generators
CREATE FUNCTION report(dry boolean, floors jsonb DEFAULT '{}', ahead interval DEFAULT '10 s')
RETURNS TABLE (kind text, object text, column_name name, action text)
LANGUAGE sql AS $$
    SELECT c.kind, c.object, c.column_name,
           regexp_replace(c.action, '\d{4}-\d\d-\d\d [0-9:.]+\+00', 'T', 'g')
    FROM uid_catch_up(dry, floors, ahead) AS c
    WHERE c.object LIKE 'catch\_up.%' OR c.object LIKE 'uid\_ticket.cu\_%' OR c.column_name IS NULL
      AND c.kind <> 'ticket'
$$;
-- an error: its SQLSTATE, message and hint with every number and time as N
CREATE FUNCTION err(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text; msg text; hint text;
BEGIN
    EXECUTE stmt;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN st || ': ' || regexp_replace(msg || ' / ' || hint,
        '\d{4}-\d\d-\d\d [0-9:.]+\+00|[0-9a-f]{8}-[0-9a-f-]{27}|\d{6,}|\d+(?= ms)', 'N', 'g');
END $$;
SET timezone = 'UTC';
SET datestyle = 'ISO';
SELECT uid_from_time(clock_timestamp() + interval '2 s') + 3 AS ahead,
       uuid7(clock_timestamp() + interval '2 s') AS ahead_uuid \gset

-- Tables as a logical copy leaves them: values from the other server.
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(),
                     ticket bigint UNIQUE DEFAULT uid_ticket_next('cu_orders'), item text);
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid7(), payload text);
CREATE TABLE parts (id bigint DEFAULT uid_next(), day date) PARTITION BY RANGE (day);
CREATE TABLE parts_2026 PARTITION OF parts FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE TABLE legacy (id bigserial PRIMARY KEY, v text);
SELECT uid_ticket_create('cu_orders', 2, 2);                 -- 2, 4, 6, ...
SELECT uid_ticket_create('cu_blocks', 3, 3, 2);              -- blocks of 2 from 3: 3 (6), 9 (12), ...
SELECT uid_ticket_create('cu_floor', 1, 4);                  -- no column: a floor is given
SELECT uid_ticket_create('cu_moved', 1, 2);                  -- carried over past the values
CREATE TABLE boxes (n bigint DEFAULT nextval('uid_ticket.cu_blocks'));
-- a ticket in a text column cannot be read as a number: a warning, and the
-- floor is given for it below
CREATE TABLE labels (code text DEFAULT 'L-' || uid_ticket_next('cu_floor'));
INSERT INTO orders (id, ticket, item) VALUES (uid_from_time(now() - interval '1 h'), 998, 'old'),
                                             (:ahead, 1001, 'ahead');
-- a v4 key sorts above every v7 key: it is not one of uuid7()'s
INSERT INTO events VALUES (:'ahead_uuid', 'ahead'), ('ffffffff-ffff-4fff-bfff-ffffffffffff', 'v4');
INSERT INTO parts VALUES (:ahead - 1, '2026-06-01');
INSERT INTO boxes VALUES (100);
SELECT setval('uid_ticket.cu_moved', 71);
INSERT INTO legacy (v) VALUES ('a');
SELECT count(*) AS adopt_steps FROM uid_adopt('legacy');
INSERT INTO legacy (id, v) VALUES (:ahead - 2, 'ahead');

-- Values ahead of this server's clock (by more than uid.clock_max_wait_ms)
-- would hold uid_next() up until the clock gets there: refused unless
-- allow_ahead covers them, dry run or not, naming the greatest.
SELECT err('SELECT uid_catch_up(true)');
SELECT err($$SELECT uid_catch_up(allow_ahead => '100 ms')$$);

-- A dry run reads and reports, and changes nothing.
SELECT * FROM report(true) ORDER BY 1, 2, 3;
SELECT uid_next() < :ahead AS uid_next_not_moved, uuid7() < :'ahead_uuid' AS uuid7_not_moved,
       uid_ticket_next('cu_orders') AS next_ticket_still_2;
SELECT last_value, is_called FROM uid_ticket.cu_blocks;

-- Too far ahead: refused with UID05, and nothing changes.
INSERT INTO parts VALUES (uid_from_time(clock_timestamp() + interval '2 days'), '2026-06-02');
SELECT err($$SELECT uid_catch_up(allow_ahead => '1 day')$$);
SELECT uid_next() < :ahead AS uid_next_not_moved, uid_ticket_next('cu_orders') AS next_ticket_still_4;
DELETE FROM parts WHERE day = '2026-06-02';
INSERT INTO events VALUES (uuid7(clock_timestamp() + interval '2 days'), 'far');
SELECT err($$SELECT uid_catch_up(allow_ahead => '1 day')$$);
DELETE FROM events WHERE payload = 'far';

-- Bad arguments.
SELECT err($$SELECT uid_catch_up(ticket_floors => '[1]')$$);
SELECT err($$SELECT uid_catch_up(ticket_floors => '{"cu_nothing": 1}')$$);
SELECT err($$SELECT uid_catch_up(ticket_floors => '{"cu_floor": 1.5}')$$);
SELECT err($$SELECT uid_catch_up(ticket_floors => '{"Bad": 1}')$$);
SELECT err('SELECT uid_catch_up(NULL)');
SELECT err($$SELECT uid_catch_up(allow_ahead => NULL)$$);
SELECT err($$SELECT uid_catch_up(allow_ahead => '-1 s')$$);
SELECT err($$SELECT uid_catch_up(allow_ahead => '25 hours')$$);
SELECT err($$SELECT uid_catch_up(ticket_ahead => NULL)$$);
SELECT err($$SELECT uid_catch_up(ticket_ahead => -1)$$);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT err('SELECT uid_catch_up()');
ROLLBACK;

-- Roles without the privileges: PUBLIC may not run it; a role granted it
-- still needs to read every table.
CREATE ROLE regress_catch_up_app;
GRANT USAGE ON SCHEMA catch_up TO regress_catch_up_app;
SET ROLE regress_catch_up_app;
SELECT err('SELECT uid_catch_up()');
RESET ROLE;
GRANT EXECUTE ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) TO regress_catch_up_app;
SET ROLE regress_catch_up_app;
SELECT err('SELECT uid_catch_up(true)');
RESET ROLE;
-- with SELECT on every table, a row-level security policy would still hide
-- rows from it: refused
GRANT SELECT ON ALL TABLES IN SCHEMA catch_up TO regress_catch_up_app;
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
SET ROLE regress_catch_up_app;
SELECT err('SELECT uid_catch_up(true)');
RESET ROLE;
ALTER TABLE orders DISABLE ROW LEVEL SECURITY;

-- The catch-up: each generator past the greatest value of its columns (the
-- adopted column's too), each ticket sequence past its columns' values or
-- the floor given, in its own series.
SELECT * FROM report(false, '{"cu_floor": 500}') ORDER BY 1, 2, 3;
SELECT uuid7() > :'ahead_uuid' AS uuid7_above_at_once;
SELECT uid_ticket_next('cu_orders') AS next_even_above_1001,
       uid_ticket_next('cu_blocks') AS next_block_above_100,
       uid_ticket_next('cu_floor') AS next_above_500_at_1_of_4,
       uid_ticket_next('cu_moved') AS carried_over_73;
SELECT * FROM uid_ticket_next_block('cu_blocks');
-- the clock is behind the stored IDs: uid_next() refuses (UID01) until it
-- passes them, then issues above every one
DO $$
DECLARE id bigint;
BEGIN
    FOR i IN 1 .. 1000 LOOP
        BEGIN
            id := uid_next();
            EXIT;
        EXCEPTION WHEN SQLSTATE 'UID01' THEN
            PERFORM pg_sleep(0.01);
        END;
    END LOOP;
    CREATE TEMP TABLE first_after AS SELECT id;
END $$;
SELECT id > :ahead AS uid_next_above_every_stored_id FROM first_after;
INSERT INTO orders (item) VALUES ('new') RETURNING id > :ahead AS above, ticket;
-- a second run: the tickets are past already; uid_next() moves to the end of
-- the millisecond of the row just inserted, its only newer value
SELECT * FROM report(false) ORDER BY 1, 2, 3;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA catch_up CASCADE;
RESET client_min_messages;
SELECT uid_ticket_drop(name) FROM uid_tickets WHERE name LIKE 'cu\_%' ORDER BY name;
REVOKE ALL ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) FROM regress_catch_up_app;
DROP ROLE regress_catch_up_app;
-- Both floors are of the time the clock passed above: later files find
-- the generators behind the clock.
