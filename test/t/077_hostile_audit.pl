# A hostile table owner against uid_audit() (src/tables/audit.c).  An ordinary
# role that owns a table swaps its columns' names in an open transaction
# (the uuid column's name now on a bigint column, and the other way round)
# while a superuser's uid_audit() of that column waits for the lock.  The
# table has an inheritance child, so that the audit reads the column
# through a cursor of its own query.  Once the role commits, the audit must
# decode the values as the type they now have (or refuse with an error),
# never as the type the column had before it waited: a bigint read as a
# pointer to a UUID crashed the server, a UUID read as a bigint gave a
# wrong audit.  A table dropped meanwhile is an error (42P01).  The server
# must not restart.
#
# Then mallory's IMMUTABLE function in partial-index predicates and a
# policy of her tables: a superuser's or a pg_monitor member's audit of a
# partitioned table, an inheritance parent, a row-level security table or
# a sample must never run it with the auditor's rights.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

# a local lease store: the bigint path reads the tenure ledger
my $node = uid_node('hostile_audit', 'uid.worker_id' => 'lease');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');
$node->poll_query_until('postgres', "SELECT state = 'held' FROM uid_lease_status()")
  or die 'the lease was not taken';

# a table of ids and UUIDv7 values in a and b, 100 rows in the parent and
# 10 in the child, owned by mallory and readable by everyone
$node->safe_psql('postgres', 'CREATE ROLE mallory LOGIN');
for my $t ('aud_ids', 'aud_uuids')
{
	$node->safe_psql('postgres', qq{
		CREATE TABLE public.$t (a bigint, b uuid);
		CREATE TABLE public.${t}_child () INHERITS (public.$t);
		INSERT INTO public.$t SELECT uid_next(), uuid7() FROM generate_series(1, 100);
		INSERT INTO public.${t}_child SELECT uid_next(), uuid7() FROM generate_series(1, 10);
		ALTER TABLE public.$t OWNER TO mallory;
		ALTER TABLE public.${t}_child OWNER TO mallory;
		GRANT SELECT ON public.$t, public.${t}_child TO PUBLIC;
	});
}
my $audit_sql = q{SELECT string_agg(kind || ':' || ids, ',' ORDER BY kind) FROM uid_audit('public.%s', '%s')};
is($node->safe_psql('postgres', sprintf($audit_sql, 'aud_ids', 'a')),
	'total:110', 'before: the audit of the bigint column finds 110 explained ids');
is($node->safe_psql('postgres', sprintf($audit_sql, 'aud_uuids', 'b')),
	'total:110', 'before: the audit of the uuid column counts 110 values');

# the server's state before the races: a session opened now, the
# checkpointer's pid (a restart after a crash starts a new one)
my $checkpointer_sql = q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'};
my $checkpointer = $node->safe_psql('postgres', $checkpointer_sql);
my $watch = $node->background_psql('postgres', on_error_stop => 0);
is($watch->query('SELECT 41 + 1'), '42', 'a session opened before the races answers');

# mallory alters the table in an open transaction; the superuser's uid_audit() of
# $col waits for the lock; mallory commits.  Returns the audit's output and
# stderr.
sub audit_while_mallory
{
	my ($table, $col, $renames) = @_;
	my $mallory = $node->background_psql('postgres', on_error_stop => 0,
		extra_params => [ '-U', 'mallory' ]);
	$mallory->query_safe("BEGIN; $renames");
	my $auditor = $node->background_psql('postgres', on_error_stop => 0);
	$auditor->query_until(qr/audit started/,
		"\\set VERBOSITY verbose\n\\echo audit started\n" . sprintf($audit_sql, $table, $col) . ";\n\\echo audit done\n");
	ok( $node->poll_query_until(
			'postgres', q{
		SELECT count(*) > 0 FROM pg_stat_activity
		 WHERE wait_event_type = 'Lock' AND query LIKE '%uid_audit(%' AND pid <> pg_backend_pid()}),
		"$table: the audit waits for mallory's lock");
	$mallory->query_safe('COMMIT');
	$mallory->quit;
	my $out = $auditor->query_until(qr/audit done/, '');
	my $err = $auditor->{stderr};
	eval { $auditor->quit };
	$out =~ s/^audit done\n?//m;
	chomp $out;
	return ($out, $err);
}

# the bigint column's name goes to the uuid column: the audit reads UUIDs
my ($out, $err) = audit_while_mallory('aud_ids', 'a',
	'ALTER TABLE public.aud_ids RENAME COLUMN a TO a_was; ALTER TABLE public.aud_ids RENAME COLUMN b TO a;');
is($out, 'total:110', 'aud_ids: the audit reads the column it found after the wait as uuid, 110 values');
is($err, '', 'aud_ids: ... without an error');

# the table is dropped: the audit says so, with the SQLSTATE of a missing
# table
$node->safe_psql('postgres', q{
	CREATE TABLE public.aud_gone (a bigint);
	CREATE TABLE public.aud_gone_child () INHERITS (public.aud_gone);
	ALTER TABLE public.aud_gone OWNER TO mallory;
	ALTER TABLE public.aud_gone_child OWNER TO mallory;
});
($out, $err) = audit_while_mallory('aud_gone', 'a', 'DROP TABLE public.aud_gone_child, public.aud_gone;');
like($err, qr/ERROR:\s+42P01: relation with OID \d+ does not exist/,
	'aud_gone: the audit of a table dropped while it waited fails with 42P01');

# the uuid column's name goes to the bigint column: the audit reads ids
($out, $err) = audit_while_mallory('aud_uuids', 'b',
	'ALTER TABLE public.aud_uuids RENAME COLUMN b TO b_was; ALTER TABLE public.aud_uuids RENAME COLUMN a TO b;');
is($out, 'total:110', 'aud_uuids: the audit reads the column it found after the wait as bigint, 110 explained ids');
is($err, '', 'aud_uuids: ... without an error');

# the server did not restart
ok(!$node->log_contains(qr/terminated by signal/), 'no backend was terminated by a signal');
my $watched = eval { $watch->query('SELECT 41 + 1') } // '(session lost)';
is($watched, '42', 'the session opened before the races still answers');
eval { $watch->quit };
my ($ret, $now_checkpointer) = $node->psql('postgres', $checkpointer_sql);
is($now_checkpointer, $checkpointer, 'the checkpointer is the one from before (no restart after a crash)');

# --- mallory's code in the audited tables.  Her IMMUTABLE function notes
# the role it runs as and makes her superuser if that role is one; planning
# a query of a table folds a partial-index predicate that calls it with a
# constant.  A superuser's or a pg_monitor member's uid_audit() of a
# partitioned table, an inheritance parent, a table with row-level
# security, and a sample of a table must run it as no role but mallory.
$node->safe_psql('postgres', q{
	CREATE ROLE monitor LOGIN IN ROLE pg_monitor;
	CREATE SCHEMA mal AUTHORIZATION mallory;
	GRANT USAGE ON SCHEMA mal TO PUBLIC;
});
$node->safe_psql('postgres', q{
	SET search_path = mal;
	CREATE TABLE hits (by_user name, by_superuser boolean);
	GRANT INSERT ON hits TO PUBLIC;
	CREATE FUNCTION esc() RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO mal.hits SELECT current_user, rolsuper
			FROM pg_catalog.pg_roles WHERE rolname = current_user;
		IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
			EXECUTE 'ALTER ROLE mallory SUPERUSER';
		END IF;
		RETURN true;
	END $$;
	CREATE FUNCTION esc_imm(int) RETURNS boolean IMMUTABLE LANGUAGE plpgsql
		AS $$ BEGIN RETURN mal.esc(); END $$;

	CREATE TABLE part (a bigint) PARTITION BY RANGE (a);
	CREATE TABLE part_1 PARTITION OF part FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
	CREATE INDEX ON part_1 (a) WHERE esc_imm(1);
	INSERT INTO part SELECT public.uid_next() FROM generate_series(1, 20);

	CREATE TABLE inh (a bigint);
	CREATE TABLE inh_child () INHERITS (inh);
	CREATE INDEX ON inh_child (a) WHERE esc_imm(2);
	INSERT INTO inh SELECT public.uid_next() FROM generate_series(1, 5);
	INSERT INTO inh_child SELECT public.uid_next() FROM generate_series(1, 7);

	CREATE TABLE rls (a bigint);
	CREATE INDEX ON rls (a) WHERE esc_imm(3);
	ALTER TABLE rls ENABLE ROW LEVEL SECURITY;
	CREATE POLICY p ON rls USING (esc_imm(4));
	INSERT INTO rls SELECT public.uid_next() FROM generate_series(1, 3);

	CREATE TABLE sampled (a bigint);
	CREATE INDEX ON sampled (a) WHERE esc_imm(5);
	INSERT INTO sampled SELECT public.uid_next() FROM generate_series(1, 20000);

	GRANT SELECT ON part, part_1, inh, inh_child, rls, sampled TO PUBLIC;
	TRUNCATE hits;
}, extra_params => [ '-U', 'mallory' ]);
my $mal_audit_sql = q{SELECT string_agg(kind || ':' || ids, ',' ORDER BY kind) FROM uid_audit('mal.%s', '%s')};
sub hits_not_by_mallory
{
	return $node->safe_psql('postgres', q{SELECT count(*) FROM mal.hits WHERE by_user <> 'mallory'});
}
sub audit_as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	my ($state) = $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return ($out, $state // '');
}
for my $role ('postgres', 'monitor')
{
	my ($res, $state) = audit_as($role, sprintf($mal_audit_sql, 'part', 'a'));
	is("$res$state", 'total:20', "$role: the audit of the partitioned table reads its 20 ids");
	($res, $state) = audit_as($role, sprintf($mal_audit_sql, 'inh', 'a'));
	is("$res$state", 'total:12', "$role: the audit of the inheritance parent reads its 12 ids");
	($res, $state) = audit_as($role,
		q{SELECT ids > 0 AND ids < 20000 FROM uid_audit('mal.sampled', 'a', 0.5) WHERE kind = 'total'});
	is("$res$state", 't', "$role: a sample reads some of the table's ids");
	($res, $state) = audit_as($role, q{SELECT count(*) FROM uid_audit('mal.part', 'a', 0.5)});
	is($state, '', "$role: a sample of the partitioned table is read");
	is(hits_not_by_mallory(), '0', "$role: none of it ran mallory's function as $role");
}
my ($res, $state) = audit_as('monitor', sprintf($mal_audit_sql, 'rls', 'a'));
is($state, '42501', 'a pg_monitor member\'s audit of a table whose row-level security applies to it is refused');
($res, $state) = audit_as('postgres', sprintf($mal_audit_sql, 'rls', 'a'));
is("$res$state", 'total:3', 'a superuser\'s (not subject to it) reads its 3 ids');
is(hits_not_by_mallory(), '0', 'no role but mallory ever ran her function');
cmp_ok($node->safe_psql('postgres', q{SELECT count(*) FROM mal.hits}), '>', 0,
	'the samples ran it as mallory (each table read as its owner)');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'mallory is no superuser');

$node->stop;
done_testing();
