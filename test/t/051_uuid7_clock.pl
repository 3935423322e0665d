
# uuid7() across a backward clock step: it never refuses and never goes
# back.  While the clock is behind, values continue from the last issued
# one (their time part ahead of the clock); once the clock passes it again,
# values follow the clock.  The clock is moved with libfaketime, whose offset
# the server reads from a file on every call.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

plan skip_all => "libfaketime not found at $UidTap::LIBFAKETIME"
  unless -e $UidTap::LIBFAKETIME;

my $clock_file = PostgreSQL::Test::Utils::tempdir() . '/faketime';

my $node = uid_node('uuid7_clock', 'uid.worker_id' => 7);
faketime_start($node, $clock_file);
$node->safe_psql('postgres', 'CREATE EXTENSION uid');

my $before = $node->safe_psql('postgres', 'SELECT u FROM (SELECT uuid7() AS u FROM generate_series(1, 1000)) s ORDER BY u DESC LIMIT 1');
my $before_time = $node->safe_psql('postgres', "SELECT uuid7_time('$before')");

# Ten minutes back.
set_clock($clock_file, '-600');
$node->poll_query_until('postgres',
	"SELECT clock_timestamp() < '$before_time'::timestamptz - interval '9 min'")
  or die 'the server did not see the clock step';

my $session = $node->background_psql('postgres');
my $behind = $session->query_safe(q{
	CREATE TEMP TABLE b AS
	SELECT n, uuid7() AS u, clock_timestamp() AS t FROM generate_series(1, 140000) AS n;
	SELECT count(*) FILTER (WHERE u <= prev), count(*),
	       count(u), max(uuid7_time(u) - t) > interval '9 min'
	FROM (SELECT u, t, lag(u) OVER (ORDER BY n) AS prev FROM b) s});
is($behind, '0|140000|140000|t',
	'clock 10 min behind: 140000 values issued without error, strictly increasing, time part ahead of the clock');
is($session->query_safe("SELECT bool_and(u > '$before') FROM b"),
	't', 'every value issued while the clock is behind is above the last one before the step');
# 140000 values from one millisecond's state: the 16 bits of fraction and
# counter (65536 values per ms) overflow two or three times, each time
# advancing the timestamp by exactly 1 ms.
is($session->query_safe(qq{
	SELECT min(uuid7_time(u)) >= '$before_time',
	       extract(epoch FROM max(uuid7_time(u)) - '$before_time'::timestamptz) * 1000 IN (2, 3),
	       count(DISTINCT uuid7_time(u)) IN (3, 4)
	FROM b}),
	't|t|t',
	'while behind, the time part stays at the last issued ms and advances 1 ms per 65536 values');
my $last_behind = $session->query_safe('SELECT u FROM b ORDER BY u DESC LIMIT 1');

# Back to the real clock: values follow it again, still above everything before.
set_clock($clock_file, '+0');
$node->poll_query_until('postgres',
	"SELECT clock_timestamp() >= '$before_time'::timestamptz")
  or die 'the server did not see the clock return';
is( $session->query_safe(qq{
	SELECT u > '$last_behind',
	       abs(extract(epoch FROM uuid7_time(u) - clock_timestamp())) < 5
	FROM (SELECT uuid7() AS u) s}),
	't|t',
	'clock restored: values above those issued while it was behind, and near the clock again');
$session->quit;

$node->stop;
done_testing();
