#!/usr/bin/env bash
# Builds the two installs of uid_managed from managed/uid_managed.sql.in
# (make managed):
#   managed/build/uid_managed--1.0.sql    plain script:
#       psql -v schema=NAME -f uid_managed--1.0.sql   (default schema uid_managed)
#   managed/build/uid_managed_pgtle.sql   pgtle.install_extension(...), then
#       CREATE EXTENSION uid_managed [SCHEMA NAME]
# The plain script runs the extension script in one DO block, with the target
# schema (quote_ident) in place of @extschema@; the lines between
# "-- extension-only {" and "-- }" are left out of it.
#   bash managed/build.sh [DIR]   writes into DIR instead (the tests do)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/uid_managed.sql.in
out=${1:-$here/build}
mkdir -p "$out"

for q in '$uid_managed_body$' '$_pgtle_$'; do
	if grep -qF "$q" "$src"; then
		echo "managed/build.sh: $src must not contain $q" >&2
		exit 1
	fi
done

plain_body=$(sed '/^-- extension-only {$/,/^-- }$/d' "$src")

{
	cat <<'HEAD'
-- uid_managed 1.0, plain script (built by managed/build.sh; docs/managed.md).
--   psql -v schema=NAME -f uid_managed--1.0.sql
-- installs into schema NAME (default uid_managed; created if missing), owned
-- by the role that runs it.  One transaction: all or nothing.
\set ON_ERROR_STOP on
\if :{?schema}
\else
\set schema uid_managed
\endif
BEGIN;
SELECT pg_catalog.set_config('uid_managed.schema', :'schema', true) AS uid_managed_schema \gset
CREATE SCHEMA IF NOT EXISTS :"schema";
DO $uid_managed_install$
BEGIN
    EXECUTE pg_catalog.replace($uid_managed_body$
HEAD
	printf '%s\n' "$plain_body"
	cat <<'TAIL'
$uid_managed_body$, '@extschema@', pg_catalog.quote_ident(pg_catalog.current_setting('uid_managed.schema')));
END
$uid_managed_install$;
COMMIT;
TAIL
} >"$out/uid_managed--1.0.sql.tmp"
mv "$out/uid_managed--1.0.sql.tmp" "$out/uid_managed--1.0.sql"

{
	cat <<'HEAD'
-- uid_managed 1.0 for pg_tle (built by managed/build.sh; docs/managed.md).
-- Run as a role with pgtle_admin, then: CREATE EXTENSION uid_managed;
SELECT pgtle.install_extension(
    'uid_managed',
    '1.0',
    'uid''s 64-bit time-sortable ids and UUIDv7 in SQL and PL/pgSQL, for servers that load no C extension',
$_pgtle_$
HEAD
	cat "$src"
	cat <<'TAIL'
$_pgtle_$
);
TAIL
} >"$out/uid_managed_pgtle.sql.tmp"
mv "$out/uid_managed_pgtle.sql.tmp" "$out/uid_managed_pgtle.sql"
