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
-- privileges on each table, sequence and function.

-- Before a column is read: the caller's SELECT privilege on it, no
-- row-level security that applies to the caller, and (unless
-- a dry run) a SHARE lock on its table until the end of the transaction, so
-- that no insert is in progress while its greatest value is read and none
-- can follow until the generators have moved.
CREATE FUNCTION uid_catch_up_lock(rel regclass, col name, dry_run boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT pg_catalog.has_column_privilege(rel, col, 'SELECT') THEN
        RAISE EXCEPTION 'permission denied to read column % of table %', col, rel
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() reads every column whose default is uid_next(), uuid7(), an adopted or a ticket sequence: run it as a role that may read and lock each such table (a superuser).';
    END IF;
    -- rows a policy hides would be left out of the greatest value
    IF pg_catalog.row_security_active(rel) THEN
        RAISE EXCEPTION 'row-level security applies to table % for this role: uid_catch_up() would not see every row', rel
            USING ERRCODE = '42501',
                  HINT = 'Run it as a superuser or a role with BYPASSRLS.';
    END IF;
    IF NOT dry_run THEN
        EXECUTE pg_catalog.format('LOCK TABLE %s IN SHARE MODE', rel);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_catch_up_lock(regclass, name, boolean) IS
'Part of uid_catch_up(): raises 42501 unless the caller may read the column and every row of its table; unless dry_run, locks its table in SHARE mode. It runs as the caller and does only what the caller may do: PUBLIC may execute it.';

CREATE FUNCTION uid_catch_up(dry_run boolean DEFAULT false,
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
    r           record;
    t           record;
    f           record;
    v           bigint;
    u           uuid;
    uid_max     bigint;
    uuid_max    uuid;
    uid_where   text;
    uuid_where  text;
    ahead_ok    interval;
    col_max     numeric;
    col_where   text;
    target      numeric;
    floor_v     bigint;
    floor_next  numeric;
    base        numeric;
    draws       numeric;
    cur_next    numeric;
    seq_last    bigint;
    seq_called  boolean;
    moved       boolean;
    reading     text := CASE WHEN dry_run THEN 'read (dry run: no lock)'
                             ELSE 'read under a SHARE lock' END;
    plan_seq    regclass[] := '{}';
    plan_val    bigint[] := '{}';
    plan_called boolean[] := '{}';
    plan_row    text[] := '{}';
    plan_max    text[] := '{}';
    ready       text;
    integers    pg_catalog.oid[] := ARRAY['int2', 'int4', 'int8', '@extschema@.uid']::pg_catalog.regtype[]::pg_catalog.oid[];
    call_rel    regclass[] := '{}';
    call_col    name[] := '{}';
    call_expr   text[] := '{}';
BEGIN
    IF dry_run IS NULL THEN
        RAISE EXCEPTION 'dry_run must not be NULL'
            USING ERRCODE = '22004',
                  HINT = 'Pass true to see what uid_catch_up() would do, false to do it.';
    END IF;
    IF NOT dry_run AND pg_catalog.current_setting('transaction_isolation')
                       OPERATOR(pg_catalog.<>) 'read committed' THEN
        RAISE EXCEPTION 'uid_catch_up() must run at isolation level READ COMMITTED, not %',
                        pg_catalog.upper(pg_catalog.current_setting('transaction_isolation'))
            USING ERRCODE = '25000',
                  HINT = 'Its reads must see every row committed before it locked the table; run it in a transaction of the default isolation level.';
    END IF;
    IF allow_ahead IS NULL OR allow_ahead OPERATOR(pg_catalog.<) '0'::interval
       OR allow_ahead OPERATOR(pg_catalog.>) '1 day'::interval THEN
        RAISE EXCEPTION 'allow_ahead must be from 0 to 1 day, not %', coalesce(allow_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how far ahead of this server''s clock a stored value may be (the old server''s clock ahead of this one''s): ''2 seconds''.';
    END IF;
    IF ticket_ahead IS NULL OR ticket_ahead OPERATOR(pg_catalog.<) 0 THEN
        RAISE EXCEPTION 'ticket_ahead must be from 0 to 9223372036854775807, not %', coalesce(ticket_ahead::text, 'NULL')
            USING ERRCODE = '22023',
                  HINT = 'Pass how many draws past its next ticket a stored ticket may move a ticket sequence (default 1000000000).';
    END IF;
    -- uid_next() waits out this much silently: values within it are not ahead
    ahead_ok := GREATEST(allow_ahead, pg_catalog.current_setting('uid.clock_max_wait_ms')::interval);
    IF pg_catalog.jsonb_typeof(floors) OPERATOR(pg_catalog.<>) 'object' THEN
        RAISE EXCEPTION 'ticket_floors must be a JSON object, not %', pg_catalog.jsonb_typeof(floors)
            USING ERRCODE = '22023',
                  HINT = 'Map ticket names to the value their next ticket must be above: ''{"orders": 5000}''.';
    END IF;
    FOR f IN SELECT e.key, e.value FROM pg_catalog.jsonb_each(floors) AS e LOOP
        PERFORM uid_ticket._check_name(f.key);
        IF pg_catalog.to_regclass(pg_catalog.format('uid_ticket.%I', f.key)) IS NULL THEN
            RAISE EXCEPTION 'ticket "%" does not exist', f.key
                USING ERRCODE = '42704',
                      HINT = 'The view uid_tickets lists the tickets; ticket_floors names only those.';
        END IF;
        IF pg_catalog.jsonb_typeof(f.value) OPERATOR(pg_catalog.<>) 'number'
           OR f.value::text::numeric OPERATOR(pg_catalog.<>) pg_catalog.trunc(f.value::text::numeric)
           OR f.value::text::numeric OPERATOR(pg_catalog.>) 9223372036854775807
           OR f.value::text::numeric OPERATOR(pg_catalog.<) -9223372036854775808 THEN
            RAISE EXCEPTION 'invalid floor for ticket "%": %', f.key, f.value::text
                USING ERRCODE = '22023',
                      HINT = 'A floor is a bigint: the next ticket is above it.';
        END IF;
    END LOOP;

    FOR r IN SELECT s.subname FROM pg_catalog.pg_subscription s
             JOIN pg_catalog.pg_database d ON d.oid OPERATOR(pg_catalog.=) s.subdbid
             WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database() AND s.subenabled
             ORDER BY 1 LOOP
        RAISE WARNING 'subscription "%" is enabled: rows it applies after uid_catch_up() are not covered', r.subname
            USING HINT = 'Stop the writes on the old server, wait until the subscription has applied them, and disable it first (ALTER SUBSCRIPTION ... DISABLE).';
    END LOOP;

    -- The columns, in the order of their tables' OIDs (the order in which
    -- concurrent calls lock them).  A partition whose partitioned ancestor
    -- has the same default on the same column is read through the ancestor.
    FOR r IN
        WITH gen AS (
            SELECT p.oid,
                   CASE p.proname WHEN 'uid_next' THEN 'uid_next'::text
                                  WHEN 'uid_ticket_next' THEN 'ticket' ELSE 'uuid7' END AS kind
            FROM pg_catalog.pg_proc p
            JOIN pg_catalog.pg_depend e
              ON e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
             AND e.objid OPERATOR(pg_catalog.=) p.oid
             AND e.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
             AND e.deptype OPERATOR(pg_catalog.=) 'e'
            JOIN pg_catalog.pg_extension x
              ON x.oid OPERATOR(pg_catalog.=) e.refobjid AND x.extname OPERATOR(pg_catalog.=) 'uid'
            WHERE (p.proname OPERATOR(pg_catalog.=) 'uid_next' AND p.pronargs OPERATOR(pg_catalog.=) 0)
               OR (p.proname OPERATOR(pg_catalog.=) 'uuid7' AND p.pronargs OPERATOR(pg_catalog.=) 0)
               OR p.proname OPERATOR(pg_catalog.=) 'uuidv7'
               OR (p.proname OPERATOR(pg_catalog.=) 'uid_ticket_next' AND p.pronargs OPERATOR(pg_catalog.=) 1)),
        adopted AS (
            SELECT l.objoid AS seq, s.seqincrement AS inc
            FROM pg_catalog.pg_seclabel l
            JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) l.objoid
            WHERE l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
              AND l.provider OPERATOR(pg_catalog.=) 'uid'),
        col AS (
            SELECT gen.kind, ad.adrelid AS rel, a.attname, 1::bigint AS inc, NULL::pg_catalog.regclass AS seq,
                   pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) AS expr
            FROM pg_catalog.pg_depend d
            JOIN gen ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                    AND d.refobjid OPERATOR(pg_catalog.=) gen.oid
            JOIN pg_catalog.pg_attrdef ad
              ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
             AND d.objid OPERATOR(pg_catalog.=) ad.oid
            JOIN pg_catalog.pg_attribute a
              ON a.attrelid OPERATOR(pg_catalog.=) ad.adrelid AND a.attnum OPERATOR(pg_catalog.=) ad.adnum
            UNION
            SELECT 'uid_next', sc.tbl::pg_catalog.oid, sc.col, adopted.inc, adopted.seq::pg_catalog.regclass, NULL
            FROM adopted, @extschema@.uid_sequence_columns(adopted.seq::pg_catalog.regclass) AS sc)
        SELECT c1.kind, c1.rel::pg_catalog.regclass AS rel, c1.attname, c1.inc, c1.seq, c1.expr,
               coalesce(nullif(ty.typbasetype, 0), ty.oid) AS typ
        FROM col c1
        JOIN pg_catalog.pg_class k ON k.oid OPERATOR(pg_catalog.=) c1.rel
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) c1.rel AND a.attname OPERATOR(pg_catalog.=) c1.attname
        JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) a.atttypid
        WHERE k.relkind OPERATOR(pg_catalog.=) ANY ('{r,p}'::"char"[])
          AND NOT (k.relispartition AND EXISTS (
                SELECT 1 FROM pg_catalog.pg_partition_ancestors(c1.rel::pg_catalog.regclass) an
                JOIN col c2 ON c2.rel OPERATOR(pg_catalog.=) an.relid::pg_catalog.oid
                WHERE an.relid::pg_catalog.oid OPERATOR(pg_catalog.<>) c1.rel
                  AND c2.kind OPERATOR(pg_catalog.=) c1.kind
                  AND c2.attname OPERATOR(pg_catalog.=) c1.attname))
        ORDER BY c1.rel, c1.attname, c1.kind
    LOOP
        IF r.kind OPERATOR(pg_catalog.=) 'ticket' THEN
            -- read with the ticket its default names, below
            call_rel := call_rel OPERATOR(pg_catalog.||) r.rel;
            call_col := call_col OPERATOR(pg_catalog.||) r.attname;
            call_expr := call_expr OPERATOR(pg_catalog.||) r.expr;
            CONTINUE;
        END IF;
        PERFORM @extschema@.uid_catch_up_lock(r.rel, r.attname, dry_run);
        IF r.typ OPERATOR(pg_catalog.<>) ALL (CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7'
                                                   THEN '{uuid}'::pg_catalog.regtype[]::pg_catalog.oid[]
                                                   ELSE integers END) THEN
            RAISE WARNING 'column % of table % is not % column: not read', r.attname, r.rel,
                          CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7' THEN 'a uuid' ELSE 'an integer' END
                USING HINT = CASE WHEN r.kind OPERATOR(pg_catalog.=) 'uuid7'
                                  THEN 'Move uuid7() past its values by hand with uuid7_advance_past().'
                                  ELSE 'Move uid_next() past its values by hand with uid_advance_past().' END;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, NULL::text,
                                'not read: not of its generator''s type'::text;
            CONTINUE;
        END IF;
        IF r.kind OPERATOR(pg_catalog.=) 'uuid7' THEN
            u := @extschema@.uid_stored_max_uuid7(r.rel, r.attname);
            IF u IS NOT NULL AND (uuid_max IS NULL OR u OPERATOR(pg_catalog.>) uuid_max) THEN
                uuid_max := u;
                uuid_where := pg_catalog.format('%s.%I', r.rel, r.attname);
            END IF;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, u::text,
                                CASE WHEN u IS NULL THEN reading OPERATOR(pg_catalog.||) ': no version 7 value' ELSE reading END;
        ELSE
            v := @extschema@.uid_stored_max(r.rel, r.attname);
            IF v IS NOT NULL THEN
                -- a caller of an adopted sequence with INCREMENT n may store
                -- up to n - 1 values above the one it drew
                v := LEAST(v::numeric OPERATOR(pg_catalog.+) (r.inc OPERATOR(pg_catalog.-) 1),
                                      9223372036854775807)::bigint;
                IF uid_max IS NULL OR v OPERATOR(pg_catalog.>) uid_max THEN
                    uid_max := v;
                    uid_where := pg_catalog.format('%s.%I', r.rel, r.attname);
                END IF;
            END IF;
            RETURN QUERY SELECT r.kind, r.rel::text, r.attname, v::text,
                                CASE WHEN r.seq IS NULL THEN reading
                                     ELSE pg_catalog.format('%s (adopted sequence %s%s)', reading, r.seq,
                                              CASE WHEN r.inc OPERATOR(pg_catalog.>) 1
                                                   THEN pg_catalog.format(', INCREMENT %s: the value plus %s', r.inc, r.inc OPERATOR(pg_catalog.-) 1)
                                                   ELSE '' END) END;
        END IF;
    END LOOP;

    -- The ticket sequences: the next ticket must be above every value stored
    -- in a column that draws from it (a default that calls it, or calls
    -- uid_ticket_next() with its name), above the floor given, and keep its
    -- node's residue: congruent to its START modulo its INCREMENT.  Any role
    -- may write a default that names a ticket and store what it likes in
    -- that column without ever drawing from it: a column whose table's owner
    -- may not draw from the sequence is left alone (not locked, not read),
    -- as uid_adopt() leaves it.  A stored value that would move the
    -- sequence more than ticket_ahead draws past its next ticket (or the
    -- floor given) is refused, and so is one no ticket of the series can be
    -- above.
    FOR t IN
        SELECT c.oid::pg_catalog.regclass AS seq, c.relname AS name,
               s.seqstart, s.seqincrement, s.seqmax
        FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
        JOIN pg_catalog.pg_sequence s ON s.seqrelid OPERATOR(pg_catalog.=) c.oid
        WHERE n.nspname OPERATOR(pg_catalog.=) 'uid_ticket' AND c.relkind OPERATOR(pg_catalog.=) 'S'
        ORDER BY c.relname
    LOOP
        IF NOT pg_catalog.has_sequence_privilege(t.seq, 'SELECT')
           OR (NOT dry_run AND NOT pg_catalog.has_sequence_privilege(t.seq, 'UPDATE')) THEN
            RAISE EXCEPTION 'permission denied for ticket sequence %', t.seq
                USING ERRCODE = '42501',
                      HINT = 'uid_catch_up() reads every ticket sequence and moves it with setval(): run it as a role with SELECT and UPDATE on each (a superuser).';
        END IF;
        col_max := NULL;
        col_where := NULL;
        FOR r IN
            SELECT u.rel, u.attname, u.may_draw, coalesce(nullif(ty.typbasetype, 0), ty.oid) AS typ
            FROM (
            SELECT su.tbl AS rel, su.col AS attname, su.may_draw
            FROM @extschema@.uid_sequence_users(t.seq) AS su
            UNION
            SELECT x.rel, x.attname, @extschema@.uid_sequence_may_draw(x.rel, t.seq)
            FROM ROWS FROM (pg_catalog.unnest(call_rel), pg_catalog.unnest(call_col),
                            pg_catalog.unnest(call_expr)) AS x(rel, attname, expr)
            WHERE pg_catalog.strpos(x.expr, pg_catalog.format('uid_ticket_next(%L::text)', t.name))
                  OPERATOR(pg_catalog.>) 0
            ) AS u
            JOIN pg_catalog.pg_attribute a
              ON a.attrelid OPERATOR(pg_catalog.=) u.rel AND a.attname OPERATOR(pg_catalog.=) u.attname
            JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) a.atttypid
            ORDER BY 1, 2
        LOOP
            IF NOT r.may_draw THEN
                RAISE WARNING 'column %.% is left alone: it draws from ticket sequence %, but its table''s owner may not', r.rel, r.attname, t.seq
                    USING HINT = pg_catalog.format('If its values are tickets of %s, grant USAGE on the sequence to the table''s owner, or pass the greatest in ticket_floors: ''{"%s": ...}''.', t.seq, t.name);
                RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, NULL::text,
                                    pg_catalog.format('left alone: its table''s owner may not draw from %s', t.seq);
                CONTINUE;
            END IF;
            PERFORM @extschema@.uid_catch_up_lock(r.rel, r.attname, dry_run);
            IF r.typ OPERATOR(pg_catalog.<>) ALL (integers) THEN
                RAISE WARNING 'column % of table % is not an integer column: not read', r.attname, r.rel
                    USING HINT = pg_catalog.format('Pass the greatest ticket it holds in ticket_floors: ''{"%s": ...}''.', t.name);
                RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, NULL::text,
                                    'not read: not an integer column'::text;
                CONTINUE;
            END IF;
            target := @extschema@.uid_stored_max(r.rel, r.attname);
            IF target IS NOT NULL AND (col_max IS NULL OR target OPERATOR(pg_catalog.>) col_max) THEN
                col_max := target;
                col_where := pg_catalog.format('in %s.%I', r.rel, r.attname);
            END IF;
            RETURN QUERY SELECT 'ticket'::text, r.rel::text, r.attname, target::text, reading;
        END LOOP;

        EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', t.seq) INTO seq_last, seq_called;
        cur_next := CASE WHEN seq_called THEN seq_last::numeric OPERATOR(pg_catalog.+) t.seqincrement
                         ELSE seq_last END;
        -- the smallest ticket of the series above the stored values, and
        -- above the floor; the stored values are measured from the
        -- sequence's next ticket, or the floor's if higher
        target := CASE WHEN col_max IS NULL OR col_max OPERATOR(pg_catalog.<) t.seqstart THEN t.seqstart
                       ELSE t.seqstart OPERATOR(pg_catalog.+)
                            ((pg_catalog.div(col_max OPERATOR(pg_catalog.-) t.seqstart, t.seqincrement)
                              OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) t.seqincrement) END;
        floor_next := NULL;
        IF floors OPERATOR(pg_catalog.?) t.name THEN
            floor_v := (floors OPERATOR(pg_catalog.->>) t.name)::numeric::bigint;
            floor_next := CASE WHEN floor_v OPERATOR(pg_catalog.<) t.seqstart THEN t.seqstart
                               ELSE t.seqstart OPERATOR(pg_catalog.+)
                                    ((pg_catalog.div(floor_v::numeric OPERATOR(pg_catalog.-) t.seqstart, t.seqincrement)
                                      OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.*) t.seqincrement) END;
            IF col_max IS NULL OR floor_v OPERATOR(pg_catalog.>) col_max THEN
                col_max := floor_v;
                col_where := 'the floor given';
                target := floor_next;
            END IF;
        END IF;
        base := GREATEST(cur_next, floor_next);
        plan_seq := plan_seq OPERATOR(pg_catalog.||) t.seq;
        plan_max := plan_max OPERATOR(pg_catalog.||) col_max::text;
        IF target OPERATOR(pg_catalog.<=) cur_next THEN
            plan_val := plan_val OPERATOR(pg_catalog.||) NULL::bigint;
            plan_called := plan_called OPERATOR(pg_catalog.||) NULL::boolean;
            -- a sequence that has handed out its last ticket has no next one
            plan_row := plan_row OPERATOR(pg_catalog.||)
                        CASE WHEN cur_next OPERATOR(pg_catalog.>) t.seqmax
                             THEN pg_catalog.format('already past: no ticket left (its last draw was %s)', seq_last)
                             ELSE pg_catalog.format('already past: next ticket %s', cur_next) END;
            CONTINUE;
        END IF;
        -- (every number printed is a value of the column, the floor, or the
        -- sequence's bounds: all within bigint)
        IF target OPERATOR(pg_catalog.>) t.seqmax THEN
            RAISE EXCEPTION 'ticket sequence % cannot move past % (%): its last ticket is %', t.seq, col_max, col_where, t.seqmax
                USING ERRCODE = '2200H',
                      DETAIL = 'Nothing was changed.',
                      HINT = 'Check the stored values and the floor given; create a new ticket for the column if they are right.';
        END IF;
        draws := pg_catalog.div(target OPERATOR(pg_catalog.-) base, t.seqincrement);
        IF draws OPERATOR(pg_catalog.>) ticket_ahead THEN
            RAISE EXCEPTION 'a stored ticket, % %, would move ticket sequence % % draws past %',
                            col_max, col_where, t.seq, draws,
                            pg_catalog.format(CASE WHEN base OPERATOR(pg_catalog.>) cur_next
                                                   THEN 'the ticket its floor asks for (%s)'
                                                   ELSE 'its next ticket (%s)' END, base)
                USING ERRCODE = 'UID05',
                      DETAIL = pg_catalog.format('uid_catch_up() moves a ticket sequence at most ticket_ahead (%s) draws past its next ticket (or the floor given): nothing was changed.', ticket_ahead),
                      HINT = pg_catalog.format('If the value is right (the old server handed out that many tickets), run uid_catch_up() again with ticket_ahead => %s; if not, correct or remove the row.', draws);
        END IF;
        -- setval(seq, target - increment, true) where that is a value of the
        -- series, so that uid_tickets shows the last ticket handed out
        plan_called := plan_called OPERATOR(pg_catalog.||) (target OPERATOR(pg_catalog.>) t.seqstart);
        plan_val := plan_val OPERATOR(pg_catalog.||)
                    (CASE WHEN target OPERATOR(pg_catalog.>) t.seqstart
                          THEN target OPERATOR(pg_catalog.-) t.seqincrement ELSE target END)::bigint;
        plan_row := plan_row OPERATOR(pg_catalog.||)
                    (CASE WHEN dry_run THEN 'would set: ' ELSE 'set: ' END
                     OPERATOR(pg_catalog.||) pg_catalog.format('next ticket %s', target));
    END LOOP;

    -- Every limit, before anything changes.
    IF uid_max IS NOT NULL AND uid_max OPERATOR(pg_catalog.<) 0 THEN
        uid_max := NULL;
    END IF;
    -- A value ahead of the clock would hold the generator up until the clock
    -- gets there (uid_next() refuses with UID01 meanwhile): a value planted
    -- by any role that may write to such a table would stop every
    -- database's IDs.  Refused unless allow_ahead covers it.
    FOR f IN
        SELECT x.what, x.val, x.at, x.mover, x.src,
               pg_catalog.round((pg_catalog.date_part('epoch', x.at OPERATOR(pg_catalog.-) pg_catalog.clock_timestamp())
                                 OPERATOR(pg_catalog.*) 1000)::pg_catalog.numeric) AS ms
        FROM (VALUES ('uid', uid_max::text, @extschema@.uid_time(uid_max), 'uid_advance_past() moves uid_next()', uid_where),
                     ('UUID', uuid_max::text, @extschema@.uuid7_time(uuid_max), 'uuid7_advance_past() moves uuid7()', uuid_where))
             AS x(what, val, at, mover, src)
        WHERE x.at OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) ahead_ok)
    LOOP
        IF f.at OPERATOR(pg_catalog.>) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.+) '1 day'::interval) THEN
            RAISE EXCEPTION 'a stored %, % in %, carries the time %, more than a day ahead of this server''s clock',
                            f.what, f.val, f.src, f.at
                USING ERRCODE = 'UID05',
                      DETAIL = f.mover OPERATOR(pg_catalog.||) ' at most a day past the clock; nothing was changed.',
                      HINT = pg_catalog.format('Check the value and this server''s clock; uid_catch_up() can move past it once the clock is past %s (see "Moving the writes: uid_catch_up()" in docs/operations.md).',
                                               f.at OPERATOR(pg_catalog.-) '1 day'::interval);
        END IF;
        RAISE EXCEPTION 'a stored %, % in %, carries the time %, % ms ahead of this server''s clock',
                        f.what, f.val, f.src, f.at, f.ms
            USING ERRCODE = 'UID05',
                  DETAIL = pg_catalog.format('Moving past it would hold %s up for %s ms: nothing was changed.',
                                             CASE f.what WHEN 'uid' THEN 'uid_next() (refusing with UID01)' ELSE 'uuid7()' END, f.ms),
                  HINT = 'If the value is right (the old server''s clock runs ahead of this one''s), run uid_catch_up() again with allow_ahead => an interval that covers it; if not, correct or remove the row.';
    END LOOP;
    IF NOT dry_run AND (
        (uid_max IS NOT NULL AND NOT pg_catalog.has_function_privilege('@extschema@.uid_advance_past(bigint)'::pg_catalog.regprocedure, 'EXECUTE'))
        OR (uuid_max IS NOT NULL AND NOT pg_catalog.has_function_privilege('@extschema@.uuid7_advance_past(uuid)'::pg_catalog.regprocedure, 'EXECUTE'))) THEN
        RAISE EXCEPTION 'permission denied for function uid_advance_past or uuid7_advance_past'
            USING ERRCODE = '42501',
                  HINT = 'uid_catch_up() moves the generators with them: grant EXECUTE on both to the role that runs it, or run it as a superuser.';
    END IF;

    -- The changes: the generators (not transactional, so first: a failure
    -- of the first leaves everything as it was), then the sequences.
    IF uid_max IS NULL THEN
        RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, NULL::text,
                            'nothing stored: no change'::text;
    ELSE
        IF @extschema@.uid_time(uid_max) OPERATOR(pg_catalog.>) pg_catalog.clock_timestamp() THEN
            ready := pg_catalog.format('; the clock is behind it: uid_next() waits or refuses (UID01) until %s',
                                       @extschema@.uid_time(uid_max) OPERATOR(pg_catalog.+) '1 ms'::interval);
        ELSE
            ready := '';
        END IF;
        IF dry_run THEN
            RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, uid_max::text,
                                'would advance past it (unless already past)' OPERATOR(pg_catalog.||) ready;
        ELSE
            moved := @extschema@.uid_advance_past(uid_max);
            RETURN QUERY SELECT 'uid_next'::text, 'uid_next()'::text, NULL::name, uid_max::text,
                                CASE WHEN moved THEN 'advanced past it' OPERATOR(pg_catalog.||) ready
                                     ELSE 'already past: no change' END;
        END IF;
    END IF;
    IF uuid_max IS NULL THEN
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, NULL::text,
                            'nothing stored: no change'::text;
    ELSIF dry_run THEN
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, uuid_max::text,
                            'would advance past it (unless already past)'::text;
    ELSE
        moved := @extschema@.uuid7_advance_past(uuid_max);
        RETURN QUERY SELECT 'uuid7'::text, 'uuid7()'::text, NULL::name, uuid_max::text,
                            CASE WHEN moved THEN 'advanced past it' ELSE 'already past: no change' END;
    END IF;
    FOR i IN 1 .. pg_catalog.cardinality(plan_seq) LOOP
        IF NOT dry_run AND plan_val[i] IS NOT NULL THEN
            PERFORM pg_catalog.setval(plan_seq[i], plan_val[i], plan_called[i]);
        END IF;
        RETURN QUERY SELECT 'ticket'::text, plan_seq[i]::text, NULL::name, plan_max[i], plan_row[i];
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) IS
'Run on a server before its first write when it takes over another''s writes: moves uid_next() and uuid7() past every value stored in columns that use them (or an adopted sequence), and each ticket sequence past the values of the columns that draw from it (those of a table whose owner may not draw from it are left alone) and the floor given in ticket_floors, keeping its residue; one row per column read or left alone and per action. Each table is read as its owner (security-restricted). A stored value ahead of this server''s clock by more than allow_ahead (and uid.clock_max_wait_ms), or a stored ticket that would move its sequence more than ticket_ahead draws, is refused with UID05. dry_run: read and report only. Superuser only unless granted.';

REVOKE ALL ON FUNCTION uid_catch_up(boolean, jsonb, interval, bigint) FROM PUBLIC;
