# Adopted tables through ALTER EXTENSION uid UPDATE from 1.2, pg_dump and
# pg_restore (custom format, and plain SQL through psql): the adoptions come
# back, the columns and sequences keep giving uid IDs above every stored
# one, currval() and lastval() name them.  A dump without security labels
# (pg_dump --no-security-labels) loses the adoptions' marks: inserts and
# nextval() fail (the sequences are at their maximum) instead of returning
# plain values, until uid_adopt() sets the marks again.  (pg_upgrade: test/t/081_pg_upgrade.pl.)
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('adopt_dump', 'uid.worker_id' => 5);
$node->start;
my $bindir = $node->config_data('--bindir');

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
	CREATE EXTENSION uid VERSION '1.2';
	CREATE TABLE orders (id bigserial PRIMARY KEY, v text);
	CREATE TABLE tickets (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v text);
	CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v text);
	CREATE SEQUENCE hib_seq INCREMENT 50;
	INSERT INTO orders (v) VALUES ('1.2');
	INSERT INTO tickets (v) VALUES ('1.2');
	INSERT INTO docs (v) VALUES ('1.2');
});
$node->safe_psql('src', 'ALTER EXTENSION uid UPDATE');
is($node->safe_psql('src', q{SELECT extversion FROM pg_extension WHERE extname = 'uid'}),
	'1.5', 'ALTER EXTENSION uid UPDATE from 1.2 reaches the current version');
$node->safe_psql('src', q{
	SELECT count(*) FROM uid_adopt('orders');
	SELECT count(*) FROM uid_adopt('tickets');
	SELECT count(*) FROM uid_adopt('docs');
	SELECT count(*) FROM uid_adopt('hib_seq');
	INSERT INTO orders (v) VALUES ('adopted');
	INSERT INTO tickets (v) VALUES ('adopted');
	INSERT INTO docs (v) VALUES ('adopted');
});
my $adoptions_sql = q{SELECT string_agg(sequence::text || ':' || origin || ':' || increment, ',' ORDER BY sequence::text) FROM uid_adoptions};
my $adoptions = $node->safe_psql('src', $adoptions_sql);
is($adoptions, 'hib_seq:default:50,orders_id_seq:default:1,tickets_id_seq:identity always:1',
	'after the update: the tables and the sequence are adopted');
my $max = $node->safe_psql('src', q{
	SELECT greatest((SELECT max(id) FROM orders), (SELECT max(id) FROM tickets), nextval('hib_seq') + 49)});

# the restored database's checks
sub check_restored
{
	my ($db, $how) = @_;
	is($node->safe_psql($db, $adoptions_sql), $adoptions, "$how: the same adoptions");
	is( $node->safe_psql($db, qq{
		INSERT INTO orders (v) VALUES ('restored')
		RETURNING id > $max, currval('orders_id_seq') = id, lastval() = id}),
		't|t|t', "$how: the adopted column gets uid IDs above the dumped ones; currval() and lastval() name them");
	is( $node->safe_psql($db, qq{
		INSERT INTO tickets (v) VALUES ('restored')
		RETURNING id > $max, currval(pg_get_serial_sequence('tickets', 'id')) = id}),
		't|t', "$how: so does the former identity column");
	is($node->safe_psql($db, "SELECT nextval('hib_seq') - 50 > $max"), 't',
		"$how: nextval() of the adopted sequence gives a block above them");
	is( $node->safe_psql($db, q{
		INSERT INTO docs (v) VALUES ('restored') RETURNING uuid_extract_version(id)}),
		'7', "$how: the UUID column gets version 7 UUIDs");
	is($node->safe_psql($db, q{SELECT string_agg(v || ':' || uuid_extract_version(id), ',' ORDER BY v) FROM docs}),
		'1.2:4,adopted:7,restored:7', "$how: the old UUIDs are unchanged");
	is($node->safe_psql($db, q{SELECT count(*) FROM orders WHERE id = 1}), '1',
		"$how: the old IDs are unchanged");
	return;
}

# custom format, pg_restore into a new database
my $dump = $node->basedir . '/src.dump';
command_ok([ "$bindir/pg_dump", '-Fc', '-f', $dump, '--dbname=' . $node->connstr('src') ],
	'pg_dump -Fc');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
command_ok([ "$bindir/pg_restore", '--exit-on-error', '--dbname=' . $node->connstr('dst'), $dump ],
	'pg_restore without errors');
check_restored('dst', 'pg_restore');

# plain SQL through psql
my $sql = $node->basedir . '/src.sql';
command_ok([ "$bindir/pg_dump", '-f', $sql, '--dbname=' . $node->connstr('src') ], 'pg_dump plain');
$node->safe_psql('postgres', 'CREATE DATABASE dst_plain');
command_ok([ "$bindir/psql", '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-f', $sql,
		'--dbname=' . $node->connstr('dst_plain') ], 'the plain dump restores through psql');
check_restored('dst_plain', 'plain dump');

# without the labels
my $nolabels = $node->basedir . '/nolabels.dump';
command_ok([ "$bindir/pg_dump", '-Fc', '--no-security-labels', '-f', $nolabels,
		'--dbname=' . $node->connstr('src') ], 'pg_dump --no-security-labels');
$node->safe_psql('postgres', 'CREATE DATABASE dst_nolabels');
command_ok([ "$bindir/pg_restore", '--exit-on-error', '--dbname=' . $node->connstr('dst_nolabels'), $nolabels ],
	'pg_restore of it');
is($node->safe_psql('dst_nolabels', 'SELECT count(*) FROM uid_adoptions'), '0',
	'without labels nothing is adopted');
my ($state) = sqlstate_of($node, q{INSERT INTO orders (v) VALUES ('x')}, 'dst_nolabels');
is($state, '2200H',
	'an insert fails (the sequence is at its maximum) instead of storing a plain value');
($state) = sqlstate_of($node, q{SELECT nextval('orders_id_seq')}, 'dst_nolabels');
is($state, '2200H', 'and so does a direct nextval()');
$node->safe_psql('dst_nolabels', q{SELECT count(*) FROM uid_adopt('orders')});
is($node->safe_psql('dst_nolabels', "INSERT INTO orders (v) VALUES ('x') RETURNING id > $max"), 't',
	'uid_adopt() sets the label again: uid IDs again');
$node->stop;
done_testing();
