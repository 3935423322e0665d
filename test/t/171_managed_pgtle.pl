# uid_managed installed through pg_tle (docs/managed.md), as managed
# servers offer it: pgtle.install_extension() by a role that has
# pgtle_admin and is not a superuser, then CREATE EXTENSION uid_managed by
# that role, ids issued by another.  pg_tle comes from the cache of
# test/build-pg_tle.sh, copied into this run's private install
# (tmp_install, never the system's); without a build there the file skips
# itself, saying what to run.
use strict;
use warnings;

use Cwd qw(abs_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $top = abs_path("$FindBin::RealBin/../..");

# pg_tle into the private install of this run, if it is not there yet
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
if (!-e "$sharedir/extension/pg_tle.control")
{
	my $install = "$top/tmp_install";
	plan skip_all => "the server in use is not this run's private install ($sharedir)"
	  unless -d $install && index(abs_path($sharedir) // '', $install) == 0;
	my ($major) = `pg_config --version` =~ /PostgreSQL (\d+)/;
	# a build of test/build-pg_tle.sh in its cache (the tests run as the
	# postgres OS user on a copy of the tree, which knows no sources)
	my ($dir) = reverse sort grep { -e "$_/.uid-build-complete" }
	  map { glob("$_/pg_tle-*-on-$major-*") }
	  grep { defined } ($ENV{UID_PG_CACHE}, '/var/cache/uid-pg',
		($ENV{HOME} // '/nonexistent') . '/.cache/uid-pg');
	plan skip_all =>
	  "pg_tle is not built for PostgreSQL $major (as root: bash test/build-pg_tle.sh $major; pg_tle 1.5.2 builds on 15 to 18, not on 19: docs/managed.md)"
	  unless defined $dir;
	system("tar -C '$dir' --exclude=./.uid-build-complete -cf - . | tar -C '$install' -xf -") == 0
	  or die "could not copy pg_tle into $install";
}

my $build = managed_build();

my $node = PostgreSQL::Test::Cluster->new('pgtle');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'\n");
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE ROLE owner LOGIN NOSUPERUSER;
	CREATE ROLE app LOGIN NOSUPERUSER;
	CREATE DATABASE m OWNER owner;});
$node->safe_psql('m', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO owner;');
is( $node->safe_psql('m', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'owner'}),
	'f', 'the installing role is not a superuser');

$node->command_ok(
	[
		'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-U', 'owner',
		'-d', $node->connstr('m'), '-f', "$build/uid_managed_pgtle.sql"
	],
	'pgtle.install_extension() of uid_managed, as a role with pgtle_admin');

sub owner_psql
{
	return $node->safe_psql('m', $_[0], extra_params => [ '-U', 'owner' ]);
}
owner_psql('CREATE SCHEMA ids; CREATE EXTENSION uid_managed SCHEMA ids');
is( owner_psql(
		q{SELECT extversion, extnamespace::regnamespace FROM pg_extension WHERE extname = 'uid_managed'}),
	'1.0|ids', 'CREATE EXTENSION uid_managed by that role');
is( owner_psql(
		q{SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		  WHERE e.extname = 'uid_managed' AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'}),
	owner_psql(
		q{SELECT count(*) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace}),
	'every function of the schema belongs to the extension');
owner_psql('GRANT USAGE ON SCHEMA ids TO app; SELECT ids.uid_managed_set_worker_id(9)');

my ($n, $distinct, $worker, $increasing, $uuids) = split /\|/, $node->safe_psql(
	'm', q{
	CREATE TEMP TABLE t AS SELECT i, ids.uid_next() AS id, ids.uuid7() AS u
	  FROM generate_series(1, 10000) i;
	SELECT count(*), count(DISTINCT id),
	       bool_and((ids.uid_decode(id)).worker_id = 9),
	       NOT EXISTS (SELECT FROM (SELECT id, u, lag(id) OVER (ORDER BY i) AS p,
	                                       lag(u) OVER (ORDER BY i) AS q FROM t) s
	                   WHERE id <= p OR u <= q),
	       count(DISTINCT u)
	FROM t},
	extra_params => [ '-U', 'app' ]);
is("$n|$distinct|$uuids", '10000|10000|10000', 'another role issues 10,000 ids and UUIDs, none twice');
is($worker,     't', 'with the worker id the owner set');
is($increasing, 't', 'strictly increasing');

is( $node->safe_psql(
		'm', q{
	SELECT (ids.uid_decode('order_11X7H44DWJR00')).id,
	       ids.uuid_from_typeid(ids.uuid_to_typeid('01890a5d-ac96-774b-bcce-b302099a8057', 'user'), 'user'),
	       ids.uid_first_at('2026-01-01 00:00:00.000001+00')},
		extra_params => [ '-U', 'app' ]),
	'1221866523426643968|01890a5d-ac96-774b-bcce-b302099a8057|4194304',
	'the other role reads ids back: uid_decode(text), TypeIDs, the time bounds');

my ($ret, $out, $err) = $node->psql('m', 'SELECT ids.uid_managed_set_worker_id(1)',
	extra_params => [ '-U', 'app' ]);
like($err, qr/permission denied/, 'the other role cannot set the worker id');

# pg_dump of the database and its restore into another (the dump carries
# pg_tle's copy of the extension's files too): the worker id and both generators' state come back,
# and the restored database issues above every id of the dumped one
my $max = owner_psql('SELECT ids.uid_next()');
my $max_u = owner_psql('SELECT ids.uuid7()');
my $dump = PostgreSQL::Test::Utils::tempdir() . '/m.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('m'), '-f', $dump ], 'pg_dump of the database');
$node->safe_psql('postgres', 'CREATE DATABASE m2 OWNER owner');
$node->command_ok(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('m2'), '-f', $dump ],
	'its restore runs without an error');
my ($w2, $above, $above_u) = split /\|/, $node->safe_psql('m2', qq{
	SELECT (ids.uid_decode(ids.uid_next())).worker_id, ids.uid_next() > $max, ids.uuid7() > '$max_u'});
is($w2, '9', 'the restored database keeps the worker id the owner set');
is("$above|$above_u", 't|t', 'and issues ids and UUIDs above the dumped database\'s');

done_testing();
