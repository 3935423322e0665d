--
-- uid installed into a schema of its own (CREATE EXTENSION uid SCHEMA ids)
-- that is not on the search path: every function works called by its
-- schema, time filters are rewritten, tickets and counters work, and the
-- database owner's DROP SCHEMA public CASCADE leaves uid alone.  Installed
-- in public, the same statement drops uid with every counter, grant and
-- ticket.
--
CREATE ROLE regress_db_owner;
CREATE ROLE regress_app;
CREATE DATABASE uid_other_schema OWNER regress_db_owner;
CREATE DATABASE uid_in_public OWNER regress_db_owner;
\c uid_other_schema
SET timezone = 'UTC';
CREATE SCHEMA ids;
GRANT USAGE ON SCHEMA ids TO PUBLIC;
CREATE EXTENSION uid SCHEMA ids;
SHOW search_path;
SELECT extnamespace::regnamespace AS schema FROM pg_extension WHERE extname = 'uid';
-- uid's functions are in ids and in its own schemas, none in public
SELECT p.pronamespace::regnamespace AS schema, count(*) > 0 AS has_functions
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uid')
GROUP BY 1 ORDER BY 1::text;

-- generating and decoding
SELECT ids.uid_next() > 0 AS uid_next, (SELECT count(*) FROM ids.uid_next_batch(10)) AS batch;
SELECT * FROM ids.uid_decode(ids.uid_from_time('2026-03-05 12:00:00+00') + 4096 * 3 + 5);
SELECT ids.uid_time(ids.uid_from_time('2026-03-05 12:00:00.0042+00')) AS uid_time;
SELECT ids.uuid7_time(ids.uuid7()) IS NOT NULL AS uuid7,
       ids.uuid7_time(ids.uuid7('2026-03-05 12:00:00+00')) AS uuid7_at,
       ids.uuid7_from_time('2026-03-05 12:00:00+00') AS uuid7_from_time;
SELECT * FROM ids.uid_decode(ids.uuid7_from_time('2026-03-05 12:00:00+00'));
SELECT ids.uid_advance_past(ids.uid_from_time(now() - interval '1 day')) AS uid_moved,
       ids.uuid7_advance_past(ids.uuid7_from_time(now() - interval '1 day')) AS uuid7_moved;
-- PostgreSQL 18's names exist in ids only on servers that lack them: the
-- generators before 18, the extractors before 17 (17's are built in)
DO $$
DECLARE
	ok boolean;
	x text := CASE WHEN pg_catalog.to_regprocedure('ids.uuid_extract_version(uuid)') IS NULL
		THEN 'pg_catalog' ELSE 'ids' END;
BEGIN
	IF pg_catalog.to_regprocedure('ids.uuidv7()') IS NOT NULL THEN
		EXECUTE pg_catalog.format($q$SELECT %1$s.uuid_extract_version(ids.uuidv7()) = 7
			AND %1$s.uuid_extract_version(ids.uuidv7('-1 day')) = 7
			AND %1$s.uuid_extract_version(ids.uuidv4()) = 4$q$, x) INTO ok;
		IF ok IS NOT TRUE THEN
			RAISE EXCEPTION 'the PostgreSQL 18 generators in schema ids are wrong';
		END IF;
	END IF;
	IF pg_catalog.to_regprocedure('ids.uuid_extract_timestamp(uuid)') IS NOT NULL THEN
		EXECUTE $q$SELECT ids.uuid_extract_timestamp(ids.uuid7_from_time('2026-03-05 12:00:00+00'))
			= '2026-03-05 12:00:00+00'$q$ INTO ok;
		IF ok IS NOT TRUE THEN
			RAISE EXCEPTION 'uuid_extract_timestamp in schema ids is wrong';
		END IF;
	END IF;
END $$;

-- the bounds of time filters
SELECT ids.uid_first_at(t) = ids.uid_from_time(t) AS first_at,
       ids.uid_first_after(t) = ids.uid_from_time(t + interval '1 ms') AS first_after,
       ids.uid_last_before(t) = ids.uid_from_time(t) - 1 AS last_before,
       ids.uid_last_at(t) = ids.uid_from_time(t + interval '1 ms') - 1 AS last_at,
       ids.uuid7_first_at(t) = ids.uuid7_from_time(t) AS uuid7_first_at,
       ids.uuid7_first_after(t) > ids.uuid7_last_at(t) AS uuid7_first_after,
       ids.uuid7_last_before(t) < ids.uuid7_first_at(t) AS uuid7_last_before
FROM (VALUES ('2026-03-05 12:00:00+00'::timestamptz)) v(t);

-- text forms and masking
SELECT ids.uid_to_text(120583409050324992) AS text_form,
       ids.uid_from_text(ids.uid_to_text(120583409050324992)) AS back,
       ids.uuid_from_text(ids.uuid_to_text('01890a5d-ac96-774b-bcce-b302099a8057'))
         = '01890a5d-ac96-774b-bcce-b302099a8057' AS uuid_back;
SELECT ids.uid_to_text(120583409050324992, 'order') AS prefixed_form,
       ids.uid_from_text(ids.uid_to_text(120583409050324992, 'order'), 'order') AS prefixed_back,
       ids.uuid_to_typeid('01890a5d-ac96-774b-bcce-b302099a8057', 'doc') AS typeid,
       ids.uuid_from_typeid(ids.uuid_to_typeid('01890a5d-ac96-774b-bcce-b302099a8057', 'doc'), 'doc')
         = ids.uuid_from_typeid('doc_01h455vb4pex5vsknk084sn02q') AS typeid_back;
SELECT ids.uid_unmask(ids.uid_mask(12345, '\x2b7e151628aed2a6abf7158809cf4f3c'),
                      '\x2b7e151628aed2a6abf7158809cf4f3c') AS unmasked,
       ids.uuid7_unmask(ids.uuid7_mask(ids.uuid7_from_time('2026-03-05 12:00:00+00'),
                                       '\x2b7e151628aed2a6abf7158809cf4f3c'),
                        '\x2b7e151628aed2a6abf7158809cf4f3c')
         = ids.uuid7_from_time('2026-03-05 12:00:00+00') AS uuid7_unmasked;
-- without uid.mask_key, the documented error
SELECT ids.uid_mask(1);
SELECT ids.uid_unmask(1);
SELECT ids.uuid7_mask(ids.uuid7());
SELECT ids.uuid7_unmask(ids.uuid7_from_time('2026-03-05 12:00:00+00'));

-- leases, in static mode, and the stats
SELECT mode, state, worker_id FROM ids.uid_lease_status();
SELECT ids.uid_lease_release();
SELECT ids.uid_lease_acquire();
SELECT position('CREATE TABLE uid_lease.lease' IN ids.uid_lease_table_sql('regress_app')) > 0 AS lease_sql;
SELECT ids.uid_stats_reset() IS NOT NULL AS reset;
SELECT ids.uid_next() > 0 AS one_more;
SELECT worker_id, ids_issued FROM ids.uid_stats;
SELECT worker_id, ids_issued FROM ids.uid_stats();
SELECT worker_id, ids_issued FROM ids.uid_stats_1_1();

-- time filters are rewritten into ranges of the key, also in a generic plan
CREATE TABLE public.ev (id bigint PRIMARY KEY, u uuid UNIQUE);
INSERT INTO public.ev SELECT ids.uid_from_time(ts) + g % 4096, ids.uuid7(ts)
FROM generate_series(1, 2000) g,
     LATERAL (SELECT '2026-03-01'::timestamptz + g * interval '1 min' AS ts) s;
VACUUM ANALYZE public.ev;
EXPLAIN (COSTS OFF)
SELECT * FROM public.ev WHERE ids.uid_time(id) >= '2026-03-02 08:00+00';
EXPLAIN (COSTS OFF)
SELECT * FROM public.ev WHERE ids.uuid7_time(u) < '2026-03-01 01:00+00';
PREPARE q(timestamptz) AS SELECT count(*) FROM public.ev WHERE (ids.uid_decode(id)).ts >= $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE q('2026-03-02 08:00+00');
EXECUTE q('2026-03-02 08:00+00');
RESET plan_cache_mode;
SET uid.rewrite_time_filters = off;
SELECT count(*) FROM public.ev WHERE (ids.uid_decode(id)).ts >= '2026-03-02 08:00+00';
RESET uid.rewrite_time_filters;

-- tickets
SELECT ids.uid_ticket_create('orders', 1, 2);
SELECT ids.uid_ticket_next('orders'), ids.uid_ticket_next('orders');
SELECT * FROM ids.uid_ticket_next_block('orders', 1);
SELECT name, node, nodes, last_issued FROM ids.uid_tickets;
SELECT ids.uid_ticket_create('dropped', 1, 1);
SELECT ids.uid_ticket_drop('dropped');

-- counters: administration, and a granted role
SELECT ids.uid_counter_configure('REQ', 'acme', 1, 3);
SELECT ids.uid_counter_set_range('acme', 'INV', 100, 199);
SELECT ids.uid_counter_unset_range('acme', 'INV');
SELECT ids.uid_counter_format('REQ', 5, 3);
SELECT ids.uid_counter_grant('acme', 'regress_app');
SELECT ids.uid_counter_grant('acme', 'regress_db_owner', 'REQ');
SET ROLE regress_app;
SELECT ids.uid_counter_next('acme', 'REQ'), ids.uid_counter_next('acme', 'REQ');
RESET ROLE;
SELECT ids.uid_counter_grant('acme', 'regress_db_owner', 'TMP');
SELECT ids.uid_counter_revoke('acme', 'regress_db_owner', 'TMP');
SELECT tenant, prefix, role FROM ids.uid_counter_grants ORDER BY 1, 2, 3;

-- adopting a table: the column default, nextval(), currval() and lastval()
-- reach uid's functions in ids
CREATE TABLE public.adopted (id bigserial PRIMARY KEY, v text);
CREATE TABLE public.adopted_ident (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY);
INSERT INTO public.adopted (v) VALUES ('old');
SELECT count(*) AS steps FROM ids.uid_adopt('public.adopted');
SELECT count(*) AS steps FROM ids.uid_adopt('public.adopted_ident');
SELECT count(*) AS columns FROM ids.uid_sequence_columns('public.adopted_id_seq');
INSERT INTO public.adopted (v) VALUES ('new');
SELECT max(id) > 1000000 AS new_format_id, currval('public.adopted_id_seq') = max(id) AS currval,
       lastval() = max(id) AS lastval
FROM public.adopted;
INSERT INTO public.adopted_ident DEFAULT VALUES;
SELECT ids.uid_sequence_plain(1) AS passed_through;
SELECT nextval('public.adopted_id_seq') > 1000000 AS nextval;
SELECT count(*) AS steps FROM ids.uid_unadopt('public.adopted');
SELECT count(*) AS steps FROM ids.uid_unadopt('public.adopted_ident');
SELECT count(*) AS adoptions FROM ids.uid_adoptions;
DROP TABLE public.adopted, public.adopted_ident;
-- the tenure ledger: this database is not the lease store, but the audit
-- of a UUIDv7 column needs no ledger
SELECT * FROM ids.uid_audit('public.ev', 'u');
SELECT * FROM ids.uid_lease_ledger();
-- leaving shared_preload_libraries: the check from its schema (what it says: TAP 067)
SELECT what, ready FROM ids.uid_removal_check() WHERE what = 'uid.wal_reservations';
\set VERBOSITY terse
SELECT * FROM ids.uid_tenures();
SELECT * FROM ids.uid_whence(1);
SELECT * FROM ids.uid_tenure_overlaps();
\set VERBOSITY default
-- moving the writes: uid_catch_up() finds the columns of uid's functions in
-- ids, and the adopted and ticket sequences
CREATE TABLE public.moved (id bigint PRIMARY KEY DEFAULT ids.uid_next(), u uuid DEFAULT ids.uuid7(),
                           t bigint DEFAULT ids.uid_ticket_next('orders'));
INSERT INTO public.moved DEFAULT VALUES;
SELECT kind, object, column_name, stored_max IS NOT NULL AS stored,
       regexp_replace(action, '[0-9]+', 'N', 'g') AS action
FROM ids.uid_catch_up() ORDER BY 1, 2, 3;
DROP TABLE public.moved;
-- the uid type from its schema: its I/O, its casts (binary I/O: TAP 140), and
-- JSON printing it as a string
CREATE TABLE public.typed (id ids.uid PRIMARY KEY DEFAULT ids.uid_next(), small ids.uid, n numeric);
INSERT INTO public.typed (small) VALUES (1::smallint), (2);
UPDATE public.typed SET n = id::numeric;
SELECT count(*) AS rows, bool_and(n = id::numeric) AS as_numeric, bool_and(small <= 2) AS small
FROM public.typed;
SELECT bool_and(row_to_json(t) ->> 'id' = t.id::text AND json_typeof(row_to_json(t) -> 'id') = 'string')
       AS json_string, count(*)
FROM public.typed t;
-- its comparisons: uid's own operators in pg_catalog, their functions in ids
SELECT o.oprnamespace::regnamespace AS operator_schema, p.pronamespace::regnamespace AS function_schema,
       count(*)
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE 'ids.uid'::regtype IN (o.oprleft, o.oprright) GROUP BY 1, 2;
SELECT bool_and(id = id AND id >= small AND small < id + 1 AND id <> 1.5 AND id IN (id, 1))
       AS compares, ids.uid_restore_operator_families() AS families_added
FROM public.typed;
DROP TABLE public.typed;
-- a default of uid_next() on a column too narrow: refused (uid_guard_defaults)
\set VERBOSITY terse
CREATE TABLE public.narrow (id integer DEFAULT ids.uid_next());
\set VERBOSITY default
-- partitions by the time in the IDs: the key's type ids.uid, the bounds from
-- ids.uid_first_at() (uid_partition_periods, uid_partition_add and
-- uid_partition_retire run inside)
CREATE TABLE public.parted (id ids.uid PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM ids.uid_partitions_maintain('public.parted', ahead => 1, at_time => '2026-12-05 00:00+00');
SELECT * FROM ids.uid_partitions_maintain('public.parted', ahead => 1, keep => '1 day', at_time => '2026-12-07 00:00+00');
DROP TABLE public.parted;

-- Every function of uid in ids was called above (or, for the planner
-- support function, used by the planner): a new function fails this until
-- it is.
SELECT p.oid::regprocedure AS not_called
FROM pg_proc p
WHERE p.pronamespace = 'ids'::regnamespace
  AND p.proname NOT IN ('uid_next', 'uid_next_batch', 'uid_decode', 'uid_time', 'uid_from_time',
        'uuid7', 'uuid7_time', 'uuid7_from_time', 'uuid7_advance_past', 'uid_advance_past',
        'uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version',
        'uid_first_at', 'uid_first_after', 'uid_last_before', 'uid_last_at',
        'uuid7_first_at', 'uuid7_first_after', 'uuid7_last_before', 'uuid7_last_at',
        'uid_time_filter_support', 'uid_comparison_support', 'uid_eq', 'uid_ne', 'uid_lt',
        'uid_le', 'uid_gt', 'uid_ge', 'uid_cmp', 'uid_sortsupport', 'uid_hash',
        'uid_hash_extended', 'uid_restore_operator_families', 'uid_guard_names', 'uid_guard_defaults', 'uid_to_text', 'uid_from_text', 'uuid_to_text', 'uuid_from_text',
        'uuid_to_typeid', 'uuid_from_typeid',
        'uid_mask', 'uid_unmask', 'uuid7_mask', 'uuid7_unmask',
        'uid_lease_status', 'uid_lease_release', 'uid_lease_acquire', 'uid_lease_table_sql',
        'uid_stats', 'uid_stats_1_1', 'uid_stats_1_4', 'uid_stats_reset', 'uid_raise', 'uid_removal_check',
        'uid_ticket_create', 'uid_ticket_next', 'uid_ticket_next_block', 'uid_ticket_drop',
        'uid_counter_configure', 'uid_counter_set_range', 'uid_counter_unset_range',
        'uid_counter_format', 'uid_counter_grant', 'uid_counter_revoke', 'uid_counter_next',
        'uid_adopt', 'uid_unadopt', 'uid_sequence_columns', 'uid_sequence_users', 'uid_sequence_may_draw', 'uid_require_owner', 'uid_adopt_target', 'uid_adopt_lock',
        'uid_stored_max', 'uid_stored_max_uuid7',
        'uid_sequence_nextval', 'uid_sequence_currval', 'uid_sequence_lastval', 'uid_sequence_plain',
        'uid_tenures', 'uid_whence', 'uid_tenure_overlaps', 'uid_audit', 'uid_lease_ledger',
        'uid_catch_up', 'uid_catch_up_lock',
        'uid_partitions_maintain', 'uid_partition_periods', 'uid_partition_add', 'uid_partition_retire',
        'uid_partitions_steps', 'uid_partition_check_owner',
        'uid_in', 'uid_out', 'uid_recv', 'uid_send', 'uid', 'numeric');

-- The database owner owns public, not ids: dropping public with everything
-- in it leaves uid, its counters, grants and tickets.
SET ROLE regress_db_owner;
SET client_min_messages = warning;
DROP SCHEMA public CASCADE;
RESET client_min_messages;
DROP SCHEMA ids CASCADE;
DROP EXTENSION uid;
SELECT ids.uid_counter_next('acme', 'REQ');
RESET ROLE;
SELECT extnamespace::regnamespace AS schema FROM pg_extension WHERE extname = 'uid';
SELECT ids.uid_ticket_next('orders');
SELECT tenant, prefix, role FROM ids.uid_counter_grants ORDER BY 1, 2, 3;

-- Installed in public (owned by the database owner from PostgreSQL 15 on),
-- the same DROP SCHEMA takes uid with it.
\c uid_in_public
CREATE EXTENSION uid;
SELECT uid_ticket_create('orders', 1, 2);
SELECT uid_counter_grant('acme', 'regress_app');
SELECT uid_counter_next('acme', 'REQ');
SET ROLE regress_db_owner;
SET client_min_messages = warning;
DROP SCHEMA public CASCADE;
RESET client_min_messages;
RESET ROLE;
SELECT count(*) AS uid_installed FROM pg_extension WHERE extname = 'uid';
SELECT nspname FROM pg_namespace WHERE nspname IN ('public', 'uid_counter', 'uid_ticket');

\c contrib_regression
DROP DATABASE uid_other_schema;
DROP DATABASE uid_in_public;
DROP ROLE regress_app, regress_db_owner;
