-- Privileges of every object of uid: each function's EXECUTE for PUBLIC and
-- pg_monitor is a decision, listed here and in docs/security.md; every
-- SECURITY DEFINER function, and every SQL and PL/pgSQL one, pins its
-- search_path; the schemas, tables and views grant only what the list in
-- docs/security.md says.  A function added
-- to uid without a line here fails the first test, a line left for a
-- function uid no longer has the second.
-- Runs against a server that preloads uid (test/pgtap.sh).
BEGIN;
SELECT plan(31);

CREATE TEMP TABLE decided (sig text PRIMARY KEY, public_may boolean NOT NULL,
                           pg_monitor_may boolean NOT NULL);
INSERT INTO decided VALUES
    -- generation and decoding: everyone
    ('uid_next()', true, true),
    ('uid_next_batch(integer)', true, true),
    ('uid_decode(bigint)', true, true),
    ('uid_time(bigint)', true, true),
    ('uid_from_time(timestamp with time zone)', true, true),
    ('uuid7()', true, true),
    ('uuid7(timestamp with time zone)', true, true),
    ('uuid7_time(uuid)', true, true),
    ('uuid7_from_time(timestamp with time zone)', true, true),
    ('uid_decode(uuid)', true, true),
    ('uid_decode(text)', true, true),
    ('uuidv7()', true, true),
    ('uuidv7(interval)', true, true),
    ('uuidv4()', true, true),
    ('uuid_extract_timestamp(uuid)', true, true),
    ('uuid_extract_version(uuid)', true, true),
    -- the uid type's I/O and casts (bigint's own functions): everyone
    ('uid_in(cstring)', true, true),
    ('uid_out(uid)', true, true),
    ('uid_recv(internal)', true, true),
    ('uid_send(uid)', true, true),
    ('uid(integer)', true, true),
    ('uid(smallint)', true, true),
    ('"numeric"(uid)', true, true),
    -- the uid type's comparisons (bigint's, behind its operators in pg_catalog): everyone;
    -- their planner support: no one; restoring the families: superuser
    ('uid_eq(uid,uid)', true, true),
    ('uid_ne(uid,uid)', true, true),
    ('uid_lt(uid,uid)', true, true),
    ('uid_le(uid,uid)', true, true),
    ('uid_gt(uid,uid)', true, true),
    ('uid_ge(uid,uid)', true, true),
    ('uid_eq(uid,bigint)', true, true),
    ('uid_ne(uid,bigint)', true, true),
    ('uid_lt(uid,bigint)', true, true),
    ('uid_le(uid,bigint)', true, true),
    ('uid_gt(uid,bigint)', true, true),
    ('uid_ge(uid,bigint)', true, true),
    ('uid_eq(bigint,uid)', true, true),
    ('uid_ne(bigint,uid)', true, true),
    ('uid_lt(bigint,uid)', true, true),
    ('uid_le(bigint,uid)', true, true),
    ('uid_gt(bigint,uid)', true, true),
    ('uid_ge(bigint,uid)', true, true),
    ('uid_eq(uid,integer)', true, true),
    ('uid_ne(uid,integer)', true, true),
    ('uid_lt(uid,integer)', true, true),
    ('uid_le(uid,integer)', true, true),
    ('uid_gt(uid,integer)', true, true),
    ('uid_ge(uid,integer)', true, true),
    ('uid_eq(integer,uid)', true, true),
    ('uid_ne(integer,uid)', true, true),
    ('uid_lt(integer,uid)', true, true),
    ('uid_le(integer,uid)', true, true),
    ('uid_gt(integer,uid)', true, true),
    ('uid_ge(integer,uid)', true, true),
    ('uid_eq(uid,smallint)', true, true),
    ('uid_ne(uid,smallint)', true, true),
    ('uid_lt(uid,smallint)', true, true),
    ('uid_le(uid,smallint)', true, true),
    ('uid_gt(uid,smallint)', true, true),
    ('uid_ge(uid,smallint)', true, true),
    ('uid_eq(smallint,uid)', true, true),
    ('uid_ne(smallint,uid)', true, true),
    ('uid_lt(smallint,uid)', true, true),
    ('uid_le(smallint,uid)', true, true),
    ('uid_gt(smallint,uid)', true, true),
    ('uid_ge(smallint,uid)', true, true),
    ('uid_eq(uid,numeric)', true, true),
    ('uid_ne(uid,numeric)', true, true),
    ('uid_lt(uid,numeric)', true, true),
    ('uid_le(uid,numeric)', true, true),
    ('uid_gt(uid,numeric)', true, true),
    ('uid_ge(uid,numeric)', true, true),
    ('uid_eq(numeric,uid)', true, true),
    ('uid_ne(numeric,uid)', true, true),
    ('uid_lt(numeric,uid)', true, true),
    ('uid_le(numeric,uid)', true, true),
    ('uid_gt(numeric,uid)', true, true),
    ('uid_ge(numeric,uid)', true, true),
    ('uid_cmp(uid,uid)', true, true),
    ('uid_cmp(uid,bigint)', true, true),
    ('uid_cmp(bigint,uid)', true, true),
    ('uid_cmp(uid,integer)', true, true),
    ('uid_cmp(integer,uid)', true, true),
    ('uid_cmp(uid,smallint)', true, true),
    ('uid_cmp(smallint,uid)', true, true),
    ('uid_sortsupport(internal)', true, true),
    ('uid_hash(uid)', true, true),
    ('uid_hash_extended(uid,bigint)', true, true),
    ('uid_comparison_support(internal)', false, false),
    ('uid_restore_operator_families()', false, false),
    -- the event trigger that keeps uid's names in its schema: no one calls it
    ('uid_guard_names()', false, false),
    -- the event trigger that refuses a generator's default on a narrow column: no one calls it
    ('uid_guard_defaults()', false, false),
    -- the uid forms of the functions of an id (pg_catalog): as their bigint forms
    ('uid_decode(uid)', true, true),
    ('uid_time(uid)', true, true),
    ('uid_to_text(uid)', true, true),
    ('uid_to_text(uid,text)', true, true),
    ('uid_mask(uid,bytea)', true, true),
    ('uid_unmask(uid,bytea)', true, true),
    -- ... but the four whose bigint form is granted check that grant themselves
    ('uid_mask(uid)', true, true),
    ('uid_unmask(uid)', true, true),
    ('uid_advance_past(uid)', true, true),
    ('uid_whence(uid)', true, true),
    -- time filter bounds (docs/range-queries.md): everyone; the planner's support function: no one
    ('uid_first_at(timestamp with time zone)', true, true),
    ('uid_first_after(timestamp with time zone)', true, true),
    ('uid_last_before(timestamp with time zone)', true, true),
    ('uid_last_at(timestamp with time zone)', true, true),
    ('uuid7_first_at(timestamp with time zone)', true, true),
    ('uuid7_first_after(timestamp with time zone)', true, true),
    ('uuid7_last_before(timestamp with time zone)', true, true),
    ('uuid7_last_at(timestamp with time zone)', true, true),
    ('uid_time_filter_support(internal)', false, false),
    -- moving a generator: superuser, or whom it grants
    ('uid_advance_past(bigint)', false, false),
    ('uuid7_advance_past(uuid)', false, false),
    -- moving the writes: superuser, or whom it grants; its parts run as the caller and do
    -- only what the caller may (moving a generator needs EXECUTE on uid_advance_past())
    ('uid_catch_up(boolean,jsonb,interval,bigint)', false, false),
    ('uid_catch_up_lock(regclass,name,boolean)', true, true),
    -- partitions by the time in the IDs: the caller needs the owner's privileges; the
    -- steps run as the owner and refuse every other current user
    ('uid_partitions_maintain(regclass,interval,integer,interval,text,timestamp with time zone)', true, true),
    ('uid_partitions_steps(regclass,interval,integer,interval,text,timestamp with time zone)', true, true),
    ('uid_partition_check_owner(regclass)', true, true),
    ('uid_partition_periods(regclass,interval,timestamp with time zone,integer,text)', true, true),
    ('uid_partition_add(regclass,text,text,text)', true, true),
    ('uid_partition_retire(regclass,text)', true, true),
    ('uid_adopt._catch_up_check(boolean,jsonb,interval,bigint)', true, true),
    ('uid_adopt._catch_up_columns()', true, true),
    ('uid_adopt._catch_up_read(text,regclass,name,bigint,regclass,oid,boolean,text)', true, true),
    ('uid_adopt._catch_up_ticket_columns(regclass,text,regclass[],name[],text[],boolean,text)', true, true),
    ('uid_adopt._catch_up_ticket_plan(regclass,text,numeric,text,jsonb,bigint,boolean)', true, true),
    ('uid_adopt._catch_up_check_ahead(bigint,text,uuid,text,interval,boolean)', true, true),
    ('uid_adopt._catch_up_move(bigint,uuid,boolean)', true, true),
    -- monitoring: pg_monitor
    ('uid_stats()', false, true),
    ('uid_stats_1_1()', false, true),
    ('uid_stats_1_4()', true, true),
    ('uid_raise(text,text,text,text)', true, true),
    ('uid_stats_reset()', false, false),
    -- leases
    ('uid_lease_status()', true, true),
    ('uid_lease_release()', false, false),
    ('uid_lease_acquire()', false, false),
    ('uid_lease_table_sql(name,name)', true, true),
    -- the tenure ledger: it names every server's host and port
    ('uid_tenures(integer)', false, true),
    ('uid_removal_check()', false, true),
    ('uid_whence(bigint)', false, true),
    ('uid_tenure_overlaps()', false, true),
    ('uid_audit(regclass,name,real)', false, true),
    ('uid_lease_ledger()', true, true),
    -- tickets: drawing decided by USAGE on each sequence; admin functions not PUBLIC's
    ('uid_ticket_create(text,integer,integer,integer)', false, false),
    ('uid_ticket_drop(text)', false, false),
    ('uid_ticket_next(text)', true, true),
    ('uid_ticket_next_block(text,integer)', true, true),
    ('uid_ticket._nextval(regclass)', true, true),
    ('uid_ticket._check_name(text)', true, true),
    ('uid_ticket._absent(text)', true, true),
    ('uid_ticket._raise(text,text,text,text)', true, true),
    -- counters: drawing by grant (uid_counter_grant grants EXECUTE), the rest the administrator's
    ('uid_counter_next(text,text)', false, false),
    ('uid_counter_grant(text,regrole,text)', false, false),
    ('uid_counter_revoke(text,regrole,text)', false, false),
    ('uid_counter_configure(text,text,bigint,integer)', false, false),
    ('uid_counter_set_range(text,text,bigint,bigint)', false, false),
    ('uid_counter_set_range(text,text,bigint,bigint,text)', false, false),
    ('uid_counter._set_range(text,text,bigint,bigint,text)', false, false),
    ('uid_counter._range_changed()', false, false),
    ('uid_counter._bind_grant_role()', false, false),
    ('uid_counter_unset_range(text,text)', false, false),
    ('uid_counter_format(text,bigint,integer)', true, true),
    ('uid_counter._next(text,text,oid)', false, false),
    ('uid_counter._may_draw(text,text,oid)', false, false),
    ('uid_counter._share_ranges()', false, false),
    ('uid_counter._bounds(text,text)', false, false),
    ('uid_counter._next_entry()', false, false),
    ('uid_counter._lock_ranges(text)', false, false),
    ('uid_counter._raise(text,text,text,text)', false, false),
    -- text forms and prefixed forms: pure functions of their arguments
    ('uid_to_text(bigint)', true, true),
    ('uid_from_text(text)', true, true),
    ('uuid_to_text(uuid)', true, true),
    ('uuid_from_text(text)', true, true),
    ('uid_to_text(bigint,text)', true, true),
    ('uid_from_text(text,text)', true, true),
    ('uuid_to_typeid(uuid,text)', true, true),
    ('uuid_from_typeid(text)', true, true),
    ('uuid_from_typeid(text,text)', true, true),
    -- masking under uid.mask_key: an oracle for the server's key, by grant only
    ('uid_mask(bigint)', false, false),
    ('uid_unmask(bigint)', false, false),
    ('uuid7_mask(uuid)', false, false),
    ('uuid7_unmask(uuid)', false, false),
    -- masking under the caller's own key
    ('uid_mask(bigint,bytea)', true, true),
    ('uid_unmask(bigint,bytea)', true, true),
    ('uuid7_mask(uuid,bytea)', true, true),
    ('uuid7_unmask(uuid,bytea)', true, true),
    -- adoption: ownership checked inside; the sequence functions check the sequence's privileges
    ('uid_adopt(regclass,name,boolean,boolean,boolean)', true, true),
    ('uid_unadopt(regclass,name,boolean)', true, true),
    ('uid_require_owner(regclass,text)', true, true),
    ('uid_adopt_target(regclass,name,text,boolean)', true, true),
    ('uid_adopt_lock(regclass,regclass,text,boolean)', true, true),
    ('uid_sequence_nextval(regclass)', true, true),
    ('uid_sequence_currval(regclass)', true, true),
    ('uid_sequence_lastval()', true, true),
    ('uid_sequence_plain(anyelement)', true, true),
    ('uid_sequence_columns(regclass)', true, true),
    ('uid_sequence_users(regclass)', true, true),
    ('uid_sequence_may_draw(regclass,regclass)', true, true),
    -- the greatest stored value, read as the table's owner (security-restricted)
    -- after the caller's own SELECT and row-security checks
    ('uid_stored_max(regclass,name)', true, true),
    ('uid_stored_max_uuid7(regclass,name)', true, true),
    -- the steps of uid_adopt() and uid_unadopt(), in schema uid_adopt: they run as the caller;
    -- uid_adopt._alter() runs a table's statement as its owner, the caller's ownership checked first
    ('uid_adopt._alter(text,regclass,name,regclass,bigint,bigint,boolean)', true, true),
    ('uid_adopt._column(regclass,name)', true, true),
    ('uid_adopt._default_refs(regclass,name)', true, true),
    ('uid_adopt._default_sequence(regclass,name)', true, true),
    ('uid_adopt._label(regclass)', true, true),
    ('uid_adopt._adopt_uuid(regclass,name,text,boolean,boolean)', true, true),
    ('uid_adopt._source(regclass,name,"char",text)', true, true),
    ('uid_adopt._narrow_references(regclass,smallint)', true, true),
    ('uid_adopt._widening(regclass,name,smallint,regclass,boolean,boolean)', true, true),
    ('uid_adopt._widen(regclass,name,smallint,oid,regclass,boolean,boolean,boolean)', true, true),
    ('uid_adopt._check_increment(regclass)', true, true),
    ('uid_adopt._stored_top(regclass,boolean)', true, true),
    ('uid_adopt._check_below_uid(regclass,bigint,bigint,boolean)', true, true),
    ('uid_adopt._switch(regclass,name,regclass,text,bigint,bigint,bigint,boolean,boolean)', true, true),
    ('uid_adopt._unadopt_sequence(regclass,name,"char")', true, true),
    ('uid_adopt._switch_back(regclass,text,bigint,bigint,boolean)', true, true),
    -- pure checks and encodings, in a schema PUBLIC cannot use
    ('uid_counter._check_grant(text,regrole,text)', true, true),
    ('uid_counter._check_prefix(text)', true, true),
    ('uid_counter._check_tenant(text)', true, true),
    ('uid_counter._prefix_code(text)', true, true),
    ('uid_counter._span(text,bigint,bigint)', true, true),
    ('uid_counter._replicated()', true, true);

CREATE TEMP VIEW uid_functions AS
SELECT p.oid, p.oid::regprocedure::text AS sig, p.prosecdef, p.proconfig
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid';

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------
SELECT is_empty($$ SELECT sig FROM uid_functions WHERE sig NOT IN (SELECT sig FROM decided) $$,
    'every function of uid has a privilege decision (here and in docs/security.md)');
-- PostgreSQL has these in pg_catalog, the uuid_extract_ functions from 17
-- on and the generators from 18 on: uid creates them on older servers only
SELECT is_empty($$ SELECT sig FROM decided WHERE sig NOT IN (SELECT sig FROM uid_functions)
    AND NOT (current_setting('server_version_num')::int >= 170000
             AND sig IN ('uuid_extract_timestamp(uuid)', 'uuid_extract_version(uuid)'))
    AND NOT (current_setting('server_version_num')::int >= 180000
             AND sig IN ('uuidv7()', 'uuidv7(interval)', 'uuidv4()')) $$,
    'every decision listed here is of a function uid has');
SELECT is_empty($$
    SELECT f.sig, has_function_privilege('public', f.oid, 'EXECUTE'), d.public_may
      FROM uid_functions f JOIN decided d USING (sig)
     WHERE has_function_privilege('public', f.oid, 'EXECUTE') <> d.public_may $$,
    'PUBLIC may execute exactly the functions decided');
SELECT is_empty($$
    SELECT f.sig, has_function_privilege('pg_monitor', f.oid, 'EXECUTE'), d.pg_monitor_may
      FROM uid_functions f JOIN decided d USING (sig)
     WHERE has_function_privilege('pg_monitor', f.oid, 'EXECUTE') <> d.pg_monitor_may $$,
    'pg_monitor may execute exactly the functions decided');
SELECT is_empty($$
    SELECT sig FROM uid_functions
     WHERE prosecdef AND proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp'] $$,
    'every SECURITY DEFINER function pins search_path = pg_catalog, pg_temp');
-- Every function of uid pins search_path, so that the operators and
-- functions its body names unqualified resolve in pg_catalog
-- (test/unit/sql_operators.sh checks that such bodies leave out
-- OPERATOR(pg_catalog.op)), except C and internal functions, which resolve
-- no name of SQL text on the caller's path, and the functions listed here, each with
-- why it may not pin (an inlined LANGUAGE sql function, for one, must not
-- have SET): their bodies keep every operator and call qualified.  None
-- today.
CREATE TEMP TABLE unpinned (sig text PRIMARY KEY, why text NOT NULL);
SELECT is_empty($$
    SELECT f.sig FROM uid_functions f JOIN pg_proc p ON p.oid = f.oid
      JOIN pg_language l ON l.oid = p.prolang
     WHERE l.lanname NOT IN ('c', 'internal')
       AND f.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp']
       AND f.sig NOT IN (SELECT sig FROM unpinned) $$,
    'every function of uid that is not C pins search_path = pg_catalog, pg_temp or is a listed exception: no name resolves on the caller''s path');
SELECT is_empty($$
    SELECT sig FROM uid_functions WHERE prosecdef AND has_function_privilege('public', oid, 'EXECUTE') $$,
    'no SECURITY DEFINER function is executable by PUBLIC');
SELECT ok((SELECT count(*) FROM uid_functions WHERE prosecdef) >= 6,
    'the counter functions that need the owner''s rights are SECURITY DEFINER');

-- ---------------------------------------------------------------------------
-- Schemas, tables, views
-- ---------------------------------------------------------------------------
SELECT ok(NOT has_schema_privilege('public', 'uid_counter', 'USAGE'), 'PUBLIC has no USAGE on schema uid_counter');
SELECT ok(NOT has_schema_privilege('public', 'uid_counter', 'CREATE'), 'PUBLIC has no CREATE on schema uid_counter');
SELECT ok(has_schema_privilege('public', 'uid_ticket', 'USAGE'), 'PUBLIC has USAGE on schema uid_ticket (to draw tickets)');
SELECT ok(NOT has_schema_privilege('public', 'uid_ticket', 'CREATE'), 'PUBLIC has no CREATE on schema uid_ticket');
SELECT ok(has_schema_privilege('public', 'uid_adopt', 'USAGE'), 'PUBLIC has USAGE on schema uid_adopt (uid_adopt() runs as the caller)');
SELECT ok(NOT has_schema_privilege('public', 'uid_adopt', 'CREATE'), 'PUBLIC has no CREATE on schema uid_adopt');
SELECT is_empty($$
    SELECT c.oid::regclass FROM pg_class c
     WHERE c.relnamespace = 'uid_counter'::regnamespace AND c.relkind IN ('r', 'v', 'S')
       AND has_table_privilege('public', c.oid, 'SELECT,INSERT,UPDATE,DELETE,TRUNCATE,REFERENCES,TRIGGER') $$,
    'PUBLIC has no privilege on any table of uid_counter');
SELECT ok(has_table_privilege('public', 'uid_ticket._tickets', 'SELECT'), 'PUBLIC may read the ticket metadata');
SELECT ok(NOT has_table_privilege('public', 'uid_ticket._tickets', 'INSERT,UPDATE,DELETE,TRUNCATE'),
    'PUBLIC may not change the ticket metadata');
SELECT ok(has_table_privilege('public', 'uid_tickets', 'SELECT'), 'PUBLIC may read uid_tickets');
SELECT ok(has_table_privilege('public', 'uid_stats', 'SELECT'), 'PUBLIC may select from uid_stats (uid_stats_1_4() refuses roles outside pg_monitor)');
SELECT ok(has_table_privilege('pg_monitor', 'uid_stats', 'SELECT'), 'pg_monitor may read uid_stats');
SELECT ok(NOT has_table_privilege('public', 'uid_counters', 'SELECT'), 'PUBLIC may not read uid_counters');
SELECT ok(NOT has_table_privilege('public', 'uid_counter_settings', 'SELECT'), 'PUBLIC may not read uid_counter_settings');
SELECT ok(NOT has_table_privilege('public', 'uid_counter_grants', 'SELECT'), 'PUBLIC may not read uid_counter_grants');
SELECT ok(has_table_privilege('public', 'uid_adoptions', 'SELECT'), 'PUBLIC may read uid_adoptions');
SELECT is_empty($$
    SELECT sig FROM uid_functions
     WHERE sig ~ '^uid_(adopt|unadopt|require_owner|sequence_columns|adopt_target|adopt_lock)\(' AND (prosecdef
        OR proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp']) $$,
    'the adoption functions run as the caller, with search_path pinned');

-- ---------------------------------------------------------------------------
-- Operators the extension's objects use are pg_catalog's
-- ---------------------------------------------------------------------------
SELECT is((SELECT o.oprnamespace::regnamespace::text
             FROM pg_constraint c, unnest(c.conexclop) AS x(op) JOIN pg_operator o ON o.oid = x.op
            WHERE c.conname = 'ranges_do_not_overlap'),
          'pg_catalog', 'the ranges'' exclusion constraint uses pg_catalog.&&');
SELECT is_empty($$
    SELECT o.oid::regoperator, d.objid
      FROM pg_depend d JOIN pg_operator o ON d.refclassid = 'pg_operator'::regclass AND o.oid = d.refobjid
     WHERE d.classid IN ('pg_constraint'::regclass, 'pg_rewrite'::regclass, 'pg_attrdef'::regclass)
       AND o.oprnamespace <> 'pg_catalog'::regnamespace $$,
    'no constraint, view or default depends on an operator outside pg_catalog');

-- ---------------------------------------------------------------------------
-- A role with the grant of one tenant, as a smoke test of the model
-- ---------------------------------------------------------------------------
CREATE ROLE pgtap_uid_app;
SELECT is(uid_counter_grant('pgtap', 'pgtap_uid_app'), true, 'uid_counter_grant() makes a grant');
SET LOCAL ROLE pgtap_uid_app;
SELECT is(uid_counter_next('pgtap', 'REQ'), 'REQ-001', 'the granted role draws its tenant''s number');
SELECT throws_ok($$ SELECT uid_counter_next('other', 'REQ') $$, '42501', NULL,
    'the granted role may not draw another tenant''s number');
RESET ROLE;
SELECT is((SELECT count(*)::int FROM uid_counter.counters WHERE tenant = 'other'), 0,
    'the refused call left no counter row');

SELECT * FROM finish();
ROLLBACK;
