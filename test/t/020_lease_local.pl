# Leases with the default store: the lease table in the "postgres" database
# of the same server, reached in-process.  Covers acquisition, the advisory
# lock, release and the previous holder's floor, clean restart, kill -9 (the
# id is not reused before its expiry), pool exhaustion, a stolen token, a
# row naming another holder, random tokens, a frozen worker, the margin.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $node = lease_node('lease_local');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
$node->safe_psql('postgres', try_next_sql());

# --- acquisition with zero set-up
# Fencing tokens are random: each acquisition's differs from every earlier
# one and from each earlier one + 1 (what counting up would give), and is
# beyond 2^32 (a random 63-bit number is below it once in 2^31 draws).
my %tokens;
sub new_token
{
	my ($t, $what) = @_;
	ok( $t =~ /^[1-9][0-9]*$/
		  && length($t) <= 19
		  && $t > 4294967296
		  && !$tokens{$t}
		  && !$tokens{ $t - 1 },
		"$what: a new random fencing token");
	$tokens{$t} = 1;
	return;
}
my ($w, $t) = wait_held($node);
is($w, 0, 'the lowest free worker id is taken');
new_token($t, 'first acquisition');
is($node->safe_psql('postgres', 'SELECT try_next()'), '0',
	'uid_next() carries the leased worker id');
is( $node->safe_psql(
		'postgres', qq{
SELECT l.token = $t AND l.released_at IS NULL AND l.expires_at > pg_catalog.clock_timestamp()
   AND l.system_identifier = (SELECT system_identifier FROM pg_control_system())
   AND l.timeline = 1 AND l.port = current_setting('port')::int AND l.pid = $node->{_pid}
FROM uid_lease.lease l WHERE l.worker_id = 0}),
	't', 'the lease row names this server, its token and a live expiry');
is( $node->safe_psql(
		'postgres', q{
SELECT count(*) FROM pg_locks k, uid_lease_status() s
WHERE k.locktype = 'advisory' AND k.pid = s.worker_pid AND k.granted
  AND k.classid = hashtext('uid_lease')::oid AND k.objid = 0 AND k.objsubid = 2
  AND k.mode = 'ExclusiveLock'}),
	'1', 'the lease worker holds a session advisory lock on its id (pg_locks)');

# --- release, and the next holder starts after the previous holder's last ms
my $last_id = $node->safe_psql('postgres', 'SELECT uid_next()');
is($node->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'uid_lease_release()');
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'released: uid_next() fails with UID02');
is( $node->safe_psql(
		'postgres', qq{
SELECT released_at IS NOT NULL AND last_issued_ms >= (uid_decode($last_id)).ms_since_epoch + @{[uid_epoch_ms]}
FROM uid_lease.lease WHERE worker_id = 0}),
	't', 'the released row records a bound of the last issued ms');
# pretend the previous holder's clock ran 2 s ahead of ours
my $floor = $node->safe_psql('postgres', q{
UPDATE uid_lease.lease SET last_issued_ms = floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 2000
WHERE worker_id = 0 RETURNING last_issued_ms});
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't', 'uid_lease_acquire()');
($w, $t) = split /\|/, $node->safe_psql('postgres', 'SELECT worker_id, token FROM uid_lease_status()');
is($w, 0, 'the released id is taken again');
new_token($t, 'the released id taken again');
my $t_before_restart = $t;
is( $node->safe_psql(
		'postgres', "SELECT (uid_decode(uid_next())).ms_since_epoch + @{[uid_epoch_ms]} > $floor"),
	't', 'the new holder issues after the previous holder\'s last issued ms');

# --- clean shutdown frees the id at once: a restart takes id 0 again
$last_id = $node->safe_psql('postgres', 'SELECT uid_next()');
$node->restart;
($w, $t) = wait_held($node);
is($w, 0, 'after a clean restart: id 0 again (it was released)');
new_token($t, 'after a clean restart');
ok($node->safe_psql('postgres', 'SELECT uid_next()') > $last_id, 'IDs keep increasing');
ok($node->log_contains("uid: released worker id 0 \\(fencing token $t_before_restart\\)"),
	'the shutdown released the lease');

# --- the lease worker terminated on its own: it releases, and comes back
my $pid = $node->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
$node->poll_query_until('postgres',
	"SELECT state = 'held' AND worker_pid <> $pid AND token <> $t FROM uid_lease_status()")
  or die 'lease worker did not come back';
is($node->safe_psql('postgres', 'SELECT try_next()'), '0',
	'a terminated lease worker releases; its successor takes id 0 again');
$t = $node->safe_psql('postgres', 'SELECT token FROM uid_lease_status()');
new_token($t, 'the successor of a terminated worker');

# --- kill -9: the id stays leased until it expires, and a pool of one is exhausted
$node->append_conf('postgresql.conf', "uid.lease_pool_size = 1\n");
$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
$node->poll_query_until('postgres', q{SELECT renewals > 0 AND free_ids = 0 FROM uid_lease_status()})
  or die 'pool size not applied';
$last_id = $node->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(1000) x');
kill9_and_start($node);
my $old = $node->safe_psql('postgres',
	'SELECT token || \'|\' || expires_at FROM uid_lease.lease WHERE worker_id = 0');
my ($old_token, $old_expires) = split /\|/, $old;
is($old_token, $t, 'the crashed run\'s lease is still in the table');
$node->poll_query_until('postgres', q{SELECT state = 'no_free_id' FROM uid_lease_status()})
  or die 'no "no_free_id" state';
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'no free id: uid_next() fails with UID02');
($w, $t) = wait_held($node);
is($w, 0, 'the crashed run\'s id is taken once it has expired');
new_token($t, 'after the expiry');
is( $node->safe_psql(
		'postgres',
		"SELECT acquired_at >= '$old_expires' FROM uid_lease.lease WHERE worker_id = 0"),
	't', 'not before the old lease\'s expiry (store clock)');
ok($node->safe_psql('postgres', 'SELECT uid_next()') > $last_id,
	'IDs after the crash are above the last one before it');

# --- a stolen lease (token bumped in the store) stops the holder
$node->safe_psql('postgres', 'UPDATE uid_lease.lease SET token = token + 1 WHERE worker_id = 0');
$node->poll_query_until('postgres', q{SELECT losses = 1 FROM uid_lease_status()})
  or die 'stolen lease not noticed';
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'after the theft uid_next() fails with UID02 (pool of one, id 0 leased by the thief)');
ok($node->log_contains('uid: lost the lease on worker id 0'), 'the loss is logged');
($w, $t) = wait_held($node);
is($w, 0, 'once the stolen lease expires, id 0 is taken again');
new_token($t, 'after the stolen lease expired');

# --- a row with our token that names another holder is a lost lease too:
# the same token drawn by another server (a store that lost its latest
# commit) must not let two servers renew one row
$node->safe_psql('postgres', 'UPDATE uid_lease.lease SET pid = pid + 1 WHERE worker_id = 0');
$node->poll_query_until('postgres', q{SELECT losses = 2 FROM uid_lease_status()})
  or die 'a row naming another holder was renewed';
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'a row with our token but another holder: uid_next() stops at once');
($w, $t) = wait_held($node);
is($w, 0, 'once that row expires, id 0 is taken again');
new_token($t, 'after the row naming another holder expired');

# --- an id whose advisory lock another session holds is skipped, even if
# its row is free (its holder may still be connected)
$node->append_conf('postgresql.conf', "uid.lease_pool_size = 2\n");
$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
$node->poll_query_until('postgres', q{SELECT renewals > 0 AND free_ids = 1 FROM uid_lease_status()})
  or die 'pool size 2 not applied';
is($node->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'released id 0');
my $bg = $node->background_psql('postgres');
$bg->query_safe(q{SELECT pg_advisory_lock(hashtext('uid_lease'), 0)});
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't', 'acquired again');
is($node->safe_psql('postgres', 'SELECT try_next()'), '1',
	'id 0 is skipped while another session holds its advisory lock: id 1 is taken');
$bg->quit;

# --- a lease worker frozen (SIGSTOP) past its deadline: uid_next() stops
# by itself, and UID02 says the lease was not renewed in time (the state
# still reads "held": nobody has told the status otherwise)
my $wpid = $node->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
kill 'STOP', $wpid;
ok($node->poll_query_until('postgres', q{SELECT try_next() = 'UID02'}),
	'a frozen lease worker: generation stops at the deadline');
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT uid_next()');
like($err, qr/the lease on worker id 1 was not renewed in time/, 'UID02 says the lease was not renewed in time');
unlike($err, qr/no lease is held/, 'not that no lease is held');
like($err, qr/has not renewed it since/, 'the detail says since when');
kill 'CONT', $wpid;
ok($node->poll_query_until('postgres', q{SELECT try_next() = '1'}), 'the worker thawed renews, and IDs resume');
is($node->safe_psql('postgres', 'SELECT last_error IS NULL FROM uid_lease_status()'), 't',
	'a successful renewal leaves no last error behind');

# --- a margin of exactly twice the clock skew is not enough (the two
# clocks may differ by the skew in either direction): warned, with numbers
$node->append_conf('postgresql.conf',
	"uid.lease_safety_margin = '1000ms'\nuid.lease_max_clock_skew = '500ms'\n");
$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
my $found = 0;
for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
{
	$found = $node->log_contains(
		'uid.lease_safety_margin \(1000 ms\) is not more than twice uid.lease_max_clock_skew \(500 ms\)');
	last if $found;
	usleep(100_000);
}
ok($found, 'margin = 2 x skew: the warning names both values');

$node->stop;
done_testing();
