# A promoted standby and a server started from a base backup are different
# holders: each gets its own lease and never inherits the original's, which
# is still live.  Both with a shared coordination database and with the
# default local store (whose lease table, with the original's live row, the
# copies inherit; copies with local stores do not see each other, though).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';

for my $mode ('remote', 'local')
{
	# a lease that outlives the time the copies take to start, however slow
	# the machine: the copies must find the original's row live
	my $conf = "uid.lease_ttl = '120s'\n" . ($mode eq 'remote' ? "uid.lease_conninfo = '$conninfo'\n" : '');
	# the store the rows are read from
	my $store;

	my $primary = lease_node("primary_$mode", init => { allows_streaming => 1 }, conf => $conf);
	$primary->start;
	$primary->safe_psql('postgres', 'CREATE EXTENSION uid');
	$primary->safe_psql('postgres', try_next_sql());
	my ($wp, $tp) = wait_held($primary);
	is($wp, 0, "$mode: the primary leases worker id 0");
	my $sysid = $primary->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');

	$primary->backup('b');

	# a streaming standby: no lease while in recovery
	my $standby = PostgreSQL::Test::Cluster->new("standby_$mode");
	$standby->init_from_backup($primary, 'b', has_streaming => 1);
	$standby->start;
	$primary->wait_for_catchup($standby);
	is($standby->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'),
		'starting', "$mode: a standby takes no lease");

	# a copy started from the same base backup as a server of its own
	my $clone = PostgreSQL::Test::Cluster->new("clone_$mode");
	$clone->init_from_backup($primary, 'b');
	$clone->start;
	my ($wc, $tc) = wait_held($clone);
	isnt($wc, $wp, "$mode: a server started from a base backup gets its own worker id");

	$standby->promote;
	my ($ws, $ts) = wait_held($standby);
	isnt($ws, $wp, "$mode: the promoted standby gets its own worker id");
	# with local stores the two copies cannot see each other's leases: that
	# is what uid.lease_conninfo is for
	isnt($ws, $wc, "$mode: different from the clone's") if $mode eq 'remote';

	is($primary->safe_psql('postgres', 'SELECT worker_id || \'/\' || token || \'/\' || state FROM uid_lease_status()'),
		"$wp/$tp/held", "$mode: the primary keeps its lease, token unchanged");
	is($primary->safe_psql('postgres', 'SELECT try_next()'), $wp, "$mode: and keeps issuing");
	is($standby->safe_psql('postgres', 'SELECT try_next()'), $ws, "$mode: the promoted standby issues with its id");
	is($clone->safe_psql('postgres', 'SELECT try_next()'), $wc, "$mode: the clone issues with its id");

	# what the rows say: same system identifier, but the standby is on timeline 2
	my ($store_node, $tli_node) = $mode eq 'remote' ? ($coord, $coord) : ($standby, $standby);
	is( $store_node->safe_psql(
			'postgres', "SELECT system_identifier = $sysid AND timeline = 2 AND port = @{[$standby->port]} FROM uid_lease.lease WHERE worker_id = $ws"),
		't', "$mode: the promoted standby's row: same system identifier, timeline 2, its own port");

	$_->stop for ($clone, $standby, $primary);
}
$coord->stop;
done_testing();
