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
