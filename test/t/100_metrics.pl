# Monitoring end to end, set up as docs/operations.md says: Debian's
# postgres_exporter runs as its service does, as the OS user prometheus,
# connects over the Unix socket as the role prometheus (a member of
# pg_monitor and nothing else) with Debian's default peer authentication and
# no password, and reads monitoring/uid-queries.yml from --extend.query-path.
# It scrapes a server with uid after IDs were generated, a backward clock step
# was waited out and a larger one refused (libfaketime); every uid metric it
# serves on /metrics equals what uid_stats and uid_lease_status() say, and
# its own collectors run without an error.  The exporter listens on 127.0.0.1
# on a free port and is stopped at the end.
#
# The test runs as postgres, which test/deps.sh lets run one root-owned
# script as prometheus, /usr/local/lib/uid-test/exporter (test/exporter.sh),
# through sudo without SETENV: the script checks its arguments (the socket
# directory, two ports, whether to leave out the bgwriter collector) and
# starts the exporter with an environment of its own, the queries read from
# its standard input.  Nothing else: the test first checks, as postgres,
# that sudo refuses the exporter itself, any other command as prometheus,
# an environment passed or kept (LD_PRELOAD would run the caller's code as
# prometheus, which reads /etc/default/prometheus-postgres-exporter and its
# DATA_SOURCE_NAME), that the script refuses arguments that would make the
# exporter read a file of the caller's naming, that no environment reaches
# it, and that the sudoers rule of earlier versions (SETENV) is gone.
use strict;
use warnings;

use File::Basename qw(dirname);
use File::Temp;
use HTTP::Tiny;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(__FILE__);
use UidTap;

my $exporter = '/usr/bin/prometheus-postgres-exporter';
plan skip_all => "$exporter is not installed (Debian package prometheus-postgres-exporter)"
  unless -x $exporter;
plan skip_all => "libfaketime is not installed" unless -e $UidTap::LIBFAKETIME;
# as Debian's unit does: User=prometheus, through the one script test/deps.sh
# lets postgres run as prometheus
my $launcher = '/usr/local/lib/uid-test/exporter';
my @sudo = ('sudo', '-n', '-u', 'prometheus');

# Runs a command with no input; returns its exit status, stderr and stdout.
sub run_status
{
	my ($env, @cmd) = @_;
	my ($out, $err) = ('', '');
	local %ENV = (%ENV, %$env);
	IPC::Run::run(\@cmd, '<', \'', '>', \$out, '2>', \$err);
	return ($? >> 8, $err, $out);
}

# the script without arguments: sudo runs it, and it refuses (usage, 2)
my ($probe) = run_status({}, @sudo, $launcher);
if ($probe != 2)
{
	my $why = "this user may not run $launcher as prometheus (sudo; test/deps.sh sets it up)";
	die $why if $ENV{UID_REQUIRE_ENGINES};
	plan skip_all => $why;
}

# What the postgres OS user may do as prometheus: run the script, nothing else
ok(!-e '/etc/sudoers.d/uid-test-exporter',
	'the sudoers rule of earlier versions (the exporter with SETENV) is gone');
my $preload = $UidTap::LIBFAKETIME;
my $secret = '/etc/default/prometheus-postgres-exporter';
for my $refused (
	[ 'the exporter itself', {}, [ @sudo, $exporter, '--version' ] ],
	[ 'the exporter through env', {}, [ @sudo, 'env', "LD_PRELOAD=$preload", $exporter, '--version' ] ],
	[ 'another command', {}, [ @sudo, 'cat', $secret ] ],
	[ 'LD_PRELOAD set on the command line', {}, [ @sudo, "LD_PRELOAD=$preload", $launcher ] ],
	[ 'the environment kept (-E)', {}, [ 'sudo', '-n', '-E', '-u', 'prometheus', $launcher ] ],
	[ "an exporter's setting kept (--preserve-env)",
		{ PG_EXPORTER_EXTEND_QUERY_PATH => $secret },
		[ 'sudo', '-n', '--preserve-env=PG_EXPORTER_EXTEND_QUERY_PATH', '-u', 'prometheus', $launcher ] ])
{
	my ($what, $env, $cmd) = @$refused;
	my ($status, $err) = run_status($env, @$cmd);
	ok($status == 1 && $err =~ /^sudo: /m, "sudo refuses $what as prometheus")
	  or diag("exit status $status: $err");
}
my (undef, undef, $listed_out) = run_status({}, 'sudo', '-n', '-l');
like($listed_out, qr{\(prometheus\) NOPASSWD: \Q$launcher\E$}m, 'sudo -l lists the script as prometheus');
my ($commands) = $listed_out =~ /may run the following commands[^\n]*\n(.*)/s;
is(scalar(grep { /\S/ } split /\n/, $commands // ''), 1, 'and nothing else')
  or diag($listed_out);
unlike($listed_out, qr/(?<!NO)SETENV|env_keep|!env_reset/,
	'and no SETENV, env_keep or !env_reset applies to this user')
  or diag($listed_out);
for my $bad (
	[ 'a file to read', '--extend.query-path=/etc/default/prometheus-postgres-exporter', '5432', '9187' ],
	[ 'a connection keyword', '/tmp sslrootcert=/etc/default/prometheus-postgres-exporter', '5432', '9187' ],
	[ 'a relative socket directory', 'tmp', '5432', '9187' ],
	[ 'a port that is not a number', '/tmp', '5432 host=/etc', '9187' ],
	[ 'a privileged listen port', '/tmp', '5432', '80' ],
	[ 'a flag of its own', '/tmp', '5432', '9187', '--extend.query-path=/etc/default/prometheus-postgres-exporter' ],
	[ 'a fifth argument', '/tmp', '5432', '9187', 'no-bgwriter', '--web.config.file=/etc/shadow' ])
{
	my ($what, @args) = @$bad;
	my ($status, $err) = run_status({}, @sudo, $launcher, @args);
	ok($status == 2 && $err =~ /usage:/, "the script refuses $what")
	  or diag("exit status $status: $err");
}
# the caller's LD_PRELOAD does not reach the script, kept or not (sudo drops
# it; ld.so would say that it cannot preload a file that does not exist)
for my $keep ([], ['--preserve-env=LD_PRELOAD'])
{
	my ($status, $err) = run_status({ LD_PRELOAD => '/nonexistent/uid-test.so' },
		'sudo', '-n', @$keep, '-u', 'prometheus', $launcher);
	ok($status == 2 && $err =~ /usage:/ && $err !~ /ld\.so|LD_PRELOAD/,
		"the caller's LD_PRELOAD does not reach the script (" . (@$keep ? "@$keep" : 'not kept') . ')')
	  or diag("exit status $status: $err");
}

my $queries = dirname(__FILE__) . '/../../monitoring/uid-queries.yml';
ok(-r $queries, 'monitoring/uid-queries.yml is there');

my $node = uid_node(
	'metrics',
	'uid.worker_id'         => 5,
	'uid.clock_max_wait_ms' => 5000);
# Debian's default authentication: peer on the Unix socket, nothing else
# without a password; and a socket directory the prometheus user can reach,
# as /var/run/postgresql is
open my $hba, '>', $node->data_dir . '/pg_hba.conf' or die $!;
print $hba "local all postgres peer\nlocal all all peer\n";
close $hba or die $!;
my $sockdir = File::Temp::tempdir('uid_metrics_XXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0755, $sockdir or die "chmod $sockdir: $!";
$node->append_conf('postgresql.conf',
	"unix_socket_directories = '" . $node->host . ", $sockdir'\n");
my $clock = $node->basedir . '/faketime.rc';
set_clock($clock, '+0');
faketime_start($node, $clock);

$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE ROLE prometheus LOGIN;
	GRANT pg_monitor TO prometheus;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), u uuid DEFAULT uuid7());
	INSERT INTO t SELECT FROM generate_series(1, 1000);
	SELECT count(*) FROM uid_next_batch(10);
});
is( $node->safe_psql('postgres',
		q{SELECT rolsuper OR rolcreaterole OR rolcreatedb FROM pg_roles WHERE rolname = 'prometheus'}),
	'f',
	'the exporter role has no privilege beyond pg_monitor');

# a backward step of 2 s: waited out (uid.clock_max_wait_ms is 5 s)
set_clock($clock, '-2');
$node->safe_psql('postgres', 'INSERT INTO t DEFAULT VALUES');
# a backward step of 60 s: refused
set_clock($clock, '-60');
my ($state) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID01', 'a 60 s backward step is refused with UID01');
set_clock($clock, '+0');
$node->poll_query_until('postgres', 'SELECT uid_next() > 0')
  or die 'uid_next() did not recover after the clock came back';
my ($waits, $refusals) = split /\|/,
  $node->safe_psql('postgres', 'SELECT clock_waits, clock_refusals FROM uid_stats');
cmp_ok($waits,    '>=', 1, 'uid_stats counted the clock wait');
cmp_ok($refusals, '>=', 1, 'uid_stats counted the refusal');

# the exporter as /etc/default/prometheus-postgres-exporter sets it up in
# the docs: the DSN of the docs (test/exporter.sh puts this server's socket
# directory and port in it), ARGS with --extend.query-path (the script's
# private copy of monitoring/uid-queries.yml, given on its standard input);
# only the listen address and the log level are the test's, and on 17 and
# later --no-collector.bgwriter, as the docs say
my $port = PostgreSQL::Test::Cluster::get_free_port();
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});
my ($out, $err) = ('', '');
my $h = IPC::Run::start(
	[
		@sudo, $launcher, $sockdir, $node->port, $port,
		($major >= 17 ? ('no-bgwriter') : ())
	],
	'<', $queries, '>', \$out, '2>', \$err);
# a test that dies still stops the exporter (sudo passes the signal on)
END { eval { $h->signal('TERM'); $h->finish } if $h && $h->pumpable; }

# Scrapes /metrics until the uid metrics are there (bounded); returns
# { "name{labels}" => value }.
sub scrape
{
	my $http = HTTP::Tiny->new(timeout => 10);
	for (1 .. 300)
	{
		my $r = $http->get("http://127.0.0.1:$port/metrics");
		if ($r->{success} && $r->{content} =~ /^uid_ids_issued_total/m)
		{
			my %m;
			for (split /\n/, $r->{content})
			{
				next if /^#/;
				my ($name, $value) = /^(\S+)\s+(\S+)$/ or next;
				$m{$name} = $value;
			}
			return \%m;
		}
		# connected, but not to the server: the exporter says why (a role that
		# peer authentication does not let in: "Peer authentication failed")
		if ($r->{success} && $r->{content} =~ /^pg_up 0/m)
		{
			$h->pump_nb;
			die "pg_up 0: the exporter could not connect; it said: $err";
		}
		die "the exporter exited: $err" unless $h->pumpable;
		select(undef, undef, undef, 0.1);
	}
	die "no uid metrics on /metrics; exporter said: $err";
}

my $m = scrape();
my %stats;
my @cols = qw(worker_id ids_issued uuids_issued batch_calls clock_waits clock_refusals
  clock_steps max_clock_step_ms overflow_waits reserve_writes);
@stats{@cols} = split /\|/, $node->safe_psql('postgres',
	'SELECT ' . join(', ', @cols) . ' FROM uid_stats');

# the label set of a metric name (the exporter adds "server")
sub metric
{
	my ($name, %want) = @_;
	my @hits;
	for my $k (keys %$m)
	{
		my ($n, $labels) = $k =~ /^([^{]+)(?:\{(.*)\})?$/ or next;
		next unless $n eq $name;
		my %l = ($labels // '') =~ /(\w+)="([^"]*)"/g;
		next if grep { ($l{$_} // '') ne $want{$_} } keys %want;
		push @hits, $m->{$k};
	}
	die "no series ${name}\{" . join(',', %want) . "} on /metrics" unless @hits;
	die "more than one series ${name}\{" . join(',', %want) . "}" if @hits > 1;
	return $hits[0];
}

for my $c (qw(ids_issued uuids_issued batch_calls clock_waits clock_refusals clock_steps
	overflow_waits reserve_writes))
{
	is(metric("uid_${c}_total") + 0, $stats{$c} + 0, "uid_${c}_total is uid_stats.$c ($stats{$c})");
}
is(metric('uid_worker_id') + 0, 5, 'uid_worker_id is uid.worker_id');
cmp_ok(metric('uid_ids_issued_total'), '>=', 1012, 'uid_ids_issued_total counts every ID generated');
cmp_ok(metric('uid_clock_waits_total'), '>=', 1, 'uid_clock_waits_total saw the wait');
cmp_ok(metric('uid_clock_refusals_total'), '>=', 1, 'uid_clock_refusals_total saw the refusal');
is(metric('uid_clock_max_step_seconds') + 0, $stats{max_clock_step_ms} / 1000,
	'uid_clock_max_step_seconds is uid_stats.max_clock_step_ms in seconds');
cmp_ok(metric('uid_clock_max_step_seconds'), '>', 5, 'and it is the refused step (60 s less the time since the last ID), not the waited one');

my ($last, $reset, $left) = split /\|/, $node->safe_psql('postgres', q{
	SELECT extract(epoch FROM last_issued_at), extract(epoch FROM stats_reset),
	       extract(epoch FROM layout_ends_at) FROM uid_stats});
is(metric('uid_last_issued_timestamp_seconds') + 0, $last + 0,
	'uid_last_issued_timestamp_seconds is uid_stats.last_issued_at');
is(metric('uid_stats_reset_timestamp_seconds') + 0, $reset + 0,
	'uid_stats_reset_timestamp_seconds is uid_stats.stats_reset');
# layout_ends_at is fixed: the scrape's "seconds left" plus the scrape's time
# is it, whatever the time of the scrape (the server clock is the real one now)
my $end_seen = metric('uid_layout_seconds_left') + time();
cmp_ok(abs($end_seen - $left), '<', 3600,
	'uid_layout_seconds_left counts down to uid_stats.layout_ends_at');

# the lease: a static worker id
is(metric('uid_lease_state_current', mode => 'static', state => 'static') + 0, 1,
	'uid_lease_state_current{state="static"} is 1 with a static worker id');
is(metric('uid_lease_state_current', mode => 'static', state => 'held') + 0, 0,
	'uid_lease_state_current{state="held"} is 0');
my $states = grep { /^uid_lease_state_current\{/ } keys %$m;
is($states, 14, 'one uid_lease_state_current series per lease state');
is(metric('uid_lease_consecutive_failures', mode => 'static') + 0, 0,
	'uid_lease_consecutive_failures is 0');
my ($pool, $renewals) = split /\|/, $node->safe_psql('postgres',
	q{SELECT current_setting('uid.lease_pool_size'), renewals FROM uid_lease_status()});
is(metric('uid_lease_pool_ids') + 0, $pool + 0, 'uid_lease_pool_ids is uid.lease_pool_size');
is(metric('uid_lease_renewals_total') + 0, $renewals + 0,
	'uid_lease_renewals_total is uid_lease_status().renewals');

# after more IDs, a second scrape follows
$node->safe_psql('postgres', 'INSERT INTO t SELECT FROM generate_series(1, 500)');
my $before = metric('uid_ids_issued_total');
my $ids = $node->safe_psql('postgres', 'SELECT ids_issued FROM uid_stats');
for (1 .. 300)
{
	$m = scrape();
	last if metric('uid_ids_issued_total') == $ids;
	select(undef, undef, undef, 0.1);
}
is(metric('uid_ids_issued_total') + 0, $ids + 0,
	"a later scrape has the 500 new IDs ($before -> $ids)");

is(metric('pg_up') + 0, 1, 'pg_up is 1: the exporter connected as prometheus without a password');
$h->pump_nb;
unlike($err, qr/level=error/, 'the exporter ran every query without an error')
  or diag($err);

$h->signal('TERM');
$h->finish;
$node->stop;
done_testing();
