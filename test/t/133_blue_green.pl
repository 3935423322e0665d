# Moving the writes to a new server (docs/operations.md, "Moving the writes:
# uid_catch_up()"): a blue/green cutover by logical replication.  Blue holds
# the application's tables; two green servers, with blue's static worker id
# and a clock 2 s behind blue's, receive them by a subscription with
# copy_data.  Then the writes move to green.
#
#   green_plain takes the writes as it is: its ticket sequence starts again
#   at 1 (logical replication does not carry sequences) and its uid_next()
#   issues blue's IDs again, so every one of its first 3000 inserts fails on
#   a unique column.  This is the fact uid_catch_up() exists for: if it did
#   nothing, green would fail the same way below.
#
#   green runs uid_catch_up() before its first write: uid_next() refuses
#   (UID01) while its clock is behind blue's last ID, then issues above it;
#   uuid7() sorts after blue's keys at once; the ticket sequence goes on
#   above blue's tickets in its own (odd) series.  3000 of 3000 inserts
#   succeed, no value twice.
#
# The clocks are frozen by libfaketime (an absolute time in the timestamp
# file), so that blue's IDs fall into known milliseconds and green's clock
# is exactly 2 s behind.  The three servers are of the version under test:
# a cutover between major versions (15 to 16, say) runs the same steps, and
# what uid_catch_up() reads and moves does not depend on the version blue
# ran (the recipe in docs/operations.md).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

plan skip_all => "libfaketime not found at $UidTap::LIBFAKETIME"
  unless -e $UidTap::LIBFAKETIME;

sub server
{
	my ($name) = @_;
	return faketime_node($name, 'uid.worker_id' => 5, init => { allows_streaming => 'logical' });
}

my $blue  = server('blue');
my $plain = server('green_plain');
my $green = server('green');

# Blue: the application's tables, written at 12:00:00 and at 12:00:02.
$blue->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	SELECT uid_ticket_create('orders', 1, 2);
	CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(),
	                     ticket bigint NOT NULL UNIQUE DEFAULT uid_ticket_next('orders'),
	                     item text);
	CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid7(), n integer);
	CREATE PUBLICATION app FOR TABLE orders, events, uid_ticket._tickets;});
for my $time ('2026-06-01 12:00:00', '2026-06-01 12:00:02')
{
	freeze_clock($blue, $time);
	$blue->safe_psql(
		'postgres', q{
		INSERT INTO orders (item) SELECT 'blue' FROM generate_series(1, 1500);
		INSERT INTO events (n) SELECT g FROM generate_series(1, 1500) g;});
}
is( $blue->safe_psql(
		'postgres', q{
	SELECT count(*), count(DISTINCT uid_time(id)), max(ticket), max(uid_time(id))
	FROM orders}),
	'3000|2|5999|2026-06-01 12:00:02+00',
	'blue: 3000 orders in two milliseconds, tickets up to 5999');
my $blue_max_id   = $blue->safe_psql('postgres', 'SELECT max(id) FROM orders');
my $blue_max_uuid = $blue->safe_psql('postgres',
	'SELECT id FROM events ORDER BY id DESC LIMIT 1');

# Each green: blue's schema (pg_dump --schema-only), then a subscription
# that copies the rows, at a clock 2 s behind blue's.
my $schema = $blue->basedir . '/schema.sql';
$blue->command_ok(
	[ 'pg_dump', '--schema-only', '--no-publications', '-d', $blue->connstr('postgres'), '-f', $schema ],
	'blue: pg_dump --schema-only');
(my $blue_conn = $blue->connstr('postgres')) =~ s/'/''/g;
for my $node ($plain, $green)
{
	$node->command_ok(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-f', $schema ],
		$node->name . ': blue\'s schema restored');
	freeze_clock($node, '2026-06-01 12:00:00');
	$node->safe_psql('postgres',
		"CREATE SUBSCRIPTION app_sub CONNECTION '$blue_conn' PUBLICATION app WITH (copy_data = true, slot_name = '"
		  . $node->name . "')");
}
for my $node ($plain, $green)
{
	$node->poll_query_until('postgres', q{
		SELECT (SELECT count(*) FROM pg_subscription_rel WHERE srsubstate <> 'r') = 0
		   AND (SELECT count(*) FROM orders) = 3000 AND (SELECT count(*) FROM events) = 3000})
	  or die $node->name . ' did not receive blue\'s rows';
	is( $node->safe_psql(
			'postgres', q{
		SELECT max(id), (SELECT id FROM events ORDER BY id DESC LIMIT 1),
		       (SELECT node || ' of ' || nodes FROM uid_tickets WHERE name = 'orders'),
		       (SELECT last_value || ',' || is_called FROM uid_ticket.orders)
		FROM orders}),
		"$blue_max_id|$blue_max_uuid|1 of 2|1,false",
		$node->name . ': blue\'s rows and ticket metadata copied; the ticket sequence was not');
}

# Writes on blue have stopped (there are no more) and each green has them
# all: the subscription is still enabled, and uid_catch_up() warns of it.
my ($ret, $out, $err) = $green->psql('postgres',
	q{SELECT count(*) > 0 FROM uid_catch_up(dry_run => true, allow_ahead => '5 seconds')});
like($err, qr/WARNING:  subscription "app_sub" is enabled/,
	'uid_catch_up() warns of an enabled subscription');
$_->safe_psql('postgres', 'ALTER SUBSCRIPTION app_sub DISABLE') for ($plain, $green);

# The application's first writes: 3000 single-row inserts, each in a
# transaction of its own, counted by outcome.
my $first_writes = q{
	CREATE FUNCTION first_writes(n integer) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE done integer := 0; on_id integer := 0; on_ticket integer := 0; c text;
	BEGIN
	    FOR i IN 1 .. n LOOP
	        BEGIN
	            INSERT INTO orders (item) VALUES ('green');
	            done := done + 1;
	        EXCEPTION WHEN unique_violation THEN
	            GET STACKED DIAGNOSTICS c = CONSTRAINT_NAME;
	            IF c = 'orders_pkey' THEN on_id := on_id + 1; ELSE on_ticket := on_ticket + 1; END IF;
	        END;
	    END LOOP;
	    RETURN done || ' inserted, ' || on_id || ' failed on the id, ' || on_ticket || ' on the ticket';
	END $$;};

# green_plain, as it is: blue's IDs and tickets again.
# (How many fail on each depends on where the frozen millisecond's sequence
# starts on green and on blue, which is random: docs/snowflake.md.)
$plain->safe_psql('postgres', $first_writes);
my $outcome = $plain->safe_psql('postgres', 'SELECT first_writes(3000)');
ok( $outcome =~ /^0 inserted, (\d+) failed on the id, (\d+) on the ticket$/
	  && $1 > 0 && $2 > 0 && $1 + $2 == 3000,
	"without uid_catch_up(): 3000 of 3000 first inserts fail, on blue's IDs and then on its tickets ($outcome)");
is($plain->safe_psql('postgres', "SELECT uuid7() < '$blue_max_uuid'"),
	't', 'without uid_catch_up(): uuid7() sorts before blue\'s newest key');

# green: uid_catch_up() before the first write.  Its clock is 2 s behind
# blue's: by default it refuses to move past values that far ahead, saying
# how far; the operator accepts them with allow_ahead.
my ($refused, $why) = sqlstate_of($green, 'SELECT * FROM uid_catch_up()');
is($refused, 'UID05', 'uid_catch_up() refuses blue\'s IDs 2 s ahead of green\'s clock by default');
like($why, qr/in public\.orders\.id, carries the time .*, \d+ ms ahead of this server's clock/,
	'naming the column and how far ahead');
is( $green->safe_psql(
		'postgres', q{
	SELECT string_agg(kind || ' ' || object || coalesce('.' || column_name, '') || ': '
	                  || regexp_replace(action, ';.*', ''), E'\n' ORDER BY kind, object, column_name)
	FROM uid_catch_up(allow_ahead => '5 seconds')}),
	join("\n",
		'ticket public.orders.ticket: read under a SHARE lock',
		'ticket uid_ticket.orders: set: next ticket 6001',
		'uid_next public.orders.id: read under a SHARE lock',
		'uid_next uid_next(): advanced past it',
		'uuid7 public.events.id: read under a SHARE lock',
		'uuid7 uuid7(): advanced past it'),
	'uid_catch_up(): both generators and the ticket sequence moved past blue\'s values');
my ($state) = sqlstate_of($green, 'SELECT uid_next()');
is($state, 'UID01', 'green\'s clock is behind blue\'s last ID: uid_next() refuses rather than repeat one');
$green->safe_psql('postgres', $first_writes);
is( $green->safe_psql('postgres', "SELECT uuid7() > '$blue_max_uuid'"),
	't', 'uuid7() sorts after blue\'s keys at once');

# Green's clock passes blue's last ID.
freeze_clock($green, '2026-06-01 12:00:03');
is($green->safe_psql('postgres', 'SELECT first_writes(3000)'),
	'3000 inserted, 0 failed on the id, 0 on the ticket',
	'with uid_catch_up(): 3000 of 3000 first inserts succeed');
$green->safe_psql('postgres', 'INSERT INTO events (n) SELECT g FROM generate_series(1, 3000) g');
is( $green->safe_psql(
		'postgres', qq{
	SELECT count(*), count(DISTINCT id), count(DISTINCT ticket),
	       bool_and(id > $blue_max_id) FILTER (WHERE item = 'green'),
	       bool_and(ticket > 5999 AND ticket % 2 = 1) FILTER (WHERE item = 'green'),
	       min(ticket) FILTER (WHERE item = 'green'),
	       (SELECT count(*) FILTER (WHERE id > '$blue_max_uuid') FROM events),
	       (SELECT count(DISTINCT id) FROM events)
	FROM orders}),
	'6000|6000|6000|t|t|6001|3000|6000',
	'green: every new ID above blue\'s, every new ticket odd and above blue\'s, no value twice');

$_->stop for ($plain, $green, $blue);
done_testing();
