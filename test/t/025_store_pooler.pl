# A lease store reached through pgbouncer (Debian's package).
#   Transaction pooling: advisory locks belong to a server session that the
#   pooler shares, so they prove nothing.  Two generators sharing the
#   pool's one server session both refuse the store (store_pooled), and
#   neither issues; a lone generator whose server session is terminated
#   (pg_terminate_backend: the pooler serves the next transaction from a
#   new session, without the lock) refuses at its next renewal.  Nothing
#   the lease worker sets stays behind for other clients of the pool.
#   Session pooling: one server session per client for its whole life, as a
#   direct connection: leases work.
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

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'\n");
$coord->start;
my $dir = PostgreSQL::Test::Utils::tempdir('pgbouncer');

sub generator
{
	my ($name, $port, $conf) = @_;
	return started_lease_node($name,
		"uid.lease_conninfo = 'host=127.0.0.1 port=$port dbname=postgres user=postgres connect_timeout=2'\n"
		  . ($conf // ''));
}

# psql through the pooler
sub pooled
{
	my ($port, $sql) = @_;
	my ($out, $err) = ('', '');
	# Debian's psql 15: psql 19 asks for a protocol pgbouncer 1.18 refuses
	IPC::Run::run([ "$StoreCluster::PG_BIN/psql", '-XAtq', '-h', '127.0.0.1', '-p', $port, '-U', 'postgres', '-d', 'postgres',
			'-c', $sql ], '<', \undef, '>', \$out, '2>', \$err)
	  or die "psql through pgbouncer: $err";
	chomp $out;
	return $out;
}

# --- transaction pooling, two generators on one server session
my ($bouncer, $port) = StoreCluster::pgbouncer("$dir/tx", $coord->port, 'transaction');
my $g1 = generator('g1', $port);
my $g2 = generator('g2', $port);
for my $g ($g1, $g2)
{
	ok( $g->poll_query_until('postgres', q{SELECT state = 'store_pooled' FROM uid_lease_status()}),
		$g->name . ': refuses the store reached through a transaction pooler');
	is($g->safe_psql('postgres', 'SELECT try_next()'), 'UID02', $g->name . ': and issues no ID');
}
my ($ret, $out, $err) = $g1->psql('postgres', 'SELECT uid_next()');
like($err, qr/no lease is held \(state "store_pooled"\)/, 'UID02 names the state');
like($err, qr/session pooling|session mode/, 'and its detail says to connect directly or in session mode');
ok($g2->log_contains('refusing the lease store'), 'the refusal is in the log');
like($g1->safe_psql('postgres', 'SELECT last_error FROM uid_lease_status()'),
	qr/not one server session/, 'uid_lease_status() says why');
$_->stop for ($g1, $g2);

# --- a lone generator on the pooler: its server session goes away
$coord->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()});
# renewals 3 s apart: its client connection is idle, unlinked from any
# server session, when that session is terminated right after a renewal
# (pgbouncer closes a client whose server session dies under a transaction)
my $g3 = generator('g3', $port,
	"uid.lease_renew_interval = '3s'\nuid.lease_ttl = '30s'\nuid.lease_safety_margin = '5s'\n");
wait_held($g3);
pass('a lone generator behind the transaction pooler holds a worker id');
is(pooled($port, 'SHOW search_path'), '"$user", public',
	'no session setting of the lease worker reaches other clients of the pool (search_path)');
is(pooled($port, 'SHOW lock_timeout'), '0', '(lock_timeout)');
my $renewals = $g3->safe_psql('postgres', 'SELECT renewals FROM uid_lease_status()');
$g3->poll_query_until('postgres', "SELECT renewals > $renewals FROM uid_lease_status()")
  or die 'no renewal';
$coord->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()});
ok($g3->poll_query_until('postgres', q{SELECT state = 'store_pooled' FROM uid_lease_status()}),
	'its server session terminated, the next transaction runs in another: the store is refused');
is($g3->safe_psql('postgres', 'SELECT try_next()'), 'UID02', 'and it stops issuing at once');
ok($g3->log_contains('this transaction runs in server process'), 'the log says what changed');
$g3->stop;
$bouncer->signal('TERM');
$bouncer->finish;

# --- session pooling
my ($sbouncer, $sport) = StoreCluster::pgbouncer("$dir/session", $coord->port, 'session', 4);
$coord->safe_psql('postgres', 'TRUNCATE uid_lease.lease');
my $s1 = generator('s1', $sport);
my $s2 = generator('s2', $sport);
my ($w1) = wait_held($s1);
my ($w2) = wait_held($s2);
isnt($w1, $w2, 'session pooling: two generators hold two worker ids');
is($s1->safe_psql('postgres', 'SELECT try_next()'), $w1, 'and issue with them');
is($s2->safe_psql('postgres', 'SELECT try_next()'), $w2, '(both)');
$_->stop for ($s1, $s2);
$sbouncer->signal('TERM');
$sbouncer->finish;

done_testing();
