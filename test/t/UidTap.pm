# Helpers shared by the Perl TAP tests of uid (test/t/*.pl).
#
#   uid_node($name, %conf)        a new, initialised node that preloads uid
#   sqlstate_of($node, $sql)      (sqlstate, stderr) of a failing statement
#   faketime_start($node, $file)  start a node under libfaketime, whose clock
#                                 offset is read from $file on every call
#   set_clock($file, $spec)       step that clock at run time ("+0", "-30",
#                                 "-0.02", or an absolute, frozen
#                                 "YYYY-MM-DD hh:mm:ss")
#   read_hwm($node)               the uid.hwm record: (ms, clean)
#   kill9_all($node)              SIGKILL the postmaster and all its children
package UidTap;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(uid_node sqlstate_of faketime_start set_clock read_hwm
  kill9_all uid_epoch_ms);

our $LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

# 2026-01-01T00:00:00Z in ms since the Unix epoch (src/uid.h)
sub uid_epoch_ms { return 1767225600000; }

sub uid_node
{
	my ($name, %conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
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

# The 32-byte record of src/hwm.c: magic, version, int64 ms, clean, pad, crc.
sub read_hwm
{
	my ($node) = @_;
	my $path = $node->data_dir . '/uid.hwm';
	open my $fh, '<:raw', $path or die "could not open $path: $!";
	my $n = read($fh, my $buf, 32);
	close $fh;
	die "short uid.hwm ($n bytes)" unless $n == 32;
	my ($magic, $version, $ms, $clean) = unpack('L L q L', $buf);
	die sprintf('bad uid.hwm magic %x', $magic) unless $magic == 0x48444955;
	return ($ms, $clean);
}

# A crash of the whole server: the postmaster and every child die at once,
# so that no orphaned backend keeps using the old shared memory.
sub kill9_all
{
	my ($node) = @_;
	my $pm = $node->{_pid};
	die "node is not running" unless defined $pm;
	my @children;
	opendir my $dh, '/proc' or die "no /proc: $!";
	for my $p (grep { /^\d+$/ } readdir $dh)
	{
		open my $st, '<', "/proc/$p/stat" or next;
		my $line = <$st>;
		close $st;
		next unless defined $line;
		# pid (comm) state ppid ...
		push @children, $p if $line =~ /\)\s+\S+\s+(\d+)/ && $1 == $pm;
	}
	closedir $dh;
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

1;
