# The lease worker's memory stays flat however many renewals it makes: each
# cycle runs in a memory context reset at the next.  (With a remote store it
# used to keep about 1 KB of statement text per renewal: some 8.6 MB a day
# per server at the default interval.)  Read from the worker's own memory
# context totals (pg_log_backend_memory_contexts), after a warm-up and again
# after a thousand more renewals, with the remote and with the local store.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $renewals = 1000;
# far below the 1 KB per renewal that leaked
my $bound = 64 * 1024;

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';

# Bytes in use in the lease worker's memory contexts, as it logs them, less
# those of a cycle in progress: the transaction's contexts and the cycle's
# own, which the next cycle resets (the worker may be asked mid-cycle).
sub worker_memory
{
	my ($node) = @_;
	my $pid = $node->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
	my $offset = -s $node->logfile;
	is($node->safe_psql('postgres', "SELECT pg_log_backend_memory_contexts($pid)"),
		't', 'the lease worker is asked to log its memory contexts');
	$node->wait_for_log(qr/\[$pid\].*Grand total: \d+ bytes in \d+ blocks; \d+ free \(\d+ chunks\); \d+ used/,
		$offset);
	my $log = slurp_file($node->logfile, $offset);
	my ($used) = $log =~ /\[$pid\].*Grand total: \d+ bytes in \d+ blocks; \d+ free \(\d+ chunks\); (\d+) used/;
	my $skip_level;
	for my $line (split /\n/, $log)
	{
		next unless $line =~ /\[$pid\].*level: (\d+); (.*?): \d+ total in .*; (\d+) used/
		  || $line =~ /\[$pid\].*level: (\d+); (\d+ more child contexts) containing \d+ total in .*; (\d+) used/;
		my ($level, $name, $bytes) = ($1, $2, $3);
		undef $skip_level if defined $skip_level && $level <= $skip_level;
		$skip_level = $level
		  if !defined $skip_level
		  && ($name eq 'TopTransactionContext' || $name eq 'uid lease worker cycle');
		$used -= $bytes if defined $skip_level;
	}
	return $used;
}

sub renewals
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT renewals FROM uid_lease_status()');
}

for my $mode ('remote', 'local')
{
	my $node = lease_node("memory_$mode",
		conf => "uid.lease_renew_interval = '10ms'\n"
		  . ($mode eq 'remote' ? "uid.lease_conninfo = '$conninfo'\n" : ''));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	wait_held($node);
	ok(poll_within($node, 120, 'SELECT renewals >= 100 FROM uid_lease_status()'),
		"$mode: 100 renewals to warm up");
	my $before = worker_memory($node);
	my $r = renewals($node);
	ok(poll_within($node, 300, "SELECT renewals >= $r + $renewals FROM uid_lease_status()"),
		"$mode: $renewals more renewals");
	my $after = worker_memory($node);
	cmp_ok($after - $before, '<', $bound,
		"$mode: the worker's memory in use grew by " . ($after - $before)
		  . " bytes over $renewals renewals ($before -> $after)");
	$node->stop;
}

$coord->stop;
done_testing();
