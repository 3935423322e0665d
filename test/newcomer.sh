#!/usr/bin/env bash
# The README's two commands as a newcomer runs them, on a machine that has
# never seen uid: a fresh Debian 12 root (test/fresh_root.sh), no locale set,
# no sudo, git installed, a plain clone of this repository (HEAD, without the
# PostgreSQL sources that sit beside a developer's checkout), then
#
#     bash test/demo.sh && bash test/demo.sh stop
#     bash test/run.sh
#
# inside it, as root.  test/run.sh there installs what it needs, tests
# PostgreSQL 15 and skips 16 to 19 (no sources in a plain clone), and must
# pass.  A manual step, not part of .ci/run (it takes a quarter of an hour
# on 2 cores); run it after changes to test/run.sh, test/deps.sh,
# test/demo.sh or the README's commands:
#
#     bash test/newcomer.sh      (as root)
#
# Exits non-zero if either command fails.  The root is removed at the end
# (UID_KEEP=1 keeps it, and a failed run keeps its logs).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
started=$(date +%s)
say() { echo "### newcomer.sh [$(($(date +%s) - started)) s]: $*"; }
fail() {
	echo "### newcomer.sh: FAILED: $*" >&2
	exit 1
}
. "$top/test/fresh_root.sh"
[ "$(id -u)" = 0 ] || fail "run as root (debootstrap and chroot need root)"

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends debootstrap git >/dev/null

work=$(mktemp -d -t uid-newcomer.XXXXXX)
chmod 755 "$work"
root=$work/root
cleanup() {
	local status=$?
	set +e
	uid_root_unmount "$root"
	if [ "${UID_KEEP:-}" = 1 ] || [ "$status" != 0 ]; then
		echo "### newcomer.sh: kept $work"
	else
		rm -rf "$work"
	fi
	echo "### newcomer.sh: $([ "$status" = 0 ] && echo passed || echo FAILED) in $(($(date +%s) - started)) s"
}
trap cleanup EXIT

uid_root_make "$root" "$work"
# a newcomer's shell: no LANG, no LC_*
newcomer() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb "$@"; }

say "in the root: git, and a plain clone"
newcomer apt-get update -q >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "apt-get update"; }
newcomer apt-get install -y -q --no-install-recommends git ca-certificates >>"$work/apt.log" 2>&1 ||
	{ tail -20 "$work/apt.log"; fail "apt-get install git"; }
git clone -q --bare "$top" "$root/srv/uid.git"
newcomer git clone -q /srv/uid.git /root/uid
[ ! -e "$root/root/shared" ] || fail "the root has PostgreSQL sources beside the clone"

[ ! -e "$root/usr/bin/sudo" ] || fail "the root has sudo, which a fresh Debian 12 root has not"

say "README command 1: bash test/demo.sh, then stop"
newcomer sh -c 'cd /root/uid && bash test/demo.sh && bash test/demo.sh stop' >"$work/demo.log" 2>&1 ||
	{ tail -40 "$work/demo.log"; fail "the demo"; }
grep -q 'The demo server is running' "$work/demo.log" || fail "the demo printed no connection help"
grep -qE 'postgresql://postgres:[0-9a-f]+@127\.0\.0\.1:[0-9]+/uid_demo' "$work/demo.log" ||
	fail "the demo printed no connection string"
[ ! -e "$root/usr/bin/java" ] && [ ! -e "$root/usr/bin/patroni" ] || fail "the demo installed the test tool chain"

say "README command 2: bash test/run.sh"
set +e
newcomer sh -c 'cd /root/uid && bash test/run.sh' >"$work/run.log" 2>&1
status=$?
set -e
sed -n '/^################ summary/,$p' "$work/run.log"
[ "$status" = 0 ] || { grep -E 'FAILED|not ok' "$work/run.log" | head -20; fail "test/run.sh exited $status (log: $work/run.log)"; }
grep -qE '^PostgreSQL 15 +ok' "$work/run.log" || fail "PostgreSQL 15 was not tested"
say "both README commands passed in a fresh root"
