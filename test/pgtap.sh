#!/usr/bin/env bash
# Runs the pgTAP files in test/pgtap/ with pg_prove against a throwaway
# server that preloads uid.  Expects PATH to lead to the server to test
# (test/run.sh sets that up).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$(mktemp -d /tmp/uid-pgtap.XXXXXX)
trap 'pg_ctl -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

initdb -D "$dir/data" -A trust --no-sync --encoding=UTF8 --locale=C.UTF-8 >/dev/null
cat >> "$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
shared_preload_libraries = 'uid'
uid.worker_id = 7
fsync = off
CONF
pg_ctl -D "$dir/data" -l "$dir/log" -w start >/dev/null
export PGHOST=$dir PGPORT=5432 PGDATABASE=uid_pgtap
createdb uid_pgtap
psql -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION pgtap' -c 'CREATE EXTENSION uid'
pg_prove --failures "$top"/test/pgtap/*.sql
