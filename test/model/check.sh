#!/usr/bin/env bash
# Checks the Promela models with spin: the lease protocol
# (test/model/lease.pml), then uid_managed's generator protocol
# (test/model/managed.pml). every run is an exhaustive search (spin -a; gcc -DSAFETY;
# pan), and each must end as this script expects: "no violation" for the
# protocol, "violation found" where a rule is set back to one that is known
# to be unsafe.  Each search first stores its states whole (-DSAFETY alone:
# the fastest, up to about 5 GB for the largest run); a search that would
# need more than UID_MODEL_MEMLIM MB (default 6000) runs again compressed
# (-DCOLLAPSE: a third of the memory, about three times the CPU).  Both are
# exhaustive.  The hash table has 2^26 slots (-w26, 512 MB) instead of
# pan's 2^24: the largest runs store up to 42 million states, and with a
# quarter of the slots each insert walked a chain of collisions (a fifth
# more CPU for the largest run).  One line per run, then "N passed, M
# failed"; exits non-zero if any run ends otherwise.
#
#   UID_MODEL_TRAIL=1   print the counterexample of each violation found
#   UID_MODEL_ONLY=N    run only the N-th run (1-based)
#
# Works from any directory, as any user: it builds and runs in a temporary
# directory and removes it (with pan's trail files).
set -euo pipefail

models=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for tool in spin gcc; do
	command -v "$tool" >/dev/null || { echo "model: $tool is not installed (test/deps.sh)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/uid-model.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$models/lease.pml" "$models/managed.pml" "$work/"
cd "$work"

# The bounds of every run: 2 generators, 1 worker id, 2 pooled server
# sessions, skew 1, margin 3, TTL 4 ticks, time from tick 4 to tick 7 (to 6
# or 9 where a run says so); a store clock jump and a clock step back of 3.
bounds="-DG=2 -DW=1 -DNS=2 -DSKEW=1 -DMARGIN=3 -DTTL=4 -DT0=4 -DTMAX=7"

# scenario | rules (switches) | expected | why | bounds other than the above
runs=(
	"failover|-DFAILOVER|no violation|the protocol, asynchronous standby"
	"pooler|-DPOOLER|no violation|the protocol, pooler and a store clock jump"
	"failover|-DFAILOVER -DTOKEN_PLUS_ONE -DNO_WAIT_DURABLE -DRENEW_TOKEN_ONLY -DFLOOR_FROM_LAST_ISSUED|violation found|the rules before: a lost lease row is taken again with the same token"
	"pooler|-DPOOLER -DNO_SESSION_CHECK -DFLOOR_FROM_LAST_ISSUED|no violation|the rules before: the deadline alone keeps a row that expires early by the store clock safe"
	"pooler+clock step back|-DPOOLER -DSTEP_BACK -DNO_SESSION_CHECK -DFLOOR_FROM_LAST_ISSUED|violation found|the rules before, and a clock that steps back"
	"failover|-DFAILOVER -DNO_WAIT_DURABLE|violation found|random tokens and identity alone leave the window before the next renewal"
	"failover|-DFAILOVER -DTOKEN_PLUS_ONE -DRENEW_TOKEN_ONLY|no violation|the durability wait alone"
	"failover|-DFAILOVER -DTOKEN_PLUS_ONE|no violation|the protocol with token + 1"
	"failover|-DFAILOVER -DRENEW_TOKEN_ONLY|no violation|the protocol with renewal by token only"
	"failover (synchronous standby)|-DFAILOVER -DSYNC_STANDBY -DTOKEN_PLUS_ONE -DNO_WAIT_DURABLE -DRENEW_TOKEN_ONLY -DFLOOR_FROM_LAST_ISSUED|no violation|the rules before, with a synchronous standby"
	"clock step back|-DSTEP_BACK -DFLOOR_FROM_LAST_ISSUED|violation found|the rule before: the floor from last_issued_ms is below what an expired holder issued|-DTMAX=9"
	"clock step back|-DSTEP_BACK|no violation|the protocol: the floor from the expired row's expires_at|-DTMAX=9"
	"pooler+clock step back|-DPOOLER -DSTEP_BACK -DFLOOR_FROM_LAST_ISSUED|violation found|the session check alone does not close the floor gap"
	"pooler+clock step back|-DPOOLER -DSTEP_BACK -DNO_SESSION_CHECK|no violation|the floor from expires_at, even without the session check|-DTMAX=6"
)

# uid_managed (managed.pml): 2 callers of 2 calls, 2 values a ms, 1 value
# logged ahead, running ahead by at most 1 ms, 1 flush by the WAL writer;
# the clock 0..2 ms (0..1 where a crash makes the search large).
managed_bounds="-DNC=2 -DB=1 -DLOGAHEAD=1 -DAHEAD=1 -DFLUSHES=1"
managed_runs=(
	"generator||no violation|the protocol: unique, each session increasing, committed ids never again|-DCALLS=2 -DTMAX=2"
	"generator+clock step back|-DSTEP_BACK|no violation|a step back leaves the sequence ahead|-DCALLS=2 -DTMAX=2"
	"generator+crash|-DCRASH|no violation|a crash at any point, a restart at any clock: only values not durable at the crash repeat|-DCALLS=2 -DTMAX=1"
	"generator+crash|-DCRASH -DSTRICT|violation found|no repeat at all across a crash: the documented window is real|-DCALLS=2 -DTMAX=1"
	"generator|-DNO_EXCLUSIVE|violation found|the step's setval() under the shared lock moves the sequence down|-DCALLS=2 -DTMAX=2"
	"generator|-DNO_RECHECK|violation found|setval() without reading the sequence again under the exclusive lock|-DCALLS=2 -DTMAX=2"
)

passed=0
failed=0
i=0
all_runs=()
for run in "${runs[@]}"; do all_runs+=("lease.pml|$bounds|$run"); done
for run in "${managed_runs[@]}"; do all_runs+=("managed.pml|$managed_bounds|$run"); done
for entry in "${all_runs[@]}"; do
	i=$((i + 1))
	[ -n "${UID_MODEL_ONLY:-}" ] && [ "$UID_MODEL_ONLY" != "$i" ] && continue
	IFS='|' read -r pml run_bounds scenario rules expected why extra <<<"$entry"
	defs="$run_bounds ${extra:-}"
	rm -f pan pan.* ./*.pml.trail
	# shellcheck disable=SC2086
	spin $defs $rules -a "$pml" >spin.log 2>&1 || { cat spin.log >&2; exit 1; }
	start=$(date +%s%N)
	for store in "" -DCOLLAPSE; do
		gcc -O2 -w -DSAFETY $store -DMEMLIM="${UID_MODEL_MEMLIM:-6000}" -o pan pan.c
		./pan -m2000000 -E -w26 >pan.log 2>&1 || true
		grep -q "reached -DMEMLIM\|out of memory" pan.log || break
	done
	ms=$((($(date +%s%N) - start) / 1000000))
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log)
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log)
	memory=$(sed -n 's/^ *\([0-9.]*\).*total actual memory usage.*/\1/p' pan.log)
	if grep -q "max search depth too small\|out of memory\|reached -DMEMLIM" pan.log || [ -z "$errors" ]; then
		outcome="incomplete search"
	elif [ "$errors" = 0 ]; then
		outcome="no violation"
	else
		outcome="violation found"
	fi
	printf 'model: %s: %s %s: %s (expected %s: %s) [%s states, %s MB, %d.%d s%s]\n' \
		"${pml%.pml}" "$scenario" "$rules" "$outcome" "$expected" "$why" "${states:-?}" "${memory:-?}" \
		$((ms / 1000)) $((ms % 1000 / 100)) "${extra:+, $extra}"
	if [ "$outcome" = "$expected" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		grep -E 'errors:|states, stored|memory usage|search depth' pan.log >&2 || true
	fi
	if [ "$outcome" = "violation found" ] && [ "${UID_MODEL_TRAIL:-0}" = 1 ]; then
		# shellcheck disable=SC2086
		spin $defs $rules -t "$pml" 2>&1 | sed -n 's/^ *MSC: /    /p'
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
