# The start-up log names the worker id in use and each generator's floor,
# and where each came from (src/core/generator.c, UidGeneratorLogStart):
#  a) a misspelled setting (uid.workr_id = 5): PostgreSQL's own WARNING
#     (the "uid." prefix is reserved, so the placeholder is removed), then
#     uid's line saying that it has no worker id, as uid.workr_id is no
#     setting of uid, and uid_next() refusing with UID02 (what it might have
#     meant would run on its default); no floor in a new data directory;
#  b) the setting spelled right: worker id 5 from the configuration file,
#     and after a clean shutdown the floors from uid.hwm;
#  c) uid.worker_id = 'lease';
#  d) a refused value (uid.worker_id = 2000): no worker id.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('start_log');
$node->append_conf('postgresql.conf', "uid.workr_id = 5\n");

# the part of the log written since $offset
sub log_since
{
	my ($offset) = @_;
	my $log = slurp_file($node->logfile);
	return substr($log, $offset);
}

# ---------------------------------------------------------------------------
# a) a misspelled setting
# ---------------------------------------------------------------------------
my $offset = -s $node->logfile // 0;
$node->start;
my $log = log_since($offset);
like($log, qr/WARNING: .*invalid configuration parameter name "uid\.workr_id", removing it/,
	'a) PostgreSQL warns about the misspelled uid.workr_id and removes it');
like($log, qr/LOG: .*uid: no worker id \(uid\.workr_id in the configuration is no setting of uid; uid_next\(\) issues nothing, UID02, until it is fixed\); uid_next\(\) floor none \(no uid\.hwm[^;]*\); uuid7\(\) floor none/,
	'a) uid logs that it has no worker id, as uid.workr_id is no setting of uid');
like($log, qr/invalid configuration parameter name "uid\.workr_id".*uid: no worker id/s,
	'a) ... after the warning');
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
my ($rc, $out, $err) = $node->psql('postgres',
	'\set VERBOSITY verbose' . "\nSELECT uid_next()");
isnt($rc, 0, 'a) uid_next() issues nothing (it ran as worker id 0, the default, before 1.4)');
like($err, qr/ERROR:  UID02: uid_next\(\) has no worker id: uid\.workr_id in the configuration is no setting of uid/,
	'a) ... with UID02 naming the misspelled setting');
like($err, qr/DETAIL:  uid\.workr_id = '5' in the server's configuration names no setting of uid/,
	'a) ... and its value in the detail');
like($err, qr/HINT:  Correct or remove uid\.workr_id/, 'a) ... and the way out in the hint');
$node->safe_psql('postgres', 'SELECT uuid7()');
$node->stop;

# ---------------------------------------------------------------------------
# b) the setting spelled right
# ---------------------------------------------------------------------------
$node->adjust_conf('postgresql.conf', 'uid.workr_id', undef);
$node->append_conf('postgresql.conf', "uid.worker_id = 5\n");
$offset = -s $node->logfile;
$node->start;
$log = log_since($offset);
unlike($log, qr/invalid configuration parameter name/, 'b) no warning about a setting name');
like($log, qr/uid: worker id 5 \(uid\.worker_id, from the configuration file\);/,
	'b) uid logs worker id 5 from the configuration file');
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '5',
	'b) and worker id 5 is what uid_next() puts in its IDs');
$node->stop;
$offset = -s $node->logfile;
$node->start;
like(log_since($offset), qr/uid: worker id 5 \(uid\.worker_id, from the configuration file\); uid_next\(\) floor \d{4}-\d\d-\d\d [\d:.]+\+00 from uid\.hwm \(the last value before a clean shutdown\); uuid7\(\) floor \d{4}-\d\d-\d\d [\d:.]+\+00 from uid\.hwm/,
	'b) after a clean shutdown, the floors from uid.hwm');
$node->stop;

# ---------------------------------------------------------------------------
# c) lease
# ---------------------------------------------------------------------------
$node->adjust_conf('postgresql.conf', 'uid.worker_id', "'lease'");
$offset = -s $node->logfile;
$node->start;
like(log_since($offset), qr/uid: worker id from a lease \(uid\.worker_id = 'lease', from the configuration file;/,
	'c) uid logs that the worker id comes from a lease');
$node->stop;

# ---------------------------------------------------------------------------
# d) a refused value
# ---------------------------------------------------------------------------
$node->adjust_conf('postgresql.conf', 'uid.worker_id', '2000');
$offset = -s $node->logfile;
$node->start;
$log = log_since($offset);
like($log, qr/WARNING: .*invalid value for parameter "uid\.worker_id": "2000"/,
	'd) PostgreSQL warns that it refused uid.worker_id = 2000');
like($log, qr/uid: no worker id \(uid\.worker_id = '2000' in the configuration was refused; uid_next\(\) issues nothing, UID02, until it is fixed\)/,
	'd) uid logs that it has no worker id, and why');
$node->stop;

done_testing();
