#!/usr/bin/env bash
# Checks that no call cycle runs between the extension's files.  From the
# object files (nm): file A calls file B when a symbol undefined in A is
# defined in B; symbols no object of ours defines (PostgreSQL's, libc's,
# libpq's) are ignored.  Prints the graph as comments and TAP: one test per
# file that is on no cycle; a cycle is named, e.g. "a.c -> b.c -> a.c".
# Usage: file_graph.sh [object files] (default: every object below src/).
# Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
. test/unit/symbols.sh
symbols=$(uid_object_symbols "$@") || { printf '%s\n' "$symbols"; exit 1; }
printf '%s\n' "$symbols" | perl -e '
use strict;
use warnings;
my (%def, %undef, %files);
while (<STDIN>) {
	my ($f, $k, $s) = split;
	$files{$f} = 1;
	if ($k eq "D") { $def{$s} = $f } else { push @{$undef{$f}}, $s }
}
my %edge;
for my $f (keys %undef) {
	for my $s (@{$undef{$f}}) {
		my $g = $def{$s};
		next unless defined $g && $g ne $f;
		push @{$edge{$f}{$g}}, $s;
	}
}
for my $f (sort keys %files) {
	my @to = sort keys %{$edge{$f} || {}};
	print "# $f -> ", (@to ? join(", ", @to) : "(nothing)"), "\n";
}
# the strongly connected components (Tarjan): each of more than one file
# holds a cycle; name the shortest one through each of its files
my ($index, @stack, %idx, %low, %on, @sccs) = (0);
my $visit;
$visit = sub {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{$edge{$v} || {}}) {
		if (!defined $idx{$w}) { $visit->($w); $low{$v} = $low{$w} if $low{$w} < $low{$v} }
		elsif ($on{$w} && $idx{$w} < $low{$v}) { $low{$v} = $idx{$w} }
	}
	if ($low{$v} == $idx{$v}) {
		my @c;
		while (1) { my $w = pop @stack; $on{$w} = 0; push @c, $w; last if $w eq $v }
		push @sccs, [sort @c] if @c > 1;
	}
};
for my $f (sort keys %files) { $visit->($f) unless defined $idx{$f} }
# the shortest cycle through s inside the component (breadth first)
sub shortest_cycle {
	my ($s, $in) = @_;
	my %prev = ($s => undef);
	my @queue = ($s);
	while (defined(my $v = shift @queue)) {
		for my $w (sort keys %{$edge{$v} || {}}) {
			next unless $in->{$w};
			if ($w eq $s) {
				my @path = ($s);		# s -> ... -> v -> s
				for (my $u = $v; $u ne $s; $u = $prev{$u}) { unshift @path, $u }
				unshift @path, $s;
				return @path;
			}
			next if exists $prev{$w};
			$prev{$w} = $v;
			push @queue, $w;
		}
	}
	return ();
}
my $n = 0;
for my $c (sort { $a->[0] cmp $b->[0] } @sccs) {
	my %in = map { $_ => 1 } @$c;
	my %named;
	$n++;
	print "not ok $n - call cycle among ", join(", ", @$c), "\n";
	for my $s (@$c) {
		my @path = shortest_cycle($s, \%in);
		# one line per cycle, whichever of its files it was found from
		my @ring = @path[0 .. $#path - 1];
		my ($min) = sort @ring;
		my $at = (grep { $ring[$_] eq $min } 0 .. $#ring)[0];
		my $key = join(" ", @ring[$at .. $#ring], @ring[0 .. $at - 1]);
		next if $named{$key}++;
		print "#   cycle: ", join(" -> ", @path), "\n";
		print "#     $path[$_] calls ", join(", ", @{$edge{$path[$_]}{$path[$_ + 1]}}), "\n" for 0 .. $#path - 1;
	}
}
my $failed = $n;
$n++;
print((@sccs ? "not ok" : "ok"), " $n - ", scalar(keys %files), " files, ",
	  (@sccs ? scalar(@sccs) . " groups of files call each other in a cycle" : "no call cycle"), "\n");
print "1..$n\n";
exit($failed ? 1 : 0);
'
