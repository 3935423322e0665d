#!/usr/bin/env bash
# Builds a minimal PostgreSQL server from one of the source trees in
# ../shared/pg (16, 17, 18, 19): the server and client programs, pg_regress,
# pg_upgrade, the isolation tester and the Perl TAP modules, with TAP tests
# enabled, plus contrib/pgstattuple (bench/) and Debian's pgTAP SQL files.
# Prints the path of its pg_config.
#
#   bash test/build-pg.sh 17          -> /var/cache/uid-pg/17-<sha>/bin/pg_config
#   bash test/build-pg.sh --check 17  exits 0 if the sources of 17 are there,
#                                     2 if not (prints nothing; builds nothing)
#
# The build is cached outside the clone, keyed by the tarball's checksum, so a
# second run on the same machine (or another clone) reuses it:
#   UID_PG_CACHE   cache directory (default /var/cache/uid-pg as root,
#                  else ~/.cache/uid-pg)
#   UID_PG_SOURCES directory of postgresql-NN.tar.xz (default ../shared/pg
#                  beside this tree; for a clone of a local checkout, also
#                  ../shared/pg beside that checkout)
# Needs bison, flex, libssl-dev, zlib1g-dev (test/deps.sh installs them).
# Progress goes to stderr, the compiler's output to a log in the cache (its
# tail is shown if the build fails); stdout is only the pg_config path.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check_only=
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
major=${1:?usage: test/build-pg.sh [--check] MAJOR (16, 17, 18 or 19)}
. "$top/test/lib.sh"
cache=$(uid_build_cache)
sources=$(uid_shared_sources pg "${UID_PG_SOURCES:-}")
tarball=$sources/postgresql-$major.tar.xz
if [ ! -f "$tarball" ]; then
	[ -n "$check_only" ] ||
		echo "test/build-pg.sh: no $tarball (set UID_PG_SOURCES to the directory of postgresql-$major.tar.xz)" >&2
	exit 2
fi
[ -z "$check_only" ] || exit 0

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

for tool in bison flex xz; do
	command -v "$tool" >/dev/null || {
		echo "test/build-pg.sh: $tool is missing (sudo bash test/deps.sh installs it)" >&2
		exit 1
	}
done

log=$cache/build-$major.log
echo "test/build-pg.sh: building PostgreSQL $major from $tarball into $prefix (log: $log)" >&2
build=$(mktemp -d "$cache/build-$major.XXXXXX")
trap 'rm -rf "$build"' EXIT
rm -rf "$prefix"
# CPU seconds of this shell's finished children, from bash's times builtin
# (run here, not in a subshell, whose children are its own)
times >"$build/cpu-before"
started=$SECONDS
# The build stops at its first failing command (set -e, which a subshell in
# an if condition would ignore).
set +e
(
	exec >"$log" 2>&1
	set -e
	tar -C "$build" -xJf "$tarball"
	cd "$build/postgresql-$major"
	./configure --prefix="$prefix" --enable-tap-tests --with-openssl \
		--without-icu --without-readline CFLAGS="-O2 -g"
	make -j"$(nproc)"
	make install
	make -C src/test/isolation install
	make -C src/test/perl install
	make -C contrib/pgstattuple install
)
status=$?
set -e
if [ "$status" != 0 ]; then
	echo "test/build-pg.sh: the build of PostgreSQL $major failed; the end of $log:" >&2
	tail -n 40 "$log" >&2
	exit 1
fi
install_pgtap
touch "$prefix/.uid-build-complete"
times >"$build/cpu-after"
children_cpu() { awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
cpu=$(awk -v a="$(children_cpu "$build/cpu-after")" -v b="$(children_cpu "$build/cpu-before")" 'BEGIN { printf "%d", a - b }')
echo "test/build-pg.sh: built $("$prefix/bin/pg_config" --version) in $((SECONDS - started)) s ($cpu s of CPU)" >&2
echo "$prefix/bin/pg_config"
