# The end of the 41-bit time field (2095-09-07): a warning at start-up in
# the last year, the days left in uid_stats, and UID03 beyond the end.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $clock = PostgreSQL::Test::Utils::tempdir() . '/late.clock';
# libfaketime: an absolute start time whose clock then runs on ("@...")
set_clock($clock, '@2095-06-01 00:00:00');
my $node = uid_node('late', 'uid.worker_id' => 1, 'timezone' => 'UTC');
faketime_start($node, $clock);
like($node->safe_psql('postgres', 'SELECT clock_timestamp()::text'),
	qr/^2095-06-01/, 'the server runs in June 2095');

ok($node->log_contains('the uid_next\(\) time field runs out in 98 days'),
	'start-up warns that the time field runs out');

$node->safe_psql('postgres', 'CREATE EXTENSION uid');
is( $node->safe_psql(
		'postgres',
		'SELECT layout_days_left, layout_ends_at FROM uid_stats'),
	'98|2095-09-07 15:47:35.551+00', 'uid_stats shows the days left');
cmp_ok($node->safe_psql('postgres', 'SELECT uid_next()'), '>', 0,
	'IDs are still issued in the last year');

# Past the end: uid_next() refuses with UID03, uuid7() goes on.
set_clock($clock, '@2095-09-08 00:00:00');
my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID03', 'beyond the last encodable time uid_next() refuses with UID03');
like($err, qr/beyond the last time the uid layout can encode/, '... saying why');
like($node->safe_psql('postgres', 'SELECT uuid7_time(uuid7())::text'),
	qr/^2095-09-08/, 'uuid7() is not limited by the 41-bit field');

$node->stop('immediate');
done_testing();
