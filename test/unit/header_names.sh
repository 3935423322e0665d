#!/usr/bin/env bash
# Checks that each file's interface is the header named after it: every
# function or variable that src/DIR/X.h declares (a line opening with
# "extern" or "PGDLLEXPORT") is defined in src/DIR/X.c.  A reader then finds a
# declaration's code by the header's name, and a file that includes X.h
# depends on X.c and nothing else.  Which file defines a name is read from
# the object files (nm -g), as test/unit/file_graph.sh does.
#
# Two headers are no file's interface and must declare nothing at all
# (constants, types, macros and inline functions only):
#	compat.h	the PostgreSQL version layer, which has no .c file;
#	ids.h		what every file shares about IDs: the ID layout, the UUID
#				bits, the error codes, the clock read.  It is named for what
#				it holds, not after a file: uid.c is the module entry
#				(_PG_init), which no other file calls, so it has no
#				interface; were ids.h to declare functions, every file would
#				depend on the file that defines them and recompile with it.
#
# Usage: header_names.sh [object files] (default: every object below src/).  Prints TAP, one test per header; a failure names each declaration
# and the file that defines it.  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
. test/unit/symbols.sh
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
symbols=$(uid_object_symbols "$@") || { printf '%s\n' "$symbols"; exit 1; }
# "symbol file.c" for each symbol an object defines
printf '%s\n' "$symbols" | awk '$2 == "D" { print $3, $1 }' >"$defs"
perl -e '
use strict;
use warnings;
my ($defs, @headers) = @ARGV;
my %def;
open my $d, "<", $defs or die "$defs: $!";
while (<$d>) { my ($s, $f) = split; $def{$s} = $f }
close $d;
# the headers that are no file interface and must declare nothing
my %shared = ("compat.h" => 1, "ids.h" => 1);
my ($n, $failed, $misplaced) = (0, 0, 0);
for my $h (@headers) {
	(my $name = $h) =~ s{^src/}{};
	(my $c = $name) =~ s/\.h$/.c/;
	open my $in, "<", $h or die "$h: $!";
	my $text = do { local $/; <$in> };
	close $in;
	$text =~ s{/\*.*?\*/}{}gs;			# comments
	my @bad;
	for my $line (split /\n/, $text) {
		next unless $line =~ /^\s*(?:extern|PGDLLEXPORT)\b/;
		next if $line =~ /^\s*extern\s+"C"/;
		# a function: the name before the first "("; a variable: the last
		# name before ";" or "["
		my $sym;
		if ($line =~ /([A-Za-z_]\w*)\s*\(/) { $sym = $1 }
		elsif ($line =~ /([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;/) { $sym = $1 }
		next unless defined $sym;
		my $where = $def{$sym} // "no object of ours";
		push @bad, "$sym (defined in $where)" if $shared{$name} || $where ne $c;
	}
	$n++;
	my $what = $shared{$name} ? "$name declares no function or variable (shared by every file)"
		: "$name declares only what $c defines";
	if (@bad) {
		$failed++;
		$misplaced += @bad;
		print "not ok $n - $what\n";
		print "#   $name declares $_\n" for @bad;
	} else {
		print "ok $n - $what\n";
	}
}
print "1..$n\n";
print "# $failed of $n headers declare $misplaced functions or variables that another file defines\n" if $failed;
exit($failed ? 1 : 0);
' "$defs" $(find src -name '*.h' | sort)
