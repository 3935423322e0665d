# A server that preloads Citus and leaves uid.worker_id at its default
# issues no ID: on a Citus cluster uid_next() runs on the workers as well
# as the coordinator, and with the default static id 0 on every node they
# issued the same IDs (8,538 duplicates in one repartitioned INSERT ...
# SELECT on a 3-node cluster).  A worker id set in the configuration, a
# number or 'lease', is taken as chosen.
#
# Citus itself is not packaged for Debian 12: a library named citus, with
# nothing in it but the module magic, stands in for it, found through
# dynamic_library_path.  uid looks at shared_preload_libraries only.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

my $libdir = PostgreSQL::Test::Utils::tempdir();
# the pg_config uid was built with (test/run.sh passes it on)
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $includedir = `$pg_config --includedir-server`;
chomp $includedir;
open(my $src, '>', "$libdir/citus.c") or die "citus.c: $!";
print $src qq{#include "postgres.h"\n#include "fmgr.h"\nPG_MODULE_MAGIC;\n};
close $src;
system('cc', '-shared', '-fPIC', "-I$includedir", '-o', "$libdir/citus.so", "$libdir/citus.c") == 0
  or die "could not build the stand-in citus library";

# A node that preloads the stand-in citus before uid, with %conf as uid_node's.
sub citus_node
{
	my ($name, %conf) = @_;
	my $node = uid_node($name,
		shared_preload_libraries => 'citus,uid',
		dynamic_library_path => "$libdir:\$libdir",
		%conf);
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return $node;
}

# --- Citus preloaded, uid.worker_id not set: no ID
my $node = citus_node('citus_default');
my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
is($state, 'UID02', 'Citus preloaded and uid.worker_id not set: uid_next() refuses with UID02');
like($err, qr/Citus is loaded and uid\.worker_id is not set/, 'the detail says why');
like($err, qr/HINT:.*uid\.worker_id = 'lease'/s, 'the hint says what to set');
is($node->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
	'static|config_error', 'status: config_error');
ok($node->log_contains('WARNING: .*Citus is loaded and uid\.worker_id is not set'),
	'logged at start-up');
($state, $err) = sqlstate_of($node, 'SELECT uid_next_batch(3)');
is($state, 'UID02', 'uid_next_batch() refuses as well');
like($node->safe_psql('postgres', 'SELECT uuid7()'), qr/^[0-9a-f-]{36}$/,
	'uuid7() carries no worker id and still works');
$node->stop;

# --- a worker id set in the configuration is a choice, 0 included
$node = citus_node('citus_zero', 'uid.worker_id' => 0);
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
	'uid.worker_id = 0 set in postgresql.conf: IDs with worker id 0');
$node->stop;

$node = citus_node('citus_seven', 'uid.worker_id' => 7);
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '7',
	'uid.worker_id = 7: IDs with worker id 7');
$node->stop;

# --- without Citus, the default stays the static id 0
$node = uid_node('no_citus');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
is($node->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
	'without Citus, the default static worker id 0 is used');
$node->stop;

done_testing();
