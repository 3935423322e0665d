# Capacity (docs/guarantees.md, guarantee 4): a millisecond holds the IDs
# of a worker from its first sequence up to 4095; the next call waits for
# the next millisecond, and the sequence never wraps.  With
# uid.sequence_start = 'spread' (the default) a millisecond starts 1 to 32
# past the last sequence issued, so one after a full millisecond starts at
# 0..31 and holds 4065 to 4096 IDs; with 'zero' every millisecond starts at
# 0 and holds exactly 4096.
#
# The server's wall clock is frozen by libfaketime (an absolute time in the
# timestamp file stops the clock), so that every call sees the same
# millisecond: the IDs up to sequence 4095 fit, and the next call cannot
# return until the clock is released.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $node = uid_node('overflow', 'uid.worker_id' => 9);
my $clock = $node->basedir . '/faketime.rc';
set_clock($clock, '+0');
faketime_start($node, $clock);

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE ids (id bigint PRIMARY KEY, ord bigserial NOT NULL);});

sub stat_of
{
	my ($col) = @_;
	return $node->safe_psql('postgres', "SELECT $col FROM uid_stats");
}

# In a frozen millisecond: one ID, then as many more as fit up to sequence
# 4095.  Returns the sequence of the first.
sub fill_frozen_ms
{
	my $first = $node->safe_psql('postgres',
		'INSERT INTO ids (id) VALUES (uid_next()) RETURNING (uid_decode(id)).sequence');
	$node->safe_psql('postgres',
		"INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 4095 - $first)");
	return $first;
}

# Freeze the clock (nothing has been issued on this node yet, so any time
# after the uid epoch is ahead of the generator).
my $frozen = '2026-06-01 12:00:00';
set_clock($clock, $frozen);
is( $node->safe_psql(
		'postgres',
		q{SELECT clock_timestamp() = '2026-06-01 12:00:00+00', clock_timestamp() = clock_timestamp()}),
	't|t',
	'the server clock is frozen');

# Nothing issued yet: the generator starts as if sequence 4095 had been
# issued, so the first millisecond starts at 0..31.
my $first = fill_frozen_ms();
cmp_ok($first, '<=', 31, "the first millisecond starts at sequence $first, at most 31");
my $full = 4096 - $first;
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT (uid_decode(id)).ms_since_epoch),
	       min((uid_decode(id)).ts) = '2026-06-01 12:00:00+00',
	       min((uid_decode(id)).sequence), max((uid_decode(id)).sequence),
	       count(DISTINCT (uid_decode(id)).sequence)
	  FROM ids}),
	"$full|1|t|$first|4095|$full",
	"$full IDs in the frozen millisecond, with sequences $first..4095, none twice");
is( $node->safe_psql(
		'postgres', qq{
	SELECT bool_and((uid_decode(id)).sequence = $first + rn - 1)
	  FROM (SELECT id, row_number() OVER (ORDER BY ord) AS rn FROM ids) s}),
	't',
	"the sequence counts up $first, ..., 4095 in call order");
is(stat_of('overflow_waits'), '0', 'no overflow wait so far');

# Starts $sql in a background session and returns once the call is spinning
# in the full millisecond (uid_stats.overflow_waits has reached $waits).
sub start_waiting
{
	my ($sql, $waits) = @_;
	my $bg = $node->background_psql(
		'postgres',
		on_error_stop => 0,
		timeout       => 60);
	$bg->query_safe('\set VERBOSITY verbose');
	$bg->query_until(qr/started/, "\\echo started\n$sql\n\\echo finished\n");
	$node->poll_query_until('postgres',
		"SELECT overflow_waits >= $waits FROM uid_stats")
	  or die "no overflow wait for: $sql";
	return $bg;
}

# Cancels the statement of the background session that is running $like.
sub cancel_like
{
	my ($like) = @_;
	return $node->safe_psql(
		'postgres', qq{
	SELECT pg_cancel_backend(pid) FROM pg_stat_activity
	 WHERE state = 'active' AND query LIKE '$like%' AND pid <> pg_backend_pid()});
}

# The next call waits; a query cancel ends the wait (the wait checks for
# interrupts), and nothing is issued.  (statement_timeout cannot be used:
# PostgreSQL measures it against the wall clock, which is frozen.)
my $bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', 1);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	$full, 'the next call in the full, frozen ms has not returned');
is(stat_of('overflow_waits'), '1', 'uid_stats.overflow_waits counted the wait');
# named wait events from PostgreSQL 17 on (src/compat.h)
my $event = $node->pg_version >= 17 ? 'Extension/UidSequenceOverflow' : 'Extension/Extension';
is( $node->safe_psql(
		'postgres', q{
	SELECT wait_event_type || '/' || wait_event FROM pg_stat_activity
	WHERE query LIKE 'INSERT INTO ids (id) VALUES (uid_next())%' AND pid <> pg_backend_pid()}),
	$event, "pg_stat_activity shows the waiting call as $event");
is(cancel_like('INSERT INTO ids (id) VALUES (uid_next())'), 't', 'cancel sent');
$bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/ERROR:\s+57014/, 'the waiting call ends with 57014 (query_canceled)');
$bg->quit;
is(stat_of('ids_issued'), $full, 'the cancelled call issued nothing');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	$full, 'the table is unchanged');

# The same with a batch that would need a second millisecond: it takes
# nothing beyond sequence 4095 and waits.
$bg = start_waiting('SELECT count(*) FROM uid_next_batch(2);', 2);
is(cancel_like('SELECT count(*) FROM uid_next_batch(2)'), 't', 'cancel sent');
$bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/ERROR:\s+57014/, 'uid_next_batch() in the full, frozen ms waits too');
$bg->quit;
is(stat_of('ids_issued'), $full, 'the cancelled batch issued nothing');

# A call waiting in the full millisecond finishes once the clock moves on.
$bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', 3);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	$full, 'the waiting call has not returned while the clock is frozen');
set_clock($clock, '+0');
$bg->query_until(qr/finished/, '');
is($bg->{stderr}, '', 'released, the waiting call succeeds');
$bg->quit;

is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT id),
	       (SELECT (uid_decode(id)).ts > '2026-06-01 12:00:00+00' AND (uid_decode(id)).sequence <= 31
	          FROM ids ORDER BY ord DESC LIMIT 1),
	       (SELECT id = max(id) OVER () FROM ids ORDER BY ord DESC LIMIT 1)
	  FROM ids}),
	($full + 1) . '|' . ($full + 1) . '|t|t',
	'released, the waiting call gets a sequence of 0..31 in a later millisecond, above all others');

# With the real clock: a large run never repeats an (ms, sequence) pair and
# never goes past sequence 4095.
$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next_batch(10000) FROM generate_series(1, 20)');
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) = count(DISTINCT id),
	       count(*) = count(DISTINCT ((uid_decode(id)).ms_since_epoch, (uid_decode(id)).sequence)),
	       max((uid_decode(id)).sequence) <= 4095
	  FROM ids}),
	't|t|t',
	'200000 more IDs: no (ms, sequence) pair twice, sequence at most 4095');

# A backward step while a call waits in a full millisecond is a backward
# step like any other: refused with UID01 (it exceeds uid.clock_max_wait_ms),
# not waited for.  Freeze the clock again, later than everything issued, and
# fill that millisecond.
set_clock($clock, '2027-01-01 00:00:00');
$first = fill_frozen_ms();
is( $node->safe_psql(
		'postgres',
		q{SELECT count(*), max((uid_decode(id)).sequence) FROM ids WHERE uid_time(id) = '2027-01-01 00:00:00+00'}),
	(4096 - $first) . '|4095',
	'a second frozen millisecond is full');
my $refusals = stat_of('clock_refusals');
my $waits    = stat_of('overflow_waits');
$bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', $waits + 1);
set_clock($clock, '2026-12-31 23:59:30');
$bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/ERROR:\s+UID01/,
	'a 30 s backward step during the overflow wait: refused with UID01');
$bg->quit;
cmp_ok(stat_of('clock_refusals'), '>', $refusals, 'uid_stats.clock_refusals counted it');
set_clock($clock, '2027-01-01 00:00:01');
is( $node->safe_psql(
		'postgres',
		q{SELECT d.ts, d.worker_id, d.sequence <= 31, d.ms_since_epoch FROM uid_next() AS n(id), uid_decode(n.id) AS d}),
	'2027-01-01 00:00:01+00|9|t|' . (1798761601000 - uid_epoch_ms()),
	'with the clock past the full ms, the next ID is in the next ms, at sequence 0..31');

# Saturation: each millisecond after a full one starts at 0..31, so the cap
# is kept to within 31 of 4096 (0.76%).  Eleven frozen milliseconds, each
# filled; the ten after the first follow a full one.
set_clock($clock, '2027-01-01 00:00:02');
fill_frozen_ms();
$node->safe_psql('postgres', 'TRUNCATE ids');
my @firsts;
for my $s (3 .. 12)
{
	set_clock($clock, sprintf('2027-01-01 00:00:%02d', $s));
	push @firsts, fill_frozen_ms();
}
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), max(first) <= 31, bool_and(last = 4095), bool_and(n = 4096 - first), min(n) >= 4065
	  FROM (SELECT (uid_decode(id)).ms_since_epoch, count(*) AS n,
	               min((uid_decode(id)).sequence) AS first, max((uid_decode(id)).sequence) AS last
	          FROM ids GROUP BY 1) s}),
	'10|t|t|t|t',
	'saturated: ten milliseconds after a full one, each from 0..31 to 4095, so at least 4065 IDs each (first sequences '
	  . join(', ', @firsts) . ')');

# A millisecond starts at 0 when a start carried on would leave less room
# than the millisecond before took: busy traffic does not fill the next one
# early.  After one that took 3000 IDs: 0.  After one that took 10: carried
# on, 1 to 32 past its last.
set_clock($clock, '2027-01-01 00:00:13');
$first = $node->safe_psql('postgres',
	'INSERT INTO ids (id) VALUES (uid_next()) RETURNING (uid_decode(id)).sequence');
$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 2999)');
set_clock($clock, '2027-01-01 00:00:14');
is( $node->safe_psql(
		'postgres',
		'INSERT INTO ids (id) VALUES (uid_next()) RETURNING (uid_decode(id)).sequence'),
	'0',
	"after a millisecond that took 3000 IDs (from sequence $first), the next starts at 0");
$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 9)');
set_clock($clock, '2027-01-01 00:00:15');
my $seq = $node->safe_psql('postgres',
	'INSERT INTO ids (id) VALUES (uid_next()) RETURNING (uid_decode(id)).sequence');
ok($seq >= 10 && $seq <= 41,
	"after a millisecond that took 10 IDs (0..9), the next carries on at $seq, 1 to 32 past 9");

# uid.sequence_start = 'zero': every millisecond starts at sequence 0, so a
# frozen millisecond holds exactly 4096 IDs, 0..4095 in call order, and the
# next call gets sequence 0 of the next millisecond.
$node->safe_psql('postgres',
	"ALTER SYSTEM SET uid.sequence_start = 'zero'; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', "SELECT current_setting('uid.sequence_start') = 'zero'")
  or die "uid.sequence_start did not become zero";
$node->safe_psql('postgres', 'TRUNCATE ids');
set_clock($clock, '2027-01-01 00:00:20');
$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 4096)');
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT (uid_decode(id)).ms_since_epoch),
	       min((uid_decode(id)).sequence), max((uid_decode(id)).sequence),
	       bool_and((uid_decode(id)).sequence = rn - 1)
	  FROM (SELECT id, row_number() OVER (ORDER BY ord) AS rn FROM ids) s}),
	'4096|1|0|4095|t',
	"'zero': exactly 4096 IDs in the frozen millisecond, 0, 1, ..., 4095 in call order");
$waits = stat_of('overflow_waits');
$bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', $waits + 1);
set_clock($clock, '2027-01-01 00:00:21');
$bg->query_until(qr/finished/, '');
is($bg->{stderr}, '', "'zero': the 4097th call waits, and succeeds once the clock moves");
$bg->quit;
is( $node->safe_psql(
		'postgres', q{
	SELECT (uid_decode(id)).ts, (uid_decode(id)).sequence
	  FROM ids ORDER BY ord DESC LIMIT 1}),
	'2027-01-01 00:00:21+00|0',
	"'zero': the 4097th ID is sequence 0 of the next millisecond");
$node->safe_psql('postgres',
	"ALTER SYSTEM RESET uid.sequence_start; SELECT pg_reload_conf()");
$node->poll_query_until('postgres', "SELECT current_setting('uid.sequence_start') = 'spread'")
  or die "uid.sequence_start did not become spread";

# A clock outside what the 41-bit time field can hold: refused, nothing issued.
my $ids = stat_of('ids_issued');
my ($state, $err);
set_clock($clock, '2096-01-01 00:00:00');
($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID03', 'a clock in 2096 (past the 41-bit time field): UID03');
set_clock($clock, '2025-12-31 23:59:59');
($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID01', 'a clock before the uid epoch: UID01');
like($err, qr/before the uid epoch/, '... saying so');
is(stat_of('ids_issued'), $ids, 'nothing was issued');

$node->stop;
done_testing();
