#!/usr/bin/env bash
# Checks that no call cycle runs between the extension's files, and none
# between its folders.  From the object files (nm): file A calls file B when
# a symbol undefined in A is defined in B; symbols no object of ours defines
# (PostgreSQL's, libc's, libpq's) are ignored.  Prints TAP.
#
# Files: the graph as comments, one test per group of files that call each
# other in a cycle, naming the cycle ("a.c -> b.c -> a.c"), and one test for
# the whole.
#
# Folders: a folder of src/ ("core/") calls another when one of its files
# calls, or includes a header of, a file of the other (a header's inline
# functions and macros are calls nm cannot see).  A file at the top of src/
# is a node of its own ("id_layout.c/.h", "ids.h", "uid.c"): the ID layout
# is at the bottom and the module entry at the top, and neither is a folder.
# Prints that graph, its layers from the bottom (a node's layer is one above
# the highest it calls), and one test per node: on no cycle, or the shortest
# cycle through it with the calls and includes that make each step.  The
# order the layers must keep is in docs/development.md ("Layers", under
# "Layout of the source").
#
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
use File::Find;
my (%def, %undef, %files, @incl);
while (<STDIN>) {
	my ($f, $k, $s) = split;
	$files{$f} = 1;
	if ($k eq "D") { $def{$s} = $f } else { push @{$undef{$f}}, $s }
}
# the #include lines of the sources that name a file of src/: [file, header]
find({ no_chdir => 1, wanted => sub {
	return unless /\.[ch]$/;
	(my $f = $File::Find::name) =~ s{^src/}{};
	open my $in, "<", $File::Find::name or die "$File::Find::name: $!";
	while (<$in>) {
		push @incl, [$f, $1] if /^\s*#\s*include\s*"([^"]+)"/ && -f "src/$1";
	}
	close $in;
} }, "src");
# $edge{a}{b}: the reasons a calls b ("a.c calls sym" or "a.c includes b.h")
my %edge;
for my $f (keys %undef) {
	for my $s (@{$undef{$f}}) {
		my $g = $def{$s};
		next unless defined $g && $g ne $f;
		push @{$edge{$f}{$g}}, $s;
	}
}
# the strongly connected components (Tarjan) of more than one node: each
# holds a cycle
sub cycles {
	my ($edge, @nodes) = @_;
	my ($index, @stack, %idx, %low, %on, @sccs) = (0);
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$idx{$v} = $low{$v} = $index++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{$edge->{$v} || {}}) {
			if (!defined $idx{$w}) { $visit->($w); $low{$v} = $low{$w} if $low{$w} < $low{$v} }
			elsif ($on{$w} && $idx{$w} < $low{$v}) { $low{$v} = $idx{$w} }
		}
		if ($low{$v} == $idx{$v}) {
			my @c;
			while (1) { my $w = pop @stack; $on{$w} = 0; push @c, $w; last if $w eq $v }
			push @sccs, [sort @c] if @c > 1;
		}
	};
	for my $v (sort @nodes) { $visit->($v) unless defined $idx{$v} }
	return sort { $a->[0] cmp $b->[0] } @sccs;
}
# the shortest cycle through s inside the component (breadth first), as
# (s, ..., s)
sub shortest_cycle {
	my ($edge, $s, $in) = @_;
	my %prev = ($s => undef);
	my @queue = ($s);
	while (defined(my $v = shift @queue)) {
		for my $w (sort keys %{$edge->{$v} || {}}) {
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
# "#   cycle: ..." and the reasons of each step
sub print_cycle {
	my ($edge, $what, @path) = @_;
	print "#   cycle: ", join(" -> ", @path), "\n";
	for my $i (0 .. $#path - 1) {
		my @why = @{$edge->{$path[$i]}{$path[$i + 1]}};
		my $more = @why > 4 ? " and " . (@why - 4) . " more" : "";
		print "#     $path[$i] $what ", join(", ", @why[0 .. ($#why < 3 ? $#why : 3)]), "$more\n";
	}
}

# ---- files ----
for my $f (sort keys %files) {
	my @to = sort keys %{$edge{$f} || {}};
	print "# $f -> ", (@to ? join(", ", @to) : "(nothing)"), "\n";
}
my @sccs = cycles(\%edge, keys %files);
my $n = 0;
my $failed = 0;
for my $c (@sccs) {
	my %in = map { $_ => 1 } @$c;
	my %named;
	$n++;
	$failed++;
	print "not ok $n - call cycle among ", join(", ", @$c), "\n";
	for my $s (@$c) {
		my @path = shortest_cycle(\%edge, $s, \%in);
		# one line per cycle, whichever of its files it was found from
		my @ring = @path[0 .. $#path - 1];
		my ($min) = sort @ring;
		my $at = (grep { $ring[$_] eq $min } 0 .. $#ring)[0];
		my $key = join(" ", @ring[$at .. $#ring], @ring[0 .. $at - 1]);
		next if $named{$key}++;
		print_cycle(\%edge, "calls", @path);
	}
}
$n++;
print((@sccs ? "not ok" : "ok"), " $n - ", scalar(keys %files), " files, ",
	  (@sccs ? scalar(@sccs) . " groups of files call each other in a cycle" : "no call cycle"), "\n");

# ---- folders ----
# the node of a file below src/: its folder, or at the top the file itself
# ("x.c/.h" for a file and its header)
my %top_c = map { m{^([^/]+)\.c$} ? ($1 => 1) : () } keys %files, map { @$_ } @incl;
my %top_h = map { m{^([^/]+)\.h$} ? ($1 => 1) : () } map { @$_ } @incl;
sub node {
	my ($f) = @_;
	return "$1/" if $f =~ m{^([^/]+)/};
	(my $stem = $f) =~ s/\.[ch]$//;
	return "$stem.c/.h" if $top_c{$stem} && $top_h{$stem};
	return $f;
}
my (%fedge, %nodes);
$nodes{node($_)} = 1 for keys %files;
for my $f (keys %edge) {
	for my $g (keys %{$edge{$f}}) {
		my ($a, $b) = (node($f), node($g));
		push @{$fedge{$a}{$b}}, "$f calls " . join(", ", @{$edge{$f}{$g}}) . " ($g)" if $a ne $b;
	}
}
for my $i (@incl) {
	my ($a, $b) = (node($i->[0]), node($i->[1]));
	$nodes{$a} = $nodes{$b} = 1;
	push @{$fedge{$a}{$b}}, "$i->[0] includes $i->[1]" if $a ne $b;
}
print "# folders of src/ (and the files at its top): what each calls or includes\n";
for my $v (sort keys %nodes) {
	my @to = sort keys %{$fedge{$v} || {}};
	print "# $v -> ", (@to ? join(", ", @to) : "(nothing)"), "\n";
}
my @fsccs = cycles(\%fedge, keys %nodes);
my %on_cycle;
for my $c (@fsccs) { $on_cycle{$_} = $c for @$c }
# the layers, from the bottom, where there is no cycle
unless (@fsccs) {
	my %layer;
	my $depth;
	$depth = sub {
		my ($v) = @_;
		return $layer{$v} if defined $layer{$v};
		my $l = 0;
		for my $w (keys %{$fedge{$v} || {}}) { my $d = $depth->($w) + 1; $l = $d if $d > $l }
		return $layer{$v} = $l;
	};
	$depth->($_) for keys %nodes;
	my @by;
	push @{$by[$layer{$_}]}, $_ for sort keys %nodes;
	print "# layers, from the bottom:\n";
	print "#   $_: ", join(", ", @{$by[$_]}), "\n" for 0 .. $#by;
}
for my $v (sort keys %nodes) {
	$n++;
	if (!$on_cycle{$v}) {
		print "ok $n - $v is on no cycle between folders\n";
		next;
	}
	$failed++;
	my %in = map { $_ => 1 } @{$on_cycle{$v}};
	my @path = shortest_cycle(\%fedge, $v, \%in);
	print "not ok $n - $v is on a cycle between folders: ", join(" -> ", @path), "\n";
	print_cycle(\%fedge, "->", @path);
}
print "1..$n\n";
exit($failed ? 1 : 0);
'
