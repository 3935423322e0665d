# uid on a real Citus cluster: a coordinator and two workers on this
# machine (loopback only), each preloading Citus and uid, with Citus built
# by test/build-citus.sh into this server's private install.  What
# docs/citus.md promises, on the real thing:
#
#  1. uid.worker_id left unset: no node issues an ID, neither to a client
#     of the node, nor in a repartitioned INSERT ... SELECT (uid_next()
#     evaluated on the workers), nor in a function delegated to a worker,
#     nor in ALTER TABLE ... ADD COLUMN ... DEFAULT uid_next();
#  2. the documented lease set-up (every node 'lease', one store: a
#     dedicated database without Citus on the coordinator, the lease role
#     created there, its pg_hba.conf line and its password in a password
#     file): distinct worker ids, no duplicate under concurrent inserts on
#     all three nodes into one distributed table; the statements above
#     issue their IDs where the page says;
#  3. the ticket recipe, read from the page and run as written, on a
#     cluster whose groupids are not 1..n (a worker removed and re-added):
#     disjoint series that hand out 1, 2, 3, ... between them;
#  4. the lease worker's store sessions propagate no DDL: a store in a
#     database where Citus is installed (remote sessions of the workers,
#     the in-process session of the coordinator) leaves no lease schema on
#     the workers;
#  5. a distributed table partitioned by the time of its ids
#     (docs/partitioning.md): uid_partitions_maintain() on the coordinator
#     makes its partitions, Citus distributes them, rows land by their day.
#
# Skipped where the server has no Citus (PostgreSQL 15 and 19, which
# Citus 14 does not support, and any version test/run.sh did not build it
# for: TAP 030 stands in there), except that with UID_REQUIRE_ENGINES=1 a
# missing Citus on the version test/run.sh builds it for
# (UID_CITUS_VERSION, default 17) is a failure.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;
use LeaseTest qw(wait_held);
use IPC::Run;

my ($major) = `postgres --version` =~ /(\d+)/;
my $pkglibdir = `pg_config --pkglibdir`;
chomp $pkglibdir;
unless (-f "$pkglibdir/citus.so")
{
	my $citus_version = $ENV{UID_CITUS_VERSION} || 17;
	if ($ENV{UID_REQUIRE_ENGINES} && $major == $citus_version)
	{
		plan tests => 1;
		fail("Citus is not installed for PostgreSQL $major (test/build-citus.sh $major; test/run.sh installs it)");
		exit 0;
	}
	plan skip_all => "no Citus for PostgreSQL $major (test/run.sh builds it for $citus_version), TAP 030 stands in";
}

# --- three nodes, Citus and uid in database postgres on each, uid.worker_id unset
my %base = (
	shared_preload_libraries => 'citus,uid',
	listen_addresses => '127.0.0.1',
	# Citus commits writes to several nodes with two-phase commit
	max_prepared_transactions => 50,
	# the lease times of LeaseTest::lease_node, for when leases are on
	'uid.lease_ttl' => '5s',
	'uid.lease_renew_interval' => '500ms',
	'uid.lease_safety_margin' => '2000ms',
	'uid.lease_max_clock_skew' => '500ms');
my $coord = uid_node('coordinator', %base);
my $w1 = uid_node('worker1', %base);
my $w2 = uid_node('worker2', %base);
my @nodes = ($coord, $w1, $w2);
my @workers = ($w1, $w2);
$_->start for @nodes;
$_->safe_psql('postgres', 'CREATE EXTENSION citus; CREATE EXTENSION uid') for @nodes;
$coord->safe_psql('postgres', 'SELECT citus_set_coordinator_host(\'127.0.0.1\', ' . $coord->port . ')');
$coord->safe_psql('postgres', 'SELECT citus_add_node(\'127.0.0.1\', ' . $_->port . ')') for @workers;
is($coord->safe_psql('postgres',
		q{SELECT string_agg(node_port::text, ',' ORDER BY node_port) FROM citus_get_active_worker_nodes()}),
	join(',', sort { $a <=> $b } map { $_->port } @workers), 'the coordinator has both workers');
like($coord->safe_psql('postgres', q{SELECT citus_version()}), qr/^Citus \d+\.\d+/,
	'Citus: ' . $coord->safe_psql('postgres', q{SELECT citus_version()}));

# Runs $sql on the coordinator (it must fail): the SQLSTATE, and the node
# the error came from (the port of "while executing command on host:port",
# 'coordinator' without it).
sub failure_of
{
	my ($sql) = @_;
	my ($state, $err) = sqlstate_of($coord, $sql);
	my ($port) = $err =~ /while executing command on [^:\s]+:(\d+)/;
	return ($state, $port // 'coordinator', $err);
}
my %name_of_port = map { ($_->port => $_->name) } @nodes;

note('uid.worker_id unset');
for my $node (@nodes)
{
	my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
	is($state, 'UID02', $node->name . ': uid_next() refuses with UID02');
	like($err, qr/Citus is loaded and uid\.worker_id is not set/, $node->name . ': the detail says why');
	is($node->safe_psql('postgres', 'SELECT state FROM uid_lease_status()'), 'config_error',
		$node->name . ': uid_lease_status() says config_error');
}

$coord->safe_psql('postgres', q{
	CREATE TABLE src (k int, v int);
	SELECT create_distributed_table('src', 'k');
	INSERT INTO src SELECT g, g FROM generate_series(1, 2000) g;
	CREATE TABLE dst (id bigint DEFAULT uid_next(), k int, v int);
	SELECT create_distributed_table('dst', 'v');
	CREATE FUNCTION insert_dst(v int) RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE
		new_id bigint;
	BEGIN
		INSERT INTO dst (k, v) VALUES (v, v) RETURNING id INTO new_id;
		RETURN new_id;
	END $$;
	SELECT create_distributed_function('insert_dst(int)', '$1', colocate_with := 'dst');
});
my $repartitioned = 'INSERT INTO dst (k, v) SELECT k, v FROM src';
like($coord->safe_psql('postgres', "EXPLAIN (COSTS OFF) $repartitioned"), qr/INSERT\/SELECT method: repartition/,
	'the INSERT ... SELECT into a table distributed by another column is repartitioned');

my $a_worker = qr/^(?:@{[ join('|', map { $_->port } @workers) ]})$/;
my ($state, $where) = failure_of($repartitioned);
is($state, 'UID02', 'repartitioned INSERT ... SELECT: UID02');
like($where, $a_worker, "... raised by a worker ($where)");
($state, $where) = failure_of('SELECT insert_dst(7)');
is($state, 'UID02', 'function delegated to a worker: UID02');
like($where, $a_worker, "... raised by a worker ($where)");
($state, $where) = failure_of('ALTER TABLE src ADD COLUMN id bigint DEFAULT uid_next()');
is($state, 'UID02', 'ALTER TABLE ... ADD COLUMN ... DEFAULT uid_next(): UID02');
like($where, $a_worker, "... raised by a worker ($where)");
($state, $where) = failure_of('INSERT INTO dst (k, v) VALUES (1, 1), (2, 2)');
is($state, 'UID02', 'multi-row INSERT on the coordinator: UID02');
is($where, 'coordinator', '... raised by the coordinator');
for my $w (@workers)
{
	($state) = sqlstate_of($w, 'INSERT INTO dst (k, v) VALUES (3, 3)');
	is($state, 'UID02', $w->name . ': INSERT into the distributed table on the worker: UID02');
}
is($coord->safe_psql('postgres', 'SELECT count(*) FROM dst'), '0', 'no row in dst');
is(join(',', map { $_->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats') } @nodes), '0,0,0',
	'no node issued an ID (uid_stats)');

note('the lease set-up of docs/citus.md');
# The store: a dedicated database on the coordinator, without Citus, set up
# as docs/leases.md recommends; the lease role is created in it, so that
# Citus does not create it on the workers.
my $cport = $coord->port;
$coord->safe_psql('postgres', 'CREATE DATABASE uid_coord');
$coord->safe_psql('uid_coord', q{
	CREATE ROLE uid_lease LOGIN PASSWORD 'lease-secret';
	ALTER DATABASE uid_coord OWNER TO uid_lease;
	REVOKE CONNECT, TEMPORARY ON DATABASE uid_coord FROM PUBLIC;
	GRANT CONNECT ON DATABASE uid_coord TO uid_lease;
});
$coord->safe_psql('postgres', 'CREATE ROLE made_in_citus_database');
for my $w (@workers)
{
	is($w->safe_psql('postgres', q{SELECT count(*) FROM pg_roles WHERE rolname = 'uid_lease'}), '0',
		$w->name . ': the lease role, created in the store database, is not on the worker');
	is($w->safe_psql('postgres', q{SELECT count(*) FROM pg_database WHERE datname = 'uid_coord'}), '0',
		$w->name . ': nor is the store database');
	is($w->safe_psql('postgres', q{SELECT count(*) FROM pg_roles WHERE rolname = 'made_in_citus_database'}), '1',
		$w->name . ': a role created in the database with Citus is on the worker too');
}
# the lease role only to its database, with a password, ahead of the
# test's own trust lines
my $hba = $coord->data_dir . '/pg_hba.conf';
my $hba_lines = slurp_file($hba);
open my $hba_fh, '>', $hba or die "could not write $hba: $!";
print $hba_fh "host  uid_coord  uid_lease  127.0.0.1/32  scram-sha-256\n" . $hba_lines;
close $hba_fh;
$coord->safe_psql('postgres', 'SELECT pg_reload_conf()');
my $conninfo = "host=127.0.0.1 port=$cport dbname=uid_coord user=uid_lease";
# the password where libpq finds it: the password file of every node's
# server (the postgres OS user's ~/.pgpass, here PGPASSFILE)
my $passfile = PostgreSQL::Test::Utils::tempdir() . '/pgpass';
open my $pass_fh, '>', $passfile or die "could not write $passfile: $!";
print $pass_fh "127.0.0.1:$cport:uid_coord:uid_lease:lease-secret\n";
close $pass_fh;
chmod 0600, $passfile;
{
	local $ENV{PGPASSFILE} = '/nonexistent';
	my ($ret, $out, $err) = $coord->psql('postgres', 'SELECT 1', connstr => $conninfo);
	like($err, qr/password/, 'the store asks the lease role for its password');
}
$ENV{PGPASSFILE} = $passfile;
for my $node (@nodes)
{
	$node->append_conf('postgresql.conf', "uid.worker_id = 'lease'\nuid.lease_conninfo = '$conninfo'\n");
	$node->restart;
}
my %worker_of;
for my $node (@nodes)
{
	($worker_of{ $node->name }) = wait_held($node);
}
is(scalar(keys %{ { reverse %worker_of } }), 3,
	'every node holds a lease, each a different worker id (' . join(', ', map { "$_ $worker_of{$_}" } sort keys %worker_of) . ')');
like($coord->safe_psql('postgres', 'SELECT store FROM uid_lease_status()'), qr/\(this server, database uid_coord\)/,
	'the coordinator uses the store in-process');
is($coord->safe_psql('uid_coord', 'SELECT count(*) FROM uid_lease.lease WHERE released_at IS NULL'), '3',
	'the store holds the three leases');
my %node_of_worker = reverse %worker_of;
my %node_of_port = map { ($_->port => $_->name) } @nodes;
my $workers_ids = join(',', sort { $a <=> $b } map { $worker_of{ $_->name } } @workers);

# on each node at once, 4 pgbench clients insert into one distributed table
$coord->safe_psql('postgres', q{
	CREATE TABLE ev (id bigint NOT NULL DEFAULT uid_next(), node text NOT NULL, k int NOT NULL);
	SELECT create_distributed_table('ev', 'k');
});
my ($clients, $per_client) = (4, 250);
my @runs;
for my $node (@nodes)
{
	my $script = $node->basedir . '/insert.sql';
	open my $fh, '>', $script or die "could not write $script: $!";
	print $fh "\\set k random(1, 1000000)\nINSERT INTO ev (node, k) VALUES ('@{[ $node->name ]}', :k);\n";
	close $fh;
	my ($out, $err) = ('', '');
	push @runs, [ $node, \$out, \$err, IPC::Run::start(
		[ 'pgbench', '-n', '-c', $clients, '-j', 2, '-t', $per_client, '-f', $script,
			'-h', $node->host, '-p', $node->port, 'postgres' ],
		'<', \undef, '>', \$out, '2>', \$err) ];
}
for my $run (@runs)
{
	my ($node, $out, $err, $h) = @$run;
	$h->finish;
	my $n = $clients * $per_client;
	like($$out, qr{processed: $n/$n}, $node->name . ": all $n inserts succeed") or diag($$err);
}
my $total = 3 * $clients * $per_client;
my $expected = join ' ', map { "WHEN '$_' THEN $worker_of{$_}" } sort keys %worker_of;
is($coord->safe_psql('postgres', "SELECT count(*), count(DISTINCT id), count(*) FILTER "
		  . "(WHERE (uid_decode(id)).worker_id IS DISTINCT FROM CASE node $expected END) FROM ev"),
	"$total|$total|0",
	"concurrent inserts on the three nodes: $total rows, $total distinct IDs, each with its node's worker id");

# where uid_next() runs (the table of docs/citus.md)
$coord->safe_psql('postgres', $repartitioned);
is($coord->safe_psql('postgres', q{SELECT count(*), count(DISTINCT id) FROM dst}), '2000|2000',
	'repartitioned INSERT ... SELECT: 2000 distinct IDs');
is($coord->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT (uid_decode(id)).worker_id::text, ',' ORDER BY (uid_decode(id)).worker_id::text) FROM dst}),
	join(',', sort map { $worker_of{ $_->name } } @workers),
	'... issued by the workers');
my $id = $coord->safe_psql('postgres', 'SELECT insert_dst(7)');
my $holder = $coord->safe_psql('postgres',
	q{SELECT nodeport FROM citus_shards WHERE shardid = get_shard_id_for_distribution_column('dst', 7)});
is($coord->safe_psql('postgres', "SELECT (uid_decode($id)).worker_id"), $worker_of{ $node_of_port{$holder} },
	"function delegated to a worker: its ID has the worker id of the worker it ran on ($node_of_port{$holder})");
$coord->safe_psql('postgres', 'ALTER TABLE src ADD COLUMN id bigint DEFAULT uid_next()');
is($coord->safe_psql('postgres',
		q{SELECT count(DISTINCT id) || '|' || string_agg(DISTINCT (uid_decode(id)).worker_id::text, ',' ORDER BY (uid_decode(id)).worker_id::text) FROM src}),
	'2000|' . join(',', sort map { $worker_of{ $_->name } } @workers),
	'ALTER TABLE ... ADD COLUMN ... DEFAULT uid_next(): filled by the workers, 2000 distinct IDs');
$coord->safe_psql('postgres', q{INSERT INTO dst (k, v) VALUES (-1, 1), (-2, 2), (-3, 3), (-4, 4)});
is($coord->safe_psql('postgres',
		q{SELECT count(*) || '|' || string_agg(DISTINCT (uid_decode(id)).worker_id::text, ',') FROM dst WHERE k < 0}),
	"4|$worker_of{ $coord->name }", 'multi-row INSERT on the coordinator: issued by the coordinator');
$w2->safe_psql('postgres', "COPY dst (k, v) FROM STDIN;\n-5\t5\n-6\t6\n-7\t7\n\\.\n");
is($w2->safe_psql('postgres',
		q{SELECT count(*) || '|' || string_agg(DISTINCT (uid_decode(id)).worker_id::text, ',') FROM dst WHERE k < -4}),
	"3|$worker_of{ $w2->name }", 'COPY on a worker: issued by that worker');
is($coord->safe_psql('postgres', q{SELECT count(*) - count(DISTINCT id) FROM (
		SELECT id FROM ev UNION ALL SELECT id FROM dst UNION ALL SELECT id FROM src) a}), '0',
	'no ID twice across the three tables');

# what Citus changes for the caller
my $before = $coord->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats');
$coord->safe_psql('postgres', q{EXPLAIN INSERT INTO ev (node, k) VALUES ('explain', 1)});
cmp_ok($coord->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats'), '>', $before,
	'EXPLAIN of an INSERT that calls uid_next() consumes IDs');
($state) = sqlstate_of($coord, 'UPDATE ev SET id = uid_next() WHERE k = 1');
like($state, qr/^0A000$/, 'UPDATE ... SET id = uid_next() on a distributed table is refused');

note('the ticket recipe of docs/citus.md, with groupids that are not 1..n');
$coord->safe_psql('postgres', 'DROP TABLE ev, dst, src');
$coord->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $w2->port . ')');
$coord->safe_psql('postgres', "SELECT citus_add_node('127.0.0.1', " . $w2->port . ')');
my %group_of = map { split /\|/ } split /\n/, $coord->safe_psql('postgres',
	q{SELECT nodeport, groupid FROM pg_dist_node WHERE noderole = 'primary'});
my @groups = sort { $a <=> $b } values %group_of;
is(scalar(@groups), 3, 'three primaries after the worker was removed and re-added');
isnt(join(',', @groups), '0,1,2', 'their groupids (' . join(', ', @groups) . ') are not 0, 1, 2');
my $doc = slurp_file("$FindBin::RealBin/../../docs/citus.md");
my @recipe = grep { /pg_dist_local_group/ }
  $doc =~ /```sql\n(SELECT \* FROM run_command_on_all_nodes\(\$\$\n.*?\n\$\$\);)\n```/sg;
is(scalar @recipe, 2, 'docs/citus.md has the check and the ticket recipe');
my ($check, $create) = @recipe;
like($create, qr/uid_ticket_create\('orders'/, 'the second one creates ticket orders');
my %port_of_nodeid = map { split /\|/ } split /\n/,
  $coord->safe_psql('postgres', 'SELECT nodeid, nodeport FROM pg_dist_node');
# the rank of each node's groupid, 1-based
my %rank_of_port = map {
	my $g = $group_of{$_};
	($_ => 1 + scalar(grep { $_ < $g } @groups))
} keys %group_of;

# "nodeid|success|result" of each node: success and result by node name
sub on_all_nodes
{
	my ($sql) = @_;
	my %r;
	for (split /\n/, $coord->safe_psql('postgres', $sql))
	{
		my ($nodeid, $success, $result) = split /\|/, $_, 3;
		$r{ $node_of_port{ $port_of_nodeid{$nodeid} } } = "$success|$result";
	}
	return %r;
}
my %checked = on_all_nodes($check);
is(join(',', map { "$_=" . ($checked{$_} // 'none') } sort keys %checked),
	join(',', map { $_->name . '=t|' . $rank_of_port{ $_->port } . ' of 3' } sort { $a->name cmp $b->name } @nodes),
	'the check: every node answers, node k of 3 by the rank of its groupid');
my %created = on_all_nodes($create);
is(join(',', map { "$_=$created{$_}" } sort keys %created),
	join(',', map { $_->name . '=t|uid_ticket.orders' } sort { $a->name cmp $b->name } @nodes),
	'the recipe creates ticket orders on every node');
my @drawn;
for my $node (@nodes)
{
	my @mine = split /\n/,
	  $node->safe_psql('postgres', q{SELECT uid_ticket_next('orders') FROM generate_series(1, 5)});
	my $k = $rank_of_port{ $node->port };
	is(join(',', @mine), join(',', map { $k + 3 * $_ } 0 .. 4),
		$node->name . " (group $group_of{$node->port}) hands out $k, $k + 3, ...");
	push @drawn, @mine;
}
is(join(',', sort { $a <=> $b } @drawn), join(',', 1 .. 15),
	'the three series are disjoint and hand out 1 to 15 between them');

note('the lease worker\'s store sessions propagate no DDL');
# the workers' store sessions (remote) into the coordinator's database
# with Citus, under a schema of their own
my $citus_store = "host=127.0.0.1 port=$cport dbname=postgres user=" . $coord->safe_psql('postgres', 'SELECT current_user');
for my $w (@workers)
{
	$w->append_conf('postgresql.conf',
		"uid.lease_conninfo = '$citus_store'\nuid.lease_schema = 'uid_lease_remote'\n");
	$w->restart;
	wait_held($w);
}
is($coord->safe_psql('postgres', q{SELECT count(*) FROM uid_lease_remote.lease WHERE released_at IS NULL}), '2',
	'the workers took their leases in the database with Citus');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'uid_lease_remote.lease'::regclass}),
	'0', 'the lease table is no Citus table');
# the coordinator's in-process store session, in its database with Citus
$coord->append_conf('postgresql.conf',
	"uid.lease_conninfo = '$citus_store'\nuid.lease_schema = 'uid_lease_self'\n");
$coord->restart;
wait_held($coord);
like($coord->safe_psql('postgres', 'SELECT store FROM uid_lease_status()'), qr/\(this server, database postgres\)/,
	'the coordinator uses its own database with Citus in-process');
is($coord->safe_psql('postgres', q{SELECT count(*) FROM uid_lease_self.lease WHERE released_at IS NULL}), '1',
	'the coordinator took its lease there');
for my $w (@workers)
{
	for my $schema ('uid_lease_remote', 'uid_lease_self')
	{
		is($w->safe_psql('postgres', "SELECT count(*) FROM pg_namespace WHERE nspname = '$schema'"),
			'0', $w->name . ": no schema $schema on the worker");
	}
}

note('a distributed table partitioned by the time of its ids');
# docs/partitioning.md: uid_partitions_maintain() on the coordinator makes
# the partitions of a distributed table partitioned by range of its id, and
# Citus distributes each like its parent
$coord->safe_psql('postgres', q{
	CREATE TABLE id_time_parted (id bigint PRIMARY KEY DEFAULT uid_next(), body text)
		PARTITION BY RANGE (id);
	SELECT create_distributed_table('id_time_parted', 'id');
});
is($coord->safe_psql('postgres',
		q{SELECT count(*) FROM uid_partitions_maintain('id_time_parted', '1 day', 2)}),
	'3', 'the coordinator makes the partitions of today and the 2 days ahead');
is($coord->safe_psql('postgres', q{
	SELECT count(*) FROM pg_inherits i
	JOIN pg_dist_partition d ON d.logicalrelid = i.inhrelid
	WHERE i.inhparent = 'id_time_parted'::regclass}),
	'3', 'Citus distributes each partition');
$coord->safe_psql('postgres',
	q{INSERT INTO id_time_parted (body) SELECT 'x' FROM generate_series(1, 100)});
my $today = $coord->safe_psql('postgres',
	q{SELECT 'id_time_parted_p' || to_char(uid_time(max(id)) AT TIME ZONE 'UTC', 'YYYYMMDD') FROM id_time_parted});
is($coord->safe_psql('postgres', "SELECT count(*) FROM $today"), '100',
	'rows inserted now land in the partition of their ids\' day');
is($coord->safe_psql('postgres',
		q{SELECT count(*) FROM uid_partitions_maintain('id_time_parted', '1 day', 2)}),
	'0', 'a second run makes nothing');

$_->stop for @nodes;
done_testing();
