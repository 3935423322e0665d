# The owner of a database (an ordinary login role: from 15 on it owns schema
# public, where a superuser installed uid) plants, under every name uid's
# own code calls, every kind of object a name can resolve to, and puts its
# schemas first on the database's search_path, before pg_catalog:
#   app   exact copies of every function and aggregate of pg_catalog and of
#         uid of those names, of every operator of pg_catalog whose name
#         uid's code uses, and domains named after every type uid's code
#         names (over that type; over uid for uid's own types);
#   app2  range types named after the called functions (their
#         constructors are functions of that name), with casts from and to
#         them;
#   app3  multirange types named after them (constructors of no, one and
#         VARIADIC arguments) and procedures of that name;
#   public (uid's schema) a multirange type under the name of every
#         function of uid's: the name guard watches functions, not types.
# The names are computed from uid's own code: the bodies of its SQL and
# PL/pgSQL functions and views (from the catalog), the string literals of
# its C sources (the SQL it runs through SPI), and the monitoring queries
# and alert rules.  Every plant raises a WARNING "PLANTED ..." when it runs
# (a WARNING is sent and logged even when an EXCEPTION block undoes the rest).
# Then a superuser, in a session with that search_path, calls uid's
# functions by their schema (as docs/security.md says to), and the owner
# calls those it may, and the exporter's queries and the alert's query run:
# each gives the right result, and nothing planted ran (no PLANTED in any
# output nor in the server log), the owner is no superuser.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Find;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $top = "$FindBin::RealBin/../..";

my $node = uid_node('planted_every_kind', 'uid.worker_id' => 'lease', 'uid.lease_database' => 'owned');
$node->start;
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');
$node->safe_psql('postgres', q{
	CREATE ROLE dbowner LOGIN;
	CREATE DATABASE owned OWNER dbowner;
	CREATE DATABASE sigs;
});
$node->safe_psql($_, 'CREATE EXTENSION uid') for qw(owned sigs);
$node->restart;
$node->poll_query_until('owned', q{SELECT l.state FROM public.uid_lease_status() AS l}, 'held')
  or die 'the lease worker holds no lease';

# --- the names uid's code uses
my $text = '';
find(
	sub {
		return unless /\.[ch]$/;
		open my $fh, '<', $_ or die "$File::Find::name: $!";
		local $/;
		my $src = <$fh>;
		close $fh;
		$src =~ s{/\*.*?\*/}{}gs;
		$text .= "$1\n" while $src =~ /"((?:[^"\\\n]|\\.)*)"/g;
	},
	"$top/src");
for my $f ("$top/monitoring/uid-queries.yml", "$top/monitoring/uid-alerts.yml")
{
	$text .= slurp_file($f);
}
$text .= $node->safe_psql('sigs', q{
	WITH member AS (
		SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE e.extname = 'uid' AND d.deptype = 'e')
	SELECT string_agg(p.prosrc, E'\n') FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
	WHERE l.lanname IN ('sql', 'plpgsql') AND p.oid IN (SELECT objid FROM member WHERE classid = 'pg_proc'::regclass)
	UNION ALL
	SELECT string_agg(pg_get_viewdef(c.oid), E'\n') FROM pg_class c
	WHERE c.oid IN (SELECT objid FROM member WHERE classid = 'pg_class'::regclass) AND c.relkind = 'v'});

my %word;
$word{ lc $1 } = 1 while $text =~ /\b([A-Za-z_][A-Za-z0-9_]*)\b/g;
my %op;
$op{$1} = 1 while $text =~ /OPERATOR\(pg_catalog\.([^)\s]+)\)/g;
$op{$1} = 1 while $text =~ /(?<=\s)([-+*\/<>=~!@#%^&|?]+)(?=\s)/g;
my $words = 'ARRAY[' . join(',', map { "'$_'" } sort keys %word) . ']::name[]';
my $ops   = 'ARRAY[' . join(',', map { my $o = $_; $o =~ s/'/''/g; "'$o'" } sort keys %op) . ']::name[]';

# --- the plant, written from the catalog of a database without plants.
# Each statement runs on its own; one the catalog refuses (a name or
# signature already taken) is counted, not planted.
my $plant = $node->safe_psql('sigs', qq{
	SET search_path = pg_catalog;
	WITH ext AS (SELECT e.oid, e.extnamespace FROM pg_extension e WHERE e.extname = 'uid'),
	member AS (
		SELECT d.classid, d.objid FROM pg_depend d, ext
		WHERE d.refobjid = ext.oid AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'),
	-- the functions and aggregates, of pg_catalog and of uid, whose names uid's code calls
	called AS (
		SELECT p.* FROM pg_proc p
		WHERE p.proname = ANY ($words)
		  AND (p.pronamespace = 'pg_catalog'::regnamespace
		       OR p.oid IN (SELECT objid FROM member WHERE classid = 'pg_proc'::regclass))),
	plain AS (
		SELECT c.* FROM called c
		WHERE NOT EXISTS (
			SELECT FROM unnest(coalesce(c.proallargtypes, c.proargtypes::oid[])) AS a(t) JOIN pg_type ty ON ty.oid = a.t
			WHERE ty.typtype = 'p' AND ty.typname NOT IN ('anyelement', 'anyarray', 'anynonarray', 'anyenum',
				'anyrange', 'anymultirange', 'anycompatible', 'anycompatiblearray', 'anycompatiblenonarray',
				'anycompatiblerange', 'anycompatiblemultirange'))
		  AND (SELECT ty.typtype <> 'p' OR ty.typname IN ('record', 'void', 'anyelement', 'anyarray',
				'anynonarray', 'anyenum', 'anyrange', 'anymultirange', 'anycompatible', 'anycompatiblearray',
				'anycompatiblenonarray', 'anycompatiblerange', 'anycompatiblemultirange')
		       FROM pg_type ty WHERE ty.oid = c.prorettype)),
	tag AS (SELECT p.oid, quote_literal(p.oid::regprocedure::text) AS t FROM plain p),
	ddl AS (
		-- exact copies of the functions
		SELECT 1 AS o, 'function' AS kind, p.oid::regprocedure::text AS what, format(
			'CREATE FUNCTION app.%I(%s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L',
			p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
			format('BEGIN RAISE WARNING ''PLANTED function app.%s''; RETURN%s; END', p.oid::regprocedure,
			       CASE WHEN p.proretset OR p.prorettype = 'void'::regtype OR 'o' = ANY (p.proargmodes)
			                 OR 't' = ANY (p.proargmodes) THEN '' ELSE ' NULL' END)) AS sql
		FROM plain p WHERE p.prokind = 'f'
		UNION ALL
		-- exact copies of the aggregates, whose transition function notes each row
		SELECT 2, 'aggregate', p.oid::regprocedure::text, format(
			'CREATE FUNCTION app.%I(s %s%s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L; '
			'CREATE AGGREGATE app.%I(%s) (SFUNC = app.%I, STYPE = %s)',
			'sf_' || p.oid, st.t, (SELECT string_agg(', ' || format_type(a.t, NULL), '' ORDER BY a.o)
			                      FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, o)), st.t,
			format('BEGIN RAISE WARNING ''PLANTED aggregate app.%s''; RETURN s; END', p.oid::regprocedure),
			p.proname, CASE WHEN p.pronargs = 0 THEN '*' ELSE (SELECT string_agg(format_type(a.t, NULL), ', ' ORDER BY a.o)
			                      FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, o)) END,
			'sf_' || p.oid, st.t)
		FROM plain p JOIN pg_aggregate g ON g.aggfnoid = p.oid AND g.aggkind = 'n'
		CROSS JOIN LATERAL (SELECT CASE WHEN p.pronargs = 0 THEN 'bigint'
		                                ELSE format_type(p.proargtypes[0], NULL) END AS t) AS st
		WHERE p.prokind = 'a'
		UNION ALL
		-- the operators of pg_catalog whose names uid's code uses
		SELECT 3, 'operator', o.oid::regoperator::text, format(
			'CREATE FUNCTION app.%I(%s) RETURNS %s LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L; '
			'CREATE OPERATOR app.%s (%s FUNCTION = app.%I)',
			'op_' || o.oid, concat_ws(', ', format_type(nullif(o.oprleft, 0), NULL), format_type(o.oprright, NULL)),
			format_type(o.oprresult, NULL),
			format('BEGIN RAISE WARNING ''PLANTED operator app.%s''; RETURN NULL; END', o.oid::regoperator),
			o.oprname, CASE WHEN o.oprleft <> 0 THEN format('LEFTARG = %s, ', format_type(o.oprleft, NULL)) ELSE '' END
			           || format('RIGHTARG = %s,', format_type(o.oprright, NULL)), 'op_' || o.oid)
		FROM pg_operator o
		WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprname = ANY ($ops)
		  AND NOT EXISTS (SELECT FROM pg_type ty WHERE ty.oid IN (o.oprleft, o.oprright, o.oprresult) AND ty.typtype = 'p')
		UNION ALL
		-- domains named after the types uid's code names: of pg_catalog, and uid's own
		SELECT 4, 'domain', t.oid::regtype::text, format(
			'CREATE DOMAIN app.%I AS %s CHECK (app.seen(%L, VALUE))', t.typname, format_type(t.oid, NULL),
			'domain app.' || t.typname)
		FROM pg_type t
		WHERE t.typname = ANY ($words) AND t.typtype IN ('b', 'r', 'm', 'e') AND t.typname !~ '^_'
		  AND (t.typnamespace = 'pg_catalog'::regnamespace
		       OR t.oid IN (SELECT objid FROM member WHERE classid = 'pg_type'::regclass))
		UNION ALL
		-- range types named after the called functions, casts from bigint and to text
		SELECT 5, 'range type', n.proname::text, format(
			'CREATE TYPE app2.%I AS RANGE (SUBTYPE = pg_catalog.int8, MULTIRANGE_TYPE_NAME = app2.%I); '
			'CREATE FUNCTION app2.%I(pg_catalog.int8) RETURNS app2.%I LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L; '
			'CREATE CAST (pg_catalog.int8 AS app2.%I) WITH FUNCTION app2.%I(pg_catalog.int8) AS IMPLICIT; '
			'CREATE FUNCTION app2.%I(app2.%I) RETURNS pg_catalog.text LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L; '
			'CREATE CAST (app2.%I AS pg_catalog.text) WITH FUNCTION app2.%I(app2.%I) AS IMPLICIT',
			n.proname, 'mr_' || n.proname,
			'to_' || n.proname, n.proname, format('BEGIN RAISE WARNING ''PLANTED cast to app2.%s''; RETURN NULL; END', n.proname),
			n.proname, 'to_' || n.proname,
			'from_' || n.proname, n.proname, format('BEGIN RAISE WARNING ''PLANTED cast from app2.%s''; RETURN NULL; END', n.proname),
			n.proname, 'from_' || n.proname, n.proname)
		FROM (SELECT DISTINCT proname FROM called) AS n
		UNION ALL
		-- multirange types named after them, and procedures
		SELECT 6, 'multirange type', n.proname::text, format(
			'CREATE TYPE app3.%I AS RANGE (SUBTYPE = pg_catalog.int4, MULTIRANGE_TYPE_NAME = app3.%I)',
			'r_' || n.proname, n.proname)
		FROM (SELECT DISTINCT proname FROM called) AS n
		UNION ALL
		SELECT 7, 'procedure', n.proname::text, format(
			'CREATE PROCEDURE app3.%I(VARIADIC pg_catalog.anycompatiblearray) LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L',
			n.proname, format('BEGIN RAISE WARNING ''PLANTED procedure app3.%s''; END', n.proname))
		FROM (SELECT DISTINCT proname FROM called) AS n
		UNION ALL
		-- in uid's own schema, which the name guard watches for functions only
		SELECT 8, 'multirange type in uid schema', n.proname::text, format(
			'CREATE TYPE %I.%I AS RANGE (SUBTYPE = pg_catalog.int4, MULTIRANGE_TYPE_NAME = %I.%I)',
			ext.extnamespace::regnamespace, 'r_' || n.proname, ext.extnamespace::regnamespace, n.proname)
		FROM (SELECT DISTINCT c.proname FROM called c, ext WHERE c.pronamespace = ext.extnamespace) AS n, ext)
	SELECT string_agg(format(
		'DO \$plant\$ BEGIN EXECUTE %L; INSERT INTO app.planted VALUES (%L, %L); '
		'EXCEPTION WHEN OTHERS THEN INSERT INTO app.unplanted VALUES (%L, %L, SQLERRM); END \$plant\$;',
		d.sql, d.kind, d.what, d.kind, d.what), E'\n' ORDER BY d.o, d.what)
	FROM ddl d});

my ($ret, $out, $err) = $node->psql('owned', qq{
	SET search_path = pg_catalog, pg_temp;
	CREATE SCHEMA app;
	CREATE SCHEMA app2;
	CREATE SCHEMA app3;
	GRANT USAGE ON SCHEMA app, app2, app3 TO PUBLIC;
	CREATE TABLE app.planted (kind text, what text);
	CREATE TABLE app.unplanted (kind text, what text, why text);
	CREATE FUNCTION app.seen(what pg_catalog.text, v pg_catalog.anyelement) RETURNS pg_catalog.bool
		LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
		AS \$\$ BEGIN RAISE WARNING 'PLANTED %', what; RETURN true; END \$\$;
	$plant
	ALTER DATABASE owned SET search_path = app, app2, app3, pg_catalog, public;
}, extra_params => [ '-U', 'dbowner' ], on_error_stop => 1);
is($ret, 0, 'the owner plants') or diag($err);

my $counts = $node->safe_psql('owned', q{
	SELECT pg_catalog.string_agg(pg_catalog.format('%s: %s', p.kind, p.n), ', ' ORDER BY p.kind)
	FROM (SELECT kind, pg_catalog.count(*) AS n FROM app.planted GROUP BY kind) AS p});
note("planted: $counts");
note('refused by the catalog: ' . $node->safe_psql('owned', q{
	SELECT pg_catalog.string_agg(pg_catalog.format('%s: %s', p.kind, p.n), ', ' ORDER BY p.kind)
	FROM (SELECT kind, pg_catalog.count(*) AS n FROM app.unplanted GROUP BY kind) AS p}));
for my $kind ('function', 'aggregate', 'operator', 'domain', 'range type', 'multirange type', 'procedure',
	'multirange type in uid schema')
{
	cmp_ok($node->safe_psql('owned',
			"SELECT pg_catalog.count(*) FROM app.planted WHERE kind OPERATOR(pg_catalog.=) '$kind'"),
		'>', 0, "the owner planted: $kind");
}
for my $what ('uid_tenures', 'uid_stored_max', 'uid_adopt_target', 'uid_catch_up_lock')
{
	is($node->safe_psql('owned', qq{SELECT pg_catalog.count(*) FROM app.planted
		WHERE kind OPERATOR(pg_catalog.=) 'multirange type in uid schema' AND what OPERATOR(pg_catalog.=) '$what'}),
		'1', "... among them a multirange type public.$what, whose constructors are functions $what()");
}
for my $what ('max(bigint)', 'count()', 'format(text)', 'quote_ident(text)')
{
	is($node->safe_psql('owned', qq{SELECT pg_catalog.count(*) FROM app.planted
		WHERE what OPERATOR(pg_catalog.=) '$what'}), '1', "... and app.$what");
}
is($node->safe_psql('owned', q{SELECT pg_catalog.count(*) FROM app.planted
	WHERE kind OPERATOR(pg_catalog.=) 'operator' AND what OPERATOR(pg_catalog.=) '=(bigint,bigint)'}),
	'1', '... and app.=(bigint, bigint)');
is($node->safe_psql('owned', q{SELECT pg_catalog.count(*) FROM app.planted
	WHERE kind OPERATOR(pg_catalog.=) 'domain' AND what OPERATOR(pg_catalog.~) '(^|\.)uid$'}),
	'1', '... and a domain app.uid over uid');
is( $node->safe_psql('owned', q{SHOW search_path}),
	'app, app2, app3, pg_catalog, public', 'sessions of the database start with the owner\'s schemas first');

# --- the owner's tables, and what a superuser and the owner call
$node->safe_psql('owned', q{
	SET search_path = pg_catalog, pg_temp;
	CREATE TABLE app.orders (id bigserial PRIMARY KEY, item pg_catalog.text);
	INSERT INTO app.orders (item) SELECT 'o' OPERATOR(pg_catalog.||) i FROM pg_catalog.generate_series(1, 5) AS i;
	CREATE TABLE app.events (id bigint PRIMARY KEY DEFAULT public.uid_next(),
		u pg_catalog.uuid DEFAULT public.uuid7(), what pg_catalog.text);
	INSERT INTO app.events (what) SELECT 'e' OPERATOR(pg_catalog.||) i FROM pg_catalog.generate_series(1, 10) AS i;
}, extra_params => [ '-U', 'dbowner' ]);

# what the server logged before uid's functions are called
my $log_from = -s $node->logfile;

# [role, SQL, expected output (a regexp)] or [role, SQL, undef, SQLSTATE]
my @calls = (
	[ $superuser, q{SELECT pg_catalog.count(*) FROM public.uid_tenure_overlaps()}, qr/^0$/ ],
	[ $superuser, q{SELECT pg_catalog.count(*) FROM public.uid_tenures(NULL::pg_catalog.int4)}, qr/^[1-9]\d*$/ ],
	[ $superuser, q{SELECT w.worker_id FROM app.events AS e, public.uid_whence(e.id) AS w LIMIT 1}, qr/^\d+$/ ],
	[ $superuser, q{SELECT a.kind, a.ids FROM public.uid_audit('app.events'::pg_catalog.regclass,
		'id'::pg_catalog.name, 1.0::pg_catalog.float4) AS a WHERE a.kind OPERATOR(pg_catalog.=) 'total'},
		qr/^total\|10$/ ],
	[ $superuser, q{SELECT l.tenures, l.tenure_overlaps FROM public.uid_lease_ledger() AS l}, qr/^(\d+)?\|(0)?$/ ],
	[ $superuser, q{SELECT public.uid_stored_max('app.orders'::pg_catalog.regclass, 'id'::pg_catalog.name)}, qr/^5$/ ],
	[ $superuser, q{SELECT pg_catalog.string_agg(s, ' ') FROM public.uid_adopt('app.orders'::pg_catalog.regclass,
		NULL::pg_catalog.name, false, false, false) AS s}, qr/SECURITY LABEL FOR uid ON SEQUENCE app\.orders_id_seq IS 'adopted'/ ],
	# the adopted sequence: the owner's insert and nextval(), and the view
	[ 'dbowner', q{INSERT INTO app.orders (item) VALUES ('adopted') RETURNING id OPERATOR(pg_catalog.>) 1000000}, qr/^t$/ ],
	[ 'dbowner', q{SELECT pg_catalog.nextval('app.orders_id_seq'::pg_catalog.regclass) OPERATOR(pg_catalog.>) 1000000}, qr/^t$/ ],
	[ $superuser, q{SELECT a.sequence FROM public.uid_adoptions AS a}, qr/^(app\.)?orders_id_seq$/ ],
	[ $superuser, q{SELECT pg_catalog.string_agg(c.kind OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) c.object, ', ')
		FROM public.uid_catch_up(false, '{}'::pg_catalog.jsonb, '0'::pg_catalog.interval, 1000000000::pg_catalog.int8) AS c},
		qr/uid_next app\.orders.*uuid7 app\.events|uuid7 app\.events.*uid_next app\.orders/ ],
	[ $superuser, q{SELECT pg_catalog.string_agg(s, ' ') FROM public.uid_unadopt('app.orders'::pg_catalog.regclass,
		NULL::pg_catalog.name, false) AS s}, qr/SECURITY LABEL FOR uid ON SEQUENCE app\.orders_id_seq IS NULL/ ],
	[ $superuser, q{SELECT public.uid_counter_grant('acme'::pg_catalog.text, 'dbowner'::pg_catalog.regrole, 'INV'::pg_catalog.text)},
		qr/^t$/ ],
	[ $superuser, q{SELECT public.uid_counter_configure('INV'::pg_catalog.text, 'acme'::pg_catalog.text, 100::pg_catalog.int8, 5)},
		qr/^$/ ],
	[ $superuser, q{SELECT public.uid_counter_set_range('acme'::pg_catalog.text, 'INV'::pg_catalog.text, 100::pg_catalog.int8, 199::pg_catalog.int8)},
		qr/^$/ ],
	[ 'dbowner', q{SELECT public.uid_counter_next('acme'::pg_catalog.text, 'INV'::pg_catalog.text)}, qr/^INV-00100$/ ],
	[ 'dbowner', q{SELECT public.uid_counter_next('other'::pg_catalog.text, 'INV'::pg_catalog.text)}, undef, '42501' ],
	[ 'dbowner', q{SELECT public.uid_counter_next('acme'::pg_catalog.text, 'bad'::pg_catalog.text)}, undef, '22023' ],
	[ $superuser, q{SELECT c.tenant, c.prefix, c.last_value, c.last_id FROM public.uid_counters AS c}, qr/^acme\|INV\|100\|INV-00100$/ ],
	[ $superuser, q{SELECT public.uid_counter_format('INV'::pg_catalog.text, 7::pg_catalog.int8, 3)}, qr/^INV-007$/ ],
	[ $superuser, q{SELECT public.uid_counter_unset_range('acme'::pg_catalog.text, 'INV'::pg_catalog.text)}, qr/^$/ ],
	[ $superuser, q{SELECT public.uid_counter_revoke('acme'::pg_catalog.text, 'dbowner'::pg_catalog.regrole, 'INV'::pg_catalog.text)},
		qr/^t$/ ],
	[ $superuser, q{SELECT public.uid_ticket_create('orders'::pg_catalog.text, 1, 2, 10)}, qr/^uid_ticket\.orders$/ ],
	[ $superuser, q{GRANT USAGE ON SEQUENCE uid_ticket.orders TO dbowner}, qr/^$/ ],
	[ 'dbowner', q{SELECT public.uid_ticket_next('orders'::pg_catalog.text)}, qr/^1$/ ],
	[ 'dbowner', q{SELECT b.first, b.last, b.step, b.count FROM public.uid_ticket_next_block('orders'::pg_catalog.text, 3) AS b},
		qr/^21\|25\|2\|3$/ ],
	[ 'dbowner', q{SELECT public.uid_ticket_next('No ticket'::pg_catalog.text)}, undef, '22023' ],
	[ 'dbowner', q{SELECT public.uid_ticket_next('none'::pg_catalog.text)}, undef, '42704' ],
	[ $superuser, q{SELECT t.name, t.node, t.nodes, t.block FROM public.uid_tickets AS t}, qr/^orders\|1\|2\|10$/ ],
	[ $superuser, q{SELECT public.uid_ticket_create('No ticket'::pg_catalog.text, 1, 2, 1)}, undef, '22023' ],
	[ $superuser, q{SELECT public.uid_ticket_drop('orders'::pg_catalog.text)}, qr/^$/ ],
	[ $superuser, q{SELECT s.worker_id OPERATOR(pg_catalog.>=) 0, s.ids_issued OPERATOR(pg_catalog.>) 0 FROM public.uid_stats AS s},
		qr/^t\|t$/ ],
	[ 'dbowner', q{SELECT l.state FROM public.uid_lease_status() AS l}, qr/^held$/ ],
	[ 'dbowner', q{SELECT public.uid_next() OPERATOR(pg_catalog.>) 0, public.uuid7() IS NOT NULL}, qr/^t\|t$/ ],
	[ $superuser, q{SELECT (public.uid_decode(e.id)).worker_id OPERATOR(pg_catalog.>=) 0 FROM app.events AS e LIMIT 1}, qr/^t$/ ],
	# the time filter's rewrite, the forms, the lease table's DDL, the operator families
	[ 'dbowner', q{SELECT pg_catalog.count(*) FROM app.events AS e
		WHERE public.uid_time(e.id) OPERATOR(pg_catalog.>=) (pg_catalog.now() OPERATOR(pg_catalog.-) '1 day'::pg_catalog.interval)},
		qr/^10$/ ],
	[ 'dbowner', q{SELECT public.uid_from_text(public.uid_to_text(42::pg_catalog.int8)) OPERATOR(pg_catalog.=) 42}, qr/^t$/ ],
	[ 'dbowner', q{SELECT public.uid_lease_table_sql('dbowner'::pg_catalog.name, 'uid_lease'::pg_catalog.name)},
		qr/CREATE TABLE/ ],
	[ $superuser, q{SELECT pg_catalog.count(*) FROM (SELECT public.uid_restore_operator_families()) AS r}, qr/^1$/ ],
	[ $superuser, q{SELECT public.uid_stats_reset() IS NOT NULL}, qr/^t$/ ],
	# the restore step of docs/operations.md, in its schema-qualified form
	[ $superuser, q{SELECT public.uid_advance_past(pg_catalog.max(id)) IS NOT NULL FROM app.events}, qr/^t$/ ],
	[ 'dbowner', q{SELECT pg_catalog.string_agg(s, ' ') FROM public.uid_adopt('app.orders'::pg_catalog.regclass,
		NULL::pg_catalog.name, true, false, false) AS s}, qr/ALTER TABLE ONLY app\.orders ALTER COLUMN id SET DEFAULT public\.uid_sequence_nextval/ ],
);

# the exporter's queries and the query the UidTenureOverlap alert names
my $queries = slurp_file("$top/monitoring/uid-queries.yml");
my @exporter;
push @exporter, $1 while $queries =~ /^  query: \|\n((?:    .*\n)+)/mg;
cmp_ok(scalar @exporter, '>=', 3, 'the exporter\'s queries: ' . scalar @exporter);
push @calls, map { [ $superuser, $_, qr/./ ] } @exporter;
my ($alert) = slurp_file("$top/monitoring/uid-alerts.yml") =~ /(SELECT \* FROM [\w.]+\(\))/;
ok(defined $alert, "the UidTenureOverlap alert names a query: $alert");
push @calls, [ $superuser, "$alert", qr/^$/ ];

for my $c (@calls)
{
	my ($role, $sql, $want, $state) = @$c;
	($ret, $out, $err) = $node->psql('owned', "\\set VERBOSITY verbose\n$sql", extra_params => [ '-U', $role ]);
	(my $short = $sql) =~ s/\s+/ /g;
	if (defined $state)
	{
		my ($got) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
		is($got // "(none: exit $ret)", $state, "$role: $short: refused with $state");
	}
	else
	{
		is($ret, 0, "$role: $short: runs") or diag($err);
		like($out, $want, '... and gives the right result');
	}
	unlike($err, qr/PLANTED/, '... and runs nothing planted');
}

is($node->safe_psql('owned', q{SELECT pg_catalog.count(*) FROM app.planted}),
	$node->safe_psql('owned', q{SELECT pg_catalog.count(*) FROM app.planted}), 'the plants are all still there');
my $log = slurp_file($node->logfile, $log_from);
my @ran = $log =~ /WARNING:\s+(PLANTED [^\n]*)/g;
is(scalar @ran, 0, 'the server log names no plant that ran') or diag(join("\n", @ran[0 .. ($#ran < 20 ? $#ran : 19)]));
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'dbowner'}), 'f',
	'the owner is no superuser');

done_testing();
