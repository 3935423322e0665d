# pg_partman 4.7 (Debian 12's postgresql-15-partman; PostgreSQL 15 only,
# the other servers are built from source here without it) on a bigint key
# of uid_next() IDs, as docs/partitioning.md shows it: create_parent() with
# the width of a UTC day in IDs (uid_first_at(day + 1) - uid_first_at(day))
# from the first ID of today, so that every partition starts at the first ID
# of a UTC midnight; run_maintenance() premakes ahead of the highest ID and
# drops by part_config.retention; a uid column, and a domain over bigint,
# are refused by 4.7's check of the control column's type.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $sharedir = `$pg_config --sharedir`;
chomp $sharedir;
plan skip_all => 'pg_partman is not installed for this server (test/deps.sh installs '
  . 'postgresql-15-partman; the servers built from source have none)'
  unless -e "$sharedir/extension/pg_partman.control";

my $node = uid_node('partman');
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE SCHEMA partman;
	CREATE EXTENSION pg_partman SCHEMA partman;
	SET TimeZone = 'UTC';
});
my $width = $node->safe_psql('postgres',
	q{SELECT uid_first_at('2026-12-06') - uid_first_at('2026-12-05')});
is($width, 86400000 << 22, 'a UTC day is 86400000 << 22 IDs wide');

# The statements of docs/partitioning.md's pg_partman block, as there.
$node->safe_psql('postgres', q{
CREATE TABLE public.orders_pm (id bigint PRIMARY KEY DEFAULT uid_next(), total numeric)
    PARTITION BY RANGE (id);
SELECT partman.create_parent(
    p_parent_table => 'public.orders_pm', p_control => 'id', p_type => 'native',
    p_interval => (uid_first_at('2026-12-06') - uid_first_at('2026-12-05'))::text,
    p_premake => 3,
    p_start_partition => uid_first_at(date_trunc('day', now(), 'UTC'))::text);
});

# Each partition (not the default): its lower bound, as a day, if that bound
# is the first ID of a UTC midnight; 'no' otherwise.
my $days = q{
	SELECT string_agg(CASE WHEN uid_first_at(date_trunc('day', uid_time(lo), 'UTC')) = lo
	                       THEN to_char(uid_time(lo) AT TIME ZONE 'UTC', 'YYYY-MM-DD') ELSE 'no' END, ',' ORDER BY lo)
	FROM (SELECT substring(pg_get_expr(relpartbound, oid) FROM 'FROM \(''?([^'')]*)')::bigint AS lo
	      FROM pg_class
	      WHERE oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'orders_pm'::regclass)
	        AND pg_get_expr(relpartbound, oid) <> 'DEFAULT') b};
my $day = sub {
	my ($n) = @_;
	return $node->safe_psql('postgres',
		"SELECT to_char(date_trunc('day', now(), 'UTC') AT TIME ZONE 'UTC' + interval '$n days', 'YYYY-MM-DD')");
};
my $made = $node->safe_psql('postgres', $days);
note("partitions after create_parent(): $made");
is($made, join(',', map { $day->($_) } 0 .. 3),
	"create_parent() makes today's partition and 3 ahead, each from the first ID of a UTC midnight");

# run_maintenance() premakes ahead of the highest ID: a row of the last day
# made asks for three more
$node->safe_psql('postgres',
	q{INSERT INTO orders_pm VALUES (uid_first_at(date_trunc('day', now(), 'UTC') + interval '3 days 12 hours'), 1)});
$node->safe_psql('postgres', 'CALL partman.run_maintenance_proc()');
$made = $node->safe_psql('postgres', $days);
note("after run_maintenance(): $made");
is($made, join(',', map { $day->($_) } 0 .. 6),
	'run_maintenance() premakes 3 days ahead of the highest ID, still on UTC midnights');
is($node->safe_psql('postgres', q{
	SELECT tableoid::regclass::text = 'orders_pm_p' || uid_first_at(date_trunc('day', now(), 'UTC') + interval '3 days')
	FROM orders_pm}),
	't', 'the row is in the partition of its day, named by its first ID');

# retention: partitions wholly below max(id) - retention are dropped
$node->safe_psql('postgres', q{
UPDATE partman.part_config
SET retention = (2 * 362387865600000)::text, retention_keep_table = false
WHERE parent_table = 'public.orders_pm';
});
$node->safe_psql('postgres', 'CALL partman.run_maintenance_proc()');
$made = $node->safe_psql('postgres', $days);
note("after retention: $made");
is($made, join(',', map { $day->($_) } 1 .. 6),
	"retention of 2 days of IDs drops the partitions below the highest ID's less 2 days: today's");

# A uid column, and a domain over bigint: 4.7 takes int2, int4, int8 by name
for my $type ('uid', 'ids_domain')
{
	$node->safe_psql('postgres', 'CREATE DOMAIN ids_domain AS bigint') if $type eq 'ids_domain';
	$node->safe_psql('postgres',
		"CREATE TABLE public.typed_$type (id $type PRIMARY KEY) PARTITION BY RANGE (id)");
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SELECT partman.create_parent(p_parent_table => 'public.typed_$type', p_control => 'id',
			p_type => 'native', p_interval => '362387865600000')});
	like($err, qr/only supports partitioning of data types that are integer or date\/timestamp/,
		"pg_partman 4.7 refuses a $type column");
	# uid's own maintenance takes the uid column
	if ($type eq 'uid')
	{
		is( $node->safe_psql('postgres',
				"SELECT count(*) FROM uid_partitions_maintain('public.typed_uid', ahead => 3)"),
			'4', "uid_partitions_maintain() partitions the uid column pg_partman 4.7 refuses");
	}
}

$node->stop;
done_testing();
