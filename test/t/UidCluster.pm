# What the Perl TAP tests of uid change in PostgreSQL::Test::Cluster, to
# cost less CPU for the same checks (loaded by UidTap.pm, LeaseTest.pm and
# StoreCluster.pm; a file that uses none of them loads it itself):
#
#   poll_query_until   runs its query over one session per call, every
#                      100 ms as before, instead of one psql (and one new
#                      backend) per attempt: a psql run cost about 80 ms of
#                      CPU on the 2-core CI machine, so every wait polled
#                      that way kept most of a core busy.  The output is
#                      compared as psql -XAt prints it (rows on lines,
#                      columns joined by '|', NULL empty, booleans t/f),
#                      and a notice or a warning counts as output on stderr
#                      (no match), as before.  A session that broke (the
#                      server restarted) is opened again at the next
#                      attempt; the session ends when the call returns.
#                      Anything but one SELECT, WITH, VALUES or TABLE
#                      statement (or no query: a connection attempt) still
#                      runs psql, as PostgreSQL::Test::Cluster does, and
#                      so does every poll where DBD::Pg is not installed.
#   init               on PostgreSQL 15 and 16, copies the data directory
#                      $ENV{INITDB_TEMPLATE} where initdb would run without
#                      options, as PostgreSQL 17 and later do by themselves
#                      (test/run.sh makes it): initdb cost about 1.6 s of
#                      CPU, the copy 0.3 s.
package UidCluster;

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $psql_poll = \&PostgreSQL::Test::Cluster::poll_query_until;
# test/deps.sh installs DBD::Pg; without it, polls run psql as before
my $have_dbd = eval { require DBI; require DBD::Pg; 1 };
my $plain_init = \&PostgreSQL::Test::Cluster::init;

# One SELECT-like statement, which a session answers as psql would.
sub _one_query
{
	my ($query) = @_;
	return 0 unless defined $query;
	(my $q = $query) =~ s/;\s*\z//;
	return $q !~ /;/ && $q =~ /\A\s*(?:SELECT|WITH|VALUES|TABLE)\b/i;
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
		($dbh, $stderr) = _session($self, $dbname) unless $dbh;
		if ($dbh)
		{
			# notices and warnings reach DBD::Pg's warn(): psql's stderr
			local $SIG{__WARN__} = sub { $stderr .= $_[0] };
			my $sth = $dbh->prepare($query);
			my $rows = $sth && $sth->execute && $sth->fetchall_arrayref;
			if ($rows)
			{
				$stdout = join "\n", map { _psql_row($sth, $_) } @$rows;
			}
			else
			{
				$stderr .= $dbh->errstr // 'error';
				if (!$dbh->ping)
				{
					$dbh->disconnect;
					undef $dbh;
				}
			}
		}
		chomp($stderr);
		if ($dbh && $stdout eq $expected && $stderr eq '')
		{
			$dbh->disconnect;
			return 1;
		}
		usleep(100_000);
	}
	$dbh->disconnect if $dbh;
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

# PostgreSQL 17 and later copy the template themselves.
if (!grep { /INITDB_TEMPLATE/ }
	split /\n/, PostgreSQL::Test::Utils::slurp_file($INC{'PostgreSQL/Test/Cluster.pm'}))
{
	*PostgreSQL::Test::Cluster::init = sub {
		my ($self, %params) = @_;
		return $plain_init->(@_)
		  if $params{force_initdb}
		  || defined $params{extra}
		  || !defined $ENV{INITDB_TEMPLATE}
		  || defined $ENV{PG_TEST_INITDB_EXTRA_OPTS};
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
		return $plain_init->(@_);
	};
}

1;
