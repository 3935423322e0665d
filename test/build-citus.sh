#!/usr/bin/env bash
# Builds Citus (citus-*.tar.xz in ../shared/citus) against one PostgreSQL
# version (default 17; Citus 14 builds against 16, 17 and 18), for tests on
# a real distributed cluster.  Prints the directory of its files, laid out
# as "make install DESTDIR=" leaves them: copied over a private install of
# that server (test/lib.sh, tmp_install), they make CREATE EXTENSION citus
# work there.
#
#   bash test/build-citus.sh 17          -> /var/cache/uid-pg/citus-<sha>-on-17-<sha>
#   bash test/build-citus.sh --check 17  exits 0 if the Citus sources are
#                                        there, 2 if not (prints nothing)
#
# Cached like the servers (test/build-pg.sh, UID_PG_CACHE), keyed by the
# checksums of the Citus tarball and of the server's; the server is built
# first if needed.  UID_CITUS_SOURCES is the directory of the tarball
# (default ../shared/citus, found as test/build-pg.sh finds ../shared/pg).
# Needs liblz4-dev and libzstd-dev (test/deps.sh installs them).  Citus is
# AGPL-3.0: it is built and tested with, never shipped.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check_only=
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
major=${1:-17}
. "$top/test/lib.sh"
sources=$(uid_shared_sources citus "${UID_CITUS_SOURCES:-}")
tarball=$(ls "$sources"/citus-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$tarball" ]; then
	[ -n "$check_only" ] ||
		echo "test/build-citus.sh: no citus-*.tar.xz in $sources (set UID_CITUS_SOURCES to its directory)" >&2
	exit 2
fi
[ -z "$check_only" ] || exit 0

uid_extension_build_begin citus "$major" "$tarball"

for lib in lz4 libzstd; do
	pkg-config --exists "$lib" 2>/dev/null || [ -f "/usr/include/${lib#lib}.h" ] || {
		echo "test/build-citus.sh: the headers of $lib are missing (sudo bash test/deps.sh installs them)" >&2
		exit 1
	}
done

log=$cache/build-citus-$major.log
echo "test/build-citus.sh: building $(basename "$tarball" .tar.xz) against $("$pc" --version) into $out (log: $log)" >&2
build=$(mktemp -d "$cache/build-citus-$major.XXXXXX")
trap 'rm -rf "$build"' EXIT
rm -rf "$out"
started=$SECONDS
set +e
(
	exec >"$log" 2>&1
	set -e
	tar -C "$build" -xJf "$tarball"
	cd "$build"/citus-*/
	# --without-libcurl: no anonymous usage report
	./configure PG_CONFIG="$pc" --without-libcurl
	make -j"$(nproc)"
	make install DESTDIR="$build/out"
)
status=$?
set -e
if [ "$status" != 0 ]; then
	echo "test/build-citus.sh: the build of Citus against PostgreSQL $major failed; the end of $log:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
mv "$build/out" "$out"
touch "$out/.uid-build-complete"
echo "test/build-citus.sh: built in $((SECONDS - started)) s" >&2
echo "$out"
