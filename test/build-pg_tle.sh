#!/usr/bin/env bash
# Builds pg_tle (pg_tle-*.tar.gz in ../shared/pg_tle) against one PostgreSQL
# version (default 15; the others are test/build-pg.sh's builds), for the test of uid_managed installed through it
# (test/t/171_managed_pgtle.pl).  Prints the directory of its files, laid
# out as "make install DESTDIR=" leaves them: copied over a private install
# of that server (test/lib.sh, tmp_install), they make CREATE EXTENSION
# pg_tle work there.  Never installs into the system's directories.
#
#   bash test/build-pg_tle.sh 15          -> /var/cache/uid-pg/pg_tle-<sha>-on-15-<sha>
#   bash test/build-pg_tle.sh --check 15  exits 0 if the pg_tle sources are
#                                         there, 2 if not (prints nothing)
#
# pg_tle 1.5.2 builds against PostgreSQL 15 to 18; against 19 it does not
# (test/run.sh names the errors and does not try it there).
#
# Cached like Citus (test/build-citus.sh), keyed by the checksums of the
# tarball and of the server; UID_PG_TLE_SOURCES is the directory of the
# tarball (default ../shared/pg_tle).  Needs libkrb5-dev (test/deps.sh):
# libpq/libpq-be.h includes the Kerberos headers.  pg_tle is Apache-2.0: it
# is built and tested with, never shipped.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check_only=
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
major=${1:-15}
. "$top/test/lib.sh"
sources=$(uid_shared_sources pg_tle "${UID_PG_TLE_SOURCES:-}")
tarball=$(ls "$sources"/pg_tle-*.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$tarball" ]; then
	[ -n "$check_only" ] ||
		echo "test/build-pg_tle.sh: no pg_tle-*.tar.gz in $sources (set UID_PG_TLE_SOURCES to its directory)" >&2
	exit 2
fi
[ -z "$check_only" ] || exit 0

uid_extension_build_begin pg_tle "$major" "$tarball"

if ! [ -f /usr/include/krb5.h ] && ! [ -f /usr/include/krb5/krb5.h ]; then
	echo "test/build-pg_tle.sh: the Kerberos headers are missing (sudo bash test/deps.sh installs libkrb5-dev)" >&2
	exit 1
fi

log=$cache/build-pg_tle-$major.log
echo "test/build-pg_tle.sh: building $(basename "$tarball" .tar.gz) against $("$pc" --version) into $out (log: $log)" >&2
build=$(mktemp -d "$cache/build-pg_tle-$major.XXXXXX")
trap 'rm -rf "$build"' EXIT
rm -rf "$out"
started=$SECONDS
set +e
(
	exec >"$log" 2>&1
	set -e
	tar -C "$build" -xzf "$tarball"
	cd "$build"/pg_tle-*/
	make -j"$(nproc)" PG_CONFIG="$pc" with_llvm=no
	make install PG_CONFIG="$pc" with_llvm=no DESTDIR="$build/out"
)
status=$?
set -e
if [ "$status" != 0 ]; then
	echo "test/build-pg_tle.sh: the build of pg_tle against PostgreSQL $major failed; the end of $log:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
mv "$build/out" "$out"
touch "$out/.uid-build-complete"
echo "test/build-pg_tle.sh: built in $((SECONDS - started)) s" >&2
echo "$out"
