# Helpers shared by the lease TAP tests (test/t/02x_*.pl).
package LeaseTest;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Test::More;
use Exporter 'import';
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Utils;
use IPC::Run;
use UidCluster;

our @EXPORT = qw(lease_node wait_held try_next_sql uid_epoch_ms kill9_and_start
  hostile_role plant_operators plant_lease_table is_superuser poll_within
  started_lease_node admin_lease_table_sql load_setup load_start load_stop issued_count issued_ids
  duplicates_among refusal_seconds);

use constant uid_epoch_ms => 1767225600000;

# plpgsql helper created in each generating node: the worker id of a new ID,
# or the SQLSTATE of the error uid_next() raised.
sub try_next_sql
{
	return q{
CREATE FUNCTION try_next() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN (uid_decode(uid_next())).worker_id::text;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
};
}

# A node in lease mode with short times.  Extra settings in %opts{conf}.
# UID_LEASE_TEST_SCALE (default 1) multiplies the times, for servers far
# slower than usual (test/valgrind.sh runs the lease tests with 20).  A
# renewal every 500 ms, a sixth of what is left of the TTL after the safety
# margin: every 100 ms, an idle server leasing from another one cost the
# two of them 93 ms of CPU a second on the 2-core CI machine (24 at 500 ms),
# and the lease tests run several at once for minutes.
sub lease_node
{
	my ($name, %opts) = @_;
	my $scale = $ENV{UID_LEASE_TEST_SCALE} // 1;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%{ $opts{init} // {} });
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'uid'\n"
		  . "uid.worker_id = 'lease'\n"
		  . "uid.lease_ttl = '@{[5 * $scale]}s'\n"
		  . "uid.lease_renew_interval = '@{[500 * $scale]}ms'\n"
		  . "uid.lease_safety_margin = '@{[2000 * $scale]}ms'\n"
		  . "uid.lease_max_clock_skew = '@{[500 * $scale]}ms'\n"
		  . ($opts{conf} // ''));
	return $node;
}

# Polls until this node's lease is held; returns (worker_id, token).
sub wait_held
{
	my ($node) = @_;
	$node->poll_query_until('postgres',
		"SELECT state = 'held' FROM uid_lease_status()")
	  or die "lease not held on " . $node->name . ": "
	  . $node->safe_psql('postgres', 'SELECT * FROM uid_lease_status()');
	my ($w, $t) = split /\|/, $node->safe_psql('postgres',
		'SELECT worker_id, token FROM uid_lease_status()');
	return ($w, $t);
}

# kill -9 of the postmaster, then start again: polls (bounded) until the old
# postmaster and its children are gone, which the new start checks itself.
sub kill9_and_start
{
	my ($node) = @_;
	$node->kill9;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline)
	{
		return if $node->start(fail_ok => 1);
		# a failed start reads the stale postmaster.pid: forget it
		$node->{_pid} = undef;
		usleep(100_000);
	}
	die 'node ' . $node->name . ' did not start after kill -9';
}

# --- hostile roles (test/t/07x_*.pl) ---

# An ordinary login role in $node, as PostgreSQL makes it (no superuser, no
# grants), in a cluster where CREATE on schema public is granted to PUBLIC
# in database $db, as on clusters upgraded from 14 or older.
sub hostile_role
{
	my ($node, $role, $db) = @_;
	$node->safe_psql('postgres', "CREATE ROLE $role LOGIN");
	$node->safe_psql($db // 'postgres', 'GRANT CREATE ON SCHEMA public TO PUBLIC');
	return;
}

sub is_superuser
{
	my ($node, $role) = @_;
	return $node->safe_psql('postgres',
		"SELECT rolsuper FROM pg_roles WHERE rolname = '$role'");
}

# As $role in $db: operators in public of exactly the signatures the lease
# worker's SQL used to leave to resolution (bigint * interval, numeric *
# integer, timestamptz + interval); each makes $role a superuser if it ever
# runs as one, and counts its calls in public.planted_calls.
sub plant_operators
{
	my ($node, $role, $db) = @_;
	$node->safe_psql($db // 'postgres', qq{
SET ROLE $role;
CREATE TABLE public.planted_calls (n int);
GRANT INSERT ON public.planted_calls TO PUBLIC;
CREATE FUNCTION public.grab() RETURNS void LANGUAGE plpgsql AS \$\$
BEGIN
	INSERT INTO public.planted_calls VALUES (1);
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
		EXECUTE 'ALTER ROLE $role SUPERUSER';
	END IF;
END \$\$;
CREATE FUNCTION public.mul(bigint, interval) RETURNS interval LANGUAGE plpgsql AS \$\$
BEGIN PERFORM public.grab(); RETURN pg_catalog.interval_mul(\$2, \$1::float8); END \$\$;
CREATE OPERATOR public.* (LEFTARG = bigint, RIGHTARG = interval, FUNCTION = public.mul);
CREATE FUNCTION public.mul(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS \$\$
BEGIN PERFORM public.grab(); RETURN pg_catalog.numeric_mul(\$1, \$2::numeric); END \$\$;
CREATE OPERATOR public.* (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = public.mul);
CREATE FUNCTION public.add(timestamptz, interval) RETURNS timestamptz LANGUAGE plpgsql AS \$\$
BEGIN PERFORM public.grab(); RETURN pg_catalog.timestamptz_pl_interval(\$1, \$2); END \$\$;
CREATE OPERATOR public.+ (LEFTARG = timestamptz, RIGHTARG = interval, FUNCTION = public.add);
});
	return;
}

# As $role in $db: the schema $schema and a lease table in it, as the lease
# worker would use them, with a trigger that makes $role a superuser if it
# ever fires as one; open to everyone.
sub plant_lease_table
{
	my ($node, $role, $db, $schema) = @_;
	$node->safe_psql($db, qq{
SET ROLE $role;
CREATE SCHEMA $schema;
CREATE TABLE $schema.lease (
    worker_id integer PRIMARY KEY, token bigint NOT NULL,
    system_identifier numeric(20,0) NOT NULL, timeline integer NOT NULL,
    host text, port integer, pid integer,
    acquired_at timestamptz NOT NULL, renewed_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL, released_at timestamptz,
    last_issued_ms bigint NOT NULL DEFAULT 0);
CREATE FUNCTION $schema.grab() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
		EXECUTE 'ALTER ROLE $role SUPERUSER';
	END IF;
	RETURN NEW;
END \$\$;
CREATE TRIGGER grab BEFORE INSERT OR UPDATE ON $schema.lease
    FOR EACH ROW EXECUTE FUNCTION $schema.grab();
GRANT USAGE ON SCHEMA $schema TO PUBLIC;
GRANT ALL ON $schema.lease TO PUBLIC;
GRANT EXECUTE ON FUNCTION $schema.grab() TO PUBLIC;
});
	return;
}

# The schema uid_lease and a lease table in it as an administrator (a
# superuser) creates them beforehand for uid 1.2, with rights on the table
# for each of @roles; no tenure ledger.
sub admin_lease_table_sql
{
	my (@roles) = @_;
	my $roles = join(', ', @roles);
	return q{
CREATE SCHEMA uid_lease;
CREATE TABLE uid_lease.lease (
    worker_id integer PRIMARY KEY CHECK (worker_id BETWEEN 0 AND 1023),
    token bigint NOT NULL, system_identifier numeric(20,0) NOT NULL,
    timeline integer NOT NULL, host text, port integer, pid integer,
    acquired_at timestamptz NOT NULL, renewed_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL, released_at timestamptz,
    last_issued_ms bigint NOT NULL DEFAULT 0);
} . "GRANT USAGE ON SCHEMA uid_lease TO $roles;\n"
	  . "GRANT SELECT, INSERT, UPDATE ON uid_lease.lease TO $roles;\n";
}

# A started lease node (lease_node, with extra settings $conf) with the
# extension and try_next() created in database postgres.
sub started_lease_node
{
	my ($name, $conf) = @_;
	my $node = lease_node($name, conf => $conf);
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	$node->safe_psql('postgres', try_next_sql());
	return $node;
}

# poll_query_until with a bound of $seconds (for conditions that, on a
# broken build, would never hold: fail sooner than the default 180 s).
sub poll_within
{
	my ($node, $seconds, $sql, $db) = @_;
	local $PostgreSQL::Test::Utils::timeout_default = $seconds;
	return $node->poll_query_until($db // 'postgres', $sql);
}

# --- load: generators issuing IDs while the store fails over (02x) ---

# In $node: table ids (every ID issued), refusals (every failed draw) and
# draw(), which issues 20 IDs or records why it could not.
sub load_setup
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
CREATE TABLE ids (id bigint NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE refusals (at timestamptz NOT NULL DEFAULT clock_timestamp(), state text NOT NULL);
CREATE FUNCTION draw() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO ids (id) SELECT uid_next() FROM generate_series(1, 20);
EXCEPTION WHEN OTHERS THEN
	INSERT INTO refusals (state) VALUES (SQLSTATE);
	PERFORM pg_sleep(0.01);	-- a refused draw does not spin
END $$;
});
	return;
}

# pgbench in the background: $clients sessions calling draw(), 100 times a
# second in all (2000 IDs a second), until load_stop (its time limit is
# only a backstop).
sub load_start
{
	my ($node, $clients) = @_;
	my $script = $node->basedir . '/draw.sql';
	open my $fh, '>', $script or die $!;
	print $fh "SELECT draw();\n";
	close $fh;
	my ($out, $err) = ('', '');
	return IPC::Run::start(
		[ 'pgbench', '-n', '-c', $clients // 2, '-R', 100, '-T', 900, '-f', $script,
			'-h', $node->host, '-p', $node->port, 'postgres' ],
		'<', \undef, '>', \$out, '2>', \$err);
}

sub load_stop
{
	my ($h) = @_;
	$h->kill_kill(grace => 5);
	return;
}

sub issued_count
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT count(*) FROM ids');
}

sub issued_ids
{
	my ($node) = @_;
	return split /\n/, $node->safe_psql('postgres', 'SELECT id FROM ids');
}

# How many IDs were issued more than once, by one server or across them:
# each argument a node, or a reference to the list of IDs of a node that
# has been stopped.
sub duplicates_among
{
	my (@sources) = @_;
	my %seen;
	my $dupes = 0;
	for my $src (@sources)
	{
		$dupes++ for grep { $seen{$_}++ } (ref $src eq 'ARRAY' ? @$src : issued_ids($src));
	}
	return $dupes;
}

# The span of time in which $node refused uid_next() with UID02 (s), and
# how many draws it refused.
sub refusal_seconds
{
	my ($node) = @_;
	return split /\|/, $node->safe_psql('postgres', q{
SELECT round(COALESCE(extract(epoch FROM max(at) - min(at)), 0)::numeric, 1), count(*)
FROM refusals WHERE state = 'UID02'});
}

1;
