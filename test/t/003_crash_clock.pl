# The clock guard and the durable high-water mark (docs/guarantees.md,
# guarantees 1 and 3), with the server's wall clock stepped at run time by
# libfaketime:
#  a) a backward step within uid.clock_max_wait_ms is waited out;
#  b) a larger one is refused with UID01 until the clock is back;
#  c) kill -9 of the whole server mid-load, then restarts with the clock
#     behind the last issued ID: first by less than the reserve window
#     (waited out, the reservation in uid.hwm is honoured), then by far more
#     (refused until the clock is back);
#  d) immediate shutdown, restart with the clock behind: nothing at or below
#     the previous maximum;
#  e) a clean shutdown records the exact last issued time;
#  f) kill -9 of one backend: the crash-and-restart cycle re-reads uid.hwm;
#  g) a damaged uid.hwm makes uid_next() refuse until it is removed.
#
# Steps are made large compared with the time a psql round trip or a
# restart takes (8 to 60 s, not milliseconds), so that "the clock is behind
# the last issued ID when the call runs" holds on a machine loaded by the
# suites of several versions at once too; each such premise is
# checked in the same statement as the call, so the test cannot pass
# vacuously.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $node = uid_node(
	'clock',
	'uid.worker_id'         => 1,
	'uid.clock_max_wait_ms' => 20000,
	'uid.reserve_window_ms' => 1000,
	restart_after_crash     => 'on');
my $clock = $node->basedir . '/faketime.rc';
set_clock($clock, '+0');
faketime_start($node, $clock);

# Changes a SIGHUP setting in postgresql.conf and waits until it is in effect.
sub set_setting
{
	my ($name, $value) = @_;
	$node->adjust_conf('postgresql.conf', $name, "'$value'");
	$node->reload;
	$node->poll_query_until('postgres',
		"SELECT setting = '$value' FROM pg_settings WHERE name = '$name'")
	  or die "$name did not become $value";
	return;
}

sub stats
{
	my $row = $node->safe_psql('postgres',
		'SELECT ids_issued, clock_waits, clock_refusals, max_clock_step_ms FROM uid_stats'
	);
	my %s;
	@s{qw(ids waits refusals max_step)} = split /\|/, $row;
	return \%s;
}

sub max_id { return $node->safe_psql('postgres', 'SELECT max(id) FROM log'); }

# ms since the uid epoch of an ID
sub id_ms { return $_[0] >> 22; }

# Reads the clock and calls uid_next() in one statement (the target list is
# evaluated left to right): returns whether the clock was behind the ID $max
# right before the call, and the new ID, which is stored in log.
sub call_behind
{
	my ($max) = @_;
	my ($behind, $id) = split /\|/, $node->safe_psql('postgres',
		"SELECT clock_timestamp() < uid_time($max), uid_next()");
	$node->safe_psql('postgres', "INSERT INTO log (id) VALUES ($id)");
	return ($behind, $id);
}

# Starts a session that inserts uid_next() into log, one row per
# transaction, until the server dies.
sub start_load
{
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_until(
		qr/load started/, q{
\echo load started
DO $$BEGIN LOOP INSERT INTO log (id) VALUES (uid_next()); COMMIT; END LOOP; END$$;
});
	return $bg;
}

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE log (id bigint PRIMARY KEY, ord bigserial NOT NULL);});

# ---------------------------------------------------------------------------
# The fake clock is in effect
# ---------------------------------------------------------------------------
set_clock($clock, '-3600');
my $real = int(Time::HiRes::time());
is( $node->safe_psql(
		'postgres',
		"SELECT clock_timestamp() < to_timestamp($real - 1800)"),
	't',
	'libfaketime: "-3600" puts the server clock an hour back');
set_clock($clock, '+0');
$real = int(Time::HiRes::time());
is( $node->safe_psql(
		'postgres',
		"SELECT clock_timestamp() >= to_timestamp($real - 1)"),
	't',
	'libfaketime: "+0" puts it back');

# ---------------------------------------------------------------------------
# a) a backward step within uid.clock_max_wait_ms (20000) is waited out
# ---------------------------------------------------------------------------
$node->safe_psql('postgres',
	'INSERT INTO log (id) SELECT uid_next() FROM generate_series(1, 100)');
my $before = stats();
my $max = max_id();
set_clock($clock, '-8');
my ($behind, $id) = call_behind($max);
is($behind, 't', 'a) the clock read just before the call is behind the last ID');
my $after = stats();
ok($id > $max, 'a) after an 8 s backward step the new ID is above every earlier ID');
cmp_ok($after->{waits}, '>', $before->{waits},
	'a) uid_stats.clock_waits increased');
is($after->{refusals}, $before->{refusals}, 'a) nothing was refused');
cmp_ok($after->{max_step}, '>', 0, 'a) uid_stats.max_clock_step_ms recorded the step');
cmp_ok($after->{max_step}, '<=', 8000, 'a) ... and it is at most the 8 s step');
set_clock($clock, '+0');

# ---------------------------------------------------------------------------
# b) a larger step is refused with UID01, nothing is issued, and generation
#    resumes by itself when the clock is back
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', 'INSERT INTO log (id) VALUES (uid_next())');
$max    = max_id();
$before = stats();
set_clock($clock, '-60');
my ($state, $err) = sqlstate_of($node, 'INSERT INTO log (id) VALUES (uid_next())');
is($state, 'UID01', 'b) a 60 s backward step: uid_next() fails with UID01');
like($err, qr/HINT:.*clock/, 'b) ... with a hint about the clock');
($state, $err) = sqlstate_of($node, 'SELECT count(*) FROM uid_next_batch(5)');
is($state, 'UID01', 'b) uid_next_batch() fails with UID01 too');
$after = stats();
is($after->{ids}, $before->{ids}, 'b) no ID was issued while refusing');
cmp_ok($after->{refusals}, '>=', $before->{refusals} + 2,
	'b) uid_stats.clock_refusals counted both refusals');
cmp_ok($after->{max_step}, '>=', 40000,
	'b) max_clock_step_ms shows the 60 s step, well beyond uid.clock_max_wait_ms');
is(max_id(), $max, 'b) the table is unchanged');
set_clock($clock, '+0');
($id) = $node->safe_psql('postgres',
	'INSERT INTO log (id) VALUES (uid_next()) RETURNING id');
ok($id > $max, 'b) with the clock back, uid_next() works again, above every earlier ID');

# from here on only the reserve window matters for waiting
set_setting('uid.clock_max_wait_ms', 50);

# ---------------------------------------------------------------------------
# c1) kill -9 mid-load; restart with the clock 1 s behind the last stored ID
# ---------------------------------------------------------------------------
my $rows = $node->safe_psql('postgres', 'SELECT count(*) FROM log');
my $bg = start_load();
$node->poll_query_until('postgres',
	"SELECT count(*) >= $rows + 3000 FROM log")
  or die 'the load did not start';
kill9_all($node);
eval { $bg->quit };    # psql lost its server: ignore the broken pipe

my ($floor, $clean) = read_hwm($node);
is($clean, 0, 'c1) after kill -9, uid.hwm holds a reservation, not a clean record');

# The reservation may be up to one window (1 s) beyond the last issued ID;
# a clock 1 s behind that ID is then up to 2 s behind the reservation.
# Start with a 5 s window so that this is within what start-up waits out.
$node->adjust_conf('postgresql.conf', 'uid.reserve_window_ms', "'5000'");
set_clock($clock, '+0');
faketime_start($node, $clock);
$max = max_id();
cmp_ok(id_ms($max), '<', $floor,
	'c1) the reservation in uid.hwm lies beyond every stored ID');
is( $node->safe_psql(
		'postgres',
		'SELECT (extract(epoch FROM last_issued_at) * 1000)::bigint - '
		  . uid_epoch_ms() . ' FROM uid_stats'),
	$floor,
	'c1) after the restart the generator starts from the reservation in uid.hwm');

set_clock($clock, offset_to(uid_epoch_ms() + id_ms($max) - 1000));
($behind, $id) = call_behind($max);
is($behind, 't', 'c1) the clock read just before the call is behind the last stored ID');
$after = stats();
ok($id > $max, 'c1) the first ID after the crash is above every stored ID');
cmp_ok(id_ms($id), '>', $floor,
	'c1) ... and in a millisecond after the reservation in uid.hwm');
is($after->{refusals}, 0, 'c1) the step within the window was not refused');
cmp_ok($after->{waits}, '>=', 1, 'c1) it was waited out (uid_stats.clock_waits)');
$node->safe_psql('postgres',
	'INSERT INTO log (id) SELECT uid_next() FROM generate_series(1, 100)');
ok(max_id() > $id, 'c1) generation continues');
set_clock($clock, '+0');

# ---------------------------------------------------------------------------
# c2) kill -9 mid-load; restart with the clock 30 s back: refused until the
#     clock is back, then IDs stay above everything before
# ---------------------------------------------------------------------------
set_setting('uid.reserve_window_ms', 1000);
$rows = $node->safe_psql('postgres', 'SELECT count(*) FROM log');
$bg   = start_load();
$node->poll_query_until('postgres',
	"SELECT count(*) >= $rows + 3000 FROM log")
  or die 'the load did not start';
kill9_all($node);
eval { $bg->quit };    # psql lost its server: ignore the broken pipe
($floor, $clean) = read_hwm($node);
is($clean, 0, 'c2) after kill -9, uid.hwm holds a reservation');

set_clock($clock, '-30');
faketime_start($node, $clock);
$max = max_id();
for my $try (1 .. 3)
{
	($state, $err) = sqlstate_of($node, 'INSERT INTO log (id) VALUES (uid_next())');
	is($state, 'UID01', "c2) clock 30 s back after the crash: refused with UID01 (try $try)");
}
$after = stats();
is($after->{ids}, 0, 'c2) nothing was issued');
is($after->{refusals}, 3, 'c2) uid_stats.clock_refusals = 3');
is(max_id(), $max, 'c2) the table is unchanged');

# The reservation may still be the one made with the 5 s window in c1, so
# right after the clock is back the call may be refused a little longer (or
# waited out): poll until it succeeds.
set_clock($clock, '+0');
$node->poll_query_until('postgres',
	'WITH i AS (INSERT INTO log (id) VALUES (uid_next()) RETURNING id) SELECT count(*) = 1 FROM i')
  or die 'uid_next() did not recover';
$id = max_id();
ok($id > $max, 'c2) with the clock back, the next ID is above every stored ID');
cmp_ok(id_ms($id), '>', $floor, 'c2) ... and after the reservation in uid.hwm');

# ---------------------------------------------------------------------------
# d) immediate shutdown, restart with the clock behind the last ID
# ---------------------------------------------------------------------------
set_clock($clock, '+15');
$node->safe_psql('postgres',
	'INSERT INTO log (id) SELECT uid_next() FROM generate_series(1, 1000)');
$max = max_id();
$node->stop('immediate');
($floor, $clean) = read_hwm($node);
cmp_ok($floor, '>=', id_ms($max),
	'd) after an immediate shutdown uid.hwm covers the last ID');
# The postmaster exits with status 0 after an immediate shutdown once all
# children are gone, so the record may be the exact last time (clean) or the
# reservation; both cover the last ID.
note("d) uid.hwm after the immediate shutdown: ms $floor, clean $clean, last ID's ms "
	  . id_ms($max));
set_clock($clock, '+0');
faketime_start($node, $clock);
is( $node->safe_psql(
		'postgres', "SELECT clock_timestamp() < uid_time($max)"),
	't',
	'd) after the restart the clock is behind the last ID');
my $old_rows = $node->safe_psql('postgres', 'SELECT count(*) FROM log');
# refused (UID01) or waited out, depending on how far behind: poll
$node->poll_query_until('postgres',
	'WITH i AS (INSERT INTO log (id) VALUES (uid_next()) RETURNING id) SELECT count(*) = 1 FROM i')
  or die 'uid_next() did not recover after the immediate shutdown';
$node->safe_psql('postgres',
	'INSERT INTO log (id) SELECT uid_next() FROM generate_series(1, 100)');
is( $node->safe_psql(
		'postgres',
		"SELECT count(*), min(id) > $max FROM log WHERE ord > (SELECT max(ord) FROM log WHERE id <= $max)"
	),
	'101|t',
	'd) every ID after the immediate shutdown is above the previous maximum');

# ---------------------------------------------------------------------------
# e) a clean shutdown writes the exact last issued time
# ---------------------------------------------------------------------------
# Issue with the clock 15 s ahead, stop cleanly, restart with it correct:
# the clock is then about 15 s behind the last ID (less the restart's
# time).  Right after start-up the generator waits out up to
# max(uid.clock_max_wait_ms, uid.reserve_window_ms) (src/core/generator.c),
# whether the previous run crashed or not; with a 20 s window the step is
# waited out, not refused.
set_setting('uid.reserve_window_ms', 20000);
set_clock($clock, '+15');
$node->safe_psql('postgres',
	'INSERT INTO log (id) SELECT uid_next() FROM generate_series(1, 1000)');
$max = max_id();
is( $node->safe_psql(
		'postgres', "SELECT last_issued_at = uid_time($max), reserved_until > uid_time($max) FROM uid_stats"),
	't|t',
	'e) before the shutdown the reservation runs ahead of the last ID');
$node->stop('fast');
($floor, $clean) = read_hwm($node);
is($clean, 1, 'e) after a clean shutdown uid.hwm holds a clean record');
is($floor, id_ms($max), 'e) ... with exactly the ms of the last issued ID');

set_clock($clock, '+0');
faketime_start($node, $clock);
is( $node->safe_psql(
		'postgres', "SELECT last_issued_at = uid_time($max) FROM uid_stats"),
	't',
	'e) after the clean restart the generator starts from that exact time');
($behind, $id) = call_behind($max);
is($behind, 't', 'e) the clock read just before the call is behind the last ID');
$after = stats();
ok($id > $max, 'e) the first ID after the clean restart is above the last one before');
is($after->{refusals}, 0,
	'e) a step above clock_max_wait_ms but within the reserve window is not refused after start-up'
);
is($after->{waits}, 1, 'e) it is waited out (clock_waits = 1)');

# With a correct clock, a clean restart waits for nothing.
$node->stop('fast');
($floor, $clean) = read_hwm($node);
is($clean, 1, 'e) clean record again');
faketime_start($node, $clock);
($id) = $node->safe_psql('postgres',
	'INSERT INTO log (id) VALUES (uid_next()) RETURNING id');
$after = stats();
is($after->{waits}, 0, 'e) with a correct clock the first ID after a clean restart waits for nothing');
cmp_ok(id_ms($id), '>', $floor, 'e) ... and is above the recorded time');

# ---------------------------------------------------------------------------
# f) kill -9 of one backend mid-load: the postmaster's crash-and-restart
#    cycle re-reads uid.hwm, and generation resumes above the reservation
# ---------------------------------------------------------------------------
$rows = $node->safe_psql('postgres', 'SELECT count(*) FROM log');
$bg   = start_load();
$node->poll_query_until('postgres',
	"SELECT count(*) >= $rows + 3000 FROM log")
  or die 'the load did not start';
my $log_offset = -s $node->logfile;
my $load_pid = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE query LIKE 'DO $$BEGIN LOOP%' AND state = 'active'});
like($load_pid, qr/^\d+$/, 'f) found the loading backend');
kill 'KILL', $load_pid;
eval { $bg->quit };
$node->wait_for_log(qr/all server processes terminated; reinitializing/, $log_offset);
$node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the server did not come back after the backend crash';
($floor, $clean) = read_hwm($node);
is($clean, 0, 'f) after the backend crash uid.hwm holds a reservation');
is( $node->safe_psql(
		'postgres',
		'SELECT (extract(epoch FROM last_issued_at) * 1000)::bigint - '
		  . uid_epoch_ms() . ' FROM uid_stats'),
	$floor,
	'f) the reinitialised generator starts from the reservation in uid.hwm');
$max = max_id();
($id) = $node->safe_psql('postgres',
	'INSERT INTO log (id) VALUES (uid_next()) RETURNING id');
ok($id > $max, 'f) the first ID after the crash cycle is above every stored ID');
cmp_ok(id_ms($id), '>', $floor, 'f) ... and after the reservation');

# ---------------------------------------------------------------------------
# g) a damaged uid.hwm: uid_next() refuses (it cannot prove that new IDs are
#    above the old ones) until an operator removes the file and gives the
#    largest stored ID to uid_advance_past()
# ---------------------------------------------------------------------------
$node->stop('fast');
{
	my $path = $node->data_dir . '/uid.hwm';
	open my $fh, '+<:raw', $path or die "could not open $path: $!";
	seek $fh, 8, 0;
	print $fh pack('q', 12345);    # change ms, keep the old CRC
	close $fh;
}
$log_offset = -s $node->logfile;
faketime_start($node, $clock);
ok($node->log_contains(qr/high-water mark file "uid.hwm" is damaged/, $log_offset),
	'g) start-up logs that uid.hwm is damaged');
($state, $err) = sqlstate_of($node, 'INSERT INTO log (id) VALUES (uid_next())');
is($state, 'XX001', 'g) uid_next() with a damaged uid.hwm: SQLSTATE XX001 (data_corrupted)');
like($err, qr/HINT:.*remove the file.*uid_advance_past\(\)/s, 'g) ... with a hint saying what to do');
is(stats()->{ids}, 0, 'g) nothing was issued');
$node->stop('fast');
unlink $node->data_dir . '/uid.hwm' or die "could not remove uid.hwm: $!";
faketime_start($node, $clock);
$max = max_id();
($state) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID07', 'g) with the file removed, uid_next() refuses (UID07): uid.issued says IDs were issued here');
$node->safe_psql('postgres', "SELECT uid_advance_past($max)");
($id) = $node->safe_psql('postgres',
	'INSERT INTO log (id) VALUES (uid_next()) RETURNING id');
ok($id > $max, 'g) after uid_advance_past() with the largest stored ID, generation resumes above it');
($floor, $clean) = read_hwm($node);
cmp_ok($floor, '>=', id_ms($id), 'g) and a new uid.hwm covers it');

is( $node->safe_psql(
		'postgres', 'SELECT count(*) = count(DISTINCT id) FROM log'),
	't',
	'all IDs stored over the crashes and restarts are distinct');

$node->stop;
done_testing();
