# A standby promoted onto the static worker id its primary also used, after
# a failover that lost the primary's last acknowledged transactions, never
# issues the IDs those transactions were given, even with its clock behind
# the old primary's.
#
# The lost commit is made faithfully: the primary's WAL sender for the
# standby is frozen (SIGSTOP), so that the primary goes on committing
# (asynchronous replication acknowledges at once) while nothing more reaches
# the standby; then the primary dies (SIGKILL of every process) and the
# standby is promoted.  The rows committed meanwhile exist nowhere, but
# their clients were told their IDs.
#
# The lost rows are given IDs past the primary's reservation of time as it
# stood at the freeze, so that the reservation records the standby replayed
# (src/floor/wal_floor.c) do not cover them: the case only the primary
# watch (src/floor/primary_watch.c) covers, an asynchronous standby
# promoted before the primary's last reservation record reached it
# (src/floor/README.md).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

# The standby's clock runs 10 s behind the primary's, as after a failed
# time synchronisation on one member.
my $pclock = PostgreSQL::Test::Utils::tempdir() . '/primary.clock';
my $sclock = PostgreSQL::Test::Utils::tempdir() . '/standby.clock';
set_clock($pclock, '+0');
set_clock($sclock, '-10');

# One static worker id for every member, as a shared configuration gives.
my $primary = uid_node('primary', init => { allows_streaming => 1 },
	'uid.worker_id' => 5);
faketime_start($primary, $pclock);
$primary->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), n int);
	INSERT INTO t (n) SELECT g FROM generate_series(1, 100) g;
});

like($primary->safe_psql('postgres', 'SHOW uid.issued_through'),
	qr/^worker=5 reserved_ms=\d+ clock_ms=\d+$/,
	'uid.issued_through shows the worker id, the reserved time and the clock');
like($primary->safe_psql('postgres', q{
	SELECT context FROM pg_settings WHERE name = 'uid.issued_through'}),
	qr/^internal$/, '... as a read-only setting');

$primary->backup('b1');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b1', has_streaming => 1);
faketime_start($standby, $sclock);
$primary->wait_for_catchup($standby);

# The standby learns, from its primary, that they share the worker id.
$standby->wait_for_log(
	qr/this standby and its primary both use uid\.worker_id = 5/);
ok(1, 'the standby warns that it shares its static worker id with its primary');

# Freeze the WAL sender that feeds the standby; the primary keeps committing.
my $walsender = $primary->safe_psql('postgres', q{
	SELECT pid FROM pg_stat_replication WHERE application_name = 'standby'});
like($walsender, qr/^\d+$/, 'the WAL sender of the standby is found');
kill 'STOP', $walsender or die "could not stop the WAL sender $walsender";

# Every reservation record the standby received ends at or before the
# primary's reservation as it stands now.  The lost rows come after the
# primary's clock has passed it by 2 s: their IDs lie in time that only a
# reservation record written after the freeze covers.
my $reserved_at_freeze = $primary->safe_psql('postgres',
	'SELECT reserved_until FROM uid_stats');
$primary->poll_query_until('postgres',
	"SELECT clock_timestamp() > '$reserved_at_freeze'::timestamptz + interval '2 s'")
  or die 'the primary clock did not pass its reservation';

$primary->safe_psql('postgres',
	"INSERT INTO t (n) SELECT g FROM generate_series(1001, 1100) g") for 1 .. 3;
my ($lost_min, $lost_max, $lost_n) = split /\|/, $primary->safe_psql('postgres',
	'SELECT min(id), max(id), count(*) FROM t WHERE n > 1000');
is($lost_n, 300, 'the primary acknowledged 300 rows after the WAL sender froze');
my @lost = split /\n/, $primary->safe_psql('postgres', 'SELECT id FROM t WHERE n > 1000');
is($primary->safe_psql('postgres',
	"SELECT uid_time($lost_min) >= '$reserved_at_freeze'::timestamptz + interval '2 s'"), 't',
	'the lost IDs lie past every reservation record that reached the standby');

# The primary dies with those rows; the standby never received them.
kill9_all($primary);
is($standby->safe_psql('postgres', 'SELECT count(*) FROM t'), '100',
	'the standby has only the rows from before the freeze');

$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the standby did not finish its promotion';

# Its clock is 10 s behind the old primary's: it refuses rather than issue
# in time the old primary may have used.
my ($state, $err) = sqlstate_of($standby, 'SELECT uid_next()');
is($state, 'UID01', 'after promotion, uid_next() refuses while the clock is behind the old primary');
like($err, qr/old primary, which used the same static worker id/,
	'... naming the old primary as the reason');
ok($standby->log_contains(qr/promoted with the static worker id 5 that the old primary also used/),
	'the promotion is logged with the floor it applied');
is($standby->safe_psql('postgres', 'SELECT floor_source FROM uid_stats'), 'primary_watch',
	'the floor is the one the primary watch learned, above the replayed reservations');

# Once the clock gets there, the new IDs are above every lost one.
my $issued = $standby->poll_query_until('postgres', 'SELECT uid_next() > 0');
ok($issued, 'the promoted standby issues once its clock passes the floor');
$standby->safe_psql('postgres',
	'INSERT INTO t (n) SELECT g FROM generate_series(2001, 2300) g');

my %lost = map { $_ => 1 } @lost;
my @new = split /\n/, $standby->safe_psql('postgres', 'SELECT id FROM t WHERE n > 2000');
is(scalar(@new), 300, '300 rows were inserted after the promotion');
is(scalar(grep { $lost{$_} } @new), 0, 'none of them has the ID of a lost row');
is(scalar(grep { $_ <= $lost_max } @new), 0,
	'every new ID is above every ID the old primary acknowledged');

$standby->stop;
done_testing();
