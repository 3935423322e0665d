# Hostile roles against the tenant counters and the rest of uid's SQL
# surface (and every function's privileges), each reproduced as an ordinary
# role with what PostgreSQL gives by default (CONNECT, and CREATE on public
# as on clusters upgraded from 14 or older):
#
#  a) a role without a grant cannot draw a tenant's numbers, create junk
#     counter rows, squat a prefix, block a tenant or a range change, or read
#     the counters;
#  b) a role granted one tenant draws only that tenant's numbers; while it
#     holds a number in an open transaction, other tenants keep drawing, and
#     a range change waits at most lock_timeout (5 s when it is 0) and fails
#     with 55P03, after which the calls queued behind it go on;
#  c) a database owner who renames schema public and plants a function named
#     like one of uid's there gains nothing through uid's SECURITY DEFINER
#     functions;
#  d) uid_stats and the functions behind it: pg_monitor, not PUBLIC;
#  e) tickets, generators and their administration: nothing beyond what the
#     role was granted;
#  f) grants survive pg_dump and pg_restore, by role name.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_counters', 'uid.worker_id' => 4);
$node->start;

# no statement may hang the test: a wait that should not happen fails it
my $guard = "SET statement_timeout = '60s';";

# psql as $role: (exit code, stdout, stderr with the SQLSTATE)
sub psql_as
{
	my ($role, $db, $sql) = @_;
	my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\n$guard\n$sql",
		extra_params => [ '-U', $role ]);
	return ($ret, $out, $err);
}

# the SQLSTATE of a statement run as $role, or 'ok'
sub state_as
{
	my ($role, $db, $sql) = @_;
	my ($ret, $out, $err) = psql_as($role, $db, $sql);
	return 'ok' if $ret == 0;
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return $state // "(none: $err)";
}

sub counters
{
	my ($db) = @_;
	return $node->safe_psql($db // 'app', q{
		SELECT coalesce(string_agg(prefix || '/' || tenant || '=' || last_value, ' '
		                           ORDER BY prefix, tenant), '(none)')
		  FROM uid_counter.counters});
}

$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE ROLE app_acme LOGIN;
	CREATE ROLE app_globex LOGIN;
	CREATE ROLE monitor LOGIN IN ROLE pg_monitor;
	CREATE DATABASE app;
});
$node->safe_psql('app', q{
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE EXTENSION uid;
	SELECT uid_counter_next('acme', 'REQ') FROM generate_series(1, 3);
	SELECT uid_counter_set_range('acme', 'TKT', 1, 999);
	SELECT uid_ticket_create('orders', 1, 2);
	SELECT uid_ticket_next('orders');
});
my $before = counters();
is($before, 'REQ/acme=3', 'the administrator drew acme\'s first numbers');

# ---------------------------------------------------------------------------
# a) mallory, with no grant
# ---------------------------------------------------------------------------
is(state_as('mallory', 'app', "SELECT uid_counter_next('acme', 'REQ')"),
	'42501', 'a) mallory cannot draw acme\'s numbers (42501)');
is(state_as('mallory', 'app',
		"SELECT uid_counter_next('junk' || g, 'JUNK') FROM generate_series(1, 100) g"),
	'42501', 'a) mallory cannot create counter rows');
is(state_as('mallory', 'app', "SELECT uid_counter_next('mallory', 'INV')"),
	'42501', 'a) mallory cannot issue numbers of a prefix to squat it');
is(counters(), $before, 'a) no number was drawn and no row created');
is(state_as('postgres', 'app', "SELECT uid_counter_set_range('globex', 'INV', 1, 1000)"),
	'ok', 'a) the administrator gives globex a range of the prefix mallory tried to squat');

# mallory tries to block acme's counter and every range change by keeping a
# transaction open after a draw
my $mal = $node->background_psql('app', on_error_stop => 0,
	extra_params => [ '-U', 'mallory' ]);
$mal->query("BEGIN; SELECT uid_counter_next('acme', 'REQ');");
like($mal->{stderr}, qr/permission denied/, 'a) mallory\'s draw in an open transaction is refused');
$mal->{stderr} = '';
is(state_as('postgres', 'app', "SELECT uid_counter_set_range('acme', 'TKT', 1, 1999)"),
	'ok', 'a) a range change does not wait for mallory\'s open transaction');
is(state_as('postgres', 'app', "SELECT uid_counter_next('acme', 'REQ')"),
	'ok', 'a) acme\'s counter does not wait for it either');
$mal->quit;
$before = counters();

for my $q ('SELECT * FROM uid_counters', 'SELECT * FROM uid_counter_settings',
	'SELECT * FROM uid_counter_grants', 'SELECT * FROM uid_counter.counters')
{
	is(state_as('mallory', 'app', $q), '42501', "a) mallory cannot read: $q");
}
is(state_as('mallory', 'app', "SELECT uid_counter._next('acme', 'REQ', 10)"),
	'42501', 'a) mallory cannot call the work function with a forged caller');
is(state_as('mallory', 'app', "SELECT uid_counter_grant('acme', 'mallory')"),
	'42501', 'a) mallory cannot grant herself a tenant');
for my $q ("SELECT uid_counter_configure('REQ', 'acme', start => 1000)",
	"SELECT uid_counter_set_range('mallory', 'REQ2', 1, 10)",
	"SELECT uid_counter_unset_range('acme', 'TKT')")
{
	is(state_as('mallory', 'app', $q), '42501', "a) mallory cannot administer: $q");
}
is(counters(), $before, 'a) still nothing drawn or created by mallory');

# ---------------------------------------------------------------------------
# b) roles granted one tenant each
# ---------------------------------------------------------------------------
# The files of uid's counter tables: counter calls and range changes never
# give a table a new file (no DDL, TRUNCATE or rewrite), so a call queued
# behind a range change reads the files it planned with.
my $files_sql = q{
	SELECT string_agg(c.relname || '=' || pg_relation_filepath(c.oid)
	                  || ':' || ((pg_stat_file(pg_relation_filepath(c.oid), true)).size IS NOT NULL)::text,
	                  ' ' ORDER BY c.relname)
	  FROM pg_class c
	 WHERE c.relnamespace = 'uid_counter'::regnamespace AND c.relkind IN ('r', 'i')};
my $files_before = $node->safe_psql('app', $files_sql);
$node->safe_psql('app', q{
	SELECT uid_counter_grant('acme', 'app_acme');
	SELECT uid_counter_grant('globex', 'app_globex');
});
is(state_as('app_acme', 'app', "SELECT uid_counter_next('acme', 'REQ')"),
	'ok', 'b) app_acme draws acme\'s numbers');
is(state_as('app_acme', 'app', "SELECT uid_counter_next('globex', 'REQ')"),
	'42501', 'b) app_acme cannot draw globex\'s');
is(state_as('app_acme', 'app', "SELECT uid_counter_grant('globex', 'app_acme')"),
	'42501', 'b) app_acme cannot grant itself more');

# app_acme holds a number in an open transaction
my $acme = $node->background_psql('app', on_error_stop => 0,
	extra_params => [ '-U', 'app_acme' ]);
$acme->query_safe("BEGIN; SELECT uid_counter_next('acme', 'REQ');");
is(state_as('app_globex', 'app', "SELECT uid_counter_next('globex', 'REQ')"),
	'ok', 'b) meanwhile globex draws without waiting');

# A range change with lock_timeout 0 (wait forever) waits 5 s, then gives up.
my ($ret, $out, $err) = psql_as('postgres', 'app',
	"SET lock_timeout = 0; SELECT uid_counter_set_range('globex', 'RNG', 1, 10)");
like($err, qr/ERROR:\s+55P03: uid_counter_set_range: counter ranges are in use/,
	'b) a range change waits at most 5 s for the open transaction, then fails with 55P03');
like($err, qr/Waited 5s/, 'b) ... saying how long it waited');

# While a range change waits (here up to its session's lock_timeout of 10 s),
# a call of another tenant queues behind it, and goes on when it gives up.
my $admin = $node->background_psql('app', on_error_stop => 0);
$admin->query_until(qr/range change started/, q{
SET lock_timeout = '10s';
\echo range change started
SELECT uid_counter_set_range('globex', 'RNG', 1, 10);
});
$node->poll_query_until('app', q{
	SELECT count(*) > 0 FROM pg_locks
	 WHERE relation = 'uid_counter.ranges'::regclass AND mode = 'ExclusiveLock' AND NOT granted})
  or die 'the range change did not start waiting';
my $globex = $node->background_psql('app', on_error_stop => 0,
	extra_params => [ '-U', 'app_globex' ]);
$globex->query_until(qr/draw started/, q{
\echo draw started
SELECT uid_counter_next('globex', 'REQ');
});
ok( $node->poll_query_until('app', q{
	SELECT count(*) > 0 FROM pg_locks
	 WHERE relation = 'uid_counter.ranges'::regclass AND mode = 'RowShareLock' AND NOT granted}),
	'b) a globex call queues behind the waiting range change');
$admin->query('SELECT 1');
like($admin->{stderr}, qr/counter ranges are in use/,
	'b) the range change gives up after its lock_timeout');
my $drawn = $globex->query('SELECT 1');
like($drawn, qr/REQ-\d+/, 'b) ... and the queued globex call then returns its number');
is($globex->{stderr}, '', 'b) ... without an error');
$globex->quit;
$acme->query_safe('COMMIT');
$acme->quit;
$admin->{stderr} = '';
$admin->query("SELECT uid_counter_set_range('globex', 'RNG', 1, 10)");
is($admin->{stderr}, '', 'b) once the transaction ended, the range change succeeds');
is($admin->query('SHOW lock_timeout'), '10s', 'b) ... and the session keeps its lock_timeout');
$admin->quit;
unlike($files_before, qr/:false/, 'b) every counter table and index has its file');
is($node->safe_psql('app', $files_sql), $files_before,
	'b) ... the same file after the draws and range changes, still there');

# ---------------------------------------------------------------------------
# c) a database owner renames public, uid's schema, and plants a function of
# uid's name in a new public: the counter functions call nothing in uid's
# schema by name, so they still run only uid's own
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', q{
	CREATE ROLE owner LOGIN;
	CREATE DATABASE owned OWNER owner;
});
$node->safe_psql('owned', q{
	CREATE EXTENSION uid;
	SELECT uid_counter_grant('acme', 'app_acme');
	SELECT uid_counter_grant('acme', 'owner');
});
($ret, $out, $err) = psql_as('owner', 'owned', q{
	ALTER SCHEMA public RENAME TO public_old;
	CREATE SCHEMA public;
	CREATE TABLE public.hits (what text);
	GRANT INSERT ON public.hits TO PUBLIC;
	CREATE FUNCTION public.uid_counter_format(text, bigint, integer) RETURNS text
	LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.hits VALUES ('uid_counter_format');
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE owner SUPERUSER';
		END IF;
		RETURN $1 || '-' || $2;
	END $$;
	CREATE FUNCTION public.uid_counter_next(text, text) RETURNS text
	LANGUAGE sql AS $$ SELECT 'planted' $$;
});
is($ret, 0, 'c) the database owner renames public and plants functions') or diag($err);
($ret, $out, $err) = psql_as('app_acme', 'owned',
	"SELECT public_old.uid_counter_next('acme', 'REQ')");
like($out, qr/REQ-001/, 'c) a granted role still draws (uid\'s own formatting)') or diag($err);
is(state_as('postgres', 'owned', "SELECT public_old.uid_counter_grant('acme', 'app_globex')"),
	'ok', 'c) a grant still works after the rename');
is( $node->safe_psql('owned',
		q{SELECT has_function_privilege('app_globex', 'public_old.uid_counter_next(text, text)', 'EXECUTE')}),
	't', 'c) ... and grants EXECUTE on uid\'s function, not the planted one');
is($node->safe_psql('owned', 'SELECT count(*) FROM public.hits'), '0',
	'c) the planted function never ran');
is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'owner'"),
	'f', 'c) the database owner is not a superuser');
is(state_as('owner', 'owned', "SELECT public_old.uid_counter_next('other', 'REQ')"), '42501',
	'c) its own draw of a tenant it holds no grant of is refused as before (uid_counter._next() raising)');
is($node->safe_psql('owned', 'SELECT count(*) FROM public.hits'), '0',
	'c) ... and ran nothing planted');

# ---------------------------------------------------------------------------
# d) uid_stats: pg_monitor, not PUBLIC
# ---------------------------------------------------------------------------
is(state_as('mallory', 'app', 'SELECT * FROM uid_stats()'), '42501',
	'd) mallory cannot call uid_stats()');
is(state_as('mallory', 'app', 'SELECT * FROM uid_stats_1_1()'), '42501',
	'd) mallory cannot call uid_stats_1_1()');
is(state_as('mallory', 'app', 'SELECT * FROM uid_stats'), '42501',
	'd) mallory cannot read the uid_stats view');
is(state_as('monitor', 'app', 'SELECT * FROM uid_stats'), 'ok',
	'd) a pg_monitor member reads the uid_stats view');
is(state_as('monitor', 'app', 'SELECT * FROM uid_stats()'), 'ok',
	'd) ... and calls uid_stats()');
is(state_as('monitor', 'app', 'SELECT uid_stats_reset()'), '42501',
	'd) ... but cannot reset it');

# ---------------------------------------------------------------------------
# e) tickets, generators, administration
# ---------------------------------------------------------------------------
for my $q ("SELECT uid_ticket_create('mine', 1)",
	"SELECT uid_ticket_drop('orders')",
	"SELECT uid_ticket_next('orders')",
	"SELECT uid_ticket._nextval('uid_ticket.orders')",
	"SELECT nextval('uid_ticket.orders')",
	"SELECT setval('uid_ticket.orders', 1)",
	'CREATE SEQUENCE uid_ticket.planted',
	"DELETE FROM uid_ticket._tickets",
	"SELECT uid_advance_past(uid_from_time(now() + interval '1 hour'))",
	"SELECT uuid7_advance_past(uuid7_from_time(now() + interval '1 hour'))",
	'SELECT uid_stats_reset()')
{
	is(state_as('mallory', 'app', $q), '42501', "e) mallory cannot: $q");
}
($ret, $out, $err) = psql_as('mallory', 'app',
	"SELECT name, last_issued IS NULL FROM uid_tickets");
is($out, 'orders|t', 'e) uid_tickets shows mallory the ticket but not its last number');
is(state_as('mallory', 'app', 'SELECT uid_next(), uuid7(), uid_decode(uid_next())'),
	'ok', 'e) mallory generates IDs like anyone');
$node->safe_psql('app', 'GRANT USAGE ON SEQUENCE uid_ticket.orders TO app_acme');
is(state_as('app_acme', 'app', "SELECT uid_ticket_next('orders')"), 'ok',
	'e) a role granted USAGE on the ticket\'s sequence draws tickets');

# ---------------------------------------------------------------------------
# f) grants survive dump and restore (by role name)
# ---------------------------------------------------------------------------
my $grants = q{SELECT string_agg(tenant || '/' || prefix || '/' || role, ' ' ORDER BY 1) FROM uid_counter_grants};
my $dump = $node->basedir . '/app.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('app') ],
	'f) pg_dump of the database');
$node->safe_psql('postgres', 'CREATE DATABASE app_copy');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('app_copy'), $dump ],
	'f) pg_restore into a new database');
is($node->safe_psql('app_copy', $grants), $node->safe_psql('app', $grants),
	'f) the counter grants are restored');
is(state_as('app_acme', 'app_copy', "SELECT uid_counter_next('acme', 'REQ')"), 'ok',
	'f) the granted role draws in the restored database');
is(state_as('app_acme', 'app_copy', "SELECT uid_counter_next('globex', 'REQ')"), '42501',
	'f) ... and only its tenant');
is(state_as('mallory', 'app_copy', "SELECT uid_counter_next('acme', 'REQ')"), '42501',
	'f) mallory still cannot draw there');

is($node->safe_psql('postgres', q{SELECT string_agg(rolname, ',') FROM pg_roles
	WHERE rolsuper AND rolname IN ('mallory', 'app_acme', 'app_globex', 'monitor', 'owner')}),
	'', 'no role became a superuser');

$node->stop;
done_testing();
