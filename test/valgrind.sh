#!/usr/bin/env bash
# Runs uid's SQL test suites once against servers running under valgrind
# (memcheck), and reports every valgrind error whose stack involves uid.so
# (test/valgrind.supp hides PostgreSQL's own padding writes, as PostgreSQL's
# suppression file does).
# Run by hand, not by CI (it takes several minutes):
#
#   sudo test/valgrind.sh      copies this tree to /tmp/uid-vg.XXXXXX and runs
#                              there as the postgres OS user (initdb refuses root)
#   test/valgrind.sh           as an ordinary user: run in place
#
# What runs, all in servers started from the private install (test/lib.sh)
# under valgrind (children are followed: every backend is checked):
#   1. preloaded server (uid.worker_id = 7): the pg_regress files sql/*.sql,
#      the isolation specs, error paths of every function, uid_stats and the
#      C function uid_stats_reset;
#   2. the same server restarted with a damaged uid.hwm (the refuse path),
#      after an immediate stop (the floor is the crashed run's reservation),
#      and with a uid.hwm of uid 1.1 (version 1); then pgbench with 4 clients calling uid_next(),
#      uid_next_batch(5000) and uuid7() concurrently;
#   3. the same server under libfaketime (if installed): a backward clock
#      step that is waited out and one that is refused (UID01);
#   4. a server without shared_preload_libraries: CREATE EXTENSION, decoders,
#      per-backend uuid7(), and the "requires preloading" errors.
#   5. the lease, hostile-role and uid.hwm floor Perl TAP files (VG_TAP:
#      005, 020-022, 025, 026, 030, 070-074, 076-078), with every server
#      they start that preloads uid under valgrind: the lease worker's whole life, with a local
#      store, a remote one, a store that is the server itself, one that never
#      answers, settings refused, and a thousand renewals.
# The other Perl TAP tests are not run (their many nodes and millions of
# values would take hours under valgrind).  Debian's server is not built with
# USE_VALGRIND, so reads of uninitialised or freed memory inside palloc
# chunks that the allocator recycles, and overruns within a palloc block,
# go unseen; a PG_CONFIG of a server built with -DUSE_VALGRIND catches those.
#
# Output: the logs stay in the work directory it prints ($VG_DIR/vg.<pid>.log,
# one per process).  It prints each valgrind error whose stack has a frame of
# uid.so or of a src/*.c file, and a count, and exits non-zero if there is
# any (or if a step fails).  Errors in PostgreSQL alone (it has known valgrind
# noise without its suppression file, not shipped in Debian) are counted but
# do not fail the run.  pg_regress/isolation output differences are shown but
# do not fail the run either: under valgrind they are about timing, if any.
#
# Environment: PG_MAJOR (15), PG_CONFIG, VG_PGBENCH_TX (transactions per
# pgbench client, default 2000), VG_TAP (the Perl TAP files of step 5; empty
# to skip it), VG_ONLY_TAP=1 (step 5 alone), UID_LEASE_TEST_SCALE (what
# step 5 multiplies the lease times of those tests by, default 20),
# VG_KEEP=1 to keep the work directory.  A Perl TAP file that fails under
# valgrind is reported but does not fail the run; a valgrind error in uid.so
# does.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}

. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	work=$(mktemp -d /tmp/uid-vg.XXXXXX)
	uid_copy_tree_for_postgres "$work"
	echo "test/valgrind.sh: running as the postgres OS user in $work"
	exec runuser -u postgres -- env PG_CONFIG="$PG_CONFIG" PG_MAJOR="$PG_MAJOR" \
		VG_PGBENCH_TX="${VG_PGBENCH_TX:-}" ${VG_TAP+VG_TAP="$VG_TAP"} VG_ONLY_TAP="${VG_ONLY_TAP:-}" VG_KEEP=1 bash "$work/test/valgrind.sh"
fi

command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
cd "$top"
uid_build_private_install
# lib/pgxs/src/makefiles/pgxs.mk -> lib/pgxs/src/test/{regress,isolation}
pgxs_test=$(dirname "$(dirname "$("$PG_CONFIG" --pgxs)")")/test
pg_regress=$pgxs_test/regress/pg_regress
pg_isolation_regress=$pgxs_test/isolation/pg_isolation_regress
for b in "$pg_regress" "$pg_isolation_regress"; do
	[ -x "$b" ] || { echo "$b not found" >&2; exit 2; }
done

VG_DIR=$(mktemp -d /tmp/uid-vg-run.XXXXXX)
export VG_DIR
echo "valgrind logs and server data in $VG_DIR"
PORT=$((54000 + RANDOM % 1000))
export PGHOST=$VG_DIR PGPORT=$PORT

# pg_ctl starts "postgres" through this wrapper: valgrind runs in the same
# process, so the pid in postmaster.pid is the one pg_ctl waits for.
vg_command="valgrind --quiet --trace-children=yes --track-origins=yes \
	--suppressions=$top/test/valgrind.supp \
	--read-var-info=yes --num-callers=30 --error-limit=no --fullpath-after= \
	--leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--log-file=$VG_DIR/vg.%p.log"
cat > "$VG_DIR/postgres-vg" <<EOF
#!/bin/sh
exec $vg_command "$UID_BINDIR/postgres" "\$@"
EOF
chmod +x "$VG_DIR/postgres-vg"

cleanup() {
	for d in "$VG_DIR"/data-*; do
		[ -f "$d/postmaster.pid" ] && pg_ctl -D "$d" -m immediate -t 600 stop >/dev/null 2>&1 || true
	done
}
trap cleanup EXIT

# initdb runs natively; only the servers run under valgrind.
new_cluster() {
	local d=$VG_DIR/data-$1 preload=$2
	initdb -D "$d" -A trust --no-sync --encoding=UTF8 --locale=C.UTF-8 >/dev/null
	cat >> "$d/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$VG_DIR'
port = $PORT
fsync = off
huge_pages = off
jit = off
autovacuum = off
max_connections = 20
authentication_timeout = 10min
log_min_messages = warning
$preload
CONF
}
start() { pg_ctl -D "$VG_DIR/data-$1" -p "$VG_DIR/postgres-vg" -l "$VG_DIR/server-$1.log" -w -t 900 start >/dev/null; }
stop() { pg_ctl -D "$VG_DIR/data-$1" -m fast -w -t 900 stop >/dev/null; }

regress_diffs=()
note_diffs() {
	if [ -s "$1" ]; then
		echo "--- $2: output differs from expected:"; cat "$1"; regress_diffs+=("$2")
	fi
}

# VG_ONLY_TAP=1: step 5 alone
if [ "${VG_ONLY_TAP:-}" != 1 ]; then
# ---- 1. preloaded server ----
new_cluster preload "shared_preload_libraries = 'uid'
uid.worker_id = 7"
echo "== preloaded server: start"
start preload

regress=$(ls sql/*.sql | sed -e 's#sql/##' -e 's#\.sql$##' | grep -v '^uid--')
echo "== pg_regress: $(echo $regress)"
"$pg_regress" --inputdir=. --outputdir="$VG_DIR/regress" \
	--bindir="$UID_BINDIR" --host="$VG_DIR" --port="$PORT" --dbname=contrib_regression \
	--load-extension=uid $regress >"$VG_DIR/regress.out" 2>&1 || true
note_diffs "$VG_DIR/regress/regression.diffs" pg_regress

specs=$(ls test/isolation/specs/*.spec 2>/dev/null | sed -e 's#.*/##' -e 's#\.spec$##' || true)
if [ -n "$specs" ]; then
	echo "== isolation: $(echo $specs)"
	"$pg_isolation_regress" --inputdir=test/isolation \
		--outputdir="$VG_DIR/isolation" --bindir="$UID_BINDIR" --host="$VG_DIR" --port="$PORT" \
		--dbname=uid_vg_iso --load-extension=uid $specs >"$VG_DIR/isolation.out" 2>&1 || true
	note_diffs "$VG_DIR/isolation/regression.diffs" isolation
fi

echo "== error paths, stats, uid_stats_reset"
createdb uid_vg_scratch
# Every statement runs even when one fails (ON_ERROR_STOP off): the errors
# are the point.  The output is kept for reading, not compared.
psql -X -d uid_vg_scratch >"$VG_DIR/errors.out" 2>&1 <<'SQL'
CREATE EXTENSION uid;
CREATE FUNCTION tmp_reset() RETURNS timestamptz AS '$libdir/uid', 'uid_stats_reset' LANGUAGE C;
SELECT uid_next(), uuid7(), uuidv7(), uuidv4();
SELECT count(*) FROM uid_next_batch(5000);
SELECT * FROM uid_stats;
SELECT tmp_reset() IS NOT NULL AS reset;
SELECT ids_issued, uuids_issued, batch_calls FROM uid_stats;
SELECT uid_next();
SELECT * FROM uid_stats;
-- bad input to every function
SELECT uid_next_batch(-1);
SELECT uid_next_batch(2147483647);
SELECT uid_next_batch(NULL);
SELECT uid_decode(-1);
SELECT uid_decode(-9223372036854775808);
SELECT uid_time(-1);
SELECT uid_from_time('infinity');
SELECT uid_from_time('-infinity');
SELECT uid_from_time('1970-01-01 00:00:00+00');
SELECT uid_from_time('2200-01-01 00:00:00+00');
SELECT uuid7('infinity'::timestamptz);
SELECT uuid7('-infinity'::timestamptz);
SELECT uuid7('1969-12-31 23:59:59.999+00'::timestamptz);
SELECT uuid7('294276-12-31 23:59:59+00'::timestamptz);
SELECT uuid7_from_time('infinity');
SELECT uuid7_from_time('1960-01-01+00');
SELECT uuid7_from_time('12000-01-01+00');
SELECT uuid7_time('00000000-0000-0000-0000-000000000000');
SELECT uuid7_time('ffffffff-ffff-ffff-ffff-ffffffffffff');
SELECT uuid7_advance_past('00000000-0000-0000-0000-000000000000');
SELECT uuid7_advance_past(gen_random_uuid());
SELECT uuid7_advance_past(uuid7_from_time(now() - interval '1 day'));
CREATE TEMP TABLE k AS SELECT uuid7_from_time(clock_timestamp() + interval '2 s') AS k;
SELECT uuid7_advance_past(k) FROM k;
SELECT uuid7() > k AS above_key FROM k;
SELECT * FROM uid_decode('00000000-0000-0000-0000-000000000000'::uuid);
SELECT * FROM uid_decode('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid);
SELECT * FROM uid_decode('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid);
SELECT * FROM uid_decode('1ec9414c-232a-6b00-b3c8-9e6bdeced846'::uuid);
SELECT * FROM uid_decode('c232ab00-9414-11ec-b3c8-9e6bdeced846'::uuid);
SELECT * FROM uid_decode(uuid7());
SELECT uuidv7(interval '1000000 years');
SELECT uuidv7(interval '-1000000 years');
SELECT uuidv7(interval 'infinity');
SELECT uuidv7(interval '-1 day'), uuidv7(interval '0.0005 s'), uuidv7(interval '-0.0005 s');
SELECT uuid_extract_timestamp('6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
       uuid_extract_timestamp(uuid7()), uuid_extract_timestamp(gen_random_uuid()),
       uuid_extract_timestamp('00000000-0000-0000-0000-000000000000');
SELECT uuid_extract_version(uuid7()), uuid_extract_version(uuidv4()),
       uuid_extract_version('00000000-0000-0000-0000-000000000000');
SET uid.max_batch = 0;
SET uid.clock_max_wait_ms = -1;
SET uid.reserve_window_ms = 5;
SET uid.worker_id = 'x';
-- a batch cut short by LIMIT and by an error in the same query
SELECT * FROM uid_next_batch(5000) LIMIT 3;
SELECT 1 / (i - i) FROM uid_next_batch(100) AS i;
-- cancel a long batch
SET statement_timeout = '200ms';
SELECT count(*) FROM uid_next_batch(10000) a, uid_next_batch(10000) b;
RESET statement_timeout;
SQL
stop preload

# ---- 2. the same data directory with a damaged high-water mark ----
# (the pgbench load runs afterwards on a clean restart)
echo "== damaged uid.hwm: restart, refusals"
cp "$VG_DIR/data-preload/uid.hwm" "$VG_DIR/uid.hwm.saved"
printf 'UIDH' > "$VG_DIR/data-preload/uid.hwm"
start preload
psql -X -d uid_vg_scratch >"$VG_DIR/hwm.out" 2>&1 <<'SQL'
SELECT uid_next();
SELECT count(*) FROM uid_next_batch(10);
SELECT uuid7();
SELECT * FROM uid_stats;
SQL
stop preload
cp "$VG_DIR/uid.hwm.saved" "$VG_DIR/data-preload/uid.hwm"

# ---- 2b. crash (immediate stop) and restart: the floor is the reservation ----
echo "== crash and restart"
start preload
psql -X -d uid_vg_scratch -c 'SELECT uid_next(), uuid7()' >"$VG_DIR/crash.out" 2>&1
pg_ctl -D "$VG_DIR/data-preload" -m immediate -w -t 900 stop >/dev/null
start preload
psql -X -d uid_vg_scratch -c 'SELECT uid_next(), uuid7()' -c 'SELECT * FROM uid_stats' \
	>>"$VG_DIR/crash.out" 2>&1
stop preload

# ---- 2c. a uid.hwm written by uid 1.1 (version 1: one floor for both
# generators, here the current time), read and rewritten as version 2 ----
echo "== uid.hwm of uid 1.1"
perl -e '
	sub crc32c { my $c = 0xFFFFFFFF; for my $b (unpack("C*", $_[0])) { $c ^= $b;
		$c = ($c & 1) ? (($c >> 1) ^ 0x82F63B78) : ($c >> 1) for 1 .. 8 } return $c ^ 0xFFFFFFFF }
	my $ms = int(time() * 1000) - 1767225600000;
	my $head = pack("L L q L L", 0x48444955, 1, $ms, 1, 0);
	print $head, pack("L L", crc32c($head), 0);
' > "$VG_DIR/data-preload/uid.hwm"
start preload
psql -X -d uid_vg_scratch -c 'SELECT uid_next(), uuid7()' >"$VG_DIR/hwm_v1.out" 2>&1
stop preload

echo "== pgbench: 4 clients x ${VG_PGBENCH_TX:-2000} transactions"
start preload
cat > "$VG_DIR/bench.sql" <<'SQL'
SELECT uid_next();
SELECT uuid7();
SELECT uuidv7(interval '-1 hour');
SQL
cat > "$VG_DIR/bench_batch.sql" <<'SQL'
SELECT count(*) FROM uid_next_batch(5000);
SQL
pgbench -n -c 4 -j 2 -t "${VG_PGBENCH_TX:-2000}" -f "$VG_DIR/bench.sql@9" -f "$VG_DIR/bench_batch.sql@1" \
	uid_vg_scratch >"$VG_DIR/pgbench.out" 2>&1
grep -E '^(number of transactions actually processed|number of failed)' "$VG_DIR/pgbench.out" || true
psql -X -At -d uid_vg_scratch -c 'SELECT ids_issued, uuids_issued, batch_calls FROM uid_stats' \
	>>"$VG_DIR/pgbench.out"
stop preload

# ---- 3. backward clock steps (libfaketime, if installed) ----
libfaketime=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [ -e "$libfaketime" ]; then
	echo "== backward clock steps (libfaketime)"
	clock="$VG_DIR/faketime"
	set_clock() { echo "$1" > "$clock.tmp"; mv "$clock.tmp" "$clock"; }
	set_clock +0
	echo "uid.clock_max_wait_ms = 60000" >> "$VG_DIR/data-preload/postgresql.conf"
	LD_PRELOAD=$libfaketime FAKETIME_TIMESTAMP_FILE=$clock FAKETIME_NO_CACHE=1 \
		FAKETIME_DONT_FAKE_MONOTONIC=1 start preload
	{
		psql -X -d uid_vg_scratch -c 'SELECT uid_next() > 0 AS before_step, uuid7() IS NOT NULL'
		set_clock -2    # waited out (within uid.clock_max_wait_ms)
		psql -X -d uid_vg_scratch -c 'SELECT uid_next() > 0 AS waited, uuid7() IS NOT NULL'
		set_clock -300  # refused: UID01
		psql -X -d uid_vg_scratch -c 'SELECT uid_next()' -c 'SELECT count(*) FROM uid_next_batch(10)' \
			-c 'SELECT uuid7() IS NOT NULL AS uuid7_while_behind'
		set_clock +0
		psql -X -d uid_vg_scratch -c 'SELECT uid_next() > 0 AS after' \
			-c 'SELECT clock_waits, clock_refusals, max_clock_step_ms > 0, clock_steps FROM uid_stats'
	} >"$VG_DIR/clock.out" 2>&1
	stop preload
	sed -i '/^uid.clock_max_wait_ms = 60000$/d' "$VG_DIR/data-preload/postgresql.conf"
fi

# ---- 4. no preloading ----
echo "== server without shared_preload_libraries"
new_cluster plain ""
start plain
createdb uid_vg_plain
psql -X -d uid_vg_plain >"$VG_DIR/plain.out" 2>&1 <<'SQL'
CREATE EXTENSION uid;
CREATE FUNCTION tmp_reset() RETURNS timestamptz AS '$libdir/uid', 'uid_stats_reset' LANGUAGE C;
SELECT uuid7() < uuid7() AS ordered, uuidv4(), uuidv7(interval '1 day');
SELECT count(DISTINCT u) FROM (SELECT uuid7() AS u FROM generate_series(1, 5000)) s;
CREATE TEMP TABLE k AS SELECT uuid7_from_time(clock_timestamp() + interval '1 hour') AS k;
SELECT uuid7_advance_past(k) FROM k;
SELECT uuid7() > k AS above_key FROM k;
SELECT * FROM uid_decode(uuid7()) a, uid_decode(uid_from_time(now())) b;
SELECT uid_time(uid_from_time(now())), uuid7_time(uuid7());
SELECT uid_next();
SELECT uid_next_batch(3);
SELECT * FROM uid_stats;
SELECT tmp_reset();
SHOW uid.worker_id;
SQL
for i in 1 2 3; do
	psql -X -At -d uid_vg_plain -c 'SELECT uuid7(), uuid7(now())' >>"$VG_DIR/plain.out" 2>&1
done
stop plain
fi

# ---- 5. lease and hostile-role Perl TAP files, every server under valgrind ----
vg_tap=${VG_TAP-test/t/005_hwm_floors.pl
	test/t/020_lease_local.pl test/t/021_lease_remote.pl test/t/022_lease_identity.pl test/t/025_store_pooler.pl
	test/t/026_lease_memory.pl test/t/030_citus_default.pl
	test/t/070_hostile_lease_local.pl test/t/071_hostile_counters.pl test/t/072_hostile_install.pl
	test/t/073_hostile_lease_remote.pl test/t/074_lease_store_sessions.pl
	test/t/077_hostile_audit.pl test/t/078_hostile_catch_up.pl
	test/t/076_lease_settings_values.pl}
tap_failed=()
if [ -n "$vg_tap" ]; then
	echo "== Perl TAP under valgrind: $(echo $vg_tap)"
	# The private install's postgres becomes a wrapper that starts the
	# servers that preload uid under valgrind; the others (lease stores),
	# initdb's bootstrap and single-user runs, and version and configuration
	# probes run natively.
	native=$UID_BINDIR/postgres.native
	mv "$UID_BINDIR/postgres" "$native"
	cat > "$UID_BINDIR/postgres" <<WRAPPER
#!/bin/sh
case "\$1" in
--boot|--single|-V|--version|-C|--describe-config|--check) exec "$native" "\$@" ;;
esac
data=
prev=
for a in "\$@"; do [ "\$prev" = -D ] && data=\$a; prev=\$a; done
if [ -n "\$data" ] && grep -qs "^shared_preload_libraries = '.*uid" "\$data/postgresql.conf"; then
	exec $vg_command "$native" "\$@"
fi
exec "$native" "\$@"
WRAPPER
	chmod +x "$UID_BINDIR/postgres"
	for t in $vg_tap; do
		name=$(basename "$t" .pl)
		if ! UID_LEASE_TEST_SCALE=${UID_LEASE_TEST_SCALE:-20} \
			uid_make installcheck-tap PROVE_TESTS="$t" >"$VG_DIR/tap-$name.out" 2>&1; then
			tap_failed+=("$t")
		fi
		grep -E '^test/t/.*\.\. ' "$VG_DIR/tap-$name.out" || true
		cp -r tmp_check/log "$VG_DIR/tap-log-$name" 2>/dev/null || true
	done
	mv "$native" "$UID_BINDIR/postgres"
fi

# ---- summary ----
echo
# A crash is an error even if valgrind saw nothing (its record, if any, is
# counted below).
crashed=0
if grep -sE 'terminated by signal|terminated by exception|PANIC:' "$VG_DIR"/server-*.log; then
	echo "a server process crashed (see $VG_DIR/server-*.log)"
	crashed=1
fi
# One valgrind record per block of lines ended by an empty "==pid== " line.
# Ours: a frame in uid.so, or (with debug info, printed with full paths by
# --fullpath-after=) in a file under $top/src.  Not bare file names: glibc
# has a clock.c and a random.c too.
awk -v src="$top/src/" '
	FNR == 1 { if (rec != "") flush(); }
	function flush() {
		if (rec ~ /\n==[0-9]+==  *(at|by) 0x/) {
			total++
			if (rec ~ /uid\.so/ || index(rec, src) > 0) {
				ours++
				printf "--- %s%s\n", file, rec
			}
		}
		rec = ""
	}
	/^==[0-9]+== *$/ { flush(); next }
	{ if (rec == "") file = FILENAME; rec = rec "\n" $0 }
	END { flush(); printf "valgrind: %d errors in all, %d involving uid.so\n", total, ours; exit (ours > 0) }
' "$VG_DIR"/vg.*.log && rc=0 || rc=$?
if [ ${#tap_failed[@]} -ne 0 ]; then
	echo "note: Perl TAP files that failed under valgrind: ${tap_failed[*]} (see $VG_DIR/tap-*.out)"
fi
if [ ${#regress_diffs[@]} -ne 0 ]; then
	echo "note: output differences in: ${regress_diffs[*]} (see above)"
fi
[ "$crashed" = 0 ] || rc=1
[ "${VG_KEEP:-}" = 1 ] || [ "$rc" -ne 0 ] || rm -rf "$VG_DIR"
exit "$rc"
