# uid's own tables under publications of every table (FOR ALL TABLES).
#
# One way (blue/green, every version): a copy with copy_data finishes for
# every table (CREATE EXTENSION seeds no row), another server's ticket
# metadata arrives without its sequence and the subscriber makes its own
# ticket beside it, counters refuse on the subscriber except for a range of
# its own, and a counter grant of a role the subscriber lacks does not stop
# the apply.
#
# Two ways (PostgreSQL 16 and later: a subscription's origin = none, which
# 15 lacks, keeps changes from going round in circles): tickets created on
# both servers within the lag, counters drawn on both from each server's
# own tenant and range (no number twice), and grants of roles the other
# server lacks, all without stopping either apply worker.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use UidTap;

# The state of a subscriber: every table of its subscriptions ready ('r').
sub wait_until_ready
{
	my ($node) = @_;
	return $node->poll_query_until('postgres', q{
		SELECT count(*) > 0 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel});
}

# Apply and copy errors of every subscription of a node since it started:
# every *_error_count column of pg_stat_subscription_stats (19 split
# sync_error_count into one for tables and one for sequences).
sub apply_errors
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{
		SELECT coalesce(sum(e.value::bigint), 0)
		  FROM pg_stat_subscription_stats s, json_each_text(row_to_json(s)) e
		 WHERE e.key LIKE '%error_count'});
}

sub new_node
{
	my ($name, $worker, $counter_node) = @_;
	my $node = uid_node($name, init => { allows_streaming => 'logical' },
		'uid.worker_id' => $worker, 'uid.counter_node' => $counter_node);
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION uid;
		CREATE TABLE app_rows (id int PRIMARY KEY, note text);
	});
	return $node;
}

sub subscribe
{
	my ($sub, $pub, $name, $options) = @_;
	(my $conn = $pub->connstr('postgres')) =~ s/'/''/g;
	$sub->safe_psql('postgres',
		"CREATE SUBSCRIPTION $name CONNECTION '$conn' PUBLICATION pub_all WITH ($options)");
	return;
}

# ---------------------------------------------------------------------------
# One way: blue publishes everything, green copies it
# ---------------------------------------------------------------------------

my $blue  = new_node('blue',  1, 'blue');
my $green = new_node('green', 2, 'green');

# Blue's state before the copy: a ticket, counters (one of them ranged, so
# range_epoch has its row), and a grant of a role green does not have.
$blue->safe_psql('postgres', q{
	CREATE ROLE only_on_blue;
	SELECT uid_ticket_create('orders', 1, 2);
	SELECT uid_ticket_next('orders') FROM generate_series(1, 3);
	SELECT uid_counter_next('acme', 'REQ') FROM generate_series(1, 5);
	SELECT uid_counter_set_range('acme-blue', 'TKT', 1, 1000000, node => 'blue');
	SELECT uid_counter_set_range('acme-green', 'TKT', 1000001, 2000000, node => 'green');
	SELECT uid_counter_grant('acme', 'only_on_blue');
	CREATE PUBLICATION pub_all FOR ALL TABLES;
});
is($blue->safe_psql('postgres', 'SELECT count(*) FROM uid_counter.range_epoch'), '1',
	'blue: a range change wrote the row of range_epoch');
is($green->safe_psql('postgres', 'SELECT count(*) FROM uid_counter.range_epoch'), '0',
	'green: CREATE EXTENSION seeded no row');

subscribe($green, $blue, 'green_from_blue', 'copy_data = true');
ok(wait_until_ready($green), 'green: the initial copy of every table finished (srsubstate r)');
is( $green->safe_psql('postgres', q{
	SELECT count(*) FROM pg_subscription_rel
	 WHERE srrelid IN ('uid_counter.range_epoch'::regclass, 'uid_counter.grants'::regclass,
	                   'uid_counter.counters'::regclass, 'uid_ticket._tickets'::regclass)
	   AND srsubstate = 'r'}), '4',
	'green: range_epoch, grants, counters and _tickets are among the copied tables');
is( $green->safe_psql('postgres', q{
	SELECT (SELECT count(*) FROM uid_counter.range_epoch) || '/' ||
	       (SELECT string_agg(role || ':' || applies, ',') FROM uid_counter_grants)}),
	'1/only_on_blue:false',
	'green: the copy brought range_epoch and the grant of a role green lacks (inert there)');

# A later row still arrives: the apply goes on.
$blue->safe_psql('postgres', q{
	SELECT uid_counter_grant('acme', 'only_on_blue', 'INV');
	INSERT INTO app_rows VALUES (1, 'after the grants');
});
$blue->wait_for_catchup('green_from_blue');
is($green->safe_psql('postgres', 'SELECT note FROM app_rows WHERE id = 1'), 'after the grants',
	'green: a row written after a grant of a role green lacks arrives');
is(apply_errors($green), '0', 'green: no apply or copy error');

# Tickets: blue's metadata without its sequence.
my ($state, $err) = sqlstate_of($green, q{SELECT uid_ticket_next('orders')});
is($state, '55000', 'green: drawing another server\'s ticket fails with 55000');
like($err, qr/ticket metadata from another node/, '... saying the metadata is another node\'s');
like($err, qr/HINT:.*uid_ticket_create/, '... with a hint');
($state) = sqlstate_of($green, q{SELECT uid_ticket_create('orders', 1, 2)});
is($state, '42710', 'green: node 1 is blue\'s, refused');
is( $green->safe_psql('postgres', q{
	SELECT uid_ticket_create('orders', 2, 2);
	SELECT string_agg(uid_ticket_next('orders')::text, ',') FROM generate_series(1, 3);
	SELECT first FROM uid_ticket_next_block('orders');}), "uid_ticket.orders\n2,4,6\n8",
	'green: its own ticket beside blue\'s metadata, drawn by uid_ticket_next and _next_block');
is( $green->safe_psql('postgres', q{
	SELECT string_agg(node || ':' || (sequence IS NOT NULL), ',' ORDER BY node) FROM uid_tickets}),
	'1:false,2:true', 'green: uid_tickets shows which row is green\'s');
$green->safe_psql('postgres', q{SELECT uid_ticket_drop('orders')});
is($green->safe_psql('postgres', q{SELECT string_agg(node::text, ',') FROM uid_ticket._tickets}), '1',
	'green: dropping its ticket keeps blue\'s row');
$green->safe_psql('postgres', q{SELECT uid_ticket_drop('orders')});
is($green->safe_psql('postgres', q{SELECT count(*) FROM uid_ticket._tickets}), '0',
	'green: dropping again removes blue\'s metadata');
is($blue->safe_psql('postgres', q{SELECT uid_ticket_next('orders')}), '7',
	'blue: its ticket goes on');

# Counters: green receives blue's counter changes, so it refuses, except
# for the range whose node is green.
($state, $err) = sqlstate_of($green, q{SELECT uid_counter_next('acme', 'REQ')});
is($state, 'UID06', 'green: a replicated counter refuses with UID06');
like($err, qr/receives replicated changes/, '... saying why');
like($err, qr/HINT:.*uid.counter_node/, '... with the per-node recipe in the hint');
($state) = sqlstate_of($green, q{SELECT uid_counter_next('acme-blue', 'TKT')});
is($state, 'UID06', 'green: blue\'s range refuses');
($state) = sqlstate_of($blue, q{SELECT uid_counter_next('acme-green', 'TKT')});
is($state, 'UID06', 'blue: green\'s range refuses');
my $on_blue = $blue->safe_psql('postgres',
	q{SELECT string_agg(uid_counter_next('acme-blue', 'TKT'), ',') FROM generate_series(1, 200)});
my $on_green = $green->safe_psql('postgres',
	q{SELECT string_agg(uid_counter_next('acme-green', 'TKT'), ',') FROM generate_series(1, 200)});
my %seen;
$seen{$_}++ for split(/,/, $on_blue), split(/,/, $on_green);
is(scalar(keys %seen), 400, 'blue and green each draw from their own range: 400 distinct numbers');
is($blue->safe_psql('postgres', q{SELECT uid_counter_next('acme', 'REQ')}), 'REQ-006',
	'blue: its counters go on');

# Switch-over: blue stops drawing, green has all of it and drops the
# subscription, then draws again, above blue's last number.
$blue->wait_for_catchup('green_from_blue');
$green->safe_psql('postgres', 'DROP SUBSCRIPTION green_from_blue');
is($green->safe_psql('postgres', q{SELECT uid_counter_next('acme', 'REQ')}), 'REQ-007',
	'green: after DROP SUBSCRIPTION its counters draw');

$blue->stop;
$green->stop;

# ---------------------------------------------------------------------------
# Two ways (16 and later)
# ---------------------------------------------------------------------------

SKIP:
{
	skip 'two-way replication needs a subscription\'s origin = none (PostgreSQL 16)', 1
	  if $blue->pg_version < 16;

	my $east = new_node('east', 3, 'east');
	my $west = new_node('west', 4, 'west');
	$_->safe_psql('postgres', 'CREATE PUBLICATION pub_all FOR ALL TABLES') for $east, $west;
	subscribe($east, $west, 'east_from_west', 'origin = none, copy_data = false');
	subscribe($west, $east, 'west_from_east', 'origin = none, copy_data = false');
	ok(wait_until_ready($east) && wait_until_ready($west), 'two-way: both subscriptions ready');

	# Within the lag: each server creates its node of one ticket.
	$east->safe_psql('postgres', q{SELECT uid_ticket_create('orders', 1, 2)});
	$west->safe_psql('postgres', q{SELECT uid_ticket_create('orders', 2, 2)});
	# Ranges are set on one server and reach the other.
	$east->safe_psql('postgres', q{
		SELECT uid_counter_set_range('acme-east', 'REQ', 1, 1000000, node => 'east');
		SELECT uid_counter_set_range('acme-west', 'REQ', 1000001, 2000000, node => 'west');
		CREATE ROLE only_on_east;
		SELECT uid_counter_grant('acme-east', 'only_on_east');
	});
	$west->safe_psql('postgres', q{
		CREATE ROLE only_on_west;
		SELECT uid_counter_grant('acme-west', 'only_on_west');
	});
	$east->wait_for_catchup('west_from_east');
	$west->wait_for_catchup('east_from_west');

	for my $node ($east, $west)
	{
		is( $node->safe_psql('postgres', q{
			SELECT string_agg(node || ':' || (sequence IS NOT NULL), ',' ORDER BY node) FROM uid_tickets}),
			$node == $east ? '1:true,2:false' : '1:false,2:true',
			$node->name . ': both servers\' ticket rows, its own with a sequence');
	}
	is( $east->safe_psql('postgres', q{SELECT string_agg(uid_ticket_next('orders')::text, ',') FROM generate_series(1, 3)})
		  . '|'
		  . $west->safe_psql('postgres', q{SELECT string_agg(uid_ticket_next('orders')::text, ',') FROM generate_series(1, 3)}),
		'1,3,5|2,4,6', 'two-way: each server draws its own series');

	# Counters drawn on both, each from its own tenant.
	my %drawn;
	for my $round (1 .. 4)
	{
		$drawn{$_}++ for split /,/, $east->safe_psql('postgres',
			q{SELECT string_agg(uid_counter_next('acme-east', 'REQ'), ',') FROM generate_series(1, 250)});
		$drawn{$_}++ for split /,/, $west->safe_psql('postgres',
			q{SELECT string_agg(uid_counter_next('acme-west', 'REQ'), ',') FROM generate_series(1, 250)});
	}
	is(scalar(keys %drawn), 2000, 'two-way: 2,000 draws on both servers, 2,000 distinct numbers');
	($state) = sqlstate_of($west, q{SELECT uid_counter_next('acme-east', 'REQ')});
	is($state, 'UID06', 'west: east\'s range refuses');
	($state) = sqlstate_of($east, q{SELECT uid_counter_next('acme', 'INV')});
	is($state, 'UID06', 'east: a counter without a range of its own refuses');

	$east->safe_psql('postgres', q{INSERT INTO app_rows VALUES (2, 'from east')});
	$west->safe_psql('postgres', q{INSERT INTO app_rows VALUES (3, 'from west')});
	$east->wait_for_catchup('west_from_east');
	$west->wait_for_catchup('east_from_west');
	for my $node ($east, $west)
	{
		is( $node->safe_psql('postgres', q{
			SELECT (SELECT string_agg(note, ',' ORDER BY id) FROM app_rows) || '|' ||
			       (SELECT string_agg(tenant || '/' || role || ':' || applies, ',' ORDER BY tenant) FROM uid_counter_grants) || '|' ||
			       (SELECT string_agg(tenant || '=' || last_value, ',' ORDER BY tenant) FROM uid_counter.counters)}),
			$node == $east
			? 'from east,from west|acme-east/only_on_east:true,acme-west/only_on_west:false|acme-east=1000,acme-west=1001000'
			: 'from east,from west|acme-east/only_on_east:false,acme-west/only_on_west:true|acme-east=1000,acme-west=1001000',
			$node->name . ': later rows, both grants and both counters arrived');
		is(apply_errors($node), '0', $node->name . ': no apply error');
	}

	$east->stop;
	$west->stop;
}

done_testing();
