# A lease store reached through pgbouncer (Debian's package).
#   Transaction pooling: advisory locks belong to a server session that the
#   pooler shares, so they prove nothing.  Two generators sharing the
#   pool's one server session both refuse the store (store_pooled), and
#   neither issues.  A lone generator on an idle pool, which the pooler
#   keeps serving from one server session, refuses the store before its
#   first ID too: a second connection of its lease worker is served by that
#   same server session; so is one on an idle pool of three server sessions,
#   reused most recently released first (the second connection gets the
#   same one) or in turn (its own next transaction runs in another).  Nothing the lease worker sets stays behind for
#   other clients of the pool.  Where that second connection cannot be had
#   (the pooler takes one client only), the generator holds a worker id,
#   and when its server session is terminated (pg_terminate_backend: the
#   pooler serves the next transaction from a new session, without the
#   lock) it refuses at its next renewal.
#   Statement pooling: a lone generator is refused the same way.
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

# the store's lease rows: none when the lease table was never created
sub truncate_leases
{
	$coord->safe_psql('postgres',
		q{DO $$BEGIN IF to_regclass('uid_lease.lease') IS NOT NULL THEN TRUNCATE uid_lease.lease; END IF; END$$});
	return;
}

sub lease_rows
{
	return $coord->safe_psql('postgres', q{SELECT to_regclass('uid_lease.lease') IS NOT NULL}) eq 't'
	  ? $coord->safe_psql('postgres', 'SELECT count(*) FROM uid_lease.lease')
	  : 0;
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

# $n clients of the pooler at once, each in a transaction: the pooler opens
# $n server connections, which stay in its pool, idle, once they end
sub open_server_connections
{
	my ($port, $n) = @_;
	my @clients;
	for (1 .. $n)
	{
		my ($in, $out, $err) = ("BEGIN;\nSELECT pg_backend_pid();\n", '', '');
		my $h = IPC::Run::start(
			[ "$StoreCluster::PG_BIN/psql", '-XAtq', '-h', '127.0.0.1', '-p', $port, '-U', 'postgres', '-d', 'postgres' ],
			'<', \$in, '>', \$out, '2>', \$err,
			IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
		$h->pump until $out =~ /\d+/;
		push @clients, [ $h, \$in ];
	}
	for my $c (@clients)
	{
		${ $c->[1] } .= "COMMIT;\n\\q\n";
		$c->[0]->finish;
	}
	return;
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
$bouncer->signal('TERM');
$bouncer->finish;

# --- a lone generator on an idle transaction pool, server connections
# recycled every 20 s: refused before its first ID, not at the first renewal
# after a recycle
my ($lbouncer, $lport) = StoreCluster::pgbouncer("$dir/lone", $coord->port, 'transaction', 1,
	{ server_lifetime => 20 });
truncate_leases();
my $lone = generator('lone', $lport);
is($lone->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'a lone generator behind a transaction pooler: its first uid_next() fails with UID02');
$lone->poll_query_until('postgres',
	q{SELECT state NOT IN ('starting', 'unconfirmed', 'waiting') FROM uid_lease_status()})
  or die 'the lease state did not settle';
is($lone->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'store_pooled',
	'its lease state settles to store_pooled, never held');
like($lone->safe_psql('postgres', 'SELECT last_error FROM uid_lease_status()'),
	qr/second connection .* is served by server process \d+, the one serving the first/,
	'found by a second connection served by the same server session');
is($lone->safe_psql('postgres', 'SELECT try_next()'), 'UID02', 'and it issues no ID');
is($lone->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats'), '0', '(none at all)');
is(lease_rows(), 0,
	'no worker id was taken in the store');
ok(!$lone->log_contains('acquired worker id'), 'the log has no acquisition');
is(pooled($lport, 'SHOW search_path'), '"$user", public',
	'no session setting of the lease worker reaches other clients of the pool (search_path)');
is(pooled($lport, 'SHOW lock_timeout'), '0', '(lock_timeout)');
$lone->stop;
$lbouncer->signal('TERM');
$lbouncer->finish;

# --- a lone generator on an idle transaction pool of three server
# connections, reused most recently released first (pgbouncer's default) or
# in turn (server_round_robin): refused before its first ID either way
for my $rr (0, 1)
{
	my ($rbouncer, $rport) = StoreCluster::pgbouncer("$dir/rr$rr", $coord->port, 'transaction', 3,
		{ server_round_robin => $rr });
	open_server_connections($rport, 3);
	truncate_leases();
	my $node = generator("pool$rr", $rport);
	is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
		"three idle server connections, server_round_robin = $rr: the first uid_next() fails with UID02");
	$node->poll_query_until('postgres',
		q{SELECT state NOT IN ('starting', 'unconfirmed', 'waiting') FROM uid_lease_status()})
	  or die 'the lease state did not settle';
	is($node->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'store_pooled',
		'(store_pooled)');
	is(lease_rows(), 0, '(no worker id taken)');
	$node->stop;
	$rbouncer->signal('TERM');
	$rbouncer->finish;
}

# --- statement pooling, a lone generator: refused before its first ID too
# (its first statement is not in a transaction block, which the pooler
# would refuse)
my ($sbouncer1, $sport1) = StoreCluster::pgbouncer("$dir/statement", $coord->port, 'statement');
truncate_leases();
my $st = generator('st', $sport1);
is($st->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'statement pooling, a lone generator: the first uid_next() fails with UID02');
$st->poll_query_until('postgres',
	q{SELECT state NOT IN ('starting', 'unconfirmed', 'waiting') FROM uid_lease_status()})
  or die 'the lease state did not settle';
is($st->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'store_pooled', '(store_pooled)');
is(lease_rows(), 0, '(no worker id taken)');
$st->stop;
$sbouncer1->signal('TERM');
$sbouncer1->finish;

# --- a lone generator on a pooler that takes one client only: the second
# connection is refused, and its server session goes away
my ($obouncer, $oport) = StoreCluster::pgbouncer("$dir/one", $coord->port, 'transaction', 1,
	{ max_client_conn => 1 });
$coord->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()});
# renewals 3 s apart: its client connection is idle, unlinked from any
# server session, when that session is terminated right after a renewal
# (pgbouncer closes a client whose server session dies under a transaction)
my $g3 = generator('g3', $oport,
	"uid.lease_renew_interval = '3s'\nuid.lease_ttl = '30s'\nuid.lease_safety_margin = '5s'\n");
wait_held($g3);
ok($g3->log_contains('could not open a second connection to the lease store'),
	'the pooler refuses the second connection: the check is inconclusive, and logged');
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
$obouncer->signal('TERM');
$obouncer->finish;

# --- session pooling
my ($sbouncer, $sport) = StoreCluster::pgbouncer("$dir/session", $coord->port, 'session', 4);
truncate_leases();
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
