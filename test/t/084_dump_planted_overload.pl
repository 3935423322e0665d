# An ordinary role with CREATE on schema public (what PostgreSQL 14 and
# older grant every role, and clusters upgraded from them keep: in scope
# of docs/security.md, unlike the database owner, who owns public and
# whose plants PostgreSQL leaves to the trust a superuser places in it)
# creates a function under the name of one of uid's in uid's schema that
# takes the same arguments: public.uid_next(x integer DEFAULT 0).  It
# changes nothing in the database, but a restore of its dump would fail at
# the table's DEFAULT public.uid_next() ("not unique") and lose the table
# and its rows, and every application's uid_next() would fail the same way.
# uid's event trigger refuses such a function when it is created, renamed
# or moved into uid's schema (42723), so a pg_dump of the database restores
# with every table and row; and a dump taken while such a function existed
# (the trigger disabled) restores its tables too: the planted function is
# what the restore refuses.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use UidTap;

my $node = uid_node('dump_overload', 'uid.worker_id' => 3);
$node->start;
my $bindir = $node->config_data('--bindir');

$node->safe_psql('postgres', q{
	CREATE ROLE dbowner LOGIN;
	CREATE ROLE planter LOGIN;
	CREATE DATABASE owned OWNER dbowner;
});
$node->safe_psql('owned', 'CREATE EXTENSION uid; GRANT CREATE ON SCHEMA public TO planter');

sub as_owner
{
	my ($sql, $role) = @_;
	return $node->psql('owned', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role // 'dbowner' ]);
}

my ($ret, $out, $err) = as_owner(q{
	CREATE TABLE public.orders (id bigint PRIMARY KEY DEFAULT public.uid_next(), item text);
	CREATE TABLE public.typed (id uid PRIMARY KEY DEFAULT public.uid_next(), item text);
	INSERT INTO public.orders (item) VALUES ('a'), ('b');
	INSERT INTO public.typed (item) VALUES ('c');
});
is($ret, 0, 'the owner creates tables with DEFAULT uid_next()') or diag($err);

# every way into uid's schema under one of its names is refused
my %attempts = (
	'CREATE FUNCTION' =>
	  q{CREATE FUNCTION public.uid_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint'},
	'CREATE OR REPLACE of another signature' =>
	  q{CREATE OR REPLACE FUNCTION public.uid_to_text(x text) RETURNS text LANGUAGE sql AS 'SELECT x'},
	'CREATE PROCEDURE' => q{CREATE PROCEDURE public.uid_next(x integer) LANGUAGE sql AS 'SELECT 1'},
	'CREATE AGGREGATE' =>
	  q{CREATE AGGREGATE public.uid_next(integer) (SFUNC = int4pl, STYPE = integer)},
	'ALTER FUNCTION RENAME' => q{
		CREATE FUNCTION public.my_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint';
		ALTER FUNCTION public.my_next(integer) RENAME TO uid_next},
	'ALTER FUNCTION SET SCHEMA' => q{
		CREATE SCHEMA elsewhere;
		CREATE FUNCTION elsewhere.uid_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint';
		ALTER FUNCTION elsewhere.uid_next(integer) SET SCHEMA public},
);
for my $what (sort keys %attempts)
{
	# a schema to move from is the database owner's to create
	($ret, $out, $err) = as_owner("BEGIN;\n$attempts{$what};\nCOMMIT;",
		$what eq 'ALTER FUNCTION SET SCHEMA' ? 'dbowner' : 'planter');
	like($err, qr/ERROR:  42723: function .* has the name of a function of uid in uid's schema public/,
		"$what under a name of uid's, in uid's schema: refused (42723)");
}
like($err, qr/HINT:  Create the function in another schema or under another name/, '... with a hint');

($ret, $out, $err) = as_owner(q{
	CREATE FUNCTION public.my_other(x integer) RETURNS integer LANGUAGE sql AS 'SELECT x';
	CREATE SCHEMA mine;
	CREATE FUNCTION mine.uid_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint';
});
is($ret, 0, 'other names in uid\'s schema and uid\'s names in other schemas are left alone')
  or diag($err);

# a dump restores every table and row
sub dump_restore
{
	my ($db, $how, $rows) = @_;
	my $sql = $PostgreSQL::Test::Utils::tmp_check . "/$db.sql";
	command_ok([ "$bindir/pg_dump", '-f', $sql, '--dbname=' . $node->connstr('owned') ],
		"$how: pg_dump");
	$node->safe_psql('postgres', "CREATE DATABASE $db OWNER dbowner");
	my ($r, $o, $e) = ('', '', '');
	IPC::Run::run([ "$bindir/psql", '-X', '-q', '-f', $sql, '--dbname=' . $node->connstr($db) ],
		'>', \$o, '2>', \$e);
	is( $node->safe_psql($db,
			q{SELECT (SELECT count(*) FROM public.orders) || ',' || (SELECT count(*) FROM public.typed)}),
		$rows, "$how: the restore has every table and row");
	return $e;
}

my $errors = dump_restore('restored', 'with the trigger', '2,1');
unlike($errors, qr/ERROR/, '... and the restore raised no error') or diag($errors);

# a dump taken while a planted overload existed (the trigger disabled)
$node->safe_psql('owned', 'ALTER EVENT TRIGGER uid_guard_names DISABLE');
($ret, $out, $err) = as_owner(
	q{CREATE FUNCTION public.uid_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint'}, 'planter');
is($ret, 0, 'with the trigger disabled, the role plants public.uid_next(integer)') or diag($err);
($ret, $out, $err) = as_owner(q{SELECT public.uid_next()});
like($err, qr/ERROR:  42725: function public\.uid_next\(\) is not unique/,
	'... and every call of public.uid_next() fails: the path the trigger closes for such a role');
$node->safe_psql('owned', 'ALTER EVENT TRIGGER uid_guard_names ENABLE');
is($node->safe_psql('owned', q{INSERT INTO public.orders (item) VALUES ('live') RETURNING id > 1}),
	't', '... which changes nothing live: the default still calls uid\'s uid_next()');
$errors = dump_restore('restored_planted', 'a dump with the planted function', '3,1');
like($errors, qr/public\.uid_next\(integer\) has the name of a function of uid/,
	'... whose planted function is what the restore refuses');

done_testing();
