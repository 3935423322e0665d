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
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $top   = "$FindBin::RealBin/../..";
my $build = PostgreSQL::Test::Utils::tempdir('uid_managed');
system('bash', "$top/managed/build.sh", $build) == 0
  or die 'managed/build.sh failed';
my $script = "$build/uid_managed--1.0.sql";

# Installs the plain script into schema $schema of $db as role $role.
sub install_managed
{
	my ($node, $db, $role, $schema) = @_;
	$node->command_ok(
		[
			'psql', '-X', '-q', '-v', "schema=$schema", '-U', $role,
			'-d', $node->connstr($db), '-f', $script
		],
		"the plain script installs into schema $schema as $role");
	return;
}

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

$node->stop;
done_testing();
