# Issued time in the WAL (src/floor/wal_floor.c, docs/guarantees.md): every
# reservation of time is also a WAL record, and a server replaying the WAL
# starts above every reservation it replayed, without uid.hwm and without a
# replayed commit to go by.  One server with static worker id 6, its wall
# clock moved at run time by libfaketime:
#  a) pg_waldump lists the records under uid's resource manager ID, and
#     pg_walinspect (where installed) describes them;
#  b) kill -9 of the whole server, uid.hwm removed, the clock 20 s behind:
#     nothing at or below the largest ID returned before the crash (stored
#     or not), and uid_stats names the WAL as the floor's source;
#  c) a checkpoint between the last reservation and the crash: the next new
#     millisecond writes the reservations again, so the crash recovery,
#     which starts at that checkpoint, replays them;
#  c2) a checkpoint and no value after it, kill -9, uid.hwm removed, the
#     clock 20 s behind: the recovery replays no reservation, so nothing
#     says where the earlier values end, and uid_next() and uuid7() refuse
#     (UID07, a hint naming uid_advance_past() / uuid7_advance_past() and
#     the latest time known) until those are given the largest values
#     stored; then they issue above them, and a restart keeps that;
#  d) a base backup restored with its backup_label only (no recovery
#     signal), whose uid.hwm was copied before the IDs were returned;
#  e) point-in-time recovery to a restore point after a reservation whose
#     IDs were returned by a plain SELECT (no commit after them).
#
# "Nothing at or below the maximum" is asserted for the first call made
# with the clock behind that maximum (checked in the same statement): the
# call must either refuse (UID01, the clock being behind the floor by more
# than it waits) or return an ID above the maximum.  On a uid without WAL
# records these calls return IDs below it.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use File::Copy ();
use PostgreSQL::Test::RecursiveCopy;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my %conf = (
	'uid.worker_id'         => 6,
	'uid.clock_max_wait_ms' => 1000,
	'uid.reserve_window_ms' => 1000,
	checkpoint_timeout      => '1h');
my $node = uid_node('walfloor', %conf, new => {}, init => { has_archiving => 1, allows_streaming => 1 });
my $clock = $node->basedir . '/faketime.rc';
faketime_start($node, $clock);
$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id bigint PRIMARY KEY);});
my $has_walinspect = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_walinspect'});
$node->safe_psql('postgres', 'CREATE EXTENSION pg_walinspect') if $has_walinspect;

# The number of uid's records between two LSNs, as pg_waldump lists them.
sub uid_records
{
	my ($from, $to) = @_;
	my ($dump) = run_command([ 'pg_waldump', '-p', $node->data_dir . '/pg_wal',
		'-s', $from, '-e', $to, '-r', 'custom219' ]);
	return scalar(grep { /rmgr: custom219/ } split /\n/, $dump);
}

# Commits 2,000 IDs, then returns 1,000 more by a plain SELECT; returns the
# largest ID returned.
sub issue
{
	my ($n) = @_;
	$n->safe_psql('postgres', 'INSERT INTO t SELECT uid_next() FROM generate_series(1, 2000)');
	return $n->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(1000) x');
}

# ---------------------------------------------------------------------------
# a) the records, in pg_waldump and pg_walinspect
# ---------------------------------------------------------------------------
my $start_lsn = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
my $max = issue($node);
my $end_lsn = $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
cmp_ok(uid_records($start_lsn, $end_lsn), '>=', 1,
	'a) pg_waldump lists the reservation records (resource manager custom219)');
SKIP:
{
	skip 'pg_walinspect is not installed (a contrib module; the test builds of 16 and later have no contrib)', 1
	  unless $has_walinspect;
	my $desc = $node->safe_psql('postgres', qq{
		SELECT resource_manager || ' ' || record_type || ' ' || description
		FROM pg_get_wal_records_info('$start_lsn', '$end_lsn')
		WHERE resource_manager = 'uid' ORDER BY start_lsn DESC LIMIT 1});
	like($desc, qr/^uid RESERVED worker id 6; uid_next\(\) reserved through \d{4}-/,
		'a) pg_walinspect names the resource manager "uid" and describes the worker id and the reservation');
}

# ---------------------------------------------------------------------------
# b) kill -9, uid.hwm removed, the clock 20 s behind
# ---------------------------------------------------------------------------
$max = issue($node);
kill9_all($node);
unlink $node->data_dir . '/uid.hwm' or die "could not remove uid.hwm: $!";
set_clock($clock, offset_to(id_unix_ms($max) - 20000));
faketime_start($node, $clock);
nothing_at_or_below($node, $max, 'b) crash, uid.hwm removed, clock 20 s behind');
like(slurp_file($node->logfile), qr/uid: recovery replayed \d+ reservation records; uid_next\(\) issues only after .* \(reserved by worker id 6\)/,
	'b) the end of the recovery logs the replayed reservations');
is($node->safe_psql('postgres', 'SELECT floor_source FROM uid_stats'), 'wal',
	'b) uid_stats.floor_source: wal');
set_clock($clock, '+0');
cmp_ok($node->safe_psql('postgres', 'SELECT uid_next()'), '>', $max,
	'b) with the clock back, IDs continue above');
like(slurp_file($node->logfile), qr/WARNING:.*uid: uid_next\(\) issues only after .*replayed WAL.*\n.*DETAIL:\s+uid\.hwm was missing/,
	'b) a WARNING says that the WAL stood in for the missing uid.hwm');

# ---------------------------------------------------------------------------
# c) a checkpoint after the reservation, then the crash
# ---------------------------------------------------------------------------
$max = issue($node);
$node->safe_psql('postgres', 'CHECKPOINT');
my $redo = $node->safe_psql('postgres', 'SELECT redo_lsn FROM pg_control_checkpoint()');
# a new millisecond after the checkpoint began writes the reservations again
my $max_after = $node->safe_psql('postgres', 'SELECT uid_next()');
$max = $max_after if $max_after > $max;
cmp_ok(uid_records($redo, $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()')), '>=', 1, 'c) after a checkpoint, the next new millisecond writes the reservations again');
kill9_all($node);
unlink $node->data_dir . '/uid.hwm' or die "could not remove uid.hwm: $!";
set_clock($clock, offset_to(id_unix_ms($max) - 20000));
faketime_start($node, $clock);
nothing_at_or_below($node, $max, 'c) crash after a checkpoint, uid.hwm removed, clock 20 s behind');
set_clock($clock, '+0');
$node->safe_psql('postgres', 'SELECT uid_next()');

# ---------------------------------------------------------------------------
# c2) a checkpoint and no value after it, then the crash, uid.hwm removed
# ---------------------------------------------------------------------------
$max = issue($node);
my $umax = $node->safe_psql('postgres', 'SELECT u FROM (SELECT uuid7() AS u FROM generate_series(1, 1000)) s ORDER BY u DESC LIMIT 1');
$node->safe_psql('postgres', 'CHECKPOINT');
kill9_all($node);
unlink $node->data_dir . '/uid.hwm' or die "could not remove uid.hwm: $!";
ok(-e $node->data_dir . '/uid.issued', 'c2) uid.issued says values were issued here');
set_clock($clock, offset_to(id_unix_ms($max) - 20000));
my $c2_log = -s $node->logfile;
faketime_start($node, $clock);
ok($node->log_contains(qr/WARNING: .*"uid\.hwm" is missing or empty, but "uid\.issued" says values were issued/, $c2_log),
	'c2) start-up warns that uid.hwm is missing where values were issued');
# The fault this guards against returned 16 IDs at or below $max in 16 s:
# every call refuses instead, and none returns an ID.
my @c2_states;
my $c2_returned = 0;
for my $i (1 .. 5)
{
	my ($behind, $state, $id, $err) = UidTap::first_call($node, $max);
	is($behind, 't', "c2) call $i: the clock is behind the largest ID returned before the crash");
	push @c2_states, $state;
	$c2_returned++ if $id ne '';
	like($err, qr/HINT:\s+Call uid_advance_past\(\) with the largest value stored.*latest time this server knows of is \d{4}-\d\d-\d\d [\d:.]+\+00 \(this server's clock\)/s,
		"c2) call $i: the hint names uid_advance_past() and the latest time known") if $i == 1;
}
is(join(',', @c2_states), 'UID07,UID07,UID07,UID07,UID07', 'c2) uid_next() refuses with UID07, every time');
is($c2_returned, 0, 'c2) no ID was returned, so none at or below the largest before the crash');
my ($c2_state, $c2_err) = sqlstate_of($node, 'SELECT count(*) FROM uid_next_batch(100)');
is($c2_state, 'UID07', 'c2) uid_next_batch() refuses too');
($c2_state, $c2_err) = sqlstate_of($node, 'SELECT uuid7()');
is($c2_state, 'UID07', 'c2) uuid7() refuses too (its floor is just as unknown)');
like($c2_err, qr/HINT:\s+Call uuid7_advance_past\(\)/, 'c2) ... naming uuid7_advance_past()');
is($node->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats'), '0', 'c2) uid_stats counts no ID issued');
is($node->safe_psql('postgres', 'SELECT floor_source FROM uid_stats'), 'lost', 'c2) uid_stats.floor_source: lost');
# the operator gives the largest values stored
is($node->safe_psql('postgres', "SELECT uid_advance_past($max)"), 't',
	'c2) uid_advance_past() with the largest stored ID');
($c2_state) = sqlstate_of($node, 'SELECT uid_next()');
is($c2_state, 'UID01', 'c2) then uid_next() waits for the clock to pass that ID (UID01), no longer UID07');
is($node->safe_psql('postgres', "SELECT uuid7_advance_past('$umax')"), 't',
	'c2) uuid7_advance_past() with the largest stored UUID');
is($node->safe_psql('postgres', "SELECT uuid7() > '$umax'"), 't',
	'c2) uuid7() issues again, above that UUID, with the clock still behind it');
my ($c2_uid_ms, $c2_flags, $c2_uuid7_ms) = read_hwm($node);
cmp_ok($c2_uid_ms, '>=', id_unix_ms($max) - uid_epoch_ms(), 'c2) uid.hwm is written again, covering that ID');
is($c2_flags, 0, 'c2) ... and says no floor is lost');
set_clock($clock, '+0');
cmp_ok($node->safe_psql('postgres', 'SELECT uid_next()'), '>', $max,
	'c2) with the clock back, uid_next() issues above the largest stored ID');
# a further crash and restart with the clock behind: no UID07 again
$max = $node->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(100) x');
kill9_all($node);
set_clock($clock, offset_to(id_unix_ms($max) - 20000));
faketime_start($node, $clock);
my ($c2_behind, $c2_state2, $c2_id) = UidTap::first_call($node, $max);
isnt($c2_state2, 'UID07', 'c2) after a further crash and restart, no UID07: uid.hwm was written');
nothing_at_or_below($node, $max, 'c2) further restart, clock 20 s behind');
set_clock($clock, '+0');
$node->safe_psql('postgres', 'SELECT uid_next()');

# ---------------------------------------------------------------------------
# d) a base backup restored with its backup_label only
# ---------------------------------------------------------------------------
# A non-exclusive backup: pg_backup_start and pg_backup_stop in one session;
# the data files (uid.hwm among them) are copied first, the IDs returned
# afterwards with the clock 30 s ahead, so that the copied uid.hwm is behind
# them and only the WAL knows of them.  From here on the server's clock only
# moves forward (its IDs are ahead of the real time).
my $bk = $node->background_psql('postgres');
$bk->query_safe('SET client_min_messages = warning');
$bk->query_safe(q{SELECT pg_backup_start('walfloor', true)});
my $copy = PostgreSQL::Test::Cluster->new('walfloor_copy');
my $copy_dir = $copy->data_dir;
PostgreSQL::Test::RecursiveCopy::copypath($node->data_dir, $copy_dir,
	filterfn => sub { my $p = shift; return $p !~ m{^(postmaster\.pid|pg_wal/.+|backup_label)$}; });
set_clock($clock, '+30');
$max = issue($node);
my $label = $bk->query_safe(q{SELECT labelfile FROM pg_backup_stop(true)});
$bk->quit;
$label =~ s/^\s+//;
$label .= "\n" unless $label =~ /\n\z/;
append_to_file("$copy_dir/backup_label", $label);
# the WAL of the backup, from the live pg_wal (no archive, no recovery signal)
$node->safe_psql('postgres', 'SELECT pg_switch_wal()');
for my $f (glob($node->data_dir . '/pg_wal/0*'))
{
	File::Copy::copy($f, "$copy_dir/pg_wal/") or die "could not copy $f: $!";
}
$copy->append_conf('postgresql.conf', "port = " . $copy->port . "\narchive_mode = off\n");
chmod 0700, $copy_dir or die "could not chmod $copy_dir: $!";
ok(!-e "$copy_dir/recovery.signal" && !-e "$copy_dir/standby.signal",
	'd) the copy has its backup_label and no recovery signal');
my $copy_clock = $copy->basedir . '/faketime.rc';
set_clock($copy_clock, offset_to(id_unix_ms($max) - 20000));
faketime_start($copy, $copy_clock);
nothing_at_or_below($copy, $max, 'd) base backup with its backup_label only, clock 20 s behind');
$copy->stop;

# ---------------------------------------------------------------------------
# e) point-in-time recovery to a restore point after a reservation
# ---------------------------------------------------------------------------
$node->backup('pitr_base');
$node->safe_psql('postgres', 'INSERT INTO t SELECT uid_next() FROM generate_series(1, 100)');
my $commit_ms = $node->safe_psql('postgres',
	q{SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint});
# 60 s later by the server's clock: IDs returned by a plain SELECT, no commit
set_clock($clock, '+90');
$max = $node->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(1000) x');
$node->safe_psql('postgres', q{SELECT pg_create_restore_point('after_reservation')});
my $seg = $node->safe_psql('postgres', 'SELECT pg_walfile_name(pg_switch_wal())');
$node->poll_query_until('postgres', qq{SELECT last_archived_wal >= '$seg' FROM pg_stat_archiver})
  or die 'the WAL was not archived';
my $pitr = PostgreSQL::Test::Cluster->new('walfloor_pitr');
$pitr->init_from_backup($node, 'pitr_base', has_restoring => 1);
$pitr->append_conf('postgresql.conf',
	"recovery_target_name = 'after_reservation'\nrecovery_target_action = 'promote'\n");
# its clock after the last replayed commit and 45 s behind the returned IDs,
# a margin the recovery from the archive (slow on a loaded machine) cannot use up
my $pitr_clock = $pitr->basedir . '/faketime.rc';
set_clock($pitr_clock, offset_to($commit_ms + 15000));
faketime_start($pitr, $pitr_clock);
$pitr->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the point-in-time recovery did not end';
nothing_at_or_below($pitr, $max, 'e) PITR to a restore point after IDs returned without a commit');
$pitr->stop;

$node->stop;
done_testing();
