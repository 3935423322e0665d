# A server whose clock differs from the lease store's by more than
# uid.lease_max_clock_skew takes no lease (at acquisition) and gives up the
# one it holds (at renewal): uid_next() then fails with UID02.  The
# generating server's clock is the real one; the store runs under libfaketime.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LeaseTest;
use UidTap qw(faketime_start set_clock);

# At acquisition: the store's clock is 5 s behind, with 500 ms allowed.
my $clock = PostgreSQL::Test::Utils::tempdir() . '/store.clock';
set_clock($clock, '-5');
my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
faketime_start($coord, $clock);
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';

my $node = lease_node('skewed', conf => "uid.lease_conninfo = '$conninfo'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
$node->safe_psql('postgres', try_next_sql());
my $ahead = $node->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())')
  - $coord->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())');
cmp_ok($ahead, '>', 3, "the server's clock runs ahead of the store's ($ahead s)");

$node->poll_query_until('postgres',
	"SELECT state = 'clock_skew' FROM uid_lease_status()")
  or die 'the skewed server did not report clock_skew: '
  . $node->safe_psql('postgres', 'SELECT * FROM uid_lease_status()');
is($node->safe_psql('postgres', 'SELECT try_next()'), 'UID02',
	'a server 5 s off the store\'s clock takes no lease: uid_next() fails with UID02');
is($coord->safe_psql('postgres',
		"SELECT count(*) FROM uid_lease.lease WHERE released_at IS NULL AND expires_at > now()"),
	'0', 'the store holds no live lease for it');
ok($node->log_contains('differs from the uid lease store'), 'the skew is logged');

# Clock corrected: the lease is taken and IDs flow.
set_clock($clock, '+0');
my ($w) = wait_held($node);
is($node->safe_psql('postgres', 'SELECT try_next()'), $w,
	'with the clock corrected it leases a worker id and generates');

# At renewal: the store's clock jumps 5 s ahead.  A renewal that finds the
# skew counts as a failed renewal: the server keeps generating until the
# safety margin before its lease expires, then stops with UID02.
set_clock($clock, '+5');
$node->poll_query_until('postgres',
	"SELECT state = 'renewal_failing' AND renewal_failures > 0 FROM uid_lease_status()")
  or die 'the renewal did not notice the skew: '
  . $node->safe_psql('postgres', 'SELECT * FROM uid_lease_status()');
pass('a renewal that finds the clock 5 s off fails');
$node->poll_query_until('postgres', "SELECT try_next() = 'UID02'")
  or die 'generation did not stop before the lease expired';
pass('... and generation stops before the lease expires (UID02)');

# Clocks agree again: a lease is taken again and IDs flow.
set_clock($clock, '+0');
($w) = wait_held($node);
is($node->safe_psql('postgres', 'SELECT try_next()'), $w,
	'with the clocks agreeing again it holds a lease and generates');

$node->stop('immediate');
$coord->stop;
done_testing();
