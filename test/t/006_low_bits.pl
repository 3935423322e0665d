# The low bits of IDs issued at low traffic (docs/snowflake.md, "The
# sequence field and id % n"): with uid.sequence_start = 'spread' (the
# default) id % n is balanced for n up to 4096, for uid_next(),
# uid_next_batch() and adopted sequences alike; with 'zero' every
# millisecond starts at sequence 0, as before 1.3.
#
# Low traffic: each ID is taken by a statement of its own once the clock has
# passed the millisecond of the previous ID (a poll; the short sleep inside
# it only keeps the poll from spinning), so every ID starts a millisecond.
# Balance: Pearson's chi-square statistic of the counts of id % n against
# its critical value with n - 1 degrees of freedom: at p = 0.001 for the
# two checks the design is held to (uid_next(), id % 16 and id % 1024), at
# p = 0.000001 for the five others, so that a correct generator fails a run
# by chance about once in 500 (uid 1.2's rule, sequence 0 at each new
# millisecond, fails every check by orders of magnitude).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

# Upper 0.001 and 0.000001 points of chi-square with n - 1 degrees of
# freedom (computed from the regularized incomplete gamma function to 0.01).
my %critical = (
	10   => 27.88,      # 9 degrees of freedom
	16   => 37.70,      # 15
	1024 => 1168.50,    # 1023
	4096 => 4380.37,    # 4095
);
my %critical_strict = (
	10   => 44.81,
	16   => 56.49,
	1024 => 1252.58,
	4096 => 4539.66,
);

# worker 0: with sequence 0, id % 10 = (ms * 2^22) % 10 is always even
my $node = uid_node('low_bits', 'uid.worker_id' => 0);
$node->start;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE ids (kind text, ord int, id bigint NOT NULL, PRIMARY KEY (kind, ord));
	CREATE TABLE adopted1 (id bigserial PRIMARY KEY);
	CREATE SEQUENCE adopted4 INCREMENT 4;
	SELECT count(*) FROM uid_adopt('adopted1');
	SELECT count(*) FROM uid_adopt('adopted4');
	-- n IDs of kind, each the first of the two IDs that the statement sql
	-- returns, run once the clock has passed the millisecond of the second
	-- (the last ID the statement before took)
	CREATE FUNCTION low_traffic(kind text, sql text, n int) RETURNS void
	LANGUAGE plpgsql AS $$
	DECLARE
		last_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
		got bigint;
		last bigint;
	BEGIN
		FOR i IN 1 .. n LOOP
			WHILE floor(extract(epoch FROM clock_timestamp()) * 1000) <= last_ms LOOP
				PERFORM pg_sleep(0.0002);
			END LOOP;
			EXECUTE sql INTO got, last;
			INSERT INTO ids VALUES (kind, i, got);
			last_ms := (uid_decode(last)).ms_since_epoch + 1767225600000;
		END LOOP;
	END $$;});

# Pearson's statistic of id % n over the IDs of kind, every residue counted
# (also those that never occur).
sub chi_square
{
	my ($kind, $n) = @_;
	return $node->safe_psql(
		'postgres', qq{
	WITH t AS (SELECT count(*)::float8 / $n AS e FROM ids WHERE kind = '$kind'),
	     c AS (SELECT id % $n AS r, count(*) AS c FROM ids WHERE kind = '$kind' GROUP BY 1)
	SELECT round(sum((coalesce(c.c, 0) - t.e) ^ 2 / t.e)::numeric, 1)
	  FROM generate_series(0, $n - 1) AS r LEFT JOIN c USING (r) CROSS JOIN t});
}

# id % n of the IDs of kind balanced at p = 0.001, or with $strict at
# p = 0.000001
sub balanced
{
	my ($kind, $n, $what, $strict) = @_;
	my $x = chi_square($kind, $n);
	my ($limit, $p) = $strict ? ($critical_strict{$n}, '0.000001') : ($critical{$n}, '0.001');
	cmp_ok($x, '<', $limit,
		"$what: id % $n balanced (chi-square $x, critical value $limit at p = $p)");
	return;
}

# Every ID of kind started a millisecond: the low-traffic premise.
sub one_per_ms
{
	my ($kind, $count) = @_;
	is( $node->safe_psql(
			'postgres', qq{
	SELECT count(*), count(DISTINCT (uid_decode(id)).ms_since_epoch),
	       bool_and(id > prev)
	  FROM (SELECT id, lag(id) OVER (ORDER BY ord) AS prev FROM ids WHERE kind = '$kind') s}),
		"$count|$count|t",
		"$kind: $count IDs, each in a millisecond of its own, increasing");
	return;
}

is($node->safe_psql('postgres', q{SELECT current_setting('uid.sequence_start', true)}),
	'spread', 'uid.sequence_start is spread by default');
my ($state, $err) = sqlstate_of($node, q{SET uid.sequence_start = 'zero'});
is($state, '55P02', 'uid.sequence_start cannot be set in a session (sighup)');

# ---------------------------------------------------------------------------
# uid_next(), one ID per millisecond
# ---------------------------------------------------------------------------
# 24576 IDs: 24 per residue of 1024, 6 per residue of 4096; with 10 the time
# bits take part ((ms << 22) % 10 = ms * 4 % 10).
my $n = 24576;
$node->safe_psql('postgres', qq{SELECT low_traffic('next', 'SELECT i, i FROM uid_next() AS i', $n)});
one_per_ms('next', $n);
balanced('next', $_, 'uid_next() at low traffic') for (16, 1024);
balanced('next', $_, 'uid_next() at low traffic', 'strict') for (10, 4096);

# Each millisecond starts 1 to 32 past the sequence of the one before
# (modulo 4096): no plain counter, and never more than 31 values skipped.
is( $node->safe_psql(
		'postgres', q{
	SELECT min(d), max(d), count(DISTINCT d)
	  FROM (SELECT ((uid_decode(id)).sequence - lag((uid_decode(id)).sequence) OVER (ORDER BY ord) + 4096) % 4096 AS d
	          FROM ids WHERE kind = 'next') s}),
	'1|32|32',
	'uid_next(): each sequence is 1 to 32 past the one before, all 32 steps seen');

# ---------------------------------------------------------------------------
# uid_next_batch() and adopted sequences: the same rule
# ---------------------------------------------------------------------------
$n = 4096;
$node->safe_psql('postgres',
	qq{SELECT low_traffic('batch', 'SELECT min(b), max(b) FROM uid_next_batch(3) AS b', $n)});
one_per_ms('batch', $n);
balanced('batch', 16, 'the first ID of uid_next_batch(3) at low traffic', 'strict');

$node->safe_psql('postgres',
	qq{SELECT low_traffic('adopted1', \$\$SELECT i, i FROM nextval('adopted1_id_seq') AS i\$\$, $n)});
one_per_ms('adopted1', $n);
balanced('adopted1', 16, 'an adopted sequence at low traffic', 'strict');

# INCREMENT 4: each call takes a run of 8 IDs in one millisecond
$node->safe_psql('postgres',
	qq{SELECT low_traffic('adopted4', \$\$SELECT i, i + 3 FROM nextval('adopted4') AS i\$\$, $n)});
one_per_ms('adopted4', $n);
balanced('adopted4', 16, 'an adopted sequence with INCREMENT 4 at low traffic', 'strict');

# ---------------------------------------------------------------------------
# uid.sequence_start = 'zero': every millisecond starts at sequence 0
# ---------------------------------------------------------------------------
sub set_start
{
	my ($mode) = @_;
	$node->safe_psql('postgres',
		"ALTER SYSTEM SET uid.sequence_start = '$mode'; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres',
		"SELECT current_setting('uid.sequence_start') = '$mode'")
	  or die "uid.sequence_start did not become $mode";
	return;
}

set_start('zero');
$n = 1024;
$node->safe_psql('postgres', qq{SELECT low_traffic('zero', 'SELECT i, i FROM uid_next() AS i', $n)});
$node->safe_psql('postgres',
	qq{SELECT low_traffic('zero_batch', 'SELECT min(b), max(b) FROM uid_next_batch(3) AS b', $n)});
one_per_ms('zero',       $n);
one_per_ms('zero_batch', $n);
is( $node->safe_psql(
		'postgres',
		q{SELECT count(*) FILTER (WHERE (uid_decode(id)).sequence <> 0) FROM ids WHERE kind IN ('zero', 'zero_batch')}),
	'0',
	"'zero': every ID that starts a millisecond has sequence 0, of uid_next() and of uid_next_batch()");
my $x = chi_square('zero', 16);
cmp_ok($x, '>', $critical{16}, "'zero': id % 16 is not balanced (chi-square $x)");
$x = chi_square('zero', 10);
cmp_ok($x, '>', $critical{10}, "'zero': nor is id % 10 (chi-square $x)");
is( $node->safe_psql(
		'postgres', q{SELECT count(*) FILTER (WHERE id % 2 = 1) FROM ids WHERE kind = 'zero'}),
	'0', "'zero': id % 10 is even for every ID of worker 0");

# Back to 'spread' while the server runs: it carries on from the last ID.
set_start('spread');
$node->safe_psql('postgres', q{SELECT low_traffic('spread_again', 'SELECT i, i FROM uid_next() AS i', 64)});
one_per_ms('spread_again', 64);
is( $node->safe_psql(
		'postgres',
		q{SELECT count(DISTINCT (uid_decode(id)).sequence) > 1 FROM ids WHERE kind = 'spread_again'}),
	't', "'spread' again after a reload: the sequences differ");

$node->stop;
done_testing();
