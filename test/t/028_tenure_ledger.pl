# The tenure ledger: one row per tenure of a worker id, with the window of
# milliseconds its holder could issue in.
#  - a shared store and three servers, pool of three ids, through a clean
#    restart, kill -9 (the id taken back after it expired), a frozen lease
#    worker (SIGSTOP) whose id a server cloned by base backup takes over, a
#    clock step back, and a store restart: afterwards no two tenures of one
#    worker id overlap, and every issued id resolves to exactly one tenure,
#    that of the server that issued it (uid_whence);
#  - a hand-made overlap in the ledger is reported by uid_tenure_overlaps(),
#    uid_whence(), uid_lease_ledger() and uid_stats;
#  - uid_audit() finds nothing on a clean table, and finds foreign ids and
#    ids from the future (bigint and uuid columns);
#  - a local store: the server's own tenures across restarts and kill -9;
#  - an ordinary role can neither read nor write the ledger.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use LeaseTest;
use UidTap qw(faketime_start set_clock);

my $coord = PostgreSQL::Test::Cluster->new('coord');
$coord->init;
$coord->start;
my $conninfo = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=postgres';
my $conf = "uid.lease_conninfo = '$conninfo'\nuid.lease_pool_size = 3\n";

# In a generating node: ids (every ID it issued, with the port of the
# server that issued it) and draw(n), which issues n IDs or skips a refusal.
my $draw_sql = q{
CREATE TABLE ids (id bigint PRIMARY KEY, port int NOT NULL);
CREATE FUNCTION draw(n int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE c int := 0;
BEGIN
	FOR i IN 1 .. n LOOP
		BEGIN
			INSERT INTO ids VALUES (uid_next(), current_setting('port')::int);
			c := c + 1;
		EXCEPTION WHEN OTHERS THEN NULL;
		END;
	END LOOP;
	RETURN c;
END $$;
};

# A started node: the extension, try_next() and draw().
sub setup_node
{
	my ($node) = @_;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	$node->safe_psql('postgres', try_next_sql());
	$node->safe_psql('postgres', $draw_sql);
	return $node;
}

my $clock = PostgreSQL::Test::Utils::tempdir() . '/gen1.clock';
my $gen1 = lease_node('gen1', conf => $conf, init => { allows_streaming => 1 });
faketime_start($gen1, $clock);
setup_node($gen1);
is((wait_held($gen1))[0], 0, 'gen1 holds worker id 0');
my $gen2 = lease_node('gen2', conf => $conf);
$gen2->start;
setup_node($gen2);
is((wait_held($gen2))[0], 1, 'gen2 holds worker id 1');
my $gen3 = lease_node('gen3', conf => $conf);
$gen3->start;
setup_node($gen3);
is((wait_held($gen3))[0], 2, 'gen3 holds worker id 2');

sub draw_all
{
	my ($n, @nodes) = @_;
	$_->safe_psql('postgres', "SELECT draw($n)") for @nodes;
	return;
}
draw_all(200, $gen1, $gen2, $gen3);

# a clean restart: the tenure is released, a new one begins
$gen1->stop;
faketime_start($gen1, $clock);
wait_held($gen1);
draw_all(200, $gen1);

# kill -9: the pool is full, gen2 takes its own id back once it expired
kill9_and_start($gen2);
is((wait_held($gen2))[0], 1, 'gen2 after kill -9 takes worker id 1 back, after its expiry');
draw_all(200, $gen2);

# a clock step back on gen1: refusals, then it issues again
set_clock($clock, '-1');
draw_all(50, $gen1);
set_clock($clock, '+0');
wait_held($gen1);
draw_all(200, $gen1);

# gen3's lease worker frozen: its backends issue until the deadline, then
# its id expires and a server cloned from gen1 by base backup takes it
my $frozen = $gen3->safe_psql('postgres', 'SELECT worker_pid FROM uid_lease_status()');
kill 'STOP', $frozen;
END { kill 'CONT', $frozen if $frozen; }
# its store session ends too (a network partition): its advisory lock goes
$coord->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_locks
	WHERE locktype = 'advisory' AND objid = 2 AND objsubid = 2});
draw_all(50, $gen3);
poll_within($gen3, 60, q{SELECT try_next() = 'UID02'}) or die 'gen3 kept issuing while frozen';
$gen1->backup('b');
my $clone = PostgreSQL::Test::Cluster->new('clone');
$clone->init_from_backup($gen1, 'b');
$clone->start;
is((wait_held($clone))[0], 2, 'the clone takes worker id 2 once the frozen holder\'s lease expired');
kill 'CONT', $frozen;
poll_within($gen3, 60, q{SELECT state <> 'held' AND state <> 'renewal_failing' FROM uid_lease_status()})
  or die 'gen3 did not notice the loss';
draw_all(200, $clone, $gen1, $gen2);

# a store restart: renewals fail a while, the leases carry on
$coord->restart;
draw_all(200, $gen1, $gen2, $clone);
wait_held($_) for ($gen1, $gen2, $clone);
draw_all(200, $gen1, $gen2, $clone);

# --- every issued id, with the port of its issuer, in gen1
$gen1->safe_psql('postgres', 'CREATE TABLE all_ids (id bigint PRIMARY KEY, port int NOT NULL)');
for my $node ($gen1, $gen2, $gen3, $clone)
{
	my $rows = $node->safe_psql('postgres', q{SELECT string_agg(id || ':' || port, ',') FROM ids});
	$gen1->safe_psql('postgres', qq{
INSERT INTO all_ids SELECT split_part(x, ':', 1)::bigint, split_part(x, ':', 2)::int
FROM unnest(string_to_array('$rows', ',')) AS x ON CONFLICT DO NOTHING});
}
my $total = $gen1->safe_psql('postgres', 'SELECT count(*) FROM all_ids');
cmp_ok($total, '>', 2000, "the servers issued $total IDs");
is($gen1->safe_psql('postgres', 'SELECT count(DISTINCT port) FROM all_ids'), '4', 'by four servers');

is($gen1->safe_psql('postgres', 'SELECT count(*) FROM uid_tenure_overlaps()'), '0',
	'no two tenures of one worker id overlap');
is( $gen1->safe_psql(
		'postgres', q{SELECT string_agg(DISTINCT ended_how, ',') FROM uid_tenures() WHERE ended_at IS NOT NULL}),
	'expired,released', 'tenures ended by a release and by an expiry');
is($gen1->safe_psql('postgres', q{SELECT count(*) FROM uid_tenures() WHERE ended_at IS NULL}), '3',
	'three tenures are open: gen1, gen2 and the clone');
is( $gen1->safe_psql(
		'postgres', q{
WITH t AS MATERIALIZED (SELECT * FROM uid_tenures())
SELECT count(*) FROM all_ids AS a
WHERE (SELECT array_agg(t.port) FROM t
       WHERE t.worker_id = (uid_decode(a.id)).worker_id
         AND (a.id >> 22) + 1767225600000 BETWEEN t.first_ms AND t.last_ms)
      IS DISTINCT FROM ARRAY[a.port]}), '0',
	'every issued id lies in exactly one tenure, its issuer\'s');
is( $gen1->safe_psql(
		'postgres', q{
SELECT count(*) FROM (SELECT id, port FROM all_ids ORDER BY random() LIMIT 40) AS s
WHERE (SELECT array_agg(w.port) FROM uid_whence(s.id) AS w) IS DISTINCT FROM ARRAY[s.port]}), '0',
	'uid_whence() of 40 issued ids names exactly the server that issued each');
is( $gen1->safe_psql(
		'postgres', q{SELECT count(*) FROM uid_audit('all_ids', 'id') WHERE kind <> 'total'}), '0',
	'uid_audit() finds nothing on the clean table');
is( $gen1->safe_psql(
		'postgres', q{SELECT sum(ids) FROM uid_audit('all_ids', 'id') WHERE kind = 'total'}), $total,
	'uid_audit() counts every id');

# --- uid_audit(): foreign ids and ids from the future
$gen1->safe_psql('postgres', q{
INSERT INTO all_ids SELECT uid_from_time(now()) | (700 << 12) | g, 0 FROM generate_series(1, 5) AS g;
INSERT INTO all_ids SELECT uid_from_time(now() + interval '1 day') | g, 0 FROM generate_series(1, 3) AS g});
is( $gen1->safe_psql(
		'postgres', q{SELECT string_agg(kind || ':' || worker_id || ':' || ids, ',' ORDER BY kind)
FROM uid_audit('all_ids', 'id') WHERE kind <> 'total'}),
	'future:0:3,unexplained:700:5', 'uid_audit() finds the foreign ids and those from the future');
# the same ids in a column of the uid type: the same findings, and
# uid_whence() of a uid value names its issuer
$gen1->safe_psql('postgres', q{CREATE TABLE all_uids AS SELECT id::uid AS id, port FROM all_ids});
is( $gen1->safe_psql(
		'postgres', q{SELECT string_agg(kind || ':' || coalesce(worker_id, -1) || ':' || ids, ',' ORDER BY kind, worker_id)
FROM uid_audit('all_uids', 'id')}),
	$gen1->safe_psql(
		'postgres', q{SELECT string_agg(kind || ':' || coalesce(worker_id, -1) || ':' || ids, ',' ORDER BY kind, worker_id)
FROM uid_audit('all_ids', 'id')}),
	'uid_audit() of a uid column finds what it finds in the bigint column');
is( $gen1->safe_psql(
		'postgres', q{
SELECT count(*) FROM (SELECT id, port FROM all_uids WHERE port <> 0 ORDER BY random() LIMIT 20) AS s
WHERE (SELECT array_agg(w.port) FROM uid_whence(s.id) AS w) IS DISTINCT FROM ARRAY[s.port]}), '0',
	'uid_whence() of 20 ids of the uid type names exactly the server that issued each');
$gen1->safe_psql('postgres', q{
CREATE TABLE uuids (u uuid);
INSERT INTO uuids SELECT uuid7() FROM generate_series(1, 10);
INSERT INTO uuids VALUES (uuid7(now() + interval '2 days'))});
is( $gen1->safe_psql(
		'postgres', q{SELECT string_agg(kind || ':' || ids, ',' ORDER BY kind) FROM uid_audit('uuids', 'u')}),
	'future:1,total:11', 'uid_audit() of a UUIDv7 column finds the one from the future');

# --- a hand-made overlap
my ($w0first, $w0last) = split /\|/, $coord->safe_psql('postgres',
	q{SELECT first_ms, last_ms FROM uid_lease.tenure WHERE worker_id = 0 ORDER BY first_ms LIMIT 1});
$coord->safe_psql('postgres', qq{
INSERT INTO uid_lease.tenure (worker_id, token, system_identifier, timeline, host, port, started_at, first_ms, last_ms)
VALUES (0, 42, 1, 1, 'intruder', 1, now(), $w0first, $w0first + 10)});
is($gen1->safe_psql('postgres', 'SELECT count(*) FROM uid_tenure_overlaps() WHERE worker_id = 0 AND 42 IN (token_a, token_b)'),
	'1', 'uid_tenure_overlaps() reports a hand-made overlap');
ok(poll_within($gen1, 60, q{SELECT tenure_overlaps = 1 AND tenures > 5 FROM uid_lease_ledger()}),
	'uid_lease_ledger() counts the overlap (and the tenures)');
ok(poll_within($gen2, 60, q{SELECT lease_tenure_overlaps = 1 FROM uid_stats}),
	'so does uid_stats on another server of the fleet');
my $in_window = $gen1->safe_psql('postgres', "SELECT ($w0first - 1767225600000) << 22");
is($gen1->safe_psql('postgres', "SELECT count(*) FROM uid_whence($in_window)"), '2',
	'uid_whence() of an id in the overlap names both tenures');
# uid_audit() agrees with a query over uid_tenures(), on NULLs, negative
# values and an id in the overlap (counted once per tenure it lies in)
$gen1->safe_psql('postgres', qq{
CREATE TABLE audit_mix AS SELECT id FROM all_ids;
INSERT INTO audit_mix VALUES (NULL), (-5), (-(1::bigint << 62)), ($in_window)});
my $audit_by_query = q{
WITH t AS (SELECT u.worker_id AS w, u.first_ms - 1767225600000 AS lo, u.last_ms - 1767225600000 AS hi
           FROM uid_tenures() AS u WHERE u.first_ms <= u.last_ms),
     i AS (SELECT a.id AS v, a.id >> 22 AS ms, (a.id >> 22) / 86400000 AS d, ((a.id >> 12) & 1023)::int AS w
           FROM audit_mix AS a WHERE a.id IS NOT NULL),
     k AS (SELECT i.*, i.ms > floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 1000 - 1767225600000 AS fut,
                  t.w IS NULL OR i.v < 0 AS unexp
           FROM i LEFT JOIN t ON t.w = i.w AND i.ms BETWEEN t.lo AND t.hi)
SELECT string_agg(x, ',' ORDER BY x) FROM (
    SELECT concat_ws(':', 'future', w, d, count(*), min(v)) FROM k WHERE fut GROUP BY w, d
    UNION ALL SELECT concat_ws(':', 'unexplained', w, d, count(*), min(v)) FROM k WHERE unexp AND NOT fut GROUP BY w, d
    UNION ALL SELECT concat_ws(':', 'total', w, count(*)) FROM k GROUP BY w) AS s(x)};
is( $gen1->safe_psql(
		'postgres', q{SELECT string_agg(x, ',' ORDER BY x) FROM (
    SELECT concat_ws(':', kind, worker_id, day - date '2026-01-01', ids, example) FROM uid_audit('audit_mix', 'id')) AS s(x)}),
	$gen1->safe_psql('postgres', $audit_by_query),
	'uid_audit() agrees with a query over uid_tenures() (an overlap, NULLs, negative values)');
$coord->safe_psql('postgres', 'DELETE FROM uid_lease.tenure WHERE token = 42');
ok(poll_within($gen1, 60, q{SELECT tenure_overlaps = 0 FROM uid_lease_ledger()}),
	'uid_lease_ledger() counts no overlap once the intruder is gone');

# --- an ordinary role: no reading through uid, no writing in the store
$gen1->safe_psql('postgres', 'CREATE ROLE reader LOGIN');
my ($ret, $out, $err) = $gen1->psql('postgres', 'SELECT count(*) FROM uid_whence(1)', extra_params => [ '-U', 'reader' ]);
like($err, qr/permission denied for function uid_whence/, 'an ordinary role may not call uid_whence()');
$gen1->safe_psql('postgres', 'GRANT pg_monitor TO reader');
($ret, $out, $err) = $gen1->psql('postgres', 'SELECT count(*) > 0 FROM uid_tenures()', extra_params => [ '-U', 'reader' ]);
is($out, 't', 'a member of pg_monitor reads the ledger');
$coord->safe_psql('postgres', 'CREATE ROLE intruder LOGIN');
for my $sql ('DELETE FROM uid_lease.tenure', 'UPDATE uid_lease.tenure SET last_ms = 0',
	"INSERT INTO uid_lease.tenure VALUES (0, 1, 1, 1, 'x', 1, now(), 0, 0)")
{
	($ret, $out, $err) = $coord->psql('postgres', $sql, extra_params => [ '-U', 'intruder' ]);
	like($err, qr/permission denied/, "an ordinary role of the store may not: $sql");
}

$_->stop for ($gen1, $gen2, $clone);
$gen3->stop('immediate');

# --- a local store: the server's own tenures across restarts and kill -9
my $local = lease_node('local', conf => "uid.lease_pool_size = 2\n");
$local->start;
setup_node($local);
wait_held($local);
draw_all(200, $local);
$local->restart;
wait_held($local);
draw_all(200, $local);
kill9_and_start($local);
wait_held($local);
draw_all(200, $local);
is($local->safe_psql('postgres', 'SELECT count(*) FROM uid_tenures()'), '3', 'local store: three tenures');
is($local->safe_psql('postgres', 'SELECT count(*) FROM uid_tenure_overlaps()'), '0', 'local store: no overlap');
is($local->safe_psql('postgres', q{SELECT count(*) FROM uid_audit('ids', 'id') WHERE kind <> 'total'}), '0',
	'local store: every id explained');
is( $local->safe_psql(
		'postgres', q{SELECT count(*) FROM (SELECT id FROM ids ORDER BY random() LIMIT 20) AS s
WHERE (SELECT count(*) FROM uid_whence(s.id)) <> 1}), '0', 'local store: uid_whence() names one tenure per id');
# uid_audit(): NULLs are not counted, a table with no rows has its total
# row of 0 only, a sample reads a part of the table (0.5 of about 300 pages)
$local->safe_psql('postgres', q{
CREATE TABLE many AS SELECT i.id FROM ids AS i, generate_series(1, 100);
INSERT INTO many VALUES (NULL), (NULL);
CREATE TABLE no_ids (id bigint)});
is($local->safe_psql('postgres', q{SELECT sum(ids) = 100 * (SELECT count(*) FROM ids) FROM uid_audit('many', 'id') WHERE kind = 'total'}),
	't', 'local store: uid_audit() counts every id, not the NULLs');
is($local->safe_psql('postgres', q{SELECT concat_ws(':', kind, worker_id, day, ids, example) FROM uid_audit('no_ids', 'id')}),
	'total:0', 'local store: uid_audit() of a table with no rows returns the total row of 0 only');
is( $local->safe_psql(
		'postgres', q{SELECT sum(ids) > 0 AND sum(ids) < (SELECT count(id) FROM many) FROM uid_audit('many', 'id', 0.5) WHERE kind = 'total'}),
	't', 'local store: uid_audit() with a sample of 0.5 reads a part of the table');
# a member of pg_monitor reads the local ledger (as its owner) and audits a
# table it may read
$local->safe_psql('postgres', 'CREATE ROLE watcher LOGIN IN ROLE pg_monitor; GRANT SELECT ON ids TO watcher');
my $some_id = $local->safe_psql('postgres', 'SELECT min(id) FROM ids');
is( $local->safe_psql(
		'postgres', qq{SELECT (SELECT count(*) FROM uid_tenures()) || ',' || (SELECT count(*) FROM uid_whence($some_id))
    || ',' || (SELECT count(*) FROM uid_audit('ids', 'id') WHERE kind <> 'total')}, extra_params => [ '-U', 'watcher' ]),
	'3,1,0', 'local store: a member of pg_monitor reads the ledger, finds an id\'s tenure and audits');
($ret, $out, $err) = $local->psql('postgres', q{SELECT * FROM uid_audit('many', 'id')}, extra_params => [ '-U', 'watcher' ]);
like($err, qr/permission denied for table many/, 'local store: uid_audit() of a table the caller may not read is refused');
# an ordinary role of the server (CREATE on public, as on clusters upgraded
# from 14): the ledger's rows are neither readable through uid nor writable
$local->safe_psql('postgres', 'CREATE ROLE mallory LOGIN; GRANT CREATE ON SCHEMA public TO PUBLIC');
for my $sql ('SELECT * FROM uid_tenures()', 'DELETE FROM uid_lease.tenure',
	'UPDATE uid_lease.tenure SET last_ms = first_ms')
{
	($ret, $out, $err) = $local->psql('postgres', $sql, extra_params => [ '-U', 'mallory' ]);
	like($err, qr/permission denied/, "local store: an ordinary role may not: $sql");
}
is($local->safe_psql('postgres', 'SELECT count(*) FROM uid_tenures()'), '3', 'local store: the three tenures remain');
$local->safe_psql('postgres', 'CREATE DATABASE other');
$local->safe_psql('other', 'CREATE EXTENSION uid');
($ret, $out, $err) = $local->psql('other', 'SELECT * FROM uid_tenures()');
like($err, qr/lease store is the database "postgres"/, 'local store: read in uid.lease_database only');
$local->stop;

# --- a store an administrator set up for uid 1.2: the lease table with
# grants, no ledger, no CREATE for the lease role.  Leases work, unrecorded,
# with a warning.
$coord->safe_psql('postgres', q{CREATE ROLE lease_a LOGIN; CREATE DATABASE fleet12});
$coord->safe_psql('fleet12', admin_lease_table_sql('lease_a'));
my $conninfo12 = 'host=' . $coord->host . ' port=' . $coord->port . ' dbname=fleet12 user=lease_a';
my $old_store = lease_node('old_store', conf => "uid.lease_conninfo = '$conninfo12'\n");
$old_store->start;
setup_node($old_store);
wait_held($old_store);
ok($old_store->log_contains('the lease store has no tenure ledger'), 'a store without a ledger the role may create: a warning');
is($old_store->safe_psql('postgres', 'SELECT draw(10)'), '10', 'and the server issues');
$old_store->stop;

$coord->stop;
done_testing();
