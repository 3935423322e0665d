# A worker id taken over after its lease expired, by a server whose clock
# then steps back.  The expired holder issued until its deadline, after the
# last issued time its last renewal wrote; the new holder's floor must cover
# that (the row's expiry plus uid.lease_max_clock_skew), so that a clock
# step back right after the takeover is refused (UID01) instead of issuing
# those milliseconds again.  Found by the model of the lease protocol
# (test/model/check.sh, the runs with a clock step back).
#
# The expired holder: its lease worker frozen (SIGSTOP) and its store
# session terminated (a partition), its backends issuing under load until
# the deadline.  The new holder: a pool of one
# worker id, under libfaketime, its clock stepped 3 s back once it holds
# the id.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LeaseTest;
use UidTap qw(faketime_start set_clock);

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';
my $conf = "uid.lease_conninfo = '$conninfo'\nuid.lease_pool_size = 1\n";

my $old = lease_node('expired_holder', conf => $conf);
$old->start;
$old->safe_psql('postgres', 'CREATE EXTENSION uid');
$old->safe_psql('postgres', try_next_sql());
load_setup($old);
is((wait_held($old))[0], 0, 'the first server holds worker id 0');

my $clock = PostgreSQL::Test::Utils::tempdir() . '/new_holder.clock';
my $new = lease_node('new_holder', conf => $conf);
faketime_start($new, $clock);
$new->safe_psql('postgres', 'CREATE EXTENSION uid');
$new->safe_psql('postgres', try_next_sql());
load_setup($new);
$new->poll_query_until('postgres', q{SELECT state = 'no_free_id' FROM uid_lease_status()})
  or die 'the second server does not wait for the id';
pass('the second server (pool of one) waits for worker id 0');

# the first server issues under load; its lease worker freezes, so the row
# is renewed no more and its last issued time stays where it was
my $load_old = load_start($old, 2);
$old->poll_query_until('postgres', 'SELECT count(*) >= 2000 FROM ids') or die 'no load';
my $worker = $old->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
kill 'STOP', $worker;
END { kill 'CONT', $worker if $worker; }
# its store session ends too (as in a network partition): the advisory lock
# that showed it alive is gone, and the row will expire
$coord->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_locks
	WHERE locktype = 'advisory' AND objid = 0 AND objsubid = 2});
$old->poll_query_until('postgres', q{SELECT count(*) > 0 FROM refusals WHERE state = 'UID02'})
  or die 'the frozen holder did not stop at its deadline';
pass('the frozen holder issued until its deadline, then stopped');
load_stop($load_old);

# the second server takes the expired row, then its clock steps 3 s back
my ($w) = wait_held($new);
is($w, 0, 'after the expiry the second server takes worker id 0');
set_clock($clock, '-3');
my $load_new = load_start($new, 2);
$new->poll_query_until('postgres', 'SELECT count(*) >= 500 FROM ids')
  or die 'the second server issues nothing: ' . $new->safe_psql('postgres', 'SELECT * FROM uid_lease_status()');
load_stop($load_new);
my ($old_max) = $old->safe_psql('postgres', 'SELECT max(id) FROM ids');
my ($new_min) = $new->safe_psql('postgres', 'SELECT min(id) FROM ids');
is(duplicates_among($old, $new), 0,
	'no ID issued twice (' . issued_count($old) . ' and ' . issued_count($new) . ' IDs)');
cmp_ok($new_min, '>', $old_max, 'every ID of the new holder is above every ID of the expired one');
ok($new->safe_psql('postgres', q{SELECT count(*) > 0 FROM refusals WHERE state = 'UID01'}),
	'until its clock passed the floor, the new holder refused (UID01)');

kill 'CONT', $worker;
undef $worker;
$_->stop for ($new, $old);
done_testing();
