#!/usr/bin/env bash
# Checks where sql/parts/*.sql write OPERATOR(pg_catalog.op): only where an
# operator resolves on a search_path that others may write.  A function that
# pins search_path = pg_catalog, pg_temp resolves every unqualified operator
# in pg_catalog (docs/security.md), so its body writes operators plainly; the
# qualified form stays in statements the install and upgrade scripts run
# themselves (constraints, views, operator definitions) and in the bodies of
# functions that do not pin (none today: test/pgtap/privileges.sql lists
# them).  Prints TAP, one test per part.  Run by "make check-unit".
# The parts named as arguments are skipped (the Makefile names those whose
# bodies still qualify every operator).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
perl -e '
use strict;
use warnings;
my %skip = map { ($_ => 1) } @ARGV;
my ($n, $failed) = (0, 0);
for my $path (sort glob "sql/parts/*.sql") {
	my ($part) = $path =~ m{([^/]+)\.sql$};
	next if $skip{$part};
	open my $in, "<", $path or die "$path: $!";
	my $s = do { local $/; <$in> };
	close $in;
	# top-level statements, each with its dollar-quoted bodies cut out
	my (@bad, $head, @bodies);
	$head = "";
	my $i = 0;
	my $end_statement = sub {
		(my $h = $head) =~ s/--[^\n]*//g;
		my ($name) = $h =~ /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\s+([^\s(]+)/i;
		if (defined $name && $h =~ /\bSET\s+search_path\s*=\s*pg_catalog\s*,\s*pg_temp\b/i) {
			for my $b (@bodies) {
				push @bad, "$name (line $b->[1])" if $b->[0] =~ /OPERATOR\(pg_catalog\./;
			}
		}
		($head, @bodies) = ("");
	};
	while ($i < length $s) {
		my $rest = substr $s, $i;
		if ($rest =~ /^(--[^\n]*\n?|\/\*.*?\*\/|\x27(?:[^\x27]|\x27\x27)*\x27|"[^"]*")/s) {
			$head .= $1; $i += length $1; next;
		}
		if ($rest =~ /^(\$([A-Za-z_][A-Za-z0-9_]*)?\$)/ && ($i == 0 || substr($s, $i - 1, 1) !~ /\w/)) {
			my $tag = $1;
			my $close = index $s, $tag, $i + length $tag;
			die "$path: unterminated $tag" if $close < 0;
			my $line = 1 + (() = substr($s, 0, $i) =~ /\n/g);
			push @bodies, [substr($s, $i + length $tag, $close - $i - length $tag), $line];
			$i = $close + length $tag; next;
		}
		my $c = substr $s, $i, 1;
		$head .= $c; $i++;
		$end_statement->() if $c eq ";";
	}
	$end_statement->();
	$n++;
	if (@bad) {
		$failed++;
		print "not ok $n - $path: no OPERATOR(pg_catalog.op) in a body that pins search_path\n";
		print "#   $_\n" for @bad;
	} else {
		print "ok $n - $path: no OPERATOR(pg_catalog.op) in a body that pins search_path\n";
	}
}
print "1..$n\n";
if ($failed) { print "# $failed of $n failed\n"; exit 1 }
' "$@"
