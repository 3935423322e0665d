# The durable floors of uid.hwm, one per generator:
#  a) A role granted uuid7_advance_past() (say, for a data migration) moves
#     uuid7() 23 hours ahead: after a clean restart and after a crash,
#     uid_next() still issues IDs (each generator has its own floor in
#     uid.hwm), and uuid7() stays above the key.  uid_advance_past() moves
#     uid_next() only, and its refusal names uid_next()'s floor.
#  b) A uid.hwm written by uid 1.1 (one floor for both generators) is read as
#     that floor for each, and rewritten in the new format keeping it.
#  c) An empty uid.hwm (a first reservation that never completed) is read as
#     none, and logged: the server starts and issues, instead of refusing
#     (XX001) until someone removes it.
#  d) A uid.hwm removed (or emptied) where values were issued before is
#     logged with a WARNING that names it, and with nothing replayed to
#     cover it (a clean shutdown), uid_next() and uuid7() refuse (UID07)
#     until uid_advance_past() and uuid7_advance_past() are given the
#     largest values stored; the file is then written again, and the next
#     start neither warns nor refuses.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('floors', 'uid.worker_id' => 1);
$node->start;

sub as_role
{
	my ($role, $db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}

my ($ret, $out, $err);
# ---------------------------------------------------------------------------
# a) uuid7_advance_past() 23 hours ahead, by a role granted it
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE ROLE migrator LOGIN;
	GRANT EXECUTE ON FUNCTION uuid7_advance_past(uuid) TO migrator;
	CREATE TABLE t (id bigint PRIMARY KEY DEFAULT uid_next(), u uuid UNIQUE DEFAULT uuid7());
	GRANT INSERT, SELECT ON t TO PUBLIC;
});
my $key = $node->safe_psql('postgres',
	"SELECT uuid7_from_time(clock_timestamp() + interval '23 hours')");
is(as_role('migrator', 'postgres', "SELECT uuid7_advance_past('$key')"),
	't', 'a) the migration role moves uuid7() 23 hours ahead');
as_role('migrator', 'postgres', 'INSERT INTO t DEFAULT VALUES');

$node->restart;
($ret, $out, $err) = $node->psql('postgres',
	'INSERT INTO t DEFAULT VALUES RETURNING uid_time(id) > clock_timestamp() - interval \'1 minute\'');
is($ret, 0, 'a) after a clean restart uid_next() issues IDs') or diag($err);
is($node->safe_psql('postgres', "SELECT uuid7() > '$key'"), 't',
	'a) ... and uuid7() is still above the key');

my ($uid_ms, $clean, $uuid7_ms, $version) = read_hwm($node);
is($version, 2, 'a) uid.hwm is written in the format with a floor per generator');
my $key_ms = $node->safe_psql('postgres',
	"SELECT (extract(epoch FROM uuid7_time('$key')) * 1000)::bigint - " . uid_epoch_ms());
cmp_ok($uuid7_ms, '>=', $key_ms, "a) uuid7()'s floor covers the key");
cmp_ok($uid_ms, '<', $key_ms - 3600 * 1000, "a) uid_next()'s floor stays at the clock");

kill9_all($node);
$node->start;
($ret, $out, $err) = $node->psql('postgres', 'INSERT INTO t DEFAULT VALUES');
is($ret, 0, 'a) after kill -9 of the server uid_next() issues IDs') or diag($err);
is($node->safe_psql('postgres', "SELECT uuid7() > '$key'"), 't',
	'a) ... and uuid7() is still above the key');
is($node->safe_psql('postgres', 'SELECT count(*) = count(DISTINCT id) AND count(*) = 3 FROM t'),
	't', 'a) every row has its own ID');

$node->stop;

# The other way round, on a server of its own: uid_advance_past() moves
# uid_next() only.  Its refusal names uid_next()'s floor, and no hint that
# cannot help.
my $adv = uid_node('advance_uid', 'uid.worker_id' => 3);
$adv->start;
$adv->safe_psql('postgres', 'CREATE EXTENSION uid');
my $far = $adv->safe_psql('postgres',
	"SELECT uid_from_time(clock_timestamp() + interval '23 hours')");
is($adv->safe_psql('postgres', "SELECT uid_advance_past($far)"), 't',
	'a) uid_advance_past() moves uid_next() 23 hours ahead');
my ($state, $stderr) = sqlstate_of($adv, 'SELECT uid_next()');
is($state, 'UID01', 'a) uid_next() then refuses (UID01)');
like($stderr, qr/behind the floor of uid_next\(\)/, 'a) ... naming uid_next()\'s floor');
like($stderr, qr/uid_advance_past\(\) moved uid_next\(\) to/, 'a) ... and that uid_advance_past() set it');
like($stderr, qr/resumes by itself once the clock passes/, 'a) ... and when it recovers');
unlike($stderr, qr/raise uid\.clock_max_wait_ms/, 'a) ... without the hint to raise uid.clock_max_wait_ms');
$adv->restart;
($state, $stderr) = sqlstate_of($adv, 'SELECT uid_next()');
like($stderr, qr/behind the floor of uid_next\(\).*restored from uid\.hwm/s,
	'a) after a restart the refusal says the floor was restored from uid.hwm');
is( $adv->safe_psql(
		'postgres', q{SELECT uuid7_time(uuid7()) < clock_timestamp() + interval '1 hour'}),
	't', 'a) after the restart uuid7() still follows the clock: uid_advance_past() did not move it');
$adv->stop;

# ---------------------------------------------------------------------------
# b) A uid.hwm written by uid 1.1: one floor, an hour ahead, for both
# ---------------------------------------------------------------------------
my $old = uid_node('hwm_v1', 'uid.worker_id' => 2);
$old->start;
$old->safe_psql('postgres', 'CREATE EXTENSION uid');
my $floor = $old->safe_psql('postgres',
	"SELECT (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint - " . uid_epoch_ms());
$old->stop;
write_hwm_v1($old, $floor, 1);
$old->start;
($state, $stderr) = sqlstate_of($old, 'SELECT uid_next()');
is($state, 'UID01', 'b) uid_next() keeps the floor of a version 1 uid.hwm');
like($stderr, qr/written by a uid before 1\.2/, 'b) ... and says where it comes from');
my $floor_uuid = $old->safe_psql('postgres',
	"SELECT uuid7_from_time(to_timestamp((" . uid_epoch_ms() . " + $floor + 1) / 1000.0))");
is($old->safe_psql('postgres', "SELECT uuid7() >= '$floor_uuid'"), 't',
	'b) uuid7() starts above the floor of a version 1 uid.hwm');
$old->stop;
($uid_ms, $clean, $uuid7_ms, $version) = read_hwm($old);
is($version, 2, 'b) uid.hwm is rewritten in the new format');
is($uid_ms, $floor, "b) ... keeping uid_next()'s floor");
cmp_ok($uuid7_ms, '>', $floor, "b) ... and uuid7()'s above it");
$old->start;
($state, $stderr) = sqlstate_of($old, 'SELECT uid_next()');
is($state, 'UID01', 'b) after the next restart uid_next() still keeps the floor');
$old->stop;

# ---------------------------------------------------------------------------
# c) An empty uid.hwm on a server that never issued
# ---------------------------------------------------------------------------
my $empty = uid_node('hwm_empty', 'uid.worker_id' => 4);
$empty->start;
$empty->safe_psql('postgres', 'CREATE EXTENSION uid');
$empty->stop;
my $hwm_path = $empty->data_dir . '/uid.hwm';
ok(!-e $empty->data_dir . '/uid.issued', 'c) nothing issued yet: no uid.issued');
# what a full disk at the first reservation leaves
truncate($hwm_path, 0) or die "could not truncate $hwm_path: $!";
my $log_offset = -s $empty->logfile;
$empty->start;
ok($empty->log_contains(qr/high-water mark file "uid\.hwm" is empty; ignored/, $log_offset),
	'c) start-up logs that the empty uid.hwm is ignored, and why');
is($empty->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '4',
	'c) uid_next() issues with an empty uid.hwm');
is($empty->safe_psql('postgres', q{SELECT uuid7() IS NOT NULL}), 't', 'c) ... and uuid7() too');
ok(!$empty->log_contains(qr/is missing or empty, but/, $log_offset),
	'c) no warning: nothing was issued here before');
($uid_ms) = read_hwm($empty);
cmp_ok($uid_ms, '>', 0, 'c) the reservation is written into the file again');
ok(-e $empty->data_dir . '/uid.issued', 'c) and uid.issued marks that values were issued');

# ---------------------------------------------------------------------------
# d) uid.hwm removed, or emptied, where values were issued before
# ---------------------------------------------------------------------------
$empty->stop;
unlink $hwm_path or die "could not remove $hwm_path: $!";
$log_offset = -s $empty->logfile;
$empty->start;
ok( $empty->log_contains(
		qr/WARNING: .*high-water mark file "uid\.hwm" is missing or empty, but "uid\.issued" says values were issued in this data directory before/,
		$log_offset),
	'd) a removed uid.hwm on a server that issued before: a WARNING names the file');
my ($d_state, $d_err) = sqlstate_of($empty, 'SELECT uid_next()');
is($d_state, 'UID07', 'd) uid_next() refuses (UID07): nothing replayed covers the lost floor');
like($d_err, qr/HINT:\s+Call uid_advance_past\(\) with the largest value stored/,
	'd) ... with a hint naming uid_advance_past()');
($d_state) = sqlstate_of($empty, 'SELECT uuid7()');
is($d_state, 'UID07', 'd) uuid7() refuses (UID07) too');
# the largest values stored here are older than now
$empty->safe_psql('postgres', q{
	SELECT uid_advance_past(uid_from_time(clock_timestamp()));
	SELECT uuid7_advance_past(uuid7_from_time(clock_timestamp()));});
is($empty->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '4',
	'd) after uid_advance_past(), uid_next() issues');
is($empty->safe_psql('postgres', q{SELECT uuid7() IS NOT NULL}), 't',
	'd) ... and after uuid7_advance_past(), uuid7()');
ok(-e $hwm_path, 'd) uid.hwm is written again');
$empty->stop;
$log_offset = -s $empty->logfile;
$empty->start;
ok(!$empty->log_contains(qr/is missing or empty/, $log_offset),
	'd) the next start, with the file written again, does not warn');
is($empty->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '4',
	'd) ... and uid_next() issues');
$empty->stop;
truncate($hwm_path, 0) or die "could not truncate $hwm_path: $!";
$log_offset = -s $empty->logfile;
$empty->start;
ok($empty->log_contains(qr/WARNING: .*"uid\.hwm" is missing or empty, but "uid\.issued"/, $log_offset),
	'd) an emptied uid.hwm there: the same WARNING');
($d_state) = sqlstate_of($empty, 'SELECT uid_next()');
is($d_state, 'UID07', 'd) ... and the same refusal');
$empty->stop;

done_testing();
