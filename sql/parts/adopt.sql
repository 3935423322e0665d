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
