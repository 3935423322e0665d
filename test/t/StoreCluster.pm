# A highly available lease store for the TAP tests, made of the engines users
# run (Debian 12's packages): etcd (one member), Patroni managing Debian's
# PostgreSQL 15 members, and pgbouncer in front of a store.  Everything
# listens on 127.0.0.1 only and runs as the OS user running the tests.
#
#   my $c = StoreCluster->new($dir);     etcd started
#   $c->add_member('s1'); $c->add_member('s2');
#   $c->add_member('m1', bin_dir => $dir, parameters => { ... }, log => 1)
#                                        other binaries, more PostgreSQL
#                                        parameters (in bootstrap.dcs, as
#                                        Patroni's users set them), a server
#                                        log in $dir/m1/pglog (member_log)
#   $c->wait_leader; $c->wait_streaming(1);
#   $c->conninfo(user => 'r')            every member, target_session_attrs
#   $c->psql($member, $sql)              as the store's superuser
#   $c->kill_member($member)             SIGKILL of Patroni and PostgreSQL
#   $c->pause_walsenders / resume_walsenders
#   $c->stop                             everything
#   StoreCluster::pgbouncer($dir, $port_of_store, $mode, $pool_size, {setting => value})
#
# Patroni's ttl is 20 s (its minimum), loop_wait 1 s, retry_timeout 5 s: a
# leader that dies is replaced within about 20 s.
package StoreCluster;

use strict;
use warnings;

use File::Path qw(make_path);
use HTTP::Tiny;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(usleep);
use UidCluster;

our $PG_BIN = '/usr/lib/postgresql/15/bin';

# Which engines are missing, or undef: a test skips itself only outside CI
# (CI installs them all: test/deps.sh).
sub missing
{
	for my $bin ('/usr/bin/etcd', '/usr/bin/patroni', '/usr/sbin/pgbouncer', "$PG_BIN/postgres")
	{
		return $bin unless -x $bin;
	}
	return undef;
}

sub free_port { return PostgreSQL::Test::Cluster::get_free_port(); }

sub new
{
	my ($class, $dir) = @_;
	my $self = bless { dir => $dir, members => {}, order => [] }, $class;
	make_path("$dir/etcd");
	$self->{etcd_port} = free_port();
	my $peer = free_port();
	my @cmd = (
		'/usr/bin/etcd', '--name', 'e1', '--data-dir', "$dir/etcd/data",
		'--listen-client-urls', "http://127.0.0.1:$self->{etcd_port}",
		'--advertise-client-urls', "http://127.0.0.1:$self->{etcd_port}",
		'--listen-peer-urls', "http://127.0.0.1:$peer",
		'--initial-advertise-peer-urls', "http://127.0.0.1:$peer",
		'--initial-cluster', "e1=http://127.0.0.1:$peer",
		'--enable-v2=true');
	$self->{etcd} = IPC::Run::start(\@cmd, '<', \undef, '>', "$dir/etcd/log", '2>&1');
	$self->poll(sub { HTTP::Tiny->new(timeout => 2)->get("http://127.0.0.1:$self->{etcd_port}/health")->{success} },
		'etcd did not start');
	return $self;
}

# Polls $cond (a sub) every 100 ms, for at most the TAP timeout; dies with
# $what if it never holds.
sub poll
{
	my ($self, $cond, $what) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline)
	{
		return 1 if $cond->();
		usleep(100_000);
	}
	die "$what (see the logs under $self->{dir})";
}

# A Patroni member running PostgreSQL 15 on its own port.
sub add_member
{
	my ($self, $name, %opts) = @_;
	my $dir = "$self->{dir}/$name";
	make_path($dir);
	chmod 0700, $dir;
	my $m = { name => $name, dir => $dir, port => free_port(), api => free_port(),
		bin => $opts{bin_dir} // $PG_BIN };
	my $sync = $opts{synchronous} ? 'true' : 'false';
	my $bin = $m->{bin};
	my %params = %{ $opts{parameters} // {} };
	my $extra = join '', map { "        $_: '$params{$_}'\n" } sort keys %params;
	# the member's own log: in its own parameters, not the shared ones
	my $log = $opts{log}
	  ? "    logging_collector: 'on'\n    log_directory: '$dir/pglog'\n    log_filename: 'postgresql.log'\n"
	  : '';
	open my $fh, '>', "$dir/patroni.yml" or die $!;
	print $fh <<"YML";
scope: uidstore
name: $name
restapi:
  listen: 127.0.0.1:$m->{api}
  connect_address: 127.0.0.1:$m->{api}
etcd3:
  hosts: 127.0.0.1:$self->{etcd_port}
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: $sync
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
        # a standby never gives up on a frozen WAL sender (the tests freeze
        # them on purpose) to connect again to a fresh one
        wal_receiver_timeout: 0
$extra  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$m->{port}
  connect_address: 127.0.0.1:$m->{port}
  data_dir: $dir/data
  bin_dir: $bin
  pgpass: $dir/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
  parameters:
    unix_socket_directories: '$dir'
    log_min_messages: warning
${log}tags:
  nofailover: false
YML
	close $fh;
	$self->{members}{$name} = $m;
	push @{ $self->{order} }, $name;
	$self->start_member($name);
	return $m;
}

sub start_member
{
	my ($self, $name) = @_;
	my $m = $self->{members}{$name};
	$m->{patroni} = IPC::Run::start([ '/usr/bin/patroni', "$m->{dir}/patroni.yml" ],
		'<', \undef, '>>', "$m->{dir}/patroni.log", '2>&1');
	return;
}

sub api_get
{
	my ($self, $name, $path) = @_;
	my $m = $self->{members}{$name};
	return HTTP::Tiny->new(timeout => 2)->get("http://127.0.0.1:$m->{api}$path");
}

# The member that is the leader now (Patroni's REST API), or undef.
sub leader
{
	my ($self) = @_;
	for my $name (@{ $self->{order} })
	{
		next if $self->{members}{$name}{dead};
		my $r = $self->api_get($name, '/primary');
		return $name if $r->{status} == 200;
	}
	return undef;
}

# Waits until one member leads (not $not, if given) and accepts writes.
sub wait_leader
{
	my ($self, $not) = @_;
	my $leader;
	$self->poll(
		sub {
			$leader = $self->leader;
			return 0 unless defined $leader && (!defined $not || $leader ne $not);
			my ($ok, $out) = $self->try_psql($leader, 'SELECT pg_is_in_recovery()');
			return $ok && $out eq 'f';
		},
		'no store leader');
	return $leader;
}

# Waits until the leader has $n standbys streaming (and, with $sync, one
# of them synchronous).
sub wait_streaming
{
	my ($self, $n, $sync) = @_;
	my $cond = $sync ? " AND sync_state = 'sync'" : '';
	$self->poll(
		sub {
			my $l = $self->leader // return 0;
			my ($ok, $out) = $self->try_psql($l,
				"SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'$cond");
			return $ok && $out >= $n;
		},
		"the store has not $n standbys streaming");
	return;
}

sub try_psql
{
	my ($self, $name, $sql) = @_;
	my $m = $self->{members}{$name};
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ "$PG_BIN/psql", '-XAtq', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', $m->{port},
			'-U', 'postgres', '-d', 'postgres', '-c', $sql ],
		'<', \undef, '>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	chomp $out;
	return ($ok, $out, $err);
}

sub psql
{
	my ($self, $name, $sql) = @_;
	my ($ok, $out, $err) = $self->try_psql($name, $sql);
	die "store member $name: $sql: $err" unless $ok;
	return $out;
}

# The connection string that follows the primary: every member, read-write.
sub conninfo
{
	my ($self, %extra) = @_;
	my @m = map { $self->{members}{$_} } @{ $self->{order} };
	my $user = delete $extra{user} // 'postgres';
	my $s = 'host=' . join(',', map { '127.0.0.1' } @m)
	  . ' port=' . join(',', map { $_->{port} } @m)
	  . " dbname=postgres user=$user target_session_attrs=read-write connect_timeout=2";
	$s .= " $_=$extra{$_}" for sort keys %extra;
	return $s;
}

sub member_port { my ($self, $name) = @_; return $self->{members}{$name}{port}; }

# The server log of a member added with log => 1 ('' while there is none).
sub member_log
{
	my ($self, $name) = @_;
	open my $fh, '<', "$self->{members}{$name}{dir}/pglog/postgresql.log" or return '';
	local $/;
	my $text = <$fh>;
	close $fh;
	return $text;
}

sub postmaster_pid
{
	my ($self, $name) = @_;
	my $f = "$self->{members}{$name}{dir}/data/postmaster.pid";
	open my $fh, '<', $f or return undef;
	my $pid = <$fh>;
	close $fh;
	chomp $pid;
	return $pid;
}

# The store member's machine dies: SIGKILL of Patroni, of the postmaster and
# of every PostgreSQL process, at once.
sub kill_member
{
	my ($self, $name) = @_;
	my $m = $self->{members}{$name};
	my $pm = $self->postmaster_pid($name);
	my @procs = ($m->{patroni}{KIDS}[0]{PID} // ());
	push @procs, $pm, UidCluster::children_of($pm) if $pm;
	kill 'KILL', @procs;
	$m->{patroni}->kill_kill(grace => 0);
	$m->{dead} = 1;
	$self->poll(sub { !grep { -e "/proc/$_" && !zombie($_) } @procs }, "member $name did not die");
	return;
}

sub zombie
{
	my ($pid) = @_;
	open my $st, '<', "/proc/$pid/stat" or return 1;
	my ($state) = (<$st> // '') =~ /\)\s+(\S)/;
	close $st;
	return defined $state && $state eq 'Z';
}

# A member that died comes back (as a replica of the leader, pg_rewind if needed).
sub revive_member
{
	my ($self, $name) = @_;
	delete $self->{members}{$name}{dead};
	$self->start_member($name);
	return;
}

# The WAL senders of member $name, frozen with SIGSTOP: what the leader
# commits from now on stays on the leader, as when a standby falls behind.
sub pause_walsenders
{
	my ($self, $name) = @_;
	my @pids = split /\n/, $self->psql($name, 'SELECT pid FROM pg_stat_replication');
	die "no WAL sender on $name" unless @pids;
	kill 'STOP', @pids;
	$self->{paused} = \@pids;
	return @pids;
}

sub resume_walsenders
{
	my ($self) = @_;
	kill 'CONT', @{ $self->{paused} // [] };
	delete $self->{paused};
	return;
}

# Changes Patroni's dynamic configuration (JSON text) through the leader's REST API.
sub patch_config
{
	my ($self, $json) = @_;
	my $l = $self->leader // die 'no leader';
	my $m = $self->{members}{$l};
	my $r = HTTP::Tiny->new(timeout => 5)->request('PATCH', "http://127.0.0.1:$m->{api}/config",
		{ content => $json, headers => { 'Content-Type' => 'application/json' } });
	die "PATCH /config: $r->{status} $r->{content}" unless $r->{success};
	return;
}

sub stop
{
	my ($self) = @_;
	$self->resume_walsenders;
	for my $name (@{ $self->{order} })
	{
		my $m = $self->{members}{$name};
		next unless $m->{patroni};
		$m->{patroni}->signal('TERM') unless $m->{dead};
	}
	for my $name (@{ $self->{order} })
	{
		my $m = $self->{members}{$name};
		next unless $m->{patroni};
		eval { $m->{patroni}->finish; 1 } or $m->{patroni}->kill_kill;
		my $pm = $self->postmaster_pid($name);
		system("$m->{bin}/pg_ctl", '-D', "$m->{dir}/data", '-m', 'immediate', 'stop')
		  if $pm && -e "/proc/$pm";
	}
	if ($self->{etcd})
	{
		$self->{etcd}->signal('TERM');
		eval { $self->{etcd}->finish; 1 } or $self->{etcd}->kill_kill;
	}
	return;
}

# pgbouncer in front of the store at 127.0.0.1:$store_port, pool mode
# $mode, $pool_size (default 1) server connections, and %$settings for
# pgbouncer.ini on top (max_client_conn, server_lifetime); returns
# (harness, port).
sub pgbouncer
{
	my ($dir, $store_port, $mode, $pool_size, $settings) = @_;
	$pool_size //= 1;
	my %ini = (max_client_conn => 50, %{ $settings // {} });
	my $more = join('', map { "$_ = $ini{$_}\n" } sort keys %ini);
	make_path($dir);
	my $port = free_port();
	open my $fh, '>', "$dir/pgbouncer.ini" or die $!;
	print $fh <<"INI";
[databases]
postgres = host=127.0.0.1 port=$store_port dbname=postgres
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
pool_mode = $mode
default_pool_size = $pool_size
${more}logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
ignore_startup_parameters = extra_float_digits
INI
	close $fh;
	open $fh, '>', "$dir/users.txt" or die $!;
	print $fh qq{"postgres" ""\n};
	close $fh;
	my $h = IPC::Run::start([ '/usr/sbin/pgbouncer', "$dir/pgbouncer.ini" ],
		'<', \undef, '>>', "$dir/stdout.log", '2>&1');
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	while (time < $deadline)
	{
		last if IPC::Run::run([ "$PG_BIN/psql", '-XAtq', '-h', '127.0.0.1', '-p', $port,
			'-U', 'postgres', '-d', 'postgres', '-c', 'SELECT 1' ], '>', \my $o, '2>', \my $e);
		usleep(100_000);
	}
	return ($h, $port);
}

1;
