# PostgreSQL 19's sequence synchronisation (CREATE PUBLICATION ... FOR ALL
# SEQUENCES, ALTER SUBSCRIPTION ... REFRESH SEQUENCES) and an adopted
# sequence, in the blue/green recipe (docs/operations.md, "The blue/green
# recipe, step by step").  Blue adopts a bigserial column; green, with
# blue's schema (pg_dump: the label, the defaults, the frozen sequence),
# blue's worker id and a clock 2 s behind blue's, subscribes to the table
# and to every sequence.
#
#  - REFRESH SEQUENCES copies the adopted sequence's stored value: the value
#    uid_adopt() froze it at, below every uid ID its nextval() returned.
#    The copy is not what nextval() returns on green: that is uid_next()'s,
#    which before the documented step returns an ID below blue's (the
#    hazard);
#  - the documented step after REFRESH SEQUENCES, uid_catch_up() on green:
#    nextval() refuses (UID01) while green's clock is behind blue's last ID,
#    then returns IDs above every one of blue's, and so does an insert.
#
# Skipped where the server has no FOR ALL SEQUENCES (before 19), or
# without libfaketime (the clocks are frozen, as in 133_blue_green.pl).
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

sub server
{
	my ($name) = @_;
	return faketime_node($name, 'uid.worker_id' => 5, init => { allows_streaming => 'logical' });
}

my $blue = server('blue');
if ($blue->safe_psql('postgres', q{
	SELECT count(*) FROM pg_attribute
	WHERE attrelid = 'pg_catalog.pg_publication'::regclass AND attname = 'puballsequences'}) eq '0')
{
	my $version = $blue->safe_psql('postgres', 'SHOW server_version');
	$blue->stop;
	plan skip_all => "PostgreSQL $version has no CREATE PUBLICATION ... FOR ALL SEQUENCES "
	  . '(pg_publication has no column puballsequences)';
}

# Blue: three plain ids, then the adoption, then 1000 uid ids at 12:00:02.
freeze_clock($blue, '2026-06-01 12:00:00');
$blue->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id bigserial PRIMARY KEY, item text);
	INSERT INTO orders (item) VALUES ('plain'), ('plain'), ('plain');
	SELECT count(*) FROM uid_adopt('orders');
	CREATE PUBLICATION app FOR TABLE orders;
	CREATE PUBLICATION app_sequences FOR ALL SEQUENCES;});
freeze_clock($blue, '2026-06-01 12:00:02');
$blue->safe_psql('postgres', q{INSERT INTO orders (item) SELECT 'blue' FROM generate_series(1, 1000)});
my $blue_max = $blue->safe_psql('postgres', 'SELECT max(id) FROM orders');
is( $blue->safe_psql('postgres', q{
	SELECT count(*), max(uid_time(id)) FILTER (WHERE id > 3),
	       (SELECT last_value || ',' || is_called FROM orders_id_seq)
	FROM orders}),
	'1003|2026-06-01 12:00:02+00|3,true',
	'blue: 1000 uid ids at 12:00:02 from the adopted sequence, whose stored value stays 3');

# Green: blue's schema, the subscription to the table and every sequence.
my $green = server('green');
my $schema = $blue->basedir . '/schema.sql';
$blue->command_ok(
	[ 'pg_dump', '--schema-only', '--no-publications', '-d', $blue->connstr('postgres'), '-f', $schema ],
	'blue: pg_dump --schema-only');
$green->command_ok(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $green->connstr('postgres'), '-f', $schema ],
	'green: blue\'s schema restored');
is($green->safe_psql('postgres', q{SELECT sequence::text || ':' || origin FROM uid_adoptions}),
	'orders_id_seq:default', 'green: the sequence is adopted (the dump\'s label)');
freeze_clock($green, '2026-06-01 12:00:00');
(my $blue_conn = $blue->connstr('postgres')) =~ s/'/''/g;
$green->safe_psql('postgres',
	"CREATE SUBSCRIPTION app_sub CONNECTION '$blue_conn' PUBLICATION app, app_sequences WITH (copy_data = true)");
my $synced = q{
	SELECT (SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r') = 0
	   AND (SELECT count(*) FROM pg_subscription_rel) = 2
	   AND (SELECT count(*) FROM orders) = 1003};
ok($green->poll_query_until('postgres', $synced), 'green: the table and the sequence are synchronised');

# Writes on blue have stopped; the recipe's step 4 on 19: REFRESH SEQUENCES.
$blue->wait_for_catchup('app_sub');
$green->safe_psql('postgres', 'ALTER SUBSCRIPTION app_sub REFRESH SEQUENCES');
ok($green->poll_query_until('postgres', $synced), 'green: REFRESH SEQUENCES finished');
is( $green->safe_psql('postgres', q{
	SELECT (SELECT last_value || ',' || is_called FROM orders_id_seq), max(id) FROM orders}),
	"3,true|$blue_max",
	'green: REFRESH SEQUENCES copied the adopted sequence\'s stored value (3), below blue\'s ids');

# Without the step, nextval() on green is uid_next() at green's clock, 2 s
# behind blue's: an id below blue's (an insert could fail on, or take, one
# of blue's ids).
my $before = $green->safe_psql('postgres', q{SELECT nextval('orders_id_seq')});
cmp_ok($before, '<', $blue_max, 'green, before the step: nextval() returns an id below blue\'s largest');

# The step: uid_catch_up() (the recipe's step 5).
$green->safe_psql('postgres', 'ALTER SUBSCRIPTION app_sub DISABLE');
like( $green->safe_psql('postgres', q{
	SELECT string_agg(kind || ' ' || object || coalesce('.' || column_name, '') || ': '
	                  || regexp_replace(action, ';.*', ''), E'\n' ORDER BY kind, object, column_name)
	FROM uid_catch_up(allow_ahead => '5 seconds')}),
	qr/^uid_next public\.orders\.id: read under a SHARE lock \(adopted sequence public\.orders_id_seq\)\nuid_next uid_next\(\): advanced past it$/m,
	'green: uid_catch_up() read the adopted sequence\'s column and moved uid_next() past it');
my ($state) = sqlstate_of($green, q{SELECT nextval('orders_id_seq')});
is($state, 'UID01', 'green, after the step: nextval() refuses while green\'s clock is behind blue\'s ids');
freeze_clock($green, '2026-06-01 12:00:03');
cmp_ok($green->safe_psql('postgres', q{SELECT nextval('orders_id_seq')}), '>', $blue_max,
	'green, once its clock passes: nextval() returns an id above every one of blue\'s');
is( $green->safe_psql('postgres', qq{
	INSERT INTO orders (item) VALUES ('green') RETURNING id > $blue_max, currval('orders_id_seq') = id}),
	't|t', 'green: an insert gets an id above blue\'s; currval() names it');

$green->stop;
$blue->stop;
done_testing();
