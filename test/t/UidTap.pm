# Helpers shared by the Perl TAP tests of uid (test/t/*.pl).
#
#   uid_node($name, %conf)        a new, initialised node that preloads uid,
#                                 with the settings %conf (and, under the
#                                 keys new and init, hashes of parameters
#                                 for PostgreSQL::Test::Cluster's new and
#                                 init)
#   sqlstate_of($node, $sql)      (sqlstate, stderr) of a failing statement
#   faketime_start($node, $file)  start a node under libfaketime, whose clock
#                                 offset is read from $file on every call
#   set_clock($file, $spec)       step that clock at run time ("+0", "-30",
#                                 "-0.02", or an absolute, frozen
#                                 "YYYY-MM-DD hh:mm:ss")
#   read_hwm($node)               the uid.hwm record: (ms, clean, uuid7 ms,
#                                 version)
#   write_hwm_v1($node, $ms, $clean)  write the record of uid 1.0 and 1.1
#   kill9_all($node)              SIGKILL the postmaster and all its children
#   logical_writer($name, %conf)  a started uid_node for logical replication
#                                 (wal_level logical, senders and slots),
#                                 with uid and table t (id bigint PRIMARY
#                                 KEY DEFAULT uid_next(), node text)
#   conninfo($node)               a libpq connection string of its postgres
#   insert_on_all(\@nodes, \%worker_of, $per_node, $clients)
#                                 on every node at once, pgbench inserts
#                                 $per_node rows into t (id DEFAULT
#                                 uid_next(), node); then checks that every
#                                 node holds every row of all of them, each
#                                 ID once and with its node's worker id
#                                 (%worker_of: node name => worker id)
package UidTap;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use IPC::Run;
use File::Basename ();
use File::Spec;
use UidCluster;

our @EXPORT = qw(uid_node sqlstate_of faketime_start set_clock faketime_node clock_file freeze_clock read_hwm logical_writer conninfo insert_on_all freeze_all
  offset_to id_unix_ms nothing_at_or_below hostile_mark_sql
  write_hwm_v1 kill9_all uid_epoch_ms on_path hibernate_jars missing_jvm_php_perl_clients skip_unless_installed
  run_client managed_build install_managed);

our $LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

# Whether a program is on the PATH.
sub on_path
{
	my ($prog) = @_;
	return grep { -x "$_/$prog" } split /:/, $ENV{PATH} // '';
}

# The jars of Hibernate 3.6 and PgJDBC from Debian's packages
# (test/clients/hibernate).
sub hibernate_jars
{
	return map { "/usr/share/java/$_.jar" } qw(
	  hibernate-core hibernate-commons-annotations geronimo-jpa_2.0_spec
	  geronimo-jta-1.2-spec antlr commons-collections3 dom4j javassist
	  slf4j-api slf4j-nop postgresql);
}

# What the client tests (120, 121) need of Java with Hibernate, PHP PDO and
# DBD::Pg and cannot find: a list of names with their Debian packages.
sub missing_jvm_php_perl_clients
{
	my @missing;
	push @missing, 'javac and java (default-jdk-headless)'
	  unless on_path('javac') && on_path('java');
	if (my @absent = grep { !-r } hibernate_jars())
	{
		push @missing, 'the jars ' . join(' ', map { s{.*/}{}r } @absent)
		  . ' (libhibernate3-java, libjavassist-java, libslf4j-java, libpostgresql-jdbc-java)';
	}
	if (!on_path('php'))
	{
		push @missing, 'php (php-cli)';
	}
	elsif (system('php', '-r', 'exit(in_array("pgsql", PDO::getAvailableDrivers()) ? 0 : 1);') != 0)
	{
		push @missing, 'pdo_pgsql (php-pgsql)';
	}
	push @missing, 'DBD::Pg (libdbd-pg-perl)'
	  unless eval { require DBI; require DBD::Pg; 1 };
	return @missing;
}

# Skips the whole test if something it needs is missing, or stops the run
# where every engine is required (UID_REQUIRE_ENGINES, as in CI).
sub skip_unless_installed
{
	my @missing = @_;
	return unless @missing;
	my $list = join ', ', @missing;
	plan skip_all => "not installed: $list (test/deps.sh installs them)"
	  unless $ENV{UID_REQUIRE_ENGINES};
	BAIL_OUT("not installed: $list");
}

# Runs a client program (TAP 121, 122): returns its stdout, or fails the
# test with its output
sub run_client
{
	my ($what, @cmd) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(\@cmd, '<', \undef, '>', \$out, '2>', \$err);
	ok($ok, "$what ran") or diag("stdout: " . substr($out, 0, 2000) . "\nstderr: " . substr($err, 0, 4000));
	return $out;
}

# 2026-01-01T00:00:00Z in ms since the Unix epoch (src/id_layout.h)
sub uid_epoch_ms { return 1767225600000; }

sub uid_node
{
	my ($name, %conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name, %{ delete $conf{new} // {} });
	$node->init(%{ delete $conf{init} // {} });
	my $lines = "shared_preload_libraries = 'uid'\n";
	$lines .= "$_ = '$conf{$_}'\n" for sort keys %conf;
	$node->append_conf('postgresql.conf', $lines);
	return $node;
}

# Runs $sql (which must fail) with VERBOSITY verbose; returns the SQLSTATE
# of the first error and the whole stderr.
sub sqlstate_of
{
	my ($node, $sql, $db) = @_;
	my ($ret, $out, $err) =
	  $node->psql($db // 'postgres', "\\set VERBOSITY verbose\n$sql");
	my ($state) = $err =~ /(?:ERROR|FATAL):\s+([0-9A-Z]{5}):/;
	return ($state // "(none: exit $ret)", $err);
}

sub set_clock
{
	my ($file, $spec) = @_;
	# write and rename, so that the server never reads a half-written file
	open my $fh, '>', "$file.tmp" or die "could not write $file.tmp: $!";
	print $fh "$spec\n";
	close $fh or die "could not close $file.tmp: $!";
	rename "$file.tmp", $file or die "could not rename to $file: $!";
	return;
}

sub faketime_start
{
	my ($node, $file, %params) = @_;
	die "libfaketime not found at $LIBFAKETIME" unless -e $LIBFAKETIME;
	set_clock($file, '+0') unless -e $file;
	local $ENV{LD_PRELOAD}                   = $LIBFAKETIME;
	local $ENV{FAKETIME_TIMESTAMP_FILE}      = $file;
	local $ENV{FAKETIME_NO_CACHE}            = '1';
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = '1';
	return $node->start(%params);
}

# The file that holds $node's libfaketime clock (faketime_node).
sub clock_file
{
	my ($node) = @_;
	return $node->basedir . '/faketime.rc';
}

# uid_node($name, %conf), started under libfaketime on the real time, with
# its clock in clock_file($node).
sub faketime_node
{
	my ($name, %conf) = @_;
	my $node = uid_node($name, %conf);
	set_clock(clock_file($node), '+0');
	faketime_start($node, clock_file($node));
	return $node;
}

# Stops the clock of a faketime_node at $time (UTC), and returns once the
# server reads it.
sub freeze_clock
{
	my ($node, $time) = @_;
	set_clock(clock_file($node), $time);
	$node->poll_query_until('postgres', "SELECT clock_timestamp() = '$time+00'")
	  or die $node->name . ' did not see its clock stop at ' . $time;
	return;
}

# The offset ("+s.sss") that makes a clock read $unix_ms now.
sub offset_to
{
	my ($unix_ms) = @_;
	return sprintf('%+.3f', ($unix_ms - Time::HiRes::time() * 1000) / 1000);
}

# The Unix ms of a uid_next() ID.
sub id_unix_ms { return ($_[0] >> 22) + uid_epoch_ms; }

# The first call on $n with its clock behind $max: returns ('behind' flag,
# the SQLSTATE or '', the ID or '', stderr).
sub first_call
{
	my ($n, $max) = @_;
	my ($ret, $out, $err) = $n->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT clock_timestamp() < uid_time(${max}::bigint), uid_next()");
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	if ($ret != 0)
	{
		# the clock premise, read in a statement of its own
		my $behind = $n->safe_psql('postgres', "SELECT clock_timestamp() < uid_time(${max}::bigint)");
		return ($behind, $state // '', '', $err);
	}
	my ($behind, $id) = split /\|/, $out;
	return ($behind, '', $id, $err);
}

# Asserts that the first call with the clock behind $max issues nothing at
# or below it.
sub nothing_at_or_below
{
	my ($n, $max, $what) = @_;
	my ($behind, $state, $id, $err) = first_call($n, $max);
	is($behind, 't', "$what: the clock is behind the largest ID returned before");
	if ($id ne '')
	{
		cmp_ok($id, '>', $max, "$what: the first ID is above every ID returned before");
	}
	else
	{
		is($state, 'UID01', "$what: the first call refuses (UID01) rather than issue below it")
		  or diag $err;
	}
	return $err;
}

# The hostile database owner's recorder (TAP 085, 086): schema app with the
# table app.hits and app.mark(what), which records who ran it and, when a
# superuser does, makes the role $role (default dbowner) a superuser.  Planted functions
# call it; an empty app.hits and a dbowner without superuser prove that none
# ran.
sub hostile_mark_sql
{
	my ($role) = @_;
	$role //= 'dbowner';
	return q{
	CREATE SCHEMA app;
	GRANT USAGE ON SCHEMA app TO PUBLIC;
	CREATE TABLE app.hits (what text, by_user name, by_superuser boolean);
	GRANT INSERT, SELECT ON app.hits TO PUBLIC;
	CREATE FUNCTION app.mark(what text) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO app.hits SELECT what, r.rolname, r.rolsuper
			FROM pg_catalog.pg_roles r WHERE r.rolname = current_user;
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE ROLE_TO_RAISE SUPERUSER';
		END IF;
	END $$;
} =~ s/ROLE_TO_RAISE/$role/r;
}

# The managed edition built by managed/build.sh into a directory of the
# test's own, once per test file: its plain script and pg_tle installer.
my $managed_dir;
sub managed_build
{
	return $managed_dir if defined $managed_dir;
	my $top = File::Basename::dirname(File::Spec->rel2abs(__FILE__)) . '/../..';
	my $dir = PostgreSQL::Test::Utils::tempdir('uid_managed');
	system('bash', "$top/managed/build.sh", $dir) == 0
	  or die 'managed/build.sh failed';
	return $managed_dir = $dir;
}

# Installs the edition's plain script into schema $schema of database $db
# as role $role (a test of its own, named $name or after the three).
sub install_managed
{
	my ($node, $db, $role, $schema, $name) = @_;
	$node->command_ok(
		[
			'psql', '-X', '-q', '-v', "schema=$schema", '-U', $role,
			'-d', $node->connstr($db), '-f', managed_build() . '/uid_managed--1.0.sql'
		],
		$name // "the plain script installs into schema $schema as $role");
	return;
}

# The 32-byte record of src/floor/hwm.c.  Version 2: magic, version, int64 ms of
# uid_next(), int64 ms of uuid7(), clean, crc; version 1 (uid 1.0, 1.1):
# magic, version, int64 ms (both generators), clean, pad, crc, pad.
# Returns (uid_next ms, clean, uuid7 ms, version).
sub read_hwm
{
	my ($node) = @_;
	my $path = $node->data_dir . '/uid.hwm';
	open my $fh, '<:raw', $path or die "could not open $path: $!";
	my $n = read($fh, my $buf, 32);
	close $fh;
	die "short uid.hwm ($n bytes)" unless $n == 32;
	my ($magic, $version) = unpack('L L', $buf);
	die sprintf('bad uid.hwm magic %x', $magic) unless $magic == 0x48444955;
	if ($version == 1)
	{
		my (undef, undef, $ms, $clean) = unpack('L L q L', $buf);
		return ($ms, $clean, $ms, 1);
	}
	die "unknown uid.hwm version $version" unless $version == 2;
	my (undef, undef, $ms, $ms_uuid7, $clean) = unpack('L L q q L', $buf);
	return ($ms, $clean, $ms_uuid7, 2);
}

# CRC-32C (Castagnoli), as PostgreSQL's pg_crc32c computes it.
sub crc32c
{
	my ($data) = @_;
	my $crc = 0xFFFFFFFF;
	for my $byte (unpack('C*', $data))
	{
		$crc ^= $byte;
		$crc = ($crc & 1) ? (($crc >> 1) ^ 0x82F63B78) : ($crc >> 1)
		  for 1 .. 8;
	}
	return $crc ^ 0xFFFFFFFF;
}

# Writes the version 1 record that uid 1.0 and 1.1 wrote: one mark of $ms
# (ms since the uid epoch) for both generators.
sub write_hwm_v1
{
	my ($node, $ms, $clean) = @_;
	my $head = pack('L L q L L', 0x48444955, 1, $ms, $clean ? 1 : 0, 0);
	my $rec = $head . pack('L L', crc32c($head), 0);
	my $path = $node->data_dir . '/uid.hwm';
	open my $fh, '>:raw', $path or die "could not write $path: $!";
	print $fh $rec;
	close $fh or die "could not close $path: $!";
	return;
}

# A crash of the whole server: the postmaster and every child die at once,
# so that no orphaned backend keeps using the old shared memory.
# The postmaster's PID and its children's, from /proc.
sub server_pids
{
	my ($node) = @_;
	my $pm = $node->{_pid};
	die "node is not running" unless defined $pm;
	return ($pm, UidCluster::children_of($pm));
}

# Freezes the whole server (SIGSTOP of the postmaster and every child), as a
# hung machine would: nothing more is sent or answered.  Returns the PIDs,
# for SIGCONT or SIGKILL later.
sub freeze_all
{
	my ($node) = @_;
	my @pids = server_pids($node);
	kill 'STOP', @pids;
	return @pids;
}

sub kill9_all
{
	my ($node) = @_;
	my ($pm, @children) = server_pids($node);
	$node->kill9;
	kill 'KILL', @children if @children;
	# Wait until they are gone.  A dead child (zombie) has left shared
	# memory, which is all that matters; the postmaster must be reaped
	# entirely, as the next postmaster probes the PID in postmaster.pid.
	for my $p ($pm, @children)
	{
		my $tries = 0;
		while (-e "/proc/$p"
			&& $tries++ < 100 * $PostgreSQL::Test::Utils::timeout_default)
		{
			if ($p != $pm && open my $st, '<', "/proc/$p/stat")
			{
				my ($state) = (<$st> // '') =~ /\)\s+(\S)/;
				close $st;
				last if defined $state && $state eq 'Z';
			}
			select(undef, undef, undef, 0.01);
		}
	}
	# libfaketime cannot clean up its segments after SIGKILL
	unlink glob("/dev/shm/faketime_shm_$_ /dev/shm/sem.faketime_sem_$_")
	  for ($pm, @children);
	return;
}

sub logical_writer
{
	my ($name, %conf) = @_;
	my $node = uid_node($name, wal_level => 'logical', max_wal_senders => 10,
		max_replication_slots => 10, %conf);
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uid;
		CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), node text NOT NULL);
	});
	return $node;
}

sub conninfo
{
	my ($node) = @_;
	return 'host=' . $node->host . ' port=' . $node->port . ' dbname=postgres';
}

sub insert_on_all
{
	my ($nodes, $worker_of, $per_node, $clients) = @_;
	my @runs;
	for my $node (@$nodes)
	{
		my $script = $node->basedir . '/insert.sql';
		open my $fh, '>', $script or die "could not write $script: $!";
		print $fh "INSERT INTO t (node) VALUES ('@{[ $node->name ]}');\n";
		close $fh;
		my ($out, $err) = ('', '');
		push @runs, [ $node, \$out, IPC::Run::start(
			[ 'pgbench', '-n', '-c', $clients, '-j', 2, '-t', $per_node / $clients,
				'-f', $script, '-h', $node->host, '-p', $node->port, 'postgres' ],
			'<', \undef, '>', \$out, '2>', \$err) ];
	}
	for my $run (@runs)
	{
		my ($node, $out, $h) = @$run;
		$h->finish;
		like($$out, qr{processed: $per_node/$per_node},
			$node->name . ": all $per_node inserts succeed");
	}
	my $total = $per_node * @$nodes;
	my $expected = join ' ', map { "WHEN '$_' THEN $worker_of->{$_}" } sort keys %$worker_of;
	my @rows;
	for my $node (@$nodes)
	{
		local $PostgreSQL::Test::Utils::timeout_default = 120;
		ok($node->poll_query_until('postgres', "SELECT count(*) = $total FROM t"),
			$node->name . ": the rows of every node arrive ($total)");
		is($node->safe_psql('postgres',
				'SELECT count(DISTINCT id), count(*) FILTER (WHERE (uid_decode(id)).worker_id'
				  . " IS DISTINCT FROM CASE node $expected END) FROM t"),
			"$total|0", $node->name . ": every ID distinct, each with its node's worker id");
		push @rows, $node->safe_psql('postgres', q{SELECT string_agg(id::text, ',' ORDER BY id) FROM t});
	}
	is(scalar(grep { $_ ne $rows[0] } @rows), 0, 'every node holds the same rows');
	return;
}

1;
