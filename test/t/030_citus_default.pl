# A server that preloads Citus and leaves uid.worker_id at its default
# issues no ID: on a Citus cluster uid_next() runs on the workers as well
# as the coordinator, and with the default static id 0 on every node they
# issued the same IDs (8,538 duplicates in one repartitioned INSERT ...
# SELECT on a 3-node cluster).  A worker id set in the configuration, a
# number or 'lease', is taken as chosen.
#
# A library named citus, with nothing in it but the module magic, stands in
# for Citus, found through dynamic_library_path: uid looks at
# shared_preload_libraries only.  This runs on every version, including
# those without Citus (Citus is not packaged for Debian 12, and Citus 14
# supports PostgreSQL 16 to 18 only); TAP 031 proves the same and more on
# a real Citus cluster, on the version test/run.sh builds Citus for
# (UID_CITUS_VERSION, default 17).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $libdir = PostgreSQL::Test::Utils::tempdir();
# the pg_config uid was built with (test/run.sh passes it on)
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $includedir = `$pg_config --includedir-server`;
chomp $includedir;
open(my $src, '>', "$libdir/citus.c") or die "citus.c: $!";
print $src qq{#include "postgres.h"\n#include "fmgr.h"\nPG_MODULE_MAGIC;\n};
close $src;
system('cc', '-shared', '-fPIC', "-I$includedir", '-o', "$libdir/citus.so", "$libdir/citus.c") == 0
  or die "could not build the stand-in citus library";

# A node that preloads the stand-in citus before uid, with %conf as uid_node's.
sub citus_node
{
	my ($name, %conf) = @_;
	my $node = uid_node($name,
		shared_preload_libraries => 'citus,uid',
		dynamic_library_path => "$libdir:\$libdir",
		%conf);
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return $node;
}

# --- Citus preloaded, uid.worker_id not set: no ID
my $node = citus_node('citus_default');
my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID02', 'Citus preloaded and uid.worker_id not set: uid_next() refuses with UID02');
like($err, qr/Citus is loaded and uid\.worker_id is not set/, 'the detail says why');
like($err, qr/HINT:.*uid\.worker_id = 'lease'/s, 'the hint says what to set');
is($node->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
	'static|config_error', 'status: config_error');
ok($node->log_contains('WARNING: .*Citus is loaded and uid\.worker_id is not set'),
	'logged at start-up');
($state, $err) = sqlstate_of($node, 'SELECT uid_next_batch(3)');
is($state, 'UID02', 'uid_next_batch() refuses as well');
like($node->safe_psql('postgres', 'SELECT uuid7()'), qr/^[0-9a-f-]{36}$/,
	'uuid7() carries no worker id and still works');
$node->stop;

# --- a worker id set in the configuration is a choice, 0 included
$node = citus_node('citus_zero', 'uid.worker_id' => 0);
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
	'uid.worker_id = 0 set in postgresql.conf: IDs with worker id 0');
$node->stop;

$node = citus_node('citus_seven', 'uid.worker_id' => 7);
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '7',
	'uid.worker_id = 7: IDs with worker id 7');
$node->stop;

# --- the ticket recipe of docs/citus.md, read from that page, on three
# databases of one server standing in for a coordinator (group 0) and two
# workers whose groupids are not 1 and 2, with tables standing in for
# Citus's pg_dist_node and pg_dist_local_group
my $doc = slurp_file("$FindBin::RealBin/../../docs/citus.md");
my @recipe = $doc =~ /run_command_on_all_nodes\(\$\$\n(.*?)\n\$\$\)/sg;
is(scalar @recipe, 2, 'docs/citus.md has the check and the ticket recipe');
my ($check, $create) = @recipe;
like($create, qr/uid_ticket_create\('orders'/, 'the second one creates ticket orders');

$node = citus_node('citus_tickets', 'uid.worker_id' => 1);
my @groups = (0, 3, 4);
for my $coordinator_listed (1, 0)
{
	my $case = $coordinator_listed
	  ? 'groups 0, 3, 4' : 'groups 3, 4, the coordinator not in pg_dist_node';
	my @listed = $coordinator_listed ? @groups : (3, 4);
	my @drawn;
	for my $g (@groups)
	{
		my $db = "node$g";
		$node->safe_psql('postgres', "DROP DATABASE IF EXISTS $db");
		$node->safe_psql('postgres', "CREATE DATABASE $db");
		$node->safe_psql($db, qq{
			CREATE EXTENSION uid;
			CREATE TABLE pg_dist_node (nodeid serial, groupid int, nodename text, noderole text);
			INSERT INTO pg_dist_node (groupid, nodename, noderole)
			SELECT g, 'node' || g, 'primary' FROM unnest(ARRAY[@{[ join(',', @listed) ]}]) g;
			-- a streaming replica of a worker is no node of its own
			INSERT INTO pg_dist_node (groupid, nodename, noderole) VALUES (3, 'node3r', 'secondary');
			CREATE TABLE pg_dist_local_group (groupid int);
			INSERT INTO pg_dist_local_group VALUES ($g);
		});
		is($node->safe_psql($db, $check),
			(1 + (grep { $_ < $g } @groups)) . ' of 3', "$case: group $g is node "
			  . (1 + (grep { $_ < $g } @groups)) . ' of 3');
		is($node->safe_psql($db, $create), 'uid_ticket.orders', "$case: group $g creates its ticket");
		push @drawn, split /\n/,
		  $node->safe_psql($db, q{SELECT uid_ticket_next('orders') FROM generate_series(1, 4)});
	}
	is(join(',', sort { $a <=> $b } @drawn), join(',', 1 .. 12),
		"$case: the three series hand out 1 to 12 between them, each once");
}
$node->stop;

# --- without Citus, the default stays the static id 0
$node = uid_node('no_citus');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
	'without Citus, the default static worker id 0 is used');
$node->stop;

done_testing();
