#!/usr/bin/env bash
# Checks the rule "every SQLSTATE uid raises is in the README's error
# table": each code that src/ raises (errcode(ERRCODE_...), uid's own codes
# from src/ids.h, PostgreSQL's from the server's utils/errcodes.h) and that
# sql/parts raises (ERRCODE = '...' by code or condition name, and the
# _raise('...') of the ticket and counter functions) has a row in the table
# of README.md's "Errors" section, and a section of its own in
# docs/reference.md's "Errors" (the longer text, "### 55000 ..."), which the
# row links to.  Prints TAP, one test per code.  Run by "make check-unit"
# (argument: pg_config).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
errcodes="$("${1:-pg_config}" --includedir-server)/utils/errcodes.h"
perl -e '
use strict;
use warnings;
my ($errcodes) = @ARGV;
sub slurp { my ($f) = @_; open my $h, "<", $f or die "$f: $!"; local $/; return scalar <$h> }
# ERRCODE_NAME -> SQLSTATE, PostgreSQL'"'"'s and uid'"'"'s
my %code;
for my $text (slurp($errcodes), slurp("src/ids.h")) {
	while ($text =~ /#define\s+(ERRCODE_[A-Z0-9_]+)\s+MAKE_SQLSTATE\(([^)]*)\)/g) {
		my ($name, $chars) = ($1, $2);
		$code{$name} = join("", $chars =~ /\x27(.)\x27/g);
	}
}
my %raised;    # SQLSTATE -> where
for my $f (sort glob("src/*.[ch] src/*/*.[ch]")) {
	my $text = slurp($f);
	while ($text =~ /errcode\(\s*(ERRCODE_[A-Z0-9_]+)\s*\)/g) {
		my $c = $code{$1} // die "$f: $1 is no SQLSTATE known here\n";
		$raised{$c} //= $f;
	}
}
for my $f (sort glob("sql/parts/*.sql")) {
	my $text = slurp($f);
	while ($text =~ /ERRCODE\s*=\s*\x27([^\x27]+)\x27|_raise\(\x27([0-9A-Z]{5})\x27/g) {
		my $c = $2 // $1;
		$c = $code{"ERRCODE_" . uc $c} // die "$f: condition $c is no SQLSTATE known here\n"
		  unless $c =~ /^[0-9A-Z]{5}$/;
		$raised{$c} //= $f;
	}
}
die "no SQLSTATE found in src/ and sql/parts\n" unless %raised;
my ($readme) = slurp("README.md") =~ /^## Errors\n(.*?)(?=^## |\z)/ms
  or die "README.md: no section \"Errors\"\n";
my ($reference) = slurp("docs/reference.md") =~ /^## Errors\n(.*?)(?=^## |\z)/ms
  or die "docs/reference.md: no section \"Errors\"\n";
# code -> the anchor of its section ("### 55000 object_not_in_prerequisite_state")
my %section;
for my $h ($reference =~ /^### ([0-9A-Z]{5}\b.*)$/mg) {
	my $anchor = lc $h;
	$anchor =~ s/[^\w\- ]//g;
	$anchor =~ s/ /-/g;
	$section{uc substr($h, 0, 5)} = $anchor;
}
my (%row, %link);
for my $line (grep { /^\| \[?`/ } split /\n/, $readme) {
	my ($first) = $line =~ /^\|([^|]*)\|/;
	for my $c ($first =~ /`([0-9A-Z]{5})`/g) {
		$row{$c} = 1;
		$link{$c} = 1 if $section{$c} && $line =~ /\(docs\/reference\.md#\Q$section{$c}\E\)/;
	}
}
my ($n, $failed) = (0, 0);
for my $c (sort keys %raised) {
	$n++;
	my @missing = ((!$row{$c} ? "a row in the README'"'"'s error table" : ()),
		($row{$c} && $section{$c} && !$link{$c} ? "the row'"'"'s link to docs/reference.md#$section{$c}" : ()),
		(!$section{$c} ? "a section \"### $c ...\" in docs/reference.md" : ()));
	if (@missing) { $failed++; print "not ok $n - $c (raised in $raised{$c}) lacks ", join(" and ", @missing), "\n" }
	else { print "ok $n - $c (raised in $raised{$c}) is in the README'"'"'s error table and docs/reference.md\n" }
}
print "1..$n\n";
exit($failed ? 1 : 0);
' "$errcodes"
