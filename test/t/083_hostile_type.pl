# The owner of a database (an ordinary role, who owns schema public on 15 and
# later and may create a schema named after a superuser) plants operators
# and functions for the uid type whose code records that it ran and makes
# the owner a superuser when a superuser runs it.  A superuser's ordinary
# queries on a uid column (a lookup by a quoted, an integer, a bigint and a
# numeric value, a self-join, an IN list, uid_to_text(), uid_decode(),
# uid_time()) never run that code: with uid in public and the planted
# objects in public and in "$user", and with uid in a schema of its own
# placed after public on the search path.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_type', 'uid.worker_id' => 1);
$node->start;

my $superuser = $node->safe_psql('postgres', 'SELECT current_user');

sub as_role
{
	my ($role, $db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}

$node->safe_psql('postgres', q{
	CREATE ROLE dbowner LOGIN;
	CREATE DATABASE owned OWNER dbowner;
	CREATE DATABASE owned_schema OWNER dbowner;
});
$node->safe_psql('owned', 'CREATE EXTENSION uid');
$node->safe_psql('owned_schema',
	'CREATE SCHEMA ids; GRANT USAGE ON SCHEMA ids TO PUBLIC; CREATE EXTENSION uid SCHEMA ids');

# The planted objects, in schema $schema, for the type $t
sub plant
{
	my ($db, $schema, $t, $functions) = @_;
	my $sql = qq{
	CREATE FUNCTION $schema.pwn(what text) RETURNS void LANGUAGE plpgsql AS \$\$
	BEGIN
		INSERT INTO public.hits (what) VALUES (what);
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE dbowner SUPERUSER';
		END IF;
	END \$\$;
	};
	for my $pair ([ $t, $t ], [ $t, 'bigint' ], [ $t, 'integer' ], [ $t, 'numeric' ], [ 'bigint', $t ])
	{
		my ($l, $r) = @$pair;
		(my $name = "$l$r") =~ s/\W//g;
		$sql .= qq{
	CREATE FUNCTION $schema.trap_$name($l, $r) RETURNS boolean LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM $schema.pwn('$schema: $l op $r'); RETURN true; END \$\$;
	CREATE OPERATOR $schema.= (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $schema.trap_$name);
	CREATE OPERATOR $schema.< (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $schema.trap_$name);
	};
	}
	if ($functions)
	{
		$sql .= qq{
	CREATE FUNCTION $schema.uid_to_text($t) RETURNS text LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM $schema.pwn('$schema: uid_to_text'); RETURN 'x'; END \$\$;
	CREATE FUNCTION $schema.uid_to_text($t, text) RETURNS text LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM $schema.pwn('$schema: uid_to_text prefix'); RETURN 'x'; END \$\$;
	CREATE FUNCTION $schema.uid_decode($t, OUT ts timestamptz, OUT worker_id integer,
		OUT sequence integer, OUT ms_since_epoch bigint) LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM $schema.pwn('$schema: uid_decode'); END \$\$;
	CREATE FUNCTION $schema.uid_time($t) RETURNS timestamptz LANGUAGE plpgsql AS \$\$
	BEGIN PERFORM $schema.pwn('$schema: uid_time'); RETURN now(); END \$\$;
	};
	}
	as_role('dbowner', $db, $sql);
	return;
}

# A superuser's ordinary queries; returns what they returned, as one line
sub queries
{
	my ($db, $path) = @_;
	return $node->safe_psql($db, qq{
	SET search_path = $path;
	SELECT concat_ws(',',
		(SELECT string_agg(item, ' ') FROM orders WHERE id = '1'),
		(SELECT string_agg(item, ' ') FROM orders WHERE id = 2),
		(SELECT string_agg(item, ' ') FROM orders WHERE id = 1::bigint),
		(SELECT count(*) FROM orders WHERE id < 1.5),
		(SELECT count(*) FROM orders o1 JOIN orders o2 ON o1.id = o2.id),
		(SELECT count(*) FROM orders o JOIN refs r ON r.order_id = o.id),
		(SELECT count(*) FROM orders WHERE id IN ('1', '2')),
		(SELECT count(*) FROM orders WHERE id = ANY ('{1,2}'::bigint[])),
		(SELECT string_agg(uid_to_text(id), ' ' ORDER BY id) FROM orders),
		(SELECT string_agg(uid_to_text(id, 'o'), ' ' ORDER BY id) FROM orders),
		(SELECT string_agg((uid_decode(id)).sequence::text, ' ' ORDER BY id) FROM orders),
		(SELECT count(*) FROM orders WHERE uid_time(id) > '2000-01-01'));
	});
}

my $expected = 'one,two,one,1,2,2,2,2,0000000000001 0000000000002,'
  . 'o_0000000000001 o_0000000000002,1 2,2';

# uid in public; the owner plants in public and in "$user"
as_role('dbowner', 'owned', qq{
	CREATE TABLE public.hits (what text, by_user name DEFAULT current_user);
	GRANT INSERT, SELECT ON public.hits TO PUBLIC;
	CREATE TABLE public.orders (id uid PRIMARY KEY, item text);
	INSERT INTO public.orders VALUES (1, 'one'), (2, 'two');
	CREATE TABLE public.refs (order_id bigint);
	INSERT INTO public.refs VALUES (1), (2);
	CREATE SCHEMA "$superuser";
});
plant('owned', 'public', 'uid', 0);
plant('owned', qq{"$superuser"}, 'uid', 1);
is(queries('owned', '"$user", public'), $expected,
	'uid in public, planted in public and "$user": the queries give their results');
is(queries('owned', 'public'), $expected, '... and with public alone');
is($node->safe_psql('owned', q{SELECT coalesce(string_agg(what, ','), 'none') FROM public.hits}),
	'none', '... and no planted operator or function ran');

# uid in a schema of its own after public; the owner plants in public
as_role('dbowner', 'owned_schema', qq{
	CREATE TABLE public.hits (what text, by_user name DEFAULT current_user);
	GRANT INSERT, SELECT ON public.hits TO PUBLIC;
	CREATE TABLE public.orders (id ids.uid PRIMARY KEY, item text);
	INSERT INTO public.orders VALUES (1, 'one'), (2, 'two');
	CREATE TABLE public.refs (order_id bigint);
	INSERT INTO public.refs VALUES (1), (2);
});
plant('owned_schema', 'public', 'ids.uid', 1);
is(queries('owned_schema', 'public, ids'), $expected,
	'uid in its own schema after public, planted in public: the queries give their results');
is( $node->safe_psql(
		'owned_schema', q{SELECT coalesce(string_agg(what, ','), 'none') FROM public.hits}),
	'none',
	'... and no planted operator or function ran');

is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'dbowner'}),
	'f', 'the database owner is not a superuser');

done_testing();
