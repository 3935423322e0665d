# pg_dump / pg_restore into a new server keeps every value and setting, and
# new IDs there never collide with restored ones, even with the same worker
# id and a clock behind the original's.  uuid7() stays ordered across clean
# and crash restarts with the clock stepped back.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

# ---------------------------------------------------------------------------
# Dump and restore into another server
# ---------------------------------------------------------------------------

my $a = uid_node('origin', 'uid.worker_id' => 3);
$a->start;
$a->safe_psql('postgres', q{
	CREATE EXTENSION uid;
	CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(),
	                     ref uuid NOT NULL UNIQUE DEFAULT uuid7(), n int);
	INSERT INTO orders (n) SELECT g FROM generate_series(1, 5000) g;
	SELECT uid_ticket_create('invoices', 1, 2);
	SELECT uid_ticket_next('invoices') FROM generate_series(1, 7);
	SELECT uid_counter_configure('REQ', start => 100, width => 5);
	SELECT uid_counter_configure('REQ', 'acme', width => 6);
	SELECT uid_counter_next('acme', 'REQ') FROM generate_series(1, 3);
	SELECT uid_counter_next('globex', 'REQ');
});

my %q = (
	orders   => q{SELECT count(*), md5(string_agg(id || ',' || ref || ',' || n, ';' ORDER BY id)) FROM orders},
	tickets  => q{SELECT name, node, nodes, block, last_issued FROM uid_tickets ORDER BY name},
	settings => q{SELECT * FROM uid_counter_settings ORDER BY prefix, tenant NULLS FIRST},
	counters => q{SELECT prefix, tenant, last_id FROM uid_counters ORDER BY 1, 2},
	defaults => q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'orders'::regclass ORDER BY adnum});
my %before = map { $_ => $a->safe_psql('postgres', $q{$_}) } keys %q;
my $max_id  = $a->safe_psql('postgres', 'SELECT max(id) FROM orders');
my $max_ref = $a->safe_psql('postgres', 'SELECT max(ref::text) FROM orders');

my $dump = $a->basedir . '/origin.dump';
$a->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $a->connstr('postgres') ],
	'pg_dump -Fc of a database using uid');

# The new server has the same worker id and a clock 30 s behind.
my $bclock = PostgreSQL::Test::Utils::tempdir() . '/restored.clock';
set_clock($bclock, '-30');
my $b = uid_node('restored', 'uid.worker_id' => 3);
faketime_start($b, $bclock);
$b->safe_psql('postgres', 'CREATE DATABASE app');
$b->command_ok([ 'pg_restore', '--exit-on-error', '-d', $b->connstr('app'), $dump ],
	'pg_restore into a new server');

for my $k (sort keys %q)
{
	is($b->safe_psql('app', $q{$k}), $before{$k}, "restored intact: $k");
}

# Its clock is behind the restored IDs: the operator moves the generators
# past them; uid_next() then refuses while the clock is behind, never
# issuing an ID that could equal a restored one.
is($b->safe_psql('app', "SELECT uid_advance_past($max_id)"), 't',
	'uid_advance_past() moves the generator past the restored IDs');
my ($state) = sqlstate_of($b, 'SELECT uid_next()', 'app');
is($state, 'UID01', 'uid_next() refuses while the clock is behind the restored IDs');
is($b->safe_psql('app', "SELECT uuid7_advance_past('$max_ref')"), 't',
	'uuid7_advance_past() moves uuid7() past the restored keys');

set_clock($bclock, '+0');
$b->safe_psql('app', 'INSERT INTO orders (n) SELECT g FROM generate_series(5001, 6000) g');
is( $b->safe_psql(
		'app', qq{
	SELECT count(*) FILTER (WHERE n > 5000 AND (id <= $max_id OR ref::text <= '$max_ref')),
	       count(*), count(DISTINCT id), count(DISTINCT ref)
	FROM orders}), '0|6000|6000|6000',
	'new IDs and UUIDs on the restored server are above every restored one');
is($b->safe_psql('app', q{SELECT uid_ticket_next('invoices'), uid_counter_next('acme', 'REQ')}),
	'15|REQ-000103', 'tickets and counters go on where the dump left them (acme: start 100 from the prefix, width 6 of its own)');

# The move is durable: after a crash, still above.
kill9_all($b);
faketime_start($b, $bclock);
cmp_ok($b->safe_psql('app', 'SELECT uid_next()'), '>', $max_id,
	'after a crash the restored server still issues above the restored IDs');
$b->stop;
$a->stop;

# ---------------------------------------------------------------------------
# uuid7() order across restarts with the clock stepped back
# ---------------------------------------------------------------------------

my $cclock = PostgreSQL::Test::Utils::tempdir() . '/uuid7.clock';
set_clock($cclock, '+0');
my $c = uid_node('uuid7restart', 'uid.worker_id' => 4);
faketime_start($c, $cclock);
$c->safe_psql('postgres', 'CREATE EXTENSION uid');
my $u1 = $c->safe_psql('postgres', 'SELECT uuid7()');

set_clock($cclock, '-60');
$c->stop('fast');
faketime_start($c, $cclock);
my $u2 = $c->safe_psql('postgres', 'SELECT uuid7()');
ok($u2 gt $u1, "uuid7() after a clean restart with the clock 60 s back: $u2 > $u1");

set_clock($cclock, '-120');
$c->safe_psql('postgres', 'SELECT uuid7() FROM generate_series(1, 1000)');
my $u3 = $c->safe_psql('postgres', 'SELECT uuid7()');
kill9_all($c);
faketime_start($c, $cclock);
my $u4 = $c->safe_psql('postgres', 'SELECT uuid7()');
ok($u4 gt $u3, "uuid7() after a crash with the clock 120 s back: $u4 > $u3");
$c->stop;

done_testing();
