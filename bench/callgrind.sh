#!/bin/bash
# Instruction counts (valgrind --tool=callgrind) per call of uid_next(),
# uuid7() and nextval() in one single-user backend ("postgres --single"), so
# the numbers repeat exactly and do not depend on the machine's load.
#
# Each statement runs in its own callgrind run, counting only the query
# (--toggle-collect=PortalRun): Ir per row minus the Ir per row of the
# same query over a constant (the floor) is the cost of one call, executor
# overhead included.  The inclusive Ir of uid_next / uuid7 themselves is also
# printed.  Then what the planner hook of adoption costs a statement that
# uses no sequence: a primary key lookup parsed and planned anew, in a
# database without an adopted sequence and with one, Ir per statement from
# the difference of two loop lengths (so the first run's catalog reads drop
# out).  As root it copies the tree for the postgres OS user, like
# test/run.sh.  Environment: CG_ROWS (default 200000), PG_CONFIG.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}
. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	work=$(mktemp -d /tmp/uid-cg.XXXXXX)
	uid_copy_tree_for_postgres "$work"
	echo "bench/callgrind.sh: running as the postgres OS user in $work" >&2
	exec runuser -u postgres -- env PG_CONFIG="$PG_CONFIG" PG_MAJOR="$PG_MAJOR" \
		CG_ROWS="${CG_ROWS:-}" bash "$work/bench/callgrind.sh"
fi

command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
cd "$top"
# PGXS does not track header dependencies: build from scratch
make -s clean PG_CONFIG="$PG_CONFIG" >/dev/null
uid_build_private_install
N=${CG_ROWS:-200000}
D=$top/cg
rm -rf "$D"; mkdir -p "$D"
initdb -D "$D/data" -A trust --no-sync --encoding=UTF8 --locale=C.UTF-8 >/dev/null
cat >> "$D/data/postgresql.conf" <<CONF
shared_preload_libraries = 'uid'
uid.worker_id = 7
fsync = off
jit = off
CONF
# set up the extension and the sequence, and warm the catalog caches once
postgres --single -D "$D/data" postgres >/dev/null <<SQL
CREATE EXTENSION uid;
CREATE SEQUENCE s;
SQL

declare -A q=(
	[floor]="SELECT count(f) FROM (SELECT 1::int8 AS f FROM generate_series(1, $N)) s"
	[nextval]="SELECT count(f) FROM (SELECT nextval('s') AS f FROM generate_series(1, $N)) s"
	[uid_next]="SELECT count(f) FROM (SELECT uid_next() AS f FROM generate_series(1, $N)) s"
	[uuid7]="SELECT count(f) FROM (SELECT uuid7() AS f FROM generate_series(1, $N)) s"
)
declare -A ir
for k in floor nextval uid_next uuid7; do
	# the statement once before, so that catalog lookups are not counted
	printf '%s\n%s\n' "${q[$k]}" "${q[$k]}" > "$D/$k.sql"
	valgrind --tool=callgrind --callgrind-out-file="$D/$k.out" \
		--toggle-collect=PortalRun --dump-instr=no \
		postgres --single -D "$D/data" postgres < "$D/$k.sql" >/dev/null 2>"$D/$k.log"
	ir[$k]=$(callgrind_annotate "$D/$k.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
done
# two statements per run: halve
printf '%-10s %14s %12s %12s\n' query Ir_total Ir_per_row Ir_per_call
for k in floor nextval uid_next uuid7; do
	awk -v k="$k" -v t="${ir[$k]}" -v f="${ir[floor]}" -v n="$N" 'BEGIN {
		printf "%-10s %14d %12.1f %12.1f\n", k, t, t / (2 * n), (t - f) / (2 * n) }'
done
# the functions of uid.so, inclusive, per call of the SQL function
for k in uid_next uuid7; do
	echo "== $k: inclusive Ir per call, functions of uid.so"
	callgrind_annotate --inclusive=yes --threshold=100 "$D/$k.out" 2>/dev/null |
		awk -v n="$N" '/\[.*uid\.so\]/ { c = $1; gsub(",", "", c);
			for (i = 2; i <= NF; i++) if ($i ~ /:/) f = $i;
			sub(/.*\//, "", f);
			printf "%10.1f  %s\n", c / (2 * n), f }'
done

# planned statements, without and with an adoption in the database
# (single-user mode: one statement a line)
postgres --single -D "$D/data" postgres >/dev/null <<'SQL'
CREATE TABLE acc (aid int PRIMARY KEY, abalance int NOT NULL DEFAULT 0);
INSERT INTO acc (aid) SELECT generate_series(1, 100000);
CREATE SEQUENCE adopt_s;
CREATE FUNCTION planned(n int) RETURNS void LANGUAGE plpgsql AS $$ DECLARE b int; BEGIN FOR i IN 1..n LOOP EXECUTE 'SELECT abalance FROM acc WHERE aid = $1' INTO b USING 1 + i % 100000; END LOOP; END $$;
SQL
PLN=2000
declare -A pl
for state in none adopted; do
	if [ "$state" = adopted ]; then
		echo "SELECT count(*) FROM uid_adopt('adopt_s');" | postgres --single -D "$D/data" postgres >/dev/null
	fi
	for n in $PLN $((3 * PLN)); do
		echo "SELECT planned(100); SELECT planned($n);" >"$D/planned.sql"
		valgrind --tool=callgrind --callgrind-out-file="$D/planned_${state}_$n.out" \
			--toggle-collect=PortalRun --dump-instr=no \
			postgres --single -D "$D/data" postgres <"$D/planned.sql" >/dev/null 2>"$D/planned.log"
		pl[${state}_$n]=$(callgrind_annotate "$D/planned_${state}_$n.out" 2>/dev/null |
			awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
	done
done
echo "== a primary key lookup parsed and planned anew: Ir per statement"
printf '%-10s %12s %10s\n' database Ir_per_stmt x_none
for state in none adopted; do
	awk -v k="$state" -v a="${pl[${state}_$PLN]}" -v b="${pl[${state}_$((3 * PLN))]}" \
		-v a0="${pl[none_$PLN]}" -v b0="${pl[none_$((3 * PLN))]}" -v n="$((2 * PLN))" 'BEGIN {
		printf "%-10s %12.0f %10.4f\n", k, (b - a) / n, (b - a) / (b0 - a0) }'
done
echo "callgrind output in $D" >&2
