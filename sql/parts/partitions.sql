
-- ---------------------------------------------------------------------------
-- Tables partitioned by the time in their IDs (docs/partitioning.md)
-- ---------------------------------------------------------------------------

-- The calendar periods of a table PARTITION BY RANGE (id), whose key is
-- bigint or uid (uid_next() IDs) or uuid (UUIDv7), and the bounds of the
-- partition of each: from the lowest ID at the start of the period
-- (uid_first_at(), uuid7_first_at()) to the lowest at the start of the
-- next, so that adjacent periods share their bound exactly and no ID falls
-- between two.  every is one hour, day, week (ISO, from Monday) or month;
-- the periods start at midnight (or the hour) in time_zone, and the names
-- are the parent's with _pYYYYMMDDHH, _pYYYYMMDD, _pIYYYwIW or _pYYYYMM of
-- the local start.  A period before 2026 holds no uid_next() ID (both
-- bounds 0) and is left out.  It reads the catalog only: the parent's key
-- and its type.  The periods are counted in local time (timestamp without
-- time zone) and converted at their ends, so that a day is a local day
-- across a change of daylight saving time and each name is one local
-- period (an hour that a change skips has no IDs and is left out; one it
-- repeats joins the partition of the hour before it).
CREATE OR REPLACE FUNCTION uid_partition_periods(parent regclass, every interval, from_time timestamptz,
                                                 periods integer, time_zone text DEFAULT 'UTC')
RETURNS TABLE (name text, starts timestamptz, ends timestamptz, from_id text, to_id text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    key_type oid;
    unit text;
    fmt text;
    parent_name text;
    t timestamp;
    i integer;
BEGIN
    SELECT a.atttypid, c.relname INTO key_type, parent_name
    FROM pg_catalog.pg_partitioned_table p
    JOIN pg_catalog.pg_class c ON c.oid = p.partrelid
    JOIN pg_catalog.pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
    WHERE p.partrelid = parent AND p.partstrat = 'r' AND p.partnatts = 1;
    IF NOT FOUND OR key_type NOT IN ('pg_catalog.int8'::pg_catalog.regtype, '@extschema@.uid'::pg_catalog.regtype,
                                     'pg_catalog.uuid'::pg_catalog.regtype) THEN
        RAISE EXCEPTION USING
            ERRCODE = 'invalid_parameter_value',
            MESSAGE = pg_catalog.format('%s is not partitioned by range of one column of type bigint, uid or uuid', parent),
            HINT = 'Create it with PARTITION BY RANGE (id), id bigint, uid or uuid.';
    END IF;
    -- the fields of the interval, not its length: '1 day' = '24 hours' as intervals
    unit := CASE pg_catalog.format('%s %s %s',
                                   pg_catalog.date_part('year', every) * 12 + pg_catalog.date_part('month', every),
                                   pg_catalog.date_part('day', every),
                                   pg_catalog.date_part('epoch', every - pg_catalog.date_trunc('day', every)))
        WHEN '0 0 3600' THEN 'hour' WHEN '0 1 0' THEN 'day'
        WHEN '0 7 0' THEN 'week' WHEN '1 0 0' THEN 'month' END;
    IF unit IS NULL OR periods IS NULL OR periods < 0 OR from_time IS NULL THEN
        RAISE EXCEPTION USING
            ERRCODE = 'invalid_parameter_value',
            MESSAGE = pg_catalog.format('cannot make periods of %s', every),
            DETAIL = 'every is 1 hour, 1 day, 1 week or 1 month (not 24 hours, 7 days or 30 days); periods is 0 or more; from_time is not NULL.';
    END IF;
    fmt := CASE unit WHEN 'hour' THEN 'YYYYMMDDHH24' WHEN 'day' THEN 'YYYYMMDD'
                     WHEN 'week' THEN 'IYYY"w"IW' ELSE 'YYYYMM' END;
    t := pg_catalog.date_trunc(unit, pg_catalog.timezone(time_zone, from_time));
    FOR i IN 0 .. periods - 1 LOOP
        starts := pg_catalog.timezone(time_zone, t + i * every);
        ends := pg_catalog.timezone(time_zone, t + (i + 1) * every);
        name := pg_catalog.format('%s_p%s', parent_name, pg_catalog.to_char(t + i * every, fmt));
        IF key_type = 'pg_catalog.uuid'::pg_catalog.regtype THEN
            from_id := @extschema@.uuid7_first_at(starts)::text;
            to_id := @extschema@.uuid7_first_at(ends)::text;
        ELSE
            from_id := @extschema@.uid_first_at(starts)::text;
            to_id := @extschema@.uid_first_at(ends)::text;
        END IF;
        IF from_id IS NULL OR to_id IS NULL THEN
            RAISE EXCEPTION USING
                ERRCODE = 'datetime_field_overflow',
                MESSAGE = pg_catalog.format('the period from %s to %s is beyond the IDs'' time', starts, ends);
        END IF;
        CONTINUE WHEN from_id = to_id;
        IF pg_catalog.octet_length(name) > 63 THEN
            RAISE EXCEPTION USING
                ERRCODE = 'invalid_parameter_value',
                MESSAGE = pg_catalog.format('partition name %s is longer than 63 bytes', name),
                HINT = 'Rename the parent table to a shorter name.';
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_partition_periods(regclass, interval, timestamptz, integer, text) IS
'The calendar periods of a table PARTITION BY RANGE (id) from from_time, with each partition''s name and exact bounds.';

-- The steps that change a table's partitions run as its owner and no one
-- else (42501): run by another role, even a superuser, planning their
-- statements would run the owner's code with that role's rights.
-- uid_partitions_maintain() runs them as the owner for any caller with the
-- owner's privileges.
CREATE OR REPLACE FUNCTION uid_partition_check_owner(parent regclass)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF parent IS NULL OR NOT EXISTS (SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_roles r ON r.oid = c.relowner
                                     WHERE c.oid = parent AND r.rolname = current_user) THEN
        RAISE EXCEPTION USING
            ERRCODE = 'insufficient_privilege',
            MESSAGE = pg_catalog.format('only the owner of table %s changes its partitions', parent),
            HINT = 'Call uid_partitions_maintain(), which runs the steps as the table''s owner.';
    END IF;
END
$$;

-- Creates one partition of a period unless the parent has it (by name),
-- after checking that the parent's DEFAULT partition, if any, holds no row
-- of its range: PostgreSQL would fail the CREATE with a check violation,
-- and moving the rows is the owner's decision (55000, with how).  The
-- partition is made in the parent's schema, by the table's owner.
CREATE OR REPLACE FUNCTION uid_partition_add(parent regclass, part_name text, from_id text, to_id text)
RETURNS boolean
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp text;
    key text;
    key_type text;
    dflt regclass;
    found_row boolean;
BEGIN
    PERFORM @extschema@.uid_partition_check_owner(parent);
    SELECT c.relnamespace::pg_catalog.regnamespace::text INTO STRICT nsp FROM pg_catalog.pg_class c WHERE c.oid = parent;
    IF EXISTS (SELECT FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = parent AND c.relname = part_name) THEN
        RETURN false;
    END IF;
    SELECT a.attname, pg_catalog.format_type(a.atttypid, NULL) INTO STRICT key, key_type
    FROM pg_catalog.pg_partitioned_table p
    JOIN pg_catalog.pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
    WHERE p.partrelid = parent;
    SELECT p.partdefid::pg_catalog.regclass INTO dflt
    FROM pg_catalog.pg_partitioned_table p WHERE p.partrelid = parent AND p.partdefid <> 0;
    IF dflt IS NOT NULL THEN
        EXECUTE pg_catalog.format('SELECT EXISTS (SELECT FROM ONLY %s WHERE %I >= %L::%s AND %I < %L::%s)',
                                  dflt, key, from_id, key_type, key, to_id, key_type) INTO found_row;
        IF found_row THEN
            RAISE EXCEPTION USING
                ERRCODE = 'object_not_in_prerequisite_state',
                MESSAGE = pg_catalog.format('the default partition %s holds rows of the range of %s', dflt, part_name),
                DETAIL = pg_catalog.format('Rows with %I >= %s and < %s.', key, from_id, to_id),
                HINT = 'Move them out (DELETE ... RETURNING into a table, then INSERT into the parent after the partition is made), or run the maintenance further ahead.';
        END IF;
    END IF;
    EXECUTE pg_catalog.format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)',
                              nsp, part_name, parent, from_id, to_id);
    RETURN true;
END
$$;

COMMENT ON FUNCTION uid_partition_add(regclass, text, text, text) IS
'Creates the partition part_name of parent for IDs from from_id to to_id unless it has one of that name; refuses while its default partition holds such rows.';

-- Detaches and drops every partition of parent whose upper bound is at or
-- below cutoff_id (so that it holds no ID at or after the cutoff's time);
-- the default partition and partitions up to MAXVALUE stay.  The bounds
-- are read from the catalog (pg_get_expr of the partition bound) and
-- compared as values of the key's type.
CREATE OR REPLACE FUNCTION uid_partition_retire(parent regclass, cutoff_id text)
RETURNS SETOF text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    key_type text;
    part record;
    old boolean;
BEGIN
    PERFORM @extschema@.uid_partition_check_owner(parent);
    SELECT pg_catalog.format_type(a.atttypid, NULL) INTO STRICT key_type
    FROM pg_catalog.pg_partitioned_table p
    JOIN pg_catalog.pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
    WHERE p.partrelid = parent;
    FOR part IN
        SELECT c.oid::pg_catalog.regclass AS rel, pg_catalog.quote_ident(c.relname) AS label,
               pg_catalog.substring(pg_catalog.pg_get_expr(c.relpartbound, c.oid),
                                    ' TO \(''?([^'')]*)''?\)$') AS upper_bound
        FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = parent
        ORDER BY c.relname
    LOOP
        CONTINUE WHEN part.upper_bound IS NULL OR part.upper_bound = 'MAXVALUE';
        EXECUTE pg_catalog.format('SELECT %L::%s <= %L::%s', part.upper_bound, key_type, cutoff_id, key_type)
            INTO old;
        CONTINUE WHEN NOT old;
        EXECUTE pg_catalog.format('ALTER TABLE %s DETACH PARTITION %s', parent, part.rel);
        EXECUTE pg_catalog.format('DROP TABLE %s', part.rel);
        RETURN NEXT 'dropped ' || part.label;
    END LOOP;
END
$$;

COMMENT ON FUNCTION uid_partition_retire(regclass, text) IS
'Detaches and drops the partitions of parent whose upper bound is at or below cutoff_id.';

-- The steps of uid_partitions_maintain(), which runs them as the table's
-- owner (src/tables/partitions.c): the partitions of the period holding
-- at_time and the ahead periods after it (those missing), and with keep,
-- the partitions wholly older than at_time - keep dropped.  Two runs on one
-- table wait for each other (a transaction-level advisory lock on the
-- table's oid, before any DDL's own locks).  Returns one line per partition
-- created or dropped.
CREATE OR REPLACE FUNCTION uid_partitions_steps(parent regclass, every interval, ahead integer, keep interval,
                                                time_zone text, at_time timestamptz)
RETURNS SETOF text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    period record;
    cutoff text;
BEGIN
    PERFORM @extschema@.uid_partition_check_owner(parent);
    -- the pair (pg_class, oid): no other user of advisory locks is likely to take it
    PERFORM pg_catalog.pg_advisory_xact_lock('pg_catalog.pg_class'::pg_catalog.regclass::oid::integer,
                                             parent::oid::integer);
    FOR period IN
        SELECT * FROM @extschema@.uid_partition_periods(parent, every, at_time, ahead + 1, time_zone)
    LOOP
        IF @extschema@.uid_partition_add(parent, period.name, period.from_id, period.to_id) THEN
            RETURN NEXT 'created ' || pg_catalog.quote_ident(period.name);
        END IF;
    END LOOP;
    IF keep IS NOT NULL THEN
        SELECT CASE WHEN p.atttypid = 'pg_catalog.uuid'::pg_catalog.regtype
                    THEN @extschema@.uuid7_first_at(at_time - keep)::text
                    ELSE @extschema@.uid_first_at(at_time - keep)::text END
        INTO STRICT cutoff
        FROM pg_catalog.pg_partitioned_table t
        JOIN pg_catalog.pg_attribute p ON p.attrelid = t.partrelid AND p.attnum = t.partattrs[0]
        WHERE t.partrelid = parent;
        RETURN QUERY SELECT * FROM @extschema@.uid_partition_retire(parent, cutoff);
    END IF;
END
$$;

COMMENT ON FUNCTION uid_partitions_steps(regclass, interval, integer, interval, text, timestamptz) IS
'The steps of uid_partitions_maintain(), run by the table''s owner itself.';

-- The maintenance of a table partitioned by the time in its IDs: the
-- steps above, run as the table's owner in a security-restricted operation
-- (src/tables/partitions.c), for a caller with the owner's privileges
-- (42501 for any other).
CREATE OR REPLACE FUNCTION uid_partitions_maintain(parent regclass, every interval DEFAULT '1 day',
                                                   ahead integer DEFAULT 3, keep interval DEFAULT NULL,
                                                   time_zone text DEFAULT 'UTC', at_time timestamptz DEFAULT now())
RETURNS SETOF text
LANGUAGE C VOLATILE
AS 'MODULE_PATHNAME', 'uid_partitions_maintain';

COMMENT ON FUNCTION uid_partitions_maintain(regclass, interval, integer, interval, text, timestamptz) IS
'Creates the partitions of the current and the next ahead periods of a table PARTITION BY RANGE (id) and, with keep, drops those older than at_time - keep; as the table''s owner.';
