# The lease worker's sessions with its store, in the cases a Citus cluster
# and unreachable stores showed:
#  - a renewal after a reconnect whose id's advisory lock a second holder
#    now has: it reads the token, gives the id up and takes a free one
#    (it used to fail for ever as "another session holds the advisory lock");
#  - uid.lease_conninfo naming the server itself: a fast shutdown releases
#    the id (it used to kill its own store session before the release);
#  - DDL in the store runs with citus.enable_ddl_propagation off, so that
#    CREATE SCHEMA is not sent to Citus workers;
#  - a connection attempt to a store that never answers ends at once on
#    query cancel and on SIGTERM (it used to block until its timeout).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IO::Socket::INET;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $store = 'host=' . $coord->host . ' port=' . $coord->port;


# --- a second holder of the old id after a reconnect
# Two servers with a role each; the table created beforehand by the
# administrator (a superuser), with rights for both roles.
$coord->safe_psql(
	'postgres', q{
CREATE ROLE lease1 LOGIN;
CREATE ROLE lease2 LOGIN;
CREATE DATABASE fleet;
});
$coord->safe_psql('fleet', admin_lease_table_sql('lease1', 'lease2'));
my $a = started_lease_node('holder_a', "uid.lease_conninfo = '$store dbname=fleet user=lease1'\n");
my ($wa) = wait_held($a);
is($wa, 0, 'server A holds id 0');
my $b = started_lease_node('holder_b',
	"uid.lease_conninfo = '$store dbname=fleet user=lease2'\nuid.lease_pool_size = 1\n");
ok(poll_within($b, 60, q{SELECT state = 'no_free_id' FROM uid_lease_status()}),
	'server B (pool of one) waits for a free id');

# A loses its store session and cannot come back until its lease has expired
# and B has taken id 0, with its advisory lock
$coord->safe_psql('postgres', 'ALTER ROLE lease1 NOLOGIN');
$coord->safe_psql('postgres',
	q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'lease1'});
my ($wb, $tb) = wait_held($b);
is($wb, 0, 'after the expiry B takes id 0');
is( $coord->safe_psql(
		'fleet', q{
SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
WHERE l.locktype = 'advisory' AND l.objid = 0 AND l.objsubid = 2 AND a.usename = 'lease2'}),
	'1', 'and holds its advisory lock');
$coord->safe_psql('postgres', 'ALTER ROLE lease1 LOGIN');
ok( poll_within(
		$a, 60,
		q{SELECT state = 'held' AND worker_id <> 0 AND losses = 1 FROM uid_lease_status()}),
	'A reconnects, finds another token on id 0, and takes a free id');
my $wa2 = $a->safe_psql('postgres', 'SELECT worker_id FROM uid_lease_status()');
is($a->safe_psql('postgres', 'SELECT try_next()'), $wa2, 'A issues with its new id');
is($b->safe_psql('postgres', 'SELECT try_next()'), '0', 'B keeps id 0');
ok($a->log_contains('lost the lease on worker id 0'), 'A logs the loss');
$_->stop for ($a, $b);

# --- a store that is this very server
my $self = lease_node('self_store');
$self->append_conf('postgresql.conf',
	"uid.lease_conninfo = 'host=" . $self->host . ' port=' . $self->port . " dbname=postgres'\n");
$self->start;
$self->safe_psql('postgres', 'CREATE EXTENSION uid');
my ($ws, $ts) = wait_held($self);
is($ws, 0, 'a server whose lease_conninfo names itself takes id 0');
is($self->safe_psql('postgres', 'SELECT store FROM uid_lease_status()'),
	'uid.lease_conninfo (this server, database postgres)',
	'it uses that database in-process');
ok($self->log_contains('uid.lease_conninfo points at this server'), 'and says so in the log');
$self->stop('fast');
ok($self->log_contains("released worker id 0 \\(fencing token $ts\\)"),
	'a fast shutdown releases the id');
my $ts_before = $ts;
$self->start;
($ws, $ts) = wait_held($self);
is($ws, 0, 'after the restart id 0 is free at once: taken again');
isnt($ts, $ts_before, 'with a new token');
$self->stop;

# --- DDL in the store with Citus DDL propagation off
# Citus cannot be installed here: the store database defines the setting
# (as Citus does when loaded), and an event trigger records its value at
# each DDL command the lease worker runs.
$coord->safe_psql('postgres', 'CREATE DATABASE citus_store');
$coord->safe_psql(
	'citus_store', q{
ALTER DATABASE citus_store SET citus.enable_ddl_propagation = on;
CREATE TABLE public.ddl_seen (command text, propagation text);
GRANT INSERT ON public.ddl_seen TO PUBLIC;
CREATE FUNCTION public.note_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO public.ddl_seen
	VALUES (tg_tag, pg_catalog.current_setting('citus.enable_ddl_propagation', true));
END $$;
CREATE EVENT TRIGGER note_ddl ON ddl_command_start EXECUTE FUNCTION public.note_ddl();
});
my $cit = started_lease_node('citus_node', "uid.lease_conninfo = '$store dbname=citus_store'\n");
wait_held($cit);
is( $coord->safe_psql(
		'citus_store',
		q{SELECT string_agg(command || '=' || coalesce(propagation, 'unset'), ',' ORDER BY command) FROM ddl_seen}),
	'ALTER TABLE=off,ALTER TABLE=off,COMMENT=off,COMMENT=off,CREATE SCHEMA=off,CREATE TABLE=off,CREATE TABLE=off',
	'the lease worker creates schema, lease table and tenure ledger with citus.enable_ddl_propagation off');
$cit->stop;

# --- a store that accepts the TCP connection and never answers
my $silent = IO::Socket::INET->new(
	LocalAddr => '127.0.0.1',
	LocalPort => 0,
	Listen => 5,
	Proto => 'tcp') or die "could not listen: $!";
my $stuck = started_lease_node('stuck',
	"uid.lease_conninfo = 'host=127.0.0.1 port=" . $silent->sockport . " dbname=x sslmode=disable'\n"
	  . "uid.lease_renew_interval = '10min'\n");
my $pid = $stuck->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
ok( poll_within(
		$stuck, 60,
		"SELECT state = 'active' AND query = 'uid lease step' FROM pg_stat_activity WHERE pid = $pid"),
	'the lease worker is connecting (pg_stat_activity shows its step)');
is( $stuck->safe_psql(
		'postgres', "SELECT wait_event_type || ':' || wait_event FROM pg_stat_activity WHERE pid = $pid"),
	$stuck->safe_psql('postgres', 'SHOW server_version_num') >= 170000
	? 'Extension:UidLeaseStoreConnect'
	: 'Extension:Extension',
	'its wait is named (PostgreSQL 17+) while it connects');
kill 'INT', $pid;
ok( poll_within(
		$stuck, 60,
		q{SELECT state = 'store_error' AND last_error LIKE '%canceling statement due to user request%' FROM uid_lease_status()}
	),
	'query cancel ends the connection attempt at once');
# SIGTERM while connecting: the worker restarts (state store_error), connects
kill 'TERM', $pid;
ok( poll_within(
		$stuck, 60,
		"SELECT worker_pid <> $pid FROM uid_lease_status()"),
	'SIGTERM ends the worker; the postmaster starts it again');
$pid = $stuck->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
ok( poll_within(
		$stuck, 60,
		"SELECT state = 'active' AND query = 'uid lease step' FROM pg_stat_activity WHERE pid = $pid"),
	'the new worker is connecting');
kill 'TERM', $pid;
ok( poll_within(
		$stuck, 60,
		"SELECT NOT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $pid)"),
	'SIGTERM during the connection attempt ends the worker at once');
$stuck->stop('fast');
pass('a fast shutdown does not wait for the silent store');
$silent->close;

$coord->stop;
done_testing();
