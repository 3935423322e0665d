#!/usr/bin/env bash
# uid benchmarks: one command, one throwaway server, one run, ratios.
#
#   sudo bash bench/run.sh            full run (about 25 minutes on 2 cores: 7 of
#                                     them the adoption suite, 8 the managed edition)
#   sudo bash bench/run.sh --quick    fewer rounds and smaller sizes (a smoke run;
#                                     also after a suite: --adopt --quick)
#   sudo bash bench/run.sh --bulk-cap       only bulk generation against the layout cap
#   sudo bash bench/run.sh --adopt    only adoption: uid_adopt() by table size,
#                                     nextval() of an adopted sequence, and what
#                                     the planner hook costs other statements
#   sudo bash bench/run.sh --tenure   only the tenure ledger (uid_audit() against a scan, uid_whence())
#   sudo bash bench/run.sh --id-type  only the uid type against bigint (inserts,
#                                     primary key size, lookups, json_agg)
#   sudo bash bench/run.sh --wal      only issued time in the WAL: uid_next() with and
#                                     without WAL records and a synchronous standby,
#                                     at two reserve windows; WAL volume per hour
#   sudo bash bench/run.sh --time-filters   only the time filter suite (natural
#                                     filters against hand-written index forms)
#   sudo bash bench/run.sh --partitions   only partitions by the time in the IDs
#                                     (inserts into daily partitions; one hour of 30 days)
#   sudo bash bench/run.sh --managed  only the managed edition (uid_managed, installed as
#                                     its plain script beside uid): per call, 8-client
#                                     pgbench and 1M-row inserts against gen_random_uuid(),
#                                     uuidv7() where PostgreSQL has it, nextval() and uid
#                                     (on 18: PG_CONFIG=<its pg_config> sudo -E bash bench/run.sh --managed)
#
# Candidates are alternated within every round and medians are quoted, so
# the ratios come from the same run on the same machine.  Results go to
# bench/out/: report.md (the tables), results.csv (every measurement) and
# PNG plots when gnuplot is available.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}

. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	if [ "${UID_SKIP_DEPS:-}" != 1 ]; then
		bash "$top/test/deps.sh" >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox >/dev/null || true
	fi
	work=$(mktemp -d /tmp/uid-bench.XXXXXX)
	uid_copy_tree_for_postgres "$work"
	runuser -u postgres -- env PG_CONFIG="$PG_CONFIG" bash "$work/bench/run.sh" "$@"
	rm -rf "$top/bench/out"
	cp -r "$work/bench/out" "$top/bench/out"
	echo "results copied to $top/bench/out"
	exit 0
fi

cd "$top"
. bench/lib.sh
. bench/adopt.sh
. bench/wal_floor.sh
. bench/partitions.sh
. bench/managed.sh
uid_build_private_install
bench_main "$@"
