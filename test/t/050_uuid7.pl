
# uuid7(): order across databases of one preloaded server, uniqueness of a
# few million values from concurrent sessions, random state that no two
# backends share, and per-backend order without preloading.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('uuid7', 'uid.worker_id' => 7);
$node->start;

for my $db ('db1', 'db2')
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION uid');
}

# ---------------------------------------------------------------------------
# Order across databases.  The generator is first moved past a key 5 s ahead
# of the clock: values drawn from the clock (a per-database or per-backend
# state) would fall below it, so the check below could not pass by luck.
# ---------------------------------------------------------------------------
my $key = $node->safe_psql('db1',
	"SELECT uuid7_from_time(clock_timestamp() + interval '5 s')");
is($node->safe_psql('db2', "SELECT uuid7_advance_past('$key')"),
	't', 'generator moved past a key 5 s ahead, from db2');

my %sess = (
	db1 => $node->background_psql('db1'),
	db2 => $node->background_psql('db2'));

my @vals;
my $expected = 0;
for my $i (1 .. 200)
{
	my $db = ($i % 2) ? 'db1' : 'db2';
	# every third round a short burst, so runs of one database interleave too
	my $n = ($i % 3 == 0) ? 5 : 1;
	$expected += $n;
	my $out = $sess{$db}->query_safe("SELECT uuid7() FROM generate_series(1, $n)");
	push @vals, map { [ $db, $_ ] } split /\n/, $out;
}
$_->quit for values %sess;

my ($bad_order, $below_key) = (0, 0);
for my $i (0 .. $#vals)
{
	$below_key++ if $vals[$i][1] le $key;
	$bad_order++ if $i > 0 && $vals[$i][1] le $vals[ $i - 1 ][1];
}
is(scalar(@vals), $expected, 'interleaved calls returned every value');
is($bad_order, 0, 'uuid7() strictly increasing across two databases in call order');
is($below_key, 0, 'every value of both databases is above the key: one shared generator');

# ---------------------------------------------------------------------------
# Uniqueness under concurrency: 4 sessions x 500000 uuid7() into a table
# with a unique index on the UUID and one on the ordered 64 bits (48-bit ms,
# 12-bit fraction, 4-bit counter).  The second index does not lean on the
# random bits: it fails if two backends ever get the same generator state.
# ---------------------------------------------------------------------------
$node->safe_psql('db1', q{
	CREATE TABLE u7 (u uuid PRIMARY KEY);
	CREATE UNIQUE INDEX u7_state ON u7 ((substring(uuid_send(u) FROM 1 FOR 8)),
	                                    ((get_byte(uuid_send(u), 8) >> 2) & 15));
});
$node->pgbench(
	'--no-vacuum --client=4 --jobs=4 --transactions=1',
	0,
	[qr{processed: 4/4}],
	[qr{^$}],
	'4 concurrent sessions insert 500000 uuid7() each without a unique violation',
	{ '050_uuid7_insert' =>
		  'INSERT INTO u7 SELECT uuid7() FROM generate_series(1, 500000);' },
	'db1');
is($node->safe_psql('db1', 'SELECT count(*), count(DISTINCT u) FROM u7'),
	'2000000|2000000', '2000000 distinct values stored');
is( $node->safe_psql(
		'db1',
		q{SELECT count(*) FROM u7 WHERE get_byte(uuid_send(u), 6) >> 4 <> 7
		   OR get_byte(uuid_send(u), 8) >> 6 <> 2}),
	'0',
	'all of them version 7, variant 10');
is( $node->safe_psql(
		'db1', "SELECT uuids_issued >= 2000000 + $expected FROM uid_stats"),
	't', 'uid_stats counted them');

# ---------------------------------------------------------------------------
# Random state is drawn in each backend after fork: the first UUIDs of many
# fresh backends are all different.  (Were a block drawn once and inherited,
# every backend would start with the same bytes.)
# ---------------------------------------------------------------------------
my %seen;
for my $i (1 .. 12)
{
	my $db = ($i % 2) ? 'db1' : 'db2';
	$seen{$_}++ for split /\n/,
	  $node->safe_psql($db, 'SELECT uuidv4() FROM generate_series(1, 4)');
	my $v7 = $node->safe_psql($db, 'SELECT substr(uuid7()::text, 20)');
	$seen{"tail $v7"}++;
}
is(scalar(keys %seen), 12 * 5, 'first random values of 12 fresh backends all differ');

$node->stop;

# ---------------------------------------------------------------------------
# Without shared_preload_libraries: uuid7() works and is strictly increasing
# per backend; its state is the backend's own.
# ---------------------------------------------------------------------------
my $plain = PostgreSQL::Test::Cluster->new('uuid7_plain');
$plain->init;
$plain->start;
$plain->safe_psql('postgres', 'CREATE EXTENSION uid');

is( $plain->safe_psql(
		'postgres', q{
	SELECT count(*) FILTER (WHERE u <= prev), count(*), count(DISTINCT u),
	       bool_and(uuid7_time(u) BETWEEN t - interval '5 s' AND t + interval '5 s')
	FROM (SELECT u, t, lag(u) OVER (ORDER BY n) AS prev
	      FROM (SELECT n, uuid7() AS u, clock_timestamp() AS t
	            FROM generate_series(1, 100000) AS n) AS g) AS s}),
	'0|100000|100000|t',
	'without preload: 100000 values strictly increasing in one backend');

my ($ret, $out, $err) = $plain->psql('postgres', 'SELECT uid_next()');
like($err, qr/shared_preload_libraries/, 'uid_next() still asks for preloading');

# A key 1 hour ahead moves this backend's generator only.
my $plain_key = $plain->safe_psql('postgres',
	"SELECT uuid7_from_time(clock_timestamp() + interval '1 hour')");
my $sa = $plain->background_psql('postgres');
is($sa->query_safe("SELECT uuid7_advance_past('$plain_key')"),
	't', 'backend A moved its generator');
is($sa->query_safe("SELECT uuid7() > '$plain_key' AND uuid7() > '$plain_key'"),
	't', 'backend A continues above its key');
is($plain->safe_psql('postgres', "SELECT uuid7() < '$plain_key'"),
	't', 'backend B still follows the clock: the state is per backend');
is($sa->query_safe("SELECT uuid7() > '$plain_key'"),
	't', 'backend A unaffected by backend B');
$sa->quit;
$plain->stop;

done_testing();
