-- The SQL API of the uid foundation (docs/reference.md; docs/snowflake.md):
-- signatures, return types, volatility, strictness, parallel safety, the
-- uid_stats view's columns, the SQLSTATEs of bad input, and the pinned epoch.
-- Runs against a server that preloads uid with uid.worker_id = 7
-- (test/pgtap.sh).  Only the foundation's functions are tested here.
BEGIN;
SELECT plan(94);

-- ---------------------------------------------------------------------------
-- Signatures and return types
-- ---------------------------------------------------------------------------
SELECT has_function('uid_next', ARRAY[]::name[], 'uid_next() exists');
SELECT has_function('uid_next_batch', ARRAY['integer'], 'uid_next_batch(integer) exists');
SELECT has_function('uid_decode', ARRAY['bigint'], 'uid_decode(bigint) exists');
SELECT has_function('uid_time', ARRAY['bigint'], 'uid_time(bigint) exists');
SELECT has_function('uid_from_time', ARRAY['timestamp with time zone'], 'uid_from_time(timestamptz) exists');
SELECT has_function('uid_stats', ARRAY[]::name[], 'uid_stats() exists');

SELECT function_returns('uid_next', ARRAY[]::name[], 'bigint', 'uid_next() returns bigint');
SELECT function_returns('uid_next_batch', ARRAY['integer'], 'setof bigint', 'uid_next_batch(integer) returns setof bigint');
SELECT function_returns('uid_decode', ARRAY['bigint'], 'record', 'uid_decode(bigint) returns one record (OUT parameters)');
SELECT function_returns('uid_time', ARRAY['bigint'], 'timestamp with time zone', 'uid_time(bigint) returns timestamptz');
SELECT function_returns('uid_from_time', ARRAY['timestamp with time zone'], 'bigint', 'uid_from_time(timestamptz) returns bigint');
SELECT function_returns('uid_stats', ARRAY[]::name[], 'record', 'uid_stats() returns one record');

-- uid_decode returns one composite row, not a set, so (uid_decode(id)).worker_id works
SELECT is((SELECT proretset FROM pg_proc WHERE oid = 'uid_decode(bigint)'::regprocedure), false,
          'uid_decode(bigint) is not set-returning');
SELECT is((SELECT proretset FROM pg_proc WHERE oid = 'uid_stats()'::regprocedure), false,
          'uid_stats() is not set-returning');
SELECT is((SELECT pg_get_function_arguments('uid_decode(bigint)'::regprocedure)),
          'id bigint, OUT ts timestamp with time zone, OUT worker_id integer, OUT sequence integer, OUT ms_since_epoch bigint',
          'uid_decode(bigint) has OUT parameters ts, worker_id, sequence, ms_since_epoch');
-- uid_decode(text) (1.4): the columns of both other forms and more, one row
SELECT is((SELECT pg_get_function_arguments('uid_decode(text)'::regprocedure)),
          'input text, OUT form text, OUT prefix text, OUT id bigint, OUT uuid uuid, OUT ts timestamp with time zone, OUT worker_id integer, OUT sequence integer, OUT ms_since_epoch bigint, OUT version integer, OUT variant integer, OUT note text',
          'uid_decode(text) has OUT parameters form, prefix, id, uuid, ts, worker_id, sequence, ms_since_epoch, version, variant, note');
SELECT is((SELECT (provolatile, proisstrict, proretset)::text FROM pg_proc WHERE oid = 'uid_decode(text)'::regprocedure),
          '(i,t,f)', 'uid_decode(text) is IMMUTABLE, STRICT, not set-returning');
SELECT is((uid_decode('order_03B35Z2Z40400')).id, 120583409050324992::bigint,
          'uid_decode(an untyped literal) resolves to uid_decode(text)');
SELECT throws_ok($$SELECT uid_decode('hello')$$, '22P02', NULL, 'uid_decode(text) of no form raises 22P02');
SELECT is((SELECT pg_get_function_arguments('uid_next_batch(integer)'::regprocedure)),
          'count integer', 'uid_next_batch takes one argument named count');

-- ---------------------------------------------------------------------------
-- Volatility: generators VOLATILE, decoders IMMUTABLE
-- ---------------------------------------------------------------------------
SELECT volatility_is('uid_next', ARRAY[]::name[], 'volatile', 'uid_next() is VOLATILE');
SELECT volatility_is('uid_next_batch', ARRAY['integer'], 'volatile', 'uid_next_batch(integer) is VOLATILE');
SELECT volatility_is('uid_decode', ARRAY['bigint'], 'immutable', 'uid_decode(bigint) is IMMUTABLE');
SELECT volatility_is('uid_time', ARRAY['bigint'], 'immutable', 'uid_time(bigint) is IMMUTABLE');
SELECT volatility_is('uid_from_time', ARRAY['timestamp with time zone'], 'immutable', 'uid_from_time(timestamptz) is IMMUTABLE');
SELECT volatility_is('uid_stats', ARRAY[]::name[], 'volatile', 'uid_stats() is VOLATILE');

-- ---------------------------------------------------------------------------
-- Strictness: NULL in means NULL out
-- ---------------------------------------------------------------------------
SELECT is_strict('uid_next_batch', ARRAY['integer'], 'uid_next_batch(integer) is STRICT');
SELECT is_strict('uid_decode', ARRAY['bigint'], 'uid_decode(bigint) is STRICT');
SELECT is_strict('uid_time', ARRAY['bigint'], 'uid_time(bigint) is STRICT');
SELECT is_strict('uid_from_time', ARRAY['timestamp with time zone'], 'uid_from_time(timestamptz) is STRICT');
SELECT is((SELECT count(*)::int FROM uid_next_batch(NULL)), 0, 'uid_next_batch(NULL) returns no rows');
SELECT is(uid_decode(NULL::bigint) IS NULL, true, 'uid_decode(NULL::bigint) is NULL');
SELECT is(uid_time(NULL), NULL, 'uid_time(NULL) is NULL');
SELECT is(uid_from_time(NULL), NULL, 'uid_from_time(NULL) is NULL');

-- ---------------------------------------------------------------------------
-- PARALLEL SAFE
-- ---------------------------------------------------------------------------
SELECT is(proparallel, 's', format('%s is PARALLEL SAFE', oid::regprocedure))
  FROM pg_proc
 WHERE oid IN ('uid_next()'::regprocedure, 'uid_next_batch(integer)'::regprocedure,
               'uid_decode(bigint)'::regprocedure, 'uid_time(bigint)'::regprocedure,
               'uid_from_time(timestamp with time zone)'::regprocedure,
               'uid_stats()'::regprocedure)
 ORDER BY oid::regprocedure::text;

-- every function carries a comment
SELECT isnt(obj_description(oid, 'pg_proc'), NULL, format('%s has a COMMENT', oid::regprocedure))
  FROM pg_proc
 WHERE oid IN ('uid_next()'::regprocedure, 'uid_next_batch(integer)'::regprocedure,
               'uid_decode(bigint)'::regprocedure, 'uid_time(bigint)'::regprocedure,
               'uid_from_time(timestamp with time zone)'::regprocedure,
               'uid_stats()'::regprocedure)
 ORDER BY oid::regprocedure::text;

-- ---------------------------------------------------------------------------
-- The uid_stats view
-- ---------------------------------------------------------------------------
SELECT has_view('uid_stats', 'view uid_stats exists');
SELECT col_type_is('uid_stats', 'worker_id', 'integer', 'uid_stats.worker_id is integer');
SELECT col_type_is('uid_stats', 'ids_issued', 'bigint', 'uid_stats.ids_issued is bigint');
SELECT col_type_is('uid_stats', 'uuids_issued', 'bigint', 'uid_stats.uuids_issued is bigint');
SELECT col_type_is('uid_stats', 'batch_calls', 'bigint', 'uid_stats.batch_calls is bigint');
SELECT col_type_is('uid_stats', 'clock_waits', 'bigint', 'uid_stats.clock_waits is bigint');
SELECT col_type_is('uid_stats', 'clock_refusals', 'bigint', 'uid_stats.clock_refusals is bigint');
SELECT col_type_is('uid_stats', 'max_clock_step_ms', 'bigint', 'uid_stats.max_clock_step_ms is bigint');
SELECT col_type_is('uid_stats', 'overflow_waits', 'bigint', 'uid_stats.overflow_waits is bigint');
SELECT col_type_is('uid_stats', 'reserve_writes', 'bigint', 'uid_stats.reserve_writes is bigint');
SELECT col_type_is('uid_stats', 'last_issued_at', 'timestamp with time zone', 'uid_stats.last_issued_at is timestamptz');
SELECT col_type_is('uid_stats', 'reserved_until', 'timestamp with time zone', 'uid_stats.reserved_until is timestamptz');
SELECT col_type_is('uid_stats', 'clock_steps', 'bigint', 'uid_stats.clock_steps is bigint');
SELECT is((SELECT count(*)::int FROM uid_stats), 1, 'uid_stats has exactly one row');
SELECT is((SELECT worker_id FROM uid_stats), 7, 'uid_stats.worker_id is the configured uid.worker_id');
SELECT is((SELECT worker_id FROM uid_stats), current_setting('uid.worker_id')::int,
          'uid_stats.worker_id equals current_setting(''uid.worker_id'')');

-- counters move with the calls they count
CREATE TEMP TABLE stats_before AS SELECT * FROM uid_stats;
CREATE TEMP TABLE issued AS SELECT uid_next() AS id;
INSERT INTO issued SELECT * FROM uid_next_batch(10);
SELECT is((SELECT s.ids_issued - b.ids_issued FROM uid_stats s, stats_before b), 11::bigint,
          'ids_issued counts one uid_next() and ten batch IDs');
SELECT is((SELECT s.batch_calls - b.batch_calls FROM uid_stats s, stats_before b), 1::bigint,
          'batch_calls counts one uid_next_batch() call');
SELECT ok((SELECT s.last_issued_at >= b.last_issued_at FROM uid_stats s, stats_before b),
          'last_issued_at does not go back');
SELECT ok((SELECT reserved_until >= last_issued_at FROM uid_stats),
          'the durable reservation covers the last issued time');

-- ---------------------------------------------------------------------------
-- Bad input: SQLSTATE, and nothing issued
-- ---------------------------------------------------------------------------
SELECT throws_ok('SELECT uid_decode(-1)', '22003', NULL, 'uid_decode(-1) raises 22003 (numeric_value_out_of_range)');
SELECT throws_ok('SELECT uid_decode(-9223372036854775808)', '22003', NULL, 'uid_decode(min bigint) raises 22003');
SELECT throws_ok('SELECT uid_time(-1)', '22003', NULL, 'uid_time(-1) raises 22003');
SELECT throws_ok($$SELECT uid_from_time('infinity')$$, '22008', NULL, 'uid_from_time(infinity) raises 22008 (datetime_field_overflow)');
SELECT throws_ok($$SELECT uid_from_time('-infinity')$$, '22008', NULL, 'uid_from_time(-infinity) raises 22008');
SELECT throws_ok($$SELECT uid_from_time('2025-12-31 23:59:59.999+00')$$, '22008', NULL,
                 'uid_from_time() one ms before the epoch raises 22008');
SELECT throws_ok($$SELECT uid_from_time('2100-01-01 00:00:00+00')$$, '22008', NULL,
                 'uid_from_time() after the end of the 41-bit time field raises 22008');
SELECT throws_ok('SELECT count(*) FROM uid_next_batch(-1)', '22023', NULL,
                 'uid_next_batch(-1) raises 22023 (invalid_parameter_value)');
SELECT throws_ok('SELECT count(*) FROM uid_next_batch(10001)', '54000', NULL,
                 'uid_next_batch(10001) raises 54000 (program_limit_exceeded) with the default uid.max_batch');
CREATE TEMP TABLE stats_bad AS SELECT * FROM uid_stats;
SELECT throws_ok('SELECT count(*) FROM uid_next_batch(-1)', '22023', NULL, 'uid_next_batch(-1) again');
SELECT throws_ok('SELECT count(*) FROM uid_next_batch(10001)', '54000', NULL, 'uid_next_batch(10001) again');
SELECT is((SELECT s.ids_issued - b.ids_issued FROM uid_stats s, stats_bad b), 0::bigint,
          'rejected batch calls issue no IDs');
SELECT is((SELECT s.last_issued_at FROM uid_stats s), (SELECT last_issued_at FROM stats_bad),
          'rejected batch calls do not advance the generator');
SELECT is((SELECT count(*)::int FROM uid_next_batch(0)), 0, 'uid_next_batch(0) returns no rows');
SELECT is((SELECT count(*)::int FROM uid_next_batch(10000)), 10000, 'uid_next_batch(10000) returns 10000 rows');

-- ---------------------------------------------------------------------------
-- The epoch and the layout are pinned
-- ---------------------------------------------------------------------------
SELECT is(uid_from_time('2026-01-01 00:00:00+00'), 0::bigint, 'uid_from_time(2026-01-01 00:00:00+00) = 0');
SELECT is(uid_time(0), '2026-01-01 00:00:00+00'::timestamptz, 'uid_time(0) = 2026-01-01 00:00:00+00');
SELECT is(uid_from_time('2026-01-01 00:00:00.001+00'), 4194304::bigint,
          'one ms after the epoch is 1 << 22');
SELECT is(uid_from_time('2026-01-01 00:00:00.0019+00'), 4194304::bigint,
          'uid_from_time rounds down to the ms');
SELECT is(uid_from_time('2026-01-01 01:00:00+01'), 0::bigint,
          'uid_from_time does not depend on the time zone of its input');
SELECT is((uid_decode((1::bigint << 22) | (5 << 12) | 9)).ts, '2026-01-01 00:00:00.001+00'::timestamptz,
          'uid_decode: time field is bits 62..22');
SELECT is((uid_decode((1::bigint << 22) | (5 << 12) | 9)).worker_id, 5, 'uid_decode: worker field is bits 21..12');
SELECT is((uid_decode((1::bigint << 22) | (5 << 12) | 9)).sequence, 9, 'uid_decode: sequence field is bits 11..0');
SELECT is((uid_decode(9223372036854775807)).ms_since_epoch, 2199023255551::bigint,
          'uid_decode(max bigint): the time field is 41 bits');
SELECT is((uid_decode(9223372036854775807)).worker_id, 1023, 'uid_decode(max bigint): worker 1023');
SELECT is((uid_decode(9223372036854775807)).sequence, 4095, 'uid_decode(max bigint): sequence 4095');
SELECT is(uid_time(uid_from_time('2031-05-17 08:09:10.123+00')), '2031-05-17 08:09:10.123+00'::timestamptz,
          'uid_time(uid_from_time(t)) = t for a ms-precise t');
SELECT is((uid_decode(uid_next())).worker_id, 7, 'uid_next() carries uid.worker_id');

SELECT * FROM finish();
ROLLBACK;
