# Time filters on IDs (src/tables/time_filter.c) where pg_regress cannot look: a
# server without uid preloaded, whose first query in a session must already
# be rewritten (the support function of uid_time() loads uid while the query
# is planned), and a database whose uid objects are older than the library
# (1.1: the bound functions are missing, or someone else's function has the
# name of one), where the filter must keep working as written.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidCluster;

my $node = PostgreSQL::Test::Cluster->new('no_preload');
$node->init;
$node->start;
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'),
	'', 'the server does not preload uid');

$node->safe_psql(
	'postgres', q{
CREATE EXTENSION uid;
CREATE TABLE t (id bigint PRIMARY KEY, u uuid, pad int);
CREATE INDEX t_u ON t (u);
INSERT INTO t SELECT uid_from_time(ts) + g % 4096, uuid7(ts), g
FROM generate_series(1, 20000) g,
     LATERAL (SELECT '2026-03-01'::timestamptz + g * interval '40 s' AS ts) s;
VACUUM ANALYZE t;
});

# Each safe_psql is a new session: uid is not loaded when it starts.
my $plan = $node->safe_psql('postgres',
	q{EXPLAIN (COSTS OFF) SELECT * FROM t WHERE uid_time(id) >= '2026-03-09 12:00+00'});
like($plan, qr/Index Cond: \(id >= '\d+'::bigint\)/,
	'the first query of a session is rewritten without preloading: '
	  . 'uid_time(id) >= t uses the primary key');
$plan = $node->safe_psql('postgres',
	q{EXPLAIN (COSTS OFF) SELECT * FROM t WHERE uuid7_time(u) >= '2026-03-09 12:00+00'});
like($plan, qr/Index Cond: \(u >= '[0-9a-f-]+'::uuid\)/,
	'the same for uuid7_time(u)');
is( $node->safe_psql(
		'postgres',
		q{SELECT count(*) FROM t WHERE uid_time(id) >= '2026-03-09 12:00+00'}),
	$node->safe_psql(
		'postgres',
		q{SET uid.rewrite_time_filters = off;
		  SELECT count(*) FROM t WHERE uid_time(id) >= '2026-03-09 12:00+00'}),
	'the rewritten filter finds what the filter as written finds');
$plan = $node->safe_psql('postgres',
	q{SET uid.rewrite_time_filters = off;
	  EXPLAIN (COSTS OFF) SELECT * FROM t WHERE uid_time(id) >= '2026-03-09 12:00+00'});
like($plan, qr/Filter: \(uid_time\(id\) >=/,
	'uid.rewrite_time_filters = off before uid is loaded keeps the filter as written');

# A database at uid 1.1 under the 1.2 library: no bound functions.
$node->safe_psql('postgres', 'CREATE DATABASE old');
$node->safe_psql(
	'old', q{
CREATE EXTENSION uid VERSION '1.1';
CREATE TABLE t (id bigint PRIMARY KEY, pad int);
INSERT INTO t SELECT uid_from_time('2026-03-01'::timestamptz + g * interval '40 s'), g
FROM generate_series(1, 20000) g;
ANALYZE t;
});
my $query = q{SELECT count(*) FROM t WHERE uid_time(id) >= '2026-03-09 12:00+00'};
my $expected = $node->safe_psql('old',
	q{SELECT count(*) FROM t WHERE id >= uid_from_time('2026-03-09 12:00+00')});
cmp_ok($expected, '>', 0, 'the old database has rows after the time');
is($node->safe_psql('old', $query), $expected,
	'at uid 1.1 the filter works as written');
like(
	$node->safe_psql('old', "EXPLAIN (COSTS OFF) $query"),
	qr/Filter: \(uid_time\(id\) >=/,
	'at uid 1.1 the filter is left as written (no bound functions to call)');

# Someone else's function with the name of a bound function is never called.
$node->safe_psql(
	'old', q{
CREATE FUNCTION public.uid_first_at(timestamptz) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RAISE EXCEPTION 'impostor called'; END $$;
});
is($node->safe_psql('old', $query), $expected,
	'a look-alike uid_first_at() of another owner is not used');

$node->safe_psql('old',
	'DROP FUNCTION public.uid_first_at(timestamptz); ALTER EXTENSION uid UPDATE');
like(
	$node->safe_psql('old', "EXPLAIN (COSTS OFF) $query"),
	qr/Index Cond: \(id >= '\d+'::bigint\)/,
	'after ALTER EXTENSION uid UPDATE the filter uses the primary key');
is($node->safe_psql('old', $query), $expected, 'and finds the same rows');

$node->stop;
done_testing();
