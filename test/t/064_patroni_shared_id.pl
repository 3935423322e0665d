# Patroni (Debian 12's patroni and etcd) with uid configured the way
# Patroni's users usually do it: shared_preload_libraries and one static
# uid.worker_id in bootstrap.dcs, so every member has the same worker id.
# The leader's last acknowledged transactions are lost in a failover (its
# WAL senders frozen with SIGSTOP, then every process of the member killed),
# and the new leader's clock is 10 s behind the old one's (its postmaster
# runs under libfaketime).  No ID a client was given by the old leader is
# issued again by the new one.
#
# The members' binaries are this run's private install.  The scenario runs
# with PostgreSQL 15 only, the version Debian 12 packages next to its
# Patroni; what it relies on is the same on every version, and TAP 063
# tests it on each.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Path qw(make_path);
use PostgreSQL::Test::Utils;
use Test::More;
use StoreCluster;
use UidTap;

if (my $m = StoreCluster::missing())
{
	plan skip_all => "$m is not installed (test/deps.sh installs it)"
	  unless $ENV{CI};
	die "$m is not installed";
}
my $bindir = $ENV{UID_BINDIR} or die 'UID_BINDIR is not set (run through test/run.sh)';
my ($major) = `$bindir/postgres --version` =~ /(\d+)/;
plan skip_all => "the Patroni scenario runs with PostgreSQL 15; this is $major (TAP 063 covers it)"
  unless $major == 15;

my $dir = PostgreSQL::Test::Utils::tempdir('patroni');

# The second member's binaries: every one is this run's, but postgres itself
# starts under libfaketime with its clock 10 s behind.  Patroni starts the
# postmaster from bin_dir directly.
my $clock = "$dir/p2.clock";
set_clock($clock, '-10');
my $slow = "$dir/slowbin";
make_path($slow);
opendir my $dh, $bindir or die "no $bindir: $!";
for my $f (grep { !/^\./ } readdir $dh)
{
	next if $f eq 'postgres';
	symlink "$bindir/$f", "$slow/$f" or die "symlink $f: $!";
}
closedir $dh;
open my $fh, '>', "$slow/postgres" or die $!;
print $fh <<"SH";
#!/bin/sh
LD_PRELOAD=$UidTap::LIBFAKETIME FAKETIME_TIMESTAMP_FILE=$clock FAKETIME_NO_CACHE=1 \\
FAKETIME_DONT_FAKE_MONOTONIC=1 exec $bindir/postgres "\$@"
SH
close $fh;
chmod 0755, "$slow/postgres";

my %uid = (shared_preload_libraries => 'uid', 'uid.worker_id' => '5');
my $c = StoreCluster->new($dir);
# a test that dies half way still stops etcd, Patroni and its servers
END
{
	local $?;
	$c->stop if $c;
}
$c->add_member('p1', bin_dir => $bindir, parameters => \%uid, log => 1);
is($c->wait_leader, 'p1', 'the first member leads');
$c->add_member('p2', bin_dir => $slow, parameters => \%uid, log => 1);
$c->poll(sub { ($c->try_psql('p2', 'SELECT pg_is_in_recovery()'))[1] eq 't' },
	'the second member did not start as a replica');
$c->wait_streaming(1);

$c->psql('p1', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), n int);
	INSERT INTO t (n) SELECT g FROM generate_series(1, 100) g;
});
is($c->psql('p2', 'SHOW uid.worker_id'), '5', 'both members have worker id 5 from bootstrap.dcs');

$c->poll(sub { $c->member_log('p2') =~ /this standby and its primary both use uid\.worker_id = 5/ },
	'the replica did not warn about the shared worker id');
ok(1, 'the replica warns that it shares its static worker id with the leader');

# The leader goes on acknowledging what never reaches the replica.
$c->pause_walsenders('p1');
$c->psql('p1', 'INSERT INTO t (n) SELECT g FROM generate_series(1001, 1100) g') for 1 .. 3;
my @lost = split /\n/, $c->psql('p1', 'SELECT id FROM t WHERE n > 1000');
is(scalar(@lost), 300, 'the leader acknowledged 300 rows after its WAL senders froze');
my ($lost_max) = sort { $b <=> $a } @lost;

$c->kill_member('p1');
is($c->wait_leader('p1'), 'p2', 'Patroni fails over to the replica');
is($c->psql('p2', 'SELECT count(*) FROM t'), '100', 'the lost rows are not on the new leader');

# An application retrying its insert until the new leader issues.
$c->poll(sub { ($c->try_psql('p2',
	'INSERT INTO t (n) SELECT g FROM generate_series(2001, 2300) g'))[0] },
	'the new leader never issued');
my %lost = map { $_ => 1 } @lost;
my @new = split /\n/, $c->psql('p2', 'SELECT id FROM t WHERE n > 2000');
is(scalar(@new), 300, '300 rows inserted on the new leader');
is(scalar(grep { $lost{$_} } @new), 0, 'none of them has the ID of a lost row');
is(scalar(grep { $_ <= $lost_max } @new), 0,
	'every new ID is above every ID the old leader acknowledged');
like($c->member_log('p2'), qr/promoted with the static worker id 5 that the old primary also used/,
	'the new leader logged the floor it started above');

done_testing();
