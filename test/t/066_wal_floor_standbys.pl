# Standbys that share the static worker id of their primary (6, as one
# configuration copied to every member gives), promoted with their clocks
# behind the old primary's: each starts above every ID the old primary
# returned, stored or not, from the reservations in the WAL it replayed
# (src/floor/wal_floor.c):
#  a) a standby fed by restore_command only (no connection to the primary);
#  b) a cascading standby (primary -> standby -> standby);
#  c) a synchronous standby, promoted after the primary is frozen (SIGSTOP
#     of the postmaster and every child, as a hung machine) right after
#     returning IDs: the primary waited for the standby to flush each
#     reservation before issuing past the previous one;
#  d) (before c) the wait itself: with the standby's WAL receiver frozen, a
#     call that needs a new reservation waits (wait event SyncRep), a cancel
#     ends it with 57014 and no ID, and the call returns once the receiver
#     runs again.
#
# In each, the primary commits IDs, then its clock jumps 60 s forward and it
# returns IDs by a plain SELECT (no commit, so no replayed commit time covers
# them), then it dies or freezes.  The promoted standby's clock is set 30 s
# behind the largest ID returned, after the last commit: a uid that went
# only by the replayed commit would issue below that ID there.  Its first
# call must refuse (UID01) or return an ID above it.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my %uid_conf = (
	'uid.worker_id'         => 6,
	'uid.clock_max_wait_ms' => 1000,
	'uid.reserve_window_ms' => 1000);

# A primary with its clock file; returns ($node, $clock).
sub new_primary
{
	my ($name, %extra) = @_;
	my $node = uid_node($name, %uid_conf, %extra,
		init => { allows_streaming => 1, has_archiving => 1 });
	my $clock = $node->basedir . '/faketime.rc';
	faketime_start($node, $clock);
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uid;
		CREATE TABLE t (id bigint PRIMARY KEY);});
	return ($node, $clock);
}

# A standby of $upstream from its backup $backup, with the lines $conf added
# to its configuration; returns ($node, $clock).
sub new_standby
{
	my ($name, $upstream, $backup, $conf, %how) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init_from_backup($upstream, $backup, %how);
	$node->append_conf('postgresql.conf', $conf);
	my $clock = $node->basedir . '/faketime.rc';
	faketime_start($node, $clock);
	return ($node, $clock);
}

# Commits IDs, moves the primary's clock 60 s forward and returns IDs by a
# plain SELECT; returns the largest ID returned.
sub commit_then_return
{
	my ($primary, $clock) = @_;
	$primary->safe_psql('postgres', 'INSERT INTO t SELECT uid_next() FROM generate_series(1, 2000)');
	set_clock($clock, '+60');
	my $max = 0;
	for (1 .. 5)
	{
		my $m = $primary->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(1000) x');
		$max = $m if $m > $max;
	}
	return $max;
}

# Promotes $standby with its clock 30 s behind $max (30 s after the last
# commit: a margin a promotion on a loaded machine cannot use up); asserts
# the first call.
sub promote_behind
{
	my ($standby, $clock, $max, $what) = @_;
	set_clock($clock, offset_to(id_unix_ms($max) - 30000));
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die "$what: the promotion did not end";
	nothing_at_or_below($standby, $max, $what);
	set_clock($clock, offset_to(id_unix_ms($max) + 2000));
	cmp_ok($standby->safe_psql('postgres', 'SELECT uid_next()'), '>', $max,
		"$what: with the clock past it, IDs continue above");
	is($standby->safe_psql('postgres', 'SELECT floor_source FROM uid_stats'), 'wal',
		"$what: uid_stats.floor_source: wal");
	return;
}

# ---------------------------------------------------------------------------
# a) a standby fed by restore_command only
# ---------------------------------------------------------------------------
my ($p1, $p1_clock) = new_primary('primary_a');
$p1->backup('a');
my ($archive_standby, $as_clock) =
  new_standby('restore_only', $p1, 'a', '', has_restoring => 1, standby => 1);
ok($archive_standby->safe_psql('postgres', q{SHOW primary_conninfo}) eq '',
	'a) the standby has no connection to its primary (restore_command only)');
my $max = commit_then_return($p1, $p1_clock);
# uuid7() issues on a hot standby from a generator of its own: its
# reservations go to uid.hwm only, a standby writes no WAL
like($archive_standby->safe_psql('postgres', 'SELECT uuid7()'), qr/^[0-9a-f]{8}-[0-9a-f]{4}-7/,
	'a) uuid7() works on the standby');
my $end = $p1->safe_psql('postgres', 'SELECT pg_switch_wal()');
my $seg = $p1->safe_psql('postgres', "SELECT pg_walfile_name('$end')");
$p1->poll_query_until('postgres', qq{SELECT last_archived_wal >= '$seg' FROM pg_stat_archiver})
  or die 'a) the WAL was not archived';
kill9_all($p1);
$archive_standby->poll_query_until('postgres', qq{SELECT pg_last_wal_replay_lsn() >= '$end'})
  or die 'a) the standby did not replay the archive';
promote_behind($archive_standby, $as_clock, $max, 'a) restore_command-only standby');
like(slurp_file($archive_standby->logfile),
	qr/uid: uid_next\(\) issues only after .*, the end of the reservation of worker id 6 in the replayed WAL/,
	'a) the promoted standby logs the floor it took from the WAL, and the worker id that reserved it');
$archive_standby->stop;

# ---------------------------------------------------------------------------
# b) a cascading standby
# ---------------------------------------------------------------------------
my ($p2, $p2_clock) = new_primary('primary_b');
$p2->backup('b');
my ($middle, $middle_clock) = new_standby('middle', $p2, 'b', '', has_streaming => 1);
$middle->backup('b2');
my ($leaf, $leaf_clock) = new_standby('leaf', $middle, 'b2', '', has_streaming => 1);
$max = commit_then_return($p2, $p2_clock);
$end = $p2->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
$p2->wait_for_catchup($middle, 'replay', $end);
$middle->wait_for_catchup($leaf, 'replay', $end);
kill9_all($p2);
$middle->stop;
promote_behind($leaf, $leaf_clock, $max, 'b) cascading standby');
$leaf->stop;

# ---------------------------------------------------------------------------
# c) a synchronous standby, the primary frozen right after issuing
# ---------------------------------------------------------------------------
my ($p3, $p3_clock) = new_primary('primary_c');
$p3->backup('c');
my ($sync, $sync_clock) = new_standby('sync1', $p3, 'c', '', has_streaming => 1);
$p3->safe_psql('postgres', q{ALTER SYSTEM SET synchronous_standby_names = 'sync1'; SELECT pg_reload_conf()});
$p3->poll_query_until('postgres',
	q{SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync1'})
  or die 'c) the standby did not become synchronous';
my $waits_before = $p3->safe_psql('postgres',
	q{SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'});
is($waits_before, '1', 'c) one synchronous standby');

# While the standby's WAL receiver is frozen (SIGSTOP: it neither flushes
# nor answers), a call that needs a new reservation waits for it as a commit
# does (wait event SyncRep); a cancel ends the wait with an error and no ID;
# once the receiver runs again, the call returns.
sub call_in_background
{
	my ($node) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-XAt', '-v', 'VERBOSITY=verbose', '-d', $node->connstr('postgres'),
		  '-c', 'SELECT uid_next() /* waits */' ],
		'<', \$in, '>', \$out, '2>', \$err);
	return ($h, \$out, \$err);
}
my $receiver = $sync->safe_psql('postgres', 'SELECT pid FROM pg_stat_wal_receiver');
my $waiting = q{SELECT pid FROM pg_stat_activity
	WHERE query LIKE 'SELECT uid_next() /* waits */%' AND wait_event = 'SyncRep'};
set_clock($p3_clock, '+5');    # past the reservation: the next call extends it
kill 'STOP', $receiver;
my ($h, $out, $err) = call_in_background($p3);
$p3->poll_query_until('postgres', "SELECT EXISTS ($waiting)")
  or die 'd) the call did not wait for the synchronous standby';
ok(1, 'd) with the standby frozen, a call needing a new reservation waits (SyncRep)');
$p3->safe_psql('postgres', "SELECT pg_cancel_backend(pid) FROM ($waiting) w");
$h->finish;
like($$err, qr/ERROR:\s+57014: uid: canceled while waiting for the synchronous standbys to confirm a reservation of time/,
	'd) a cancel during the wait raises 57014, naming the reservation');
is($$out, '', 'd) and returns no ID');
($h, $out, $err) = call_in_background($p3);
$p3->poll_query_until('postgres', "SELECT EXISTS ($waiting)")
  or die 'd) the second call did not wait';
kill 'CONT', $receiver;
$h->finish;
like($$out, qr/^\d+$/, 'd) once the standby runs again, the waiting call returns its ID');
# The standby's primary watch learns the primary's clock offset about once
# a second, and its floor at promotion is the standby's clock plus the last
# offset learned: were the primary's clock 60 s ahead when last asked, that
# floor would be the standby's clock 60 s ahead, above what the WAL gives.
# This case is about the WAL alone, so the standby's clock moves ahead with
# the primary's, first: whenever the watch last asked, the offset it learned
# is at most what it is now (about 0), and the floor it adds at promotion is
# below the one from the WAL (TAP 063 proves the watch's own case).
set_clock($sync_clock, '+60');
$max = commit_then_return($p3, $p3_clock);
freeze_all($p3);
promote_behind($sync, $sync_clock, $max, 'c) synchronous standby, the primary frozen');
kill9_all($p3);
$sync->stop;

done_testing();
