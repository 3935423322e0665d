# The owner of a database (an ordinary login role: from 15 on it owns schema
# public, and may create schemas) against uid's functions that call each
# other by the name of the schema uid was installed in (@extschema@.name:
# uid_adopt(), uid_catch_up(), the counter functions), in PostgreSQL's
# model: a schema's owner decides what its names name.  Asserted:
#  1. uid installed, as docs/security.md recommends, in a schema of its own
#     that a superuser owns (ids): the owner may not rename it, drop it or
#     create in it (42501); it renames public, creates a new public with a
#     domain public.uid and, under every name and signature of uid's
#     functions, one of its own that notes that it ran and makes the owner
#     a superuser when a superuser runs it, and puts public first on the
#     database's search_path;
#  2. the owner's own uid_counter_next() of a tenant it holds no grant of
#     (refused inside uid_counter._next(), which is SECURITY DEFINER: it
#     runs as the extension's owner, a superuser), and a superuser's
#     uid_adopt() of the owner's table, uid_catch_up() and uid_audit(),
#     called by uid's schema, run none of the owner's code: nothing noted,
#     the owner is no superuser, and each function does its work;
#  3. uid installed in public, which the owner owns: the owner may rename
#     it, or drop it (DROP SCHEMA public CASCADE drops the extension with
#     it), and create a public of its own in which public.uid_catch_up() is
#     its function: with uid in public the database owner decides what a
#     call by public.name names, as it decides what much else of a
#     superuser's session in its database runs (its search_path, a schema
#     named after the superuser); uid guards none of it, and
#     docs/security.md says to install uid in a schema a superuser owns
#     where the owner is not trusted.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_schema_rename', 'uid.worker_id' => 7);
$node->start;

sub as_owner
{
	my ($sql) = @_;
	return $node->safe_psql('owned', $sql, extra_params => [ '-U', 'dbowner' ]);
}

# Runs $sql as $role in database owned (with on_error_stop as given, 1 by
# default); returns the SQLSTATE of its first error ("(none: exit N)"
# without one) and its stderr
sub state_as
{
	my ($role, $sql, $on_error_stop) = @_;
	my ($ret, $out, $err) = $node->psql('owned', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ], on_error_stop => $on_error_stop // 1);
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return ($state // "(none: exit $ret)", $err);
}

# the name of the schema that holds uid
sub uid_schema
{
	return $node->safe_psql('owned', q{
		SELECT n.nspname FROM pg_namespace n JOIN pg_extension e ON e.extnamespace = n.oid
		WHERE e.extname = 'uid'});
}

sub owner_is_superuser
{
	return $node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'dbowner'});
}

# what the planted functions noted: "name by role (superuser or not)", or none
sub hits
{
	return $node->safe_psql('owned', q{
		SELECT coalesce(string_agg(DISTINCT format('%s by %s%s', what, by_user,
			CASE WHEN by_superuser THEN ' (superuser)' ELSE '' END), ', '), 'none')
		FROM app.hits});
}

$node->safe_psql('postgres', q{
	CREATE ROLE dbowner LOGIN;
	CREATE DATABASE owned OWNER dbowner;
});
$node->safe_psql('owned', q{
	CREATE SCHEMA ids;
	GRANT USAGE ON SCHEMA ids TO PUBLIC;
	CREATE EXTENSION uid SCHEMA ids;
	SELECT ids.uid_counter_grant('acme', 'dbowner', 'INV');
});

# the owner's tables, in a schema of its own: a bigserial table for
# uid_adopt(), a table of uid_next() ids and uuid7() values for
# uid_catch_up() and uid_audit() (of the uuid column: the bigint one needs
# the tenure ledger of a lease store); app.mark(), which the planted
# functions call
as_owner(hostile_mark_sql() . q{
	CREATE TABLE app.orders (id bigserial PRIMARY KEY, item text);
	INSERT INTO app.orders (item) VALUES ('one'), ('two');
	CREATE TABLE app.events (id bigint PRIMARY KEY DEFAULT ids.uid_next(),
		u uuid DEFAULT ids.uuid7(), what text);
	INSERT INTO app.events (what) SELECT 'e' || i FROM generate_series(1, 10) AS i;
});
is(as_owner(q{SELECT ids.uid_counter_next('acme', 'INV')}), 'INV-001',
	'the owner draws the counter it was granted');

# The plant, as the owner: schema public anew, a domain public.uid (uid's
# functions cast '<schema>.uid'::regtype), and in public, for every
# function of uid's schema ids, one of the same name, arguments
# and result that calls app.mark() and then uid's function; for uid_raise()
# only app.mark(), so that its caller goes on as if its check had passed.
# Each statement on its own, as psql runs a script.
my $plant = q{
CREATE SCHEMA public;
CREATE DOMAIN public.uid AS bigint;
DO $plant$
DECLARE
	f record;
	args text;
	body text;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
	FOR f IN
		SELECT p.oid, p.proname, p.pronargs, p.provariadic
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE n.nspname = 'ids' AND p.prokind = 'f'
		  AND p.prorettype <> ALL ('{internal,cstring,trigger,event_trigger}'::regtype[])
		  AND NOT p.proargtypes::oid[] && '{internal,cstring}'::regtype[]::oid[]
	LOOP
		SELECT string_agg(CASE WHEN i = f.pronargs AND f.provariadic <> 0 THEN 'VARIADIC ' ELSE '' END
		                  || '$' || i, ', ' ORDER BY i)
		  INTO args FROM generate_series(1, f.pronargs) AS i;
		body := format('SELECT app.mark(%L);', f.proname);
		IF f.proname <> 'uid_raise' THEN
			body := body || format(' SELECT * FROM ids.%I(%s)', f.proname, coalesce(args, ''));
		END IF;
		EXECUTE format('CREATE FUNCTION public.%I(%s) RETURNS %s LANGUAGE sql AS %L',
		               f.proname, pg_get_function_arguments(f.oid), pg_get_function_result(f.oid), body);
	END LOOP;
END
$plant$;
};

# --- 1. uid's schema is not the owner's; public is
my ($state, $err) = state_as('dbowner', 'ALTER SCHEMA ids RENAME TO uid_home');
is($state, '42501', 'the owner may not rename uid\'s schema, which a superuser owns');
($state) = state_as('dbowner', 'CREATE FUNCTION ids.uid_next(x integer DEFAULT 0) RETURNS bigint LANGUAGE sql AS $$SELECT 1::bigint$$');
is($state, '42501', '... nor create a function in it');
($state) = state_as('dbowner', 'DROP SCHEMA ids CASCADE');
is($state, '42501', '... nor drop it');
is(uid_schema(), 'ids', 'uid is still in ids');

($state, $err) = state_as('dbowner', "BEGIN;\nALTER SCHEMA public RENAME TO old_public;\n$plant\n"
	. "ALTER DATABASE owned SET search_path = public, ids;\nCOMMIT;");
is($state, '(none: exit 0)', 'the owner renames public and plants a public of its own, first on the search_path')
  or diag($err);

is( $node->safe_psql(
		'owned', q{
	SELECT count(*) FROM pg_proc p
	WHERE p.proname IN (SELECT q.proname FROM pg_proc q JOIN pg_depend d
	                    ON d.classid = 'pg_proc'::regclass AND d.objid = q.oid AND d.deptype = 'e'
	                    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid')
	  AND p.pronamespace <> 'pg_catalog'::regnamespace
	  AND NOT EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	                  WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	                    AND d.deptype = 'e' AND e.extname = 'uid')}),
	$node->safe_psql('owned', q{SELECT count(*) FROM pg_proc p WHERE p.pronamespace = 'ids'::regnamespace AND p.prokind = 'f'
		AND p.prorettype <> ALL ('{internal,cstring,trigger,event_trigger}'::regtype[])
		AND NOT p.proargtypes::oid[] && '{internal,cstring}'::regtype[]::oid[]}),
	'every function of uid\'s (but those of internal or cstring) has one of its name and arguments in public');

# --- 2. the owner's counter call that a SECURITY DEFINER function (which
# runs as the extension's owner, a superuser) refuses; then
# a superuser's uid_adopt(), uid_catch_up() and uid_audit(), called by uid's
# schema with a search_path that names no other
my $s = uid_schema();
($state, $err) = state_as('dbowner', qq{SELECT "$s".uid_counter_next('other', 'INV')});
is($state, '42501', 'the owner\'s uid_counter_next() of a tenant it holds no grant of is refused');
like($err, qr/permission denied for counter INV of tenant 'other'/, '... as uid_counter._next() says');
is(hits(), 'none', '... and ran no planted function');
is(owner_is_superuser(), 'f', '... and the owner is not a superuser');

my $steps = $node->safe_psql('owned', qq{
	SET search_path = pg_catalog;
	SELECT string_agg(s, E'\\n') FROM "$s".uid_adopt('app.orders', dry_run => true) AS s;
	SELECT string_agg(s, E'\\n') FROM "$s".uid_adopt('app.orders') AS s;
});
like($steps, qr/SECURITY LABEL FOR uid ON SEQUENCE app\.orders_id_seq IS 'adopted'/,
	'a superuser\'s uid_adopt() of the owner\'s table adopts its sequence');
is( $node->safe_psql(
		'owned', q{
	SELECT count(*) FROM pg_attrdef a JOIN pg_depend d
	  ON d.classid = 'pg_attrdef'::regclass AND d.objid = a.oid AND d.refclassid = 'pg_proc'::regclass
	JOIN pg_depend m ON m.classid = 'pg_proc'::regclass AND m.objid = d.refobjid AND m.deptype = 'e'
	JOIN pg_extension e ON e.oid = m.refobjid AND e.extname = 'uid'
	JOIN pg_proc p ON p.oid = d.refobjid AND p.proname = 'uid_sequence_nextval'
	WHERE a.adrelid = 'app.orders'::regclass}),
	'1', '... whose default is now uid\'s own uid_sequence_nextval()');
cmp_ok(as_owner(q{INSERT INTO app.orders (item) VALUES ('three') RETURNING id}), '>',
	$node->safe_psql('owned', qq{SET search_path = pg_catalog;
		SELECT "$s".uid_from_time(now() - interval '1 minute')}),
	'... and gives the owner\'s inserts uid IDs');

my $report = $node->safe_psql('owned', qq{
	SET search_path = pg_catalog;
	SELECT count(*) FROM "$s".uid_catch_up(dry_run => true);
	SELECT string_agg(format('%s %s: %s', kind, object, action), E'\\n' ORDER BY kind, object)
	FROM "$s".uid_catch_up();
});
like($report, qr/^uid_next app\.events: read under a SHARE lock$/m,
	'a superuser\'s uid_catch_up() reads the owner\'s table');
like($report, qr/^uid_next app\.orders: read under a SHARE lock \(adopted sequence app\.orders_id_seq\)$/m,
	'... and the adopted one');
like($report, qr/^uuid7 app\.events: read under a SHARE lock$/m, '... and its uuid column');
like($report, qr/^uid_next uid_next\(\): (advanced past it|already past: no change)/m,
	'... and moves uid_next() past them');
like($report, qr/^uuid7 uuid7\(\): (advanced past it|already past: no change)/m,
	'... and uuid7()');

is( $node->safe_psql(
		'owned', qq{
	SET search_path = pg_catalog;
	SELECT string_agg(kind || ':' || ids, ',' ORDER BY kind) FROM "$s".uid_audit('app.events', 'u')}),
	'total:10', 'a superuser\'s uid_audit() of the owner\'s table counts its values');

is(hits(), 'none', 'the superuser\'s calls ran no planted function');
is(owner_is_superuser(), 'f', 'the owner is not a superuser');
is(uid_schema(), 'ids', 'uid is still in ids');

# --- 3. uid in public, the owner's schema: renamed, or dropped with uid,
# public is the owner's to fill
$node->safe_psql('postgres', 'CREATE DATABASE owned2 OWNER dbowner');
$node->safe_psql('owned2', 'CREATE EXTENSION uid');
my ($ret, $out, $derr) = $node->psql('owned2', q{
	ALTER SCHEMA public RENAME TO uid_home;
	CREATE SCHEMA public;
	CREATE FUNCTION public.uid_catch_up(dry_run boolean DEFAULT false, ticket_floors jsonb DEFAULT '{}',
		allow_ahead interval DEFAULT '0', ticket_ahead bigint DEFAULT 1000000000,
		OUT kind text, OUT object text, OUT action text)
	RETURNS SETOF record LANGUAGE sql AS 'SELECT NULL::text, NULL::text, NULL::text';
}, extra_params => [ '-U', 'dbowner' ]);
is($ret, 0, 'with uid in public, the owner may rename public and create a public of its own') or diag($derr);
is( $node->safe_psql('owned2',
		q{SELECT p.proowner::regrole FROM pg_proc p
		  WHERE p.oid = 'public.uid_catch_up(boolean, jsonb, interval, bigint)'::regprocedure}),
	'dbowner', '... where a superuser\'s public.uid_catch_up() is the owner\'s function');

$node->safe_psql('postgres', 'CREATE DATABASE owned3 OWNER dbowner');
$node->safe_psql('owned3', 'CREATE EXTENSION uid');
($ret, $out, $derr) = $node->psql('owned3', 'DROP SCHEMA public CASCADE',
	extra_params => [ '-U', 'dbowner' ]);
is($ret, 0, 'the owner may drop schema public, uid\'s schema');
like($derr, qr/drop cascades to extension uid/, '... which drops the extension uid with it');
is( $node->safe_psql(
		'owned3', q{
	SELECT count(*) FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE e.extname = 'uid' AND d.deptype = 'e'}),
	'0', '... and leaves no object of uid\'s behind: a public the owner creates next is its own, as after a rename');

done_testing();
