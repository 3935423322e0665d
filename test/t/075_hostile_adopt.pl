# An ordinary role against adopted sequences.  uid is installed in schema
# "ids"; the attacker (mallory, a plain login role with CREATE on schema
# public, as on clusters upgraded from 14 or older) tries to make another
# role's nextval() calls return something else:
#  1. adopting, or unlabelling, a sequence and a table it does not own;
#  2. labelling a sequence of its own that another role's table draws from;
#  3. adopting a same-named sequence in another schema;
#  4. functions named like uid's, planted in public, which is on everyone's
#     search path (each would make mallory superuser if a superuser ran it);
#  5. calling uid's sequence functions on a sequence it may not use;
#  6. a CHECK constraint on its own tables that calls its function, which a
#     superuser's uid_adopt(widen => true) or (as_uid => true) re-checks
#     (the statements must run as the table's owner).
# Each attack fails, the victims' IDs come from uid (or from their plain
# sequence), and mallory stays an ordinary role.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $node = uid_node('hostile_adopt', 'uid.worker_id' => 3);
$node->start;

sub as
{
	my ($role, $sql) = @_;
	return $node->psql('app', $sql, extra_params => [ '-U', $role ]);
}

sub as_ok
{
	my ($role, $sql) = @_;
	return $node->safe_psql('app', $sql, extra_params => [ '-U', $role ]);
}

# the SQLSTATE of a statement run as a role, which must fail
sub state_as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('app', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return $state // "(none: exit $ret)";
}

my $recent;

$node->safe_psql('postgres', q{
	CREATE ROLE alice LOGIN;
	CREATE ROLE mallory LOGIN;
	CREATE DATABASE app;
});
$node->safe_psql('app', q{
	GRANT CREATE ON SCHEMA public TO PUBLIC;
	CREATE SCHEMA ids;
	GRANT USAGE ON SCHEMA ids TO PUBLIC;
	CREATE EXTENSION uid SCHEMA ids;
	CREATE SCHEMA mal AUTHORIZATION mallory;
	GRANT USAGE ON SCHEMA mal TO PUBLIC;
	CREATE TABLE public.planted_calls (fn text);
	GRANT INSERT ON public.planted_calls TO PUBLIC;
});
$recent = $node->safe_psql('app', q{SELECT ids.uid_from_time(now() - interval '1 minute')});

# alice's tables: one adopted, one plain, one drawing from mallory's sequence
as_ok('alice', q{
	CREATE TABLE public.orders (id bigserial PRIMARY KEY, v text);
	CREATE TABLE public.plain (id bigserial PRIMARY KEY, v text);
	INSERT INTO public.orders (v) VALUES ('old');
	INSERT INTO public.plain (v) VALUES ('old');
	SELECT count(*) FROM ids.uid_adopt('public.orders');
});
as_ok('mallory', q{
	CREATE SEQUENCE public.shared_seq;
	GRANT USAGE ON SEQUENCE public.shared_seq TO alice;
});
as_ok('alice', q{CREATE TABLE public.uses_shared (id bigint PRIMARY KEY DEFAULT nextval('public.shared_seq'))});

# --- 1. another role's table and sequence
is(state_as('mallory', q{SELECT * FROM ids.uid_adopt('public.plain')}), '42501',
	'mallory cannot adopt alice\'s table');
is(state_as('mallory', q{SELECT * FROM ids.uid_adopt('public.plain_id_seq')}), '42501',
	'nor her sequence');
is(state_as('mallory', q{SECURITY LABEL FOR uid ON SEQUENCE public.plain_id_seq IS 'adopted'}), '42501',
	'nor label it herself');
is(state_as('mallory', q{SELECT * FROM ids.uid_unadopt('public.orders')}), '42501',
	'mallory cannot unadopt alice\'s table');
is(state_as('mallory', q{SECURITY LABEL FOR uid ON SEQUENCE public.orders_id_seq IS NULL}), '42501',
	'nor remove its label');

# --- 2. mallory's own sequence, drawn from by alice's table
is(state_as('mallory', q{SECURITY LABEL FOR uid ON SEQUENCE public.shared_seq IS 'adopted'}), '42501',
	'mallory cannot label her own sequence while alice\'s table draws from it');
is(state_as('mallory', q{SELECT * FROM ids.uid_adopt('public.shared_seq')}), '42501',
	'nor adopt it');
is(as_ok('alice', q{INSERT INTO public.uses_shared DEFAULT VALUES RETURNING id}), '1',
	'alice\'s table still gets the plain sequence\'s values');

# --- 3. a same-named sequence in another schema, adopted by its owner
as_ok('mallory', q{
	CREATE SEQUENCE mal.orders_id_seq;
	CREATE SEQUENCE mal.plain_id_seq;
	SELECT count(*) FROM ids.uid_adopt('mal.plain_id_seq');
});
is(as_ok('alice', q{SET search_path = mal, public; INSERT INTO public.plain (v) VALUES ('x') RETURNING id}),
	'2', 'adopting mal.plain_id_seq leaves alice\'s public.plain_id_seq alone');
is(as_ok('alice', q{SELECT nextval('public.plain_id_seq')}), '3',
	'and so does nextval() of it');

# --- 4. functions named like uid's, planted in public
as_ok('mallory', q{
	CREATE FUNCTION public.uid_sequence_nextval(regclass) RETURNS bigint LANGUAGE plpgsql AS $$
	BEGIN INSERT INTO public.planted_calls VALUES ('nextval');
	      BEGIN ALTER ROLE mallory SUPERUSER; EXCEPTION WHEN OTHERS THEN NULL; END;
	      RETURN 42; END $$;
	CREATE FUNCTION public.uid_sequence_currval(regclass) RETURNS bigint LANGUAGE plpgsql AS $$
	BEGIN INSERT INTO public.planted_calls VALUES ('currval');
	      BEGIN ALTER ROLE mallory SUPERUSER; EXCEPTION WHEN OTHERS THEN NULL; END;
	      RETURN 42; END $$;
	CREATE FUNCTION public.uid_sequence_lastval() RETURNS bigint LANGUAGE plpgsql AS $$
	BEGIN INSERT INTO public.planted_calls VALUES ('lastval');
	      BEGIN ALTER ROLE mallory SUPERUSER; EXCEPTION WHEN OTHERS THEN NULL; END;
	      RETURN 42; END $$;
	CREATE FUNCTION public.uid_sequence_plain(anyelement) RETURNS anyelement LANGUAGE plpgsql AS $$
	BEGIN INSERT INTO public.planted_calls VALUES ('plain');
	      BEGIN ALTER ROLE mallory SUPERUSER; EXCEPTION WHEN OTHERS THEN NULL; END;
	      RETURN $1; END $$;
	CREATE FUNCTION public.uid_next() RETURNS bigint LANGUAGE plpgsql AS $$
	BEGIN INSERT INTO public.planted_calls VALUES ('uid_next');
	      BEGIN ALTER ROLE mallory SUPERUSER; EXCEPTION WHEN OTHERS THEN NULL; END;
	      RETURN 42; END $$;
});
for my $who ('alice', 'postgres')
{
	my $row = as_ok($who, q{
		INSERT INTO public.orders (v) VALUES ('new') RETURNING id, currval('public.orders_id_seq') = id, lastval() = id});
	my ($id, $cur, $last) = split /\|/, $row;
	cmp_ok($id, '>', $recent, "$who\'s insert into the adopted table gets a uid ID");
	is("$cur|$last", 't|t', "and currval() and lastval() name it ($who)");
	cmp_ok(as_ok($who, q{SELECT nextval('public.orders_id_seq')}), '>', $recent,
		"$who\'s nextval() of the adopted sequence is uid's");
}
as_ok('postgres', q{
	CREATE TABLE public.ident (id bigint GENERATED ALWAYS AS IDENTITY, who text);
	CREATE TABLE public.more (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY);
	SELECT count(*) FROM ids.uid_adopt('public.more');
	SELECT count(*) FROM ids.uid_unadopt('public.more');
	INSERT INTO public.ident (who) VALUES ('postgres');
});
is($node->safe_psql('app', 'SELECT count(*) FROM public.planted_calls'), '0',
	'none of the planted functions ever ran (the planner calls uid\'s own, by their identity)');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'mallory is no superuser');

# --- 5. uid's sequence functions on a sequence mallory may not use
is(state_as('mallory', q{SELECT ids.uid_sequence_nextval('public.orders_id_seq')}), '42501',
	'uid_sequence_nextval() checks the sequence\'s privileges');
is(state_as('mallory', q{SELECT nextval('public.orders_id_seq')}), '42501',
	'and so does nextval() of the adopted sequence');
is(state_as('mallory', q{SELECT ids.uid_sequence_nextval('public.plain_id_seq')}), '42501',
	'and of a plain one (PostgreSQL\'s own check)');
as_ok('alice', q{GRANT USAGE ON SEQUENCE public.orders_id_seq TO mallory});
cmp_ok(as_ok('mallory', q{SELECT nextval('public.orders_id_seq')}), '>', $recent,
	'once granted USAGE, mallory gets uid IDs from it');
is(state_as('mallory', q{SELECT ids.uid_sequence_currval('public.orders_id_seq')}), '55000',
	'currval() before nextval() in the session: not yet defined');

# the adoption is intact
is($node->safe_psql('app', q{SELECT string_agg(sequence::text, ',' ORDER BY sequence::text) FROM ids.uid_adoptions}),
	'mal.plain_id_seq,orders_id_seq', 'the adoptions are the owners\' only');

# --- 6. a superuser adopts mallory's tables with widen => true and
# as_uid => true: changing a column's type re-checks the table's CHECK
# constraints, which call mallory's function; it notes the role it runs as
# and makes mallory superuser if that role is one.  It must run as mallory
# (or not at all), and the adoption must still work.
as_ok('mallory', q{
	CREATE TABLE mal.trap_calls (by_user name, by_superuser boolean);
	GRANT INSERT ON mal.trap_calls TO PUBLIC;
	CREATE FUNCTION mal.trap(bigint) RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO mal.trap_calls SELECT current_user, rolsuper
			FROM pg_catalog.pg_roles WHERE rolname = current_user;
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE mallory SUPERUSER';
		END IF;
		RETURN true;
	END $$;
	CREATE TABLE mal.narrow (id serial PRIMARY KEY, CHECK (mal.trap(id)));
	CREATE TABLE mal.narrow_ref (r int REFERENCES mal.narrow, CHECK (mal.trap(r)));
	CREATE TABLE mal.checked (id bigserial PRIMARY KEY, CHECK (mal.trap(id)));
	CREATE TABLE mal.checked_ident (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, CHECK (mal.trap(id)));
	INSERT INTO mal.narrow DEFAULT VALUES;
	INSERT INTO mal.narrow_ref VALUES (1);
	INSERT INTO mal.checked DEFAULT VALUES;
	INSERT INTO mal.checked_ident DEFAULT VALUES;
	TRUNCATE mal.trap_calls;
});
sub trap_calls_not_by_mallory
{
	return $node->safe_psql('app', q{SELECT count(*) FROM mal.trap_calls WHERE by_user <> 'mallory'});
}
my $steps = as_ok('postgres', q{SELECT string_agg(s, E'\n') FROM ids.uid_adopt('mal.narrow', widen => true) AS s});
like($steps, qr/ALTER TABLE mal\.narrow ALTER COLUMN id TYPE bigint/, 'a superuser widens mallory\'s int column');
like($steps, qr/ALTER TABLE mal\.narrow_ref ALTER COLUMN r TYPE bigint/, 'and the column that references it');
is(trap_calls_not_by_mallory(), '0',
	'widening re-checked the CHECK constraints, running mallory\'s function as no role but mallory');
as_ok('postgres', q{SELECT count(*) FROM ids.uid_adopt('mal.checked', as_uid => true)});
is(trap_calls_not_by_mallory(), '0',
	'so did the change to the uid type (as_uid => true)');
as_ok('postgres', q{SELECT count(*) FROM ids.uid_adopt('mal.checked_ident', as_uid => true)});
is(trap_calls_not_by_mallory(), '0', 'and that of an identity column');
cmp_ok($node->safe_psql('app', q{SELECT count(*) FROM mal.trap_calls}), '>', 0,
	'they ran it as mallory (the statements ran as the table\'s owner)');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'mallory is no superuser');
is($node->safe_psql('app', q{
	SELECT string_agg(format('%s.%s', attrelid::regclass, atttypid::regtype), ',' ORDER BY attrelid::regclass::text)
	FROM pg_attribute
	WHERE attrelid IN ('mal.narrow'::regclass, 'mal.narrow_ref'::regclass, 'mal.checked'::regclass,
	                   'mal.checked_ident'::regclass)
	  AND attname IN ('id', 'r')}),
	'mal.checked.ids.uid,mal.checked_ident.ids.uid,mal.narrow.bigint,mal.narrow_ref.bigint',
	'the columns have their new types');
is($node->safe_psql('app', q{SELECT relowner::regrole FROM pg_class WHERE oid = 'mal.checked_ident_id_seq'::regclass}),
	'mallory', 'the identity\'s sequence, made again, belongs to the table\'s owner');
for my $t ('narrow', 'checked', 'checked_ident')
{
	cmp_ok(as_ok('mallory', qq{INSERT INTO mal.$t DEFAULT VALUES RETURNING id}), '>', $recent,
		"mal.$t is adopted: its inserts get uid IDs");
}
is(trap_calls_not_by_mallory(), '0', 'no role but mallory ever ran her function');

# a child with another owner: the statement would run on it as the
# parent's owner, who may not alter it; refused before anything runs
as_ok('mallory', q{
	CREATE TABLE mal.parent (id bigserial PRIMARY KEY);
	INSERT INTO mal.parent DEFAULT VALUES;
});
as_ok('postgres', q{
	CREATE TABLE mal.alice_child () INHERITS (mal.parent);
	ALTER TABLE mal.alice_child OWNER TO alice;
});
my ($ret, $out, $err) = $node->psql('app', q{SELECT count(*) FROM ids.uid_adopt('mal.parent', as_uid => true)});
like($err, qr/table alice_child has another owner than table parent/,
	'a superuser\'s as_uid adoption of a table whose child has another owner is refused, naming the child');
is(as_ok('postgres', q{SELECT count(*) FROM ids.uid_adoptions WHERE sequence = 'mal.parent_id_seq'::regclass}),
	'0', 'and nothing of it stays');

# uid_adopt._alter(), the one function that writes and runs the statements
# of uid_adopt() and uid_unadopt() (a table's as its owner): PUBLIC may call
# it, so it checks every argument as those statements need it
sub alter_state
{
	my ($role, $args) = @_;
	return state_as($role, "SELECT uid_adopt._alter($args)");
}
is(alter_state('mallory', q{'default nextval', 'public.plain', 'id', 'public.plain_id_seq', NULL, NULL, false}),
	'42501', 'uid_adopt._alter() refuses a caller that does not own the table');
is(alter_state('mallory', q{'type bigint', 'mal.parent', 'id', NULL, NULL, NULL, false}),
	'42501', 'and a type change that would reach a child of another owner');
is(alter_state('mallory', q{'sequence restart', NULL, NULL, 'public.plain_id_seq', 1, NULL, false}),
	'42501', 'and a sequence the caller does not own');
as_ok('alice', q{CREATE SEQUENCE public.alice_seq});
as_ok('mallory', q{CREATE TABLE mal.own (id bigint, u uuid, "odd ""name""; x" uuid)});
is(alter_state('mallory', q{'default nextval', 'mal.own', 'id', 'public.alice_seq', NULL, NULL, false}),
	'42501', 'and a default that names a sequence the table\'s owner may not draw from');
is(alter_state('mallory', q{'identity to sequence', 'mal.own', 'id', 'mal.orders_id_seq', 1, 1, false}),
	'22023', 'and a sequence that is not the column\'s identity');
is(alter_state('mallory', q{'sequence to identity always', 'mal.own', 'id', 'mal.orders_id_seq', 1, 1, false}),
	'22023', 'and a sequence the column does not own');
is(alter_state('mallory', q{'default nextval', 'mal.own', 'id', 'mal.own', NULL, NULL, false}),
	'42809', 'and a table given as the sequence');
is(alter_state('mallory', q{'owner to alice', 'mal.own', 'id', NULL, NULL, NULL, false}),
	'22023', 'and any change but its own');
is(alter_state('mallory', q{NULL, 'mal.own', 'id', NULL, NULL, NULL, false}),
	'22004', 'and no change');
is(alter_state('mallory', q{'type bigint', 'mal.own', NULL, NULL, NULL, NULL, false}),
	'22004', 'and a change without its column');
is(alter_state('mallory', q{'default uuid7', 'mal.own', 'u; DROP TABLE mal.own; --', NULL, NULL, NULL, false}),
	'42703', 'a column that does not exist, whatever its name holds, is refused');
is(as_ok('mallory', q{SELECT uid_adopt._alter('default gen_random_uuid', 'mal.own', 'odd "name"; x',
		NULL, NULL, NULL, false)}),
	'{"ALTER TABLE mal.own ALTER COLUMN \"odd \"\"name\"\"; x\" SET DEFAULT pg_catalog.gen_random_uuid()"}',
	'a column whose name holds quotes, spaces and a semicolon is quoted as one identifier');
is(as_ok('mallory', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'mal.own'::regclass}),
	'gen_random_uuid()', 'and only that column changed');
is(as_ok('postgres', q{SELECT count(*) FROM pg_class WHERE oid = 'mal.own'::regclass}), '1',
	'the table is still there');

$node->stop;
done_testing();
