# Two servers as an odd/even ticket pair (uid_ticket_create with nodes = 2):
# clients draw from both; one server is killed (kill -9), the other keeps
# serving; after crash recovery the series goes on.  Every value ever handed
# out, merged from both servers, must be unique, and a crash must never make
# a server hand out a value again, also for values drawn in a transaction
# that never committed or committed with synchronous_commit = off.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my %node;
for my $n (1, 2)
{
	# the WAL writer kept from flushing on its own, so that only an explicit
	# flush makes a sequence's WAL durable before the crash below
	my $node = uid_node(
		"ticket$n",
		'uid.worker_id'          => $n,
		'wal_writer_delay'       => '10s',
		'wal_writer_flush_after' => '1GB');
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	$node->safe_psql('postgres', "SELECT uid_ticket_create('orders', $n, 2)");
	$node->safe_psql('postgres', "SELECT uid_ticket_create('batches', $n, 2, 10)");
	$node{$n} = $node;
}

# per ticket: value => "server/how"; each ticket is its own series
my %seen = (orders => {}, batches => {});
my @dupes;
my %max = (1 => 0, 2 => 0);    # of 'orders' per server

sub note_values
{
	my ($ticket, $n, $how, @v) = @_;
	for my $v (@v)
	{
		push @dupes, "$ticket $v ($how on $n, before: $seen{$ticket}{$v})"
		  if exists $seen{$ticket}{$v};
		$seen{$ticket}{$v} = "$n/$how";
		$max{$n} = $v if $ticket eq 'orders' && $v > $max{$n};
	}
	return scalar @v;
}

# one client's draw of $count tickets and one block, from server $n
sub draw
{
	my ($n, $count) = @_;
	my $out = $node{$n}->safe_psql('postgres',
		"SELECT uid_ticket_next('orders') FROM generate_series(1, $count)");
	my $got = note_values('orders', $n, 'next', split /\n/, $out);
	$out = $node{$n}->safe_psql('postgres',
		"SELECT generate_series(first, last, step) FROM uid_ticket_next_block('batches')");
	$got += note_values('batches', $n, 'block', split /\n/, $out);
	return $got;
}

# Clients alternate between the servers.
for my $round (1 .. 5)
{
	is(draw(1, 20), 30, "round $round: server 1 serves");
	is(draw(2, 20), 30, "round $round: server 2 serves");
}
is(scalar(grep { $_ % 2 == 1 } keys %{ $seen{orders} }), 100, 'server 1 handed out 100 odd orders');
is(scalar(grep { $_ % 2 == 1 } keys %{ $seen{batches} }), 50, 'server 1 handed out 50 odd batch tickets');

# Values drawn on server 1 that were never made durable by a commit: one
# session keeps its transaction open, another commits asynchronously.
my $open = $node{1}->background_psql('postgres');
$open->query_safe('BEGIN');
my $out = $open->query_safe(
	"SELECT uid_ticket_next('orders') FROM generate_series(1, 40)");
is(note_values('orders', 1, 'open transaction', split /\n/, $out), 40, 'drew 40 tickets in an open transaction');
$out = $open->query_safe(
	"SELECT generate_series(first, last, step) FROM uid_ticket_next_block('batches')");
is(note_values('batches', 1, 'open transaction block', split /\n/, $out), 10, 'drew a block in an open transaction');
$out = $node{1}->safe_psql('postgres', q{
SET synchronous_commit = off;
SELECT uid_ticket_next('orders') FROM generate_series(1, 40);
});
is(note_values('orders', 1, 'async commit', split /\n/, $out), 40, 'drew 40 tickets with asynchronous commit');
my $max1_before_crash = $max{1};

# Server 1 dies.  Clients fall back to server 2, which keeps serving.
my $pid1 = $node{1}->{_pid};
$node{1}->kill9;
$open->{run}->kill_kill;
# (psql -c: psql given the query on stdin may exit before reading it)
ok( !run_log(
		[ 'psql', '-X', '-d', $node{1}->connstr('postgres'),
		  '-c', "SELECT uid_ticket_next('orders')" ]),
	'server 1 is down');
for my $round (1 .. 3)
{
	is(draw(2, 20), 30, "server 1 down, round $round: server 2 serves");
}

# After crash recovery server 1 goes on above everything it handed out.
# Wait (bounded) until the killed postmaster is gone, then start.
my $gone = 0;
for my $try (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
{
	last if ($gone = !kill(0, $pid1));
	select(undef, undef, undef, 0.1);
}
ok($gone, 'the killed postmaster is gone');
$node{1}->start;
$out = $node{1}->safe_psql('postgres', "SELECT uid_ticket_next('orders')");
cmp_ok($out, '>', $max1_before_crash,
	'after the crash server 1 continues above its last value');
note_values('orders', 1, 'after crash', $out);
for my $round (1 .. 3)
{
	is(draw(1, 20), 30, "after the crash, round $round: server 1 serves");
	is(draw(2, 20), 30, "after the crash, round $round: server 2 serves");
}

# A clean restart of server 2 changes nothing either.
$node{2}->restart;
is(draw(2, 20), 30, 'after a clean restart server 2 serves');

is_deeply(\@dupes, [], 'no value was handed out twice, across both servers and the crash');
for my $ticket ('orders', 'batches')
{
	my $s = $seen{$ticket};
	my @odd = grep { $_ % 2 == 1 } keys %$s;
	my @even = grep { $_ % 2 == 0 } keys %$s;
	ok(scalar(@odd) > 50 && scalar(@even) > 50, "$ticket: both servers contributed");
	is_deeply([ grep { $s->{$_} !~ m{^1/} } @odd ], [], "$ticket: odd values all came from server 1");
	is_deeply([ grep { $s->{$_} !~ m{^2/} } @even ], [], "$ticket: even values all came from server 2");
}

# The tickets are plain sequences: listed and dumped normally.
is($node{1}->safe_psql('postgres',
		"SELECT increment_by FROM pg_sequences WHERE schemaname = 'uid_ticket' AND sequencename = 'orders'"),
	'2', 'the ticket is a native sequence in pg_sequences');

$node{$_}->stop for (1, 2);
done_testing();
