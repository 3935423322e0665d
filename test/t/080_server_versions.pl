# What differs between the PostgreSQL versions uid runs on (src/compat.h),
# exercised on each:
#  - from 17 on, uid's waits have names in pg_stat_activity: a backward clock
#    step being waited out shows as wait_event_type "Extension", wait_event
#    "UidClockStep"; before 17 every extension wait shows as
#    "Extension"/"Extension".  (UidSequenceOverflow: TAP 004.)
#  - the shared-memory request hook: uid sizes its per-backend statistics by
#    MaxBackends, which PostgreSQL knows only from that hook on.
# The slot of a backend (BackendId before 17, ProcNumber from 17) is
# exercised by every test that reads uid_stats; the recovery floor
# (GetLatestXTime) by TAP 060.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $node = uid_node(
	'versions',
	'uid.worker_id'         => 3,
	'uid.clock_max_wait_ms' => 60000,
	max_connections         => 300);
my $clock = $node->basedir . '/faketime.rc';
set_clock($clock, '+0');
faketime_start($node, $clock);
my $major = $node->pg_version->major;
note "PostgreSQL $major";

$node->safe_psql('postgres', 'CREATE EXTENSION uid');

# ---------------------------------------------------------------------------
# Wait events
# ---------------------------------------------------------------------------
my $max = $node->safe_psql('postgres', 'SELECT max(x) FROM uid_next_batch(100) x');
set_clock($clock, '-30');
my $bg = $node->background_psql('postgres', on_error_stop => 0);
$bg->query_until(qr/started/, "\\echo started\nSELECT uid_next() > $max AS above;\n\\echo finished\n");

my $expected = $major >= 17 ? 'Extension/UidClockStep' : 'Extension/Extension';
ok( $node->poll_query_until(
		'postgres', q{
	SELECT wait_event_type || '/' || wait_event FROM pg_stat_activity
	WHERE query LIKE 'SELECT uid_next() > %' AND pid <> pg_backend_pid()},
		$expected),
	"a call waiting out a 30 s backward step shows as $expected in pg_stat_activity");
is($node->safe_psql('postgres', 'SELECT clock_waits > 0 FROM uid_stats'),
	't', 'uid_stats counts the wait');

set_clock($clock, '+0');
my $out = $bg->query_until(qr/finished/, '');
like($out, qr/\bt\b/, 'with the clock back, the waiting call returns an ID above the earlier ones');
$bg->quit;

# ---------------------------------------------------------------------------
# Shared memory requested from the request hook
# ---------------------------------------------------------------------------
is( $node->safe_psql(
		'postgres', q{
	SELECT size >= (current_setting('max_connections')::int
	                + current_setting('max_worker_processes')::int) * 64
	FROM pg_shmem_allocations WHERE name = 'uid stats'}),
	't',
	'uid stats has a slot for each of MaxBackends (known in the shmem request hook)');
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FILTER (WHERE name LIKE 'uid %') >= 4 FROM pg_shmem_allocations}),
	't', 'uid\'s shared memory structures are allocated');

$node->stop;
done_testing();
