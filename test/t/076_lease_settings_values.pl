# Lease settings that cannot work, and values in the store that are out of
# range: uid issues no worker id (UID02, with the reason) rather than run
# on something nobody chose.
#  - a uid.worker_id in postgresql.conf that PostgreSQL refuses (2000, the
#    typo 'lese') would run on the default 0, every unconfigured server's
#    worker id: no ID, and UID02 names the setting and the value; also with
#    uid.lease_conninfo set; SET and ALTER SYSTEM of a bad value fail and
#    record nothing; a refused uid.lease_pool_size in lease mode;
#  - uid.lease_conninfo without uid.worker_id (the default static id, 0,
#    would have been the same on every server of the fleet); with a
#    numeric uid.worker_id the id is registered in the store, and a store
#    that cannot be reached issues nothing;
#  - a lease schema name too long (it used to be truncated, while the
#    advisory key used the whole name), an unparsable conninfo (it would
#    fall back to the local store);
#  - a released row whose last_issued_ms is years ahead (the new holder
#    waited for it for ever), and an expiry beyond the TTL (the server would
#    have issued past the real expiry).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;
use UidTap qw(sqlstate_of);

# --- uid.lease_conninfo without uid.worker_id
my $static = PostgreSQL::Test::Cluster->new('conninfo_static');
$static->init;
$static->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uid'
uid.lease_conninfo = 'host=/nonexistent dbname=coord'
});
$static->start;
$static->safe_psql('postgres', 'CREATE EXTENSION uid');
my ($state, $err) = sqlstate_of($static, 'SELECT uid_next()');
is($state, 'UID02', 'uid.lease_conninfo without uid.worker_id: uid_next() refuses with UID02');
like($err, qr/uid\.lease_conninfo is set, but uid\.worker_id is not/, 'the detail says why');
like($err, qr/HINT:.*Set uid\.worker_id = 'lease'.*this server's own number/s, 'the hint says what to do');
is($static->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
	'static|config_error', 'status: config_error');
ok($static->log_contains('WARNING: .*uid.lease_conninfo is set, but uid.worker_id is not'),
	'logged at start-up');

# --- with a numeric worker id: registered, and nothing issued while the store is unreachable
$static->append_conf('postgresql.conf', "uid.worker_id = 5\n");
$static->restart;
ok(poll_within($static, 60, q{SELECT state = 'store_error' FROM uid_lease_status()}),
	'uid.lease_conninfo with a numeric uid.worker_id: the id is to be registered, the store cannot be reached');
is($static->safe_psql('postgres', 'SELECT mode, worker_id FROM uid_lease_status()'),
	'registered|5', 'status: mode registered, worker id 5');
($state, $err) = sqlstate_of($static, 'SELECT uid_next()');
is($state, 'UID02', 'no ID is issued before the registration is confirmed');
like($err, qr/static worker id 5 is not registered in the lease store/, 'the message says so');
$static->stop;

# --- a refused uid.worker_id: PostgreSQL would run on the default, 0
my $refused = PostgreSQL::Test::Cluster->new('worker_id_refused');
$refused->init;
$refused->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uid'
uid.worker_id = 2000
});
$refused->start;
$refused->safe_psql('postgres', 'CREATE EXTENSION uid');
$refused->safe_psql('postgres', try_next_sql());
ok($refused->log_contains('invalid value for parameter "uid.worker_id": "2000"'),
	'uid.worker_id = 2000 is refused by its check hook, and the server starts');
is($refused->safe_psql('postgres', 'SHOW uid.worker_id'), '0',
	'PostgreSQL runs the setting on its default, 0');
($state, $err) = sqlstate_of($refused, 'SELECT uid_next()');
is($state, 'UID02', 'uid_next() refuses with UID02 rather than issue as worker 0');
like($err, qr/configured value of uid\.worker_id was refused/, 'the message names the setting');
like($err, qr/DETAIL:\s+uid\.worker_id = '2000' in the server's configuration was refused/,
	'the detail names the setting and the value refused');
like($err, qr/HINT:.*Correct uid\.worker_id.*restart the server/s, 'the hint says to fix it and restart');
($state) = sqlstate_of($refused, 'SELECT count(*) FROM uid_next_batch(3)');
is($state, 'UID02', 'uid_next_batch() refuses too');
is($refused->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
	'static|config_error', 'status: config_error');
like($refused->safe_psql('postgres', 'SELECT last_error FROM uid_lease_status()'),
	qr/configured value of uid\.worker_id was refused/, 'the status names the setting');
ok($refused->log_contains('WARNING: .*uid: the configured value of uid.worker_id was refused'),
	'logged by uid at start-up');

# a typo
$refused->adjust_conf('postgresql.conf', 'uid.worker_id', "'lese'");
$refused->restart;
($state, $err) = sqlstate_of($refused, 'SELECT uid_next()');
is($state, 'UID02', "uid.worker_id = 'lese': uid_next() refuses with UID02");
like($err, qr/DETAIL:\s+uid\.worker_id = 'lese' in the server's configuration was refused/,
	'the detail names the typo');

# with uid.lease_conninfo set: the refused setting is named, not "not set"
$refused->append_conf('postgresql.conf', "uid.lease_conninfo = 'host=/nonexistent dbname=coord'\n");
$refused->restart;
($state, $err) = sqlstate_of($refused, 'SELECT uid_next()');
is($state, 'UID02', 'with uid.lease_conninfo set: UID02');
like($err, qr/configured value of uid\.worker_id was refused/, 'the message names uid.worker_id as refused');
unlike($err, qr/uid\.worker_id is not/, 'and does not say it is not set');

# fixed: issues as the right worker
$refused->adjust_conf('postgresql.conf', 'uid.lease_conninfo', "''");
$refused->adjust_conf('postgresql.conf', 'uid.worker_id', '7');
$refused->restart;
is($refused->safe_psql('postgres', 'SELECT try_next()'), '7',
	'with the file fixed and the server restarted, IDs carry worker id 7');

# SET and ALTER SYSTEM of a bad value fail, and record nothing
($state) = sqlstate_of($refused, 'SET uid.worker_id = 2000');
isnt($state, '(none: exit 0)', 'SET uid.worker_id = 2000 fails');
($state, $err) = sqlstate_of($refused, 'ALTER SYSTEM SET uid.worker_id = 2000');
is($state, '22023', 'ALTER SYSTEM SET uid.worker_id = 2000 fails');
($state) = sqlstate_of($refused, q{ALTER SYSTEM SET uid.worker_id = 'lese'});
is($state, '22023', "ALTER SYSTEM SET uid.worker_id = 'lese' fails");
($state) = sqlstate_of($refused, 'ALTER SYSTEM SET uid.lease_pool_size = 5000');
is($state, '22023', 'ALTER SYSTEM SET uid.lease_pool_size = 5000 fails');
is($refused->safe_psql('postgres', 'SELECT try_next()'), '7',
	'and uid_next() still issues as worker 7');
$refused->restart;
is($refused->safe_psql('postgres', 'SELECT try_next()'), '7', 'also after a restart');
$refused->stop;

# --- a refused integer lease setting: the pool nobody chose could hold another server's id
my $pool = lease_node('pool_refused', conf => "uid.lease_pool_size = 'lots'\n");
$pool->start;
$pool->safe_psql('postgres', 'CREATE EXTENSION uid');
is($pool->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'config_error',
	"uid.lease_pool_size = 'lots': config_error, no lease taken from the whole range");
($state, $err) = sqlstate_of($pool, 'SELECT uid_next()');
is($state, 'UID02', 'uid_next() refuses with UID02');
like($err, qr/configured value of uid\.lease_pool_size was refused/, 'the message names the setting');
like($err, qr/DETAIL:\s+uid\.lease_pool_size = 'lots'/, 'the detail names the value');
$pool->stop;

# --- lease settings refused by their check hooks
my $node = lease_node('settings', conf => 'uid.lease_schema = \'' . ('s' x 150) . "'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
$node->safe_psql('postgres', try_next_sql());
ok($node->log_contains('invalid value for parameter "uid.lease_schema"'),
	'a 150-character uid.lease_schema is refused by its check hook');
is($node->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'config_error',
	'and no lease is taken under a default nobody chose: config_error');
($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID02', 'uid_next() refuses with UID02');
like($err, qr/configured value of uid\.lease_schema was refused/, 'the detail names the setting');
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 'f',
	'uid_lease_acquire() cannot take a lease either');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'sss%' OR nspname = 'uid_lease'}),
	'0', 'no lease schema was created, truncated or default');

$node->adjust_conf('postgresql.conf', 'uid.lease_schema', "'uid_lease'");
$node->append_conf('postgresql.conf', "uid.lease_conninfo = 'host=/tmp port= = x'\n");
$node->restart;
ok($node->log_contains('invalid value for parameter "uid.lease_conninfo"'),
	'an unparsable uid.lease_conninfo is refused by its check hook');
is($node->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'config_error',
	'and the server does not fall back to the local store');
($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
like($err, qr/DETAIL:\s+The value of uid\.lease_conninfo in the server's configuration was refused/,
	'UID02 names uid.lease_conninfo as refused');
unlike($err, qr/port= = x/, 'but never shows its value, which may hold a password');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'uid_lease'}),
	'0', 'no local lease table was created');

# --- values out of range in the store
$node->adjust_conf('postgresql.conf', 'uid.lease_conninfo', "''");
$node->restart;
my ($w) = wait_held($node);
is($w, 0, 'with the settings corrected, id 0 is leased');
# an expiry beyond the TTL (a trigger of the table's owner adds a year)
$node->safe_psql(
	'postgres', q{
CREATE FUNCTION uid_lease.stretch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.expires_at := NEW.expires_at + interval '1 year'; RETURN NEW; END $$;
CREATE TRIGGER stretch BEFORE UPDATE ON uid_lease.lease
    FOR EACH ROW EXECUTE FUNCTION uid_lease.stretch();
});
ok( poll_within(
		$node, 60,
		q{SELECT renewal_failures > 0 AND last_error LIKE '%expires_at - clock_timestamp() (ms)%out of range%' FROM uid_lease_status()}
	),
	'a renewal whose expiry lies beyond the TTL fails');
is( $node->safe_psql(
		'postgres',
		q{SELECT generate_until < clock_timestamp() + current_setting('uid.lease_ttl')::interval FROM uid_lease_status()}
	),
	't', 'and the server never issues beyond what the TTL allows');
ok(poll_within($node, 60, q{SELECT try_next() = 'UID02'}),
	'without valid renewals generation stops before the real expiry');
$node->safe_psql('postgres', 'DROP TRIGGER stretch ON uid_lease.lease');
ok(poll_within($node, 60, q{SELECT try_next() = '0'}), 'with the trigger gone, renewals succeed again');

# a released row whose last issued time is years ahead
is($node->safe_psql('postgres', 'SELECT uid_lease_release()'), 't', 'released');
# year 9999: no holder ever issued at that time
$node->safe_psql('postgres',
	q{UPDATE uid_lease.lease SET last_issued_ms = 253402300799000 WHERE worker_id = 0});
is($node->safe_psql('postgres', 'SELECT uid_lease_acquire()'), 't', 'a lease is acquired');
is($node->safe_psql('postgres', 'SELECT try_next()'), '1',
	'not id 0, whose row says it was last issued in the year 9999: id 1');
ok($node->log_contains('skipping worker id 0: its row in the lease store holds a value out of range'),
	'the skipped row is logged');
my (undef, $recent) =
  $node->psql('postgres', q{SELECT uid_time(uid_next()) < now() + interval '1 day'});
is($recent, 't', 'IDs carry the current time (the floor was not raised to the year 9999)');

# --- the definition of the lease table on docs/leases.md is the worker's
my ($documented) = slurp_file("$FindBin::RealBin/../../docs/leases.md")
  =~ /^## The lease table definition\n.*?^```sql\n(.*?)^```$/ms;
my $generated = $node->safe_psql('postgres', q{SELECT uid_lease_table_sql('uid_lease')});
s/\s+\z// for ($documented, $generated);
is($documented, $generated,
	'docs/leases.md shows the lease table as uid_lease_table_sql() prints it');

$node->stop;
done_testing();
