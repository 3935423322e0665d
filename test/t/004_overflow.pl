# Capacity (docs/guarantees.md, guarantee 4): one millisecond holds 4096 IDs
# of a worker; the 4097th waits for the next millisecond, and the sequence
# never wraps.
#
# The server's wall clock is frozen by libfaketime (an absolute time in the
# timestamp file stops the clock), so that every call sees the same
# millisecond: exactly 4096 IDs fit, and the 4097th call cannot return until
# the clock is released.
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

# Freeze the clock (nothing has been issued on this node yet, so any time
# after the uid epoch is ahead of the generator).
my $frozen = '2026-06-01 12:00:00';
set_clock($clock, $frozen);
is( $node->safe_psql(
		'postgres',
		q{SELECT clock_timestamp() = '2026-06-01 12:00:00+00', clock_timestamp() = clock_timestamp()}),
	't|t',
	'the server clock is frozen');

$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 4096)');
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT (uid_decode(id)).ms_since_epoch),
	       min((uid_decode(id)).ts) = '2026-06-01 12:00:00+00',
	       min((uid_decode(id)).sequence), max((uid_decode(id)).sequence),
	       count(DISTINCT (uid_decode(id)).sequence)
	  FROM ids}),
	'4096|1|t|0|4095|4096',
	'4096 IDs in the frozen millisecond, with sequences 0..4095, none twice');
is( $node->safe_psql(
		'postgres', q{
	SELECT bool_and((uid_decode(id)).sequence = rn - 1)
	  FROM (SELECT id, row_number() OVER (ORDER BY ord) AS rn FROM ids) s}),
	't',
	'the sequence counts up 0, 1, ..., 4095 in call order');
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

# The 4097th call waits; a query cancel ends the wait (the wait checks for
# interrupts), and nothing is issued.  (statement_timeout cannot be used:
# PostgreSQL measures it against the wall clock, which is frozen.)
my $bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', 1);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	'4096', 'the 4097th call in the frozen ms has not returned');
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
is(stat_of('ids_issued'), '4096', 'the cancelled call issued nothing');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	'4096', 'the table is unchanged');

# The same with a batch that would need a second millisecond: it takes
# nothing beyond the 4096 and waits.
$bg = start_waiting('SELECT count(*) FROM uid_next_batch(2);', 2);
is(cancel_like('SELECT count(*) FROM uid_next_batch(2)'), 't', 'cancel sent');
$bg->query_until(qr/finished/, '');
like($bg->{stderr}, qr/ERROR:\s+57014/, 'uid_next_batch() in the full, frozen ms waits too');
$bg->quit;
is(stat_of('ids_issued'), '4096', 'the cancelled batch issued nothing');

# A call waiting in the full millisecond finishes once the clock moves on.
$bg = start_waiting('INSERT INTO ids (id) VALUES (uid_next());', 3);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids'),
	'4096', 'the waiting call has not returned while the clock is frozen');
set_clock($clock, '+0');
$bg->query_until(qr/finished/, '');
is($bg->{stderr}, '', 'released, the waiting call succeeds');
$bg->quit;

is( $node->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT id),
	       (SELECT (uid_decode(id)).ts > '2026-06-01 12:00:00+00' AND (uid_decode(id)).sequence = 0
	          FROM ids ORDER BY ord DESC LIMIT 1),
	       (SELECT id = max(id) OVER () FROM ids ORDER BY ord DESC LIMIT 1)
	  FROM ids}),
	'4097|4097|t|t',
	'released, the 4097th ID is sequence 0 of a later millisecond, above all others');

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
$node->safe_psql('postgres',
	'INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 4096)');
is( $node->safe_psql(
		'postgres',
		q{SELECT count(*) FROM ids WHERE uid_time(id) = '2027-01-01 00:00:00+00'}),
	'4096',
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
		q{SELECT d.* FROM uid_next() AS n(id), uid_decode(n.id) AS d}),
	'2027-01-01 00:00:01+00|9|0|' . (1798761601000 - uid_epoch_ms()),
	'with the clock past the full ms, the next ID is sequence 0 of the next ms');

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
