# The test harness itself: safe_psql of one statement (a query, DML or DDL)
# runs over a session kept per node and database (test/t/UidCluster.pm),
# and must answer as psql does, with what a new backend would see, so that
# no other test checks less than it says.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib 't', 'test/t';
use LeaseTest;

eval { require DBD::Pg; 1 }
  or plan skip_all => 'DBD::Pg is not installed: safe_psql runs psql (test/deps.sh installs it)';

my $node = PostgreSQL::Test::Cluster->new('harness');
$node->init;
$node->start;

# psql's own answer (a new psql and backend), for comparison
sub by_psql
{
	my ($sql, $db) = @_;
	my ($ret, $out, $err) = $node->psql($db // 'postgres', $sql);
	die "psql: $err" if $ret;
	return $out;
}

my $pid = $node->safe_psql('postgres', 'SELECT pg_backend_pid()');
is($node->safe_psql('postgres', 'SELECT pg_backend_pid()'), $pid,
	'two calls share one session (the harness keeps it)');

for my $sql (
	q{SELECT true, false, NULL::int, 1.50::numeric, 'a|b'},
	q{SELECT g, g % 2 = 0 FROM generate_series(1, 3) g},
	q{SELECT NULL UNION ALL SELECT NULL},
	q{SELECT '\x00ff10'::bytea, ARRAY[1, NULL, 3], ARRAY['x y', '"q"']},
	q{SELECT '{"a": 1}'::jsonb ? 'a', '{"a": 1}'::json},
	q{SELECT 'é€😀', E'two\nlines'},
	q{SELECT '2026-01-02 03:04:05.678+00'::timestamptz, '1 day 2 hours'::interval},
	q{SELECT pg_sleep(0)},
	q{SELECT 1 WHERE false},
	q{VALUES (1, 'x'), (2, 'y')},
	q{WITH t AS (SELECT 42 AS n) TABLE t;})
{
	is($node->safe_psql('postgres', $sql), by_psql($sql), "as psql prints it: $sql");
}

# one statement of DML or DDL runs there too, and prints what psql -q prints
$node->safe_psql('postgres', 'CREATE TABLE who (pid int, n int)');
$node->safe_psql('postgres', 'INSERT INTO who VALUES (pg_backend_pid(), 1)');
is($node->safe_psql('postgres', 'SELECT bool_and(pid = pg_backend_pid()) FROM who'), 't',
	'DML and DDL run in the session the queries use');
is($node->safe_psql('postgres', 'INSERT INTO who VALUES (0, 2), (0, 3) RETURNING n, n * 2'),
	"2|4\n3|6", 'DML with RETURNING prints its rows');
is($node->safe_psql('postgres', 'UPDATE who SET n = n + 10 WHERE pid = 0'), '',
	'DML without RETURNING prints nothing');
is($node->safe_psql('postgres', 'DROP TABLE IF EXISTS nothing_here'), '',
	'a notice is no error');
for my $sql ('SHOW work_mem', 'EXPLAIN (COSTS OFF) SELECT n FROM who WHERE n > 10')
{
	is($node->safe_psql('postgres', $sql), by_psql($sql), "as psql prints it: $sql");
}
eval { $node->safe_psql('postgres', 'CREATE TABLE who (x int)') };
like($@, qr/ERROR:  relation "who" already exists/, 'a DDL error dies with the server\'s message');
$node->safe_psql('postgres', 'CREATE TEMP TABLE scratch (x int)');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname = 'scratch'}), '0',
	'a temporary table made by one call is gone in the next');

eval { $node->safe_psql('postgres', 'SELECT 1 / 0') };
like($@, qr/ERROR:  division by zero/, 'an error dies with the server\'s message');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'and the session answers the next call');

# what a call does to its session ends with it, as with psql's backend
$node->safe_psql('postgres', q{SELECT set_config('work_mem', '1234kB', false), pg_advisory_lock(42)});
# (the lock first: the next call through the harness must not be what frees it)
is(by_psql('SELECT pg_try_advisory_lock(42)'), 't', 'a session lock taken by one call is released when it ends');
is($node->safe_psql('postgres', q{SELECT current_setting('work_mem')}), by_psql('SHOW work_mem'),
	'a setting made by one call is gone in the next');

# what only a new session sees
$node->safe_psql('postgres', q{ALTER ROLE CURRENT_USER SET work_mem = '2MB'});
is($node->safe_psql('postgres', q{SELECT current_setting('work_mem')}), '2MB',
	'a role setting made since is taken, as by a new session');
$node->safe_psql('postgres', 'ALTER ROLE CURRENT_USER RESET work_mem');
$node->safe_psql('postgres', 'CREATE DATABASE other');
is($node->safe_psql('other', 'SELECT current_database()'), 'other', 'a session per database');
$node->safe_psql('postgres', 'DROP DATABASE other');
pass('a database the harness has a session to can be dropped');

# a session the server closed is opened again
$pid = $node->safe_psql('postgres', 'SELECT pg_backend_pid()');
by_psql("SELECT pg_terminate_backend($pid)");
isnt($node->safe_psql('postgres', 'SELECT pg_backend_pid()'), $pid, 'a terminated session is opened again');
$node->restart;
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'after a restart');
kill9_and_start($node);
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'after a crash');
ok($node->poll_query_until('postgres', 'SELECT true'), 'poll_query_until answers over it too');

# Every node is UTF8 with the locale C.UTF-8, whatever the caller's LANG
# and LC_*: the node above (a copy of test/run.sh's template where there is
# one), and a node whose initdb runs, with LANG=C and no LC_* but
# LC_MESSAGES, with which initdb by itself would make C and SQL_ASCII
my $locale_sql = q{SELECT current_setting('server_encoding'), datcollate, datctype
	FROM pg_database WHERE datname = current_database()};
is($node->safe_psql('postgres', $locale_sql), 'UTF8|C.UTF-8|C.UTF-8',
	'a node is UTF8 with the locale C.UTF-8');
{
	local %ENV = (%ENV, LANG => 'C');
	delete @ENV{ grep { /^(LC_|LANGUAGE$)/ && $_ ne 'LC_MESSAGES' } keys %ENV };
	my $own = PostgreSQL::Test::Cluster->new('harness_initdb');
	$own->init(force_initdb => 1);
	$own->start;
	is($own->safe_psql('postgres', $locale_sql), 'UTF8|C.UTF-8|C.UTF-8',
		'a node whose initdb runs with LANG=C is UTF8 with the locale C.UTF-8 too');
	$own->stop;
}

# A test that fails while a server of its own is frozen (SIGSTOP of every
# process, UidTap's freeze_all, as fault tests freeze a machine) leaves no
# process behind: the harness thaws what is still running before its
# teardown stops it.  The test here is a child script that starts a node,
# freezes it and dies; its teardown must then stop that server.
{
	my $dir = PostgreSQL::Test::Utils::tempdir();
	my $script = "$dir/frozen_child.pl";
	open my $fh, '>', $script or die "could not write $script: $!";
	print $fh <<'CHILD';
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;
my $node = PostgreSQL::Test::Cluster->new('frozen_child');
$node->init;
$node->start;
my @pids = freeze_all($node);
open my $out, '>', $ARGV[0] or die "could not write $ARGV[0]: $!";
print $out "@pids\n";
close $out;
die "a test that fails while its server is frozen\n";
CHILD
	close $fh;
	my $lib = (grep { -e "$_/UidTap.pm" } 't', 'test/t')[0];
	# the teardown's wait for the frozen server, short: it fails either way
	local $ENV{PGCTLTIMEOUT} = 10;
	system("$^X -I $lib $script $dir/pids >$dir/child.log 2>&1");
	isnt($? >> 8, 0, 'the child test failed, as it meant to');
	my @pids = split ' ', PostgreSQL::Test::Utils::slurp_file("$dir/pids");
	cmp_ok(scalar @pids, '>', 1, 'it had frozen its postmaster and children');
	# alive: in /proc, and not a zombie
	my @left = grep {
		my $stat = eval { PostgreSQL::Test::Utils::slurp_file("/proc/$_/stat") } // '';
		$stat =~ /\)\s+([^Z\s])/;
	} @pids;
	is("@left", '', 'no process of its server is left after it ended')
	  or diag(PostgreSQL::Test::Utils::slurp_file("$dir/child.log"));
	kill 'KILL', @left;
}

$node->stop;
done_testing();
