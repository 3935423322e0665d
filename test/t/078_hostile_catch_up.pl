# An ordinary role against uid_catch_up() and uid_adopt() run by others.
# Both read every table that draws from a generator or a sequence, whoever
# owns it.  mallory (a plain login role with CREATE on public, as on
# clusters upgraded from 14 or older) owns tables whose index predicates,
# index expressions, policies or view rules call her IMMUTABLE wrapper of a
# function that makes her superuser when a superuser runs it and notes
# every call with the role that made it.  Then:
#  1. a superuser's uid_catch_up() (dry run and real) and uid_adopt() of its
#     own table must run none of her code as the superuser (each table is
#     read as its owner, under a security-restricted operation);
#  2. a future id she plants must not stop uid_next() for the whole server:
#     uid_catch_up() refuses it by default (UID05, naming her table);
#  3. an adopted sequence with INCREMENT 2048 must not draw more than
#     uid.max_batch IDs per call, nor any batch once EXECUTE on
#     uid_next_batch() is revoked;
#  4. a default she adds on bob's sequence, which she may not use, must not
#     stop bob's uid_adopt() or uid_unadopt();
#  5. her foreign table, which bob may select but has no user mapping for,
#     must not give him its greatest value through her mapping;
#  6. a table named by its OID needs USAGE on its schema, as a query would.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_catch_up', 'uid.worker_id' => 5);
$node->start;
my $pg15 = $node->pg_version < 16;

sub as
{
	my ($role, $sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', $role ]);
}

sub state_as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('app', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return ($state // "(none: exit $ret)", $err);
}

sub mallory_is_superuser
{
	return $node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'});
}

# the calls of mallory's function made with a superuser's rights
sub superuser_hits
{
	return as('postgres', q{SELECT count(*) FROM mallory.hits WHERE by_superuser});
}

$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE ROLE bob LOGIN;
	CREATE DATABASE app;
});
$node->safe_psql('app', q{
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE EXTENSION uid;
	CREATE SCHEMA mallory AUTHORIZATION mallory;
	GRANT USAGE ON SCHEMA mallory TO PUBLIC;
});

as('mallory', q{
	SET search_path = mallory;
	CREATE TABLE hits (by_user name, by_superuser boolean);
	GRANT INSERT ON hits TO PUBLIC;
	CREATE FUNCTION esc() RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO mallory.hits SELECT current_user, rolsuper
			FROM pg_catalog.pg_roles WHERE rolname = current_user;
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE mallory SUPERUSER';
		END IF;
		RETURN true;
	END $$;
	-- IMMUTABLE wrappers: planning folds their calls with constant arguments
	CREATE FUNCTION esc_imm(int) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
		AS $$ BEGIN RETURN mallory.esc(); END $$;
	CREATE FUNCTION esc_int(int) RETURNS int IMMUTABLE LANGUAGE plpgsql
		AS $$ BEGIN PERFORM mallory.esc(); RETURN $1; END $$;

	-- ways in: a partial index, an index expression, a forced policy
	CREATE TABLE by_partial (id bigint DEFAULT public.uid_next());
	CREATE INDEX ON by_partial (id) WHERE esc_imm(1);
	CREATE TABLE by_expression (id bigint DEFAULT public.uid_next());
	CREATE INDEX ON by_expression ((id * esc_int(1)));
	CREATE TABLE by_policy (u uuid DEFAULT public.uuid7());
	ALTER TABLE by_policy ENABLE ROW LEVEL SECURITY;
	ALTER TABLE by_policy FORCE ROW LEVEL SECURITY;
	CREATE POLICY p ON by_policy USING (esc_imm(2));
	INSERT INTO by_partial DEFAULT VALUES;
	INSERT INTO by_expression DEFAULT VALUES;
});
is(superuser_hits(), '0', 'no superuser has run mallory\'s function yet');
is(mallory_is_superuser(), 'f', 'mallory is an ordinary role');

# --- 1. uid_catch_up() as a superuser, dry run and real
my ($state, $err) = state_as('postgres', q{SELECT * FROM uid_catch_up(dry_run => true)});
is($state, '42501', 'a superuser\'s dry run refuses the table whose policy is forced on its owner');
like($err, qr/row-level security applies to table by_policy for its owner/, 'and names it');
is(superuser_hits(), '0', 'the dry run ran none of mallory\'s code as the superuser');
is(mallory_is_superuser(), 'f', 'mallory is still an ordinary role');

as('mallory', q{ALTER TABLE mallory.by_policy NO FORCE ROW LEVEL SECURITY});
as('postgres', q{SELECT count(*) FROM uid_catch_up(dry_run => true)});
as('postgres', q{SELECT count(*) FROM uid_catch_up()});
is(superuser_hits(), '0', 'neither a dry run nor a real catch-up ran mallory\'s code as the superuser');
is(mallory_is_superuser(), 'f', 'mallory is still an ordinary role');
cmp_ok(as('postgres', q{SELECT count(*) FROM mallory.hits WHERE by_user = 'mallory'}), '>', 0,
	'her code ran with her own rights only (the tables were read as their owner)');

# --- 1b. uid_adopt() of a superuser's table whose sequence mallory's
# tables name: one she may not draw from (left alone), one she may (read
# as her)
as('postgres', q{
	CREATE TABLE public.orders (id bigserial PRIMARY KEY, v text);
	INSERT INTO public.orders (v) VALUES ('old');
	CREATE TABLE public.shared_orders (id bigserial PRIMARY KEY, v text);
	GRANT USAGE ON SEQUENCE public.shared_orders_id_seq TO mallory;
});
as('mallory', q{
	SET search_path = mallory;
	CREATE TABLE evil2 (id bigint DEFAULT nextval('public.orders_id_seq'));
	CREATE INDEX ON evil2 (id) WHERE esc_imm(3);
	CREATE TABLE evil3 (id bigint DEFAULT nextval('public.shared_orders_id_seq'));
	CREATE INDEX ON evil3 (id) WHERE esc_imm(4);
	INSERT INTO evil3 DEFAULT VALUES;
});
if ($pg15)
{
	# 15 still converts an empty table into a view with a _RETURN rule; its
	# default stays, naming the sequence
	as('mallory', q{
		SET search_path = mallory;
		CREATE TABLE evil_view (id bigint DEFAULT nextval('public.shared_orders_id_seq'));
		CREATE RULE "_RETURN" AS ON SELECT TO evil_view DO INSTEAD
			SELECT 1::bigint AS id WHERE mallory.esc();
	});
}
my $steps = as('postgres', q{SELECT string_agg(s, E'\n') FROM uid_adopt('public.orders', dry_run => true) AS s});
like($steps, qr/-- left as it is: mallory\.evil2\.id/,
	'a superuser\'s dry run leaves the table of a role that may not draw from the sequence alone, and says so');
as('postgres', q{SELECT count(*) FROM uid_adopt('public.orders')});
as('postgres', q{SELECT count(*) FROM uid_adopt('public.shared_orders', dry_run => true)});
as('postgres', q{SELECT count(*) FROM uid_adopt('public.shared_orders')});
is(superuser_hits(), '0', 'adopting the superuser\'s tables ran none of mallory\'s code as the superuser');
is(mallory_is_superuser(), 'f', 'mallory is still an ordinary role');
like(as('postgres', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'mallory.evil2'::regclass}),
	qr/^nextval\('orders_id_seq'::regclass\)$/, 'her default is as she wrote it');
like(as('postgres', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'mallory.evil3'::regclass}),
	qr/uid_sequence_nextval/, 'the column of a role that draws from the sequence moved with it');

# --- 2. a planted future id
as('mallory', q{
	CREATE TABLE mallory.planted (id bigint PRIMARY KEY DEFAULT public.uid_next());
	INSERT INTO mallory.planted VALUES (public.uid_from_time(now() + interval '23 hours'));
});
($state, $err) = state_as('postgres', q{SELECT * FROM uid_catch_up()});
is($state, 'UID05', 'uid_catch_up() refuses a stored id 23 hours ahead of the clock');
like($err, qr/mallory\.planted\.id, carries the time .* ms ahead/, 'naming the table and how far ahead');
($state) = state_as('postgres', q{SELECT * FROM uid_catch_up(dry_run => true)});
is($state, 'UID05', 'a dry run says the same');
$node->safe_psql('postgres', q{CREATE EXTENSION uid});
like($node->safe_psql('postgres', q{SELECT uid_next()}), qr/^\d+$/,
	'uid_next() still issues, in another database too');
like(as('bob', q{SELECT uid_next()}), qr/^\d+$/, 'and for another role');
as('mallory', q{DROP TABLE mallory.planted});

# --- 3. an adopted sequence with INCREMENT 2048 against uid.max_batch and a
# REVOKE of uid_next_batch(); the number of IDs the server issued is
# uid_stats' count
sub issued
{
	return as('postgres', q{SELECT ids_issued FROM uid_stats});
}
as('mallory', q{
	CREATE SEQUENCE mallory.m_seq INCREMENT 2048;
	SELECT count(*) FROM public.uid_adopt('mallory.m_seq');
	SELECT nextval('mallory.m_seq');
});
$node->safe_psql('postgres', q{ALTER SYSTEM SET uid.max_batch = 10; SELECT pg_reload_conf()});
as('postgres', q{REVOKE EXECUTE ON FUNCTION uid_next_batch(integer) FROM PUBLIC});
my $before = issued();
($state, $err) = state_as('mallory', q{SELECT count(nextval('mallory.m_seq')) FROM generate_series(1, 200)});
is($state, '42501', 'a role that may not execute uid_next_batch() draws no batch through an adopted sequence');
as('postgres', q{GRANT EXECUTE ON FUNCTION uid_next_batch(integer) TO mallory});
($state, $err) = state_as('mallory', q{SELECT count(nextval('mallory.m_seq')) FROM generate_series(1, 200)});
is($state, '54000', 'one that may draws no more than uid.max_batch per call');
like($err, qr/reserves 4096 IDs per nextval\(\), more than uid.max_batch \(10\)/, 'and is told why');
is(issued() - $before, 0, 'no ID was drawn by either');
as('mallory', q{CREATE SEQUENCE mallory.m_seq2 INCREMENT 2048});
($state) = state_as('mallory', q{SELECT count(*) FROM public.uid_adopt('mallory.m_seq2')});
is($state, '54000', 'adopting a sequence whose calls would exceed uid.max_batch is refused');
as('postgres', q{REVOKE EXECUTE ON FUNCTION uid_next_batch(integer) FROM mallory});
as('mallory', q{CREATE SEQUENCE mallory.m_seq3 INCREMENT 4});
($state) = state_as('mallory', q{SELECT count(*) FROM public.uid_adopt('mallory.m_seq3')});
is($state, '42501', 'and so is any INCREMENT above 1 for a role that may not batch');
$node->safe_psql('postgres', q{ALTER SYSTEM RESET uid.max_batch; SELECT pg_reload_conf()});
as('postgres', q{GRANT EXECUTE ON FUNCTION uid_next_batch(integer) TO PUBLIC});

# --- 4. a default on bob's sequence, which mallory may not use
as('bob', q{
	CREATE TABLE public.bob_t (id bigserial PRIMARY KEY, v text);
	INSERT INTO public.bob_t (v) VALUES ('old');
});
as('mallory', q{CREATE TABLE mallory.block_bob (x bigint DEFAULT nextval('public.bob_t_id_seq'))});
$steps = as('bob', q{SELECT string_agg(s, E'\n') FROM uid_adopt('public.bob_t') AS s});
like($steps, qr/SECURITY LABEL FOR uid ON SEQUENCE public\.bob_t_id_seq/, 'bob adopts his table');
like($steps, qr/-- left as it is: mallory\.block_bob\.x/, 'leaving mallory\'s column as it is, and saying so');
cmp_ok(as('bob', q{INSERT INTO public.bob_t (v) VALUES ('new') RETURNING id}), '>',
	as('bob', q{SELECT uid_from_time(now() - interval '1 minute')}), 'his inserts get uid IDs');
like(as('bob', q{SELECT string_agg(s, E'\n') FROM uid_unadopt('public.bob_t') AS s}),
	qr/-- left as it is: mallory\.block_bob\.x/, 'and he can unadopt it again');
($state) = state_as('mallory', q{INSERT INTO mallory.block_bob DEFAULT VALUES});
is($state, '42501', 'mallory still cannot draw from his sequence');

# --- 5. ticket values planted for a superuser's uid_catch_up().  Ticket
# 'inv' has handed out 1 .. 5; mallory may not draw from it, bob may.
sub inv_state
{
	return as('postgres', q{SELECT last_value || ' ' || is_called FROM uid_ticket.inv});
}
as('postgres', q{
	SELECT uid_ticket_create('inv', 1, 1);
	CREATE TABLE public.invoices (n bigint PRIMARY KEY DEFAULT uid_ticket_next('inv'));
	INSERT INTO public.invoices SELECT FROM generate_series(1, 5);
	GRANT USAGE ON SEQUENCE uid_ticket.inv TO bob;
});
is(inv_state(), '5 true', 'ticket inv has handed out 5 tickets');
# 5a. mallory's tables, whose defaults name the ticket she may not draw from
# (through uid_ticket_next() and through nextval()), with values near the
# end of bigint
as('mallory', q{
	CREATE TABLE mallory.fake_inv (n bigint DEFAULT public.uid_ticket_next('inv'));
	INSERT INTO mallory.fake_inv VALUES (9223372036854775000);
	CREATE TABLE mallory.fake_inv2 (n bigint DEFAULT nextval('uid_ticket.inv'));
	INSERT INTO mallory.fake_inv2 VALUES (9223372036854775000);
});
my $report = as('postgres', q{
	SELECT string_agg(format('%s | %s | %s | %s | %s', kind, object, column_name, stored_max, action), E'\n' ORDER BY object)
	FROM uid_catch_up() WHERE kind = 'ticket'});
is(inv_state(), '5 true', 'a superuser\'s uid_catch_up() leaves ticket inv where it was');
like($report, qr/^ticket \| mallory\.fake_inv \| n \|  \| left alone: its table's owner may not draw from uid_ticket\.inv$/m,
	'and lists her uid_ticket_next() column as left alone');
like($report, qr/^ticket \| mallory\.fake_inv2 \| n \|  \| left alone: its table's owner may not draw from uid_ticket\.inv$/m,
	'and her nextval() column');
like($report, qr/^ticket \| uid_ticket\.inv \|  \| 5 \| already past: next ticket 6$/m,
	'the ticket is already past the values of the columns that may draw from it');
is(as('postgres', q{SELECT uid_ticket_next('inv')}), '6', 'the next invoice is 6');

# 5b. bob may draw from it: a value of his far ahead of the ticket is
# refused unless ticket_ahead allows it
as('bob', q{
	CREATE TABLE public.bob_inv (n bigint DEFAULT uid_ticket_next('inv'));
	INSERT INTO public.bob_inv VALUES (5000000000000);
});
($state, $err) = state_as('postgres', q{SELECT * FROM uid_catch_up()});
is($state, 'UID05', 'a stored ticket 5e12 ahead of the ticket is refused by default');
like($err, qr/a stored ticket, 5000000000000 in public\.bob_inv\.n, would move ticket sequence uid_ticket\.inv 4999999999994 draws past its next ticket \(7\)/,
	'naming the ticket, the column, the value and how far ahead');
like($err, qr/ticket_ahead => 4999999999994/, 'and how to allow it');
($state) = state_as('postgres', q{SELECT * FROM uid_catch_up(dry_run => true)});
is($state, 'UID05', 'a dry run says the same');
is(inv_state(), '6 true', 'nothing changed');
($state) = state_as('postgres', q{SELECT * FROM uid_catch_up(ticket_ahead => 4999999999993)});
is($state, 'UID05', 'a ticket_ahead one short of it is refused');
like(as('postgres', q{SELECT action FROM uid_catch_up(ticket_ahead => 4999999999994, allow_ahead => '0')
	WHERE object = 'uid_ticket.inv'}), qr/^set: next ticket 5000000000001$/, 'allowed with ticket_ahead');
is(inv_state(), '5000000000000 true', 'the ticket moved past it');

# 5c. bob plants the last bigint: no ticket can be above it
as('bob', q{INSERT INTO public.bob_inv VALUES (9223372036854775807)});
for my $call ('uid_catch_up()', 'uid_catch_up(ticket_ahead => 9223372036854775807)',
	'uid_catch_up(true, ticket_ahead => 9223372036854775807)')
{
	($state, $err) = state_as('postgres', "SELECT * FROM $call");
	is($state, '2200H', "$call refuses a stored 9223372036854775807");
	like($err, qr/ticket sequence uid_ticket\.inv cannot move past 9223372036854775807 \(in public\.bob_inv\.n\): its last ticket is 9223372036854775807/,
		'naming the ticket, the column and the value');
	unlike($err, qr/922337203685477580[89]|\d{20}/, 'printing no number beyond bigint');
}
is(inv_state(), '5000000000000 true', 'nothing changed');
# a ticket that has handed out its last ticket is past every value
as('bob', q{DELETE FROM public.bob_inv WHERE n = 9223372036854775807});
as('postgres', q{SELECT setval('uid_ticket.inv', 9223372036854775807)});
$report = as('postgres', q{SELECT action FROM uid_catch_up() WHERE object = 'uid_ticket.inv'});
like($report, qr/^already past: no ticket left/, 'an exhausted ticket is already past');
unlike($report, qr/922337203685477580[89]|\d{20}/, 'and no next ticket beyond bigint is printed');

# --- 6. a foreign table (postgres_fdw, a loopback server): read as its
# owner, it would use the owner's user mapping and hand bob, who has
# SELECT on it but no mapping of his own, what the remote server shows
# mallory
# postgres_fdw is Debian's contrib on 15; the servers test/build-pg.sh builds
# (16 to 19) have no postgres_fdw, so there the section is not run
if (as('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'postgres_fdw'}) eq '1')
{
	my ($host, $port) = ($node->host, $node->port);
	as('postgres', qq{
		CREATE EXTENSION postgres_fdw;
		CREATE SERVER loop FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'app');
		CREATE USER MAPPING FOR mallory SERVER loop OPTIONS (user 'mallory', password_required 'false');
		GRANT USAGE ON FOREIGN SERVER loop TO mallory;
	});
	as('mallory', q{
		CREATE TABLE mallory.remote_secret (id bigint);
		INSERT INTO mallory.remote_secret VALUES (4242);
		CREATE FOREIGN TABLE mallory.a_ft (id bigint) SERVER loop
			OPTIONS (schema_name 'mallory', table_name 'remote_secret');
		GRANT SELECT ON mallory.a_ft TO bob;
	});
	is(as('mallory', q{SELECT uid_stored_max('mallory.a_ft', 'id')}), '4242',
		'the owner reads the greatest value of her foreign table through her mapping');
	($state, $err) = state_as('bob', q{SELECT max(id) FROM mallory.a_ft});
	like($err, qr/user mapping not found/, 'bob\'s own SELECT max(id) has no user mapping');
	($state, $err) = state_as('bob', q{SELECT uid_stored_max('mallory.a_ft', 'id')});
	unlike($err, qr/^$/, 'nor has his uid_stored_max(): it fails');
	like($err, qr/user mapping not found/, 'for the same reason (the foreign table is read as the caller)');
}
else
{
	note('this server has no postgres_fdw: the foreign table section is not run');
}

# --- 7. a table in a schema bob may not use, named by its OID
as('postgres', q{
	CREATE SCHEMA hidden;
	CREATE TABLE hidden.t (id bigint);
	INSERT INTO hidden.t VALUES (77);
	GRANT SELECT ON hidden.t TO bob;
});
my $hidden_oid = as('postgres', q{SELECT 'hidden.t'::regclass::oid});
($state, $err) = state_as('bob', qq{SELECT uid_stored_max(${hidden_oid}::regclass, 'id')});
is($state, '42501', 'uid_stored_max() of a table named by its OID needs USAGE on its schema');
like($err, qr/permission denied for schema hidden/, 'as a query of it would');
($state) = state_as('bob', qq{SELECT uid_stored_max_uuid7(${hidden_oid}::regclass, 'id')});
is($state, '42501', 'and so does uid_stored_max_uuid7()');

# --- 8. the steps of uid_catch_up() (schema uid_adopt), which PUBLIC may
# execute: they do only what the caller may
($state) = state_as('mallory', q{SELECT * FROM uid_adopt._catch_up_move(uid_from_time(now() + interval '1 hour'), NULL, false)});
is($state, '42501', 'a step that moves uid_next() needs EXECUTE on uid_advance_past()');
($state) = state_as('mallory', q{SELECT * FROM uid_adopt._catch_up_read('uid_next', 'public.bob_t', 'id', 1, NULL,
	'int8'::regtype, false, 'read')});
is($state, '42501', 'a step that reads and locks a table needs SELECT on it');
($state) = state_as('mallory', q{SELECT * FROM uid_adopt._catch_up_ticket_columns('uid_ticket.inv', 'inv', '{}', '{}', '{}',
	false, 'read')});
is($state, '42501', 'a step that reads a ticket sequence to move it needs UPDATE on it');

is(mallory_is_superuser(), 'f', 'mallory is an ordinary role at the end');

done_testing();
