# The README's SQL as a new user pastes it: every ```sql block of README.md,
# in order, on a server set up as test/demo.sh sets one up (its settings,
# uid_demo_conf of test/lib.sh, and its SQL, test/demo.sql, taken from
# where the demo takes them), in the demo's database.  A block fails the
# test if any statement of it fails.  Where a block's comments show JSON
# with ids (-- [{"id":"..."}]), its output must carry the ids as strings.
# A block may be left out only by a marker on the line before it
# (<!-- readme-sql: skip, the reason -->), and the test names each one it
# left out.
#
# Then, in a database of its own (CREATE EXTENSION uid and nothing else),
# the blocks of docs/exposing-ids.md that need no table of the reader's:
# those of "Text forms" and "The uid type" before "Moving a bigint column to
# it"; the first one's comments are the exact values its statements return,
# and JSON in a block's output carries no id as a number.  Its later blocks,
# and the other docs' SQL, use tables, roles and parameters of an
# application, and are not run.
#
# Last, the table of functions of docs/reference.md (the README links to
# it) against the server's catalog: every signature it writes out (names,
# types and defaults) is one the extension installed, one written as a
# shorthand (`uid_first_at(ts)`) names a function of that many arguments,
# and every installed form of a function the table names is in it, so that
# a parameter added to a function cannot leave its row behind.
use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTap;

my $top = "$FindBin::RealBin/../..";

# The ```sql blocks of a Markdown file: [text, line, skip reason or undef];
# with $until, those before the line $until, which must be there
sub sql_blocks
{
	my ($file, $until) = @_;
	open my $fh, '<', $file or die "$file: $!";
	my (@blocks, $in, $start, $text, $skip, $prev, $found);
	while (my $line = <$fh>)
	{
		if (defined $until && !$in && $line eq "$until\n")
		{
			$found = 1;
			last;
		}
		if (!$in && $line =~ /^```sql\s*$/)
		{
			($in, $start, $text) = (1, $., '');
			$skip = defined $prev
			  && $prev =~ /^<!--\s*readme-sql:\s*skip,?\s*(.*?)\s*-->\s*$/ ? $1 : undef;
		}
		elsif ($in && $line =~ /^```\s*$/)
		{
			push @blocks, [ $text, $start, $skip ];
			$in = 0;
		}
		elsif ($in)
		{
			$text .= $line;
		}
		$prev = $line if $line =~ /\S/;
	}
	die "$file: a ```sql block from line $start does not end" if $in;
	die "$file: no line '$until'" if defined $until && !$found;
	return @blocks;
}

# The demo's server: its settings, then its SQL
my $node = PostgreSQL::Test::Cluster->new('readme');
$node->init;
my $conf = `bash -c '. "\$1/test/lib.sh" && uid_demo_conf' - "$top"`;
die "uid_demo_conf failed" if $? || $conf !~ /shared_preload_libraries/;
$node->append_conf('postgresql.conf', $conf);
$node->start;

my ($ret, $out, $err) = $node->psql('postgres', slurp_file("$top/test/demo.sql"));
is($ret, 0, 'test/demo.sql runs') or diag($err);

# Runs one block in database $db; returns its output (psql -At)
sub run_block
{
	my ($db, $where, $sql) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql);
	is($ret, 0, "$where runs as pasted") or diag($err);
	unlike($err, qr/^(psql:.*)?(ERROR|FATAL)/m, "$where: no error") if $ret == 0;
	return $out;
}

my @readme = sql_blocks("$top/README.md");
cmp_ok(scalar(@readme), '>=', 3, 'the README has its SQL blocks');
for my $b (@readme)
{
	my ($sql, $line, $skip) = @$b;
	my $where = "README.md line $line";
	if (defined $skip)
	{
		note("left out: $where ($skip)");
		next;
	}
	my $out = run_block('uid_demo', $where, $sql);
	if ($sql =~ /^\s*--.*"id":"/m)
	{
		like($out, qr/"id":"\d+"/, "$where: JSON carries the ids as strings");
		unlike($out, qr/"id":\s*\d/, "$where: and no id as a number");
	}
}
my @skipped = grep { defined $_->[2] } @readme;
is(scalar(@skipped), 1, 'one README block is left out (uid_whence() needs a lease store)');

# docs/exposing-ids.md, in a database of its own
$node->safe_psql('postgres', 'CREATE DATABASE docs');
$node->safe_psql('docs', 'CREATE EXTENSION uid');
my @docs = sql_blocks("$top/docs/exposing-ids.md", '### Moving a bigint column to it');
cmp_ok(scalar(@docs), '>=', 4, 'docs/exposing-ids.md: its first blocks');
for my $i (0 .. $#docs)
{
	my ($sql, $line) = @{ $docs[$i] };
	my $where = "docs/exposing-ids.md line $line";
	my $out = run_block('docs', $where, $sql);
	unlike($out, qr/"id"\s*:\s*\d/, "$where: no id as a JSON number");
	next if $i;
	my @expected = map { /--\s+(\S+)/ ? $1 : () } split /\n/, $sql;
	is_deeply([ split /\n/, $out ], \@expected,
		"$where: the first example returns what its comments say");
}

# The table of functions of docs/reference.md, the rows of its section
# "Functions" (not the notes below the table): [name, arguments as written]
my $reference = 'docs/reference.md';
my @documented;
{
	my $in = 0;
	for my $line (split /\n/, slurp_file("$top/$reference"))
	{
		$in = 1 if $line eq '## Functions';
		last if $in && $line =~ /^## / && $line ne '## Functions';
		next unless $in && $line =~ /^\|([^|]*)\|/;
		my $cell = $1;
		push @documented, [ $1, $2 ] while $cell =~ /`([a-z_0-9]+)\(([^`]*)\)`/g;
	}
}
cmp_ok(scalar(@documented), '>=', 60, "$reference: its table of functions");

# An argument list in one spelling: no OUT parameters, no casts of defaults,
# PostgreSQL's names of the types the table abbreviates
sub arguments
{
	my ($list) = @_;
	my @args = grep { !/^OUT / } map { s/^\s+|\s+$//gr } split /,/, $list;
	for (@args)
	{
		s/::[a-z ]+(\[\])?//g;
		s/\bint\b/integer/g;
		s/\btimestamptz\b/timestamp with time zone/g;
		s/\bbool\b/boolean/g;
	}
	return join(', ', @args);
}

# Every form of each function the table names, in uid's schema or pg_catalog
my %names = map { $_->[0] => 1 } @documented;
my %installed;
for my $row (split /\n/, $node->safe_psql('uid_demo', q{
	SELECT p.proname || '|' || pg_get_function_arguments(p.oid)
	FROM pg_proc p
	WHERE p.pronamespace IN ('pg_catalog'::regnamespace,
	                         (SELECT extnamespace FROM pg_extension WHERE extname = 'uid'))
	  AND p.proname = ANY (string_to_array('} . join(',', sort keys %names) . q{', ','))}))
{
	my ($name, $args) = split /\|/, $row, 2;
	push @{ $installed{$name} }, arguments($args);
}
my %seen;
for my $d (@documented)
{
	my ($name, $written) = @$d;
	my $args = arguments($written);
	my @forms = @{ $installed{$name} || [] };
	if ($written eq '' || !grep { !/ / } split /, /, $args)
	{
		ok((grep { $_ eq $args } @forms), "$reference: $name($written) is installed")
		  or diag("installed: " . join('; ', map { "$name($_)" } @forms));
		$seen{"$name($args)"} = 1;
	}
	else
	{
		my $n = scalar(split /,/, $written);
		my @match = grep { scalar(split /, /, $_) == $n } @forms;
		ok(@match, "$reference: $name($written) names a function of $n arguments");
		$seen{"$name($_)"} = 1 for @match;
	}
}
for my $name (sort keys %installed)
{
	ok($seen{"$name($_)"}, "installed $name($_) is in the table of $reference")
	  for @{ $installed{$name} };
}

$node->stop;
done_testing();
