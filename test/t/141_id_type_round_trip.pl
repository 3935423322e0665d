# Every value a uid column can hold comes back whole (contract, invariant
# 19).  The type takes bigint's whole range in through its casts, so its
# input (uid_in, text) and receive (uid_recv, binary) functions read that
# whole range back, negative values included.
#
# Into uid columns, through every path that stores a value in one: integer
# and smallint literals (implicit casts), a bigint expression (the binary
# assignment cast), a bigint bind parameter, uid_adopt(..., as_uid => true)
# of a bigint column, ALTER COLUMN TYPE uid of a bigint column (which keeps
# the table's file: the cast is binary), and issued ids, go
# -9223372036854775808, -1, 0, 1, 9223372036854775807 (or the type's own
# extremes for integer and smallint).  They come back unchanged from:
#
#  - pg_dump plain (through psql), custom and directory (pg_restore), each
#    into a new database;
#  - COPY TO and FROM a file, in text and in binary;
#  - logical replication to a second server, in text and with binary = true:
#    the initial copy and changes streamed after it.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use DBI;
use UidTap;

my $min = '-9223372036854775808';
my $max = '9223372036854775807';
my @edges = ($min, '-1', '0', '1', $max);

my $node = uid_node('round_trip', init => { allows_streaming => 'logical' },
	'uid.worker_id' => 7);
$node->start;
my $bindir = $node->config_data('--bindir');

# ---------------------------------------------------------------------------
# The source: table ids (one row per path and value), the adopted table and
# the altered table
# ---------------------------------------------------------------------------
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', qq{
	CREATE EXTENSION uid;
	CREATE TABLE ids (k bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, path text NOT NULL, id uid);
	INSERT INTO ids (path, id) VALUES
	  ('integer', -2147483648), ('integer', -1), ('integer', 0), ('integer', 1), ('integer', 2147483647);
	INSERT INTO ids (path, id) VALUES
	  ('smallint', (-32768)::smallint), ('smallint', (-1)::smallint), ('smallint', 0::smallint),
	  ('smallint', 1::smallint), ('smallint', 32767::smallint);
	INSERT INTO ids (path, id)
	  SELECT 'bigint', v FROM unnest(ARRAY[$min, -1, 0, 1, $max]::bigint[]) WITH ORDINALITY AS u(v, o) ORDER BY o;
	INSERT INTO ids (path, id) SELECT 'issued', uid_next() FROM generate_series(1, 3);
	INSERT INTO ids (path, id) VALUES ('null', NULL);

	CREATE TABLE adopted (id bigserial PRIMARY KEY, note text);
	INSERT INTO adopted VALUES ($min, 'min'), (-1, 'minus one'), (0, 'zero'), (1, 'one');
	SELECT count(*) FROM uid_adopt('adopted', as_uid => true);
	INSERT INTO adopted (note) VALUES ('issued');

	CREATE TABLE altered (k int PRIMARY KEY, id bigint);
	INSERT INTO altered VALUES (1, $min), (2, -1), (3, 0), (4, 1), (5, $max);
	INSERT INTO altered SELECT 5 + g, uid_next() FROM generate_series(1, 2) g;
});

# a bigint bind parameter (the extended protocol, the parameter typed int8)
my $dbh = DBI->connect('dbi:Pg:host=' . $node->host . ';port=' . $node->port . ';dbname=src',
	'postgres', '', { RaiseError => 1, AutoCommit => 1, PrintError => 0 });
my $insert = $dbh->prepare(q{INSERT INTO ids (path, id) VALUES ('parameter', $1) RETURNING id::text});
$insert->bind_param(1, undef, { pg_type => DBD::Pg::PG_INT8() });
my @returned;
for my $v (@edges)
{
	$insert->execute($v);
	push @returned, $insert->fetchrow_array;
}
$dbh->disconnect;
is(join(',', @returned), join(',', @edges), 'a bigint bind parameter stores every value (RETURNING)');

# ALTER COLUMN TYPE uid from bigint: the cast is binary, the file stays
my $file_before = $node->safe_psql('src', q{SELECT pg_relation_filenode('altered')});
$node->safe_psql('src', 'ALTER TABLE altered ALTER COLUMN id TYPE uid');
is($node->safe_psql('src', q{SELECT pg_relation_filenode('altered')}), $file_before,
	'ALTER COLUMN TYPE uid from bigint keeps the table\'s file (rewrites nothing)');

is( $node->safe_psql('src', q{
	SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod),
	                  ', ' ORDER BY attrelid::regclass::text)
	FROM pg_attribute
	WHERE attrelid IN ('ids'::regclass, 'adopted'::regclass, 'altered'::regclass) AND attname = 'id'}),
	'adopted.id uid, altered.id uid, ids.id uid', 'source: every id column is of type uid');

# what the source holds, and each copy must hold
my %rows_sql = (
	ids     => q{SELECT string_agg(path || ':' || coalesce(id::text, 'NULL'), ',' ORDER BY k) FROM ids},
	adopted => q{SELECT string_agg(id::text || ':' || note, ',' ORDER BY id) FROM adopted},
	altered => q{SELECT string_agg(k || ':' || id::text, ',' ORDER BY k) FROM altered});
my %rows = map { $_ => $node->safe_psql('src', $rows_sql{$_}) } keys %rows_sql;

my @issued = split /\n/, $node->safe_psql('src', q{SELECT id FROM ids WHERE path = 'issued' ORDER BY k});
is($rows{ids},
	join(',',
		(map { "integer:$_" } '-2147483648', '-1', '0', '1', '2147483647'),
		(map { "smallint:$_" } '-32768', '-1', '0', '1', '32767'),
		(map { "bigint:$_" } @edges),
		(map { "issued:$_" } @issued),
		'null:NULL',
		(map { "parameter:$_" } @edges)),
	'source: every path stored its values unchanged');
ok(@issued == 3 && (grep { $_ > 0 } @issued) == 3, 'source: three issued ids, positive');
my ($adopted_issued) = $rows{adopted} =~ /(\d+):issued$/;
like($rows{adopted}, qr/^$min:min,-1:minus one,0:zero,1:one,\d+:issued$/,
	'source: uid_adopt(as_uid => true) kept the negative values; the new row has an issued id');
like($rows{altered}, qr/^1:$min,2:-1,3:0,4:1,5:$max,6:\d+,7:\d+$/,
	'source: ALTER COLUMN TYPE kept every value');

sub check_copy
{
	my ($on, $db, $how) = @_;
	for my $t (sort keys %rows_sql)
	{
		is($on->safe_psql($db, $rows_sql{$t}), $rows{$t}, "$how: $t has the same rows");
	}
	is( $on->safe_psql($db, q{
		SELECT count(*) FROM pg_attribute
		WHERE attrelid IN ('ids'::regclass, 'adopted'::regclass, 'altered'::regclass)
		  AND attname = 'id' AND atttypid = 'uid'::regtype}),
		'3', "$how: the id columns are of type uid");
	return;
}

# ---------------------------------------------------------------------------
# pg_dump: plain through psql, custom and directory through pg_restore
# ---------------------------------------------------------------------------
my $dir = $node->basedir;
my %formats = (plain => 'p', custom => 'c', directory => 'd');
for my $format (sort keys %formats)
{
	my $out = "$dir/src.$format";
	command_ok([ "$bindir/pg_dump", "-F$formats{$format}", '-f', $out, '--dbname=' . $node->connstr('src') ],
		"pg_dump, $format format");
	$node->safe_psql('postgres', "CREATE DATABASE dst_$format");
	if ($format eq 'plain')
	{
		command_ok([ "$bindir/psql", '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-f', $out,
				'--dbname=' . $node->connstr("dst_$format") ], 'the plain dump restores through psql');
	}
	else
	{
		command_ok([ "$bindir/pg_restore", '--exit-on-error', '--dbname=' . $node->connstr("dst_$format"), $out ],
			"pg_restore of the $format dump");
	}
	check_copy($node, "dst_$format", "pg_dump $format");
}

# ---------------------------------------------------------------------------
# COPY to and from files, text and binary
# ---------------------------------------------------------------------------
for my $format (qw(text binary))
{
	$node->safe_psql('src', qq{
		CREATE TABLE ids_$format (LIKE ids INCLUDING ALL);
		COPY ids TO '$dir/ids.$format' (FORMAT $format);
	});
	my ($ret, $stdout, $stderr) = $node->psql('src', qq{COPY ids_$format FROM '$dir/ids.$format' (FORMAT $format)});
	is($ret . $stderr, '0', "COPY $format: the file loads back");
	(my $sql = $rows_sql{ids}) =~ s/FROM ids/FROM ids_$format/;
	is($node->safe_psql('src', $sql), $rows{ids}, "COPY $format: every value comes back");
}

# ---------------------------------------------------------------------------
# Logical replication, text and binary
# ---------------------------------------------------------------------------
# Apply and copy errors of the subscriptions of the current database:
# every *_error_count column of pg_stat_subscription_stats.
my $errors_sql = q{(SELECT coalesce(sum(e.value::bigint), 0)
	  FROM pg_stat_subscription_stats s
	  JOIN pg_subscription p ON p.oid = s.subid AND p.subdbid =
	       (SELECT oid FROM pg_database WHERE datname = current_database()),
	       json_each_text(row_to_json(s)) e
	 WHERE e.key LIKE '%error_count')};

my $sub = uid_node('round_trip_sub', 'uid.worker_id' => 8);
$sub->start;
$node->safe_psql('src', 'CREATE PUBLICATION pub FOR TABLE ids, adopted, altered');
(my $conn = $node->connstr('src')) =~ s/'/''/g;
my $schema = $node->safe_psql('src', q{
	SELECT string_agg(format('CREATE TABLE %I (%s);', c.relname,
	         (SELECT string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' ORDER BY a.attnum)
	          FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)), ' ')
	FROM pg_class c WHERE c.relname IN ('ids', 'adopted', 'altered')});
for my $mode (qw(text binary))
{
	my $binary = $mode eq 'binary' ? 'true' : 'false';
	$sub->safe_psql('postgres', "CREATE DATABASE sub_$mode");
	$sub->safe_psql("sub_$mode", qq{
		CREATE EXTENSION uid;
		$schema
		CREATE SUBSCRIPTION sub_$mode CONNECTION '$conn' PUBLICATION pub
		  WITH (binary = $binary, slot_name = 'sub_$mode');
	});
}
# rows that arrive as changes after the initial copy
$node->safe_psql('src', qq{
	INSERT INTO ids (path, id)
	  SELECT 'streamed', v FROM unnest(ARRAY[$min, -1, 0, 1, $max]::bigint[]) WITH ORDINALITY AS u(v, o) ORDER BY o;
	INSERT INTO ids (path, id) SELECT 'streamed', uid_next();
});
$rows{ids} = $node->safe_psql('src', $rows_sql{ids});
like($rows{ids}, qr/,streamed:$min,streamed:-1,streamed:0,streamed:1,streamed:$max,streamed:\d+$/,
	'publisher: the streamed rows');
my $count = $node->safe_psql('src', 'SELECT (SELECT count(*) FROM ids) + (SELECT count(*) FROM adopted) + (SELECT count(*) FROM altered)');
for my $mode (qw(text binary))
{
	# until every row has arrived or an apply or copy failed
	ok( $sub->poll_query_until("sub_$mode", qq{
		SELECT $errors_sql > 0
		    OR (SELECT count(*) FROM ids) + (SELECT count(*) FROM adopted) + (SELECT count(*) FROM altered) = $count}),
		"$mode: the subscriber holds as many rows as the publisher, or failed");
	is($sub->safe_psql("sub_$mode", "SELECT $errors_sql"), '0', "$mode: no apply or copy error");
	check_copy($sub, "sub_$mode", "logical replication, $mode");
}

$sub->stop;
$node->stop;
done_testing();
