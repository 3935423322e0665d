# Leases in a coordination database shared by several servers
# (uid.lease_conninfo): one coordination node, three generating nodes.
#  - concurrent generation on all three: zero duplicates, three worker ids;
#  - clean shutdown releases the id in the shared store at once;
#  - coordination node stopped: generation continues until the safety
#    margin, then uid_next() fails with UID02; restarted: it resumes;
#  - kill -9 of a generating node: its id is not handed out before the
#    lease expires, and the next holder starts after its last issued ms.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';

sub gen_node
{
	my ($name, $extra) = @_;
	my $node = lease_node($name, conf => "uid.lease_conninfo = '$conninfo'\n" . ($extra // ''));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	$node->safe_psql('postgres', try_next_sql());
	$node->safe_psql('postgres', 'CREATE TABLE ids (id bigint)');
	return $node;
}

# started one after the other, so that they hold ids 0, 1, 2.  gen1 has a
# lease of 15 s: it goes on issuing while the store is down for 13 s (the
# TTL less the safety margin), long enough to notice the failures and draw
# an ID on a loaded machine (with the 5 s of lease_node, 3 s were not).
my $scale = $ENV{UID_LEASE_TEST_SCALE} // 1;
my @gen;
for my $i (1 .. 3)
{
	my $node = gen_node("gen$i", $i == 1 ? "uid.lease_ttl = '@{[15 * $scale]}s'\n" : undef);
	my ($w, $t) = wait_held($node);
	is($w, $i - 1, "gen$i leases worker id " . ($i - 1));
	push @gen, $node;
}
is( $coord->safe_psql(
		'postgres', 'SELECT string_agg(worker_id || \':\' || port, \',\' ORDER BY worker_id) FROM uid_lease.lease'),
	join(',', map { ($_ - 1) . ':' . $gen[ $_ - 1 ]->port } 1 .. 3),
	'the coordination database has one row per holder, naming its port');
is( $coord->safe_psql(
		'postgres', q{
SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
   AND classid = hashtext('uid_lease')::oid AND objid IN (0, 1, 2) AND objsubid = 2}),
	'3', 'each holder keeps an advisory lock on its id in the coordination database');

# --- concurrent generation on the three nodes
my $per_round = 20000;
my $rounds = 5;
my @h;
for my $node (@gen)
{
	my $sql = join('', map { "INSERT INTO ids SELECT uid_next() FROM generate_series(1, $per_round);\n" } 1 .. $rounds);
	my ($out, $err) = ('', '');
	push @h, IPC::Run::start(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres') ],
		'<', \$sql, '>', \$out, '2>', \$err);
}
for my $h (@h)
{
	ok($h->finish, 'concurrent generation finished without error');
}
$coord->safe_psql('postgres', 'CREATE TABLE all_ids (id bigint PRIMARY KEY, node int NOT NULL)');
for my $i (0 .. 2)
{
	my $list = $gen[$i]->safe_psql('postgres', q{SELECT string_agg(id::text, ',') FROM ids});
	$coord->safe_psql('postgres',
		"INSERT INTO all_ids SELECT x, $i FROM unnest('{$list}'::bigint[]) x ON CONFLICT DO NOTHING");
}
my $total = 3 * $per_round * $rounds;
is($coord->safe_psql('postgres', 'SELECT count(*) FROM all_ids'),
	$total, "all $total IDs of the three nodes are distinct (no duplicate)");
is( $coord->safe_psql(
		'postgres', 'SELECT count(DISTINCT (id >> 12) & 1023) || \'/\' || count(DISTINCT (node, (id >> 12) & 1023)) FROM all_ids'),
	'3/3', 'three distinct worker ids, one per node');

# --- clean shutdown frees the id in the shared store at once
$gen[2]->stop;
is( $coord->safe_psql(
		'postgres', 'SELECT released_at IS NOT NULL FROM uid_lease.lease WHERE worker_id = 2'),
	't', 'a cleanly stopped node has released its id');
is( $coord->safe_psql(
		'postgres', q{
SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
   AND classid = hashtext('uid_lease')::oid AND objid = 2 AND objsubid = 2}),
	'0', 'and no longer holds its advisory lock');
# pretend the released holder's clock ran 2 s ahead: its successor waits
my $floor2 = $coord->safe_psql('postgres', q{
UPDATE uid_lease.lease SET last_issued_ms = floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 2000
WHERE worker_id = 2 RETURNING last_issued_ms});
$gen[2]->start;
# Once the worker has taken the lease (its state leaves "starting"), it
# waits to pass the previous holder's time: the first uid_next() waits with
# it.  Waiting for the state first keeps the worker's start (a connection
# to the store, slow on a loaded machine) out of uid_next()'s 5 s.
$gen[2]->poll_query_until('postgres',
	q{SELECT state IN ('waiting', 'held') FROM uid_lease_status()})
  or die 'gen3 did not take a lease';
my $first3 = $gen[2]->safe_psql('postgres', 'SELECT uid_next()');
is(($first3 >> 12) & 1023, 2, 'restarted: the first uid_next() waits for the lease; it takes the released id 2 again');
ok(($first3 >> 22) + uid_epoch_ms > $floor2, 'and issues after the previous holder\'s last issued ms');
is((wait_held($gen[2]))[0], 2, 'status: held');

# --- coordination node down: generation continues until the margin, then stops
my $g = $gen[0];
my $token_before = $g->safe_psql('postgres', 'SELECT token FROM uid_lease_status()');
$coord->stop;
$g->poll_query_until('postgres', q{SELECT consecutive_failures > 0 FROM uid_lease_status()})
  or die 'renewal failures not noticed';
is($g->safe_psql('postgres', 'SELECT try_next()'), '0',
	'store down: uid_next() still works before the safety margin');
is($g->safe_psql('postgres', q{SELECT state FROM uid_lease_status()}),
	'renewal_failing', 'status: renewal_failing');
$g->poll_query_until('postgres', q{SELECT try_next() = 'UID02'})
  or die 'generation did not stop';
my $stopped_at = $g->safe_psql('postgres', 'SELECT clock_timestamp()');
my ($state, $err) = ('', '');
$g->psql('postgres', 'SELECT uid_next()', stderr => \$err);
like($err, qr/uid_next\(\) has no worker id.*could not be renewed/s,
	'the error says the lease could not be renewed');
like($err, qr/HINT:.*uid_lease_status/s, 'with a hint');
is($g->safe_psql('postgres', q{SELECT state FROM uid_lease_status()}),
	'expired', 'status: expired');
$coord->start;
is( $coord->safe_psql(
		'postgres', "SELECT expires_at > '$stopped_at' FROM uid_lease.lease WHERE worker_id = 0"),
	't', 'generation stopped before the lease expired in the store');
$g->poll_query_until('postgres', q{SELECT try_next() = '0'})
  or die 'generation did not resume';
is($g->safe_psql('postgres', 'SELECT token FROM uid_lease_status()'),
	$token_before, 'store back: the same lease is renewed and generation resumes');
# the other nodes resume as well
for my $i (1, 2)
{
	$gen[$i]->poll_query_until('postgres', qq{SELECT try_next() = '$i'})
	  or die "gen$i did not resume";
}

# --- kill -9 of gen2: id 1 is not handed out before its lease expires
my $last2 = $gen[1]->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(1000) x');
# a renewal records the last issued ms in the store
$coord->poll_query_until('postgres',
	"SELECT last_issued_ms >= ($last2 >> 22) + @{[uid_epoch_ms]} FROM uid_lease.lease WHERE worker_id = 1")
  or die 'last issued ms not recorded';
# gen4 (pool of 2) starts while gen2 runs, so that it sees the pool
# exhausted however long its start takes
my $gen4 = gen_node('gen4', "uid.lease_pool_size = 2\n");
$gen4->poll_query_until('postgres', q{SELECT state = 'no_free_id' FROM uid_lease_status()})
  or die 'gen4 did not report an exhausted pool';
$gen[1]->kill9;
# the store session of the crashed node ends with it (its last renewal is in)
$coord->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_locks WHERE locktype = 'advisory' AND objid = 1 AND objsubid = 2})
  or die 'the crashed node\'s store session did not end';
my ($old_token, $old_expires) = split /\|/,
  $coord->safe_psql('postgres', q{SELECT token || '|' || expires_at FROM uid_lease.lease WHERE worker_id = 1});
is($gen4->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'gen4 (pool of 2) gets no id while the crashed node\'s lease is live');
$gen4->psql('postgres', 'SELECT uid_next()', stderr => \$err);
like($err, qr/All 2 worker ids of the lease pool are leased/, 'the error names the exhausted pool');
my ($w4, $t4) = wait_held($gen4);
is($w4, 1, 'gen4 takes id 1 after the expiry');
isnt($t4, $old_token, 'with a new fencing token');
is( $coord->safe_psql(
		'postgres', "SELECT acquired_at >= '$old_expires' FROM uid_lease.lease WHERE worker_id = 1"),
	't', 'not before the crashed holder\'s lease expired (store clock)');
# before gen4 issues anything, the row still carries gen2's last issued ms
# (gen4's renewals write its own, which starts at that floor)
my $prev_last = $coord->safe_psql('postgres', 'SELECT last_issued_ms FROM uid_lease.lease WHERE worker_id = 1');
ok($prev_last >= ($last2 >> 22) + uid_epoch_ms,
	'the store kept the crashed holder\'s last issued ms');
my $first4 = $gen4->safe_psql('postgres', 'SELECT uid_next()');
ok($first4 > $last2, 'the new holder\'s IDs are above the crashed holder\'s last ID');
ok(($first4 >> 22) + uid_epoch_ms > $prev_last,
	'and after the last issued ms recorded in the store');

# --- a stolen lease in the shared store: gen1 stops using id 0 within one
# renewal, lets go of its advisory lock, and takes the lowest free id (3)
$coord->safe_psql('postgres', 'UPDATE uid_lease.lease SET token = token + 1 WHERE worker_id = 0');
$gen[0]->poll_query_until('postgres', q{SELECT losses = 1 FROM uid_lease_status()})
  or die 'gen1 did not notice the stolen lease';
my ($w1) = wait_held($gen[0]);
is($w1, 3, 'gen1 lost id 0 and took id 3');
is($gen[0]->safe_psql('postgres', 'SELECT try_next()'), '3', 'gen1 issues with id 3');
is( $coord->safe_psql(
		'postgres', q{
SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
   AND classid = hashtext('uid_lease')::oid AND objid = 0 AND objsubid = 2}),
	'0', 'nobody holds the advisory lock on the stolen id 0 any more');

$_->stop for ($gen4, $gen[0], $gen[2]);
$coord->stop;
done_testing();
