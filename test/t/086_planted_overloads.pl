# The owner of a database (an ordinary login role that owns schema public,
# from 15 on) against uid's functions that call others of uid's by name in
# the extension's schema (public.uid_raise(...), public.uid_stored_max(...)):
# a function it created there under such a name with other argument types
# is a candidate of every such call, and would run with the caller's rights
# had it won: a superuser's, or the extension owner's in the counter
# functions that run as it (SECURITY DEFINER).  uid_guard_names refuses
# such a function once uid has that name, so the owner creates them before:
# before the superuser's CREATE EXTENSION uid, and on 1.3 before the update
# to 1.4, which adds uid_raise().  Planted, for every function of uid's
# schema whose name uid's own code calls (found in the bodies of uid's
# functions), and uid_raise(), functions that note that they ran and make the owner a
# superuser when a superuser runs them, of the argument types that would win
# a call whose arguments are not of exactly the declared types: each
# argument in turn of a neighbouring type (text for name, regclass, bigint;
# name, varchar and "char" for text; integer and numeric for bigint; oid
# for regclass), every argument anycompatible, VARIADIC anycompatiblearray;
# and for uid_raise() one of its own four text arguments and a fifth with a
# default, which matches every call of uid_raise() as well as uid's own.
# Asserted:
#  1. the plants are allowed (uid's names are not yet uid's), the install
#     and the update succeed with them in place, and uid_guard_names
#     refuses another afterwards;
#  2. the counter functions' refusals of bad input (uid_counter_next() by
#     the owner; the administration functions by a counter administrator;
#     all of them run as the extension's owner) keep their SQLSTATE,
#     message and no CONTEXT line: they raise through uid_counter._raise()
#     and call nothing in public by name, so the plant of uid_raise() with a
#     default does not make them ambiguous (42725) as it did when they
#     called public.uid_raise();
#  3. a superuser's uid_adopt(), uid_unadopt() and uid_catch_up() of the
#     owner's tables, which call uid's helpers in public by name with
#     arguments of exactly the declared types, do their work;
#  4. nothing planted ran, and the owner is no superuser.
# uid's ticket functions run as the caller and raise through
# uid_ticket._raise(): their refusals keep SQLSTATE and message too, where
# a call of public.uid_raise() by name is ambiguous (42725), running
# nothing of it.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('planted_overloads', 'uid.worker_id' => 7);
$node->start;
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');

# Runs $sql as $role in database $db; returns the SQLSTATE of its first
# error ("(none: exit N)" without one) and its stderr
sub state_as
{
	my ($db, $role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql($db, "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return ($state // "(none: exit $ret)", $err);
}

# what the planted functions noted in $db: "name by role (superuser)", or none
sub hits
{
	my ($db) = @_;
	return $node->safe_psql($db, q{
		SELECT coalesce(string_agg(DISTINCT format('%s by %s%s', what, by_user,
			CASE WHEN by_superuser THEN ' (superuser)' ELSE '' END), ', '), 'none')
		FROM app.hits});
}

sub as_owner
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', 'dbowner' ]);
}

sub owner_is_superuser
{
	return $node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'dbowner'});
}

$node->safe_psql('postgres', q{
	CREATE ROLE dbowner LOGIN;
	CREATE ROLE counter_admin LOGIN;
	CREATE DATABASE sigs;
	CREATE DATABASE owned OWNER dbowner;
	CREATE DATABASE owned13 OWNER dbowner;
});

# app.hits and app.mark(), which the planted functions call, in each of the
# owner's databases
my $mark = hostile_mark_sql();
as_owner($_, $mark) for qw(owned owned13);

# The plant, written from uid's own catalog in a database of its own: the
# functions of uid's schema whose name a function of uid's calls as
# public.name( (PL/pgSQL and SQL bodies, the SQL they build included), with
# arguments of pg_catalog's types; a variant that is the signature of one
# of uid's functions of that name would collide with it, and is left out.
$node->safe_psql('sigs', 'CREATE EXTENSION uid');
my $plant = $node->safe_psql('sigs', q{
	WITH member AS (
		SELECT p.* FROM pg_proc p
		JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uid'),
	mine AS (
		SELECT m.* FROM member m JOIN pg_extension e ON e.extname = 'uid'
		WHERE m.pronamespace = e.extnamespace),
	called AS (
		SELECT m.oid, m.proname, m.proargtypes::oid[] AS args
		FROM mine m
		WHERE m.prokind = 'f' AND m.pronargs > 0
		  -- uid_raise(), which uid's own functions called by name until they
		  -- raised through uid_ticket._raise() and uid_counter._raise()
		  AND (EXISTS (SELECT FROM member c WHERE strpos(c.prosrc, 'public.' || m.proname || '(') > 0)
		       OR m.proname = 'uid_raise')
		  AND NOT EXISTS (SELECT FROM unnest(m.proargtypes::oid[]) AS a(t) JOIN pg_type ty ON ty.oid = a.t
		                  WHERE ty.typnamespace <> 'pg_catalog'::regnamespace OR ty.typtype = 'p')
		  AND (SELECT ty.typnamespace = 'pg_catalog'::regnamespace FROM pg_type ty WHERE ty.oid = m.prorettype)),
	variant AS (
		SELECT c.oid, c.proname, v.args, '' AS extra
		FROM called c
		CROSS JOIN LATERAL (
			SELECT c.args[1:i - 1] || alt.t::oid || c.args[i + 1:] AS args
			FROM generate_subscripts(c.args, 1) AS i
			CROSS JOIN LATERAL unnest(CASE c.args[i]
				WHEN 'text'::regtype THEN '{name,varchar,"\"char\""}'::regtype[]
				WHEN 'bigint'::regtype THEN '{integer,numeric,text}'::regtype[]
				WHEN 'regclass'::regtype THEN '{oid,text}'::regtype[]
				ELSE '{text}'::regtype[] END) AS alt(t)
			UNION
			SELECT array_fill('anycompatible'::regtype::oid, ARRAY[cardinality(c.args)])) AS v
		WHERE NOT EXISTS (SELECT FROM mine u WHERE u.proname = c.proname AND u.proargtypes::oid[] = v.args)
		UNION ALL
		SELECT c.oid, c.proname, c.args, 'VARIADIC' FROM called c
		UNION ALL
		SELECT c.oid, c.proname, c.args, 'DEFAULT' FROM called c WHERE c.proname = 'uid_raise'),
	-- one of each signature (an overload's variant may be another's)
	one AS (
		SELECT DISTINCT ON (v.proname, v.args, v.extra) v.*
		FROM variant v ORDER BY v.proname, v.args, v.extra, v.oid)
	SELECT string_agg(format(
		'CREATE FUNCTION public.%I(%s%s) RETURNS %s LANGUAGE plpgsql AS %L;',
		v.proname,
		CASE v.extra WHEN 'VARIADIC' THEN 'VARIADIC anycompatiblearray'
		     ELSE (SELECT string_agg(format_type(a.t, NULL), ', ' ORDER BY a.o)
		           FROM unnest(v.args) WITH ORDINALITY AS a(t, o)) END
		|| CASE v.extra WHEN 'DEFAULT' THEN ', integer DEFAULT 0' ELSE '' END,
		coalesce((SELECT string_agg(format(', OUT %I %s', x.n, format_type(x.t, NULL)), '' ORDER BY x.o)
		          FROM unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY AS x(t, m, n, o)
		          WHERE x.m = 'o'), ''),
		pg_get_function_result(p.oid),
		format('BEGIN PERFORM app.mark(%L); RETURN%s; END',
		       v.proname || '(' || CASE v.extra WHEN 'VARIADIC' THEN 'VARIADIC anycompatiblearray'
		                            ELSE array_to_string(v.args::regtype[], ', ') END
		       || CASE v.extra WHEN 'DEFAULT' THEN ', integer DEFAULT 0' ELSE '' END || ')',
		       CASE WHEN p.proretset OR p.prorettype = 'void'::regtype OR 'o' = ANY (p.proargmodes)
		            THEN '' ELSE ' NULL' END)),
		E'\n' ORDER BY v.proname, v.extra, v.args)
	FROM one v JOIN pg_proc p ON p.oid = v.oid});
my $planted = () = $plant =~ /^CREATE FUNCTION/mg;
cmp_ok($planted, '>', 50, "the plant: $planted functions");
for my $name (qw(uid_raise uid_require_owner uid_adopt_target uid_adopt_lock uid_sequence_users
	uid_sequence_may_draw uid_stored_max uid_catch_up_lock uid_time uid_advance_past))
{
	like($plant, qr/^CREATE FUNCTION public\.$name\(/m, "... of $name()");
}

# --- 1. the plants, then the install; and on 1.3, the plant of uid_raise()
# then the update
my ($state, $err) = state_as('owned', 'dbowner', "\\set ON_ERROR_STOP 1\n$plant");
is($state, '(none: exit 0)', 'the owner plants them in public before uid is installed')
  or diag $err;
$node->safe_psql('owned', 'CREATE EXTENSION uid');
is( $node->safe_psql(
		'owned', q{
	SELECT count(*) FROM pg_proc p
	WHERE p.pronamespace = 'public'::regnamespace
	  AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
	                  AND d.objid = p.oid AND d.deptype = 'e')
	  AND p.proname IN (SELECT q.proname FROM pg_proc q JOIN pg_depend d
	                    ON d.classid = 'pg_proc'::regclass AND d.objid = q.oid AND d.deptype = 'e')}),
	$planted, 'a superuser installs uid over them: every plant is still there');
($state) = state_as('owned', 'dbowner',
	q{CREATE FUNCTION public.uid_raise(text) RETURNS void LANGUAGE sql AS 'SELECT app.mark(''late'')'});
is($state, '42723', 'another one, once uid is installed, is refused by uid_guard_names');

$node->safe_psql('owned13', q{CREATE EXTENSION uid VERSION '1.3'});
($state, $err) = state_as('owned13', 'dbowner', q{
	CREATE FUNCTION public.uid_raise(text, text, text, text, integer DEFAULT 0) RETURNS void
	LANGUAGE plpgsql AS $$ BEGIN PERFORM app.mark('uid_raise(text, text, text, text, integer DEFAULT 0)'); END $$});
is($state, '(none: exit 0)', 'on 1.3 the owner may plant uid_raise(), not yet a name of uid\'s')
  or diag $err;
$node->safe_psql('owned13', q{ALTER EXTENSION uid UPDATE TO '1.4'});
is($node->safe_psql('owned13', q{SELECT extversion FROM pg_extension WHERE extname = 'uid'}),
	'1.4', '... and a superuser updates uid to 1.4 over it');

# --- 2. the counter functions' refusals, each raised through uid_raise()'s
# C function, as before: SQLSTATE, message, no CONTEXT
$node->safe_psql($_, q{
	SELECT uid_counter_grant('acme', 'dbowner', 'INV');
	GRANT EXECUTE ON FUNCTION uid_counter_grant(text, regrole, text), uid_counter_revoke(text, regrole, text),
		uid_counter_configure(text, text, bigint, integer), uid_counter_set_range(text, text, bigint, bigint),
		uid_counter_set_range(text, text, bigint, bigint, text), uid_counter_unset_range(text, text)
		TO counter_admin;
}) for qw(owned owned13);

my @refusals = (
	[ 'owned', 'dbowner', q{SELECT uid_counter_next('other', 'INV')},
		'42501', qr/permission denied for counter INV of tenant 'other'/ ],
	[ 'owned', 'dbowner', q{SELECT uid_counter_next('no tenant', 'INV')},
		'22023', qr/invalid counter tenant: 'no tenant'/ ],
	[ 'owned', 'dbowner', q{SELECT uid_counter_next('acme', 'inv')},
		'22023', qr/invalid counter prefix: 'inv'/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_configure('INV', 'acme', -1)},
		'22023', qr/invalid counter start: -1/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_set_range('acme', 'INV', 5, 1)},
		'22023', qr/invalid counter range: \[5, 1\]/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_set_range('acme', 'INV', 1, 9, 'no node')},
		'22023', qr/invalid counter node: 'no node'/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_unset_range('acme', 'NONE')},
		'42704', qr/tenant 'acme' has no range of counter prefix NONE/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_grant('acme', NULL)},
		'22004', qr/counter grant role must not be NULL/ ],
	[ 'owned', 'counter_admin', q{SELECT uid_counter_revoke('no tenant', 'dbowner')},
		'22023', qr/invalid counter tenant: 'no tenant'/ ],
	[ 'owned13', 'dbowner', q{SELECT uid_counter_next('other', 'INV')},
		'42501', qr/permission denied for counter INV of tenant 'other'/ ],
	[ 'owned13', 'counter_admin', q{SELECT uid_counter_set_range('acme', 'INV', 5, 1)},
		'22023', qr/invalid counter range: \[5, 1\]/ ]);
for my $r (@refusals)
{
	my ($db, $role, $sql, $want, $message) = @$r;
	($state, $err) = state_as($db, $role, $sql);
	is($state, $want, "$db: $role\'s $sql is refused with $want");
	like($err, $message, '... and its message');
	unlike($err, qr/CONTEXT:/, '... and no CONTEXT line');
}
is(as_owner('owned', q{SELECT uid_counter_next('acme', 'INV')}), 'INV-001',
	'the owner draws the counter it was granted');

# --- 3. a superuser's uid_adopt(), uid_unadopt() and uid_catch_up() of the
# owner's tables
as_owner('owned', q{
	CREATE TABLE app.orders (id bigserial PRIMARY KEY, item text);
	INSERT INTO app.orders (item) VALUES ('one'), ('two');
	CREATE TABLE app.events (id bigint PRIMARY KEY DEFAULT public.uid_next(),
		u uuid DEFAULT public.uuid7(), what text);
	INSERT INTO app.events (what) SELECT 'e' || i FROM generate_series(1, 10) AS i;
});
my $steps = $node->safe_psql('owned', q{
	SET search_path = pg_catalog;
	SELECT string_agg(s, E'\n') FROM public.uid_adopt('app.orders'::regclass, dry_run => true) AS s;
	SELECT string_agg(s, E'\n') FROM public.uid_adopt('app.orders'::regclass) AS s;
});
like($steps, qr/SECURITY LABEL FOR uid ON SEQUENCE app\.orders_id_seq IS 'adopted'/,
	'a superuser\'s uid_adopt() of the owner\'s table adopts its sequence');
my $report = $node->safe_psql('owned', q{
	SET search_path = pg_catalog;
	SELECT count(*) FROM public.uid_catch_up(dry_run => true);
	SELECT string_agg(format('%s %s: %s', kind, object, action), E'\n' ORDER BY kind, object)
	FROM public.uid_catch_up();
});
like($report, qr/^uid_next app\.orders: read under a SHARE lock \(adopted sequence app\.orders_id_seq\)$/m,
	'a superuser\'s uid_catch_up() reads the adopted table');
like($report, qr/^uuid7 app\.events: read under a SHARE lock$/m, '... and the uuid column');
like($report, qr/^uid_next uid_next\(\): (advanced past it|already past: no change)/m,
	'... and moves uid_next() past them');
$steps = $node->safe_psql('owned', q{
	SET search_path = pg_catalog;
	SELECT string_agg(s, E'\n') FROM public.uid_unadopt('app.orders'::regclass) AS s;
});
like($steps, qr/SECURITY LABEL FOR uid ON SEQUENCE app\.orders_id_seq IS NULL/,
	'a superuser\'s uid_unadopt() gives the table its sequence back');

# the ticket functions run as the caller and raise through uid_ticket._raise(),
# not public.uid_raise(), which the plant with a default makes ambiguous
for my $db (qw(owned owned13))
{
	($state, $err) = state_as($db, $superuser, q{SELECT uid_ticket_create('No ticket', 1)});
	is($state, '22023', "$db: a ticket function's refusal keeps its SQLSTATE beside the plant with a default");
	like($err, qr/invalid ticket name: 'No ticket'/, '... and its message');
	unlike($err, qr/CONTEXT:/, '... and no CONTEXT line');
}
($state, $err) = state_as('owned', $superuser, q{SELECT public.uid_raise('22023'::text, 'x'::text, NULL::text, NULL::text)});
is($state, '42725', 'a call of public.uid_raise() by name is what the plant makes ambiguous');

# --- 4. nothing planted ran
is(hits($_), 'none', "$_: no planted function ran") for qw(owned owned13);
is(owner_is_superuser(), 'f', 'the owner is not a superuser');

done_testing();
