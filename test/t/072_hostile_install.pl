# Hostile roles against the install scripts and the durable floors (issue
# 10, findings 9 and 5), each reproduced as an ordinary role:
#
#  a) A role with CREATE on schema public (the default on clusters upgraded
#     from PostgreSQL 14 or older, modelled by GRANT CREATE ON SCHEMA public
#     TO PUBLIC) plants operators and functions there whose code makes it
#     superuser when a superuser runs them.  CREATE EXTENSION uid and the
#     upgrade from 1.1 still succeed, use pg_catalog's operators, never run
#     the planted code, and the role stays ordinary.
#  b) A role granted uuid7_advance_past() (say, for a data migration) moves
#     uuid7() 23 hours ahead: after a clean restart and after a crash,
#     uid_next() still issues IDs (each generator has its own floor in
#     uid.hwm), and uuid7() stays above the key.  uid_advance_past() moves
#     uid_next() only, and its refusal names uid_next()'s floor.
#  c) A uid.hwm written by uid 1.1 (one floor for both generators) is read as
#     that floor for each, and rewritten in the new format keeping it.
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

# ---------------------------------------------------------------------------
# a) Objects planted in public before CREATE EXTENSION
# ---------------------------------------------------------------------------
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
is($ret, 0, 'a) CREATE EXTENSION uid succeeds with operators and functions planted in public')
  or diag($err);

($ret, $out, $err) = $node->psql('app_upgrade',
	"CREATE EXTENSION uid VERSION '1.1'; ALTER EXTENSION uid UPDATE;");
is($ret, 0, 'a) ... and so do CREATE EXTENSION uid VERSION 1.1 and the upgrade to 1.2')
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
		"a) $db: the ranges' exclusion constraint uses pg_catalog.&&");

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
	is($ret, 0, "a) $db: counters, tickets and views work") or diag($err);
	my ($state) = sqlstate_of($node,
		"SELECT uid_counter_set_range('globex', 'TKT', 50, 150)", $db);
	is($state, '23P01', "a) $db: an overlapping range is refused (23P01)");
	($state) = sqlstate_of($node,
		"INSERT INTO uid_counter.ranges (prefix, tenant, lo, hi) VALUES ('TKT', 'globex', 100, 100)", $db);
	is($state, '23P01', "a) $db: the exclusion constraint itself refuses an overlap");
	is(as_role('mallory', $db, "SELECT uid_counter_next('acme', 'TKT')"),
		'TKT-000002', "a) $db: mallory's grant works");

	is($node->safe_psql($db, q{SELECT coalesce(string_agg(what, ','), 'none') FROM public.hits}),
		'none', "a) $db: none of the planted operators or functions ran");
}
is(is_superuser('mallory'), 'f', 'a) mallory is not a superuser');

# ---------------------------------------------------------------------------
# b) uuid7_advance_past() 23 hours ahead, by a role granted it
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE ROLE migrator LOGIN;
	GRANT EXECUTE ON FUNCTION uuid7_advance_past(uuid) TO migrator;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), u uuid UNIQUE DEFAULT uuid7());
	GRANT INSERT, SELECT ON t TO PUBLIC;
});
my $key = $node->safe_psql('postgres',
	"SELECT uuid7_from_time(clock_timestamp() + interval '23 hours')");
is(as_role('migrator', 'postgres', "SELECT uuid7_advance_past('$key')"),
	't', 'b) the migration role moves uuid7() 23 hours ahead');
as_role('migrator', 'postgres', 'INSERT INTO t DEFAULT VALUES');

$node->restart;
($ret, $out, $err) = $node->psql('postgres',
	'INSERT INTO t DEFAULT VALUES RETURNING uid_time(id) > clock_timestamp() - interval \'1 minute\'');
is($ret, 0, 'b) after a clean restart uid_next() issues IDs') or diag($err);
is($node->safe_psql('postgres', "SELECT uuid7() > '$key'"), 't',
	'b) ... and uuid7() is still above the key');

my ($uid_ms, $clean, $uuid7_ms, $version) = read_hwm($node);
is($version, 2, 'b) uid.hwm is written in the format with a floor per generator');
my $key_ms = $node->safe_psql('postgres',
	"SELECT (extract(epoch FROM uuid7_time('$key')) * 1000)::bigint - " . uid_epoch_ms());
cmp_ok($uuid7_ms, '>=', $key_ms, "b) uuid7()'s floor covers the key");
cmp_ok($uid_ms, '<', $key_ms - 3600 * 1000, "b) uid_next()'s floor stays at the clock");

kill9_all($node);
$node->start;
($ret, $out, $err) = $node->psql('postgres', 'INSERT INTO t DEFAULT VALUES');
is($ret, 0, 'b) after kill -9 of the server uid_next() issues IDs') or diag($err);
is($node->safe_psql('postgres', "SELECT uuid7() > '$key'"), 't',
	'b) ... and uuid7() is still above the key');
is($node->safe_psql('postgres', 'SELECT count(*) = count(DISTINCT id) AND count(*) = 3 FROM t'),
	't', 'b) every row has its own ID');

$node->stop;

# The other way round, on a server of its own: uid_advance_past() moves
# uid_next() only.  Its refusal names uid_next()'s floor, and no hint that
# cannot help.
my $adv = uid_node('advance_uid', 'uid.worker_id' => 3);
$adv->start;
$adv->safe_psql('postgres', 'CREATE EXTENSION uid');
my $far = $adv->safe_psql('postgres',
	"SELECT uid_from_time(clock_timestamp() + interval '23 hours')");
is($adv->safe_psql('postgres', "SELECT uid_advance_past($far)"), 't',
	'b) uid_advance_past() moves uid_next() 23 hours ahead');
my ($state, $stderr) = sqlstate_of($adv, 'SELECT uid_next()');
is($state, 'UID01', 'b) uid_next() then refuses (UID01)');
like($stderr, qr/behind the floor of uid_next\(\)/, 'b) ... naming uid_next()\'s floor');
like($stderr, qr/uid_advance_past\(\) moved uid_next\(\) to/, 'b) ... and that uid_advance_past() set it');
like($stderr, qr/resumes by itself once the clock passes/, 'b) ... and when it recovers');
unlike($stderr, qr/raise uid\.clock_max_wait_ms/, 'b) ... without the hint to raise uid.clock_max_wait_ms');
$adv->restart;
($state, $stderr) = sqlstate_of($adv, 'SELECT uid_next()');
like($stderr, qr/behind the floor of uid_next\(\).*restored from uid\.hwm/s,
	'b) after a restart the refusal says the floor was restored from uid.hwm');
is( $adv->safe_psql(
		'postgres', q{SELECT uuid7_time(uuid7()) < clock_timestamp() + interval '1 hour'}),
	't', 'b) after the restart uuid7() still follows the clock: uid_advance_past() did not move it');
$adv->stop;

# ---------------------------------------------------------------------------
# c) A uid.hwm written by uid 1.1: one floor, an hour ahead, for both
# ---------------------------------------------------------------------------
my $old = uid_node('hwm_v1', 'uid.worker_id' => 2);
$old->start;
$old->safe_psql('postgres', 'CREATE EXTENSION uid');
my $floor = $old->safe_psql('postgres',
	"SELECT (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint - " . uid_epoch_ms());
$old->stop;
write_hwm_v1($old, $floor, 1);
$old->start;
($state, $stderr) = sqlstate_of($old, 'SELECT uid_next()');
is($state, 'UID01', 'c) uid_next() keeps the floor of a version 1 uid.hwm');
like($stderr, qr/written by a uid before 1\.2/, 'c) ... and says where it comes from');
my $floor_uuid = $old->safe_psql('postgres',
	"SELECT uuid7_from_time(to_timestamp((" . uid_epoch_ms() . " + $floor + 1) / 1000.0))");
is($old->safe_psql('postgres', "SELECT uuid7() >= '$floor_uuid'"), 't',
	'c) uuid7() starts above the floor of a version 1 uid.hwm');
$old->stop;
($uid_ms, $clean, $uuid7_ms, $version) = read_hwm($old);
is($version, 2, 'c) uid.hwm is rewritten in the new format');
is($uid_ms, $floor, "c) ... keeping uid_next()'s floor");
cmp_ok($uuid7_ms, '>', $floor, "c) ... and uuid7()'s above it");
$old->start;
($state, $stderr) = sqlstate_of($old, 'SELECT uid_next()');
is($state, 'UID01', 'c) after the next restart uid_next() still keeps the floor');
$old->stop;

done_testing();
