#!/usr/bin/env bash
# Checks META.json (the PGXN release's metadata) against the PGXN meta spec
# 1.0.0 (https://pgxn.org/meta/spec.txt) and against uid.control: the
# release version and the version of every provided extension are
# default_version as a semantic version (1.2 -> 1.2.0), the files it names
# exist, and debian/changelog releases the same version.  Run by
# "make check-unit" and by "make dist".  Prints TAP.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
perl -MJSON::PP -e '
use strict;
use warnings;
my $n = 0;
my $failed = 0;
sub ok { my ($ok, $what) = @_; $n++; $failed++ unless $ok; print(($ok ? "" : "not "), "ok $n - $what\n"); }

my $meta = eval { local $/; open my $f, "<", "META.json" or die; JSON::PP->new->decode(<$f>) };
ok(defined $meta, "META.json is JSON") or exit 1;
my ($control) = do { local $/; open my $f, "<", "uid.control" or die; <$f> } =~ /^default_version\s*=\s*\x27([^\x27]+)\x27/m;
ok(defined $control, "uid.control has a default_version");
my $semver = $control =~ /^\d+\.\d+$/ ? "$control.0" : $control;
my $sv = qr/^\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+)?$/;

for my $key (qw(name abstract version maintainer license provides meta-spec)) {
	ok(exists $meta->{$key}, "required key $key");
}
ok(($meta->{"meta-spec"}{version} // "") eq "1.0.0", "meta-spec version 1.0.0");
ok(($meta->{name} // "") =~ /^[^\/\\\s]{2,}$/, "name is at least 2 characters without slashes or spaces");
ok(($meta->{version} // "") =~ $sv, "version is a semantic version");
ok(($meta->{version} // "") eq $semver, "version $semver is default_version of uid.control ($control)");
ok(!ref $meta->{maintainer} || (ref $meta->{maintainer} eq "ARRAY" && @{$meta->{maintainer}}),
   "maintainer is a string or a non-empty list");
my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5 postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
ok(ref $meta->{license} || $licenses{$meta->{license} // ""}, "license is one the spec names");
ok(-f ($meta->{resources}{x_license_file} // ""), "resources: x_license_file names the text of the licence in the tree");
ok(grep({ ($meta->{release_status} // "stable") eq $_ } qw(stable testing unstable)), "release_status is stable, testing or unstable");
ok(exists $meta->{provides}{uid}, "provides the extension uid");
for my $ext (sort keys %{$meta->{provides} // {}}) {
	my $p = $meta->{provides}{$ext};
	ok(defined $p->{file} && -f $p->{file}, "provides $ext: file $p->{file} exists");
	ok(($p->{version} // "") eq $semver, "provides $ext: version $semver");
	ok(!defined $p->{docfile} || -f $p->{docfile}, "provides $ext: docfile exists");
}
my $pg = $meta->{prereqs}{runtime}{requires}{PostgreSQL} // "";
ok($pg eq "15.0.0", "prereqs: runtime requires PostgreSQL 15.0.0");
for my $phase (keys %{$meta->{prereqs} // {}}) {
	ok(grep({ $phase eq $_ } qw(configure build test runtime develop)), "prereqs phase $phase is one the spec names");
	for my $rel (keys %{$meta->{prereqs}{$phase}}) {
		ok(grep({ $rel eq $_ } qw(requires recommends suggests conflicts)), "prereqs $phase: relationship $rel");
	}
}
ok(ref($meta->{resources} // {}) eq "HASH", "resources is a hash");
for my $r (keys %{$meta->{resources} // {}}) {
	ok(grep({ $r eq $_ } qw(homepage bugtracker repository)) || $r =~ /^x_/i, "resource $r is one the spec names");
}
my ($deb) = do { local $/; open my $f, "<", "debian/changelog" or die; <$f> } =~ /^uid \(([^)]+)\)/;
ok(defined $deb && $deb =~ /^\Q$semver\E(?:-|$)/, "debian/changelog releases $semver");
print "1..$n\n";
exit($failed ? 1 : 0);
'
