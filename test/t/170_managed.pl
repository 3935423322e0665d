# uid_managed, the edition in SQL and PL/pgSQL (docs/managed.md), installed
# as its plain script by a role that is not a superuser, on a server that
# does not preload uid:
#  a) the install, the privileges, and the worker id (UID02 where the
#     database publishes, until the owner sets one; a change seen by a
#     session that has called uid_next() already);
#  b) its ids read back by uid's C functions and uid's by its own, 100,000
#     each way: uid_decode, uid_time, uid_from_time, the text forms, and
#     the UUIDv7 fields;
#  c) 8 sessions at once: no id twice, each session's ids strictly
#     increasing;
#  d) kill -9 of the server under load, restart: every new id above every
#     id committed before;
#  e) the same with the clock 20 s behind after the restart (libfaketime):
#     refused with UID01 beyond uid_managed_config.max_ahead_ms, and above
#     every committed id once allowed to run that far ahead.
# On the server with uid, after b):
#  f) every function the editions share: the same name, arguments and
#     result, and the same results (errors by SQLSTATE) on 100,000 values
#     of each kind; what a role without grants may call.
# On the server without uid, last:
#  g) every SQL block of docs/managed.md, as pasted.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $top   = "$FindBin::RealBin/../..";
my $script = managed_build() . '/uid_managed--1.0.sql';

# ---------------------------------------------------------------------------
# a) install by an owner that is not a superuser, on a server without uid
# ---------------------------------------------------------------------------
my $node = PostgreSQL::Test::Cluster->new('managed');
$node->init;
$node->append_conf('postgresql.conf', "restart_after_crash = off\n");
my $clock = clock_file($node);
set_clock($clock, '+0');
faketime_start($node, $clock);

is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'),
	'', 'the server does not preload uid');
$node->safe_psql(
	'postgres', q{
	CREATE ROLE owner LOGIN NOSUPERUSER;
	CREATE ROLE app LOGIN NOSUPERUSER;
	CREATE DATABASE m OWNER owner;});
install_managed($node, 'm', 'owner', 'ids');

sub owner_psql
{
	my ($sql) = @_;
	return $node->safe_psql('m', $sql, extra_params => [ '-U', 'owner' ]);
}

sub app_psql
{
	my ($sql) = @_;
	return $node->safe_psql('m', $sql, extra_params => [ '-U', 'app' ]);
}

# Returns the SQLSTATE of $sql (which must fail) run as $role in m.
sub state_as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql(
		'm', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	my ($state) = $err =~ /(?:ERROR|FATAL):\s+([0-9A-Z]{5}):/;
	return $state // "(none: exit $ret)";
}

is( owner_psql(
		q{SELECT count(*) >= 20, count(*) FILTER (WHERE pg_get_userbyid(p.proowner) <> 'owner')
		  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		  WHERE n.nspname = 'ids'}),
	't|0',
	'every function of uid_managed belongs to the role that ran the script');
is( owner_psql(
		q{SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		  WHERE n.nspname = 'ids'
		    AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false)
		    AND p.proname <> 'uid_time'}),
	'0',
	'every function but the inlinable uid_time pins search_path');
like(
	owner_psql(
		q{EXPLAIN (VERBOSE, COSTS OFF) SELECT ids.uid_time(x) FROM generate_series(1::bigint, 2) x}),
	qr/Output: CASE WHEN .*to_timestamp/,
	'uid_time() is inlined');
is(owner_psql('SELECT ids.uid_time(NULL) IS NULL'), 't', 'uid_time(NULL) is NULL');
owner_psql('GRANT USAGE ON SCHEMA ids TO app');

my $first = app_psql('SELECT ids.uid_next()');
like($first, qr/^\d+$/, 'a role without privileges of its own gets an id');
is(app_psql("SELECT (ids.uid_decode($first)).worker_id"),
	'0', 'worker id 0 where the database neither publishes nor subscribes');
is(state_as('app', q{SELECT setval('ids.uid_managed_state', 0)}),
	'42501', 'other roles cannot move the state');
is(state_as('app', 'SELECT ids.uid_managed_set_worker_id(7)'),
	'42501', 'nor set the worker id');
is(state_as('app', "SELECT ids.uid_advance_past($first)"),
	'42501', 'nor advance the generator');
is(state_as('app', 'UPDATE ids.uid_managed_config SET worker_id = 7'),
	'42501', 'nor write its settings');

owner_psql('CREATE TABLE published (x int); CREATE PUBLICATION pub_ids FOR TABLE published');
is(state_as('app', 'SELECT ids.uid_next()'),
	'UID02', 'a publishing database without a worker id: UID02, as uid');
is(owner_psql('SELECT ids.uid_managed_set_worker_id(3)'),
	'3', 'the owner sets the worker id');
my $after = app_psql('SELECT ids.uid_next()');
is(app_psql("SELECT (ids.uid_decode($after)).worker_id"),
	'3', 'then ids carry it');
cmp_ok($after, '>', $first, 'and are above the earlier ones');

# uid_next() reads the worker id from a function that a trigger on the
# settings rewrites, folded into its cached plan: a session that has
# called it already sees a change from its next transaction on, however
# the settings change.
my $holder = $node->background_psql('m', extra_params => [ '-U', 'app' ]);
is($holder->query_safe('SELECT (ids.uid_decode(ids.uid_next())).worker_id'),
	'3', 'a session that has called uid_next() with worker id 3');
owner_psql('UPDATE ids.uid_managed_config SET worker_id = 5');
is($holder->query_safe('SELECT (ids.uid_decode(ids.uid_next())).worker_id'),
	'5', 'sees a worker id written into the settings by hand in its next transaction');
owner_psql('SELECT ids.uid_managed_set_worker_id(3)');
is($holder->query_safe('SELECT (ids.uid_decode(ids.uid_next())).worker_id'),
	'3', 'and one set by uid_managed_set_worker_id()');
$holder->quit;
owner_psql('DROP PUBLICATION pub_ids; DROP TABLE published');

# ---------------------------------------------------------------------------
# b) the same layout as uid's C functions, both ways
# ---------------------------------------------------------------------------
my $cnode = uid_node('managed_c', 'uid.worker_id' => 1);
$cnode->start;
$cnode->safe_psql(
	'postgres', q{
	CREATE ROLE owner LOGIN NOSUPERUSER;
	CREATE DATABASE cmp OWNER owner;});
$cnode->safe_psql('cmp', 'CREATE EXTENSION uid');
install_managed($cnode, 'cmp', 'owner', 'm');
$cnode->safe_psql(
	'cmp', q{
	SELECT m.uid_managed_set_worker_id(2);
	CREATE TABLE c_ids AS
	  SELECT public.uid_next() AS id, public.uuid7() AS u FROM generate_series(1, 100000);
	CREATE TABLE m_ids AS
	  SELECT m.uid_next() AS id, m.uuid7() AS u FROM generate_series(1, 100000);},
	extra_params => [ '-U', 'owner' ]);

for my $t ('c_ids', 'm_ids')
{
	my $who = $t eq 'c_ids' ? "uid's" : "uid_managed's";
	is( $cnode->safe_psql(
			'cmp', qq{
		SELECT count(*), count(DISTINCT id), count(DISTINCT u) FROM $t}),
		'100000|100000|100000', "100,000 distinct ids and UUIDs of $who");
	is( $cnode->safe_psql(
			'cmp', qq{
		SELECT count(*) FROM $t
		WHERE public.uid_decode(id) IS DISTINCT FROM m.uid_decode(id)
		   OR public.uid_time(id) IS DISTINCT FROM m.uid_time(id)
		   OR public.uid_from_time(public.uid_time(id)) IS DISTINCT FROM m.uid_from_time(m.uid_time(id))
		   OR public.uid_to_text(id) IS DISTINCT FROM m.uid_to_text(id)
		   OR m.uid_from_text(public.uid_to_text(id)) IS DISTINCT FROM id
		   OR public.uid_from_text(m.uid_to_text(id)) IS DISTINCT FROM id
		   OR public.uuid_to_text(u) IS DISTINCT FROM m.uuid_to_text(u)
		   OR m.uuid_from_text(public.uuid_to_text(u)) IS DISTINCT FROM u
		   OR public.uuid_from_text(m.uuid_to_text(u)) IS DISTINCT FROM u}),
		'0',
		"$who 100,000 ids and UUIDs: uid_decode, uid_time, uid_from_time and the text forms agree"
	);
}
is( $cnode->safe_psql(
		'cmp', q{
	SELECT count(*) FROM m_ids
	WHERE (public.uid_decode(id)).worker_id <> 2
	   OR (public.uid_decode(u)).version <> 7
	   OR (public.uid_decode(u)).variant <> 2
	   OR abs(extract(epoch FROM public.uuid7_time(u) - public.uid_time(id))) > 60}),
	'0',
	"uid reads uid_managed's worker id, and its UUIDs as version 7, variant 2, with a time");
is( $cnode->safe_psql(
		'cmp', q{
	SELECT count(*) FROM (SELECT u, lag(u) OVER (ORDER BY ctid) AS prev FROM m_ids) s
	WHERE u <= prev}),
	'0', "uid_managed's UUIDs are strictly increasing in the order of the calls");
is( $cnode->safe_psql(
		'cmp', q{
	SELECT count(*) FROM generate_series(0, 99999) i,
	  LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00'
	                  + i * interval '30 minutes 1.000371 second' AS ts) t
	WHERE public.uid_from_time(ts) <> m.uid_from_time(ts)}),
	'0', 'uid_from_time agrees on 100,000 times with microseconds');

# moving between editions: each continues above the other's ids
$cnode->safe_psql(
	'cmp', q{
	SELECT m.uid_advance_past((SELECT max(id) FROM c_ids));
	SELECT m.uuid7_advance_past((SELECT u FROM c_ids ORDER BY u DESC LIMIT 1));},
	extra_params => [ '-U', 'owner' ]);
is( $cnode->safe_psql(
		'cmp', q{
	SELECT m.uid_next() > (SELECT max(id) FROM c_ids),
	       m.uuid7() > (SELECT u FROM c_ids ORDER BY u DESC LIMIT 1)}),
	't|t', "after the advance, uid_managed's ids are above uid's");
$cnode->safe_psql(
	'cmp', q{
	SELECT public.uid_advance_past((SELECT max(id) FROM m_ids));
	SELECT public.uuid7_advance_past((SELECT u FROM m_ids ORDER BY u DESC LIMIT 1));});
is( $cnode->safe_psql(
		'cmp', q{
	SELECT public.uid_next() > (SELECT max(id) FROM m_ids),
	       public.uuid7() > (SELECT u FROM m_ids ORDER BY u DESC LIMIT 1)}),
	't|t', "and uid's above uid_managed's");

# ---------------------------------------------------------------------------
# f) every function the two editions share gives the same results, errors
#    compared by SQLSTATE, on 100,000 values of each kind of argument: ids,
#    times and UUIDs of both editions, random values, the edges of the
#    layouts (0, the highest bigint, worker ids 0 and 1023, sequence 0 and
#    4095, the first and last ms, +-infinity), and the forms uid writes of
#    them, one in two with a slip (a character replaced, dropped or added,
#    white space around, a change of case), against prefixes valid and not
# ---------------------------------------------------------------------------

# [function, argument types, table of values, expression compared (default:
# the result)]: uuid7(timestamptz) is compared by what uid reads of it
my @compared = (
	[ 'uid_decode',        'bigint',       'v_bigint' ],
	[ 'uid_time',          'bigint',       'v_bigint' ],
	[ 'uid_to_text',       'bigint',       'v_bigint' ],
	[ 'uid_to_text',       'bigint, text', 'v_bigint_prefix' ],
	[ 'uid_from_time',     'timestamptz',  'v_ts' ],
	[ 'uid_first_at',      'timestamptz',  'v_ts' ],
	[ 'uid_first_after',   'timestamptz',  'v_ts' ],
	[ 'uid_last_before',   'timestamptz',  'v_ts' ],
	[ 'uid_last_at',       'timestamptz',  'v_ts' ],
	[ 'uuid7_from_time',   'timestamptz',  'v_ts' ],
	[ 'uuid7_first_at',    'timestamptz',  'v_ts' ],
	[ 'uuid7_first_after', 'timestamptz',  'v_ts' ],
	[ 'uuid7_last_before', 'timestamptz',  'v_ts' ],
	[ 'uuid7_last_at',     'timestamptz',  'v_ts' ],
	[ 'uuid7', 'timestamptz', 'v_ts', 'public.uid_decode(%s)' ],
	[ 'uid_decode',       'uuid',       'v_uuid' ],
	[ 'uuid7_time',       'uuid',       'v_uuid' ],
	[ 'uuid_to_text',     'uuid',       'v_uuid' ],
	[ 'uuid_to_typeid',   'uuid, text', 'v_uuid_prefix' ],
	[ 'uid_decode',       'text',       'v_text' ],
	[ 'uid_from_text',    'text',       'v_text' ],
	[ 'uuid_from_text',   'text',       'v_text' ],
	[ 'uuid_from_typeid', 'text',       'v_text' ],
	[ 'uid_from_text',    'text, text', 'v_text_prefix' ],
	[ 'uuid_from_typeid', 'text, text', 'v_text_prefix' ],);

# The generators and the moves, compared above and in c) to e) by what they
# issue; every other function of the edition is one of its own, named
# uid_managed_*.
my @issuing = ('uid_next()', 'uid_next_batch(integer)', 'uuid7()',
	'uid_advance_past(bigint)', 'uuid7_advance_past(uuid)');

is( $cnode->safe_psql(
		'cmp', q{
	SELECT string_agg(p.oid::regprocedure::text, ' ' ORDER BY p.oid)
	FROM pg_proc p
	WHERE p.pronamespace = 'm'::regnamespace AND p.proname NOT LIKE 'uid\_managed\_%'
	  AND NOT EXISTS (
	    SELECT FROM pg_proc c
	    WHERE c.pronamespace = 'public'::regnamespace AND c.proname = p.proname
	      AND pg_get_function_arguments(c.oid) = pg_get_function_arguments(p.oid)
	      AND pg_get_function_result(c.oid) = pg_get_function_result(p.oid))}),
	'',
	"f) every function of uid_managed but its own (uid_managed_*) has uid's name, arguments and result");
is( $cnode->safe_psql(
		'cmp', q{
	SELECT string_agg(p.oid::regprocedure::text, ' ' ORDER BY p.oid)
	FROM pg_proc p JOIN pg_proc c
	  ON c.pronamespace = 'public'::regnamespace AND c.proname = p.proname
	 AND pg_get_function_arguments(c.oid) = pg_get_function_arguments(p.oid)
	WHERE p.pronamespace = 'm'::regnamespace AND c.provolatile = 'i'
	  AND (c.provolatile <> p.provolatile OR c.proparallel <> p.proparallel
	       OR (c.proisstrict <> p.proisstrict AND p.proname <> 'uid_time'))}),
	'',
	"f) its decoders are IMMUTABLE, STRICT (but the inlinable uid_time) and PARALLEL SAFE where uid's are");
my %covered;
for my $c (@compared)
{
	my ($f, $types) = @$c;
	$types =~ s/timestamptz/timestamp with time zone/g;
	$types =~ s/, /,/g;
	$covered{"$f($types)"} = 1;
}
$covered{$_} = 1 for @issuing;

# The functions of uid_managed that satisfy $where (about pg_proc p), as
# name(argument types), sorted and joined by ';'
sub managed_functions
{
	my ($where) = @_;
	return join ';', sort split /;/, $cnode->safe_psql(
		'cmp', qq{
	SET search_path = m;
	SELECT string_agg(p.oid::regprocedure::text, ';')
	FROM pg_proc p WHERE p.pronamespace = 'm'::regnamespace AND $where});
}
is( managed_functions(q{p.proname NOT LIKE 'uid\_managed\_%'}),
	join(';', sort keys %covered),
	'f) the comparison below covers every other function of uid_managed');
$cnode->safe_psql('cmp', 'CREATE ROLE reader NOLOGIN');
is( managed_functions(
		q{p.provolatile <> 'i' AND has_function_privilege('reader', p.oid, 'EXECUTE')}),
	'uid_next();uid_next_batch(integer);uuid7();uuid7(timestamp with time zone)',
	'f) a role without grants may call the generators, and otherwise only immutable functions (the decoders, the forms and their helpers)'
);

my $n     = 100000;
my $share = int($n * 0.35);
my $rest  = $n - 2 * $share;
my $values = q{
SET client_min_messages = warning;
CREATE TABLE prefixes (p text);
INSERT INTO prefixes VALUES (''), ('user'), ('a'), ('order_line'), ('z'), ('ab_cd_ef'),
  (repeat('x', 63)), (repeat('x', 64)), ('_user'), ('user_'), ('User'), ('us-er'),
  ('usér'), ('u1'), (' '), ('a__b'), ('_'), ('__'), ('a b');
CREATE FUNCTION good_prefix() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT (ARRAY['', 'user', 'a', 'order_line', 'ab_cd_ef', repeat('x', 63), 'a__b'])[1 + floor(random() * 7)::int] $$;
CREATE FUNCTION any_prefix() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT p FROM prefixes ORDER BY random() LIMIT 1 $$;
CREATE FUNCTION random_bits() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  SELECT ('x' || substr(md5(random()::text || clock_timestamp()::text), 1, 16))::bit(64)::bigint $$;
-- PostgreSQL 19's encode(u::bytea, 'base32hex') of a UUID, written out
CREATE FUNCTION base32hex(u uuid) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUV',
             substring(b FROM 5 * i + 1 FOR 5)::int + 1, 1), '' ORDER BY i) || '======'
  FROM (SELECT ('x' || replace(u::text, '-', ''))::bit(128) || B'00' AS b) x, generate_series(0, 25) i $$;
-- one slip: a character replaced, dropped or added, white space around, a change of case
CREATE FUNCTION mutate(s text) RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT CASE k
      WHEN 0 THEN overlay(s PLACING c FROM pos FOR 1)
      WHEN 1 THEN overlay(s PLACING '' FROM pos FOR 1)
      WHEN 2 THEN overlay(s PLACING c FROM pos FOR 0)
      WHEN 3 THEN w || s || w
      WHEN 4 THEN lower(s)
      ELSE upper(s) END
  FROM (SELECT floor(random() * 6)::int AS k,
               1 + floor(random() * greatest(length(s), 1))::int AS pos,
               (ARRAY['0', '7', '8', 'Z', 'z', 'U', 'u', 'O', 'o', 'I', 'i', 'L', 'l', '_', '-',
                      '=', ' ', 'ı', 'é', 'A', 'v', 'V', 'W', '9', 'S', 's', 'c'])[1 + floor(random() * 27)::int] AS c,
               (ARRAY[' ', E'\t', E'\n', E'\r', E'\f', E'\x0B', 'v', '  '])[1 + floor(random() * 8)::int] AS w) r $$;

CREATE TABLE v_bigint AS
  (SELECT id AS x FROM c_ids LIMIT SHARE)
  UNION ALL (SELECT id FROM m_ids LIMIT SHARE)
  UNION ALL SELECT random_bits() FROM generate_series(1, REST)
  UNION ALL SELECT (ms << 22) | (w << 12) | s
    FROM unnest(ARRAY[0, 1, 86399999, 86400000, (SELECT max(id) >> 22 FROM c_ids),
                      2199023255550, 2199023255551]::bigint[]) ms,
         unnest(ARRAY[0, 1, 512, 1023]::bigint[]) w, unnest(ARRAY[0, 1, 4095]::bigint[]) s
  UNION ALL SELECT unnest(ARRAY[-1, -4194304, -9223372036854775807 - 1, 9223372036854775807]::bigint[]);

CREATE TABLE v_ts AS
  (SELECT public.uid_time(id) + CASE WHEN random() < 0.3 THEN 0 ELSE floor(random() * 2001 - 1000) END
          * interval '1 microsecond' AS x FROM c_ids LIMIT SHARE)
  UNION ALL (SELECT m.uid_time(id) + CASE WHEN random() < 0.3 THEN 0 ELSE floor(random() * 2001 - 1000) END
          * interval '1 microsecond' FROM m_ids LIMIT SHARE)
  UNION ALL SELECT timestamptz '1960-01-01 00:00:00+00' + random() * interval '200 years'
    FROM generate_series(1, REST / 2)
  UNION ALL SELECT to_timestamp(floor(random() * 3.05e11 - 1.9e11)) + floor(random() * 1e6) * interval '1 microsecond'
    FROM generate_series(1, REST - REST / 2)
  UNION ALL SELECT t + d * interval '1 microsecond'
    FROM unnest(ARRAY['1970-01-01 00:00:00+00', '2026-01-01 00:00:00+00',
                      '2095-09-07 15:47:35.551+00', '2095-09-07 15:47:35.552+00',
                      '10889-08-02 05:31:50.655+00', '10889-08-02 05:31:50.656+00',
                      '4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59+00']::timestamptz[]) t,
         unnest(ARRAY[-1001, -1000, -999, -1, 0, 1, 999, 1000]) d
    WHERE t + d * interval '1 microsecond' BETWEEN '4713-01-01 00:00:00+00 BC' AND '294276-12-31 23:59:59.999999+00'
  UNION ALL SELECT unnest(ARRAY['-infinity', 'infinity']::timestamptz[]);

CREATE TABLE v_uuid AS
  (SELECT u AS x FROM c_ids LIMIT SHARE)
  UNION ALL (SELECT u FROM m_ids LIMIT SHARE)
  UNION ALL SELECT md5(random()::text || i)::uuid FROM generate_series(1, REST / 2) i
  UNION ALL SELECT gen_random_uuid() FROM generate_series(1, REST / 4)
  UNION ALL SELECT (substr(h, 1, 12) || (ARRAY['1', '6', '7'])[1 + i % 3] || substr(h, 14, 3)
                    || (ARRAY['8', '9', 'a', 'b'])[1 + (i / 3) % 4] || substr(h, 18, 15))::uuid
    FROM (SELECT i, md5(random()::text || i) AS h FROM generate_series(1, REST - REST / 2 - REST / 4) i) r
  UNION ALL SELECT unnest(ARRAY['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff',
                                '00000000-0000-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
                                '00000000-0000-1000-8000-000000000000', 'ffffffff-ffff-1fff-bfff-ffffffffffff',
                                '00000000-0000-6000-8000-000000000000', 'ffffffff-ffff-6fff-bfff-ffffffffffff',
                                'ffffffff-ffff-7fff-7fff-ffffffffffff', 'ffffffff-ffff-7fff-cfff-ffffffffffff']::uuid[]);

CREATE TABLE v_bigint_prefix AS SELECT x, any_prefix() AS p FROM v_bigint;
CREATE TABLE v_uuid_prefix AS SELECT x, any_prefix() AS p FROM v_uuid;

CREATE TABLE forms AS
  SELECT x::text AS f FROM v_bigint
  UNION ALL SELECT public.uid_to_text(x) FROM v_bigint WHERE x >= 0
  UNION ALL SELECT public.uid_to_text(x, good_prefix()) FROM v_bigint WHERE x >= 0
  UNION ALL SELECT x::text FROM v_uuid
  UNION ALL SELECT upper(replace(x::text, '-', '')) FROM v_uuid
  UNION ALL SELECT public.uuid_to_text(x) FROM v_uuid
  UNION ALL SELECT public.uuid_to_typeid(x, good_prefix()) FROM v_uuid
  UNION ALL SELECT base32hex(x) FROM v_uuid
  UNION ALL SELECT left(base32hex(x), 26) FROM v_uuid
  UNION ALL SELECT lpad(floor(random() * 1e13)::bigint::text, 13, '0') FROM generate_series(1, 1000)
  UNION ALL SELECT (SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', 1 + floor(random() * 32)::int, 1), '')
                    FROM generate_series(1, 26) WHERE i > 0) FROM generate_series(1, 1000) i;
CREATE TABLE v_text AS
  SELECT CASE WHEN random() < 0.5 THEN f ELSE mutate(f) END AS x FROM forms ORDER BY random() LIMIT N;
INSERT INTO v_text SELECT unnest(ARRAY['', ' ', '-', '-0', '-00000000000000000000', '00000000000000000000',
  '9223372036854775807', '9223372036854775808', '-1', '0000000000000', '0000000000010', '_', 'user_',
  '_0000000000000', 'User_0000000000000', 'x=', '==', '0000000000000000000000000=',
  'ıııııııııııııııı', 'éééééééééééééééé', E'\x0B0000000000000\x0B', 'v0000000000000v',
  'ı000000000000', 'ſ000000000000', '000000000000ı', 'ı0000000000000000000000000']);

CREATE TABLE v_text_prefix AS
  SELECT CASE WHEN random() < 0.5 THEN f ELSE mutate(f) END AS x,
         CASE WHEN random() < 0.6 THEN p ELSE any_prefix() END AS p
  FROM (SELECT public.uid_to_text(x, p) AS f, p FROM (SELECT x, good_prefix() AS p FROM v_bigint WHERE x >= 0) a
        UNION ALL
        SELECT public.uuid_to_typeid(x, p), p FROM (SELECT x, good_prefix() AS p FROM v_uuid) b) s
  ORDER BY random() LIMIT N;
};
$values =~ s/\bSHARE\b/$share/g;
$values =~ s/\bREST\b/$rest/g;
$values =~ s/\bN\b/$n/g;
$cnode->safe_psql('cmp', $values);

my $k = 0;
for my $c (@compared)
{
	my ($f, $types, $table, $wrap) = @$c;
	my @t      = split /, /, $types;
	my $params = join ', ', map { "a$_ $t[$_ - 1]" } 1 .. @t;
	my $args   = join ', ', map { "a$_" } 1 .. @t;
	my $call   = sub {
		my $e = "$_[0].$f($args)";
		return $wrap ? sprintf($wrap, $e) : $e;
	};
	my $cols = @t == 1 ? 'x' : 'x, p';
	$k++;
	# the result as text, or the SQLSTATE of the error
	$cnode->safe_psql(
		'cmp', qq{
CREATE FUNCTION outcome_$k(edition text, $params) RETURNS text LANGUAGE plpgsql AS \$\$
BEGIN
    IF edition = 'uid' THEN
        RETURN (${\ $call->('public')})::text;
    END IF;
    RETURN (${\ $call->('m')})::text;
EXCEPTION WHEN OTHERS THEN
    RETURN 'ERROR ' || SQLSTATE;
END \$\$;});
	my ($total, $differ, $errors, $first) = split /\|/, $cnode->safe_psql(
		'cmp', qq{
SET client_min_messages = warning;
SELECT count(*), count(*) FILTER (WHERE c IS DISTINCT FROM m), count(*) FILTER (WHERE c LIKE 'ERROR%'),
       (array_agg(ROW($cols, c, m)::text) FILTER (WHERE c IS DISTINCT FROM m))[1:3]
FROM (SELECT $cols, outcome_$k('uid', $cols) AS c, outcome_$k('m', $cols) AS m FROM $table) s});
	is("$differ", '0',
		"f) $f($types): uid and uid_managed agree on $total values, $errors of them refused"
	) or diag("first differences (input, uid's, uid_managed's): $first");
}
$cnode->stop;

# ---------------------------------------------------------------------------
# c) 8 sessions at once
# ---------------------------------------------------------------------------
my $per_session = 2000;
owner_psql(
	q{CREATE TABLE log (session int, n int, id bigint, u uuid);
	  GRANT INSERT, SELECT ON log TO app;});
my $gate = $node->background_psql('m');
$gate->query_safe('SELECT pg_advisory_lock(170)');
my @sessions;
for my $k (1 .. 8)
{
	my $bg = $node->background_psql('m', extra_params => [ '-U', 'app' ]);
	$bg->query_until(
		qr/waiting $k/, qq{
\\echo waiting $k
SELECT pg_advisory_lock_shared(170);
SELECT pg_advisory_unlock_shared(170);
DO \$\$BEGIN
  FOR i IN 1 .. $per_session LOOP
    INSERT INTO log VALUES ($k, i, ids.uid_next(), ids.uuid7());
  END LOOP;
END\$\$;
});
	push @sessions, $bg;
}
$node->poll_query_until('m',
	q{SELECT count(*) = 8 FROM pg_locks WHERE locktype = 'advisory' AND objid = 170 AND NOT granted}
) or die 'the 8 sessions did not reach the gate';
$gate->query_safe('SELECT pg_advisory_unlock(170)');
$node->poll_query_until('m', 'SELECT count(*) = ' . 8 * $per_session . ' FROM log')
  or die 'the 8 sessions did not finish';
$_->quit for @sessions;
is( owner_psql(
		'SELECT count(*), count(DISTINCT id), count(DISTINCT u), count(DISTINCT session) FROM log'),
	8 * $per_session . '|' . 8 * $per_session . '|' . 8 * $per_session . '|8',
	"8 sessions, $per_session ids and UUIDs each: none twice");
is( owner_psql(
		q{SELECT count(*) FROM (
		    SELECT id, u, lag(id) OVER w AS prev_id, lag(u) OVER w AS prev_u
		    FROM log WINDOW w AS (PARTITION BY session ORDER BY n)) s
		  WHERE id <= prev_id OR u <= prev_u}),
	'0', "each session's ids and UUIDs are strictly increasing");

# ---------------------------------------------------------------------------
# d) kill -9 under load, restart: above everything committed before
# ---------------------------------------------------------------------------
owner_psql(
	q{CREATE TABLE crash_log (id bigint PRIMARY KEY, u uuid UNIQUE);
	  GRANT INSERT, SELECT ON crash_log TO app;});

# Starts a session that commits one id and one UUID per transaction until
# the server dies, and returns once 500 are committed.
sub crash_under_load
{
	my $bg = $node->background_psql(
		'm',
		on_error_stop => 0,
		extra_params  => [ '-U', 'app' ]);
	$bg->query_until(
		qr/load started/, q{
\echo load started
DO $$BEGIN LOOP INSERT INTO crash_log VALUES (ids.uid_next(), ids.uuid7()); COMMIT; END LOOP; END$$;
});
	my $base = owner_psql('SELECT count(*) FROM crash_log');
	$node->poll_query_until('m', "SELECT count(*) >= $base + 500 FROM crash_log")
	  or die 'the load did not run';
	kill9_all($node);
	eval { $bg->quit };
	return;
}

crash_under_load();
faketime_start($node, $clock);
my ($max_id, $max_u) = split /\|/,
  owner_psql('SELECT max(id), (SELECT u FROM crash_log ORDER BY u DESC LIMIT 1) FROM crash_log');
owner_psql(
	q{CREATE TABLE after_crash AS
	  SELECT ids.uid_next() AS id, ids.uuid7() AS u FROM generate_series(1, 1000)});
is( owner_psql(
		"SELECT count(*) FROM after_crash WHERE id <= $max_id OR u <= '$max_u'"),
	'0',
	'kill -9 under load, restart: 1,000 new ids and UUIDs, all above every one committed before');

# ---------------------------------------------------------------------------
# e) the same, restarted with the clock 20 s behind
# ---------------------------------------------------------------------------
crash_under_load();
set_clock($clock, '-20');
faketime_start($node, $clock);
($max_id, $max_u) = split /\|/,
  owner_psql('SELECT max(id), (SELECT u FROM crash_log ORDER BY u DESC LIMIT 1) FROM crash_log');
is( owner_psql("SELECT clock_timestamp() < ids.uid_time($max_id) - interval '15 s'"),
	't', 'e) the restarted server\'s clock is 20 s behind the last committed id');
is(state_as('app', 'SELECT ids.uid_next()'),
	'UID01', 'e) uid_next() refuses to run 20 s ahead of the clock: UID01, as uid');
is(state_as('app', 'SELECT ids.uuid7()'), 'UID01', 'e) and so does uuid7()');
owner_psql('UPDATE ids.uid_managed_config SET max_ahead_ms = 60000');
owner_psql(
	q{CREATE TABLE after_step AS
	  SELECT ids.uid_next() AS id, ids.uuid7() AS u FROM generate_series(1, 1000)});
is( owner_psql(
		"SELECT count(*) FROM after_step WHERE id <= $max_id OR u <= '$max_u'"),
	'0',
	'e) allowed 60 s ahead: 1,000 new ids and UUIDs, all above every one committed before the crash'
);
is( owner_psql(
		q{SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY ctid) AS prev FROM after_step) s
		  WHERE id <= prev}),
	'0', 'e) and strictly increasing');
set_clock($clock, '+0');
is( owner_psql(
		'SELECT ids.uid_next() > (SELECT max(id) FROM after_step)'),
	't', 'e) the clock back: ids continue above');

# ---------------------------------------------------------------------------
# g) the SQL of docs/managed.md as pasted, on this server without uid, once
#    the plain script is installed into its default schema
# ---------------------------------------------------------------------------
my $doc = slurp_file("$top/docs/managed.md");
my @blocks = $doc =~ /^```sql\n(.*?)^```$/msg;
cmp_ok(scalar @blocks, '>=', 2, 'g) docs/managed.md has SQL to run');
$node->safe_psql('postgres', 'CREATE DATABASE docs OWNER owner');
$node->command_ok(
	[
		'psql', '-X', '-q', '-U', 'owner', '-d', $node->connstr('docs'),
		'-f', $script
	],
	'g) the plain script installs into its default schema');
my $nblock = 0;
for my $block (@blocks)
{
	$nblock++;
	my ($ret, $out, $err) = $node->psql(
		'docs', $block,
		on_error_stop => 1,
		extra_params  => [ '-U', 'owner' ]);
	is($ret, 0, "g) docs/managed.md SQL block $nblock runs as pasted")
	  or diag("$block\n$err");
}

$node->stop;
done_testing();
