# Real clients against adopted sequences (uid_adopt), with Debian's packages:
#   Hibernate 3.6 (SequenceStyleGenerator, increment_size 50, the pooled and
#   pooled-lo optimizers): two JVMs insert at the same time in JDBC batches;
#   every row arrives, no id twice, every id is of the new format;
#   PHP PDO (pdo_pgsql): lastInsertId() and lastInsertId(sequence) after an
#   insert into an adopted bigserial and identity column, with emulated and
#   server-side prepares, and with an insert into a plain table in between;
#   Perl DBD::Pg: last_insert_id by table and column and by {sequence}, the
#   same cases, on a connection opened before the adoption and on a new one.
# Each client first runs against plain sequences and tables, which proves the
# program.  UID_ADOPT_CLIENTS_BASELINE=1 runs everything without adopting:
# the uid_adopt calls and the checks that need them are skipped.
use strict;
use warnings;

use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(__FILE__);
use UidTap;

my $baseline = ($ENV{UID_ADOPT_CLIENTS_BASELINE} // '') eq '1';
my $clients  = dirname(__FILE__) . '/../clients';

my @jars     = hibernate_jars();

my @missing = missing_jvm_php_perl_clients();
skip_unless_installed(@missing);

# Every statement of PHP and DBD::Pg goes to the server log, so that it shows
# what each client sends to read the new id.
my $node = uid_node(
	'clients',
	'uid.worker_id'    => 7,
	'listen_addresses' => '127.0.0.1',
	'log_statement'    => 'all');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
my $port = $node->port;

sub adopt
{
	my ($rel) = @_;
	my $steps = $node->safe_psql('postgres', "SELECT uid_adopt('$rel')");
	note("uid_adopt('$rel'):\n$steps");
	ok($steps ne '', "uid_adopt('$rel') returns its steps");
	return;
}

# ---------------------------------------------------------------------------
# Hibernate
# ---------------------------------------------------------------------------
my $rows_per_jvm = 5000;
my $increment    = 50;
my $classes      = PostgreSQL::Test::Utils::tempdir('hibernate');
my $classpath    = join ':', $classes, @jars;
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'javac', '-J-Xmx256m', '-cp', $classpath, '-d', $classes,
			"$clients/hibernate/OrderLoad.java" ],
		'<', \undef, '>', \$out, '2>', \$err)
	  or BAIL_OUT("javac OrderLoad.java failed: $err");
}

# A table and its sequence.  A plain sequence is drawn once: Hibernate 3.6
# treats a first value equal to the initial value 1 apart (it draws again
# and takes everything from 1 up to the second value), so two JVMs that both
# start on a fresh plain sequence may overlap.
sub orders_table
{
	my ($table, $sequence, $plain) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $table (id bigint PRIMARY KEY, label text NOT NULL, n int NOT NULL);
		CREATE SEQUENCE $sequence INCREMENT $increment;
	});
	$node->safe_psql('postgres', "SELECT nextval('$sequence')") if $plain;
	return;
}

# Runs one JVM per optimizer in @optimizers at the same time, each inserting
# $rows_per_jvm rows into $table, labelled jvm1, jvm2, ...; checks that each
# exited 0 and that all its rows are there.
sub hibernate_load
{
	my ($what, $table, $sequence, @optimizers) = @_;
	# the JVMs' thousands of inserts stay out of the server log
	my $url = "jdbc:postgresql://127.0.0.1:$port/postgres?options=-c%20log_statement%3Dnone";
	my (@h, @out, @err);
	for my $i (0 .. $#optimizers)
	{
		($out[$i], $err[$i]) = ('', '');
		push @h, IPC::Run::start(
			[ 'java', '-Xmx256m', '-XX:TieredStopAtLevel=1', '-cp', $classpath, 'OrderLoad',
				$url, 'postgres', $table, $sequence, $optimizers[$i], $increment,
				$rows_per_jvm, 50, 'jvm' . ($i + 1) ],
			'<', \undef, '>', \$out[$i], '2>', \$err[$i]);
	}
	for my $i (0 .. $#h)
	{
		my $ok = $h[$i]->finish;
		ok($ok, "$what: JVM " . ($i + 1) . " ($optimizers[$i]) exited 0")
		  or diag("stdout: $out[$i]\nstderr: " . substr($err[$i], 0, 4000));
		like($out[$i], qr/^inserted $rows_per_jvm$/m, "$what: JVM " . ($i + 1) . ' reports all its rows');
	}
	my $expect = join "\n", map { 'jvm' . $_ . "|$rows_per_jvm|$rows_per_jvm" } 1 .. @optimizers;
	is( $node->safe_psql('postgres',
			"SELECT label, count(*), count(DISTINCT id) FROM $table GROUP BY label ORDER BY label"),
		$expect,
		"$what: every row of every JVM is there, each with its own id");
	is($node->safe_psql('postgres', "SELECT count(DISTINCT id) FROM $table"),
		$rows_per_jvm * @optimizers, "$what: no id twice across the JVMs");
	return;
}

# plain sequences: the programs work
orders_table('orders_plain',    'orders_plain_seq',    1);
orders_table('orders_lo_plain', 'orders_lo_plain_seq', 1);
hibernate_load('plain sequence, pooled', 'orders_plain', 'orders_plain_seq', 'pooled', 'pooled');
hibernate_load('plain sequence, pooled-lo', 'orders_lo_plain', 'orders_lo_plain_seq', 'pooled-lo', 'pooled-lo');
# What a value N stands for, seen on the plain sequences, whose value 1 was
# drawn before: Hibernate 3.6's pooled took N - 50 .. N - 1 from the first
# value it got, 51 (later versions take N - 49 .. N); pooled-lo N .. N + 49.
is($node->safe_psql('postgres', 'SELECT min(id) FROM orders_plain'),
	'1', 'plain sequence, pooled: the first value 51 stood for the ids 1 .. 50');
is($node->safe_psql('postgres', 'SELECT min(id) FROM orders_lo_plain'),
	'51', 'plain sequence, pooled-lo: the first value 51 stood for the ids 51 .. 100');

# adopted sequences, used by no column default (as Hibernate creates them)
orders_table('orders',     'orders_seq',     $baseline);
orders_table('orders_lo',  'orders_lo_seq',  $baseline);
orders_table('orders_mix', 'orders_mix_seq', $baseline);
unless ($baseline)
{
	adopt($_) for qw(orders_seq orders_lo_seq orders_mix_seq);

	# So the ids N - 50 .. N + 49 belong to a value N of an adopted
	# sequence: an id issued just before N lies below N - 50, one issued just
	# after it above N + 49.  (OFFSET 0 keeps each row's two calls in the
	# order written.)
	is( $node->safe_psql('postgres', qq{
			SELECT bool_and(n - $increment > before) FROM (
				SELECT uid_next() AS before, nextval('orders_mix_seq') AS n
				FROM generate_series(1, 200) OFFSET 0) s}),
		't', 'an id issued just before nextval N lies below N - 50');
	is( $node->safe_psql('postgres', qq{
			SELECT bool_and(after > n + $increment - 1) FROM (
				SELECT nextval('orders_mix_seq') AS n, uid_next() AS after
				FROM generate_series(1, 200) OFFSET 0) s}),
		't', 'an id issued just after nextval N lies above N + 49');
}
# each run notes a uid_next() just before its JVMs start
my %floor;
$floor{orders} = $node->safe_psql('postgres', 'SELECT uid_next()');
hibernate_load('adopted sequence, pooled', 'orders', 'orders_seq', 'pooled', 'pooled');
$floor{orders_lo} = $node->safe_psql('postgres', 'SELECT uid_next()');
hibernate_load('adopted sequence, pooled-lo', 'orders_lo', 'orders_lo_seq', 'pooled-lo', 'pooled-lo');
SKIP:
{
	# on a plain sequence, the two optimizers on one sequence overlap
	skip 'pooled and pooled-lo on one sequence: only once adopted', 6 if $baseline;
	$floor{orders_mix} = $node->safe_psql('postgres', 'SELECT uid_next()');
	hibernate_load('adopted sequence, pooled and pooled-lo at once',
		'orders_mix', 'orders_mix_seq', 'pooled', 'pooled-lo');
}
SKIP:
{
	skip 'new-format ids: only once adopted', 3 if $baseline;
	for my $table (qw(orders orders_lo orders_mix))
	{
		is($node->safe_psql('postgres', "SELECT min(id) > $floor{$table} FROM $table"),
			't', "$table: every id lies above a uid_next() taken before the JVMs started");
	}
}

# ---------------------------------------------------------------------------
# PHP PDO and Perl DBD::Pg: the id of the row just inserted
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', q{
	CREATE TABLE t (id bigserial PRIMARY KEY, marker text UNIQUE NOT NULL);
	CREATE TABLE ti (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, marker text UNIQUE NOT NULL);
	CREATE TABLE plain (id bigserial PRIMARY KEY, marker text UNIQUE NOT NULL);
	INSERT INTO t (marker) SELECT 'old ' || i FROM generate_series(1, 10) i;
	INSERT INTO ti (marker) SELECT 'old ' || i FROM generate_series(1, 10) i;
	INSERT INTO plain (marker) SELECT 'old ' || i FROM generate_series(1, 10) i;
});

sub stored_id
{
	my ($table, $marker) = @_;
	return $node->safe_psql('postgres', "SELECT id FROM $table WHERE marker = '$marker'");
}

my $dsn = "host=127.0.0.1;port=$port;dbname=postgres";

# a DBD::Pg connection that lives through the adoption, and has looked up
# and cached t's sequence before it
my $early = DBI->connect("dbi:Pg:$dsn", 'postgres', '', { RaiseError => 1, AutoCommit => 1, PrintError => 0 });
$early->do(q{INSERT INTO t (marker) VALUES ('dbd early')});
is($early->last_insert_id(undef, 'public', 't', 'id'), stored_id('t', 'dbd early'),
	'DBD::Pg: last_insert_id before the adoption');

unless ($baseline)
{
	adopt($_) for qw(t ti);
	is( $node->safe_psql('postgres',
			q{SELECT pg_get_serial_sequence('t', 'id'), pg_get_serial_sequence('ti', 'id')}),
		'public.t_id_seq|public.ti_id_seq', 'pg_get_serial_sequence() is unchanged');
}
my $uid_floor = $node->safe_psql('postgres', 'SELECT uid_next()');

# every id a client reads back below: it is the stored one, and once adopted
# a new one (the plain table keeps its small numbers)
sub is_new_id
{
	my ($got, $table, $marker, $what) = @_;
	my $id = stored_id($table, $marker);
	is($got, $id, "$what: the id stored for the row");
	SKIP:
	{
		skip 'new-format ids: only once adopted', 1 if $baseline;
		if ($table eq 'plain')
		{
			cmp_ok($id, '<', 1000, "$what: the plain table keeps its sequence");
		}
		else
		{
			cmp_ok($id, '>', $uid_floor, "$what: a new-format id");
		}
	}
	return;
}

# --- PHP
for my $emulate (1, 0)
{
	my $how = $emulate ? 'emulated prepares' : 'server-side prepares';
	for my $case ([ 't', 't_id_seq', undef ], [ 'ti', 'ti_id_seq', undef ], [ 't', 't_id_seq', 'plain' ])
	{
		my ($table, $sequence, $other) = @$case;
		my $marker = "php $table" . ($other ? " then $other" : '') . " emulate $emulate";
		my ($out, $err) = ('', '');
		IPC::Run::run([ 'php', "$clients/php/last_insert_id.php", "pgsql:$dsn;user=postgres",
				$table, $sequence, $marker, $emulate, $other // () ],
			'<', \undef, '>', \$out, '2>', \$err);
		chomp $out;
		my ($m, $last, $named) = split /\t/, $out;
		is($m, $marker, "PHP $marker: the script ran") or diag("stdout: $out\nstderr: $err");
		my $what = "PHP, $how, insert into $table" . ($other ? " then into $other" : '');
		is_new_id($last, $other // $table, $marker, "$what: lastInsertId()");
		is_new_id($named, $table, $marker, "$what: lastInsertId('$sequence')");
	}
}

# --- Perl DBD::Pg
my $late = DBI->connect("dbi:Pg:$dsn", 'postgres', '', { RaiseError => 1, AutoCommit => 1, PrintError => 0 });
for my $conn ([ 'connected before', $early ], [ 'connected after', $late ])
{
	my ($when, $dbh) = @$conn;
	for my $server_prepare (0, 1)
	{
		$dbh->{pg_server_prepare} = $server_prepare;
		my $how = "$when, pg_server_prepare $server_prepare";
		for my $table (qw(t ti))
		{
			my $marker = "dbd $table $how";
			$dbh->do("INSERT INTO $table (marker) VALUES (?)", undef, $marker);
			is_new_id($dbh->last_insert_id(undef, 'public', $table, 'id'),
				$table, $marker, "DBD::Pg, $how, $table: last_insert_id(undef, 'public', '$table', 'id')");
			is_new_id($dbh->last_insert_id(undef, undef, undef, undef, { sequence => "${table}_id_seq" }),
				$table, $marker, "DBD::Pg, $how, $table: last_insert_id with {sequence => '${table}_id_seq'}");
		}
		my $marker = "dbd t then plain $how";
		$dbh->do('INSERT INTO t (marker) VALUES (?)',     undef, $marker);
		$dbh->do('INSERT INTO plain (marker) VALUES (?)', undef, $marker);
		is_new_id($dbh->last_insert_id(undef, 'public', 't', 'id'),
			't', $marker, "DBD::Pg, $how, t then plain: last_insert_id of t");
		is_new_id($dbh->last_insert_id(undef, 'public', 'plain', 'id'),
			'plain', $marker, "DBD::Pg, $how, t then plain: last_insert_id of plain");
		is_new_id($dbh->selectrow_array('SELECT lastval()'),
			'plain', $marker, "DBD::Pg, $how, t then plain: lastval() follows plain");
	}
}
$_->disconnect for ($early, $late);

$node->stop;
done_testing();
