# pg_dump keeps tickets and counters: the ticket sequences (created after
# CREATE EXTENSION, so not extension members) are dumped with their state,
# and the metadata, counter settings, ranges and counter values are dumped
# as extension configuration.  A restored database goes on where the
# original stopped.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('dump', 'uid.worker_id' => 3);
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION uid;
SELECT uid_ticket_create('orders', 2, 2);
SELECT uid_ticket_create('batches', 1, 3, 4);
SELECT uid_ticket_next('orders') FROM generate_series(1, 5);
SELECT uid_ticket_next_block('batches') FROM generate_series(1, 2);
SELECT uid_counter_configure('REQ', start => 100);
SELECT uid_counter_configure('REQ', 'acme', width => 5);
SELECT uid_counter_set_range('acme', 'SHR', 1, 50);
SELECT uid_counter_set_range('globex', 'SHR', 51, 100);
SELECT uid_counter_next('acme', 'REQ') FROM generate_series(1, 3);
SELECT uid_counter_next('acme', 'SHR') FROM generate_series(1, 2);
});

my $listing = q{SELECT name, node, nodes, block, last_issued FROM uid_tickets ORDER BY name};
my $settings = q{SELECT * FROM uid_counter_settings ORDER BY prefix, tenant NULLS FIRST};
my $counters = q{SELECT prefix, tenant, first_value, last_value, last_id FROM uid_counters ORDER BY 1, 2};
my %before = map { $_ => $node->safe_psql('postgres', $_) } ($listing, $settings, $counters);

# the ticket sequences are not extension members
is($node->safe_psql('postgres', q{
SELECT count(*) FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
 WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'S'}),
	'0', 'ticket sequences are not extension members');

my $dumpfile = $node->basedir . '/dump.sql';
$node->command_ok(
	[ 'pg_dump', '-d', $node->connstr('postgres'), '-f', $dumpfile ],
	'pg_dump succeeds');
my $dump = slurp_file($dumpfile);
like($dump, qr/CREATE SEQUENCE uid_ticket\.orders/, 'the dump creates the ticket sequence');
like($dump, qr/setval\('uid_ticket\.orders', 10, true\)/, 'the dump keeps the sequence position');
like($dump, qr/COPY uid_ticket\._tickets/, 'the dump keeps the ticket metadata');
like($dump, qr/COPY uid_counter\.counters/, 'the dump keeps the counter values');

$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok(
	[ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-d', $node->connstr('restored'), '-f', $dumpfile ],
	'the dump restores');

for my $q ($listing, $settings, $counters)
{
	is($node->safe_psql('restored', $q), $before{$q}, "restored: $q");
}

# the restored database goes on where the original stopped
is($node->safe_psql('restored', q{SELECT uid_ticket_next('orders')}), '12',
	'restored ticket continues the series');
is($node->safe_psql('restored', q{SELECT first || ' ' || last FROM uid_ticket_next_block('batches')}),
	'25 34', 'restored block ticket continues the series');
is($node->safe_psql('restored', q{SELECT uid_counter_next('acme', 'REQ')}), 'REQ-00103',
	'restored counter continues');
is($node->safe_psql('restored', q{SELECT uid_counter_next('acme', 'SHR')}), 'SHR-003',
	'restored ranged counter continues');
my ($ret, $out, $err) = $node->psql('restored',
	q{SELECT uid_counter_set_range('initech', 'SHR', 40, 60)});
like($err, qr/overlaps the range of tenant/, 'restored ranges still exclude overlaps');

$node->stop;
done_testing();
