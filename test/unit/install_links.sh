#!/usr/bin/env bash
# Unit test of "make install"'s links of uid-decode and its manual page
# (Makefile, install-links), into a DESTDIR: where the server's bindir and
# mandir are on no PATH or MANPATH, the links in $(UID_LINK_PREFIX) are what
# "uid-decode" and "man uid-decode" find.  Needs no server, only pg_config.
# Prints TAP; exits non-zero if a check fails.
#
#   bash test/unit/install_links.sh path/to/pg_config
set -uo pipefail
pgc=${1:?usage: install_links.sh path/to/pg_config}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d -t uid-install-links.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bindir=$("$pgc" --bindir)
mandir=$("$pgc" --mandir)

. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
# install DESTDIR [make arguments...]: make install into DESTDIR, output in
# $tmp/out; without the variables of a make that runs this test (check-unit
# under test/run.sh sets bindir), so that the directories are pg_config's
install() {
	local d=$1
	shift
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		make -s -C "$top" PG_CONFIG="$pgc" install DESTDIR="$d" "$@" >"$tmp/out" 2>&1
}

install "$tmp/a"
ok $? "make install DESTDIR=...: exit 0"
[ -x "$tmp/a$bindir/uid-decode" ] && [ -f "$tmp/a$mandir/man1/uid-decode.1" ]
ok $? "uid-decode in the server's bindir, its manual page in the server's mandir"
[ "$(readlink "$tmp/a/usr/local/bin/uid-decode")" = "$bindir/uid-decode" ]
ok $? "/usr/local/bin/uid-decode links to the final path of the command"
[ "$(readlink "$tmp/a/usr/local/share/man/man1/uid-decode.1")" = "$mandir/man1/uid-decode.1" ]
ok $? "/usr/local/share/man/man1/uid-decode.1 links to the final path of the manual page"
# man(1) finds a page through a link in a MANPATH directory (it names the target)
if command -v man >/dev/null; then
	mkdir -p "$tmp/m/man1" && ln -s "$tmp/a$mandir/man1/uid-decode.1" "$tmp/m/man1/uid-decode.1"
	[ "$(MANPATH="$tmp/m" man -w uid-decode 2>/dev/null)" = "$tmp/a$mandir/man1/uid-decode.1" ]
	ok $? "man -w uid-decode finds the page in a MANPATH directory through a link"
fi

install "$tmp/b" UID_LINK_PREFIX=
ok $? "make install UID_LINK_PREFIX=: exit 0"
[ ! -e "$tmp/b/usr/local" ] && [ -x "$tmp/b$bindir/uid-decode" ]
ok $? "UID_LINK_PREFIX= makes no link"

install "$tmp/c" UID_LINK_PREFIX=/opt/tools
[ -L "$tmp/c/opt/tools/bin/uid-decode" ] && [ -L "$tmp/c/opt/tools/share/man/man1/uid-decode.1" ]
ok $? "UID_LINK_PREFIX=/opt/tools links there"

mkdir -p "$tmp/d/usr/local/bin" && echo mine >"$tmp/d/usr/local/bin/uid-decode"
install "$tmp/d"
ok $? "a file that is no link in the way: exit 0"
[ "$(cat "$tmp/d/usr/local/bin/uid-decode")" = mine ] && grep -q "exists and is no link" "$tmp/out"
ok $? "it is left as it is, with a note"

mkdir -p "$tmp/e/usr/local" && chmod 555 "$tmp/e/usr/local"
if [ "$(id -u)" != 0 ]; then
	install "$tmp/e"
	ok $? "a prefix that cannot be written: exit 0"
	grep -q "cannot write" "$tmp/out"
	ok $? "and a note that says where uid-decode is"
fi
chmod 755 "$tmp/e/usr/local"

tap_done
