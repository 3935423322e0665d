#!/usr/bin/env bash
# Installs what uid needs (Debian 12), builds it, starts a throwaway
# PostgreSQL server with uid preloaded, and runs a short demo.
#
#   sudo bash test/demo.sh          start (or restart) the demo server
#   sudo bash test/demo.sh stop     stop it and remove its data
#
# The server runs as the postgres OS user from a private install under
# /tmp/uid-demo, listening only on the Unix socket in /tmp/uid-demo.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
DEMO=${UID_DEMO_DIR:-/tmp/uid-demo}
PORT=${UID_DEMO_PORT:-5499}

. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	if [ "${1:-}" != stop ] && [ "${UID_SKIP_DEPS:-}" != 1 ]; then
		deps_log=$(mktemp)
		bash "$top/test/deps.sh" >"$deps_log" 2>&1 || {
			cat "$deps_log"; echo "test/demo.sh: installing packages failed" >&2; exit 1; }
		rm -f "$deps_log"
	fi
	if [ -d "$DEMO" ] && [ -x "$DEMO/src/test/demo.sh" ]; then
		runuser -u postgres -- bash "$DEMO/src/test/demo.sh" stop || true
	fi
	[ "${1:-}" = stop ] && { rm -rf "$DEMO"; echo "demo server stopped"; exit 0; }
	rm -rf "$DEMO"
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

initdb -D "$data" -A trust >/dev/null
cat >> "$data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$DEMO'
port = $PORT
shared_preload_libraries = 'uid'
uid.worker_id = 1
CONF
pg_ctl -D "$data" -l "$DEMO/server.log" -w start >/dev/null

psql -X -h "$DEMO" -p "$PORT" -d postgres -v ON_ERROR_STOP=1 -e <<'SQL'
CREATE EXTENSION uid;
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT uid_next(), item text);
INSERT INTO orders (item) VALUES ('coffee'), ('tea'), ('cake');
SELECT id, item, (uid_decode(id)).* FROM orders ORDER BY id;
SELECT * FROM orders WHERE id >= uid_from_time(now() - interval '1 minute');
SELECT worker_id, ids_issued, clock_waits, clock_refusals, last_issued_at FROM uid_stats;
SQL

psql=$(command -v psql)
cat <<MSG

The demo server is running.  Connect with:
    sudo -u postgres $psql -h $DEMO -p $PORT -d postgres
Stop it with:
    sudo bash ${UID_DEMO_ORIGIN:-$top}/test/demo.sh stop
MSG
