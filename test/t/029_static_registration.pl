# Registered static worker ids: a numeric uid.worker_id with
# uid.lease_conninfo registers that id in the shared lease store, like a
# lease of that one id, and issues only while the registration is held.
#  - two servers given the same static id and one store: the first
#    registers it and issues; the second refuses (UID02, the detail names
#    the first: system identifier, host, port, to superusers and pg_monitor);
#    the first keeps issuing;
#  - a leased server on the same store never gets the registered id (a
#    pool of two: it would otherwise take the lowest);
#  - the registration is a tenure of the ledger, and uid_whence() names
#    the server that issued an id;
#  - after the first stops cleanly its registration ends, and the second
#    registers the id by itself, issuing after the first's last id; the
#    first, started again, now refuses;
#  - without a store, a static id issues at once, as before (no worker).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;
use UidTap qw(sqlstate_of);

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';

# A server with the lease settings of lease_node(), the store, and $conf.
sub gen_node
{
	my ($name, $conf) = @_;
	my $node = lease_node($name, conf => "uid.lease_conninfo = '$conninfo'\n$conf");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	$node->safe_psql('postgres', try_next_sql());
	return $node;
}

sub sysid
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
}

# --- the first server registers static id 0
my $first = gen_node('first', "uid.worker_id = 0\n");
ok(poll_within($first, 60, q{SELECT state = 'held' FROM uid_lease_status()}),
	'first: static worker id 0 is registered');
is($first->safe_psql('postgres', 'SELECT mode, worker_id FROM uid_lease_status()'),
	'registered|0', 'first: uid_lease_status() shows the mode registered and worker id 0');
is($first->safe_psql('postgres', 'SELECT lease_mode, worker_id FROM uid_stats'),
	'registered|0', 'first: uid_stats shows the mode registered');
is($first->safe_psql('postgres', 'SELECT try_next()'), '0', 'first: uid_next() issues with worker id 0');
is( $coord->safe_psql('postgres',
		'SELECT worker_id, port, released_at IS NULL FROM uid_lease.lease'),
	'0|' . $first->port . '|t', 'the store has one live row for worker id 0, naming the first server');
ok($first->log_contains('registered static worker id 0'), 'first: the registration is logged');

# --- the second server, given the same static id, refuses
my $second = gen_node('second', "uid.worker_id = 0\n");
ok(poll_within($second, 60, q{SELECT state = 'held_elsewhere' FROM uid_lease_status()}),
	'second: worker id 0 is held elsewhere');
is($second->safe_psql('postgres', 'SELECT mode, worker_id FROM uid_lease_status()'),
	'registered|0', 'second: mode registered, worker id 0');
my ($state, $err) = sqlstate_of($second, 'SELECT uid_next()');
is($state, 'UID02', 'second: uid_next() refuses with UID02');
my ($first_sysid, $first_port) = (sysid($first), $first->port);
like($err, qr/DETAIL:.*Worker id 0 is held in the lease store by another live server/s,
	'second: the detail says another server holds the id');
like($err, qr/system identifier $first_sysid, host [^,]+, port $first_port,/,
	'second: the detail names the first server: system identifier, host, port');
like($err, qr/HINT:.*worker id of its own/s, 'second: the hint says what to do');
ok($second->log_contains("static worker id 0 is held in the lease store by another server: system identifier $first_sysid"),
	'second: logged');
is($second->safe_psql('postgres', q{SELECT count(*) FROM uid_lease_status() WHERE last_error LIKE '%port ' || } . $first_port . q{ || '%'}),
	'1', 'second: last_error of uid_lease_status() names the first server');
$second->safe_psql('postgres', 'CREATE ROLE app LOGIN');
my ($ret, $out, $app_err) = $second->psql('postgres', 'SELECT uid_next()', extra_params => [ '-U', 'app' ]);
like($app_err, qr/DETAIL:.*held in the lease store by another live server \(named in the server log/s,
	'second, as an ordinary role: the detail says that another server holds the id');
unlike($app_err, qr/port $first_port|$first_sysid/, 'second, as an ordinary role: but not which one');
($ret, $out) = $second->psql('postgres', 'SELECT last_error FROM uid_lease_status()', extra_params => [ '-U', 'app' ]);
like($out, qr/^another server holds this worker id in the lease store \(details/,
	'second, as an ordinary role: last_error says only the kind');

# the first keeps its registration and issues, over several more attempts of the second
my $renewals = $first->safe_psql('postgres', 'SELECT renewals FROM uid_lease_status()');
ok(poll_within($first, 60, "SELECT renewals >= $renewals + 10 FROM uid_lease_status()"),
	'first: renews its registration meanwhile');
is($first->safe_psql('postgres', q{SELECT string_agg(DISTINCT try_next(), ',') FROM generate_series(1, 1000)}),
	'0', 'first: keeps issuing with worker id 0');
is($second->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'held_elsewhere',
	'second: still refused');
is($second->safe_psql('postgres', 'SELECT try_next()'), 'UID02', 'second: still issues nothing');
my @warnings = grep { /static worker id 0 is held in the lease store by another server/ }
  split /\n/, slurp_file($second->logfile);
is(scalar(@warnings), 1, 'second: the warning is logged once for that holder, not at every attempt');

# --- a leased server on the same store, pool of two: never id 0
my $leased = gen_node('leased', "uid.lease_pool_size = 2\n");
my ($lw) = wait_held($leased);
is($lw, 1, 'leased: takes worker id 1, not the registered 0 (the lowest of its pool)');
is($leased->safe_psql('postgres', 'SELECT mode, free_ids FROM uid_lease_status()'), 'lease|0',
	'leased: mode lease; the registration counts as used in its pool');
$leased->stop;
is($coord->safe_psql('postgres', 'SELECT port FROM uid_lease.lease WHERE worker_id = 0 AND released_at IS NULL'),
	$first_port, 'the registration of id 0 is still the first server\'s');

# --- the ledger: the registration is a tenure; uid_whence() names the issuer
$first->safe_psql('postgres', 'CREATE TABLE ids (id bigint)');
$first->safe_psql('postgres', 'INSERT INTO ids SELECT uid_next() FROM generate_series(1, 100)');
is( $first->safe_psql('postgres',
		'SELECT port, ended_how IS NULL FROM uid_tenures(0)'),
	"$first_port|t", 'the ledger has one tenure of worker id 0, the first server\'s, open');
is( $first->safe_psql('postgres', q{
SELECT count(*) FROM ids AS s
WHERE (SELECT array_agg(w.port) FROM uid_whence(s.id) AS w) IS DISTINCT FROM ARRAY[}
		  . $first_port . ']'),
	'0', 'uid_whence() of each of the first server\'s ids names the first server');

# --- the first stops cleanly: its registration ends, the second registers by itself
my $first_last = $first->safe_psql('postgres', 'SELECT max(id) FROM ids');
$first->stop;
is( $coord->safe_psql('postgres',
		q{SELECT ended_how FROM uid_lease.tenure WHERE worker_id = 0 AND port = } . $first_port),
	'released', 'the first server\'s tenure ended: released');
ok(poll_within($second, 60, q{SELECT state = 'held' FROM uid_lease_status()}),
	'second: registers worker id 0 by itself once it is free');
$second->safe_psql('postgres', 'CREATE TABLE ids (id bigint)');
$second->safe_psql('postgres', 'INSERT INTO ids SELECT uid_next() FROM generate_series(1, 100)');
is($second->safe_psql('postgres', 'SELECT string_agg(DISTINCT (uid_decode(id)).worker_id::text, \',\') FROM ids'),
	'0', 'second: issues with worker id 0');
is($second->safe_psql('postgres', "SELECT min(id) > $first_last FROM ids"), 't',
	'second: every id after the first server\'s last one');
my $second_port = $second->port;
is( $second->safe_psql('postgres', qq{
SELECT count(*) FROM ids AS s
WHERE (SELECT array_agg(w.port) FROM uid_whence(s.id) AS w) IS DISTINCT FROM ARRAY[$second_port]}),
	'0', 'uid_whence() of each of the second server\'s ids names the second server');
is($second->safe_psql('postgres', 'SELECT count(*) FROM uid_tenures(0)'), '2',
	'the ledger has two tenures of worker id 0');
is($second->safe_psql('postgres', 'SELECT count(*) FROM uid_tenure_overlaps()'), '0',
	'and they do not overlap');

# --- the first, started again, now refuses: the second holds the id
$first->start;
ok(poll_within($first, 60, q{SELECT state = 'held_elsewhere' FROM uid_lease_status()}),
	'first, restarted: worker id 0 is held elsewhere');
($state, $err) = sqlstate_of($first, 'SELECT uid_next()');
is($state, 'UID02', 'first, restarted: uid_next() refuses with UID02');
like($err, qr/port $second_port,/, 'first, restarted: the detail names the second server');
is($second->safe_psql('postgres', 'SELECT try_next()'), '0', 'second: keeps issuing');
$first->stop;
$second->stop;

# --- without a store: a static id issues at once, with no worker
my $plain = PostgreSQL::Test::Cluster->new('plain');
$plain->init;
$plain->append_conf('postgresql.conf', "shared_preload_libraries = 'uid'\nuid.worker_id = 0\n");
$plain->start;
$plain->safe_psql('postgres', 'CREATE EXTENSION uid');
is($plain->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
	'without a store: the static id issues at once');
is($plain->safe_psql('postgres', 'SELECT mode, state, store FROM uid_lease_status()'), 'static|static|none',
	'without a store: mode static, nothing registered');
is($plain->safe_psql('postgres', q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'uid lease worker'}),
	'0', 'without a store: no lease worker runs');
$plain->stop;
$coord->stop;

done_testing();
