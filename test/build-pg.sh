#!/usr/bin/env bash
# Builds a minimal PostgreSQL server from one of the source trees in
# ../shared/pg (16, 17, 18, 19): the server and client programs, pg_regress,
# the isolation tester and the Perl TAP modules, with TAP tests enabled, plus
# Debian's pgTAP SQL files.  Prints the path of its pg_config.
#
#   bash test/build-pg.sh 17          -> /var/cache/uid-pg/17-<sha>/bin/pg_config
#
# The build is cached outside the clone, keyed by the tarball's checksum, so a
# second run on the same machine (or another clone) reuses it:
#   UID_PG_CACHE   cache directory (default /var/cache/uid-pg as root,
#                  else ~/.cache/uid-pg)
#   UID_PG_SOURCES directory of postgresql-NN.tar.xz (default ../shared/pg)
# Build output goes to stderr; stdout is only the pg_config path.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
major=${1:?usage: test/build-pg.sh MAJOR (16, 17, 18 or 19)}
sources=${UID_PG_SOURCES:-$top/../shared/pg}
if [ "$(id -u)" = 0 ]; then
	cache=${UID_PG_CACHE:-/var/cache/uid-pg}
else
	cache=${UID_PG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uid-pg}
fi
tarball=$sources/postgresql-$major.tar.xz
[ -f "$tarball" ] || { echo "test/build-pg.sh: no $tarball" >&2; exit 1; }

sum=$(sha256sum "$tarball" | cut -c1-16)
prefix=$cache/$major-$sum
mkdir -p "$cache"
# one build of a version at a time; a second caller waits, then reuses it
exec 9>"$cache/$major.lock"
flock 9
# pgTAP is plain SQL: Debian's copy serves every version
install_pgtap() {
	local from to
	from=$(ls -d /usr/share/postgresql/*/extension 2>/dev/null | head -n 1)
	to=$("$prefix/bin/pg_config" --sharedir)/extension
	if [ -n "$from" ] && [ -f "$from/pgtap.control" ]; then
		[ -f "$to/pgtap.control" ] || cp "$from"/pgtap.control "$from"/pgtap--*.sql "$to/"
	else
		echo "test/build-pg.sh: Debian's pgTAP is not installed; the pgTAP suite cannot run" >&2
	fi
}

if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.uid-build-complete" ]; then
	install_pgtap
	echo "$prefix/bin/pg_config"
	exit 0
fi

echo "test/build-pg.sh: building PostgreSQL $major into $prefix" >&2
build=$(mktemp -d "$cache/build-$major.XXXXXX")
trap 'rm -rf "$build"' EXIT
rm -rf "$prefix"
{
	tar -C "$build" -xJf "$tarball"
	cd "$build/postgresql-$major"
	./configure --prefix="$prefix" --enable-tap-tests --with-openssl \
		--without-icu --without-readline CFLAGS="-O2 -g"
	make -j"$(nproc)"
	make install
	make -C src/test/isolation install
	make -C src/test/perl install
	make -C contrib/pgstattuple install
	install_pgtap
} >&2
touch "$prefix/.uid-build-complete"
echo "$prefix/bin/pg_config"
