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

$node->stop;
done_testing();
