# A role with CREATE on schema public (the default on clusters upgraded from
# PostgreSQL 14 or older, modelled by GRANT CREATE ON SCHEMA public TO
# PUBLIC) plants operators and functions there whose code makes it superuser
# when a superuser runs them.  CREATE EXTENSION uid and the upgrade from 1.1
# still succeed, use pg_catalog's operators, never run the planted code, and
# the role stays ordinary.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_install', 'uid.worker_id' => 1);
$node->start;

sub as_role
{
	my ($role, $db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}

sub is_superuser
{
	my ($role) = @_;
	return $node->safe_psql('postgres',
		"SELECT rolsuper FROM pg_roles WHERE rolname = '$role'");
}

# Objects planted in public before CREATE EXTENSION
$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE DATABASE app;
	CREATE DATABASE app_upgrade;
});
for my $db ('app', 'app_upgrade')
{
	# a cluster upgraded from 14 or older: everyone may create in public
	$node->safe_psql($db, 'GRANT CREATE ON SCHEMA public TO PUBLIC');

	# Every planted function records that it ran, and makes mallory a
	# superuser when it runs as one.
	as_role('mallory', $db, q{
	CREATE TABLE public.hits (what text, by_user name DEFAULT current_user);
	GRANT INSERT, SELECT ON public.hits TO PUBLIC;
	CREATE FUNCTION public.pwn(what text) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.hits (what) VALUES (what);
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE mallory SUPERUSER';
		END IF;
	END $$;
	GRANT EXECUTE ON FUNCTION public.pwn(text) TO PUBLIC;

	-- && of the ranges' exclusion constraint: pg_catalog's is polymorphic
	-- (anyrange), so this exact match would win if left unqualified
	CREATE FUNCTION public.evil_overlaps(numrange, numrange) RETURNS boolean
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('&&');
		RETURN $1 OPERATOR(pg_catalog.&&) $2; END $$;
	CREATE OPERATOR public.&& (LEFTARG = numrange, RIGHTARG = numrange,
	                           FUNCTION = public.evil_overlaps);

	-- exact matches of operators uid uses: pg_catalog, searched first, wins
	CREATE FUNCTION public.evil_text_eq(text, text) RETURNS boolean
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('=');
		RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
	CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = text, FUNCTION = public.evil_text_eq);
	CREATE FUNCTION public.evil_text_re(text, text) RETURNS boolean
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('~');
		RETURN $1 OPERATOR(pg_catalog.~) $2; END $$;
	CREATE OPERATOR public.~ (LEFTARG = text, RIGHTARG = text, FUNCTION = public.evil_text_re);
	CREATE FUNCTION public.evil_int_ge(integer, integer) RETURNS boolean
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('>=');
		RETURN $1 OPERATOR(pg_catalog.>=) $2; END $$;
	CREATE OPERATOR public.>= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.evil_int_ge);
	CREATE FUNCTION public.evil_bigint_le(bigint, bigint) RETURNS boolean
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('<=');
		RETURN $1 OPERATOR(pg_catalog.<=) $2; END $$;
	CREATE OPERATOR public.<= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = public.evil_bigint_le);

	-- functions uid calls (always as pg_catalog.name)
	CREATE FUNCTION public.numrange(numeric, numeric, text) RETURNS numrange
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('numrange');
		RETURN pg_catalog.numrange($1, $2, $3); END $$;
	CREATE FUNCTION public.lpad(text, integer, text) RETURNS text
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('lpad');
		RETURN pg_catalog.lpad($1, $2, $3); END $$;
	CREATE FUNCTION public.format(text, text) RETURNS text
	LANGUAGE plpgsql AS $$ BEGIN PERFORM public.pwn('format');
		RETURN pg_catalog.format($1, $2); END $$;
	});
}

my ($ret, $out, $err) = $node->psql('app', 'CREATE EXTENSION uid');
is($ret, 0, 'CREATE EXTENSION uid succeeds with operators and functions planted in public')
  or diag($err);

($ret, $out, $err) = $node->psql('app_upgrade',
	"CREATE EXTENSION uid VERSION '1.1'; ALTER EXTENSION uid UPDATE;");
is($ret, 0, '... and so do CREATE EXTENSION uid VERSION 1.1 and the upgrade to 1.2')
  or diag($err);

for my $db ('app', 'app_upgrade')
{
	is( $node->safe_psql(
			$db, q{
		SELECT o.oprnamespace::regnamespace
		  FROM pg_constraint c, unnest(c.conexclop) AS x(op)
		  JOIN pg_operator o ON o.oid = x.op
		 WHERE c.conname = 'ranges_do_not_overlap'}),
		'pg_catalog',
		"$db: the ranges' exclusion constraint uses pg_catalog.&&");

	# Use what the install made, as a superuser whose search_path starts
	# with public (the default "$user", public).
	($ret, $out, $err) = $node->psql($db, q{
		SELECT uid_counter_set_range('acme', 'TKT', 1, 100);
		SELECT uid_counter_configure('TKT', 'acme', width => 6);
		SELECT uid_counter_next('acme', 'TKT');
		SELECT uid_counter_grant('acme', 'mallory', 'TKT');
		SELECT uid_ticket_create('orders', 1, 2);
		SELECT uid_ticket_next('orders');
		SELECT * FROM uid_counters;
		SELECT * FROM uid_counter_settings;
		SELECT * FROM uid_tickets;
		SELECT * FROM uid_stats;
	});
	is($ret, 0, "$db: counters, tickets and views work") or diag($err);
	my ($state) = sqlstate_of($node,
		"SELECT uid_counter_set_range('globex', 'TKT', 50, 150)", $db);
	is($state, '23P01', "$db: an overlapping range is refused (23P01)");
	($state) = sqlstate_of($node,
		"INSERT INTO uid_counter.ranges (prefix, tenant, lo, hi) VALUES ('TKT', 'globex', 100, 100)", $db);
	is($state, '23P01', "$db: the exclusion constraint itself refuses an overlap");
	is(as_role('mallory', $db, "SELECT uid_counter_next('acme', 'TKT')"),
		'TKT-000002', "$db: mallory's grant works");

	is($node->safe_psql($db, q{SELECT coalesce(string_agg(what, ','), 'none') FROM public.hits}),
		'none', "$db: none of the planted operators or functions ran");
}
is(is_superuser('mallory'), 'f', 'mallory is not a superuser');

done_testing();
