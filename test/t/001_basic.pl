# The foundation end to end: the extension without (CREATE EXTENSION warns)
# and with
# shared_preload_libraries, DEFAULT uid_next(), read-only transactions, the
# time and worker fields of a fresh ID, and a hot standby that must refuse to
# generate while it still decodes.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

# ---------------------------------------------------------------------------
# Without shared_preload_libraries
# ---------------------------------------------------------------------------
my $node = PostgreSQL::Test::Cluster->new('primary');
$node->init(allows_streaming => 1);
$node->start;

is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'),
	'', 'the server starts without uid preloaded');
my ($ret, $out, $create_err) = $node->psql('postgres', 'CREATE EXTENSION uid');
is($ret, 0, 'CREATE EXTENSION uid works without preloading');
like($create_err, qr/WARNING:  uid is not in shared_preload_libraries: uid_next\(\)/,
	'CREATE EXTENSION uid without preloading warns that uid_next() will fail');
like($create_err, qr/HINT:  Add uid to shared_preload_libraries in postgresql.conf and restart the server\./,
	'and its hint says what to do');
unlike($create_err, qr/CONTEXT:/, 'the warning has no CONTEXT lines');
is( $node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_proc WHERE proname = 'uid_warn_unpreloaded'}),
	'0', 'the install check leaves no function behind');

is( $node->safe_psql(
		'postgres',
		q{SELECT (uid_decode((1::bigint << 22) | (5 << 12) | 9)).*}),
	'2026-01-01 00:00:00.001+00|5|9|1',
	'uid_decode works without preloading');
is($node->safe_psql('postgres', q{SELECT uid_time(0)}),
	'2026-01-01 00:00:00+00', 'uid_time works without preloading');
is( $node->safe_psql(
		'postgres', q{SELECT uid_from_time('2026-01-01 00:00:00.002+00')}),
	'8388608',
	'uid_from_time works without preloading');

my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, '55000',
	'uid_next() without preloading: SQLSTATE 55000 (object_not_in_prerequisite_state)');
like($err, qr/HINT:.*shared_preload_libraries/,
	'uid_next() without preloading: the hint names shared_preload_libraries');
($state, $err) = sqlstate_of($node, 'SELECT count(*) FROM uid_next_batch(3)');
is($state, '55000', 'uid_next_batch() without preloading: SQLSTATE 55000');
($state, $err) = sqlstate_of($node, 'SELECT * FROM uid_stats');
is($state, '55000', 'uid_stats without preloading: SQLSTATE 55000');

# A column default may name uid_next() even before the library is preloaded;
# inserting then fails cleanly and leaves nothing behind.
$node->safe_psql('postgres',
	'CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), v int)');
($state, $err) = sqlstate_of($node, 'INSERT INTO t (v) VALUES (1)');
is($state, '55000', 'INSERT with DEFAULT uid_next() without preloading: 55000');
is($node->safe_psql('postgres', 'SELECT count(*) FROM t'),
	'0', 'the failed INSERT left no row');
$node->safe_psql('postgres', 'DROP TABLE t');

# ---------------------------------------------------------------------------
# With shared_preload_libraries
# ---------------------------------------------------------------------------
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'uid'\nuid.worker_id = 42\n");
$node->restart;

is($node->safe_psql('postgres', 'SHOW uid.worker_id'), '42',
	'uid.worker_id is set');
$node->safe_psql('postgres', 'CREATE DATABASE preloaded');
($ret, $out, $create_err) = $node->psql('preloaded', 'CREATE EXTENSION uid');
is($ret, 0, 'CREATE EXTENSION uid with preloading');
unlike($create_err, qr/WARNING/, 'and no warning');
$node->safe_psql('postgres',
	'CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), v int)');
$node->safe_psql('postgres',
	'INSERT INTO t (v) SELECT g FROM generate_series(1, 1000) g');
is( $node->safe_psql(
		'postgres',
		q{SELECT count(*), count(DISTINCT id), bool_and(id > 0) FROM t}),
	'1000|1000|t',
	'DEFAULT uid_next() fills a primary key: 1000 distinct positive IDs');
# rows are inserted in v order, so the IDs must follow it
is( $node->safe_psql(
		'postgres',
		q{SELECT bool_and(id > prev) FROM
		  (SELECT id, lag(id) OVER (ORDER BY v) AS prev FROM t) s WHERE prev IS NOT NULL}
	),
	't',
	'IDs from DEFAULT uid_next() increase in insertion order');

# read-only transactions may generate (nothing is written to the database)
is( $node->safe_psql(
		'postgres', q{
	BEGIN READ ONLY;
	SELECT uid_next() > (SELECT max(id) FROM t);
	SELECT count(*) FROM uid_next_batch(5);
	COMMIT;}),
	"t\n5",
	'uid_next() and uid_next_batch() work in a READ ONLY transaction');

# The time field is the clock at the call: clock readings taken just before
# and just after bracket it exactly (no tolerance needed).
my $bracket = $node->safe_psql(
	'postgres', q{
	SELECT date_trunc('milliseconds', a) <= uid_time(id) AND uid_time(id) <= b,
	       abs(extract(epoch FROM (uid_decode(id)).ts - b)) < 5
	  FROM (SELECT clock_timestamp() AS a, uid_next() AS id, clock_timestamp() AS b) s});
is($bracket, 't|t',
	'uid_decode(uid_next()).ts lies between clock_timestamp() before and after the call'
);

is( $node->safe_psql(
		'postgres',
		q{SELECT (uid_decode(uid_next())).worker_id = current_setting('uid.worker_id')::int,
		         (uid_decode(uid_next())).worker_id}),
	't|42',
	'the worker field of uid_next() equals uid.worker_id');
is($node->safe_psql('postgres', 'SELECT worker_id FROM uid_stats'),
	'42', 'uid_stats.worker_id equals uid.worker_id');
is( $node->safe_psql(
		'postgres', 'SELECT bool_and((uid_decode(id)).worker_id = 42) FROM t'),
	't',
	'every stored ID carries worker 42');

# ---------------------------------------------------------------------------
# A hot standby refuses to generate, but decodes
# ---------------------------------------------------------------------------
$node->backup('b1');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'b1', has_streaming => 1);
$standby->start;
$node->safe_psql('postgres',
	'INSERT INTO t (v) SELECT g FROM generate_series(1001, 1010) g');
$node->wait_for_catchup($standby);

is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'),
	't', 'the standby is in recovery');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM t'),
	'1010', 'the standby has replayed the table');
($state, $err) = sqlstate_of($standby, 'SELECT uid_next()');
is($state, '25006',
	'uid_next() on a hot standby: SQLSTATE 25006 (read_only_sql_transaction)');
like($err, qr/HINT:.*primary/, 'the hint points to the primary');
($state, $err) =
  sqlstate_of($standby, 'SELECT count(*) FROM uid_next_batch(2)');
is($state, '25006', 'uid_next_batch() on a hot standby: SQLSTATE 25006');
is( $standby->safe_psql(
		'postgres',
		q{SELECT bool_and((uid_decode(id)).worker_id = 42 AND uid_time(id) = (uid_decode(id)).ts)
		  FROM t}),
	't',
	'uid_decode and uid_time work on the standby');
is( $standby->safe_psql(
		'postgres',
		q{SELECT uid_from_time('2026-01-01 00:00:00+00')}),
	'0',
	'uid_from_time works on the standby');
is($standby->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats'),
	'0', 'the standby issued nothing');

# the primary still generates
is( $node->safe_psql(
		'postgres', 'SELECT uid_next() > (SELECT max(id) FROM t)'),
	't',
	'the primary keeps generating, above everything stored');

$standby->stop;
$node->stop;
done_testing();
