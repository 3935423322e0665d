# Many backends generating at once (docs/guarantees.md, guarantees 1 and 2):
# eight pgbench clients insert uid_next() and uid_next_batch() values into one
# table whose primary key would reject any duplicate.  Every insert must
# succeed, and each client's values must be strictly increasing.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $clients      = 8;
my $transactions = 1500;    # per client
my $batch        = 10;      # IDs per uid_next_batch() call

my $node = uid_node('conc', 'uid.worker_id' => 3, max_connections => 30);
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	-- ord is taken in the same row as the ID; within one client the
	-- statements run one after the other, so per client ORDER BY ord is the
	-- order of the calls
	CREATE TABLE ids (id bigint PRIMARY KEY, client int NOT NULL,
	                  ord bigserial NOT NULL);
	CREATE TABLE stats_before AS SELECT * FROM uid_stats;});

# each transaction: one uid_next() and one batch, in separate statements
$node->pgbench(
	"--no-vacuum --client=$clients --jobs=2 --transactions=$transactions",
	0,
	[
		qr{processed: @{[ $clients * $transactions ]}/@{[ $clients * $transactions ]}}
	],
	[qr{^$}],
	'pgbench: all inserts succeed (no duplicate key)',
	{
		'002_uid_next' => qq{
INSERT INTO ids (id, client) VALUES (uid_next(), :client_id);
INSERT INTO ids (id, client) SELECT b, :client_id FROM uid_next_batch($batch) b;
}
	});

my $expected = $clients * $transactions * (1 + $batch);
is( $node->safe_psql(
		'postgres', 'SELECT count(*), count(DISTINCT id), count(DISTINCT client) FROM ids'),
	"$expected|$expected|$clients",
	"$expected rows, $expected distinct IDs, from $clients clients");

is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM (
	  SELECT id, lag(id) OVER (PARTITION BY client ORDER BY ord) AS prev FROM ids) s
	 WHERE prev IS NOT NULL AND id <= prev}),
	'0',
	'each client\'s IDs are strictly increasing in its call order');

is( $node->safe_psql(
		'postgres', q{
	SELECT bool_and((uid_decode(id)).worker_id = 3), max((uid_decode(id)).sequence) <= 4095
	  FROM ids}),
	't|t',
	'all IDs carry worker 3 and a sequence of at most 4095');

# no (ms, sequence) pair twice: the same as uniqueness for one worker, but
# checked on the decoded fields, not on the bigint
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FROM (
	  SELECT (uid_decode(id)).ms_since_epoch, (uid_decode(id)).sequence
	    FROM ids GROUP BY 1, 2 HAVING count(*) > 1) d}),
	'0',
	'no (ms, sequence) pair repeats');

is( $node->safe_psql(
		'postgres', q{
	SELECT s.ids_issued - b.ids_issued, s.batch_calls - b.batch_calls
	  FROM uid_stats s, stats_before b}),
	"$expected|@{[ $clients * $transactions ]}",
	'uid_stats counted every ID and every batch call');

is( $node->safe_psql(
		'postgres', q{SELECT last_issued_at = uid_time((SELECT max(id) FROM ids)) FROM uid_stats}),
	't',
	'uid_stats.last_issued_at is the time of the greatest ID');

$node->stop;
done_testing();
