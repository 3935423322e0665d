# Taking uid out of shared_preload_libraries (docs/operations.md, "Removing
# uid"; src/core/wal_removal.c).  uid's WAL records need its resource
# manager wherever they are read: crash recovery, standbys, logical decoding.
# A primary with uid issuing IDs, a subscriber (pgoutput, a server without
# uid), a test_decoding slot and a physical standby with a slot:
#  a) an ordinary role cannot call uid_removal_check(); pg_monitor can;
#  b) while IDs are issued, the check says not ready (uid.wal_reservations,
#     crash recovery); after a kill -9, a start without uid fails as it
#     said (PostgreSQL's FATAL), and putting uid back recovers;
#  c) the documented procedure: reservations off, CHECKPOINT: crash
#     recovery and the standby are ready, the two logical slots that lag
#     are not.  They lag on purpose: the subscription is disabled and the
#     test_decoding slot is not read from before uid's records on;
#  d) what the check prevents: a restart without uid while they lag
#     starts, but decoding either slot fails ("resource manager with ID 219
#     not registered");
#  e) with uid back, both slots decode over uid's records (pgoutput and
#     test_decoding), and once they have passed the last record the check
#     says ready;
#  f) the restart without uid: the server starts, the subscription keeps
#     replicating new rows, the test_decoding slot decodes them, the standby
#     keeps replaying; then the standby's own check says ready, and
#     restarted without uid it keeps replaying.
# test_decoding is a contrib module, which the test builds of 16 and later
# lack: there the second slot is a pgoutput slot read through SQL.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $primary = uid_node('removal_primary',
	'uid.worker_id'    => 7,
	checkpoint_timeout => '1h',
	init => { allows_streaming => 'logical' });
$primary->append_conf('postgresql.conf', "max_replication_slots = 10\nmax_wal_senders = 10\n");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), v text);
	CREATE PUBLICATION p FOR TABLE t;
	CREATE ROLE plain LOGIN;
	CREATE ROLE watcher LOGIN IN ROLE pg_monitor;
	SELECT pg_create_physical_replication_slot('standby_slot');});
my $has_test_decoding = -e $primary->config_data('--pkglibdir') . '/test_decoding.so';

# The physical standby, with uid (it replays the primary's records).
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('removal_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby_slot'\n");
$standby->start;

# The subscriber: a server without uid.
my $sub = PostgreSQL::Test::Cluster->new('removal_subscriber');
$sub->init;
$sub->start;
$sub->safe_psql('postgres', 'CREATE TABLE t (id bigint PRIMARY KEY, v text)');
$sub->safe_psql('postgres',
	"CREATE SUBSCRIPTION s CONNECTION '@{[ conninfo($primary) ]}' PUBLICATION p");
$sub->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')})
  or die 'the subscription did not finish its initial copy';
$primary->wait_for_catchup('s');

# The logical slots that will lag: created, or stopped, before uid's
# records.  test_decoding where this server has it (a contrib module),
# else a second pgoutput slot read through SQL.
my $cdc_plugin = $has_test_decoding ? 'test_decoding' : 'pgoutput';
$primary->safe_psql('postgres', "SELECT pg_create_logical_replication_slot('cdc', '$cdc_plugin')");
sub cdc_changes
{
	my ($node, $fn) = @_;
	return $has_test_decoding
	  ? "SELECT count(*) FROM ${fn}_changes('cdc', NULL, NULL) WHERE data LIKE 'table public.t: INSERT:%'"
	  : "SELECT count(*) FROM ${fn}_binary_changes('cdc', NULL, NULL, 'proto_version', '1', 'publication_names', 'p') WHERE get_byte(data, 0) = 73";
}
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION s DISABLE');
$primary->poll_query_until('postgres',
	q{SELECT NOT active FROM pg_replication_slots WHERE slot_name = 's'})
  or die 'the subscription did not stop';

sub check
{
	my ($node, $user) = @_;
	return $node->safe_psql('postgres',
		'SELECT ready, what, lsn, detail FROM uid_removal_check()',
		connstr => $node->connstr('postgres') . ' user=' . ($user // 'postgres'));
}
sub row_of
{
	my ($rows, $what) = @_;
	my ($line) = grep { /^[tf]\|\Q$what\E\|/ } split /\n/, $rows;
	return $line // '';
}

# ---------------------------------------------------------------------------
# a) privileges
# ---------------------------------------------------------------------------
my ($ret, $out, $err) = $primary->psql('postgres', 'SELECT * FROM uid_removal_check()',
	connstr => $primary->connstr('postgres') . ' user=plain');
like($err, qr/permission denied for function uid_removal_check/, 'a) an ordinary role may not call it');
like(check($primary, 'watcher'), qr/^[tf]\|uid can leave shared_preload_libraries\|/,
	'a) a member of pg_monitor may; the first row is the verdict');

# ---------------------------------------------------------------------------
# b) IDs issued; kill -9; a start without uid fails; uid back recovers
# ---------------------------------------------------------------------------
$primary->safe_psql('postgres', q{INSERT INTO t (v) SELECT 'b' FROM generate_series(1, 1000)});
my $rows = check($primary);
like(row_of($rows, 'uid can leave shared_preload_libraries'),
	qr/^f\|.*\|\d+\/[0-9A-F]+\|uid's last WAL record ends at .* \(written since the server started\)$/,
	'b) not ready, and the verdict names the end of the last record written');
like(row_of($rows, 'uid.wal_reservations'), qr/^f\|/, 'b) uid.wal_reservations is on: not ready');
like(row_of($rows, 'crash recovery'), qr/^f\|.*a restart after a crash would replay it/,
	'b) crash recovery would replay uid\'s records: not ready');
my ($last_b) = row_of($rows, 'uid can leave shared_preload_libraries') =~ /^f\|[^|]*\|([^|]+)\|/;
cmp_ok($primary->safe_psql('postgres', "SELECT '$last_b'::pg_lsn > redo_lsn FROM pg_control_checkpoint()"),
	'eq', 't', 'b) the last record ends after the last checkpoint\'s redo point');

kill9_all($primary);
$primary->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
my $log_at = -s $primary->logfile;
ok(!$primary->start(fail_ok => 1), 'b) after kill -9, the server does not start without uid');
like(substr(slurp_file($primary->logfile), $log_at), qr/resource manager with ID 219 not registered/,
	'b) PostgreSQL names uid\'s resource manager ID, as the check said');
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'uid'\n");
$primary->start;
is($primary->safe_psql('postgres', 'SELECT count(*) FROM t'), '1000',
	'b) with uid back, the server recovers and starts');
like(row_of(check($primary), 'uid can leave shared_preload_libraries'), qr/\(replayed since the server started\)$/,
	'b) after the recovery, the last record is the one replayed');

# ---------------------------------------------------------------------------
# c) the procedure: reservations off, CHECKPOINT; the lagging slots
# ---------------------------------------------------------------------------
$primary->safe_psql('postgres', q{
	ALTER SYSTEM SET uid.wal_reservations = off;
	SELECT pg_reload_conf();});
$primary->poll_query_until('postgres', q{SELECT current_setting('uid.wal_reservations') = 'off'})
  or die 'uid.wal_reservations did not turn off';
$primary->safe_psql('postgres', q{INSERT INTO t (v) SELECT 'c' FROM generate_series(1, 1000)});
$primary->safe_psql('postgres', 'CHECKPOINT');
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
$rows = check($primary);
like(row_of($rows, 'uid.wal_reservations'), qr/^t\|/, 'c) reservations off: ready');
like(row_of($rows, 'crash recovery'), qr/^t\|.*past uid's last record/, 'c) after the CHECKPOINT, crash recovery is ready');
like(row_of($rows, 'logical slot "s"'), qr/^f\|.*resource manager with ID 219 not registered/,
	'c) the disabled subscription\'s slot lags: not ready, and the detail says what would fail');
like(row_of($rows, 'logical slot "cdc"'), qr/^f\|/, 'c) the unread slot lags: not ready');
like(row_of($rows, 'physical slot "standby_slot"'), qr/^t\|/, 'c) the standby\'s slot is past the last record');
like($rows, qr/^t\|standby of WAL sender \d+\|/m, 'c) the standby has replayed past the last record');
like(row_of($rows, 'uid can leave shared_preload_libraries'), qr/^f\|/, 'c) the verdict: not ready');

# ---------------------------------------------------------------------------
# d) what the check prevents: restarted without uid while the slots lag
# ---------------------------------------------------------------------------
$primary->stop;
$primary->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
$primary->start;
($ret, $out, $err) = $primary->psql('postgres', cdc_changes($primary, 'pg_logical_slot_peek'));
like($err, qr/resource manager with ID 219 not registered/,
	"d) without uid, decoding the lagging $cdc_plugin slot fails");
$log_at = -s $primary->logfile;
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION s ENABLE');
$primary->wait_for_log(qr/resource manager with ID 219 not registered/, $log_at);
pass('d) without uid, the subscription\'s WAL sender fails on uid\'s record');
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION s DISABLE');
$primary->stop;
$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'uid'\n");
$primary->start;

# ---------------------------------------------------------------------------
# e) with uid loaded, both slots decode over uid's records; then ready
# ---------------------------------------------------------------------------
$rows = check($primary);
like(row_of($rows, 'uid can leave shared_preload_libraries'),
	qr/^f\|.*no uid WAL record was written or replayed since the server started; .*\(conservative\)$/,
	'e) after a clean restart the check bounds the last record by the redo point it started from');
$sub->safe_psql('postgres', 'ALTER SUBSCRIPTION s ENABLE');
$primary->wait_for_catchup('s');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM t'), '2000',
	'e) pgoutput decodes over uid\'s records: every row reached the subscriber');
is($primary->safe_psql('postgres', cdc_changes($primary, 'pg_logical_slot_get')), '2000',
	"e) $cdc_plugin decodes over uid's records: every insert");
# The slots' restart_lsn moves at the next snapshot of running transactions
# (a CHECKPOINT writes one) that their consumers have confirmed: poll.
my $ready = 0;
my $until = time + $PostgreSQL::Test::Utils::timeout_default;
while (time < $until)
{
	$primary->safe_psql('postgres', 'CHECKPOINT');
	$primary->safe_psql('postgres', cdc_changes($primary, 'pg_logical_slot_get'));
	$rows = check($primary);
	$ready = 1, last if row_of($rows, 'uid can leave shared_preload_libraries') =~ /^t\|/;
	select(undef, undef, undef, 0.1);
}
ok($ready, 'e) once both slots have passed uid\'s last record, the check says ready')
  or diag($rows);

# ---------------------------------------------------------------------------
# f) the restart without uid
# ---------------------------------------------------------------------------
$primary->stop;
$primary->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
$primary->start;
ok(1, 'f) the server starts without uid');
$primary->safe_psql('postgres', q{INSERT INTO t SELECT g, 'f' FROM generate_series(1, 100) g});
$primary->wait_for_catchup('s');
is($sub->safe_psql('postgres', q{SELECT count(*) FROM t WHERE v = 'f'}), '100',
	'f) the subscription keeps replicating new rows');
is($primary->safe_psql('postgres', cdc_changes($primary, 'pg_logical_slot_get')), '100',
	"f) the $cdc_plugin slot decodes the new rows");
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
is($standby->safe_psql('postgres', q{SELECT count(*) FROM t WHERE v = 'f'}), '100',
	'f) the standby keeps replaying');

# The standby's turn (step 6): reservations off there, a restartpoint past
# the last record it replayed, its own check, a restart without uid.
$standby->safe_psql('postgres', q{
	ALTER SYSTEM SET uid.wal_reservations = off;
	SELECT pg_reload_conf();});
$standby->poll_query_until('postgres', q{SELECT current_setting('uid.wal_reservations') = 'off'})
  or die 'uid.wal_reservations did not turn off on the standby';
$standby->safe_psql('postgres', 'CHECKPOINT');
$rows = check($standby);
like(row_of($rows, 'restart of this standby'), qr/^t\|/, 'f) on the standby, a restartpoint is past the last record it replayed');
like(row_of($rows, 'uid can leave shared_preload_libraries'), qr/^t\|.*\(replayed since the server started\)$/,
	'f) the standby\'s own check says ready, from the records it replayed')
  or diag($rows);
$standby->stop;
$standby->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
$standby->start;
$primary->safe_psql('postgres', q{INSERT INTO t SELECT g, 'g' FROM generate_series(101, 150) g});
$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
is($standby->safe_psql('postgres', q{SELECT count(*) FROM t WHERE v = 'g'}), '50',
	'f) the standby restarted without uid keeps replaying');

done_testing();
