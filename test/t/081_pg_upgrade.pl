# pg_upgrade of a server with uid in use, from older PostgreSQL major
# versions to the one under test.  test/run.sh upgrades 15 -> 18, 17 -> 18
# and 16 -> 19: it builds uid for each older server too and names their bin
# directories in UID_UPGRADE_FROM_BINDIRS; without it this test skips.
#
# The old server runs in lease mode and holds a lease; its clock runs 600 s
# ahead (libfaketime), so that every ID it issued lies ahead of the new
# server's clock.  After pg_upgrade and the documented step (copy uid.hwm
# from the old data directory), the new server, first with the worker id
# the old one held and its clock 600 s behind:
#  - refuses uid_next() (UID01) instead of issuing an ID the old one may have
#    issued, and its uuid7() values sort after the old ones;
#  - once its clock passes the old IDs, generates above every one of them,
#    and the tables' defaults, tickets and counters go on;
#  - in lease mode takes a lease again from the carried-over lease table.
# During the upgrade the lease worker is not even registered (binary upgrade
# mode), while uid is loaded.  ALTER EXTENSION uid UPDATE on the new server
# drops uid's own functions of the names PostgreSQL has built in since,
# except one that a column default still uses; after the documented manual
# step the extension has exactly the members of a fresh install.  A table
# keyed by the uid type comes across with the same rows, still of that type,
# its indexes (int8_ops) valid and used, a bigint foreign key to it checked,
# its ids printed by JSON as strings.
use strict;
use warnings;

use File::Basename qw(dirname);
use File::Copy qw(copy);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use FindBin;
use lib $FindBin::RealBin;
use UidTap;
use LeaseTest qw(wait_held);

my @old_bindirs = split ' ', ($ENV{UID_UPGRADE_FROM_BINDIRS} // '');
plan skip_all => 'no older server given (test/run.sh upgrades to 18 and 19)'
  unless @old_bindirs;

# The release that built each of these names into pg_catalog; before it, uid
# creates its own.
my %builtin_since = (
	'public.uuid_extract_timestamp(uuid)' => 17,
	'public.uuid_extract_version(uuid)'   => 17,
	'public.uuidv4()'                     => 18,
	'public.uuidv7()'                     => 18,
	'public.uuidv7(interval)'             => 18);

# uid's member functions of those names, in one line, schema-qualified
my $stand_ins_sql = q{
	SET search_path = pg_catalog;
	SELECT coalesce(string_agg(f, ' ' ORDER BY f COLLATE "C"), '')
	FROM (SELECT p.oid::regprocedure::text AS f
	      FROM pg_proc p
	      JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	      JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'
	      WHERE p.proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version')) AS s};

# the rows of the uid-keyed table and of the table referring to it
my $typed_digest_sql = q{
	SELECT md5(string_agg(id::text || ':' || n, ',' ORDER BY id)),
	       (SELECT md5(string_agg(typed_id::text || ':' || n, ',' ORDER BY typed_id)) FROM typed_lines)
	FROM typed};

# every member of uid, one per line
my $members_sql = q{
	SELECT string_agg(o, E'\n' ORDER BY o COLLATE "C")
	FROM (SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS o
	      FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'
	      WHERE d.deptype = 'e') AS m};

sub upgrade_from
{
	my ($old_bindir, $old_major) = @_;
	# 18 turns data checksums on by default: have them on both sides.
	# debug1 shows which libraries load and which background workers register.
	my %conf = (
		init               => { extra => ['--data-checksums'] },
		'uid.worker_id'    => 'lease',
		'log_min_messages' => 'debug1');
	my $old = uid_node("old_$old_major", %conf,
		new => { install_path => dirname($old_bindir) });
	my $new = uid_node("new_from_$old_major", %conf);
	my $new_major = $new->pg_version->major;
	my @carried = sort grep { $builtin_since{$_} > $old_major } keys %builtin_since;

	my $clock = $old->basedir . '/faketime.rc';
	set_clock($clock, '+600');
	faketime_start($old, $clock);

	# uid in use: the lease store in "postgres" (uid at the current
	# version), and an application database with uid at 1.1, the last release
	$old->safe_psql('postgres', 'CREATE EXTENSION uid');
	my ($old_worker, $old_token) = wait_held($old);
	$old->safe_psql('postgres', 'CREATE DATABASE app');
	$old->safe_psql(
		'app', q{
	CREATE EXTENSION uid VERSION '1.1';
	CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(),
	                     ref uuid NOT NULL UNIQUE DEFAULT uuid7(),
	                     v7 uuid NOT NULL DEFAULT uuidv7(),
	                     n int);
	INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000) g;
	SELECT uid_ticket_create('invoices', 1, 2);
	SELECT uid_ticket_next('invoices');
	SELECT uid_counter_next('acme', 'REQ');});

	# adopted tables in the database at the current version: a bigserial
	# column and a sequence only an application calls (INCREMENT 50)
	$old->safe_psql(
		'postgres', q{
	CREATE TABLE adopted (id bigserial PRIMARY KEY, n int);
	INSERT INTO adopted (n) VALUES (1);
	SELECT count(*) FROM uid_adopt('adopted');
	INSERT INTO adopted (n) VALUES (2);
	CREATE SEQUENCE hib_seq INCREMENT 50;
	SELECT count(*) FROM uid_adopt('hib_seq');});
	my $old_adopted_max = $old->safe_psql('postgres',
		q{SELECT greatest(max(id), nextval('hib_seq') + 49) FROM adopted});

	# a table keyed by the uid type, with a bigint foreign key to it and
	# its index
	$old->safe_psql(
		'postgres', q{
	CREATE TABLE typed (id uid PRIMARY KEY DEFAULT uid_next(), n int NOT NULL);
	CREATE TABLE typed_lines (typed_id bigint NOT NULL REFERENCES typed, n int NOT NULL);
	CREATE INDEX typed_lines_typed_id ON typed_lines (typed_id);
	INSERT INTO typed (n) SELECT g FROM generate_series(1, 2000) g;
	INSERT INTO typed_lines SELECT id, n FROM typed WHERE n % 2 = 0;});
	my $typed_digest = $old->safe_psql('postgres', $typed_digest_sql);

	# A PostgreSQL limit, not uid's: Debian's 15.20 keeps a per-column
	# option pg_attver that the pg_dump of an older minor release of a newer
	# major copies into the dump, and that release's server rejects it, so
	# pg_upgrade fails for any table.  Ask the new pg_dump.
	my $dump = '';
	my $dump_ok = IPC::Run::run(
		[ $new->config_data('--bindir') . '/pg_dump', '--schema-only', '--table=orders',
		  '--dbname=' . $old->connstr('app') ],
		'>', \$dump, '2>', \my $dump_err);
	if ($dump =~ /\bpg_attver=/)
	{
		my $from = $old->safe_psql('postgres', 'SHOW server_version');
		my $to   = $new->pg_version;
		$old->stop;
		plan skip_all => "PostgreSQL $from records a pg_attver option on every column; "
		  . "pg_dump $to copies it and the server rejects it, so pg_upgrade fails "
		  . "for any table (a PostgreSQL limit: upgrade to a later minor release)";
	}
	cmp_ok($old_major, '<', $new_major, 'the old server is an older major version');
	ok($dump_ok, "pg_dump of PostgreSQL $new_major reads the old server");

	ok($old->log_contains('registering background worker "uid lease worker"'),
		'old server: the lease worker is registered in a normal start');
	my ($old_max_id, $old_max_ref, $old_ticket, $old_counter) = split /\|/, $old->safe_psql(
		'app', q{
	SELECT max(id), (SELECT ref FROM orders ORDER BY ref DESC LIMIT 1),
	       uid_ticket_next('invoices'), uid_counter_next('acme', 'REQ')
	FROM orders});
	is($old->safe_psql('app', "SELECT (uid_decode($old_max_id)).worker_id"),
		$old_worker, 'old server: IDs carry the leased worker id');
	my $real = Time::HiRes::time();
	is( $old->safe_psql('app', "SELECT uid_time($old_max_id) > to_timestamp($real + 500)"),
		't', 'old server: its IDs lie ahead of the real time (clock 600 s ahead)');
	is($old->safe_psql('app', $stand_ins_sql), "@carried",
		'old server: uid has its own functions of the names PostgreSQL lacks');
	$old->stop;

	# pg_upgrade, keeping its logs
	$new->command_ok(
		[
			'pg_upgrade', '--no-sync', '--retain',
			'-d', $old->data_dir, '-D', $new->data_dir,
			'-b', $old_bindir, '-B', $new->config_data('--bindir'),
			'-s', $new->host, '-p', $old->port, '-P', $new->port
		],
		"pg_upgrade from $old_major to $new_major");
	my ($server_log) =
	  glob($new->data_dir . '/pg_upgrade_output.d/*/log/pg_upgrade_server.log');
	my $log = defined $server_log ? slurp_file($server_log) : '';
	like($log, qr/loaded library "uid"/, 'during pg_upgrade the servers preload uid');
	unlike($log, qr/registering background worker "uid lease worker"/,
		'... but do not register the lease worker (binary upgrade mode)');

	# The documented step: the new server takes over the old one's uid.hwm.
	copy($old->data_dir . '/uid.hwm', $new->data_dir . '/uid.hwm')
	  or die "could not copy uid.hwm: $!";

	# First with the worker id the old server held, as a static id, and the
	# clock 600 s behind the old server's: only uid.hwm keeps the IDs apart.
	$new->append_conf('postgresql.conf',
		"log_min_messages = warning\nuid.worker_id = $old_worker\n");
	my $new_clock = $new->basedir . '/faketime.rc';
	set_clock($new_clock, '+0');
	faketime_start($new, $new_clock);
	my ($state) = sqlstate_of($new, 'SELECT uid_next()', 'app');
	is($state, 'UID01',
		'new server, clock behind the old IDs, same worker id: uid_next() refuses (UID01)');
	is($new->safe_psql('app', "SELECT uuid7() > '$old_max_ref'"),
		't', 'new server: uuid7() sorts after every old uuid7() value');

	set_clock($new_clock, '+1200');
	my ($id, $ref) = split /\|/,
	  $new->safe_psql('app', 'INSERT INTO orders (n) VALUES (1001) RETURNING id, ref');
	ok($id > $old_max_id, 'clock past the old IDs: the id default generates above every old ID');
	ok($ref gt $old_max_ref, '... and the uuid7() default above every old value');
	is( $new->safe_psql(
			'app', q{
	SELECT count(*), count(DISTINCT id), count(DISTINCT ref), count(DISTINCT v7)
	FROM orders}),
		'1001|1001|1001|1001', 'the old rows are all there, and the new one is distinct');
	cmp_ok($new->safe_psql('app', q{SELECT uid_ticket_next('invoices')}),
		'>', $old_ticket, 'the ticket sequence goes on');
	cmp_ok($new->safe_psql('app', q{SELECT uid_counter_next('acme', 'REQ')}),
		'gt', $old_counter, 'the counter goes on');

	# Lease mode again: the lease table came across with its rows.
	$new->append_conf('postgresql.conf', "uid.worker_id = 'lease'\n");
	$new->stop;
	faketime_start($new, $new_clock);
	my ($worker, $token) = wait_held($new);
	ok($worker != $old_worker || $token != $old_token,
		'new server in lease mode: a lease from the carried-over table (a new token or another id)');
	ok($new->safe_psql('app', 'SELECT uid_next()') > $id,
		'... and uid_next() generates above everything before');

	# uid's own functions of the names PostgreSQL has built in since came
	# across with pg_upgrade as members of uid; unqualified calls reach
	# pg_catalog's, the column default still calls uid's.
	is($new->safe_psql('app', $stand_ins_sql), "@carried",
		'after pg_upgrade: the same functions of uid');
	is( $new->safe_psql('app',
			q{SELECT 'uuidv7()'::regprocedure = 'pg_catalog.uuidv7()'::regprocedure}),
		't', 'unqualified calls reach pg_catalog\'s function');
	is( $new->safe_psql('app',
			q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef
			  WHERE adrelid = 'orders'::regclass AND adnum = 3}),
		'public.uuidv7()', 'the column default still calls uid\'s uuidv7()');

	# ALTER EXTENSION uid UPDATE (1.1 -> current) retires what nothing uses.
	my ($ret, $out, $err) = $new->psql('app', 'ALTER EXTENSION uid UPDATE');
	is($ret, 0, 'ALTER EXTENSION uid UPDATE succeeds');
	like($err, qr/WARNING:  uid keeps its function public\.uuidv7\(\), which other objects use/,
		'... and says it keeps the uuidv7() that the default uses');
	is( $new->safe_psql(
			'app', q{
	SELECT x.extversion = a.default_version
	FROM pg_extension x JOIN pg_available_extensions a ON a.name = x.extname
	WHERE x.extname = 'uid'}),
		't', 'uid is at the current version');
	is($new->safe_psql('app', $stand_ins_sql),
		join(' ', grep { !($builtin_since{$_} <= $new_major) || $_ eq 'public.uuidv7()' } @carried),
		'the update dropped the others that PostgreSQL has built in');
	ok($new->safe_psql('app', 'INSERT INTO orders (n) VALUES (1002) RETURNING id') > $id,
		'the defaults still work after the update');

	# The documented manual step for the one left.
	$new->safe_psql(
		'app', q{
	ALTER TABLE orders ALTER COLUMN v7 SET DEFAULT uuid7();
	ALTER EXTENSION uid DROP FUNCTION public.uuidv7();
	DROP FUNCTION public.uuidv7();});
	is($new->safe_psql('app', $stand_ins_sql), '',
		'retired by hand once the default moved');

	# Now the extension has exactly the members of a fresh install.
	$new->safe_psql('postgres', 'CREATE DATABASE fresh');
	$new->safe_psql('fresh', 'CREATE EXTENSION uid');
	is($new->safe_psql('app', $members_sql), $new->safe_psql('fresh', $members_sql),
		'the upgraded extension has exactly the members of a fresh install');
	is( $new->safe_psql('app',
			'INSERT INTO orders (n) VALUES (1003) RETURNING uuid_extract_version(v7)'),
		'7', 'the moved default makes version 7 UUIDs');

	# The database that was at the current version already: its stand-ins stay
	# until retired by hand (there is no update to run), and are harmless.
	is($new->safe_psql('postgres', $stand_ins_sql), "@carried",
		'a database that was at the current version keeps them');

	# Adopted sequences survive pg_upgrade: still adopted, still uid's IDs.
	is($new->safe_psql('postgres',
			q{SELECT string_agg(sequence::text || ':' || increment, ',' ORDER BY sequence::text) FROM uid_adoptions}),
		'adopted_id_seq:1,hib_seq:50', 'after pg_upgrade: the sequences are still adopted');
	is( $new->safe_psql('postgres', qq{
	INSERT INTO adopted (n) VALUES (3)
	RETURNING id > $old_adopted_max, currval('adopted_id_seq') = id, lastval() = id}),
		't|t|t', 'the adopted column gets uid IDs above the old server\'s, and currval() and lastval() name them');
	is($new->safe_psql('postgres', "SELECT nextval('hib_seq') - 50 > $old_adopted_max"), 't',
		'nextval() of the adopted sequence: its whole block lies above the old IDs');

	# The uid-keyed table: the same rows, the same types, the indexes
	# valid and used, the foreign key checked, JSON strings.
	is($new->safe_psql('postgres', $typed_digest_sql), $typed_digest,
		'the uid-keyed table and the one referring to it have the same rows');
	is( $new->safe_psql('postgres', q{
	SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod),
	                  ', ' ORDER BY attrelid::regclass::text)
	FROM pg_attribute WHERE attrelid IN ('typed'::regclass, 'typed_lines'::regclass)
	  AND attname IN ('id', 'typed_id')}),
		'typed.id uid, typed_lines.typed_id bigint', 'the key column is still of type uid');
	is( $new->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ' ' || o.opcname || ' ' || i.indisvalid || ' ' || i.indisready,
	                  ', ' ORDER BY c.relname)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_opclass o ON o.oid = i.indclass[0]
	WHERE i.indrelid IN ('typed'::regclass, 'typed_lines'::regclass)}),
		'typed_lines_typed_id int8_ops true true, typed_pkey int8_ops true true',
		'its indexes are bigint\'s (int8_ops), valid and ready');
	my $some_id = $new->safe_psql('postgres', 'SELECT id FROM typed WHERE n = 1000');
	# pg_dump, and so pg_upgrade, does not write the uid type's entries of
	# the built-in families integer_ops: the documented step puts them back
	is($new->safe_psql('postgres', 'SELECT uid_restore_operator_families()'), 'btree hash',
		'pg_upgrade left integer_ops without uid\'s entries; uid_restore_operator_families() adds them');
	like( $new->safe_psql('postgres',
			"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT n FROM typed WHERE id IN ('${some_id}', '1')"),
		qr/Index Scan using typed_pkey on typed/, '... and an IN list on the uid column scans the primary key');
	like( $new->safe_psql('postgres',
			"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT n FROM typed WHERE id = ${some_id}::int8"),
		qr/Index Scan using typed_pkey on typed/, 'WHERE id = <int8 literal> scans the primary key');
	is($new->safe_psql('postgres', "SELECT n FROM typed WHERE id = ${some_id}::int8"), '1000',
		'... and finds the row');
	if ($new->safe_psql('postgres',
			q{SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'}) eq '1')
	{
		$new->safe_psql('postgres', 'CREATE EXTENSION amcheck');
		is( $new->safe_psql('postgres', q{
	SELECT count(bt_index_check(c.oid, true)) FROM pg_class c
	WHERE c.relname IN ('typed_pkey', 'typed_lines_typed_id')}),
			'2', 'amcheck: both indexes hold every row, in order (bt_index_check with heapallindexed)');
		$new->safe_psql('postgres', 'DROP EXTENSION amcheck');
	}
	else
	{
		# this server was built without contrib: every id through each
		# index, in the index's order, against a scan of the table
		for my $index ([ 'typed', 'id', 'typed_pkey' ], [ 'typed_lines', 'typed_id', 'typed_lines_typed_id' ])
		{
			my ($table, $column, $name) = @$index;
			my $q = "SELECT md5(string_agg(${column}::text, ',' ORDER BY $column)) FROM $table";
			like( $new->safe_psql('postgres',
					"SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off;"
					  . " EXPLAIN (COSTS OFF) $q"),
				qr/Index Only Scan using $name/, "$name: an index-only scan reads the ids");
			is( $new->safe_psql('postgres',
					"SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off; $q"),
				$new->safe_psql('postgres',
					"SET enable_indexscan = off; SET enable_indexonlyscan = off;"
					  . " SET enable_bitmapscan = off; $q"),
				"$name: it finds every row of a scan of the table, in order");
		}
	}
	my ($fk_state) = sqlstate_of($new, 'INSERT INTO typed_lines VALUES (1, 1)');
	is($fk_state, '23503', 'the bigint foreign key to the uid key is still checked');
	is( $new->safe_psql('postgres', q{
	SELECT bool_and(json_typeof(to_json(id)) = 'string' AND row_to_json(t)::text = '{"id":"' || id || '","n":' || n || '}'),
	       count(*)
	FROM typed t}),
		't|2000', 'the JSON functions print every id as a string');
	is( $new->safe_psql('postgres',
			'INSERT INTO typed (n) VALUES (2001) RETURNING pg_typeof(id), id > (SELECT max(id) FROM typed WHERE n < 2001)'),
		'uid|t', 'its default makes uid values above the old ones');

	$new->stop;
	return;
}

for my $bindir (@old_bindirs)
{
	my ($version, $major) = `$bindir/pg_config --version` =~ /PostgreSQL ((\d+)\S*)/;
	subtest "pg_upgrade from PostgreSQL $version" => sub { upgrade_from($bindir, $major) };
}

done_testing();
