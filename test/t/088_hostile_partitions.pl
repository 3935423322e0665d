# A table owner against a superuser's maintenance of its partitions.
# uid_partitions_maintain() reads the table's default partition (does it
# hold rows of a new partition's range?) and makes and drops partitions.
# Planning that read simplifies the predicates of the default partition's
# indexes, calling the owner's functions; so mallory, an ordinary role,
# plants a partial index whose predicate calls her IMMUTABLE function with a
# constant, which notes the role it runs as and makes mallory superuser if
# that role is one (app.mark(), UidTap's hostile_mark_sql).  A superuser (or its pg_cron job: the same call) keeps
# her partitions: the function must run as mallory only, the partitions
# must still be made and retired, and be hers.  The steps called directly
# by a superuser refuse; a role without mallory's privileges is refused; a
# member of her role maintains them as her.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_partitions', 'uid.worker_id' => 3);
$node->start;

# run as a role (SET ROLE from a superuser's session, as a login would be)
sub as_ok
{
	my ($role, $sql) = @_;
	return $node->safe_psql('app', "SET ROLE $role;\n$sql");
}

sub state_as
{
	my ($role, $sql) = @_;
	return (sqlstate_of($node, "SET ROLE $role;\n$sql", 'app'))[0];
}

$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE ROLE eve LOGIN;
	CREATE ROLE deputy LOGIN IN ROLE mallory;
	CREATE DATABASE app;
});
$node->safe_psql('app', q{
	CREATE SCHEMA ids;
	CREATE EXTENSION uid SCHEMA ids;
	GRANT USAGE ON SCHEMA ids TO PUBLIC;
	CREATE SCHEMA mal AUTHORIZATION mallory;
	GRANT CREATE ON DATABASE app TO mallory;
});

# app.mark() notes its caller and makes mallory superuser if that is one;
# the predicate calls it through an IMMUTABLE function of a constant, which
# the planner evaluates
as_ok('mallory', hostile_mark_sql('mallory') . q{
	CREATE FUNCTION mal.trap_now(integer) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
	BEGIN
		PERFORM app.mark('predicate');
		RETURN true;
	END $$;
	CREATE TABLE mal.events (id bigint PRIMARY KEY DEFAULT ids.uid_next()) PARTITION BY RANGE (id);
	CREATE TABLE mal.events_default PARTITION OF mal.events DEFAULT;
	CREATE INDEX events_default_trap ON mal.events_default (id) WHERE mal.trap_now(0);
	TRUNCATE app.hits;
});

sub trap_calls_not_by_mallory
{
	return $node->safe_psql('app', q{SELECT count(*) FROM app.hits WHERE by_user <> 'mallory'});
}

# --- 1. a superuser's maintenance
my $made = as_ok('postgres', q{
	SELECT string_agg(s, ',' ORDER BY s)
	FROM ids.uid_partitions_maintain('mal.events', ahead => 2, at_time => '2026-12-05 12:00+00') AS s});
is($made, 'created events_p20261205,created events_p20261206,created events_p20261207',
	'a superuser\'s run makes today\'s partition and two ahead');
cmp_ok($node->safe_psql('app', q{SELECT count(*) FROM app.hits}), '>', 0,
	'reading the default partition ran the planted predicate (the attack is live)');
is(trap_calls_not_by_mallory(), '0', 'and it ran as no role but mallory');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'mallory is no superuser');
is($node->safe_psql('app', q{
	SELECT string_agg(DISTINCT c.relowner::regrole::text, ',')
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = 'mal.events'::regclass}),
	'mallory', 'every partition is the table owner\'s, not the superuser\'s');

# retirement, by a superuser, with the trap still there
$made = as_ok('postgres', q{
	SELECT string_agg(s, ',' ORDER BY s)
	FROM ids.uid_partitions_maintain('mal.events', ahead => 2, keep => '1 day',
	                                 at_time => '2026-12-07 12:00+00') AS s});
is($made, 'created events_p20261208,created events_p20261209,dropped events_p20261205',
	'a superuser\'s run with keep makes the days ahead and drops the day past the cutoff');
is(trap_calls_not_by_mallory(), '0', 'still no role but mallory ran her function');

# --- 2. the steps, called directly by a superuser, refuse
is(state_as('postgres', q{SELECT * FROM ids.uid_partitions_steps('mal.events', '1 day', 4, NULL, 'UTC', now())}),
	'42501', 'uid_partitions_steps() by a superuser on mallory\'s table: refused');
is(state_as('postgres', q{SELECT ids.uid_partition_add('mal.events', 'events_x', '1', '2')}),
	'42501', 'uid_partition_add() by a superuser: refused');
is(state_as('postgres', q{SELECT * FROM ids.uid_partition_retire('mal.events', '9223372036854775807')}),
	'42501', 'uid_partition_retire() by a superuser: refused');
is(trap_calls_not_by_mallory(), '0', 'and none of them ran her function');

# --- 3. a role without mallory's privileges
is(state_as('eve', q{SELECT * FROM ids.uid_partitions_maintain('mal.events')}), '42501',
	'eve may not maintain mallory\'s partitions');
is(state_as('eve', q{SELECT * FROM ids.uid_partition_retire('mal.events', '9223372036854775807')}), '42501',
	'nor call a step on them');
is(state_as('eve', q{SELECT * FROM ids.uid_partitions_maintain(0::regclass)}), '42501',
	'nor name a table that does not exist');

# --- 4. a member of mallory's role maintains them as her
$made = as_ok('deputy', q{
	SELECT string_agg(s, ',' ORDER BY s)
	FROM ids.uid_partitions_maintain('mal.events', ahead => 3, at_time => '2026-12-07 12:00+00') AS s});
is($made, 'created events_p20261210', 'a member of the owning role makes the day missing');
is($node->safe_psql('app', q{SELECT relowner::regrole FROM pg_class WHERE oid = 'mal.events_p20261210'::regclass}),
	'mallory', 'and the partition is the owner\'s, not the member\'s');

# --- 5. mallory herself; rows land in their day
as_ok('mallory', q{SELECT count(*) FROM ids.uid_partitions_maintain('mal.events', ahead => 1)});
is(as_ok('mallory', q{
	INSERT INTO mal.events DEFAULT VALUES RETURNING tableoid::regclass = 'mal.events_default'::regclass}),
	'f', 'an ID issued now lands in a partition of its day, not in the default');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'mallory is still no superuser');

done_testing();
