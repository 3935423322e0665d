#!/usr/bin/env bash
# Checks that the metrics table of docs/operations.md ("Prometheus: metrics
# and alerts") lists exactly the metrics monitoring/uid-queries.yml exports:
# postgres_exporter names each column <top-level key>_<column>, and a LABEL
# column is a label, not a metric.  Prints TAP, one test per metric and one
# for the table's extra names.  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
perl -e '
use strict;
use warnings;
my ($yml, $doc) = ("monitoring/uid-queries.yml", "docs/operations.md");
open my $q, "<", $yml or die "$yml: $!";
my (%exported, $prefix, $column);
while (<$q>) {
	if (/^([a-z_]+):\s*$/) { $prefix = $1; next }
	if (/^    - ([a-z_]+):\s*$/) { $column = $1; next }
	if (/^        usage: "([A-Z]+)"/) {
		die "$yml: usage outside a metric at line $.\n" unless $prefix && $column;
		$exported{"${prefix}_$column"} = 1 unless $1 eq "LABEL";
		undef $column;
	}
}
close $q;
die "$yml: no metric found\n" unless %exported;
open my $d, "<", $doc or die "$doc: $!";
my $text = do { local $/; <$d> };
close $d;
my ($section) = $text =~ /^## Prometheus: metrics and alerts\n(.*?)^## /ms
  or die "$doc: no section \"Prometheus: metrics and alerts\"\n";
my %listed;
for my $row (grep { /^\| `uid_/ } split /\n/, $section) {
	my ($first) = $row =~ /^\|([^|]*)\|/;
	$listed{$1} = 1 while $first =~ /`(uid_[a-z_]+)(?:\{[^}]*\})?`/g;
}
my ($n, $failed) = (0, 0);
for my $m (sort keys %exported) {
	$n++;
	if ($listed{$m}) { print "ok $n - $doc lists $m\n" }
	else { $failed++; print "not ok $n - $doc lists $m, which $yml exports\n" }
}
my @extra = grep { !$exported{$_} } sort keys %listed;
$n++;
if (@extra) { $failed++; print "not ok $n - $doc lists metrics $yml does not export: @extra\n" }
else { print "ok $n - $doc lists no metric $yml does not export\n" }
print "1..$n\n";
exit($failed ? 1 : 0);
'
