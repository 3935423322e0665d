# Ordinary roles against the lease worker with the default store: the lease
# table in the database "postgres" of the same server, where the worker runs
# as the bootstrap superuser.  Each attacker is a plain login role with what
# PostgreSQL gives by default (CONNECT on every database), in a cluster where
# CREATE on schema public is granted to PUBLIC (as on clusters upgraded from
# 14 or older); the one that plants a lease table also has CREATE on the
# database.  Each attack must leave the role without superuser and ID
# generation running.
#  1. operators of the exact signatures the worker's SQL used to leave to
#     resolution, planted in public (it was superuser after one renewal);
#  2. advisory keys held by an ordinary role: the old acquisition key and
#     every id's key (one transient store failure then stopped generation);
#  3. a lease schema and table planted in advance, with a trigger (it was
#     superuser at the first acquisition).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $node = started_lease_node('hostile_local');
my ($w) = wait_held($node);

sub renewals { return $node->safe_psql('postgres', 'SELECT renewals FROM uid_lease_status()'); }

# --- 1. operators planted in public
hostile_role($node, 'planter');
plant_operators($node, 'planter');
my $r = renewals();
ok(poll_within($node, 60, "SELECT renewals >= $r + 5 FROM uid_lease_status()"),
	'five renewals after the operators were planted');
is($node->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'released');
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't',
	'and acquired again after the operators were planted');
is(is_superuser($node, 'planter'), 'f',
	'operators planted in public never run as the lease worker: the role is no superuser');
is($node->safe_psql('postgres', 'SELECT count(*) FROM public.planted_calls'),
	'0', 'none of the planted operators was ever called');
is($node->safe_psql('postgres', 'SELECT try_next()'), $w, 'generation continues');

# --- 2. advisory keys held by an ordinary role (default CONNECT)
$node->safe_psql('postgres', 'CREATE ROLE key_holder LOGIN');
my $keys = $node->background_psql('postgres', extra_params => [ '-U', 'key_holder' ]);
$keys->query_safe(q{SELECT pg_advisory_lock(hashtext('uid_lease'), 1024)});
my $held_keys = $keys->query_safe(
	q{SELECT count(*) FROM generate_series(0, 1023) i WHERE pg_try_advisory_lock(hashtext('uid_lease'), i)});
is($held_keys, 1023, 'the ordinary role holds every key but the held id\'s');

# a transient store failure: a superuser locks the lease table until a
# renewal has failed on it
my $lock = $node->background_psql('postgres');
$lock->query_safe('BEGIN; LOCK TABLE uid_lease.lease IN ACCESS EXCLUSIVE MODE');
ok(poll_within($node, 60, 'SELECT consecutive_failures > 0 FROM uid_lease_status()'),
	'a renewal failed while the lease table was locked');
$lock->query_safe('COMMIT');
$lock->quit;
$r = renewals();
ok( poll_within(
		$node, 60,
		"SELECT state = 'held' AND consecutive_failures = 0 AND renewals > $r FROM uid_lease_status()"),
	'after the failure the lease is renewed again: the ordinary role\'s keys hold nothing up');
is($node->safe_psql('postgres', 'SELECT try_next()'), $w,
	'generation continues with the same worker id');

# acquisition while the ordinary role holds every key: its locks are ignored
is($node->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'released');
is($keys->query_safe("SELECT pg_try_advisory_lock(hashtext('uid_lease'), $w)"),
	't', 'the ordinary role takes the released id\'s key too');
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't',
	'a lease is acquired although an ordinary role holds every advisory key');
is($node->safe_psql('postgres', 'SELECT try_next()'), $w,
	'the lowest free id: an ordinary role\'s lock on its key does not count as a holder');
$keys->quit;

# --- 3. a lease schema and table planted in advance
# The administrator is about to move the leases to schema "fleet"; a role
# with CREATE on the database gets there first.
hostile_role($node, 'squatter');
$node->safe_psql('postgres', 'GRANT CREATE ON DATABASE postgres TO squatter');
plant_lease_table($node, 'squatter', 'postgres', 'fleet');
$node->append_conf('postgresql.conf', "uid.lease_schema = 'fleet'\n");
$node->restart;
ok( poll_within(
		$node, 60,
		q{SELECT state = 'store_error' AND last_error LIKE 'refusing the lease schema fleet: it is owned by role "squatter"%' FROM uid_lease_status()}
	),
	'the planted schema is refused (state store_error, last_error says why)');
is(is_superuser($node, 'squatter'), 'f', 'the planted trigger never ran as the lease worker');
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02', 'no lease: uid_next() fails with UID02');
ok($node->log_contains('refusing the lease schema fleet: it is owned by role "squatter"'),
	'the refusal is logged');

# the administrator removes it: the worker creates its own, owned by itself
$node->safe_psql('postgres', 'DROP SCHEMA fleet CASCADE');
($w) = wait_held($node);
is( $node->safe_psql(
		'postgres', q{
SELECT n.nspowner = 10 AND c.relowner = 10
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'fleet' AND c.relname = 'lease'}),
	't', 'the lease worker created schema and table owned by the bootstrap superuser');
is($node->safe_psql('postgres', 'SELECT try_next()'), $w, 'and generates');
is(is_superuser($node, 'squatter'), 'f', 'the role is still no superuser');

$node->stop;
done_testing();
