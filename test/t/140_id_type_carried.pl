# The uid type (sql/parts/id_type.sql) goes wherever a value of a table
# goes, and comes back as uid: the same values, the column still of type uid,
# its foreign keys to and from bigint columns still checked, its index still
# bigint's (int8_ops) and used for an int8 literal, and the JSON functions
# still printing it as a string.
#
#  - pg_dump and pg_restore (custom format) and a plain dump through psql,
#    into new databases where the dump's CREATE EXTENSION uid creates the
#    type; a table partitioned by range of a uid column keeps its bounds;
#  - COPY TO and FROM a file, in text and in binary: the round trip is
#    exact, and the binary form is bigint's (a uid column's file loads into
#    a bigint column and back; an integer column refuses its 8-byte fields);
#  - logical replication (a publication and a subscription) to a server
#    with uid installed, in text and with binary = true: the copy, inserts,
#    an UPDATE and a DELETE by key arrive.  (pg_upgrade: 081_pg_upgrade.pl.)
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use UidTap;

my $rows = 3000;

my $node = uid_node('carried', init => { allows_streaming => 'logical' },
	'uid.worker_id' => 7);
$node->start;
my $bindir = $node->config_data('--bindir');
my ($major) = ('' . $node->pg_version) =~ /^(\d+)/;

# The source database: orders keyed by uid, lines (bigint) referring to
# them, legacy rows keyed by bigint that a uid column refers to, and events
# partitioned by range of a uid column (explicit small ids below the split,
# uid_next() ones above it).
my $split = 1_000_000_000_000_000;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', qq{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id uid PRIMARY KEY DEFAULT uid_next(), item text NOT NULL);
	CREATE TABLE lines (order_id bigint NOT NULL REFERENCES orders, n int NOT NULL);
	CREATE INDEX lines_order_id ON lines (order_id);
	CREATE TABLE legacy (id bigint PRIMARY KEY, note text);
	CREATE TABLE legacy_refs (legacy_id uid NOT NULL REFERENCES legacy, note text);
	CREATE TABLE events (id uid NOT NULL DEFAULT uid_next(), body text) PARTITION BY RANGE (id);
	CREATE TABLE events_old PARTITION OF events FOR VALUES FROM (MINVALUE) TO ($split);
	CREATE TABLE events_new PARTITION OF events FOR VALUES FROM ($split) TO (MAXVALUE);
	CREATE INDEX events_id ON events (id);
	INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, $rows) g;
	INSERT INTO lines SELECT id, n FROM orders, generate_series(1, 2) n;
	INSERT INTO legacy SELECT g, 'legacy ' || g FROM generate_series(1, $rows) g;
	INSERT INTO legacy_refs SELECT id, 'ref' FROM legacy WHERE id % 3 = 0;
	INSERT INTO events SELECT g, 'old' FROM generate_series(1, 1000) g;
	INSERT INTO events (body) SELECT 'new' FROM generate_series(1, $rows) g;
	ANALYZE;
});

# What each copy must hold: md5 of each table's ordered rows as text.
my %digest_sql = (
	orders      => q{SELECT md5(string_agg(id::text || ':' || item, ',' ORDER BY id)) FROM orders},
	lines       => q{SELECT md5(string_agg(order_id::text || ':' || n, ',' ORDER BY order_id, n)) FROM lines},
	legacy_refs => q{SELECT md5(string_agg(legacy_id::text, ',' ORDER BY legacy_id)) FROM legacy_refs},
	events      => q{SELECT md5(string_agg(tableoid::regclass || ':' || id::text, ',' ORDER BY id)) FROM events});
my %digest = map { $_ => $node->safe_psql('src', $digest_sql{$_}) } keys %digest_sql;
is( $node->safe_psql('src', q{
	SELECT (SELECT count(*) FROM orders) || '/' || (SELECT count(*) FROM lines) || '/'
	    || (SELECT count(*) FROM legacy_refs) || '/'
	    || (SELECT count(*) FROM events_old) || '/' || (SELECT count(*) FROM events_new)}),
	"$rows/" . (2 * $rows) . '/' . ($rows / 3) . "/1000/$rows",
	'source: the rows of every table, events in both partitions');

# The checks of a database that should hold the same as src.
my $types_sql = q{
	SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod),
	                  ', ' ORDER BY attrelid::regclass::text, attname)
	FROM pg_attribute
	WHERE attrelid IN ('orders'::regclass, 'lines'::regclass, 'legacy_refs'::regclass,
	                   'events'::regclass, 'events_old'::regclass, 'events_new'::regclass)
	  AND attname IN ('id', 'order_id', 'legacy_id')};
my $types = 'events.id uid, events_new.id uid, events_old.id uid, '
  . 'legacy_refs.legacy_id uid, lines.order_id bigint, orders.id uid';
my $opclass_sql = q{
	SELECT string_agg(c.relname || ' ' || o.opcname, ', ' ORDER BY c.relname)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	JOIN pg_opclass o ON o.oid = i.indclass[0]
	WHERE c.relname IN ('orders_pkey', 'lines_order_id', 'events_id', 'events_old_id_idx', 'events_new_id_idx')};
my $opclasses = 'events_id int8_ops, events_new_id_idx int8_ops, events_old_id_idx int8_ops, '
  . 'lines_order_id int8_ops, orders_pkey int8_ops';
# a JSON string of the id's digits, from each producer, for every row
my $json_sql = q{
	SELECT bool_and(json_typeof(to_json(o.id)) = 'string'
	            AND jsonb_typeof(to_jsonb(o)->'id') = 'string'
	            AND row_to_json(o)::text = '{"id":"' || o.id || '","item":"' || o.item || '"}'
	            AND (to_jsonb(o) ->> 'id')::uid = o.id),
	       count(*)
	FROM orders o};

sub check_copy
{
	my ($db, $how) = @_;
	for my $t (sort keys %digest_sql)
	{
		is($node->safe_psql($db, $digest_sql{$t}), $digest{$t}, "$how: $t has the same rows");
	}
	is($node->safe_psql($db, $types_sql), $types, "$how: the columns are still of type uid (and bigint)");
	is($node->safe_psql($db, q{
		SELECT e.extname FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass
		  AND d.objid = t.oid AND d.deptype = 'e' JOIN pg_extension e ON e.oid = d.refobjid
		WHERE t.oid = 'uid'::regtype}), 'uid', "$how: the type is the extension's");
	is($node->safe_psql($db, $opclass_sql), $opclasses, "$how: the indexes are bigint's (int8_ops)");
	is($node->safe_psql($db, $json_sql), "t|$rows", "$how: the JSON functions print every id as a string");
	is( $node->safe_psql($db, q{
		SELECT string_agg(conrelid::regclass || ' -> ' || confrelid::regclass || ' ' || convalidated,
		                  ', ' ORDER BY conrelid::regclass::text)
		FROM pg_constraint WHERE contype = 'f'}),
		'legacy_refs -> legacy true, lines -> orders true', "$how: the foreign keys are there and valid");
	my ($state) = sqlstate_of($node, 'INSERT INTO lines VALUES (1, 1)', $db);
	is($state, '23503', "$how: a bigint row naming no order is refused");
	($state) = sqlstate_of($node, "INSERT INTO legacy_refs VALUES (@{[ $rows + 1 ]}, 'x')", $db);
	is($state, '23503', "$how: a uid row naming no legacy row is refused");
	($state) = sqlstate_of($node, 'DELETE FROM orders WHERE id = (SELECT min(order_id) FROM lines)', $db);
	is($state, '23503', "$how: deleting a referred-to order is refused");
	is( $node->safe_psql($db, qq{
		SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'events_new'}),
		"FOR VALUES FROM ('$split') TO (MAXVALUE)", "$how: the partition bound is kept");
	is( $node->safe_psql($db, q{
		INSERT INTO orders (item) VALUES ('new') RETURNING pg_typeof(id), json_typeof(to_json(id))}),
		'uid|string', "$how: the default still makes uid values");
	is( $node->safe_psql($db, q{
		INSERT INTO events (body) VALUES ('newer') RETURNING tableoid::regclass}),
		'events_new', "$how: a new event goes into the upper partition");

	# the planner: an int8 literal finds the row through the primary key,
	# a range of ids prunes partitions
	$node->safe_psql($db, 'ANALYZE');
	my $id = $node->safe_psql($db, 'SELECT id FROM orders ORDER BY id OFFSET 17 LIMIT 1');
	my $plan = $node->safe_psql($db,
		"EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = ${id}::int8");
	like($plan, qr/Index Scan using orders_pkey on orders/,
		"$how: WHERE id = <int8 literal> scans the primary key");
	is($node->safe_psql($db, "SELECT item FROM orders WHERE id = ${id}::int8"), 'item 18',
		"$how: and finds the row");
	$plan = $node->safe_psql($db, "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id < 500");
	unlike($plan, qr/events_new/, "$how: WHERE id < 500 prunes the upper partition");
	like($plan, qr/events_old/, "$how: ... and scans the lower one");
	return;
}

# ---------------------------------------------------------------------------
# pg_dump and pg_restore, custom format
# ---------------------------------------------------------------------------
my $dump = $node->basedir . '/src.dump';
command_ok([ "$bindir/pg_dump", '-Fc', '-f', $dump, '--dbname=' . $node->connstr('src') ], 'pg_dump -Fc');
my $toc = '';
IPC::Run::run([ "$bindir/pg_restore", '-l', $dump ], '>', \$toc);
like($toc, qr/EXTENSION - uid\b/, 'the dump creates the extension');
unlike($toc, qr/\bTYPE public uid\b/, '... and not the type on its own (a member of the extension)');
$node->safe_psql('postgres', 'CREATE DATABASE dst_custom');
command_ok([ "$bindir/pg_restore", '--exit-on-error', '--dbname=' . $node->connstr('dst_custom'), $dump ],
	'pg_restore without errors');
check_copy('dst_custom', 'pg_restore');

# ---------------------------------------------------------------------------
# plain SQL through psql
# ---------------------------------------------------------------------------
my $sql = $node->basedir . '/src.sql';
command_ok([ "$bindir/pg_dump", '-f', $sql, '--dbname=' . $node->connstr('src') ], 'pg_dump plain');
like(slurp_file($sql), qr/^CREATE EXTENSION IF NOT EXISTS uid WITH SCHEMA public;$/m,
	'the plain dump creates the extension');
$node->safe_psql('postgres', 'CREATE DATABASE dst_plain');
command_ok([ "$bindir/psql", '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-f', $sql,
		'--dbname=' . $node->connstr('dst_plain') ], 'the plain dump restores through psql');
check_copy('dst_plain', 'plain dump');

# ---------------------------------------------------------------------------
# COPY to and from files, text and binary
# ---------------------------------------------------------------------------
my $dir = $node->basedir;
$node->safe_psql('src', qq{
	CREATE TABLE copy_text (LIKE orders INCLUDING DEFAULTS);
	CREATE TABLE copy_binary (LIKE orders INCLUDING DEFAULTS);
	CREATE TABLE as_bigint (id bigint, item text);
	CREATE TABLE back_to_uid (id uid, item text);
	CREATE TABLE as_integer (id integer, item text);
	COPY orders TO '$dir/orders.txt';
	COPY orders TO '$dir/orders.bin' (FORMAT binary);
	COPY copy_text FROM '$dir/orders.txt';
	COPY copy_binary FROM '$dir/orders.bin' (FORMAT binary);
	COPY as_bigint FROM '$dir/orders.bin' (FORMAT binary);
	COPY as_bigint TO '$dir/bigint.bin' (FORMAT binary);
	COPY back_to_uid FROM '$dir/bigint.bin' (FORMAT binary);
});
(my $orders_digest = $digest_sql{orders}) =~ s/FROM orders/FROM %s/;
my $digest_of = sub { $node->safe_psql('src', sprintf($orders_digest, $_[0])) };
is($digest_of->('copy_text'), $digest{orders}, 'COPY text: the round trip is exact');
is($digest_of->('copy_binary'), $digest{orders}, 'COPY binary: the round trip is exact');
is( $node->safe_psql('src', q{
	SELECT string_agg(attrelid::regclass || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attrelid::regclass::text)
	FROM pg_attribute WHERE attname = 'id'
	  AND attrelid IN ('copy_text'::regclass, 'copy_binary'::regclass, 'as_bigint'::regclass, 'back_to_uid'::regclass)}),
	'as_bigint bigint, back_to_uid uid, copy_binary uid, copy_text uid',
	'the copies\' columns are of the types they were created with');
is($digest_of->('as_bigint'), $digest{orders}, 'COPY binary: a uid column\'s file loads into a bigint column');
is($digest_of->('back_to_uid'), $digest{orders}, '... and a bigint column\'s file into a uid column');
is(slurp_file("$dir/orders.bin"), slurp_file("$dir/bigint.bin"),
	'the binary files of the uid and the bigint column are the same bytes');
my ($state, $err) = sqlstate_of($node, "COPY as_integer FROM '$dir/orders.bin' (FORMAT binary)", 'src');
is($state, '22P03', 'an integer column refuses the file: its fields are 8 bytes, bigint\'s');
$node->safe_psql('src', qq{
	CREATE TABLE negative (id bigint, item text);
	INSERT INTO negative VALUES (-1, 'negative');
	COPY negative TO '$dir/negative.bin' (FORMAT binary);
	COPY back_to_uid FROM '$dir/negative.bin' (FORMAT binary);
});
is($node->safe_psql('src', q{SELECT item FROM back_to_uid WHERE id = -1}), 'negative',
	'a negative bigint in a binary file loads into a uid column (bigint\'s range; every value: 141_id_type_round_trip.pl)');
is($node->safe_psql('src', q{SELECT json_agg(c)::text FROM (SELECT * FROM copy_binary ORDER BY id LIMIT 1) c}),
	'[{"id":"' . $node->safe_psql('src', 'SELECT min(id) FROM orders') . '","item":"item 1"}]',
	'the binary copy prints its ids as JSON strings');

# ---------------------------------------------------------------------------
# Logical replication to a server with uid installed
# ---------------------------------------------------------------------------
# Apply and copy errors of the subscriptions of a database since the start:
# every *_error_count column of pg_stat_subscription_stats (19 split
# sync_error_count in two).
sub apply_errors_sql
{
	return q{(SELECT coalesce(sum(e.value::bigint), 0)
		  FROM pg_stat_subscription_stats s
		  JOIN pg_subscription p ON p.oid = s.subid AND p.subdbid =
		       (SELECT oid FROM pg_database WHERE datname = current_database()),
		       json_each_text(row_to_json(s)) e
		 WHERE e.key LIKE '%error_count')};
}

sub apply_errors
{
	my ($node, $db) = @_;
	return $node->safe_psql($db, 'SELECT ' . apply_errors_sql());
}

my $sub = uid_node('carried_sub', 'uid.worker_id' => 8);
$sub->start;
$node->safe_psql('src', q{
	CREATE TABLE replicated (id uid PRIMARY KEY DEFAULT uid_next(), note text);
	INSERT INTO replicated (note) SELECT 'before ' || g FROM generate_series(1, 2000) g;
	CREATE PUBLICATION pub FOR TABLE replicated;
});
(my $conn = $node->connstr('src')) =~ s/'/''/g;
my %subscriptions = (text => 'binary = false', binary => 'binary = true');
for my $mode (sort keys %subscriptions)
{
	$sub->safe_psql('postgres', "CREATE DATABASE sub_$mode");
	$sub->safe_psql("sub_$mode", qq{
		CREATE EXTENSION uid;
		CREATE TABLE replicated (id uid PRIMARY KEY DEFAULT uid_next(), note text);
		CREATE SUBSCRIPTION sub_$mode CONNECTION '$conn' PUBLICATION pub
		  WITH ($subscriptions{$mode}, slot_name = 'sub_$mode');
	});
}
for my $mode (sort keys %subscriptions)
{
	ok($sub->poll_query_until("sub_$mode", q{
		SELECT count(*) > 0 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel}),
		"$mode: the initial copy finished");
	is($sub->safe_psql("sub_$mode", "SELECT subbinary FROM pg_subscription WHERE subname = 'sub_$mode'"),
		$mode eq 'binary' ? 't' : 'f', "$mode: the subscription's binary option");
}
my $replicated_sql = q{SELECT md5(string_agg(id::text || ':' || note, ',' ORDER BY id)), count(*) FROM replicated};
my $changed = $node->safe_psql('src', 'SELECT id FROM replicated ORDER BY id OFFSET 10 LIMIT 1');
my $deleted = $node->safe_psql('src', 'SELECT id FROM replicated ORDER BY id OFFSET 20 LIMIT 1');
$node->safe_psql('src', qq{
	INSERT INTO replicated (note) SELECT 'after ' || g FROM generate_series(1, 1000) g;
	UPDATE replicated SET note = 'updated' WHERE id = $changed;
	DELETE FROM replicated WHERE id = $deleted;
});
my $expected = $node->safe_psql('src', $replicated_sql);
like($expected, qr/\|2999$/, 'publisher: 3000 rows less the deleted one');
for my $mode (sort keys %subscriptions)
{
	$node->wait_for_catchup("sub_$mode");
	is($sub->safe_psql("sub_$mode", $replicated_sql), $expected,
		"$mode: the copy, the inserts, the UPDATE and the DELETE arrived exactly");
	is($sub->safe_psql("sub_$mode", "SELECT note FROM replicated WHERE id = $changed"), 'updated',
		"$mode: the updated row");
	is($sub->safe_psql("sub_$mode", "SELECT count(*) FROM replicated WHERE id = $deleted"), '0',
		"$mode: the deleted row is gone");
	is( $sub->safe_psql("sub_$mode", q{
		SELECT format_type(atttypid, atttypmod) FROM pg_attribute
		WHERE attrelid = 'replicated'::regclass AND attname = 'id'}),
		'uid', "$mode: the subscriber's column is uid");
	is( $sub->safe_psql("sub_$mode",
			"SELECT row_to_json(r)::text FROM replicated r WHERE id = $changed"),
		qq({"id":"$changed","note":"updated"}), "$mode: it prints the id as a JSON string");
	is(apply_errors($sub, "sub_$mode"), '0', "$mode: no apply or copy error");
}

# That binary = true sends bigint's binary form, not text: a subscriber
# column of type integer takes the text '5' but refuses 8 bytes.
$node->safe_psql('src', q{
	CREATE TABLE probe (id uid PRIMARY KEY);
	CREATE PUBLICATION probe_pub FOR TABLE probe;
});
$sub->safe_psql('postgres', 'CREATE DATABASE sub_probe');
$sub->safe_psql('sub_probe', qq{
	CREATE TABLE probe (id integer PRIMARY KEY);
	CREATE SUBSCRIPTION sub_probe CONNECTION '$conn' PUBLICATION probe_pub
	  WITH (binary = true, copy_data = false, slot_name = 'sub_probe');
});
$node->wait_for_catchup('sub_probe');
my $offset = -s $sub->logfile;
$node->safe_psql('src', 'INSERT INTO probe VALUES (5)');
ok($sub->poll_query_until('sub_probe', "SELECT @{[ apply_errors_sql() ]} > 0"),
	'binary: an insert into an integer column fails to apply');
ok($sub->wait_for_log(qr/incorrect binary data format/, $offset),
	'... because the value came in binary, 8 bytes (incorrect binary data format)');
$sub->safe_psql('sub_probe', q{
	ALTER SUBSCRIPTION sub_probe DISABLE;
	ALTER SUBSCRIPTION sub_probe SET (binary = false);
	ALTER SUBSCRIPTION sub_probe ENABLE;
});
ok($sub->poll_query_until('sub_probe', 'SELECT count(*) = 1 FROM probe WHERE id = 5'),
	'text: the same change applies to the integer column (the text 5)');

$sub->stop;
$node->stop;
done_testing();
