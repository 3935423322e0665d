#!/usr/bin/env bash
# Installs what the demo needs (Debian 12: the server, its headers, the
# build tools; test/deps.sh demo), builds uid, starts a throwaway
# PostgreSQL server with uid preloaded, and runs a short demo
# (test/demo.sql).  As root (or with sudo):
#
#   bash test/demo.sh          start the demo server (replacing an earlier
#                              one, whose data is deleted: it says so first)
#   bash test/demo.sh stop     stop it and remove its data
#
# The server runs as the postgres OS user from a private install under
# /tmp/uid-demo (UID_DEMO_DIR), listening on 127.0.0.1 port 5499
# (UID_DEMO_PORT), where a password is asked (scram-sha-256, printed at the
# end), and on the Unix socket in that directory, for the postgres OS user
# only (peer).  UID_SKIP_DEPS=1: install no packages.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
DEMO=${UID_DEMO_DIR:-/tmp/uid-demo}
PORT=${UID_DEMO_PORT:-5499}

. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	if [ "${1:-}" != stop ] && [ "${UID_SKIP_DEPS:-}" != 1 ]; then
		echo "test/demo.sh: installing the server, its headers and the build tools (test/deps.sh demo)"
		deps_log=$(mktemp)
		bash "$top/test/deps.sh" demo >"$deps_log" 2>&1 || {
			cat "$deps_log"; echo "test/demo.sh: installing packages failed" >&2; exit 1; }
		rm -f "$deps_log"
	fi
	if [ -d "$DEMO" ]; then
		[ "${1:-}" = stop ] ||
			echo "test/demo.sh: replacing the demo server started earlier in $DEMO (its data is deleted)"
		if [ -x "$DEMO/src/test/demo.sh" ]; then
			runuser -u postgres -- bash "$DEMO/src/test/demo.sh" stop || true
		fi
	fi
	[ "${1:-}" = stop ] && { rm -rf "$DEMO"; echo "demo server stopped, its data removed"; exit 0; }
	rm -rf "$DEMO"
	echo "test/demo.sh: building uid and starting the server"
	uid_copy_tree_for_postgres "$DEMO/src"
	chown postgres: "$DEMO"
	exec runuser -u postgres -- env PG_CONFIG="$PG_CONFIG" UID_DEMO_DIR="$DEMO" UID_DEMO_ORIGIN="$top" \
		UID_DEMO_PORT="$PORT" bash "$DEMO/src/test/demo.sh" "$@"
fi

cd "$top"
data="$DEMO/data"
if [ "${1:-}" = stop ]; then
	[ -x tmp_install/"$("$PG_CONFIG" --bindir)"/pg_ctl ] && [ -d "$data" ] &&
		tmp_install/"$("$PG_CONFIG" --bindir)"/pg_ctl -D "$data" -m fast stop >/dev/null 2>&1
	exit 0
fi
uid_build_private_install

# the password of the TCP connections: random, readable by postgres only
password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
(umask 077 && echo "$password" >"$DEMO/password")
# UTF8 with the locale C.UTF-8, whatever the caller's LANG and LC_* (none
# set, as in a minimal container, would give C and SQL_ASCII)
initdb -D "$data" --auth-local=peer --auth-host=scram-sha-256 -U postgres \
	--pwfile="$DEMO/password" --encoding=UTF8 --locale=C.UTF-8 >/dev/null
{
	cat <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DEMO'
port = $PORT
CONF
	uid_demo_conf
} >>"$data/postgresql.conf"
pg_ctl -D "$data" -l "$DEMO/server.log" -w start >/dev/null

psql -X -h "$DEMO" -p "$PORT" -d postgres -v ON_ERROR_STOP=1 -e -f "$top/test/demo.sql"

psql=$(command -v psql)
origin=${UID_DEMO_ORIGIN:-$top}
cat <<MSG

The demo server is running: PostgreSQL $PG_MAJOR with uid, database uid_demo.
An application connects with
    postgresql://postgres:$password@127.0.0.1:$PORT/uid_demo
psql, as any user:
    $psql 'postgresql://postgres:$password@127.0.0.1:$PORT/uid_demo'
or as the postgres OS user, over the Unix socket:
    runuser -u postgres -- $psql -h $DEMO -p $PORT -d uid_demo
Stop it and delete its data, as root (or with sudo):
    bash $origin/test/demo.sh stop
Running test/demo.sh again replaces this server and its data.
MSG
