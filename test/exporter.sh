#!/bin/bash
# Starts Debian's postgres_exporter for the monitoring test
# (test/t/100_metrics.pl) as Debian's service runs it: as the OS user
# prometheus, connecting as the role prometheus over a Unix socket (peer
# authentication), with the queries given to --extend.query-path.
#
# test/deps.sh installs this file, owned by root, as
# /usr/local/lib/uid-test/exporter, and one sudoers rule
# (/etc/sudoers.d/uid-test-prometheus):
#
#   postgres ALL=(prometheus) NOPASSWD: /usr/local/lib/uid-test/exporter
#
# without SETENV, so that sudo's env_reset gives this script a clean
# environment; this script is the only thing the postgres OS user may run
# as prometheus.  It runs the exporter with an environment of its own (env
# -i: no LD_PRELOAD, no DATA_SOURCE_*, no PG_EXPORTER_* setting a flag), in
# /, with arguments it builds from checked numbers and one checked path:
#
#   sudo -n -u prometheus /usr/local/lib/uid-test/exporter \
#       SOCKET_DIR PG_PORT LISTEN_PORT [no-bgwriter] <uid-queries.yml
#
#   SOCKET_DIR   the server's Unix socket directory: an absolute path of
#                letters, digits and . _ - / (nothing that could add a
#                keyword to the connection string)
#   PG_PORT      the server's port
#   LISTEN_PORT  where the exporter listens, on 127.0.0.1 (1024 to 65535)
#   no-bgwriter  --no-collector.bgwriter (PostgreSQL 17 and later)
#
# The queries come on standard input, which the caller opens with its own
# rights: the exporter reads them from a private copy, never from a path
# the caller names, so it cannot be made to read (and quote in its errors)
# a file that only prometheus may read, such as
# /etc/default/prometheus-postgres-exporter.  Anything else is refused
# (exit status 2) before the exporter starts.
set -eu
umask 077
usage() {
	echo "usage: sudo -n -u prometheus $0 SOCKET_DIR PG_PORT LISTEN_PORT [no-bgwriter] <queries.yml" >&2
	exit 2
}
port_ok() { [[ $1 =~ ^[1-9][0-9]{0,4}$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le 65535 ]; }
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
sockdir=$1 pgport=$2 listen=$3
[[ $sockdir =~ ^/[A-Za-z0-9._/-]+$ ]] || usage
port_ok "$pgport" 1 || usage
port_ok "$listen" 1024 || usage
extra=()
if [ $# -eq 4 ]; then
	[ "$4" = no-bgwriter ] || usage
	extra=(--no-collector.bgwriter)
fi
# The private copy: read once from standard input (at most 1 MB), kept open
# on descriptor 3 and removed at once.  The exporter reads its queries file
# again at every scrape: /dev/fd/3 opens the same copy each time, and
# nothing is left behind when it stops.
copy=$(mktemp /tmp/uid-test-exporter.XXXXXXXX)
head -c 1048576 >"$copy"
exec 3<"$copy"
rm -f "$copy"
cd /
exec /usr/bin/env -i PATH=/usr/bin:/bin \
	DATA_SOURCE_NAME="user=prometheus host=$sockdir port=$pgport dbname=postgres" \
	/usr/bin/prometheus-postgres-exporter --extend.query-path=/dev/fd/3 \
	"${extra[@]}" --web.listen-address="127.0.0.1:$listen" --log.level=warn
