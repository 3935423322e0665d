
# uid.mask_key, the key of uid_mask() and uuid7_mask(), set in
# postgresql.conf: an ordinary role cannot read it (SHOW, current_setting,
# pg_settings, pg_file_settings, pg_db_role_setting, error texts), a
# pg_monitor member sees only the key check value, a reload with a new key
# takes effect without the key reaching the server log, a reload with a bad
# key keeps the old one, and without shared_preload_libraries the functions
# that use the setting refuse.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;

# two AES-128 keys and their check values (the first 3 bytes of AES-ECB of
# a zero block, as "openssl enc -aes-128-ecb -nopad" gives them)
my $key1 = '2b7e151628aed2a6abf7158809cf4f3c';
my $kcv1 = '7DF76B';
my $key2 = '000102030405060708090a0b0c0d0e0f';
my $kcv2 = 'C6A13B';

# The log is read for keys at the end.  PostgreSQL logs statements as they
# were written (log_statement, and the STATEMENT line of an error): that is
# the caller's text, not uid's, and the docs say to keep keys out of logged
# statements; here both are off, so that the check covers what uid and
# PostgreSQL report themselves, at the most verbose level.
my $node = uid_node('mask_key', 'uid.worker_id' => 9,
	'uid.mask_key' => $key1, 'log_min_messages' => 'debug3',
	'log_statement' => 'none', 'log_min_error_statement' => 'panic');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
$node->safe_psql('postgres', q{
	CREATE ROLE hostile LOGIN;
	CREATE ROLE monitor LOGIN IN ROLE pg_monitor;
	CREATE ROLE app LOGIN;
	GRANT EXECUTE ON FUNCTION uid_mask(bigint), uid_unmask(bigint),
	  uuid7_mask(uuid), uuid7_unmask(uuid) TO app;
});

sub as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql,
		extra_params => [ '-U', $role ]);
	return ($ret, $out, $err);
}

# ---------------------------------------------------------------------------
# What each role sees
# ---------------------------------------------------------------------------
is($node->safe_psql('postgres', 'SHOW uid.mask_key'),
	"AES-128 key, check value $kcv1",
	'superuser: SHOW gives the key size and check value, not the key');
is( $node->safe_psql(
		'postgres', q{SELECT count(*) FROM pg_settings WHERE name = 'uid.mask_key'}),
	'0',
	'superuser: uid.mask_key is not in pg_settings (its reset_val would show the key)');

my ($state, $msg);
my ($ret, $out, $err) = as('monitor', 'SHOW uid.mask_key');
is($out, "AES-128 key, check value $kcv1",
	'pg_monitor member: SHOW gives the check value only');
($ret, $out, $err) = as('monitor',
	q{SELECT count(*) FROM pg_settings WHERE name = 'uid.mask_key'});
is($out, '0', 'pg_monitor member: no pg_settings row');

# 15 says "must be superuser or have privileges of ...", 16 and later
# "permission denied to examine"
my $no_examine =
  qr/must be superuser or have privileges of pg_read_all_settings|permission denied to examine/;
my @probes = (
	[ 'SHOW uid.mask_key', qr/$no_examine/ ],
	[ q{SELECT current_setting('uid.mask_key')}, qr/$no_examine/ ],
	[ q{SELECT current_setting('uid.mask_key', true)}, qr/$no_examine/ ],
	[ 'SELECT * FROM pg_file_settings', qr/permission denied for view pg_file_settings/ ],
	[ 'SELECT pg_read_file(\'postgresql.conf\')', qr/permission denied for function pg_read_file/ ],
	[ 'SELECT uid_mask(1)', qr/permission denied for function uid_mask/ ],
	[ 'SELECT uid_unmask(1)', qr/permission denied for function uid_unmask/ ],
	[ q{SELECT uuid7_unmask('1a61a5b7-7874-41a4-a289-26b20db2ad65')}, qr/permission denied for function uuid7_unmask/ ],
	[ "SET uid.mask_key = '$key2'", qr/permission denied to set parameter "uid\.mask_key"/ ],
	[ "ALTER ROLE hostile SET uid.mask_key = '$key2'", qr/permission denied to set parameter "uid\.mask_key"/ ],
	[ 'SET uid.mask_key FROM CURRENT', qr/$no_examine/ ]);
for my $p (@probes)
{
	($ret, $out, $err) = as('hostile', $p->[0]);
	like($err, $p->[1], "ordinary role: $p->[0] is refused");
	unlike("$out $err", qr/$key1|$kcv1/i, "ordinary role: $p->[0] shows neither key nor check value");
}
($ret, $out, $err) = as('hostile',
	q{SELECT count(*) FROM pg_settings WHERE name LIKE 'uid.mask%'});
is($out, '0', 'ordinary role: no pg_settings row');
($ret, $out, $err) = as('hostile', 'SHOW ALL');
unlike($out, qr/uid\.mask_key|$key1/i, 'ordinary role: SHOW ALL has no uid.mask_key');
($ret, $out, $err) = as('hostile',
	q{SELECT coalesce(string_agg(array_to_string(setconfig, ','), ';'), '') FROM pg_db_role_setting});
unlike($out, qr/uid\.mask_key|$key1/i, 'ordinary role: pg_db_role_setting holds no key');

# the explicit-key functions and the text forms are for everyone
($ret, $out, $err) = as('hostile',
	qq{SELECT uid_unmask(uid_mask(42, '\\x$key2'), '\\x$key2'), uid_from_text(uid_to_text(42))});
is($out, '42|42', 'ordinary role: explicit-key masking and text forms work');

# a role granted EXECUTE uses the key without seeing it
($ret, $out, $err) = as('app',
	qq{SELECT uid_mask(1) = uid_mask(1, '\\x$key1'), uid_unmask(uid_mask(7))});
is($out, 't|7', 'granted role: uid_mask() uses the key from postgresql.conf');
($ret, $out, $err) = as('app', 'SHOW uid.mask_key');
like($err, $no_examine, 'granted role: still cannot SHOW the key');

# per-database and per-role settings are refused, even for a superuser
($ret, $out, $err) = $node->psql('postgres',
	"ALTER DATABASE postgres SET uid.mask_key = '$key2'");
like($err, qr/uid\.mask_key cannot be set for a database, a role or a function/,
	'ALTER DATABASE ... SET uid.mask_key is refused');
unlike($err, qr/$key2/i, 'the refusal does not quote the key');

# ---------------------------------------------------------------------------
# Reloads
# ---------------------------------------------------------------------------
# A new key: the postmaster's "changed to" line shows the check value.
my $offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "uid.mask_key = '$key2'\n");
$node->reload;
$node->wait_for_log(
	qr/parameter "uid\.mask_key" changed to "AES-128 key, check value $kcv2"/,
	$offset);
pass('reload with a new key: the log line gives the check value');
ok( $node->poll_query_until(
		'postgres', "SELECT current_setting('uid.mask_key') LIKE '%$kcv2'"),
	'reload with a new key: new sessions use it');
($ret, $out, $err) = as('app',
	qq{SELECT uid_mask(1) = uid_mask(1, '\\x$key2')});
is($out, 't', 'reload with a new key: uid_mask() uses it');

# A bad key: refused without its text, the last good key stays.
my $bad = 'ThisIsNotAKeyButASecretPassphrase';
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "uid.mask_key = '$bad'\n");
$node->reload;
$node->wait_for_log(qr/configuration file .* contains errors/, $offset);
like(
	slurp_file($node->logfile, $offset),
	qr/invalid value for parameter "uid\.mask_key"/,
	'reload with a bad key: the log says the value is invalid');
is($node->safe_psql('postgres', 'SHOW uid.mask_key'),
	"AES-128 key, check value $kcv2",
	'reload with a bad key: the last good key stays in force');

# An ALTER SYSTEM with a good key, then a reload.
$offset = -s $node->logfile;
$node->safe_psql('postgres', "ALTER SYSTEM SET uid.mask_key = '$key1'");
$node->reload;
$node->wait_for_log(
	qr/parameter "uid\.mask_key" changed to "AES-128 key, check value $kcv1"/,
	$offset);
pass('ALTER SYSTEM and reload: the log line gives the check value');

# A bad key in the file at a start: a warning, and no key until it is fixed.
$node->safe_psql('postgres', 'ALTER SYSTEM RESET uid.mask_key');
$offset = -s $node->logfile;
$node->restart;
like(
	slurp_file($node->logfile, $offset),
	qr/WARNING:  invalid value for parameter "uid\.mask_key"/,
	'start with a bad key in the file: a warning in the log');
is($node->safe_psql('postgres', 'SHOW uid.mask_key'), '',
	'start with a bad key in the file: no key in force');
($state, $msg) = sqlstate_of($node, 'SELECT uid_mask(1)');
is($state, '55000', 'start with a bad key in the file: uid_mask() refuses with 55000');

# Nothing in the whole server log (at debug3) holds any of the keys.
$node->stop;
my $log = slurp_file($node->logfile);
unlike($log, qr/$key1/i, 'the server log never holds the first key');
unlike($log, qr/$key2/i, 'the server log never holds the second key');
unlike($log, qr/$bad/i, 'the server log never holds the bad value');
like($log, qr/uid\.mask_key/, '(the log does mention uid.mask_key)');

# ---------------------------------------------------------------------------
# Without shared_preload_libraries
# ---------------------------------------------------------------------------
my $plain = PostgreSQL::Test::Cluster->new('no_preload');
$plain->init;
$plain->start;
$plain->safe_psql('postgres', 'CREATE EXTENSION uid');
($state, $msg) = sqlstate_of($plain, 'SELECT uid_mask(1)');
is($state, '55000', 'not preloaded: uid_mask() refuses with 55000');
like($msg, qr/HINT:.*shared_preload_libraries.*second argument/s,
	'not preloaded: the hint names shared_preload_libraries and the explicit key');
is( $plain->safe_psql(
		'postgres',
		qq{SELECT uid_unmask(uid_mask(5, '\\x$key1'), '\\x$key1'), uuid_to_text('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')}),
	'5|01FWHE4YDGFK1SHH6W1G60EECF',
	'not preloaded: explicit-key masking and text forms work');

# A key in the configuration without preloading is an unrecognised setting
# that any role could read: the refusal says so.
$plain->append_conf('postgresql.conf', "uid.mask_key = '$key1'\n");
$plain->reload;
ok($plain->poll_query_until('postgres',
		"SELECT current_setting('uid.mask_key', true) IS NOT NULL"),
	'not preloaded: the key in the file became a placeholder');
($state, $msg) = sqlstate_of($plain, 'SELECT uuid7_mask(uuid7())');
is($state, '55000', 'not preloaded, key in the file: still refused');
like($msg, qr/DETAIL:.*every role can read with SHOW/s,
	'not preloaded, key in the file: the detail warns that every role can read it');
unlike($msg, qr/$key1/i, 'not preloaded: the refusal does not quote the key');
$plain->stop;

done_testing();
