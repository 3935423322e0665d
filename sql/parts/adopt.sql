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
    SELECT d.adrelid::pg_catalog.regclass, a.attname, 'default'::pg_catalog.text
    FROM pg_catalog.pg_depend dep
    JOIN pg_catalog.pg_attrdef d ON d.oid OPERATOR(pg_catalog.=) dep.objid
    JOIN pg_catalog.pg_attribute a
      ON a.attrelid OPERATOR(pg_catalog.=) d.adrelid AND a.attnum OPERATOR(pg_catalog.=) d.adnum
    WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
      AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND dep.refobjid OPERATOR(pg_catalog.=) $1
    UNION
    SELECT dep.refobjid::pg_catalog.regclass, a.attname, 'identity'
    FROM pg_catalog.pg_depend dep
    JOIN pg_catalog.pg_attribute a
      ON a.attrelid OPERATOR(pg_catalog.=) dep.refobjid
     AND a.attnum OPERATOR(pg_catalog.=) dep.refobjsubid
    WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND dep.objid OPERATOR(pg_catalog.=) $1
      AND dep.deptype OPERATOR(pg_catalog.=) 'i'
      AND dep.refobjsubid OPERATOR(pg_catalog.>) 0
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
    SELECT pg_catalog.has_sequence_privilege(c.relowner, $2, 'USAGE, UPDATE')
    FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) $1
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
BEGIN
    IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c
                                   WHERE c.oid OPERATOR(pg_catalog.=) rel), 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of % % to %', CASE (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) rel)
                WHEN 'S' THEN 'sequence' ELSE 'table' END, rel, what
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
    kind := (SELECT c.relkind FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) rel);
    column_name := col;
    IF kind OPERATOR(pg_catalog.=) 'S' THEN
        IF col IS NOT NULL THEN
            RAISE EXCEPTION 'a column was given for sequence %', rel
                USING ERRCODE = '22023',
                      HINT = 'Pass the table and its column, or the sequence alone.';
        END IF;
        RETURN;
    END IF;
    IF kind OPERATOR(pg_catalog.<>) ALL (ARRAY['r', 'p']::"char"[]) THEN
        RAISE EXCEPTION '% is neither a table nor a sequence', rel
            USING ERRCODE = '42809',
                  HINT = pg_catalog.format('%s() moves a table''s column, or a sequence, to uid.', fn);
    END IF;
    PERFORM @extschema@.uid_require_owner(rel, CASE fn WHEN 'uid_adopt' THEN 'adopt it' ELSE 'unadopt it' END);
    IF NOT dry THEN
        -- no insert runs while the column changes, and none of the rows
        -- read later is then still being written
        locked := pg_catalog.format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', rel);
        EXECUTE locked;
    END IF;
    IF col IS NULL THEN
        SELECT pg_catalog.min(a.attname) INTO column_name
        FROM pg_catalog.pg_index i
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid
         AND a.attnum OPERATOR(pg_catalog.=) i.indkey[0]
        WHERE i.indrelid OPERATOR(pg_catalog.=) rel AND i.indisprimary
          AND i.indnatts OPERATOR(pg_catalog.=) 1;
        IF column_name IS NULL THEN
            RAISE EXCEPTION 'table % has no single-column primary key', rel
                USING ERRCODE = '22023', HINT = pg_catalog.format('Name the column: %s(''table'', ''column'').', fn);
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
            RETURN NEXT pg_catalog.format('-- left as it is: %s.%I (its owner may not draw from %s)', users.tbl, users.col, seq);
            CONTINUE;
        END IF;
        PERFORM @extschema@.uid_require_owner(users.tbl,
            CASE fn WHEN 'uid_adopt' THEN 'adopt the sequence it uses' ELSE 'unadopt the sequence it uses' END);
        IF users.kind OPERATOR(pg_catalog.=) 'identity' AND locked_already IS NULL THEN
            RAISE EXCEPTION 'sequence % belongs to identity column %.%', seq, users.tbl, users.col
                USING ERRCODE = '55000',
                      HINT = pg_catalog.format('Pass the column: %s(%L, %L).', fn, users.tbl, users.col);
        END IF;
    END LOOP;
    IF dry THEN
        RETURN;
    END IF;
    FOR users IN SELECT DISTINCT u.tbl FROM @extschema@.uid_sequence_users(seq) AS u
                 WHERE u.may_draw AND u.tbl IS DISTINCT FROM locked_already LOOP
        s := pg_catalog.format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', users.tbl);
        EXECUTE s;
        RETURN NEXT s;
    END LOOP;
    s := pg_catalog.format('ALTER SEQUENCE %s NO CYCLE', seq);
    EXECUTE s;
    RETURN NEXT s;
END
$$;

COMMENT ON FUNCTION uid_adopt_lock(regclass, regclass, text, boolean) IS
'Checks that the caller owns the sequence and every table whose owner may draw from it, and (unless dry) locks them: the statements run, and a comment for each column left as it is.';

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
    a_rel     ALIAS FOR $1;
    a_col     ALIAS FOR $2;
    a_dry     ALIAS FOR $3;
    a_widen   ALIAS FOR $4;
    a_as_uid  ALIAS FOR $5;
    rkind     "char";
    att       record;
    def       text;
    deffn     regprocedure;
    seq       regclass;
    users     record;
    steps     text[] := '{}';
    widening  text[] := '{}';
    fks       text[] := '{}';
    label     text := 'adopted';
    incr      bigint;
    seq_last  bigint;
    seq_called boolean;
    seq_min   bigint;
    top       bigint;
    top_where text;
    m         bigint;
    first_id  bigint;
    s         text;
    run_from  integer;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, s
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_adopt'::text, a_dry) AS t;
    IF s IS NOT NULL THEN
        steps := steps OPERATOR(pg_catalog.||) s;
    END IF;
    IF rkind OPERATOR(pg_catalog.=) 'S' THEN
        IF a_as_uid THEN
            RAISE EXCEPTION 'as_uid => true needs a table column, not sequence %', a_rel
                USING ERRCODE = '22023',
                      HINT = 'Adopt the table whose column draws from the sequence: uid_adopt(''the_table'', ''its_column'', as_uid => true).';
        END IF;
        seq := a_rel;
    ELSE
        SELECT a.attnum, a.atttypid, a.attidentity, a.attgenerated,
               pg_catalog.pg_get_expr(d.adbin, d.adrelid) AS expr, d.oid AS defoid
        INTO att
        FROM pg_catalog.pg_attribute a
        LEFT JOIN pg_catalog.pg_attrdef d
          ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
        WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col
          AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'column "%" of table % does not exist', a_col, a_rel USING ERRCODE = '42703';
        END IF;

        -- a UUID column: uuid7() for new rows, old values untouched
        IF att.atttypid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype THEN
            SELECT dep.refobjid::pg_catalog.regprocedure INTO deffn
            FROM pg_catalog.pg_depend dep
            WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
              AND dep.objid OPERATOR(pg_catalog.=) att.defoid
              AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass;
            IF a_as_uid THEN
                RAISE EXCEPTION 'as_uid => true needs a bigint column; %.% is uuid', a_rel, a_col
                    USING ERRCODE = '42804',
                          HINT = 'A UUID is already a JSON string; leave as_uid out for uuid columns.';
            END IF;
            IF deffn OPERATOR(pg_catalog.=) '@extschema@.uuid7()'::pg_catalog.regprocedure THEN
                RAISE NOTICE 'column %.% already uses uuid7(): nothing to do', a_rel, a_col;
                RETURN;
            END IF;
            IF att.expr IS NOT NULL AND NOT (
                 att.expr OPERATOR(pg_catalog.~) '^[a-z0-9_."]*\(\)$'
                 AND (deffn OPERATOR(pg_catalog.=) 'pg_catalog.gen_random_uuid()'::pg_catalog.regprocedure
                      OR (pg_catalog.to_regprocedure('pg_catalog.uuidv4()') IS NOT NULL
                          AND deffn OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure('pg_catalog.uuidv4()'))
                      OR EXISTS (SELECT 1 FROM pg_catalog.pg_depend e
                                 JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) e.refobjid
                                 JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) e.objid
                                 WHERE e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                                   AND e.objid OPERATOR(pg_catalog.=) deffn
                                   AND e.deptype OPERATOR(pg_catalog.=) 'e'
                                   AND x.extname OPERATOR(pg_catalog.=) 'uuid-ossp'
                                   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['uuid_generate_v4', 'uuid_generate_v1', 'uuid_generate_v1mc']::name[])))) THEN
                RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', a_rel, a_col, att.expr
                    USING ERRCODE = '55000',
                          HINT = 'uid_adopt() moves UUID columns whose default is gen_random_uuid(), uuidv4(), uuid_generate_v4(), uuid_generate_v1() or uuid_generate_v1mc(); set another default with ALTER TABLE.';
            END IF;
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE %s ALTER COLUMN %I SET DEFAULT @extschema@.uuid7()', a_rel, a_col);
            IF NOT a_dry THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[pg_catalog.array_length(steps, 1)]);
            END IF;
            RETURN QUERY SELECT pg_catalog.unnest(steps);
            RETURN;
        END IF;

        IF att.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', 'pg_catalog.int4', 'pg_catalog.int2', '@extschema@.uid']::pg_catalog.regtype[]) THEN
            RAISE EXCEPTION 'column %.% is of type %, not bigint or uuid', a_rel, a_col, att.atttypid::pg_catalog.regtype
                USING ERRCODE = '42804',
                      HINT = 'uid_adopt() moves bigint and uid columns (bigserial, identity, nextval() defaults) and uuid columns.';
        END IF;

        IF att.attidentity OPERATOR(pg_catalog.<>) '' THEN
            seq := pg_catalog.pg_get_serial_sequence(a_rel::pg_catalog.text, a_col)::pg_catalog.regclass;
            label := CASE att.attidentity WHEN 'a' THEN 'adopted identity always'
                     ELSE 'adopted identity by default' END;
        ELSIF att.expr IS NULL THEN
            RAISE EXCEPTION 'column %.% has no default', a_rel, a_col
                USING ERRCODE = '55000',
                      HINT = 'If the application takes values from a sequence itself (Hibernate''s SEQUENCE strategy), adopt that sequence: uid_adopt(''its_seq''). Otherwise SET DEFAULT uid_next().';
        ELSE
            SELECT dep.refobjid::pg_catalog.regclass INTO seq
            FROM pg_catalog.pg_depend dep
            WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
              AND dep.objid OPERATOR(pg_catalog.=) att.defoid
              AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
              AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) dep.refobjid) OPERATOR(pg_catalog.=) 'S';
            IF att.expr OPERATOR(pg_catalog.~) 'uid_next\(\)' THEN
                IF a_as_uid AND att.atttypid OPERATOR(pg_catalog.<>) '@extschema@.uid'::pg_catalog.regtype THEN
                    s := pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE @extschema@.uid', a_rel, a_col);
                    IF NOT a_dry THEN
                        PERFORM @extschema@.uid_alter_as_owner(s);
                    END IF;
                    RETURN QUERY SELECT pg_catalog.unnest(steps OPERATOR(pg_catalog.||) s);
                    RETURN;
                END IF;
                RAISE NOTICE 'column %.% already uses uid_next(): nothing to do', a_rel, a_col;
                RETURN;
            END IF;
            -- uid_sequence_nextval(): adopted, or restored without its
            -- label (pg_dump --no-security-labels), which is set again below
            IF seq IS NULL OR att.expr OPERATOR(pg_catalog.!~) '^(pg_catalog\.|[a-z_"]+\.)?(nextval|uid_sequence_nextval)\(''[^'']*''::regclass\)$' THEN
                RAISE EXCEPTION 'column %.% has default %, which uid_adopt() does not replace', a_rel, a_col, att.expr
                    USING ERRCODE = '55000',
                          HINT = 'uid_adopt() moves columns whose default is nextval() of a sequence, identity columns and UUID columns.';
            END IF;
        END IF;

        -- integer and smallint: the column and every column that references
        -- it must become bigint first
        IF att.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', '@extschema@.uid']::pg_catalog.regtype[]) THEN
            SELECT pg_catalog.array_agg(pg_catalog.format('%s.%I', c.conrelid::pg_catalog.regclass, fa.attname)
                                        ORDER BY 1),
                   pg_catalog.array_agg(pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint',
                                                          c.conrelid::pg_catalog.regclass, fa.attname) ORDER BY 1)
            INTO fks, widening
            FROM pg_catalog.pg_constraint c
            CROSS JOIN LATERAL pg_catalog.generate_subscripts(c.confkey, 1) AS k(i)
            JOIN pg_catalog.pg_attribute fa
              ON fa.attrelid OPERATOR(pg_catalog.=) c.conrelid
             AND fa.attnum OPERATOR(pg_catalog.=) c.conkey[k.i]
            WHERE c.contype OPERATOR(pg_catalog.=) 'f'
              AND c.confrelid OPERATOR(pg_catalog.=) a_rel
              AND c.confkey[k.i] OPERATOR(pg_catalog.=) att.attnum
              AND c.conparentid OPERATOR(pg_catalog.=) 0
              AND fa.atttypid OPERATOR(pg_catalog.<>) ALL (ARRAY['pg_catalog.int8', '@extschema@.uid']::pg_catalog.regtype[]);
            fks := COALESCE(fks, '{}');
            widening := COALESCE(widening, '{}') OPERATOR(pg_catalog.||)
                pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE bigint', a_rel, a_col);
            IF att.attidentity OPERATOR(pg_catalog.=) '' THEN
                widening := widening OPERATOR(pg_catalog.||)
                    pg_catalog.format('ALTER SEQUENCE %s AS bigint', seq);
            END IF;
            IF NOT a_widen AND NOT a_dry THEN
                RAISE EXCEPTION 'column %.% is %: uid IDs need bigint', a_rel, a_col, att.atttypid::pg_catalog.regtype
                    USING ERRCODE = '42804',
                          DETAIL = pg_catalog.format('Columns that reference it: %s. These statements widen them: %s.',
                                   CASE WHEN pg_catalog.cardinality(fks) OPERATOR(pg_catalog.=) 0 THEN 'none'
                                        ELSE pg_catalog.array_to_string(fks, ', ') END,
                                   pg_catalog.array_to_string(widening, '; ')),
                          HINT = 'Run uid_adopt() with widen => true to run them in the same transaction: each rewrites its table under an ACCESS EXCLUSIVE lock.';
            END IF;
            FOREACH s IN ARRAY widening LOOP
                IF a_dry THEN
                    NULL;
                ELSIF pg_catalog.starts_with(s, 'ALTER TABLE ') THEN
                    -- each table's as its owner (src/tables/owner_ddl.c)
                    PERFORM @extschema@.uid_alter_as_owner(s);
                ELSE
                    EXECUTE s;
                END IF;
                steps := steps OPERATOR(pg_catalog.||) s;
            END LOOP;
        END IF;
    END IF;

    -- the sequence and every column that draws from it
    PERFORM @extschema@.uid_require_owner(seq, 'adopt it'::text);
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_seclabel l
               WHERE l.objoid OPERATOR(pg_catalog.=) seq
                 AND l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                 AND l.provider OPERATOR(pg_catalog.=) 'uid') THEN
        IF rkind OPERATOR(pg_catalog.=) 'S' THEN
            RAISE NOTICE 'sequence % is adopted already: nothing to do', seq;
        ELSE
            RAISE NOTICE 'column %.% is adopted already (sequence %): nothing to do', a_rel, a_col, seq;
        END IF;
        RETURN;
    END IF;
    SELECT q.seqincrement, q.seqmin INTO incr, seq_min FROM pg_catalog.pg_sequence q
    WHERE q.seqrelid OPERATOR(pg_catalog.=) seq;
    IF incr OPERATOR(pg_catalog.<) 1 OR incr OPERATOR(pg_catalog.>) 2048 THEN
        RAISE EXCEPTION 'sequence % has INCREMENT %, outside 1 .. 2048', seq, incr
            USING ERRCODE = '22023',
                  DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer (for every Hibernate optimizer): at most one millisecond''s 4096.',
                  HINT = 'Lower the INCREMENT (Hibernate: allocationSize) to at most 2048 first; descending sequences cannot be adopted.';
    END IF;
    -- a call with INCREMENT n > 1 is a batch of 2n IDs: uid_sequence_nextval()
    -- holds it to uid_next_batch()'s limits at every call; refused here first
    IF incr OPERATOR(pg_catalog.>) 1 THEN
        IF 2 OPERATOR(pg_catalog.*) incr OPERATOR(pg_catalog.>)
           pg_catalog.current_setting('uid.max_batch')::pg_catalog.int8 THEN
            RAISE EXCEPTION 'sequence % has INCREMENT %: each nextval() would reserve % IDs, more than uid.max_batch (%)',
                            seq, incr, 2 OPERATOR(pg_catalog.*) incr, pg_catalog.current_setting('uid.max_batch')
                USING ERRCODE = '54000',
                      DETAIL = 'Each nextval() of an adopted sequence reserves the 2 x INCREMENT IDs around its answer: a batch, as uid_next_batch() draws.',
                      HINT = 'Lower the INCREMENT (Hibernate: allocationSize), or have a superuser raise uid.max_batch.';
        END IF;
        IF NOT pg_catalog.has_function_privilege('@extschema@.uid_next_batch(integer)'::pg_catalog.regprocedure, 'EXECUTE') THEN
            RAISE EXCEPTION 'permission denied to adopt sequence % with INCREMENT %: its nextval() draws batches', seq, incr
                USING ERRCODE = '42501',
                      DETAIL = 'Each nextval() of an adopted sequence with INCREMENT n > 1 reserves 2n IDs, a batch; this role may not execute uid_next_batch().',
                      HINT = 'Lower the INCREMENT to 1, or have EXECUTE on uid_next_batch(integer) granted to the roles that draw from it.';
        END IF;
    END IF;
    steps := steps OPERATOR(pg_catalog.||) ARRAY(
        SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind OPERATOR(pg_catalog.<>) 'S' THEN a_rel END,
                                                 'uid_adopt'::text, a_dry) AS l);

    -- the largest value already handed out: in the columns (through their
    -- indexes) and by the sequence (values an application holds but has
    -- not stored yet are below its last value + INCREMENT)
    EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', seq) INTO seq_last, seq_called;
    top := CASE WHEN seq_called THEN seq_last OPERATOR(pg_catalog.+) (incr OPERATOR(pg_catalog.-) 1) END;
    top_where := pg_catalog.format('sequence %s', seq);
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i
                       JOIN pg_catalog.pg_class ic ON ic.oid OPERATOR(pg_catalog.=) i.indexrelid
                       JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) ic.relam
                       JOIN pg_catalog.pg_attribute ia
                         ON ia.attrelid OPERATOR(pg_catalog.=) users.tbl
                        AND ia.attnum OPERATOR(pg_catalog.=) i.indkey[0]
                       WHERE i.indrelid OPERATOR(pg_catalog.=) users.tbl
                         AND ia.attname OPERATOR(pg_catalog.=) users.col
                         AND am.amname OPERATOR(pg_catalog.=) 'btree')
           AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) users.tbl) OPERATOR(pg_catalog.=) 'r' THEN
            RAISE NOTICE 'column %.% has no index: its largest value is found by reading the whole table', users.tbl, users.col;
        END IF;
        m := @extschema@.uid_stored_max(users.tbl, users.col);
        IF m IS NOT NULL AND (top IS NULL OR m OPERATOR(pg_catalog.>) top) THEN
            top := m;
            top_where := pg_catalog.format('column %s.%I', users.tbl, users.col);
        END IF;
    END LOOP;
    first_id := @extschema@.uid_next();
    IF top IS NOT NULL AND top OPERATOR(pg_catalog.>=) first_id THEN
        RAISE EXCEPTION '% holds values up to %, not below the first ID uid would issue now (%)',
                top_where, top, first_id
            USING ERRCODE = 'UID04',
                  DETAIL = pg_catalog.format('Read as uid IDs, the values reach %s UTC, %s s ahead of this server''s clock.',
                           pg_catalog.to_char(@extschema@.uid_time(top) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                           ((top OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.-) (first_id OPERATOR(pg_catalog.>>) 22)) OPERATOR(pg_catalog./) 1000),
                  HINT = 'New IDs must sort above the existing ones. IDs from a Snowflake-style generator with an earlier epoch stay ahead of uid''s; keep that generator for this table, or give the table new keys.';
    END IF;

    -- the column defaults, an identity turned into a default, the sequence
    -- left at its maximum, and the label
    run_from := COALESCE(pg_catalog.array_length(steps, 1), 0) OPERATOR(pg_catalog.+) 1;
    IF label OPERATOR(pg_catalog.<>) 'adopted' THEN
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', a_rel, a_col),
            pg_catalog.format('CREATE SEQUENCE %s AS bigint INCREMENT %s MINVALUE %s MAXVALUE %s START %s NO CYCLE OWNED BY %s.%I',
                              seq, incr, seq_last OPERATOR(pg_catalog.-) 1, seq_last, seq_last, a_rel, a_col),
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT @extschema@.uid_sequence_nextval(%L::regclass)',
                              a_rel, a_col, seq)];
    ELSE
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT @extschema@.uid_sequence_nextval(%L::regclass)',
                users.tbl, users.col, seq);
        END LOOP;
        steps := steps OPERATOR(pg_catalog.||)
            pg_catalog.format('ALTER SEQUENCE %s MINVALUE %s MAXVALUE %s', seq,
                              LEAST(seq_min, seq_last OPERATOR(pg_catalog.-) 1), seq_last);
    END IF;
    -- the column to the uid type: bigint's representation, so the table
    -- and its indexes are kept as they are (an identity is dropped above)
    -- (as_uid is refused for a sequence above: att is a table's column here)
    IF a_as_uid THEN
        IF att.atttypid OPERATOR(pg_catalog.<>) '@extschema@.uid'::pg_catalog.regtype THEN
            steps := steps OPERATOR(pg_catalog.||)
                pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I TYPE @extschema@.uid', a_rel, a_col);
        END IF;
    END IF;
    steps := steps OPERATOR(pg_catalog.||) ARRAY[
        pg_catalog.format('SELECT pg_catalog.setval(%L, %s, true)', seq, seq_last),
        pg_catalog.format('SECURITY LABEL FOR uid ON SEQUENCE %s IS %L', seq, label)];
    IF NOT a_dry THEN
        FOR i IN run_from .. pg_catalog.array_length(steps, 1) LOOP
            -- a table's statements as its owner (src/tables/owner_ddl.c)
            IF pg_catalog.starts_with(steps[i], 'ALTER TABLE ')
               OR pg_catalog.starts_with(steps[i], 'CREATE SEQUENCE ') THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[i]);
            ELSE
                EXECUTE steps[i];
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT pg_catalog.unnest(steps);
END
$$;

COMMENT ON FUNCTION uid_adopt(regclass, name, boolean, boolean, boolean) IS
'Moves a table''s column (default: its single-column primary key), or a sequence, to uid in place, in the calling transaction; as_uid => true also changes the column to the uid type (no rewrite); returns the statements it ran (dry_run: would run). See docs/adopting.md.';

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
    users   record;
    steps   text[] := '{}';
    top     bigint;
    m       bigint;
    restart bigint;
    s       text;
    owner_tbl regclass;
    owner_col name;
    run_from integer;
BEGIN
    SELECT t.kind, t.column_name, t.locked INTO rkind, a_col, s
    FROM @extschema@.uid_adopt_target(a_rel, a_col, 'uid_unadopt'::text, a_dry) AS t;
    IF s IS NOT NULL THEN
        steps := steps OPERATOR(pg_catalog.||) s;
    END IF;
    IF rkind OPERATOR(pg_catalog.=) 'S' THEN
        seq := a_rel;
    ELSE
        -- a UUID column back to version 4
        IF EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
                   JOIN pg_catalog.pg_attrdef d
                     ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
                   JOIN pg_catalog.pg_depend dep
                     ON dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                    AND dep.objid OPERATOR(pg_catalog.=) d.oid
                    AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                    AND dep.refobjid OPERATOR(pg_catalog.=) '@extschema@.uuid7()'::pg_catalog.regprocedure
                   WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col) THEN
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE %s ALTER COLUMN %I SET DEFAULT pg_catalog.gen_random_uuid()', a_rel, a_col);
            IF NOT a_dry THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[pg_catalog.array_length(steps, 1)]);
            END IF;
            RETURN QUERY SELECT pg_catalog.unnest(steps);
            RETURN;
        END IF;
        SELECT dep.refobjid::pg_catalog.regclass INTO seq
        FROM pg_catalog.pg_attribute a
        JOIN pg_catalog.pg_attrdef d
          ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid AND d.adnum OPERATOR(pg_catalog.=) a.attnum
        JOIN pg_catalog.pg_depend dep
          ON dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_attrdef'::pg_catalog.regclass
         AND dep.objid OPERATOR(pg_catalog.=) d.oid
         AND dep.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
        WHERE a.attrelid OPERATOR(pg_catalog.=) a_rel AND a.attname OPERATOR(pg_catalog.=) a_col
          AND (SELECT k_.relkind FROM pg_catalog.pg_class k_ WHERE k_.oid OPERATOR(pg_catalog.=) dep.refobjid) OPERATOR(pg_catalog.=) 'S';
        IF seq IS NULL THEN
            RAISE NOTICE 'column %.% is not adopted: nothing to do', a_rel, a_col;
            RETURN;
        END IF;
    END IF;

    PERFORM @extschema@.uid_require_owner(seq, 'unadopt it'::text);
    SELECT l.label INTO label FROM pg_catalog.pg_seclabel l
    WHERE l.objoid OPERATOR(pg_catalog.=) seq
      AND l.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
      AND l.provider OPERATOR(pg_catalog.=) 'uid';
    IF label IS NULL THEN
        RAISE NOTICE 'sequence % is not adopted: nothing to do', seq;
        RETURN;
    END IF;
    SELECT q.seqincrement INTO incr FROM pg_catalog.pg_sequence q
    WHERE q.seqrelid OPERATOR(pg_catalog.=) seq;
    steps := steps OPERATOR(pg_catalog.||) ARRAY(
        SELECT l FROM @extschema@.uid_adopt_lock(seq, CASE WHEN rkind OPERATOR(pg_catalog.<>) 'S' THEN a_rel END,
                                                 'uid_unadopt'::text, a_dry) AS l);
    run_from := COALESCE(pg_catalog.array_length(steps, 1), 0) OPERATOR(pg_catalog.+) 1;

    -- above every stored value and every ID this server issued (blocks an
    -- application holds included): the next ID uid would issue
    top := @extschema@.uid_next();
    FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
        m := @extschema@.uid_stored_max(users.tbl, users.col);
        top := GREATEST(top, m);
    END LOOP;
    restart := top OPERATOR(pg_catalog.+) incr OPERATOR(pg_catalog.+) 1;

    IF label OPERATOR(pg_catalog.=) 'adopted' THEN
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('SECURITY LABEL FOR uid ON SEQUENCE %s IS NULL', seq),
            pg_catalog.format('ALTER SEQUENCE %s NO MAXVALUE RESTART WITH %s', seq, restart)];
        FOR users IN SELECT * FROM @extschema@.uid_sequence_users(seq) AS u WHERE u.may_draw LOOP
            steps := steps OPERATOR(pg_catalog.||) pg_catalog.format(
                'ALTER TABLE ONLY %s ALTER COLUMN %I SET DEFAULT pg_catalog.nextval(%L::regclass)',
                users.tbl, users.col, seq);
        END LOOP;
    ELSE
        SELECT dep.refobjid::pg_catalog.regclass, a.attname INTO owner_tbl, owner_col
        FROM pg_catalog.pg_depend dep
        JOIN pg_catalog.pg_attribute a
          ON a.attrelid OPERATOR(pg_catalog.=) dep.refobjid AND a.attnum OPERATOR(pg_catalog.=) dep.refobjsubid
        WHERE dep.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
          AND dep.objid OPERATOR(pg_catalog.=) seq
          AND dep.refobjsubid OPERATOR(pg_catalog.>) 0 AND dep.deptype OPERATOR(pg_catalog.=) 'a';
        steps := steps OPERATOR(pg_catalog.||) ARRAY[
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', owner_tbl, owner_col),
            pg_catalog.format('DROP SEQUENCE %s', seq),
            pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I ADD GENERATED %s AS IDENTITY (SEQUENCE NAME %s INCREMENT %s START WITH %s)',
                              owner_tbl, owner_col,
                              CASE label WHEN 'adopted identity always' THEN 'ALWAYS' ELSE 'BY DEFAULT' END,
                              seq, incr, restart)];
    END IF;
    IF NOT a_dry THEN
        FOR i IN run_from .. pg_catalog.array_length(steps, 1) LOOP
            -- a table's statements as its owner (src/tables/owner_ddl.c)
            IF pg_catalog.starts_with(steps[i], 'ALTER TABLE ')
               OR pg_catalog.starts_with(steps[i], 'CREATE SEQUENCE ') THEN
                PERFORM @extschema@.uid_alter_as_owner(steps[i]);
            ELSE
                EXECUTE steps[i];
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT pg_catalog.unnest(steps);
END
$$;

COMMENT ON FUNCTION uid_unadopt(regclass, name, boolean) IS
'The inverse of uid_adopt(): the column (or sequence) back to its sequence, identity or gen_random_uuid(), the sequence''s next value above every value stored and every ID this server issued. Issued IDs stay. See docs/adopting.md.';
