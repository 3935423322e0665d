#!/usr/bin/env bash
# CI: uid as its users install and watch it.  As root, on Debian 12:
#
#   1. deb      builds postgresql-NN-uid from a clean clone of HEAD with
#               dpkg-buildpackage -us -uc -b and runs lintian on it (errors fail)
#   2. root     installs the package with "apt-get install ./postgresql-15-uid_*.deb"
#               into a fresh Debian 12 root made by debootstrap (no compiler, no
#               uid source), then as the postgres user: initdb, preload uid,
#               CREATE EXTENSION, generate, decode in SQL and with uid-decode
#               (/usr/bin/uid-decode and its manual page, through update-alternatives),
#               and the package's autopkgtest (debian/tests/installcheck)
#   3. pgxn     make dist, then Debian's pgxnclient installs the zip into a
#               private copy of the server and runs its tests (pgxn check)
#   4. rules    promtool check rules and promtool test rules on monitoring/
#
# UID_PACKAGE_ONLY="deb root" picks steps (root needs deb).  The root comes
# from test/fresh_root.sh: a cached debootstrap tarball (UID_ROOT_CACHE),
# unpacked afresh for each run.  Work files go to a directory under
# /tmp, removed at the end (UID_KEEP=1 keeps it).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
started=$(date +%s)

say() { echo "### package.sh [$(($(date +%s) - started)) s]: $*"; }
fail() {
	echo "### package.sh: FAILED: $*" >&2
	exit 1
}
wants() { [ -z "${UID_PACKAGE_ONLY:-}" ] || [[ " $UID_PACKAGE_ONLY " == *" $1 "* ]]; }
. "$top/test/fresh_root.sh"

[ "$(id -u)" = 0 ] || fail "run as root (it installs packages, and debootstrap and chroot need root)"
. /etc/os-release
[ "${VERSION_CODENAME:-}" = "$uid_root_suite" ] || fail "this is ${PRETTY_NAME:-not Debian}; the steps are written for Debian 12 ($uid_root_suite)"

say "installing the packaging and monitoring tools"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends \
	build-essential dpkg-dev debhelper fakeroot lintian postgresql-server-dev-all libssl-dev \
	debootstrap pgxnclient zip unzip git prometheus >/dev/null

work=$(mktemp -d -t uid-package.XXXXXX)
chmod 755 "$work"
root=
cleanup() {
	local status=$?
	set +e
	[ -n "$root" ] && uid_root_unmount "$root"
	if [ "${UID_KEEP:-}" = 1 ] || [ "$status" != 0 ]; then
		echo "### package.sh: work files kept in $work"
	else
		rm -rf "$work"
	fi
	echo "### package.sh: $([ "$status" = 0 ] && echo done || echo FAILED) in $(($(date +%s) - started)) s"
}
trap cleanup EXIT

# --- 1. the Debian package, from a clean clone ------------------------------
git clone -q "$top" "$work/src"
version=$(sed -n '1s/^uid (\([^)]*\)).*/\1/p' "$work/src/debian/changelog")
deb=$work/postgresql-15-uid_${version}_$(dpkg --print-architecture).deb
if wants deb || wants root; then
	say "dpkg-buildpackage -us -uc -b (clean clone of $(git -C "$top" rev-parse --short HEAD))"
	(cd "$work/src" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
		dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
		{ tail -40 "$work/build.log"; fail "dpkg-buildpackage failed (log: $work/build.log)"; }
	[ -f "$deb" ] || fail "no $deb after the build"
	for f in "$work"/*.deb; do
		echo "  $(basename "$f"): $(stat -c %s "$f") bytes, installed $(dpkg-deb -f "$f" Installed-Size) KiB"
	done
	# the package holds the extension and uid-decode, nothing else
	stray=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | grep -vE \
		'^\./usr/lib/postgresql/15/lib/(uid\.so|bitcode/uid(\.index\.bc|/src/([a-z]+/)?[a-z0-9_]+\.bc))$|^\./usr/share/postgresql/15/extension/uid(\.control|--[0-9.]+(--[0-9.]+)?\.sql)$|^\./usr/lib/postgresql/15/bin/uid-decode$|^\./usr/share/postgresql/15/man/man1/uid-decode\.1\.gz$|^\./usr/share/doc/postgresql-15-uid/(copyright|changelog\.gz)$' || true)
	[ -z "$stray" ] || fail "files in the package that are neither the extension nor uid-decode: $stray"
	say "lintian"
	# lintian reads the packages only; it need not run as root
	chmod -R a+rX "$work"
	# (from the work directory: the clone it runs from may be root's alone)
	(cd "$work" && runuser -u nobody -- lintian --fail-on error --display-info "$work"/uid_*.changes) ||
		fail "lintian reports errors"
	echo "  lintian: no errors"
fi

# --- 2. a fresh Debian 12 root (test/fresh_root.sh) ---------------------------
if wants root; then
	root=$work/root
	uid_root_make "$root" "$work"
	in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

	say "in the root: no compiler, no uid"
	for c in cc gcc clang make c99; do
		! in_root sh -c "command -v $c" >/dev/null || fail "the fresh root has $c"
	done
	! in_root sh -c 'ls /usr/lib/postgresql/*/lib/uid.so' >/dev/null 2>&1 || fail "the fresh root has uid.so"
	echo "  no cc, gcc, clang, make; no uid.so"

	say "in the root: apt-get install ./$(basename "$deb")"
	cp "$deb" "$root/tmp/"
	in_root apt-get update -q >"$work/root-apt.log" 2>&1 ||
		{ tail -20 "$work/root-apt.log"; fail "apt-get update in the root failed"; }
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"./tmp/$(basename "$deb")" >>"$work/root-apt.log" 2>&1 ||
		{ tail -30 "$work/root-apt.log"; fail "apt-get install of the package in the root failed"; }
	in_root dpkg-query -W -f '  installed ${Package} ${Version}\n' postgresql-15-uid postgresql-15
	[ "$(in_root dpkg -S /usr/lib/postgresql/15/lib/uid.so | cut -d: -f1)" = postgresql-15-uid ] ||
		fail "uid.so in the root does not come from the package"
	for c in cc gcc clang make; do
		! in_root sh -c "command -v $c" >/dev/null || fail "installing the package brought $c into the root"
	done

	say "in the root, as postgres: initdb, preload uid, generate and decode"
	cat >"$root/tmp/smoke.sh" <<'SMOKE'
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
rm -rf /tmp/pgdata /tmp/pgsock && mkdir -m 700 /tmp/pgsock
"$bin/initdb" -D /tmp/pgdata -A trust -U postgres --encoding=UTF8 --locale=C.UTF-8 >/tmp/initdb.log
cat >>/tmp/pgdata/postgresql.conf <<CONF
shared_preload_libraries = 'uid'
uid.worker_id = 42
listen_addresses = ''
unix_socket_directories = '/tmp/pgsock'
port = 5432
CONF
"$bin/pg_ctl" -D /tmp/pgdata -l /tmp/server.log -w start >/dev/null
trap '"$bin/pg_ctl" -D /tmp/pgdata -m fast -w stop >/dev/null' EXIT
q() { "$bin/psql" -h /tmp/pgsock -X -q -t -A -v ON_ERROR_STOP=1 -c "$1" postgres; }
q "CREATE EXTENSION uid"
q "CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(), item text)"
q "INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 10000) g"
[ "$(q "SELECT count(DISTINCT id) FROM orders")" = 10000 ] || fail "10000 distinct ids"
[ "$(q "SELECT bool_and((uid_decode(id)).worker_id = 42) FROM orders")" = t ] || fail "worker id 42 in SQL"
id=$(q "SELECT max(id) FROM orders")
# uid-decode on the PATH and its manual page on the MANPATH, through
# update-alternatives (debian/uid-decode.postinst.in)
[ "$(command -v uid-decode)" = /usr/bin/uid-decode ] || fail "uid-decode is not /usr/bin/uid-decode on the PATH"
[ "$(readlink -f /usr/bin/uid-decode)" = "$bin/uid-decode" ] || fail "/usr/bin/uid-decode is not $bin/uid-decode"
[ "$(readlink -f /usr/share/man/man1/uid-decode.1.gz)" = /usr/share/postgresql/15/man/man1/uid-decode.1.gz ] ||
	fail "/usr/share/man/man1/uid-decode.1.gz does not lead to the package's manual page"
[ "$(uid-decode "$id" | head -1)" = "$id: uid (bigint)" ] || fail "uid-decode from the PATH"
echo "  uid-decode: /usr/bin/uid-decode and /usr/share/man/man1/uid-decode.1.gz are the package's"
# SQL reads the forms a user pastes, as uid-decode does
prefixed=$(q "SELECT uid_to_text($id, 'order')")
[ "$(q "SELECT (uid_decode('$prefixed')).id")" = "$id" ] || fail "uid_decode('$prefixed') in SQL"
sql_time=$(q "SELECT to_char(uid_time($id) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
sql_seq=$(q "SELECT (uid_decode($id)).sequence")
sql_text=$(q "SELECT uid_to_text($id)")
out=$("$bin/uid-decode" --json "$id")
echo "  uid $id: $out"
for want in "\"uid\":\"$id\"" "\"worker_id\":42" "\"time\":\"$sql_time\"" "\"sequence\":$sql_seq" "\"text\":\"$sql_text\""; do
	[[ $out == *"$want"* ]] || fail "uid-decode of $id lacks $want (SQL says so)"
done
[[ $("$bin/uid-decode" "$sql_text") == *"uid        $id"* ]] || fail "uid-decode of the text form $sql_text"
[[ $(uid-decode "$prefixed") == *"uid        $id"* ]] || fail "uid-decode of the prefixed form $prefixed"
u=$(q "SELECT uuid7()")
u_time=$(q "SELECT to_char(uuid7_time('$u') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
out=$("$bin/uid-decode" --json "$u")
[[ $out == *"\"time\":\"$u_time\""* && $out == *"\"version\":7"* ]] || fail "uid-decode of $u: $out"
echo "  uuid7 $u: $out"
key=2b7e151628aed2a6abf7158809cf4f3c
echo "$key" >/tmp/mask.key
masked=$(q "SELECT uid_mask($id, decode('$key', 'hex'))")
[[ $("$bin/uid-decode" --json --key-file=/tmp/mask.key "$masked") == *"\"uid\":\"$id\","* ]] ||
	fail "uid-decode --key-file does not unmask uid_mask($id)"
printf '%s\n%s\nnot-an-id\n' "$id" "$u" >/tmp/ids
set +e
"$bin/uid-decode" </tmp/ids >/dev/null 2>/tmp/decode.err
status=$?
set -e
[ "$status" = 1 ] && grep -q '"not-an-id"' /tmp/decode.err || fail "uid-decode on bad input: status $status"
echo "  uid-decode: JSON and text agree with SQL; --key-file unmasks uid_mask(); bad input exits 1"
SMOKE
	in_root runuser -u postgres -- bash /tmp/smoke.sh || fail "the installed package does not work"

	say "in the root: the package's autopkgtest (debian/tests/installcheck)"
	mkdir -p "$root/tmp/uid-tests/test" "$root/tmp/uid-tests/debian"
	cp -r "$work/src/sql" "$work/src/expected" "$root/tmp/uid-tests/"
	cp -r "$work/src/debian/tests" "$root/tmp/uid-tests/debian/"
	cp "$work/src/test/uid_test.conf" "$root/tmp/uid-tests/test/"
	in_root sh -c 'cd /tmp/uid-tests && debian/tests/installcheck' ||
		fail "the autopkgtest of the installed package failed"
fi

# --- 3. the PGXN release ------------------------------------------------------
if wants pgxn; then
	say "make dist, then pgxn install and pgxn check of the zip"
	make -s -C "$work/src" dist >/dev/null
	zip=$(ls "$work/src"/uid-*.zip)
	cp "$zip" "$work/"
	zip=$work/$(basename "$zip")
	unzip -p "$zip" "$(basename "$zip" .zip)/META.json" >/dev/null || fail "the zip has no META.json"
	# a private copy of Debian's PostgreSQL 15 (it finds its files relative to
	# its binaries), so that nothing is installed into the system's directories
	pg=$work/pg
	for d in /usr/lib/postgresql/15 /usr/share/postgresql/15 /usr/include/postgresql; do
		mkdir -p "$pg$(dirname "$d")"
		cp -a "$d" "$pg$d"
	done
	mkdir -p "$pg$(pg_config --libdir)"
	pgc=$pg/usr/lib/postgresql/15/bin/pg_config
	# (UID_LINK_PREFIX=: no link in this machine's /usr/local to the private copy)
	UID_LINK_PREFIX= pgxn install --pg_config "$pgc" "$zip" >"$work/pgxn-install.log" 2>&1 ||
		{ tail -30 "$work/pgxn-install.log"; fail "pgxn install of $(basename "$zip") failed"; }
	[ -x "$pg/usr/lib/postgresql/15/bin/uid-decode" ] && [ -f "$pg/usr/share/postgresql/15/extension/uid.control" ] ||
		fail "pgxn install left no uid-decode or uid.control in $pg"
	chmod -R a+rX "$pg"
	# pg_regress and the isolation specs; the Perl TAP files run in test/run.sh
	(cd /tmp && runuser -u postgres -- env TAP_TESTS= pgxn check --pg_config "$pgc" "$zip") \
		>"$work/pgxn-check.log" 2>&1 ||
		{ tail -40 "$work/pgxn-check.log"; fail "pgxn check of $(basename "$zip") failed"; }
	grep -E 'tests passed' "$work/pgxn-check.log" | sed 's/^ */  pgxn check: /'
fi

# --- 4. the Prometheus rules --------------------------------------------------
if wants rules; then
	say "promtool check rules, promtool test rules"
	promtool check rules "$work/src/monitoring/uid-alerts.yml" || fail "promtool check rules"
	(cd "$work/src/monitoring" && promtool test rules uid-alerts.test.yml) || fail "promtool test rules"
fi
