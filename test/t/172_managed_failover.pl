# uid_managed (docs/managed.md) across a failover and a point-in-time
# recovery, on servers that do not load uid: 8 sessions commit one row
# (session, n, uid_next(), uuid7()) a transaction while the fault is made.
#
#  a) Promotion.  A primary with three standbys: two asynchronous, one
#     synchronous (synchronous_commit = remote_apply).  Under load, the WAL
#     senders of the two asynchronous standbys are frozen (SIGSTOP), the
#     primary commits 2,000 more rows that reach only the synchronous one,
#     then every process of the primary stops (SIGSTOP) and is killed
#     (SIGKILL), and each
#     standby is promoted.  The old primary, restarted on its own, gives
#     every row it committed.
#       - Each promoted standby issues above every id of every row it
#         received, and above every id whose sequence record it replayed:
#         its sequence state is the replicated one.
#       - The synchronous standby has every row whose commit returned (all
#         but at most the last row of each session, in flight at the kill).
#       - The rows the asynchronous standbys did not receive are lost with
#         their ids.  Those ids are not issued again where the promoted
#         server's clock is past them (standby "same_clock", as the next
#         call steps the state to the clock), and are issued again where
#         it is behind them (standby "behind", its clock 2 s behind its
#         replicated state): every one of them the promoted server's run
#         of states passes, exactly.
#  b) Point-in-time recovery.  A base backup, WAL archived; under load, ids
#     returned by a plain SELECT, a named restore point, 3,000 more rows;
#     recovery to the restore point, twice:
#       - every new id is above every id committed before the target and
#         above those returned without a commit before it;
#       - the ids of rows committed after the target, which the recovered
#         server forgets, are not issued again where its clock is past
#         them ("pitr_same_clock"), and are where it is behind them
#         ("pitr_behind"), exactly as in a).
# Each session's ids and UUIDs are strictly increasing, on the old server
# and on the new one across the fault.  No sleeps: every wait polls for a
# state or an LSN.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use POSIX ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $tmp   = PostgreSQL::Test::Utils::tempdir('uid_managed');
my $sessions = 8;

# Roles owner (installs uid_managed into schema ids of database m) and app
# (issues ids); table log of the load; s_of() and s7_of(), the generator
# states (ms << 12 | sequence) of an id of worker 0 and of a UUID.
sub set_up
{
	my ($node) = @_;
	$node->safe_psql('postgres', 'CREATE ROLE owner LOGIN NOSUPERUSER');
	$node->safe_psql('postgres', 'CREATE ROLE app LOGIN NOSUPERUSER');
	$node->safe_psql('postgres', 'CREATE DATABASE m OWNER owner');
	install_managed($node, 'm', 'owner', 'ids',
		$node->name . ': the plain script installs uid_managed as its owner');
	$node->safe_psql(
		'm', q{
		GRANT USAGE ON SCHEMA ids TO app;
		CREATE TABLE log (session int, n int, id bigint, u uuid, PRIMARY KEY (session, n));
		GRANT INSERT, SELECT ON log TO app;},
		extra_params => [ '-U', 'owner' ]);
	$node->safe_psql(
		'm', q{
		CREATE FUNCTION s_of(id bigint) RETURNS bigint IMMUTABLE LANGUAGE sql
		  AS 'SELECT ((id >> 22) << 12) | (id & 4095)';
		CREATE FUNCTION s7_of(u uuid) RETURNS bigint IMMUTABLE LANGUAGE sql
		  AS $$SELECT ((('x' || lpad(substr(replace(u::text, '-', ''), 1, 12), 16, '0'))::bit(64)::bigint
		                - 1767225600000) << 12)
		            | ('x' || lpad(substr(replace(u::text, '-', ''), 14, 3), 16, '0'))::bit(64)::bigint$$;});
	is($node->safe_psql('m', 'SHOW shared_preload_libraries'),
		'', $node->name . ': the server does not load uid');
	return;
}

# Starts $sessions sessions as app, each committing $rows rows (session k,
# n counting on from its last row in log, uid_next(), uuid7()), one a
# transaction; all are held at a gate until every one is connected, then
# start at once.  Returns the sessions.
sub start_load
{
	my ($node, $rows) = @_;
	my $gate = $node->background_psql('m');
	$gate->query_safe('SELECT pg_advisory_lock(172)');
	my @bg;
	for my $k (1 .. $sessions)
	{
		my $bg = $node->background_psql(
			'm',
			on_error_stop => 0,
			extra_params  => [ '-U', 'app' ]);
		$bg->query_until(
			qr/session $k connected/, qq{
\\echo session $k connected
SELECT pg_advisory_lock_shared(172);
SELECT pg_advisory_unlock_shared(172);
DO \$\$
DECLARE
  first int := (SELECT coalesce(max(n), 0) + 1 FROM log WHERE session = $k);
BEGIN
  FOR i IN first .. first + $rows - 1 LOOP
    INSERT INTO log VALUES ($k, i, ids.uid_next(), ids.uuid7());
    COMMIT;
  END LOOP;
END\$\$;
});
		push @bg, $bg;
	}
	$node->poll_query_until('m',
		"SELECT count(*) = $sessions FROM pg_locks WHERE locktype = 'advisory' AND objid = 172 AND NOT granted"
	) or die 'the sessions did not reach the gate';
	$gate->query_safe('SELECT pg_advisory_unlock(172)');
	$gate->quit;
	return @bg;
}

# Starts a node: under libfaketime (on the real time, until
# repeat_when_behind stops its clock) where its name says its clock is to
# fall behind, and without it where 8 sessions are to load it (there, under
# libfaketime, a backend once aborted in glibc's heap check of malloc()).
sub start_node
{
	my ($node) = @_;
	if ($node->name =~ /behind/)
	{
		set_clock(clock_file($node), '+0');
		faketime_start($node, clock_file($node));
	}
	else
	{
		$node->start;
	}
	return;
}

sub rows_of { return $_[0]->safe_psql('m', 'SELECT count(*) FROM log'); }

# Waits until $node's log holds at least $n rows.
sub wait_rows
{
	my ($node, $n) = @_;
	$node->poll_query_until('m', "SELECT count(*) >= $n FROM log")
	  or die $node->name . " did not reach $n rows";
	return;
}

# Every row of $node's log into file $file.
sub save_rows
{
	my ($node, $file) = @_;
	$node->safe_psql('m', "\\copy (SELECT session, n, id, u FROM log) TO '$file'");
	return;
}

# Waits until $node is out of recovery.
sub wait_promoted
{
	my ($node) = @_;
	$node->poll_query_until('m', 'SELECT NOT pg_is_in_recovery()')
	  or die $node->name . ' did not leave recovery';
	return;
}

# On a server that took over (promoted, or recovered to a target): table
# old with every row the old server committed (from $file), the rows of log
# marked as received (new = false, and true for rows added from now on),
# and the generator states it starts from.  Asserts that what it received
# is a part of what the old server committed, and that its state is at or
# above every id of it.  Returns the first states it will issue (uid_next,
# uuid7) and the number of rows it lost.
sub took_over
{
	my ($node, $file, $what) = @_;
	my $name = $node->name;
	$node->safe_psql('m', "CREATE TABLE old (session int, n int, id bigint, u uuid);\n\\copy old FROM '$file'");
	$node->safe_psql(
		'm', q{
		ALTER TABLE log ADD COLUMN new boolean NOT NULL DEFAULT false;
		ALTER TABLE log ALTER COLUMN new SET DEFAULT true;},
		extra_params => [ '-U', 'owner' ]);
	my ($next, $next7) = split /\|/, $node->safe_psql(
		'm', q{
		SELECT (SELECT last_value + is_called::int FROM ids.uid_managed_state),
		       (SELECT last_value + is_called::int FROM ids.uid_managed_uuid7_state)});
	my ($received, $foreign, $above) = split /\|/, $node->safe_psql(
		'm', qq{
		SELECT count(*),
		       count(*) FILTER (WHERE NOT EXISTS (
		         SELECT FROM old o WHERE (o.session, o.n, o.id, o.u) = (l.session, l.n, l.id, l.u))),
		       count(*) FILTER (WHERE s_of(id) >= $next OR s7_of(u) >= $next7)
		FROM log l});
	my $lost = $node->safe_psql('m',
		'SELECT count(*) FROM old o WHERE NOT EXISTS (SELECT FROM log l WHERE l.id = o.id)');
	note "$name: received $received rows, lost $lost; states from $next, $next7";
	is($foreign, '0', "$what: every row $name has was committed by the old server");
	is($above, '0',
		"$what: $name starts its generators above every id and UUID of the rows it has");
	return ($next, $next7, $lost);
}

# Asserts that the ids and UUIDs of every session are strictly increasing
# in table $table (the old server's rows, or log: received and new).
sub each_session_increasing
{
	my ($node, $table, $what) = @_;
	is( $node->safe_psql(
			'm', qq{
		SELECT count(*) FROM (
		  SELECT id, u, lag(id) OVER w AS prev_id, lag(u) OVER w AS prev_u
		  FROM $table WHERE session > 0 WINDOW w AS (PARTITION BY session ORDER BY n)) s
		WHERE id <= prev_id OR u <= prev_u}),
		'0', "$what: each session's ids and UUIDs are strictly increasing");
	return;
}

# A server that took over with its clock past every id of the old server:
# 8 sessions issue 300 ids and UUIDs each; none is at or below any the
# old server returned, lost or not, none is repeated, and each session's
# are strictly increasing across the fault.
sub continue_past
{
	my ($node, $what) = @_;
	my $name = $node->name;
	is( $node->safe_psql(
			'm', q{
		SELECT ids.uid_from_time(clock_timestamp()) > max(id),
		       (ids.uid_from_time(clock_timestamp()) >> 22) > max(s7_of(u) >> 12)
		FROM old}),
		't|t', "$what: the clock of $name is past every id and UUID the old server returned");
	my $new = 300 * $sessions;
	my $before = rows_of($node);
	my @load = start_load($node, 300);
	wait_rows($node, $before + $new);
	$_->quit for @load;
	my $all = $new + $node->safe_psql('m', 'SELECT count(*) FROM old');
	is( $node->safe_psql(
			'm', q{
		SELECT count(*), count(DISTINCT id), count(DISTINCT u)
		FROM (SELECT id, u FROM log WHERE new UNION ALL SELECT id, u FROM old) x}),
		"$all|$all|$all",
		"$what: $sessions sessions, 300 rows each: no id or UUID repeats, nor repeats one the old server returned");
	is( $node->safe_psql(
			'm', q{
		SELECT count(*) FROM log
		WHERE new AND (id <= (SELECT max(id) FROM log WHERE NOT new)
		               OR u <= (SELECT u FROM log WHERE NOT new ORDER BY u DESC LIMIT 1))}),
		'0', "$what: every new id and UUID is above every one $name received");
	is( $node->safe_psql(
			'm', q{
		SELECT count(*) FROM log
		WHERE new AND (id <= (SELECT max(id) FROM old)
		               OR u <= (SELECT u FROM old ORDER BY u DESC LIMIT 1))}),
		'0', "$what: and above every one the old server returned, lost or not");
	each_session_increasing($node, 'log', "$what, across the fault on $name");
	return;
}

# A server that took over, its clock frozen 2 s behind the state it starts
# from: one session issues uid_next() and uuid7() until both have passed
# the first lost id and UUID.  Asserts that the run of states starts where
# the replicated state says and has no gap, that it repeats no id of a row
# the server has and none whose state it replayed, and that it repeats
# every lost id it passes: exactly those, at least one.  UUIDs: the lost
# UUIDs' ms and counters come again, with other random bits.
sub repeat_when_behind
{
	my ($node, $what, $next, $next7) = @_;
	my $name = $node->name;
	my $frozen = POSIX::strftime('%Y-%m-%d %H:%M:%S',
		gmtime(int((($next >> 12) + uid_epoch_ms() - 2000) / 1000)));
	freeze_clock($node, $frozen);
	my ($first_lost, $first_lost7) = split /\|/, $node->safe_psql(
		'm', qq{
		SELECT (SELECT min(s_of(id)) FROM old WHERE s_of(id) >= $next),
		       (SELECT min(s7_of(u)) FROM old WHERE s7_of(u) >= $next7)});
	die "$name: no lost id above its state" if $first_lost eq '' || $first_lost7 eq '';
	is( $node->safe_psql(
			'm', qq{
		SELECT clock_timestamp() < ids.uid_time((SELECT min(id) FROM old WHERE s_of(id) >= $next))}),
		't', "$what: the clock of $name is behind the lost ids");
	my $count  = $first_lost - $next + 1 + 100;
	my $count7 = $first_lost7 - $next7 + 1 + 100;
	# Under load the old server issued in every ms or so, 4,096 states
	# apart; a state millions of states below the lost ids is not the
	# replicated one (and would take hours to run through).
	if ($count > 1_000_000 || $count7 > 1_000_000)
	{
		fail("$what: the first lost id and UUID lie $count and $count7 states past "
			  . "the state $name starts from, not within 1,000,000");
		return;
	}
	$node->safe_psql(
		'm', qq{
		CREATE TABLE behind_ids AS SELECT ids.uid_next() AS id FROM generate_series(1, $count);
		CREATE TABLE behind_uuids AS SELECT ids.uuid7() AS u FROM generate_series(1, $count7);},
		extra_params => [ '-U', 'owner' ]);
	is( $node->safe_psql(
			'm', q{
		SELECT min(s_of(id)), max(s_of(id)), count(DISTINCT id) FROM behind_ids}),
		"$next|" . ($next + $count - 1) . "|$count",
		"$what: $name issues $count ids in a run of states without a gap, from its replicated state");
	is( $node->safe_psql(
			'm', q{
		SELECT min(s7_of(u)), max(s7_of(u)), count(DISTINCT u) FROM behind_uuids}),
		"$next7|" . ($next7 + $count7 - 1) . "|$count7",
		"$what: and $count7 UUIDs likewise");
	is( $node->safe_psql(
			'm', qq{
		SELECT count(*) FROM behind_ids b
		WHERE b.id <= (SELECT max(id) FROM log)
		   OR b.id IN (SELECT id FROM old WHERE s_of(id) < $next)}),
		'0', "$what: no id of a row $name has, nor any whose state it replayed, comes again");
	is( $node->safe_psql(
			'm', qq{
		SELECT count(*) FROM behind_uuids b
		WHERE b.u <= (SELECT u FROM log ORDER BY u DESC LIMIT 1)
		   OR s7_of(b.u) IN (SELECT s7_of(u) FROM old WHERE s7_of(u) < $next7)}),
		'0', "$what: nor any UUID's time and counter");
	my ($repeated, $passed) = split /\|/, $node->safe_psql(
		'm', q{
		SELECT (SELECT count(*) FROM behind_ids b JOIN old o USING (id)),
		       (SELECT count(*) FROM old o
		        WHERE s_of(o.id) BETWEEN (SELECT min(s_of(id)) FROM behind_ids)
		                             AND (SELECT max(s_of(id)) FROM behind_ids))});
	cmp_ok($repeated, '>=', 1, "$what: $name issues again ids of rows it lost ($repeated)");
	is($repeated, $passed, "$what: exactly the lost ids its run of states passes ($passed)");
	my ($repeated7, $passed7) = split /\|/, $node->safe_psql(
		'm', q{
		SELECT (SELECT count(*) FROM behind_uuids b JOIN old o ON s7_of(o.u) = s7_of(b.u)),
		       (SELECT count(*) FROM old o
		        WHERE s7_of(o.u) BETWEEN (SELECT min(s7_of(u)) FROM behind_uuids)
		                             AND (SELECT max(s7_of(u)) FROM behind_uuids))});
	cmp_ok($repeated7, '>=', 1,
		"$what: and UUIDs with the time and counter of lost ones ($repeated7)");
	is($repeated7, $passed7, "$what: exactly those its run passes ($passed7)");
	return;
}

# ---------------------------------------------------------------------------
# a) promotion of a streaming standby, the primary killed under load
# ---------------------------------------------------------------------------
my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "max_connections = 40\n");
$primary->start;
set_up($primary);
$primary->backup('b');

my %standby;
for my $name ('same_clock', 'behind', 'sync')
{
	my $s = PostgreSQL::Test::Cluster->new($name);
	$s->init_from_backup($primary, 'b', has_streaming => 1);
	start_node($s);
	$primary->wait_for_catchup($s);
	$standby{$name} = $s;
}
$primary->safe_psql('postgres',
	"ALTER SYSTEM SET synchronous_standby_names = 'sync'");
$primary->safe_psql('postgres', 'ALTER SYSTEM SET synchronous_commit = remote_apply');
$primary->reload;
$primary->poll_query_until('postgres',
	q{SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 'sync'})
  or die 'the standby sync did not become synchronous';

my @load = start_load($primary, 1_000_000);
wait_rows($primary, 2000);

# The WAL senders of the asynchronous standbys freeze; the primary goes on
# committing, acknowledged by the synchronous standby alone.
my @walsenders = split /\n/, $primary->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_replication WHERE application_name IN ('same_clock', 'behind')});
is(scalar(@walsenders), 2, 'a) the WAL senders of the two asynchronous standbys');
kill 'STOP', @walsenders or die 'could not stop the WAL senders';
wait_rows($primary, rows_of($primary) + 2000);
# The primary fails as a machine does: every process stops at once
# (SIGSTOP), then dies (SIGKILL).  Killed one after another, a backend
# that outlives its postmaster stops waiting for the synchronous standby
# and commits on, with nobody told.
freeze_all($primary);
kill9_all($primary);
eval { $_->quit } for @load;

for my $s (values %standby)
{
	$s->promote;
	wait_promoted($s);
}

# The old primary, restarted on its own, has every row it committed.
$primary->start;
my $old_rows = "$tmp/primary.rows";
save_rows($primary, $old_rows);
$primary->stop;

my ($next, $next7, $lost) = took_over($standby{same_clock}, $old_rows, 'a) async');
cmp_ok($lost, '>=', 1, 'a) the asynchronous standby same_clock lost rows the primary committed');
each_session_increasing($standby{same_clock}, 'old', 'a) on the old primary');
continue_past($standby{same_clock}, 'a) async, clock past');

($next, $next7, $lost) = took_over($standby{sync}, $old_rows, 'a) sync');
is( $standby{sync}->safe_psql(
		'm', q{
	SELECT count(*) FROM (SELECT o.*, max(n) OVER (PARTITION BY session) AS last FROM old o) o
	WHERE o.n < o.last AND NOT EXISTS (SELECT FROM log l WHERE l.id = o.id)}),
	'0',
	"a) sync: the synchronous standby has every row whose commit returned (lost: $lost, each the last of its session)"
);
cmp_ok($lost, '<=', $sessions, 'a) sync: at most one row a session lost');
continue_past($standby{sync}, 'a) sync');

($next, $next7, $lost) = took_over($standby{behind}, $old_rows, 'a) async, clock behind');
cmp_ok($lost, '>=', 1, 'a) the asynchronous standby behind lost rows the primary committed');
repeat_when_behind($standby{behind}, 'a) async, clock behind', $next, $next7);

$_->stop for values %standby;

# ---------------------------------------------------------------------------
# b) point-in-time recovery to a restore point in the middle of the load
# ---------------------------------------------------------------------------
my $origin = PostgreSQL::Test::Cluster->new('origin');
$origin->init(allows_streaming => 1, has_archiving => 1);
$origin->append_conf('postgresql.conf', "max_connections = 40\n");
$origin->start;
set_up($origin);
$origin->backup('base');

@load = start_load($origin, 1_000_000);
wait_rows($origin, 3000);
# ids returned by a plain SELECT (no transaction id, no commit), then the target
my $plain = $origin->safe_psql('m', 'SELECT ids.uid_next(), ids.uuid7()',
	extra_params => [ '-U', 'app' ]);
$origin->safe_psql('m', q{SELECT pg_create_restore_point('mid')});
wait_rows($origin, rows_of($origin) + 3000);
$origin->safe_psql('postgres',
	q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename = 'app'});
$_->quit for @load;
$origin->poll_query_until('postgres',
	q{SELECT count(*) = 0 FROM pg_stat_activity WHERE usename = 'app'})
  or die 'the load did not stop';
my $origin_rows = "$tmp/origin.rows";
save_rows($origin, $origin_rows);
# the plain SELECT's id and UUID, as a row of session 0
{
	open my $fh, '>>', $origin_rows or die "could not append to $origin_rows: $!";
	my ($id, $u) = split /\|/, $plain;
	print $fh "0\t0\t$id\t$u\n";
	close $fh;
}
my $segment = $origin->safe_psql('postgres', 'SELECT pg_walfile_name(pg_current_wal_lsn())');
$origin->safe_psql('postgres', 'SELECT pg_switch_wal()');
$origin->poll_query_until('postgres',
	"SELECT last_archived_wal >= '$segment' FROM pg_stat_archiver")
  or die 'the WAL was not archived';
each_session_increasing($origin, 'log', 'b) on the origin');
$origin->stop;

for my $name ('pitr_same_clock', 'pitr_behind')
{
	my $r = PostgreSQL::Test::Cluster->new($name);
	$r->init_from_backup($origin, 'base', has_restoring => 1, standby => 0);
	$r->append_conf('postgresql.conf',
		"recovery_target_name = 'mid'\nrecovery_target_action = 'promote'\narchive_mode = off\n");
	# the restore command without libfaketime: its cp, started after pg_ctl
	# (which made libfaketime's shared memory, and removed it as it
	# exited) has returned, died of SIGBUS in libfaketime, and the
	# recovery with it
	my $archive = $origin->archive_dir;
	$r->append_conf('postgresql.conf', qq{restore_command = 'LD_PRELOAD= cp "$archive/%f" "%p"'\n});
	start_node($r);
	wait_promoted($r);
	my $what = $name eq 'pitr_behind' ? 'b) PITR, clock behind' : 'b) PITR, clock past';
	($next, $next7, $lost) = took_over($r, $origin_rows, $what);
	cmp_ok(rows_of($r), '>=', 3000, "$what: the rows committed before the target are there");
	cmp_ok($lost, '>=', 3000, "$what: the rows committed after it are not ($lost)");
	is( $r->safe_psql('m',
			"SELECT s_of(id) < $next AND s7_of(u) < $next7 FROM old WHERE session = 0"),
		't', "$what: the state is above the id and UUID returned by a plain SELECT before the target");
	if ($name eq 'pitr_behind')
	{
		repeat_when_behind($r, $what, $next, $next7);
	}
	else
	{
		continue_past($r, $what);
	}
	$r->stop;
}

done_testing();
