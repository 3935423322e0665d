#!/usr/bin/env bash
# Checks the names of the SQL sources (docs/development.md, "Layout of the
# source"): an install part sql/parts/X.sql declares the C functions of
# src/**/X.c and of no other file (every 'MODULE_PATHNAME', 'symbol' of the
# part is defined in X.o), so each C function has one part, the one named
# after its file; a part that declares no C function is named after what it
# holds and not after a C file; and no name is both a part's and a
# pg_regress input's (sql/X.sql).  Prints TAP, one test per part and one for
# the names of sql/.
# Usage: sql_parts.sh [--skip part]... [object files] (default: every object
# below src/).  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
skip=""
while [ "${1:-}" = --skip ]; do skip="$skip $2"; shift 2; done
. test/unit/symbols.sh
symbols=$(uid_object_symbols "$@") || { printf '%s\n' "$symbols"; exit 1; }
printf '%s\n' "$symbols" | SKIP="$skip" perl -e '
use strict;
use warnings;
my %skip = map { ($_ => 1) } split " ", $ENV{SKIP};
my (%defs, %cfile);
while (<STDIN>) {
	my ($f, $k, $s) = split;
	(my $base = $f) =~ s{^.*/}{};
	$base =~ s/\.c$//;
	$cfile{$base} = $f;
	$defs{$base}{$s} = 1 if $k eq "D";
}
my ($n, $failed) = (0, 0);
sub ok { my ($good, $what, @why) = @_; $n++;
	print $good ? "ok $n - $what\n" : "not ok $n - $what\n";
	unless ($good) { $failed++; print "#   $_\n" for @why } }
my (%part, %declared);
for my $path (sort glob "sql/parts/*.sql") {
	my ($p) = $path =~ m{([^/]+)\.sql$};
	$part{$p} = 1;
	open my $in, "<", $path or die "$path: $!";
	my $s = do { local $/; <$in> };
	close $in;
	$s =~ s/--[^\n]*//g;
	my %syms = map { ($_ => 1) } $s =~ /\x27MODULE_PATHNAME\x27\s*,\s*\x27(\w+)\x27/g;
	if ($skip{$p}) { print "# $path skipped\n"; next }
	if (!%syms) {
		ok(!exists $cfile{$p}, "$path declares no C function and is not named after a C file",
		   exists $cfile{$p} ? ("src/$cfile{$p} exists: its functions belong in $path, or name this part after what it holds") : ());
		next;
	}
	my @bad = grep { !$defs{$p}{$_} } sort keys %syms;
	ok(exists $cfile{$p} && !@bad, "$path declares C functions of src/**/$p.c only",
	   exists $cfile{$p} ? (map { "$_ is not defined in src/$cfile{$p}" } @bad)
	                     : ("no src/**/$p.c: name the part after the file of its C functions"));
}
# no file name of sql/ means two things
my @both = grep { $part{$_} } map { m{^sql/(.*)\.sql$} } glob "sql/*.sql";
ok(!@both, "no pg_regress input (sql/X.sql) has the name of a part (sql/parts/X.sql)",
   map { "sql/$_.sql and sql/parts/$_.sql: name the test $_\_test" } @both);
print "1..$n\n";
if ($failed) { print "# $failed of $n failed\n"; exit 1 }
'
