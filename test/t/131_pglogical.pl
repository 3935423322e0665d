# pglogical in shared_preload_libraries: the server applies other nodes'
# changes, so an unset uid.worker_id issues no ID (UID02, config_error, a
# warning at start-up), and a refused one is named as refused; with
# pglogical 2.4 two nodes at the default worker id 0 lost rows without an
# error.  With a worker id set on each node, a
# two-way pglogical replication set carries every row of both nodes.
#
# Debian 12 packages pglogical for PostgreSQL 15 only
# (postgresql-15-pglogical, installed by test/deps.sh); on other versions
# this test skips itself.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;
use LeaseTest qw(poll_within);

my $probe = PostgreSQL::Test::Cluster->new('pglogical_probe');
my ($major) = ('' . $probe->pg_version) =~ /^(\d+)/;
plan skip_all => "Debian 12 packages pglogical (postgresql-15-pglogical) for PostgreSQL 15 only, not for $major"
  if $major != 15;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $pkglibdir = `$pg_config --pkglibdir`;
chomp $pkglibdir;
if (!-e "$pkglibdir/pglogical.so")
{
	plan skip_all => 'pglogical is not installed (test/deps.sh installs postgresql-15-pglogical)'
	  unless $ENV{UID_REQUIRE_ENGINES};
	BAIL_OUT("pglogical.so not found in $pkglibdir");
}

sub pglogical_node
{
	my ($name, %conf) = @_;
	my $node = logical_writer($name, shared_preload_libraries => 'pglogical,uid',
		max_worker_processes => 16, track_commit_timestamp => 'on', %conf);
	# minor releases from 15.19 on decode only with the output plugins that
	# output_plugin_libraries names, and pglogical's is not among the default
	if ($node->safe_psql('postgres',
			q{SELECT count(*) FROM pg_settings WHERE name = 'output_plugin_libraries'}))
	{
		$node->append_conf('postgresql.conf',
			"output_plugin_libraries = 'pgoutput, test_decoding, pglogical_output'\n");
		$node->restart;
	}
	return $node;
}

# --- worker id not set: no ID, on every pglogical node
my $node = pglogical_node('pglogical_default');
my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID02', 'pglogical preloaded and uid.worker_id not set: uid_next() refuses with UID02');
like($err, qr/DETAIL:\s+pglogical is loaded and uid\.worker_id is not set, so every node it replicates between would issue the same IDs/,
	'the detail says why');
like($err, qr/HINT:.*own uid\.worker_id.*uid\.worker_id = 'lease'/s, 'the hint says what to set');
($state) = sqlstate_of($node, q{INSERT INTO t (node) VALUES ('x')});
is($state, 'UID02', 'an INSERT with DEFAULT uid_next() refuses too');
is($node->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
	'static|config_error', 'status: config_error');
ok($node->log_contains('WARNING: .*pglogical is loaded and uid\.worker_id is not set'),
	'logged at start-up');
like($node->safe_psql('postgres', 'SELECT uuid7()'), qr/^[0-9a-f-]{36}$/,
	'uuid7() carries no worker id and still works');
$node->stop;

# --- a refused uid.worker_id: named as refused, not as "not set"
$node = pglogical_node('pglogical_refused', 'uid.worker_id' => 'lese');
($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID02', "pglogical preloaded and uid.worker_id = 'lese' (refused): UID02");
like($err, qr/configured value of uid\.worker_id was refused/, 'the message names the refused setting');
like($err, qr/DETAIL:\s+uid\.worker_id = 'lese' in the server's configuration was refused/,
	'the detail names the value');
$node->stop;

# --- a worker id set on each node (0 included): two-way replication works
my $a = pglogical_node('pglogical_a', 'uid.worker_id' => 0);
my $b = pglogical_node('pglogical_b', 'uid.worker_id' => 3);
for my $n ($a, $b)
{
	my $name = $n->name;
	$n->safe_psql('postgres', qq{
		CREATE EXTENSION pglogical;
		SELECT pglogical.create_node(node_name := '$name', dsn := '@{[ conninfo($n) ]}');
		SELECT pglogical.replication_set_add_table('default', 't');
	});
}
for my $pair ([ $a, $b ], [ $b, $a ])
{
	my ($sub, $pub) = @$pair;
	# forward_origins '{}': only the provider's own changes, so rows do not
	# travel back to where they came from
	$sub->safe_psql('postgres', qq{
		SELECT pglogical.create_subscription(subscription_name := 'from_@{[ $pub->name ]}',
			provider_dsn := '@{[ conninfo($pub) ]}', synchronize_data := false,
			forward_origins := '{}');
	});
}
for my $n ($a, $b)
{
	ok(poll_within($n, 120,
			q{SELECT bool_and(status = 'replicating') FROM pglogical.show_subscription_status()}),
		$n->name . ': its pglogical subscription is replicating');
}

insert_on_all([ $a, $b ], { pglogical_a => 0, pglogical_b => 3 }, 1000, 2);

$_->stop for $a, $b;
done_testing();
