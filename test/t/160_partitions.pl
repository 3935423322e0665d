# Partitions by the time in the IDs (uid_partitions_maintain(),
# docs/partitioning.md) where pg_regress cannot look:
# - the SQL blocks of docs/partitioning.md, in order, as a reader pastes
#   them, in a database with uid and nothing else (a block after the
#   marker <!-- partitioning-sql: skip, the reason --> is left out and named);
# - two maintenance runs on one table at once, in two sessions, many times:
#   neither fails, and the partitions have no gap, no overlap and no
#   duplicate;
# - pg_cron (Debian's postgresql-15-cron; PostgreSQL 15 only, the others
#   are built from source here without it): a job scheduled with
#   cron.schedule() that runs the maintenance, proven by its run in
#   cron.job_run_details (polled; pg_cron runs a job at the next minute).
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $top = "$FindBin::RealBin/../..";
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $pkglibdir = `$pg_config --pkglibdir`;
chomp $pkglibdir;
my $cron = -e "$pkglibdir/pg_cron.so";

my $node = uid_node('partitions');
if ($cron)
{
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'uid,pg_cron'\n"
		  . "cron.database_name = 'postgres'\n"
		  . "cron.use_background_workers = on\n"
		  . "max_worker_processes = 16\n");
}
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid');

# --- the SQL of docs/partitioning.md --------------------------------------
my $doc = "$top/docs/partitioning.md";
open my $fh, '<', $doc or die "$doc: $!";
my (@blocks, $in, $skip, $text, $line);
while (<$fh>)
{
	if (!$in && /^<!-- partitioning-sql: skip, (.*) -->/) { $skip = $1; next; }
	if (!$in && /^```sql\s*$/) { ($in, $text, $line) = (1, '', $.); next; }
	if ($in && /^```\s*$/)
	{
		push @blocks, [ $text, $line, $skip ];
		($in, $skip) = (0, undef);
		next;
	}
	$text .= $_ if $in;
}
close $fh;
ok(@blocks >= 5, 'docs/partitioning.md has its SQL blocks');
$node->safe_psql('postgres', 'CREATE DATABASE docs');
$node->safe_psql('docs', 'CREATE EXTENSION uid');
for my $b (@blocks)
{
	my ($sql, $at, $why) = @$b;
	if (defined $why)
	{
		note("docs/partitioning.md line $at left out: $why");
		next;
	}
	my ($ret, $out, $err) = $node->psql('docs', $sql, on_error_stop => 1);
	is($ret, 0, "docs/partitioning.md block at line $at runs as written")
	  or diag($err);
}

# --- two runs at once --------------------------------------------------------
# gapless: the partitions sorted by their lower bound, each starting at the
# bound the one before it ends at
my $gapless = q{
	SELECT count(*) || ' ' || CASE WHEN bool_and(lo = prev_hi OR prev_hi IS NULL) THEN 'gapless' ELSE 'gaps' END
	FROM (SELECT lo, lag(hi) OVER (ORDER BY lo) AS prev_hi
	      FROM (SELECT substring(pg_get_expr(relpartbound, oid) FROM 'FROM \(''?([^'')]*)')::numeric AS lo,
	                   substring(pg_get_expr(relpartbound, oid) FROM 'TO \(''?([^'')]*)')::numeric AS hi
	            FROM pg_class WHERE oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'raced'::regclass)) b) s};
my $failed = 0;
my $bad_set = 0;
for my $round (1 .. 10)
{
	$node->safe_psql('postgres',
		'DROP TABLE IF EXISTS raced; CREATE TABLE raced (id bigint PRIMARY KEY DEFAULT uid_next()) PARTITION BY RANGE (id)');
	my (@h, @err);
	for my $s (0, 1)
	{
		$err[$s] = '';
		my $sql = $s
		  ? q{SELECT count(*) FROM uid_partitions_maintain('raced', '1 hour', ahead => 24)}
		  : q{SELECT count(*) FROM uid_partitions_maintain('raced', '1 hour', ahead => 24, keep => '1 hour')};
		push @h,
		  IPC::Run::start(
			[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-c', $sql ],
			'>', \my $out, '2>', \$err[$s]);
	}
	for my $s (0, 1)
	{
		$h[$s]->finish;
		if ($h[$s]->result != 0) { $failed++; diag("round $round, session $s: $err[$s]"); }
	}
	my $set = $node->safe_psql('postgres', $gapless);
	$bad_set++ unless $set eq '25 gapless';
	diag("round $round: partitions and gapless: $set") unless $set eq '25 gapless';
}
is($failed, 0, 'two maintenance runs at once on one table: neither fails (10 rounds)');
is($bad_set, 0, 'and they leave 25 hourly partitions, each starting where the one before ends');

# --- pg_cron --------------------------------------------------------------------
SKIP:
{
	skip 'pg_cron is not installed for this server (test/deps.sh installs '
	  . 'postgresql-15-cron; the servers built from source have none)', 6
	  unless $cron;
	# the three kinds of key, kept by one job
	$node->safe_psql('postgres', q{
		CREATE EXTENSION pg_cron;
		CREATE TABLE cron_orders (id uid PRIMARY KEY DEFAULT uid_next()) PARTITION BY RANGE (id);
		CREATE TABLE cron_events (id bigint PRIMARY KEY DEFAULT uid_next()) PARTITION BY RANGE (id);
		CREATE TABLE cron_files (id uuid PRIMARY KEY DEFAULT uuid7()) PARTITION BY RANGE (id);
	});
	my $job = $node->safe_psql('postgres', q{
		SELECT cron.schedule('cron-partitions', '* * * * *',
			$$SELECT count(*) FROM (
			    SELECT uid_partitions_maintain('public.cron_orders', ahead => 2)
			    UNION ALL SELECT uid_partitions_maintain('public.cron_events', ahead => 2)
			    UNION ALL SELECT uid_partitions_maintain('public.cron_files', ahead => 2)) made$$)});
	like($job, qr/^\d+$/, 'cron.schedule() takes the maintenance job');
	ok( $node->poll_query_until('postgres',
			"SELECT count(*) > 0 FROM cron.job_run_details WHERE jobid = $job AND status IN ('succeeded', 'failed')"),
		'pg_cron ran the job');
	is( $node->safe_psql('postgres',
			"SELECT string_agg(DISTINCT status, ',') FROM cron.job_run_details WHERE jobid = $job"),
		'succeeded', 'the job succeeded');
	for my $t ('cron_orders', 'cron_events', 'cron_files')
	{
		is( $node->safe_psql('postgres', qq{
				SET TimeZone = 'UTC';
				SELECT string_agg(c.relname, ',' ORDER BY c.relname) = (
				    SELECT string_agg('${t}_p' || to_char(d, 'YYYYMMDD'), ',' ORDER BY d)
				    FROM generate_series(date_trunc('day', now(), 'UTC'), date_trunc('day', now(), 'UTC') + interval '2 days',
				                         '1 day') d)
				FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
				WHERE i.inhparent = '$t'::regclass}),
			't', "$t: the job made today's partition and the next 2 days'");
	}
	$node->safe_psql('postgres', "SELECT cron.unschedule($job)");
}

$node->stop;
done_testing();
