# Two servers that apply each other's changes (native logical replication
# with origin = none, PostgreSQL 16 and later) and leave uid.worker_id at
# its default would both issue IDs with worker id 0: the same IDs, and
# replication stops on the first duplicate key.  uid_next() refuses there
# (UID02, state config_error), also in a session that issued IDs before the
# subscription was created; with a worker id set on each server, rows
# inserted on both at once replicate without a conflict.
#
# A local lease table that logical replication copies (a publication that
# includes it) or writes into (a subscription that includes it) is refused
# by the lease worker: each server's renewals would overwrite the other's
# row of the same worker id.  A publication of other schemas is fine.
#
# Facts by version, asserted below: origin = none exists from 16 on (15
# rejects the option, and pglogical is what 15 has: 131_pglogical.pl);
# FOR ALL TABLES EXCEPT exists from 19 on.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use UidTap;
use LeaseTest qw(lease_node wait_held poll_within);

my $per_node = 2000;	# rows each node inserts, in 4 clients
my $clients = 4;

my $a = logical_writer('two_way_a', max_logical_replication_workers => 8);
my $b = logical_writer('two_way_b', max_logical_replication_workers => 8);
my ($major) = ('' . $a->pg_version) =~ /^(\d+)/;

if ($major < 16)
{
	my ($ret, $out, $err) = $a->psql('postgres',
		"CREATE SUBSCRIPTION s CONNECTION '@{[ conninfo($b) ]}' PUBLICATION p"
		  . " WITH (connect = false, origin = none)");
	like($err, qr/unrecognized subscription parameter: "origin"/,
		"PostgreSQL $major has no origin = none: two-way native replication needs 16");
	is($a->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
		'a subscription-free server keeps the default worker id');
}
else
{
	# --- default worker ids: both issue, until the subscriptions exist
	my $early = $a->background_psql('postgres', on_error_stop => 0);
	is($early->query_safe('SELECT (uid_decode(uid_next())).worker_id'), '0',
		'before any subscription: the default worker id 0');
	for my $pair ([ $a, $b ], [ $b, $a ])
	{
		my ($sub, $pub) = @$pair;
		$pub->safe_psql('postgres', 'CREATE PUBLICATION p FOR TABLE t');
	}
	for my $pair ([ $a, $b, 'from_b' ], [ $b, $a, 'from_a' ])
	{
		my ($sub, $pub, $name) = @$pair;
		$sub->safe_psql('postgres',
			"CREATE SUBSCRIPTION $name CONNECTION '@{[ conninfo($pub) ]}' PUBLICATION p"
			  . " WITH (origin = none, copy_data = false)");
	}
	for my $pair ([ $a, 'from_b' ], [ $b, 'from_a' ])
	{
		my ($node, $name) = @$pair;
		my $who = $node->name;
		my ($state, $err) = sqlstate_of($node, 'SELECT uid_next()');
		is($state, 'UID02', "$who: uid_next() refuses with UID02");
		like($err, qr/DETAIL:\s+Subscription "$name" applies the changes of another server \(origin = none\), and uid\.worker_id is not set/,
			"$who: the detail names the subscription");
		like($err, qr/HINT:.*own uid\.worker_id.*uid\.worker_id = 'lease'/s, "$who: the hint says what to set");
		($state) = sqlstate_of($node, q{INSERT INTO t (node) VALUES ('x')});
		is($state, 'UID02', "$who: an INSERT with DEFAULT uid_next() refuses too");
		is($node->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
			'static|config_error', "$who: uid_lease_status() says config_error");
		like($node->safe_psql('postgres', 'SELECT last_error FROM uid_lease_status()'),
			qr/Subscription "$name"/, "$who: its last_error names the subscription");
		like($node->safe_psql('postgres', 'SELECT uuid7()'), qr/^[0-9a-f-]{36}$/,
			"$who: uuid7() carries no worker id and still works");
	}
	# the session that issued before sees the subscription without a restart
	$early->query('SELECT uid_next()');
	like($early->{stderr}, qr/uid_next\(\) has no worker id: this server applies another writer's changes/,
		'a session that issued IDs before the subscription existed refuses now');
	$early->quit;

	# a subscription altered to origin = any is no longer recognised
	$a->safe_psql('postgres', 'ALTER SUBSCRIPTION from_b SET (origin = any)');
	is($a->safe_psql('postgres', 'SELECT (uid_decode(uid_next())).worker_id'), '0',
		'origin = any is not recognised: the default worker id is used again (documented)');
	$a->safe_psql('postgres', 'ALTER SUBSCRIPTION from_b SET (origin = none)');
	my ($state) = sqlstate_of($a, 'SELECT uid_next()');
	is($state, 'UID02', 'set back to origin = none: refused again, without a restart');

	# --- a worker id set on each node, even 0: concurrent inserts replicate
	# (the subscriptions are disabled around the restarts, whose broken
	# connections would count as apply errors)
	$a->safe_psql('postgres', 'ALTER SUBSCRIPTION from_b DISABLE');
	$b->safe_psql('postgres', 'ALTER SUBSCRIPTION from_a DISABLE');
	$a->append_conf('postgresql.conf', "uid.worker_id = 0\n");
	$b->append_conf('postgresql.conf', "uid.worker_id = 5\n");
	$_->restart for $a, $b;
	$a->safe_psql('postgres', 'ALTER SUBSCRIPTION from_b ENABLE');
	$b->safe_psql('postgres', 'ALTER SUBSCRIPTION from_a ENABLE');
	$_->safe_psql('postgres', 'SELECT pg_stat_reset_subscription_stats(NULL)') for $a, $b;
	is($a->safe_psql('postgres', 'SELECT mode, state FROM uid_lease_status()'),
		'static|static', 'uid.worker_id = 0 set explicitly: state static');

	insert_on_all([ $a, $b ], { two_way_a => 0, two_way_b => 5 }, $per_node, $clients);
	for my $node ($a, $b)
	{
		is($node->safe_psql('postgres',
				'SELECT COALESCE(sum(apply_error_count), 0) FROM pg_stat_subscription_stats'),
			'0', $node->name . ': no apply error (no conflict)');
		ok(!$node->log_contains('duplicate key value violates unique constraint'),
			$node->name . ': no duplicate key in the log');
	}
	$a->safe_psql('postgres', 'DROP SUBSCRIPTION from_b');
	$b->safe_psql('postgres', 'DROP SUBSCRIPTION from_a');
}

# --- a local lease table in publications
my $l = lease_node('lease_pub', conf => "wal_level = logical\nmax_wal_senders = 10\nmax_replication_slots = 10\n");
$l->start;
$l->safe_psql('postgres', 'CREATE EXTENSION uid');
wait_held($l);

# Polls until the lease worker refuses (config_error); returns last_error.
sub refused
{
	my ($node) = @_;
	poll_within($node, 60, "SELECT state = 'config_error' FROM uid_lease_status()")
	  or return $node->safe_psql('postgres', 'SELECT state FROM uid_lease_status()');
	return $node->safe_psql('postgres', 'SELECT last_error FROM uid_lease_status()');
}

$l->safe_psql('postgres', 'CREATE PUBLICATION everything FOR ALL TABLES');
like(refused($l), qr/the lease table uid_lease\.(lease|tenure) is in publication "everything" \(FOR ALL TABLES\)/,
	'FOR ALL TABLES: the lease worker refuses, and the state says why');
my ($state, $err) = sqlstate_of($l, 'SELECT uid_next()');
is($state, 'UID02', 'uid_next() refuses with UID02');
like($err, qr/DETAIL:.*publication "everything" \(FOR ALL TABLES\)/, 'the detail names the publication');
like($err, qr/HINT:.*FOR TABLES IN SCHEMA/, 'the hint says how to leave uid_lease out');
if ($major >= 19)
{
	like($err, qr/HINT:.*FOR ALL TABLES EXCEPT \(TABLE uid_lease\.lease, uid_lease\.tenure\)/,
		"PostgreSQL $major: the hint names FOR ALL TABLES EXCEPT");
}
else
{
	unlike($err, qr/EXCEPT/, "PostgreSQL $major has no FOR ALL TABLES EXCEPT: the hint does not offer it");
	my ($ret, $out, $perr) = $l->psql('postgres',
		'CREATE PUBLICATION e FOR ALL TABLES EXCEPT (TABLE uid_lease.lease)');
	like($perr, qr/syntax error/, "PostgreSQL $major: FOR ALL TABLES EXCEPT is a syntax error");
}
ok($l->log_contains('WARNING: .*uid: refusing the lease table: the lease table uid_lease\.\w+ is in publication "everything"'),
	'the refusal is logged');

$l->safe_psql('postgres', 'DROP PUBLICATION everything; CREATE PUBLICATION mine FOR TABLES IN SCHEMA public');
wait_held($l);
like($l->safe_psql('postgres', 'SELECT uid_next()'), qr/^\d+$/,
	'FOR TABLES IN SCHEMA public: the lease is taken again, without a restart');

$l->safe_psql('postgres', 'CREATE PUBLICATION leases FOR TABLES IN SCHEMA uid_lease');
like(refused($l), qr/is in publication "leases" \(FOR TABLES IN SCHEMA\)/,
	'FOR TABLES IN SCHEMA uid_lease: refused');
$l->safe_psql('postgres', 'DROP PUBLICATION leases');
wait_held($l);

if ($major >= 19)
{
	$l->safe_psql('postgres',
		'CREATE PUBLICATION most FOR ALL TABLES EXCEPT (TABLE uid_lease.lease, uid_lease.tenure)');
	ok(poll_within($l, 60, "SELECT count(*) = 0 FROM pg_publication_tables WHERE schemaname = 'uid_lease'"),
		'FOR ALL TABLES EXCEPT leaves the lease tables out');
	wait_held($l);
	like($l->safe_psql('postgres', 'SELECT uid_next()'), qr/^\d+$/, 'and the lease is kept');
	$l->safe_psql('postgres', 'DROP PUBLICATION most');
}

# --- a local lease table that a subscription writes into
my $p = uid_node('lease_publisher', wal_level => 'logical', max_wal_senders => 10,
	max_replication_slots => 10, 'uid.worker_id' => 9);
$p->start;
$p->safe_psql('postgres', q{
	CREATE SCHEMA uid_lease;
	CREATE TABLE uid_lease.lease (worker_id int PRIMARY KEY);
	CREATE PUBLICATION lease_rows FOR TABLE uid_lease.lease;
});
$l->safe_psql('postgres',
	"CREATE SUBSCRIPTION lease_rows CONNECTION '@{[ conninfo($p) ]}' PUBLICATION lease_rows"
	  . " WITH (copy_data = false, enabled = false)");
like(refused($l), qr/the lease table uid_lease\.lease receives the rows of another server through subscription "lease_rows"/,
	'a subscription that writes into the lease table: refused');
($state) = sqlstate_of($l, 'SELECT uid_next()');
is($state, 'UID02', 'uid_next() refuses');
$l->safe_psql('postgres', 'DROP SUBSCRIPTION lease_rows');
wait_held($l);
pass('subscription dropped: the lease is taken again');

$_->stop for grep { defined } $l, $p, $a, $b;
done_testing();
