# Many clients drawing counter numbers at once, a quarter of them rolling
# back: every committed number of a (tenant, prefix) is unique, the committed
# numbers are exactly 1..N (no gaps), and tenants that share a prefix through
# ranges never print the same ID.  Also tickets drawn by many clients at once
# never repeat.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('stress', 'uid.worker_id' => 4);
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION uid;
CREATE TABLE issued (tenant text NOT NULL, id text NOT NULL, UNIQUE (tenant, id));
CREATE TABLE shared_issued (id text PRIMARY KEY);   -- no tenant: IDs of a shared prefix
CREATE TABLE tickets (name text, v bigint, PRIMARY KEY (name, v));
SELECT uid_counter_configure('REQ', 't2', width => 6);
SELECT uid_counter_set_range('t1', 'SHR', 1, 100000);
SELECT uid_counter_set_range('t2', 'SHR', 100001, 200000);
SELECT uid_counter_set_range('t3', 'SHR', 200001, 300000);
SELECT uid_ticket_create('stress', 1, 1, 1);
SELECT uid_ticket_create('stress_blocks', 1, 1, 7);
});

$node->pgbench(
	'--no-vacuum --client=8 --jobs=4 --transactions=150',
	0,
	[qr{actually processed: 1200/1200}],
	[qr{^$}],
	'8 clients draw counters, a quarter roll back',
	{
		'042_counters' => q{
\set t random(1, 3)
\set r random(1, 4)
BEGIN;
INSERT INTO issued SELECT 't' || :t, uid_counter_next('t' || :t, 'REQ');
INSERT INTO shared_issued SELECT uid_counter_next('t' || :t, 'SHR');
INSERT INTO tickets SELECT 'stress', uid_ticket_next('stress');
INSERT INTO tickets SELECT 'stress_blocks', generate_series(first, last, step) FROM uid_ticket_next_block('stress_blocks');
\if :r = 1
ROLLBACK;
\else
COMMIT;
\endif
}
	});

# Per tenant, the committed REQ numbers are 1..N: as many as the counter's
# last value, all distinct (the UNIQUE constraint), none above it.
my $res = $node->safe_psql('postgres', q{
SELECT string_agg(format('%s %s %s %s', i.tenant, i.n, i.maxn, c.last_value), ',' ORDER BY i.tenant)
  FROM (SELECT tenant, count(*) AS n,
               max(substr(id, 5)::bigint) AS maxn
          FROM issued GROUP BY tenant) i
  JOIN uid_counter.counters c ON c.prefix = 'REQ' AND c.tenant = i.tenant
});
my $ok = 1;
for my $row (split /,/, $res)
{
	my ($t, $n, $maxn, $last) = split / /, $row;
	$ok = 0 unless $n == $maxn && $maxn == $last;
	note("tenant $t: $n numbers committed, highest $maxn, counter at $last");
}
ok($ok && $res =~ /^t1 .*,t2 .*,t3 /, 'every tenant\'s committed numbers are exactly 1..N');
is($node->safe_psql('postgres', q{SELECT count(*) FROM issued WHERE tenant = 't2' AND id !~ '^REQ-[0-9]{6}$'}),
	'0', 't2 numbers are printed with width 6');

# The shared prefix: each tenant's numbers come from its range and are gap-free.
is($node->safe_psql('postgres', q{
SELECT count(*) FROM shared_issued
 WHERE NOT ((substr(id, 5)::bigint BETWEEN 1 AND 100000)
         OR (substr(id, 5)::bigint BETWEEN 100001 AND 200000)
         OR (substr(id, 5)::bigint BETWEEN 200001 AND 300000))}),
	'0', 'all shared-prefix numbers lie in the ranges');
is($node->safe_psql('postgres', q{
SELECT bool_and(n = hi - lo + 1)
  FROM (SELECT (substr(id, 5)::bigint - 1) / 100000 AS r, count(*) AS n,
               min(substr(id, 5)::bigint) AS lo, max(substr(id, 5)::bigint) AS hi
          FROM shared_issued GROUP BY 1) s}),
	't', 'each tenant\'s shared-prefix numbers are gap-free');

# Tickets: committed ones are unique (primary key) and every value of a
# rolled-back transaction is simply a gap.
is($node->safe_psql('postgres', q{
SELECT (SELECT count(*) FROM tickets) = 8 * (SELECT count(*) FROM issued)}),
	't', 'every committed transaction stored its 8 tickets, all unique');

$node->stop;
done_testing();
