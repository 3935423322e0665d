#!/usr/bin/env bash
# Checks that docs/guarantees.md names every Perl TAP file (test/t/NNN_*.pl)
# as "TAP NNN" (or in a list or range after "TAP": "TAP 020-022, 074"), by
# the guarantee it proves or by why it proves none.  Prints TAP, one test
# per file.  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
perl -e '
use strict;
use warnings;
my $doc = "docs/guarantees.md";
open my $in, "<", $doc or die "$doc: $!";
my $text = do { local $/; <$in> };
close $in;
$text =~ s/\s+/ /g;
my %named;
while ($text =~ /\bTAP ((?:\d{3}(?:-\d{3})?)(?:(?:,| and|, and|;) \d{3}(?:-\d{3})?)*)/g) {
	for my $item (split /(?:,| and|;) /, $1) {
		my ($from, $to) = split /-/, $item;
		$named{sprintf "%03d", $_} = 1 for $from .. ($to // $from);
	}
}
my ($n, $failed) = (0, 0);
for my $f (sort glob "test/t/[0-9]*.pl") {
	my ($num) = $f =~ m{/(\d{3})_};
	$n++;
	if ($named{$num}) { print "ok $n - $doc names $f (TAP $num)\n" }
	else { $failed++; print "not ok $n - $doc names $f (TAP $num)\n" }
}
print "1..$n\n";
print "# $failed of $n TAP files are not named in $doc\n" if $failed;
exit($failed ? 1 : 0);
'
