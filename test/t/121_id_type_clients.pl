# The uid type through the clients applications use, with Debian's packages
# (and npm's node-postgres where Debian's cannot be installed): every id a
# client reads is the database's own id::text, exactly.
#   node-postgres: the column comes back as a string; every JSON producer
#   (to_json, to_jsonb, row_to_json, json_agg, jsonb_agg, json_build_object,
#   jsonb_build_object, json_build_array, json_object_agg, jsonb_object_agg,
#   and from PostgreSQL 16 on JSON_OBJECT, JSON_ARRAY, JSON_ARRAYAGG,
#   JSON_OBJECTAGG) gives a string that JSON.parse keeps; a lookup by that
#   string finds the row.  The contrast: json_agg of the same ids in a
#   bigint column gives numbers that JSON.parse rounds.
#   Hibernate 3.6 with PgJDBC: a Long id made by the column's DEFAULT
#   uid_next() (<generator class="identity"/>: getGeneratedKeys), loaded by
#   id, updated, found by an HQL Long parameter; getObject, getLong,
#   getString; an id bound by setString, without and with
#   stringtype=unspecified.
#   PHP PDO (pdo_pgsql), DBD::Pg, psycopg2: the column, json_agg through the
#   language's JSON decoder, lookups by id; psycopg2: = ANY of a list of the
#   ids it returned, which needs = ANY(%s::uid[]) (docs/clients.md).
# UID_ID_TYPE_CLIENTS_BASELINE=1 makes orders.id a bigint: the checks that
# the type passes then fail (JSON gives numbers, JSON.parse rounds them).
use strict;
use warnings;

use B;
use File::Basename qw(dirname);
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(__FILE__);
use UidTap;

my $baseline = ($ENV{UID_ID_TYPE_CLIENTS_BASELINE} // '') eq '1';
my $clients  = dirname(__FILE__) . '/../clients';
my $rows     = 20000;

my @jars     = hibernate_jars();
# Debian's node-pg lives in /usr/share/nodejs; test/deps.sh puts npm's pg
# into /var/cache/uid-npm where Debian's cannot be installed
my $node_path = '/var/cache/uid-npm/node_modules:/usr/share/nodejs';
# Debian's python3, for which python3-psycopg2 is built
my $python = -x '/usr/bin/python3' ? '/usr/bin/python3' : 'python3';

my @missing = missing_jvm_php_perl_clients();
if (!on_path('node'))
{
	push @missing, 'node (nodejs)';
}
else
{
	local $ENV{NODE_PATH} = $node_path;
	push @missing, 'node-postgres (node-pg, or npm pg in /var/cache/uid-npm)'
	  if system('node', '-e', 'require("pg")') != 0;
}
push @missing, 'psycopg2 (python3-psycopg2)'
  if system($python, '-c', 'import psycopg2') != 0;
skip_unless_installed(@missing);

my $node = uid_node('id_type_clients', 'uid.worker_id' => 7, 'listen_addresses' => '127.0.0.1');
$node->start;
# the clients read text in the server's encoding: UTF8 whatever the caller's
# LANG and LC_* (test/t/UidCluster.pm; with none set, initdb alone would
# make SQL_ASCII, and psycopg 3 would return bytes for text)
is($node->safe_psql('postgres', 'SHOW server_encoding'), 'UTF8', 'the server is UTF8');
my $port = $node->port;
my $id_type = $baseline ? 'bigint' : 'uid';
$node->safe_psql('postgres', qq{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id $id_type PRIMARY KEY DEFAULT uid_next(), item text UNIQUE NOT NULL);
	CREATE TABLE orders_bigint (id bigint PRIMARY KEY, item text UNIQUE NOT NULL);
});

# the database's text of every id, by item
sub truth
{
	my %t = map { split /\|/ } split /\n/,
	  $node->safe_psql('postgres', 'SELECT item, id::text FROM orders');
	return \%t;
}

# ---------------------------------------------------------------------------
# node-postgres
# ---------------------------------------------------------------------------
# the server has SQL/JSON constructors from 16 on
my $sqljson = $node->pg_version >= 16;
my $node_out;
{
	local $ENV{NODE_PATH}  = $node_path;
	local $ENV{PGHOST}     = '127.0.0.1';
	local $ENV{PGPORT}     = $port;
	local $ENV{PGUSER}     = 'postgres';
	local $ENV{PGDATABASE} = 'postgres';
	$node_out = run_client('node-postgres: test/clients/node/id_type.js',
		'node', "$clients/node/id_type.js", $rows, $sqljson ? 1 : 0);
}
my $r = eval { decode_json($node_out) } // {};
is($node->safe_psql('postgres', 'SELECT count(DISTINCT id) FROM orders'), $rows,
	"node-postgres: $rows rows inserted, each with its own id");
is_deeply($r->{returning}, { n => $rows, strings => $rows, exact => $rows },
	'node-postgres: INSERT ... RETURNING id: every id a string, exactly the stored one');
is_deeply($r->{column}, { n => $rows, exact => $rows, strings => $rows, numbers => 0 },
	'node-postgres: SELECT id: every id a string, exactly id::text');
is($r->{column_type}, 'String', 'node-postgres: the column is read as a String');

my @producers = qw(json_agg json_agg_parsed_by_pg to_json to_jsonb row_to_json
  json_build_object jsonb_build_object json_build_array jsonb_agg
  json_object_agg jsonb_object_agg);
push @producers, qw(JSON_OBJECT JSON_ARRAY JSON_ARRAYAGG JSON_OBJECTAGG) if $sqljson;
for my $p (@producers)
{
	is_deeply($r->{$p}, { n => $rows, exact => $rows, strings => $rows, numbers => 0 },
		"node-postgres: $p through JSON.parse: every id a string, exactly id::text")
	  or diag(explain $r->{$p});
}
# the failure the type fixes: the same ids as a bigint column
my $lost = $rows - ($r->{json_agg_bigint}{exact} // $rows);
is($r->{json_agg_bigint}{numbers}, $rows, 'node-postgres: json_agg of a bigint column gives numbers');
cmp_ok($lost, '>', 0,
	"node-postgres: JSON.parse rounds the bigint column's ids ($lost of $rows changed)");

is_deeply($r->{lookup}, { n => $rows / 100, found => $rows / 100 },
	'node-postgres: WHERE id = $1 with the id string finds the row');
my $by_number = $r->{lookup_by_number} // {};
note("node-postgres: WHERE id = \$1 with JSON.parse's number of each of $by_number->{n} ids: "
	  . "the row $by_number->{found}, another row $by_number->{other}, none $by_number->{none}");
cmp_ok($by_number->{found}, '<', $by_number->{n},
	'node-postgres: a JSON.parse number of a bigint id misses rows (the row the id string finds)');

# ---------------------------------------------------------------------------
# Hibernate 3.6 and PgJDBC
# ---------------------------------------------------------------------------
my $hibernate_rows = 1000;
my $classes   = PostgreSQL::Test::Utils::tempdir('hibernate');
my $classpath = join ':', $classes, @jars;
run_client('javac IdTypeOrders.java', 'javac', '-J-Xmx256m', '-cp', $classpath, '-d', $classes,
	"$clients/hibernate/IdTypeOrders.java");
my $java_out = run_client('Hibernate: IdTypeOrders',
	'java', '-Xmx256m', '-XX:TieredStopAtLevel=1', '-cp', $classpath, 'IdTypeOrders',
	"jdbc:postgresql://127.0.0.1:$port/postgres", 'postgres', $hibernate_rows);
my (%saved, @updated, @hql, %jdbc, %set_string);
for (split /\n/, $java_out)
{
	my ($kind, @f) = split /\t/;
	if    ($kind eq 'saved')     { $saved{ $f[0] } = $f[1]; }
	elsif ($kind eq 'updated')   { push @updated, [@f]; }
	elsif ($kind eq 'hql')       { push @hql, [@f]; }
	elsif ($kind eq 'setString') { $set_string{ $f[0] } = $f[1]; }
	else                         { $jdbc{$kind} = [@f]; }
}
my $truth = truth();
my %stored = map { (s/ updated$//r) => $truth->{$_} } grep { /^hibernate / } keys %$truth;
is(scalar(keys %saved), $hibernate_rows, "Hibernate: $hibernate_rows entities saved");
is_deeply(\%saved, \%stored,
	'Hibernate: each saved entity got the id its row has (the DEFAULT uid_next(), through getGeneratedKeys)');
is($node->safe_psql('postgres', q{SELECT count(*) FROM orders WHERE item LIKE 'hibernate % updated'}),
	$hibernate_rows / 10, 'Hibernate: the entities loaded by id (session.get) were updated');
is(scalar(grep { ($truth->{ $_->[0] } // '') eq $_->[1] } @updated), $hibernate_rows / 10,
	'Hibernate: each updated row kept its id');
is(scalar(grep { ($saved{ $_->[1] } // '') eq $_->[0] } @hql), $hibernate_rows / 10,
	'Hibernate: HQL "where o.id = :id" with setLong finds each row');
my $first = $saved{'hibernate 0'} // '';
is_deeply($jdbc{getObject}, [ 'org.postgresql.util.PGobject', $first ],
	'PgJDBC: getObject() returns a PGobject whose value is the id');
is_deeply($jdbc{getLong},   [$first], 'PgJDBC: getLong() is the id');
is_deeply($jdbc{getString}, [$first], 'PgJDBC: getString() is the id');
like($set_string{'(default)'} // '', qr/^42883 .*uid = character varying/,
	'PgJDBC: an id bound by setString is a varchar: no operator uid = character varying');
is($set_string{'stringtype=unspecified'}, 'found hibernate 1',
	'PgJDBC: with stringtype=unspecified, an id bound by setString finds the row');

# the bigint copy, for the other clients' comparisons
$node->safe_psql('postgres', 'TRUNCATE orders_bigint; INSERT INTO orders_bigint SELECT id, item FROM orders');
my $all = $rows + $hibernate_rows;

# ---------------------------------------------------------------------------
# PHP PDO
# ---------------------------------------------------------------------------
my $php_out = run_client('PHP: test/clients/php/id_type.php',
	'php', "$clients/php/id_type.php", "pgsql:host=127.0.0.1;port=$port;dbname=postgres;user=postgres");
my %php;
for (split /\n/, $php_out)
{
	my ($kind, @f) = split /\t/;
	$kind .= ' ' . shift @f if $kind eq 'json';
	$kind .= ' ' . join ' ', splice(@f, 0, 2) if $kind eq 'lookup';
	$php{$kind} = [@f];
}
is_deeply($php{column}, [ 'string', $all, $all ], 'PHP PDO: the column comes back as strings, exactly id::text');
note("PHP PDO: a bigint column comes back as: $php{column_bigint}[0]; PHP_INT_SIZE $php{int_size}[0]");
is_deeply($php{'json orders'}, [ 'string', $all, $all ],
	'PHP PDO: json_agg through json_decode(): strings, exactly id::text');
SKIP:
{
	skip 'a bigint in JSON: int only on 64-bit PHP', 1 unless ($php{int_size}[0] // 0) == 8;
	is_deeply($php{'json orders_bigint'}, [ 'integer', $all, $all ],
		'PHP PDO: json_agg of a bigint column through json_decode(): 64-bit ints, exact');
}
for my $emulate (1, 0)
{
	for my $param (qw(string int))
	{
		is_deeply($php{"lookup $emulate $param"}, [ 50, 50 ],
			"PHP PDO: WHERE id = ? with the id bound as $param, emulated prepares $emulate: finds the row");
	}
}

# ---------------------------------------------------------------------------
# DBD::Pg
# ---------------------------------------------------------------------------
my $dbh = DBI->connect("dbi:Pg:host=127.0.0.1;port=$port;dbname=postgres", 'postgres', '',
	{ RaiseError => 1, AutoCommit => 1, PrintError => 0 });
# 'string', 'integer' or 'float': what a Perl scalar holds
sub perl_kind
{
	my ($v) = @_;
	my $flags = B::svref_2object(\$v)->FLAGS;
	return $flags & B::SVf_IOK ? 'integer' : $flags & B::SVf_NOK ? 'float' : 'string';
}
my $kinds = sub {
	my %k = map { (perl_kind($_) => 1) } @_;
	return join ',', sort keys %k;
};
{
	my $got = $dbh->selectall_arrayref('SELECT item, id FROM orders');
	is(scalar(grep { $truth->{ $_->[0] } eq $_->[1] } @$got), $all, 'DBD::Pg: the column: every id exactly id::text');
	is($kinds->(map { $_->[1] } @$got), 'string', 'DBD::Pg: the column comes back as strings');
	my $bigint = $dbh->selectall_arrayref('SELECT id FROM orders_bigint');
	note('DBD::Pg: a bigint column comes back as: ' . $kinds->(map { $_->[0] } @$bigint));

	for my $table (qw(orders orders_bigint))
	{
		my $list = JSON::PP->new->decode($dbh->selectrow_array("SELECT json_agg(o) FROM $table o"));
		is(scalar(grep { $truth->{ $_->{item} } eq $_->{id} } @$list), $all,
			"DBD::Pg: json_agg of $table through JSON::PP: every id exactly id::text");
		my $k = $kinds->(map { $_->{id} } @$list);
		if ($table eq 'orders') { is($k, 'string', 'DBD::Pg: JSON::PP gives the uid column\'s ids as strings'); }
		else                    { note("DBD::Pg: JSON::PP gives a bigint column's ids as: $k"); }
	}

	my @sample = (sort keys %$truth)[ 0 .. 49 ];
	for my $server_prepare (0, 1)
	{
		$dbh->{pg_server_prepare} = $server_prepare;
		for my $how ([ 'bind_param(1, $id)', undef ], [ 'bind_param(1, $id, { pg_type => PG_INT8 })', { pg_type => DBD::Pg::PG_INT8() } ])
		{
			my $sth = $dbh->prepare('SELECT item FROM orders WHERE id = ?');
			my $found = 0;
			for my $item (@sample)
			{
				$sth->bind_param(1, $truth->{$item}, $how->[1] ? $how->[1] : ());
				$sth->execute;
				my ($got) = $sth->fetchrow_array;
				$sth->finish;
				$found++ if defined $got && $got eq $item;
			}
			is($found, 50, "DBD::Pg: WHERE id = ? with $how->[0], pg_server_prepare $server_prepare: finds the row");
		}
	}
}
$dbh->disconnect;

# ---------------------------------------------------------------------------
# psycopg2
# ---------------------------------------------------------------------------
my $py_out = run_client('psycopg2: test/clients/python/id_type.py',
	$python, "$clients/python/id_type.py", "host=127.0.0.1 port=$port dbname=postgres user=postgres");
my %py;
for (split /\n/, $py_out)
{
	my ($kind, @f) = split /\t/;
	$kind .= ' ' . shift @f if $kind ne 'json';
	$py{$kind} = [@f];
}
is_deeply($py{'column default'}, [ 'str', $all, $all ],
	'psycopg2: by default the column comes back as str, exactly id::text');
is_deeply($py{'column registered'}, [ 'int', $all, $all ],
	'psycopg2: after register_type(new_type((oid,), "UID", INTEGER)): int, exactly id::text');
is_deeply($py{json}, [ 'str', $all, $all ], 'psycopg2: json_agg (decoded by psycopg2): str, exactly id::text');
is_deeply($py{'lookup str'}, [ 50, 50 ], 'psycopg2: WHERE id = %s with the id as a str finds the row');
is_deeply($py{'lookup int'}, [ 50, 50 ], 'psycopg2: WHERE id = %s with the id as an int finds the row');
is_deeply($py{'any plain'}, [ '42883', 50 ],
	'psycopg2: WHERE id = ANY(%s) with a list of the ids it returned (str) fails: a text[] (42883, uid = text)');
is_deeply($py{'any cast'}, [ 50, 50 ],
	'psycopg2: WHERE id = ANY(%s::uid[]) (docs/clients.md) with that list finds every row');
is_deeply($py{'any cast-empty'}, [ 0, 0 ], 'psycopg2: ... and an empty list finds none');

$node->stop;
done_testing();
