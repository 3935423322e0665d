# The uid type through the clients that type a column by its type's OID
# (docs/clients.md): the type's OID differs in every database, and each of
# these clients needs one line of set-up that the test gives it.  Each
# client program runs three times: against a table keyed by uid without
# the set-up (it fails: the step named below), with it (every step passes),
# and against a bigint table without it (every step passes, but the JSON
# the application writes rounds in JavaScript: the reason for the type).
# The steps: insert with the DEFAULT, read the id back, look the row up,
# update and delete it by the id as a bound parameter; then the
# application's own JSON of 50 seeded rows, read by node's JSON.parse,
# each id compared with the database's id::text.
# With PostgreSQL 15 only: what the clients see does not depend on the
# server's version, and the Go builds are slow.
use strict;
use warnings;

use Digest::SHA;
use File::Basename qw(dirname);
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(__FILE__);
use UidTap;

my $clients = dirname(__FILE__) . '/../clients';
my $python  = -x '/usr/bin/python3' ? '/usr/bin/python3' : 'python3';

my $bindir = $ENV{UID_BINDIR} // dirname(`pg_config --bindir`);
my ($major) = `postgres --version` =~ /(\d+)/;
plan skip_all => "the clients that type by OID run with PostgreSQL 15; this is $major"
  unless $major == 15;

my @missing;
push @missing, 'node (nodejs)' unless on_path('node');
push @missing, 'asyncpg and SQLAlchemy (python3-asyncpg, python3-sqlalchemy)'
  if system($python, '-c', 'import asyncpg, sqlalchemy.ext.asyncio') != 0;
push @missing, 'psycopg 3 (python3-psycopg)' if system($python, '-c', 'import psycopg') != 0;
push @missing, 'ActiveRecord and ruby-pg (ruby-activerecord, ruby-pg)'
  unless on_path('ruby') && system('ruby', '-e', 'require "active_record"; require "pg"') == 0;
push @missing, 'javac (default-jdk-headless)' unless on_path('javac');
push @missing, 'PgJDBC (libpostgresql-jdbc-java)' unless -f '/usr/share/java/postgresql.jar';
push @missing, 'Go (golang-go)' unless on_path('go');
push @missing, 'cargo (cargo, rustc)' unless -x '/usr/bin/cargo';
push @missing, 'tokio-postgres and tokio (librust-tokio-postgres-dev, librust-tokio-dev)'
  unless glob('/usr/share/cargo/registry/tokio-postgres-0.7*') && glob('/usr/share/cargo/registry/tokio-1.*');
for my $pkg (qw(github.com/jackc/pgx/v4 github.com/lib/pq))
{
	push @missing, "$pkg (golang-github-jackc-pgx-v4-dev, golang-github-lib-pq-dev)"
	  unless -d "/usr/share/gocode/src/$pkg";
}
skip_unless_installed(@missing);

my $node = uid_node('oid_clients', 'uid.worker_id' => 9, 'listen_addresses' => '127.0.0.1');
$node->start;
# the clients read text in the server's encoding: UTF8 whatever the caller's
# LANG and LC_* (test/t/UidCluster.pm; with none set, initdb alone would
# make SQL_ASCII, and psycopg 3 would return bytes for text)
is($node->safe_psql('postgres', 'SHOW server_encoding'), 'UTF8', 'the server is UTF8');
my $port = $node->port;
$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id uid PRIMARY KEY DEFAULT uid_next(), item text UNIQUE NOT NULL);
	CREATE TABLE orders_bigint (id bigint PRIMARY KEY DEFAULT uid_next(), item text UNIQUE NOT NULL);
});

# The Go client, built from Debian's packaged sources (GOPATH mode, no
# network), once per version of its source (cached_build)
sub go_client
{
	my $src = "$clients/go/oid_clients.go";
	my ($cache, $bin) = cached_build('go', $src);
	return $bin if -x $bin;
	local $ENV{GO111MODULE} = 'off';
	local $ENV{GOPATH}      = '/usr/share/gocode';
	local $ENV{GOPROXY}     = 'off';
	local $ENV{GOCACHE}     = "$cache/go-build";
	run_client('go build test/clients/go/oid_clients.go', 'go', 'build', '-o', "$bin.tmp", $src);
	rename "$bin.tmp", $bin;
	return $bin;
}

# The Rust client, built by Debian's cargo from Debian's packaged crates
# (/usr/share/cargo/registry as the only source, offline, as debcargo
# builds), once per version of its source, as the Go client
sub rust_client
{
	my $dir = "$clients/rust";
	my ($cache, $bin) = cached_build('rust', map { "$dir/$_" } qw(Cargo.toml Cargo.lock src/main.rs));
	return $bin if -x $bin;
	my $home = PostgreSQL::Test::Utils::tempdir('cargo');
	open my $fh, '>', "$home/config.toml" or die $!;
	print $fh qq{[source.crates-io]\nreplace-with = "debian"\n}
	  . qq{[source.debian]\ndirectory = "/usr/share/cargo/registry"\n[net]\noffline = true\n};
	close $fh;
	local $ENV{CARGO_HOME}       = $home;
	local $ENV{CARGO_TARGET_DIR} = "$cache/rust-target";
	run_client('cargo build test/clients/rust', '/usr/bin/cargo', 'build', '--release', '--offline', '--locked',
		'--manifest-path', "$dir/Cargo.toml");
	rename "$cache/rust-target/release/oid_tokio_postgres", $bin;
	return $bin;
}

# (the cache directory, the path of the build of FILES): the build is named
# by the checksum of its sources, kept in /var/cache/uid-clients (test/deps.sh
# makes it) where the test can write, else in a temporary directory
sub cached_build
{
	my ($name, @files) = @_;
	my $sha = Digest::SHA->new(256);
	$sha->addfile($_, 'b') for @files;
	my $cache = '/var/cache/uid-clients';
	$cache = PostgreSQL::Test::Utils::tempdir($name) unless -d $cache && -w $cache;
	return ($cache, "$cache/$name-" . substr($sha->hexdigest, 0, 16));
}

# JSON.parse of the application's JSON: { item => [ String(id), typeof id ] }
sub parsed_by_node
{
	my ($json) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'node', "$clients/node/json_ids.js" ], '<', \$json, '>', \$out, '2>', \$err)
	  or diag("JSON.parse: $err");
	return { map { my ($i, $id, $t) = split /\t/; ($i => [ $id, $t ]) } split /\n/, $out };
}

# one client against TABLE, FIX 0 or 1: { steps => {...}, exact => N, types => 'string,...' }
sub drive
{
	my ($name, $cmd, $table, $fix) = @_;
	$node->safe_psql('postgres', qq{
		TRUNCATE $table;
		INSERT INTO $table (item) SELECT 'seed ' || g FROM generate_series(1, 50) g;
	});
	my %truth = map { split /\|/ } split /\n/,
	  $node->safe_psql('postgres', "SELECT item, id::text FROM $table WHERE item LIKE 'seed %'");
	my $out = run_client("$name against $table, set-up $fix", $cmd->($table, $fix));
	my $r = eval { decode_json($out) } // { steps => {}, json => '[]' };
	my $ids = parsed_by_node($r->{json});
	my %types = map { ($_->[1] => 1) } values %$ids;
	return {
		steps => $r->{steps},
		failed => [ sort grep { $r->{steps}{$_} ne 'ok' } keys %{ $r->{steps} } ],
		exact => scalar(grep { ($ids->{$_}[0] // '') eq $truth{$_} } keys %truth),
		types => join(',', sort keys %types),
	};
}

# CLIENT, its command for (TABLE, FIX), the steps that fail without the set-up
sub check_client
{
	my ($name, $cmd, $bigint_rounds, @fails) = @_;
	my $without = drive($name, $cmd, 'orders', 0);
	for my $s (@fails)
	{
		isnt($without->{steps}{$s} // 'missing', 'ok', "$name, uid, no set-up: $s fails")
		  and note("$name, uid, no set-up: $s: $without->{steps}{$s}");
	}
	my $with = drive($name, $cmd, 'orders', 1);
	is_deeply($with->{failed}, [], "$name, uid, with the set-up: every step passes")
	  or diag(explain $with->{steps});
	is($with->{exact}, 50, "$name, uid, with the set-up: JSON.parse keeps every id of the app's JSON");
	is($with->{types}, 'string', "$name, uid, with the set-up: the app's JSON has the ids as strings");
	my $bigint = drive($name, $cmd, 'orders_bigint', 0);
	is_deeply($bigint->{failed}, [], "$name, bigint: every step passes")
	  or diag(explain $bigint->{steps});
	if ($bigint_rounds)
	{
		cmp_ok($bigint->{exact}, '<', 50,
			"$name, bigint: JSON.parse rounds the ids of the app's JSON ($bigint->{exact} of 50 exact)");
	}
	else
	{
		is($bigint->{exact}, 50, "$name, bigint: the app's JSON writes the ids as strings too (json:\",string\")");
	}
	return;
}

my $url = "postgresql://postgres\@127.0.0.1:$port/postgres";
my $dsn = "host=127.0.0.1 port=$port dbname=postgres user=postgres";

check_client('asyncpg and SQLAlchemy',
	sub { ($python, "$clients/python/oid_asyncpg.py", $url, @_) }, 1,
	qw(lookup_int update_int delete_int insert_explicit orm_get_update_delete));
check_client('psycopg 3, binary results',
	sub { ($python, "$clients/python/oid_psycopg.py", $dsn, @_) }, 1,
	qw(convert_int json));
my $go = go_client();
check_client('pgx v4', sub { ($go, 'pgx', $url, @_) }, 0,
	qw(read read_interface read_seeded));
# lib/pq needs no set-up but a typed scan: without it (interface{}) the id
# is []byte, which encoding/json writes as base64
my $pq = drive('lib/pq', sub { ($go, 'pq', $url, @_) }, 'orders', 0);
is($pq->{exact}, 0, 'lib/pq, uid, scanned into interface{}: no id survives encoding/json (base64)');
check_client('lib/pq', sub { ($go, 'pq', $url, @_) }, 1);

my $dumps = PostgreSQL::Test::Utils::tempdir('activerecord');
check_client('ActiveRecord 6.1',
	sub { ('ruby', "$clients/ruby/oid_activerecord.rb", $url, @_, $dumps) }, 1,
	qw(no_oid_warning schema_rb));
check_client('ruby-pg, binary results',
	sub { ('ruby', "$clients/ruby/oid_pg.rb", $url, @_) }, 1,
	qw(read lookup update delete json no_warning));

# PgJDBC: without the set-up the type's OID is in binaryTransferEnable
my $classes = PostgreSQL::Test::Utils::tempdir('jdbc');
run_client('javac OidBinary.java', 'javac', '-J-Xmx256m', '-d', $classes, "$clients/jdbc/OidBinary.java");
check_client('PgJDBC, binaryTransferEnable',
	sub {
		('java', '-Xmx256m', '-XX:TieredStopAtLevel=1', '-cp', "$classes:/usr/share/java/postgresql.jar",
			'OidBinary', "jdbc:postgresql://127.0.0.1:$port/postgres", @_)
	}, 0,
	qw(read));

my $rust = rust_client();
check_client('tokio-postgres 0.7', sub { ($rust, $dsn, @_) }, 0,
	qw(read lookup update delete read_seeded));

$node->stop;
done_testing();
