# What the Perl TAP tests of uid change in PostgreSQL::Test::Cluster, to
# cost less CPU for the same checks (loaded by UidTap.pm, LeaseTest.pm and
# StoreCluster.pm; a file that uses none of them loads it itself).  A psql
# run cost about 80 ms of CPU on the 2-core CI machine (the client, the
# fork of the test's Perl that starts it, and a new backend), and the tests
# ran some ten thousand of them per version; most were one SELECT.
#
#   safe_psql          one statement (a query, DML or DDL), with no
#                      options, runs over a session kept per node and
#                      database instead of a new psql and backend.  When
#                      the call ends, the session is reset with DISCARD ALL
#                      (its settings, session locks, prepared statements,
#                      temporary tables and role end then, as when psql's
#                      backend exits); before each use it is pinged, and
#                      one the server has closed (a restart, a kill) is
#                      opened again.  The output is
#                      psql -XAt's (rows on lines, columns joined by '|',
#                      NULL empty, booleans t/f, bytea in hex), a notice or
#                      a warning is shown as safe_psql shows psql's stderr,
#                      and an error dies with the server's message, as
#                      safe_psql does; a command without rows prints
#                      nothing.  Anything else (several statements,
#                      transaction control, COPY, LOAD, SET, a backslash,
#                      options such as connstr or stdin) runs psql as
#                      before; so does everything where
#                      DBD::Pg is not installed.  What a kept session would
#                      not see as a new one does, it does not meet: the
#                      node's sessions are closed before psql runs ALTER,
#                      CREATE or DROP of a ROLE, USER or DATABASE (settings
#                      that only new sessions take, a database that must
#                      have no session) or ALTER SYSTEM, and before the
#                      node stops, restarts or is killed.
#   poll_query_until   the same, every 100 ms as before; a notice or a
#                      warning counts as output on stderr (no match), as
#                      before.
#   init               on PostgreSQL 15 and 16, copies the data directory
#                      $ENV{INITDB_TEMPLATE} where initdb would run without
#                      options, as PostgreSQL 17 and later do by themselves
#                      (test/run.sh makes it): initdb cost about 1.6 s of
#                      CPU, the copy 0.3 s.  Where initdb runs, it runs
#                      with --encoding=UTF8 --locale=C.UTF-8 before the
#                      test's own options, as test/run.sh makes the
#                      template: every node is UTF8 with the locale
#                      C.UTF-8 whatever the caller's LANG and LC_* (without
#                      them, initdb takes the locale from the environment,
#                      and with none set, C and SQL_ASCII, in which the
#                      clients of TAP 122 get bytes for text).
#   teardown           every process of a node still running gets SIGCONT
#                      first, so that a server a failed test left frozen
#                      (SIGSTOP) stops (the END block below).
package UidCluster;

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $psql_poll = \&PostgreSQL::Test::Cluster::poll_query_until;
my $plain_safe_psql = \&PostgreSQL::Test::Cluster::safe_psql;
my $plain_psql = \&PostgreSQL::Test::Cluster::psql;
# test/deps.sh installs DBD::Pg; without it, polls run psql as before
my $have_dbd = eval { require DBI; require DBD::Pg; 1 };
my $plain_init = \&PostgreSQL::Test::Cluster::init;

# Statements that only a new session sees the effect of, or that need no
# session on the database they name: psql runs them, after the node's kept
# sessions are closed.
my $new_session_only =
  qr/\b(?:(?:ALTER|CREATE|DROP)\s+(?:ROLE|USER|DATABASE)|ALTER\s+SYSTEM)\b/i;

# One statement that a kept session answers as psql would: a query, DML or
# DDL.  Not transaction control (a BEGIN would stay open), COPY (its data
# goes through psql), LOAD (the library would stay in the session), SET and
# the like (they end with the call anyway), several statements (psql runs
# each in its own transaction) or a backslash command.
sub _one_query
{
	my ($query) = @_;
	return 0 unless defined $query;
	(my $q = $query) =~ s/;\s*\z//;
	return $q !~ /[;\\]/
	  && $q !~ $new_session_only
	  && $q =~ /\A\s*(?:SELECT|WITH|VALUES|TABLE|INSERT|UPDATE|DELETE|MERGE|CREATE|DROP|ALTER
		  |GRANT|REVOKE|TRUNCATE|COMMENT|SHOW|EXPLAIN|ANALYZE|VACUUM|CHECKPOINT|NOTIFY)\b/ix;
}

# A session to $node's database $dbname, or undef (and why) if none can be
# opened now.
sub _session
{
	my ($node, $dbname) = @_;
	my $why = '';
	local $SIG{__WARN__} = sub { $why .= $_[0] };
	my $dbh = DBI->connect('dbi:Pg:' . $node->connstr($dbname), '', '',
		{ AutoCommit => 1, RaiseError => 0, PrintError => 0, PrintWarn => 1,
		  pg_bool_tf => 1, pg_expand_array => 0, pg_server_prepare => 0,
		  pg_enable_utf8 => 0 });
	return ($dbh, $dbh ? "" : (DBI->errstr // $why));
}

# The sessions kept for safe_psql and poll_query_until: connection string
# => { dbh, port, host }.
my %kept;

# The kept session to $node's database $dbname; opened (again) if there is
# none or it broke.  Undef (and why) if none can be opened now.
sub _kept_session
{
	my ($node, $dbname) = @_;
	my $key = $node->connstr($dbname);
	if (my $k = $kept{$key})
	{
		local $SIG{__WARN__} = sub { };
		return ($k->{dbh}, '') if $k->{dbh}->ping;
		_forget($key);
	}
	my ($dbh, $why) = _session($node, $dbname);
	$kept{$key} = { dbh => $dbh, port => $node->port, host => $node->host } if $dbh;
	return ($dbh, $why);
}

# Ends what a call did in $node's session to $dbname, as the end of a
# backend would: settings, session locks, temporary tables, the role.
sub _reset_session
{
	my ($node, $dbname) = @_;
	my $key = $node->connstr($dbname);
	my $k = $kept{$key} or return;
	local $SIG{__WARN__} = sub { };
	_forget($key) unless $k->{dbh}->do('DISCARD ALL');
	return;
}

sub _forget
{
	my ($key) = @_;
	my $k = delete $kept{$key} or return;
	local $SIG{__WARN__} = sub { };
	$k->{dbh}->disconnect;
	return;
}

# Closes the sessions kept to $node.
sub _forget_node
{
	my ($node) = @_;
	for my $key (keys %kept)
	{
		_forget($key)
		  if $kept{$key}{port} eq $node->port && $kept{$key}{host} eq $node->host;
	}
	return;
}

# $query's rows as psql -XAt prints them, and what it said on stderr; undef
# rows if it failed.
sub _run_query
{
	my ($dbh, $query) = @_;
	my $stderr = '';
	# notices and warnings reach DBD::Pg's warn(): psql's stderr
	local $SIG{__WARN__} = sub { $stderr .= $_[0] };
	# pg_direct: the text goes to the server as it is (a '?' is an operator)
	my $sth = $dbh->prepare($query, { pg_direct => 1 });
	# a command without rows prints nothing (psql -q)
	my $rows = $sth && $sth->execute && ($sth->{NUM_OF_FIELDS} ? $sth->fetchall_arrayref : []);
	return (undef, $stderr . ($dbh->errstr // 'error')) unless $rows;
	return (join("\n", map { _psql_row($sth, $_) } @$rows), $stderr);
}

# A row as psql -XAt prints it (DBD::Pg gives bytea as its bytes).
sub _psql_row
{
	my ($sth, $row) = @_;
	my @types = @{ $sth->{pg_type} };
	return join '|', map {
		!defined $row->[$_] ? ''
		  : $types[$_] eq 'bytea' ? '\\x' . unpack('H*', $row->[$_])
		  : $row->[$_]
	} 0 .. $#$row;
}

no warnings 'redefine';

*PostgreSQL::Test::Cluster::poll_query_until = sub {
	my ($self, $dbname, $query, $expected) = @_;
	return $psql_poll->(@_) unless $have_dbd && _one_query($query);

	local %ENV = $self->_get_env();
	$expected = 't' unless defined($expected);
	my ($stdout, $stderr, $dbh) = ('', '');
	my $max_attempts = 10 * $PostgreSQL::Test::Utils::timeout_default;
	for (my $attempts = 0; $attempts < $max_attempts; $attempts++)
	{
		($stdout, $stderr) = ('', '');
		($dbh, $stderr) = _kept_session($self, $dbname) unless $dbh;
		if ($dbh)
		{
			my $out;
			($out, $stderr) = _run_query($dbh, $query);
			if (defined $out)
			{
				$stdout = $out;
			}
			elsif (!$dbh->ping)
			{
				_forget($self->connstr($dbname));
				undef $dbh;
			}
		}
		chomp($stderr);
		if ($dbh && $stdout eq $expected && $stderr eq '')
		{
			_reset_session($self, $dbname);
			return 1;
		}
		usleep(100_000);
	}
	_reset_session($self, $dbname);
	diag qq(poll_query_until timed out executing this query:
$query
expecting this output:
$expected
last actual query output:
$stdout
with stderr:
$stderr);
	return 0;
};

*PostgreSQL::Test::Cluster::safe_psql = sub {
	my ($self, $dbname, $sql, %params) = @_;
	return $plain_safe_psql->(@_) unless $have_dbd && !%params && _one_query($sql);

	local %ENV = $self->_get_env();
	my ($dbh) = _kept_session($self, $dbname);
	# no session now: psql, as before, says why
	return $plain_safe_psql->(@_) unless $dbh;
	my ($out, $stderr) = _run_query($dbh, $sql);
	_reset_session($self, $dbname);
	chomp $stderr;
	die "error running SQL: '$stderr'\nwhile running it over a kept session with sql '$sql'"
	  unless defined $out;
	print "#### Begin standard error\n$stderr\n#### End standard error\n" if $stderr ne '';
	return $out;
};

*PostgreSQL::Test::Cluster::psql = sub {
	my ($self, $dbname, $sql) = @_;
	_forget_node($self) if defined $sql && $sql =~ $new_session_only;
	return $plain_psql->(@_);
};

for my $name (qw(stop restart kill9 teardown_node))
{
	my $plain = \&{"PostgreSQL::Test::Cluster::$name"};
	no strict 'refs';
	*{"PostgreSQL::Test::Cluster::$name"} = sub {
		_forget_node($_[0]);
		return $plain->(@_);
	};
}

# Where initdb runs, the encoding and locale test/run.sh gives the template
# (a test's own options come after them, and so win).
my @initdb_locale = ('--encoding=UTF8', '--locale=C.UTF-8');

# PostgreSQL 17 and later copy the template themselves.
my $copies_template = grep { /INITDB_TEMPLATE/ }
  split /\n/, PostgreSQL::Test::Utils::slurp_file($INC{'PostgreSQL/Test/Cluster.pm'});

*PostgreSQL::Test::Cluster::init = sub {
	my ($self, %params) = @_;
	my $copy = !$params{force_initdb}
	  && !defined $params{extra}
	  && defined $ENV{INITDB_TEMPLATE}
	  && !defined $ENV{PG_TEST_INITDB_EXTRA_OPTS};
	return $plain_init->($self, %params, extra => [ @initdb_locale, @{ $params{extra} // [] } ])
	  unless $copy;
	return $plain_init->($self, %params) if $copies_template;
	my $pgdata = $self->data_dir;
	my $system_or_bail = \&PostgreSQL::Test::Utils::system_or_bail;
	# the one initdb run of init, without options: a copy instead
	local *PostgreSQL::Test::Utils::system_or_bail = sub {
		if (@_ == 6 && $_[0] eq 'initdb' && $_[1] eq '-D' && $_[2] eq $pgdata
			&& "@_[3..5]" eq '-A trust -N')
		{
			note('initializing database system by copying initdb template');
			return $system_or_bail->('cp', '-RPp', $ENV{INITDB_TEMPLATE}, $pgdata);
		}
		return $system_or_bail->(@_);
	};
	return $plain_init->($self, %params);
};

# The PIDs of the children of process $pid, from /proc.
sub children_of
{
	my ($pid) = @_;
	my @children;
	opendir my $dh, '/proc' or die "no /proc: $!";
	for my $p (grep { /^\d+$/ } readdir $dh)
	{
		open my $st, '<', "/proc/$p/stat" or next;
		my $line = <$st>;
		close $st;
		next unless defined $line;
		# pid (comm) state ppid ...
		push @children, $p if $line =~ /\)\s+\S+\s+(\d+)/ && $1 == $pid;
	}
	closedir $dh;
	return @children;
}

# A server that a test froze (SIGSTOP of the postmaster or of a child, as
# the fault tests do) and did not thaw, because it failed first, would not
# stop: the teardown's immediate shutdown waits for processes that cannot
# run, and they stay stopped after the test.  Before the teardown (this END
# runs before PostgreSQL::Test::Cluster's, which was compiled first), every
# process of every node still running gets SIGCONT, which is nothing to a
# process that was not stopped.
END
{
	my $exit_code = $?;
	for my $node (@PostgreSQL::Test::Cluster::all_nodes)
	{
		my $pm = $node->{_pid};
		kill 'CONT', $pm, children_of($pm) if defined $pm;
	}
	$? = $exit_code;
}

1;
