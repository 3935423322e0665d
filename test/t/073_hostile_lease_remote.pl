# Ordinary roles against the lease worker with a remote store
# (uid.lease_conninfo): the roles of the coordination server, with default
# CONNECT and, as on clusters upgraded from 14 or older, CREATE on schema
# public; and an ordinary role of a generating server reading the lease
# status.  Each attack must leave the role without superuser, generation
# running, and the store's host and paths unseen.
#  1. operators planted in public of the coordination database, while the
#     worker connects as a superuser there;
#  2. a lease schema and table planted in advance (CREATE on the database);
#  3. advisory keys held by an ordinary role while the worker's store
#     session is lost and comes back;
#  4. last_error and the UID02 detail name the store's socket path: only
#     superusers and pg_monitor members may read them.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;
use UidTap qw(sqlstate_of);

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
$coord->safe_psql('postgres', 'CREATE ROLE uid_lease LOGIN');
$coord->safe_psql('postgres', 'CREATE DATABASE coord OWNER uid_lease');
my $store = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=coord';


sub coord_count
{
	my ($sql) = @_;
	return $coord->safe_psql('coord', $sql);
}

# --- 1. operators planted in public of the coordination database
hostile_role($coord, 'planter', 'coord');
plant_operators($coord, 'planter', 'coord');
my $gen1 = started_lease_node('gen1', "uid.lease_conninfo = '$store'\n");
my ($w1) = wait_held($gen1);
my $r = $gen1->safe_psql('postgres', 'SELECT renewals FROM uid_lease_status()');
ok(poll_within($gen1, 60, "SELECT renewals >= $r + 5 FROM uid_lease_status()"),
	'five renewals in a store with operators planted in public');
is(is_superuser($coord, 'planter'), 'f',
	'the lease worker, a superuser in the store, never ran a planted operator');
is(coord_count('SELECT count(*) FROM public.planted_calls'), '0', 'no planted operator was called');
is($gen1->safe_psql('postgres', 'SELECT try_next()'), $w1, 'generation continues');
$gen1->stop;

# --- 2. a lease schema and table planted in advance
hostile_role($coord, 'squatter', 'coord');
$coord->safe_psql('coord', 'GRANT CREATE ON DATABASE coord TO squatter');
plant_lease_table($coord, 'squatter', 'coord', 'fleet');
my $gen2 = started_lease_node('gen2', "uid.lease_conninfo = '$store'\nuid.lease_schema = 'fleet'\n");
ok( poll_within(
		$gen2, 60,
		q{SELECT state = 'store_error' AND last_error LIKE 'refusing the lease schema fleet: it is owned by role "squatter"%' FROM uid_lease_status()}
	),
	'the planted schema in the store is refused');
is(is_superuser($coord, 'squatter'), 'f', 'the planted trigger never ran as the lease worker');
is($gen2->safe_psql('postgres', 'SELECT try_next()'), 'UID02', 'no lease: UID02');
$coord->safe_psql('coord', 'DROP SCHEMA fleet CASCADE');
my ($w2) = wait_held($gen2);
my $su = $coord->safe_psql('postgres', 'SELECT current_user');
is( $coord->safe_psql(
		'coord', q{
SELECT pg_get_userbyid(n.nspowner) || '/' || pg_get_userbyid(c.relowner)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'fleet' AND c.relname = 'lease'}),
	"$su/$su",
	'then the worker creates schema and table, owned by its role in the store');
is($gen2->safe_psql('postgres', 'SELECT try_next()'), $w2, 'and generates');
$gen2->stop;

# --- 3. advisory keys held by an ordinary role; the store session is lost
# The worker connects as the dedicated role uid_lease (owner of the database).
my $gen3 = started_lease_node('gen3',
	"uid.lease_conninfo = '$store user=uid_lease'\nuid.lease_schema = 'pool3'\n");
my ($w3) = wait_held($gen3);
$coord->safe_psql('postgres', 'CREATE ROLE key_holder LOGIN');
my $keys = $coord->background_psql('coord', extra_params => [ '-U', 'key_holder' ]);
$keys->query_safe(q{SELECT pg_advisory_lock(hashtext('pool3'), 1024)});
is( $keys->query_safe(
		q{SELECT count(*) FROM generate_series(0, 1023) i WHERE pg_try_advisory_lock(hashtext('pool3'), i)}),
	1023, 'an ordinary role of the store holds every key but the held id\'s');
# the worker's session ends, and cannot come back until the ordinary role
# has taken that key too
$coord->safe_psql('postgres', 'ALTER ROLE uid_lease NOLOGIN');
$coord->safe_psql('postgres',
	q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'uid_lease'});
my $got = 'f';
for (my $i = 0; $i < 10 * $PostgreSQL::Test::Utils::timeout_default && $got ne 't'; $i++)
{
	$got = $keys->query_safe("SELECT pg_try_advisory_lock(hashtext('pool3'), $w3)");
	usleep(100_000) if $got ne 't';
}
is($got, 't', 'with the session gone, the ordinary role takes the held id\'s key');
ok(poll_within($gen3, 60, 'SELECT consecutive_failures > 0 FROM uid_lease_status()'),
	'the worker has found its session gone');
$coord->safe_psql('postgres', 'ALTER ROLE uid_lease LOGIN');
ok( poll_within(
		$gen3, 60,
		"SELECT state = 'held' AND consecutive_failures = 0 AND worker_id = $w3 FROM uid_lease_status()"),
	'the lease is renewed by its token again: the ordinary role\'s keys hold nothing up');
ok($gen3->log_contains("another session holds the advisory lock on worker id $w3"),
	'the missing advisory lock is logged');
is($gen3->safe_psql('postgres', 'SELECT try_next()'), $w3, 'generation continues');
# an acquisition with every key held
is($gen3->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'released');
is($gen3->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't',
	'a lease is acquired although an ordinary role holds every key');
is($gen3->safe_psql('postgres', 'SELECT try_next()'), $w3, 'the same, lowest free id');
$keys->quit;
$gen3->stop;

# --- 4. the store's socket path in last_error and in the UID02 detail
my $secret = "/tmp/uid-secret-socket-dir-$$";
my $gen4 = started_lease_node('gen4', "uid.lease_conninfo = 'host=$secret port=5 dbname=coord'\n");
$gen4->safe_psql('postgres', 'CREATE ROLE snoop LOGIN; CREATE ROLE monitor LOGIN IN ROLE pg_monitor');
ok(poll_within($gen4, 60, "SELECT last_error LIKE '%uid-secret-socket-dir%' FROM uid_lease_status()"),
	'a superuser reads the whole error, socket path included');
my $as_snoop = $gen4->safe_psql('postgres', 'SELECT state, last_error FROM uid_lease_status()',
	extra_params => [ '-U', 'snoop' ]);
unlike($as_snoop, qr/uid-secret-socket-dir/, 'an ordinary role does not see the socket path in last_error');
like($as_snoop, qr/could not connect to the lease store/, 'it sees what kind of failure it is');
my ($state, $err) = sqlstate_of($gen4, "SET ROLE snoop;\nSELECT uid_next();");
is($state, 'UID02', 'uid_next() fails with UID02');
unlike($err, qr/uid-secret-socket-dir/, 'the UID02 detail does not show the socket path to it');
like(
	$gen4->safe_psql(
		'postgres', 'SELECT last_error FROM uid_lease_status()',
		extra_params => [ '-U', 'monitor' ]),
	qr/uid-secret-socket-dir/,
	'a member of pg_monitor reads the whole error');
$gen4->stop;

$coord->stop;
done_testing();
