# Replicas: a hot standby decodes but never generates uid_next() IDs; after
# promotion it never reuses time that its old primary used, even when the old
# primary's clock was ahead of its own; logical replication merges tables
# keyed by uid_next() from two servers into one.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

# ---------------------------------------------------------------------------
# Physical replication and promotion
# ---------------------------------------------------------------------------

# The primary's clock runs 20 s ahead of the standby's.  Both run under
# libfaketime so that each clock can be set on its own.
my $pclock = PostgreSQL::Test::Utils::tempdir() . '/primary.clock';
my $sclock = PostgreSQL::Test::Utils::tempdir() . '/standby.clock';
set_clock($pclock, '+20');
set_clock($sclock, '+0');

my $primary = uid_node('primary', init => { allows_streaming => 1 },
	'uid.worker_id' => 5);
faketime_start($primary, $pclock);
$primary->safe_psql('postgres', 'CREATE EXTENSION uid');

# The backup is taken before any ID exists: the standby's copy of uid.hwm
# then holds nothing, and only the WAL it replays tells it what was issued.
$primary->backup('b1');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b1', has_streaming => 1);
# Its own worker id: the floor tested here is the replayed commits' alone
# (a shared static worker id adds the old primary's time: 063).
$standby->append_conf('postgresql.conf', "uid.worker_id = 6\n");
faketime_start($standby, $sclock);

my $skew = $primary->safe_psql('postgres',
	"SELECT extract(epoch FROM clock_timestamp())::bigint")
  - $standby->safe_psql('postgres',
	"SELECT extract(epoch FROM clock_timestamp())::bigint");
cmp_ok($skew, '>=', 15, "the primary's clock is ahead of the standby's ($skew s)");

$primary->safe_psql('postgres', q{
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(),
	                u uuid NOT NULL DEFAULT uuid7(), n int);
	INSERT INTO t (n) SELECT g FROM generate_series(1, 1000) g;
});
$primary->wait_for_catchup($standby);

is($standby->safe_psql('postgres', 'SELECT count(*) FROM t'),
	'1000', 'the rows reached the standby');

# On the standby: every decoder works, uid_next() refuses.
is( $standby->safe_psql(
		'postgres', q{
	SELECT bool_and((uid_decode(id)).worker_id = 5)
	   AND bool_and(uid_time(id) IS NOT NULL)
	   AND bool_and(uuid7_time(u) IS NOT NULL)
	   AND bool_and((uid_decode(u)).version = 7)
	   AND bool_and(id >= uid_from_time(now() - interval '1 hour'))
	FROM t}), 't', 'decoders work on the standby');
my ($state, $err) = sqlstate_of($standby, 'SELECT uid_next()');
is($state, '25006', 'uid_next() refuses on a hot standby');
like($err, qr/hot standby/, '... saying why');
($state) = sqlstate_of($standby, 'SELECT count(*) FROM uid_next_batch(5)');
is($state, '25006', 'uid_next_batch() refuses on a hot standby');

# Promotion: the old primary is gone; the standby's own clock is 20 s behind
# the IDs it replayed.  It must refuse rather than issue IDs in time the old
# primary used (new IDs would sort below stored ones).
my $max_old = $primary->safe_psql('postgres', 'SELECT max(id) FROM t');
my $max_u = $primary->safe_psql('postgres', 'SELECT u FROM t ORDER BY u DESC LIMIT 1');
$primary->stop('fast');
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the standby did not finish its promotion';

($state, $err) = sqlstate_of($standby, 'SELECT uid_next()');
is($state, 'UID01',
	'after promotion, uid_next() refuses while the clock is behind the replayed IDs');
like($err, qr/behind the floor of uid_next\(\).*replayed by recovery/s,
	'... with the clock error naming the floor set by the recovery');

# uuid7() does not refuse: with the clock still 20 s behind, its first value
# after the promotion already sorts after every replayed UUID.
is($standby->safe_psql('postgres', "SELECT uuid7() > '$max_u'::uuid"),
	't', 'after promotion uuid7() sorts after every replayed UUID, clock behind or not');

# Once its clock passes the old primary's time, the promoted server
# generates, above every replayed ID.
set_clock($sclock, '+21');
$standby->safe_psql('postgres',
	'INSERT INTO t (n) SELECT g FROM generate_series(1001, 2000) g');
is( $standby->safe_psql(
		'postgres', qq{
	SELECT count(*) FILTER (WHERE n > 1000 AND (id <= $max_old OR u <= '$max_u')),
	       count(*), count(DISTINCT id), count(DISTINCT u)
	FROM t}), '0|2000|2000|2000',
	'after promotion every new ID and UUID is above every replayed one, none repeats');

$standby->stop;

# ---------------------------------------------------------------------------
# Logical replication: two shards into one table
# ---------------------------------------------------------------------------

my @pubs;
for my $w (1, 2)
{
	my $pub = uid_node("shard$w", init => { allows_streaming => 'logical' },
		'uid.worker_id' => $w);
	$pub->start;
	$pub->safe_psql('postgres', q{
		CREATE EXTENSION uid;
		CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(), shard text, n int);
		CREATE PUBLICATION orders_pub FOR TABLE orders;
	});
	push @pubs, $pub;
}
my $sub = uid_node('analytics', 'uid.worker_id' => 9);
$sub->start;
$sub->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id bigint PRIMARY KEY, shard text, n int);
});
for my $i (0, 1)
{
	(my $conn = $pubs[$i]->connstr('postgres')) =~ s/'/''/g;
	$sub->safe_psql('postgres',
		"CREATE SUBSCRIPTION orders_sub$i CONNECTION '$conn' PUBLICATION orders_pub");
}

# Rows before and after the subscriptions start, from both shards at once.
for my $round (1, 2)
{
	for my $i (0, 1)
	{
		$pubs[$i]->safe_psql('postgres',
			"INSERT INTO orders (shard, n) SELECT 'shard$i', g FROM generate_series(1, 500) g");
	}
}
$sub->poll_query_until('postgres', 'SELECT count(*) = 2000 FROM orders')
  or die 'the subscriber did not receive the rows';

is( $sub->safe_psql(
		'postgres', q{
	SELECT count(DISTINCT id), count(DISTINCT (uid_decode(id)).worker_id),
	       bool_and((uid_decode(id)).worker_id = CASE shard WHEN 'shard0' THEN 1 ELSE 2 END)
	FROM orders}), '2000|2|t',
	'two shards merged by logical replication: 2000 distinct IDs from 2 workers');

# Time order across shards: sorting by id sorts by creation time (ms).
is( $sub->safe_psql(
		'postgres', q{
	SELECT bool_and(uid_time(id) >= prev)
	FROM (SELECT id, lag(uid_time(id)) OVER (ORDER BY id) AS prev FROM orders) s
	WHERE prev IS NOT NULL}), 't', 'the merged IDs sort by time');

$sub->stop;
$_->stop for @pubs;
done_testing();
