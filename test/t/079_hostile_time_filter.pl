# A hostile table owner against the time-filter rewrite (src/tables/time_filter.c).
# To learn whether a uuid column holds version 7 UUIDs only, the rewrite
# reads the table's CHECK constraints while a query is planned, as the role
# that plans it.  An ordinary role owns a table whose constraints call its
# own IMMUTABLE functions (a function call and an operator, each with
# constant arguments), which make it superuser when a superuser runs them.
# A superuser's time filter on that table must leave the role ordinary and
# run none of them, while the rewrite still works: a constraint that proves
# the column v7-only still spares the filter "IS NOT NULL".
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_time_filter', 'uid.worker_id' => 1);
$node->start;

sub as_mallory
{
	my ($sql) = @_;
	return $node->safe_psql('postgres', $sql, extra_params => [ '-U', 'mallory' ]);
}

sub mallory_is_superuser
{
	return $node->safe_psql('postgres',
		"SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'");
}

# the calls of mallory's functions made by superusers
sub superuser_hits
{
	return $node->safe_psql('postgres',
		'SELECT count(*) FROM mallory.hits WHERE by_superuser');
}

$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE ROLE mallory LOGIN;
	CREATE SCHEMA mallory AUTHORIZATION mallory;
});

as_mallory(q{
	SET search_path = mallory;
	CREATE TABLE hits (by_user name, by_superuser boolean);
	GRANT INSERT ON hits TO PUBLIC;

	-- volatile: may run ALTER ROLE, and notes each call
	CREATE FUNCTION esc(int) RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO mallory.hits SELECT current_user, rolsuper
			FROM pg_catalog.pg_roles WHERE rolname = current_user;
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE mallory SUPERUSER';
		END IF;
		RETURN true;
	END $$;
	-- the IMMUTABLE wrappers that constant folding would run
	CREATE FUNCTION esc_imm(int) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
		AS $$ BEGIN RETURN mallory.esc($1); END $$;
	CREATE FUNCTION esc_op(int, int) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
		AS $$ BEGIN RETURN mallory.esc($1 + $2); END $$;
	CREATE OPERATOR ### (LEFTARG = int, RIGHTARG = int, FUNCTION = esc_op);

	CREATE TABLE events (u uuid PRIMARY KEY DEFAULT public.uuid7(),
		CHECK (esc_imm(1)));
	CREATE TABLE events_op (u uuid PRIMARY KEY DEFAULT public.uuid7(),
		CHECK (1 OPERATOR(mallory.###) 2));
	-- declares the column v7-only, and calls mallory's function too
	CREATE TABLE events_v7 (u uuid PRIMARY KEY DEFAULT public.uuid7(),
		CHECK (public.uuid7_time(u) IS NOT NULL AND esc_imm(3)));
	INSERT INTO events SELECT FROM generate_series(1, 5);
	INSERT INTO events_op SELECT FROM generate_series(1, 5);
	INSERT INTO events_v7 SELECT FROM generate_series(1, 5);
});
is(superuser_hits(), '0', 'no superuser has run mallory\'s functions yet');
is(mallory_is_superuser(), 'f', 'mallory is an ordinary role');

for my $table ('mallory.events', 'mallory.events_op', 'mallory.events_v7')
{
	is( $node->safe_psql('postgres',
			"SELECT count(*) FROM $table WHERE uuid7_time(u) > now() - interval '1 day'"),
		'5', "a superuser's time filter on $table finds its rows");
	is(superuser_hits(), '0',
		"planning it ran none of mallory's functions as the superuser");
	is(mallory_is_superuser(), 'f', 'mallory is still an ordinary role');
}

# a generic plan of a prepared statement plans the table again
$node->safe_psql('postgres', q{
	SET plan_cache_mode = force_generic_plan;
	PREPARE q(timestamptz) AS SELECT count(*) FROM mallory.events WHERE uuid7_time(u) > $1;
	EXECUTE q(now() - interval '1 day');
});
is(superuser_hits(), '0', 'a generic plan runs none of them either');
is(mallory_is_superuser(), 'f', 'mallory is still an ordinary role after it');

# The rewrite still reads what the constraints say: events_v7's column is
# v7-only (the filter on the time is a range of u and nothing else), the
# others need "IS NOT NULL".
like(
	$node->safe_psql('postgres',
		q{EXPLAIN (COSTS OFF) SELECT * FROM mallory.events_v7
		  WHERE uuid7_time(u) > '2026-03-01'}),
	qr/Index Cond: \(u >= '[0-9a-f-]+'::uuid\)(?!.*IS NOT NULL)/s,
	'a constraint that declares the column v7-only spares the filter, unfolded');
like(
	$node->safe_psql('postgres',
		q{EXPLAIN (COSTS OFF) SELECT * FROM mallory.events
		  WHERE uuid7_time(u) > '2026-03-01'}),
	qr/u >= '[0-9a-f-]+'::uuid.*IS NOT NULL/s,
	'a constraint that proves nothing about versions keeps the filter');
is(superuser_hits(), '0', 'explaining them ran none of mallory\'s functions');

# what a constraint of PostgreSQL's and uid's functions only is still folded:
# the rewrite proves v7-only through a folded constant
$node->safe_psql('postgres', q{
	CREATE TABLE folded (u uuid PRIMARY KEY DEFAULT uuid7(),
		CHECK (uuid7_time(u) IS NOT NULL OR pg_catalog.int4pl(1, 1) = 3));
});
like(
	$node->safe_psql('postgres',
		q{EXPLAIN (COSTS OFF) SELECT * FROM folded
		  WHERE uuid7_time(u) > '2026-03-01'}),
	qr/Index Cond: \(u >= '[0-9a-f-]+'::uuid\)(?!.*IS NOT NULL)/s,
	'a constraint of built-in functions is folded, and proves the column v7-only');

$node->stop;
done_testing();
