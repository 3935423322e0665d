# A lease store kept highly available by Patroni (etcd, two PostgreSQL 15
# members from Debian's packages), with generators in lease mode issuing
# IDs under load while the store fails over:
#   A. a natural failover (the leader's machine dies: SIGKILL of Patroni and
#      PostgreSQL), asynchronous replication: no duplicate, no lease lost;
#      a generator whose uid.lease_conninfo names one host logs every
#      failure and says how to follow the primary;
#   B. the same with Patroni's synchronous_mode;
#   D. a lease role that may not see the standbys' positions (no pg_monitor):
#      its acquisition is not used until it may; an acquisition made while
#      the WAL senders are frozen is used once they are thawed;
#   C. a lost acquisition, made faithfully: the leader's WAL senders are
#      frozen (SIGSTOP), so that what it commits from then on never reaches
#      the standby; a new generator acquires a worker id there; the leader
#      dies; on the new leader a third generator acquires the same worker id
#      (its row, released, never had the first acquisition).  The first generator's
#      lease worker is frozen meanwhile, so that it meets the new leader only
#      after the third generator holds the id.  No duplicate: the first
#      acquisition was never acted on (its standby never confirmed it), and
#      the random token no longer matches on the new leader.
# Lease times: ttl 40 s, renewal every 500 ms, margin 5 s, so that a lease
# outlives Patroni's failover (ttl 20 s) as docs/leases.md recommends.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib 't', 'test/t';
use LeaseTest;
use StoreCluster;

if (my $missing = StoreCluster::missing())
{
	plan skip_all => "$missing is not installed (test/deps.sh installs Patroni, etcd and pgbouncer)"
	  unless $ENV{UID_REQUIRE_ENGINES};
	BAIL_OUT("$missing is not installed");
}

# The store is Debian's PostgreSQL 15 whatever this run's version; the
# generators' side of it (the lease worker's libpq session) is one code path
# on every version.  The scenarios take two minutes, so they run with the
# oldest and the newest server only.
my ($major) = `postgres --version` =~ /(\d+)/;
plan skip_all => "the store failover scenarios run with PostgreSQL 15 and 19; this is $major"
  unless $major == 15 || $major == 19;

my $store = StoreCluster->new(PostgreSQL::Test::Utils::tempdir('store'));
my $frozen_worker;
END
{
	local $?;
	kill 'CONT', $frozen_worker if $frozen_worker;
	$store->stop if $store;
}
$store->add_member('s1');
is($store->wait_leader, 's1', 'the first Patroni member leads the store');
$store->add_member('s2');
$store->wait_streaming(1);
pass('the second member streams from it');

my $lease_conf = "uid.lease_ttl = '40s'\nuid.lease_renew_interval = '500ms'\n"
  . "uid.lease_safety_margin = '5s'\nuid.lease_max_clock_skew = '500ms'\n";

# a generator in lease mode whose store is reached with $conninfo
sub generator
{
	my ($name, $conninfo) = @_;
	my $g = lease_node($name, conf => $lease_conf . "uid.lease_conninfo = '$conninfo'\n");
	$g->start;
	$g->safe_psql('postgres', 'CREATE EXTENSION uid');
	$g->safe_psql('postgres', try_next_sql());
	load_setup($g);
	return $g;
}

sub status
{
	my ($g, $cols) = @_;
	return $g->safe_psql('postgres', "SELECT $cols FROM uid_lease_status()");
}

# Polls until each node has issued $n more IDs than it had when called.
sub wait_issued
{
	my ($n, @nodes) = @_;
	for my $g (@nodes)
	{
		my $from = issued_count($g);
		$g->poll_query_until('postgres', "SELECT count(*) >= $from + $n FROM ids")
		  or die $g->name . ' issues no more IDs: ' . status($g, '*');
	}
	return;
}

my $g1 = generator('g1', $store->conninfo);
my $g2 = generator('g2', $store->conninfo);
is((wait_held($g1))[0], 0, 'g1 leases worker id 0 from the store');
is((wait_held($g2))[0], 1, 'g2 leases worker id 1');
my $single = generator('single', 'host=127.0.0.1 port=' . $store->member_port('s1')
	  . ' dbname=postgres user=postgres connect_timeout=2');
is((wait_held($single))[0], 2, 'a generator whose connection string names only s1 leases worker id 2');

# --- A: natural failover, asynchronous
my @load = map { load_start($_, 2) } ($g1, $g2, $single);
wait_issued(2000, $g1, $g2, $single);
$store->kill_member('s1');
is($store->wait_leader('s1'), 's2', 'A: s1 dies, Patroni promotes s2');
my $promoted_at = $store->psql('s2', 'SELECT clock_timestamp()');
for my $g ($g1, $g2)
{
	$g->poll_query_until('postgres',
		"SELECT state = 'held' AND renewed_at > '$promoted_at' FROM uid_lease_status()")
	  or die $g->name . ' did not renew on the new leader: ' . status($g, '*');
}
wait_issued(2000, $g1, $g2);
is(status($g1, 'losses') + status($g2, 'losses'), 0,
	'A: both generators renew their leases on the new leader, none lost');
# the one-host generator cannot follow: it says so in its log, every time
ok($single->poll_query_until('postgres', 'SELECT consecutive_failures > 0 FROM uid_lease_status()'),
	'A: the generator that names only s1 cannot renew');
ok($single->log_contains('lease store operation failed'), 'A: and logs the failure');
$store->revive_member('s1');
$store->wait_streaming(1);
ok( $single->poll_query_until(
		'postgres', q{SELECT last_error LIKE '%read-only%' FROM uid_lease_status()}),
	'A: s1 is back as a standby: a read-only store, in the status');
ok($single->log_contains('target_session_attrs=read-write'),
	'A: the log line says how to follow the primary');
load_stop($_) for @load;
my ($secs) = refusal_seconds($g1);
is(duplicates_among($g1, $g2, $single), 0,
	'A: no ID issued twice across the failover (' . join(', ', map { issued_count($_) } ($g1, $g2, $single))
	  . " IDs; g1 refused for $secs s)");
my @single_ids = issued_ids($single);
$single->stop;

# --- B: natural failover, synchronous_mode
$store->patch_config('{"synchronous_mode": true}');
$store->wait_streaming(1, 1);
pass('B: s1 is the synchronous standby of s2');
@load = map { load_start($_, 2) } ($g1, $g2);
wait_issued(2000, $g1, $g2);
$store->kill_member('s2');
is($store->wait_leader('s2'), 's1', 'B: s2 dies, Patroni promotes its synchronous standby s1');
$promoted_at = $store->psql('s1', 'SELECT clock_timestamp()');
for my $g ($g1, $g2)
{
	$g->poll_query_until('postgres',
		"SELECT state = 'held' AND renewed_at > '$promoted_at' FROM uid_lease_status()")
	  or die $g->name . ' did not renew on the new leader: ' . status($g, '*');
}
wait_issued(2000, $g1, $g2);
load_stop($_) for @load;
is(status($g1, 'losses') + status($g2, 'losses'), 0, 'B: no lease lost');
is(duplicates_among($g1, $g2, \@single_ids), 0, 'B: no ID issued twice');
# the stopped one-host generator could not release worker id 2: free it, as
# its release would have, so that the next acquisitions on either member
# take it
$store->psql('s1', 'UPDATE uid_lease.lease SET released_at = clock_timestamp() WHERE worker_id = 2');

# --- C: an acquisition the failover loses
$store->patch_config('{"synchronous_mode": false}');
$store->revive_member('s2');
$store->poll(
	sub {
		my $l = $store->leader // return 0;
		$store->psql($l, q{SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'async'}) == 1;
	},
	's2 does not stream asynchronously');
$store->poll(sub { $store->psql('s2', 'SELECT released_at IS NOT NULL FROM uid_lease.lease WHERE worker_id = 2') eq 't' },
	's2 did not replay the release');
pass('C: s2 streams from s1 asynchronously, and has replayed every lease row');

# --- D: lease writes the worker cannot see confirmed are not used, and are
# used once they are confirmed
# (a) a store role that may not see the standbys' positions
$store->psql('s1', q{CREATE ROLE plain LOGIN;
	GRANT USAGE ON SCHEMA uid_lease TO plain;
	GRANT SELECT, INSERT, UPDATE ON uid_lease.lease TO plain});
my $plain = generator('plain', $store->conninfo(user => 'plain'));
$plain->poll_query_until('postgres', q{SELECT state = 'unconfirmed' FROM uid_lease_status()})
  or die 'the plain role\'s generator did not acquire: ' . status($plain, '*');
$store->poll(sub { $plain->log_contains('whose replay position the lease role may not see') },
	'no message about the standbys the role cannot see');
is($plain->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'D: a lease role without pg_monitor: the acquisition is not used, the log says why');
$store->psql('s1', 'GRANT pg_monitor TO plain');
my ($plain_id) = wait_held($plain);
is($plain->safe_psql('postgres', 'SELECT try_next()'), $plain_id,
	'D: granted pg_monitor, the next renewal is confirmed and IDs are issued');
$plain->stop;
# (b) an acquisition the standby has not got yet, used once it has
$store->poll(sub { $store->psql('s2', "SELECT released_at IS NOT NULL FROM uid_lease.lease WHERE worker_id = $plain_id") eq 't' },
	's2 did not replay the release');
$store->pause_walsenders('s1');
my $slow = generator('slow', $store->conninfo);
$slow->poll_query_until('postgres', q{SELECT state = 'unconfirmed' FROM uid_lease_status()})
  or die 'the generator did not acquire: ' . status($slow, '*');
is($slow->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'D: an acquisition the standby does not have yet is not used');
$store->resume_walsenders;
my ($slow_id) = wait_held($slow);
is($slow_id, $plain_id, 'D: once the standby has it, the same lease is used (no other id taken)');
is($slow->safe_psql('postgres', 'SELECT try_next()'), $slow_id, 'D: and issues with it');
$slow->stop;
$store->poll(sub { $store->psql('s2', "SELECT released_at IS NOT NULL FROM uid_lease.lease WHERE worker_id = $slow_id") eq 't' },
	's2 did not replay the release');
@load = map { load_start($_, 1) } ($g1, $g2);
my @paused = $store->pause_walsenders('s1');
my $lost = generator('lost', $store->conninfo);
$lost->poll_query_until('postgres', q{SELECT state IN ('held', 'unconfirmed') FROM uid_lease_status()})
  or die 'the generator did not acquire: ' . status($lost, '*');
my $lost_id = status($lost, 'worker_id');
is($lost_id, 2, 'C: a new generator acquires worker id 2 on s1, whose WAL senders are frozen');
is(status($lost, 'state'), 'unconfirmed',
	'C: it is not used: the standby has not confirmed the acquisition');
my @lost_load = (load_start($lost, 1));
$store->poll(sub { $lost->log_contains('have not confirmed the lease write') },
	'the generator did not log its unconfirmed acquisition');
pass('C: its log says the standbys have not confirmed the acquisition');
my $lost_worker = status($lost, 'worker_pid');
kill 'STOP', $lost_worker;
$frozen_worker = $lost_worker;
$store->kill_member('s1');
is($store->wait_leader('s1'), 's2', 'C: s1 dies before its standby got the acquisition; s2 leads');
is($store->psql('s2', "SELECT released_at IS NOT NULL FROM uid_lease.lease WHERE worker_id = $lost_id"),
	't', 'C: on the new leader worker id 2 is still released: the acquisition is lost');
my $late = generator('late', $store->conninfo);
is((wait_held($late))[0], $lost_id, 'C: a third generator leases worker id 2 on the new leader');
push @lost_load, load_start($late, 1);
wait_issued(1000, $late);
kill 'CONT', $lost_worker;
undef $frozen_worker;
$lost->poll_query_until('postgres', q{SELECT state = 'held' FROM uid_lease_status()})
  or die 'the first generator did not come back: ' . status($lost, '*');
isnt(status($lost, 'worker_id'), $lost_id,
	'C: the generator whose acquisition was lost takes another worker id');
wait_issued(1000, $lost, $late);
load_stop($_) for (@load, @lost_load);
my ($lost_secs, $lost_refusals) = refusal_seconds($lost);
is(duplicates_among($g1, $g2, \@single_ids, $lost, $late), 0,
	'C: no ID issued twice (' . join(', ', map { issued_count($_) } ($lost, $late))
	  . " IDs by the two generators of worker id 2; the first refused for $lost_secs s)");

$_->stop for ($g1, $g2, $lost, $late);
done_testing();
