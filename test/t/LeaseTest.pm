# Helpers shared by the lease TAP tests (test/t/02x_*.pl).
package LeaseTest;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Test::More;
use Exporter 'import';
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Utils;

our @EXPORT = qw(lease_node wait_held try_next_sql uid_epoch_ms kill9_and_start);

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
sub lease_node
{
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%{ $opts{init} // {} });
	$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'uid'
uid.worker_id = 'lease'
uid.lease_ttl = '5s'
uid.lease_renew_interval = '100ms'
uid.lease_safety_margin = '2s'
uid.lease_max_clock_skew = '500ms'
} . ($opts{conf} // ''));
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

1;
