#!/usr/bin/env bash
# Runs every uid test suite (unit, pg_regress, isolation, pgTAP, Perl TAP) on each
# supported PostgreSQL major version, and prints a summary per version.
#
#   bash test/run.sh        as root (or with sudo): installs the Debian
#                           packages (test/deps.sh: the demo's and the test
#                           tool chain), builds the servers Debian 12 lacks,
#                           then runs the suites as the postgres OS user on a
#                           copy of this tree
#   bash test/run.sh        as an ordinary user: the same, without packages
#
# Choices (environment):
#   UID_PG_VERSIONS="15 18" the versions to test (default: 15 16 17 18 19).
#                           15 is Debian's; the others are built from the
#                           sources in ../shared/pg by test/build-pg.sh and
#                           cached (see there: UID_PG_CACHE, UID_PG_SOURCES).
#   PG_CONFIG=/path/to/pg_config
#                           test that one server only (unless UID_PG_VERSIONS
#                           is given too)
#   UID_TEST_ONLY="unit regress isolation pgtap tap model"   pick suites
#                           (model: the lease protocol's spin model, once)
#   UID_PROVE_TESTS="test/t/060_replicas.pl"      pick Perl TAP files
#   UID_SKIP_DEPS=1         do not install packages
#   UID_REQUIRE_ENGINES=1   a TAP test whose engine (Patroni, etcd,
#                           pgbouncer) is missing fails instead of
#                           skipping itself (.ci/run sets it)
#   UID_REQUIRE_ALL_VERSIONS=1
#                           a version whose sources are missing fails the run
#                           (.ci/run sets it); without it, such a version is
#                           skipped, and so is a pg_upgrade pair that needs it
#   UID_JOBS=3              how many versions run at once (default 3); each
#                           version's output is shown whole when it ends
#                           (UID_JOBS=1: one after another, as it comes)
#   UID_TAP_JOBS=1          how many Perl TAP files of a version run at once
#                           (prove -j), the slowest first (default 1, and 2
#                           for the last version to start when the versions
#                           are more than UID_JOBS)
#   UID_PROVE_FLAGS="-v"    more options for prove
#   UID_CITUS_VERSION=17    the version whose private install gets Citus,
#                           built by test/build-citus.sh from ../shared/citus
#                           (UID_CITUS_SOURCES); the tests see it in
#                           UID_CITUS_DIR
#   UID_PG_TLE_SKIP="19"    the versions pg_tle is not built for (TAP 171
#                           skips itself there); the default, 19, is where
#                           pg_tle 1.5.2 does not build (see below)
#   UID_KEEP=1              keep each version's working copy even if it passed
#   UID_TEST_TMP=/some/dir  where the working copies go (default /tmp)
#   UID_TIMING_FILE=path    a copy of the table of wall times there
#   UID_TAP_TIMES_FILE=path a copy of the run's tap-times.tsv there
#
# The Perl TAP test of pg_upgrade (test/t/081_pg_upgrade.pl) upgrades from
# older versions to the version under test: 15 -> 18, 17 -> 18 and 16 -> 19
# (UID_UPGRADE_PAIRS); the older servers are built too if needed.
#
# The run ends with a table of the wall time of each version and of each of
# its suites, and of the model (UID_TIMING_FILE=path: a copy of it there),
# and names the file of each Perl TAP file's time, tap-times.tsv in the
# run's directory (UID_TAP_TIMES_FILE=path: a copy of it there), from which
# test/tap-times.tsv, the order the files run in, is refreshed.
#
# Each version runs in its own copy of the tree under /tmp/uid-test.*/NN,
# with the extension installed into a private copy of that server
# (tmp_install), never into the system directories.  A copy that failed is
# kept for its diffs and logs.  Exits non-zero if any suite failed on any
# version.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

. "$top/test/lib.sh"

# ---------------------------------------------------------------------------
# One server: run the suites here (called by the loop below, on a copy)
# ---------------------------------------------------------------------------
if [ "${UID_RUN_SUITES:-}" = 1 ]; then
	cd "$top"
	export UID_NO_BITCODE=1
	uid_build_private_install
	# Citus, built for this server (test/build-citus.sh), joins its private install
	if [ -n "${UID_CITUS_DIR:-}" ]; then
		tar -C "$UID_CITUS_DIR" --exclude=./.uid-build-complete -cf - . | tar -C "$top/tmp_install" -xf -
	fi

	# the older servers, each with uid built for it, for 081_pg_upgrade.pl
	UID_UPGRADE_FROM_BINDIRS=
	n=0
	for old_pc in ${UID_UPGRADE_FROM_PG_CONFIGS:-}; do
		n=$((n + 1))
		UID_UPGRADE_FROM_BINDIRS+=" $(uid_private_install_of "$old_pc" "$top/tmp_upgrade_from_$n")"
	done
	export UID_UPGRADE_FROM_BINDIRS

	summary=$top/tmp_summary
	: >"$summary"
	failed=0
	# run_suite NAME FUNCTION: runs it, shows its output, and records
	# "NAME|ok or FAILED|what it counted" in $summary
	run_suite() {
		local name=$1 fn=$2 log status start=$SECONDS
		log=$top/tmp_$fn.log
		echo
		echo "=== $name"
		set +e
		"$fn" 2>&1 | tee "$log"
		status=${PIPESTATUS[0]}
		set -e
		start=$((SECONDS - start))
		if [ "$status" = 0 ]; then
			echo "=== $name: ok ($start s)"
			echo "$name|ok|$(uid_count_tests "$log")|$start" >>"$summary"
		else
			echo "=== $name: FAILED ($start s)"
			echo "$name|FAILED|$(uid_count_tests "$log")|$start" >>"$summary"
			failed=1
		fi
	}
	wants() { [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" $1 "* ]]; }

	suite_unit() {
		uid_make check-unit
	}
	suite_regress() {
		uid_make installcheck-regress && return 0
		[ -s regression.diffs ] && cat regression.diffs
		return 1
	}
	suite_isolation() {
		uid_make installcheck-isolation && return 0
		[ -s output_iso/regression.diffs ] && cat output_iso/regression.diffs
		return 1
	}
	suite_pgtap() {
		bash test/pgtap.sh
	}
	# The Perl TAP files, the slowest first, so that, UID_TAP_JOBS at once,
	# the files that start last are short ones.  The order comes from the
	# times of a run, test/tap-times.tsv ("seconds<TAB>file" a line, "#"
	# comments; refreshed from a run's own tap-times.tsv, docs/development.md);
	# a file it lacks, new or not measured, runs first: unknown cost counts
	# as slow.
	tap_files() {
		local known f
		known=$(grep -v '^#' test/tap-times.tsv 2>/dev/null | sort -t "$(printf '\t')" -k1,1nr -k2,2 | cut -f2)
		for f in test/t/*.pl; do grep -qxF "$f" <<<"$known" || echo "$f"; done
		for f in $known; do [ ! -f "$f" ] || echo "$f"; done
	}
	# What each Perl TAP file took, from prove --timer's line of each file
	# that passed ("[12:00:00] test/t/001_basic.pl .. ok   1234 ms ( ...)"):
	# "seconds<TAB>file", the slowest first, into $2.  A file that failed or
	# skipped itself has no time there, and no line.
	tap_times() {
		sed -nE 's/^\[[0-9:]+\] (test\/t\/[^ ]+\.pl) \.+ ok +([0-9]+) ms.*/\2 \1/p' "$1" |
			awk '{ printf "%d\t%s\n", ($1 + 500) / 1000, $2 }' | sort -t "$(printf '\t')" -k1,1nr -k2,2 >"$2"
	}
	# --merge: a file's diagnostics (stderr) join its TAP stream.  Without
	# it, prove -j, reading a file that wrote to stderr, waits for that
	# file's next line on stdout and runs nothing else meanwhile (a failed
	# test then polling for minutes held up all the others).  The
	# diagnostics are in tmp_check/log, shown below for a file that failed.
	suite_tap() {
		local out=$top/tmp_prove.out f status
		# A test's node copies one data directory made here (INITDB_TEMPLATE)
		# where it would run initdb without options: the same files, a
		# sixth of the CPU (PostgreSQL 17 and later do it by themselves,
		# test/t/UidCluster.pm for 15 and 16), UTF8 with the locale
		# C.UTF-8 whatever the caller's environment, as UidCluster.pm's
		# initdb runs are
		rm -rf "$top/tmp_initdb_template"
		initdb -A trust -N --no-instructions --encoding=UTF8 --locale=C.UTF-8 --lc-messages=C \
			-D "$top/tmp_initdb_template" >/dev/null
		export INITDB_TEMPLATE=$top/tmp_initdb_template
		uid_make installcheck-tap \
			PROVE_FLAGS="-I test/t --timer --merge -j ${UID_TAP_JOBS:-1} ${UID_PROVE_FLAGS:-}" \
			PROVE_TESTS="${UID_PROVE_TESTS:-$(tap_files | paste -sd ' ' -)}" 2>&1 | tee "$out"
		status=${PIPESTATUS[0]}
		tap_times "$out" "$top/tmp_tap_times.tsv"
		[ "$status" != 0 ] || return 0
		# the end of the log of each file that failed (prove's summary names them)
		for f in $(sed -nE 's/^(test\/t\/)?([0-9A-Za-z_]+)\.pl +\(Wstat.*/\2/p' "$out"); do
			f=tmp_check/log/regress_log_$f
			[ ! -f "$f" ] || { echo "--- tail of $f"; tail -n 60 "$f"; }
		done
		return 1
	}

	if wants unit; then run_suite "unit" suite_unit; fi
	if wants regress; then run_suite "pg_regress" suite_regress; fi
	if wants isolation; then run_suite "isolation" suite_isolation; fi
	if wants pgtap; then run_suite "pgTAP" suite_pgtap; fi
	if wants tap; then run_suite "Perl TAP" suite_tap; fi
	exit "$failed"
fi

# ---------------------------------------------------------------------------
# Every version
# ---------------------------------------------------------------------------
if [ -n "${PG_CONFIG:-}" ] && [ -z "${UID_PG_VERSIONS:-}" ]; then
	versions=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	explicit_pg_config=$PG_CONFIG
else
	versions=${UID_PG_VERSIONS:-15 16 17 18 19}
	explicit_pg_config=
fi
upgrade_pairs=${UID_UPGRADE_PAIRS:-15:18 17:18 16:19}

if [ "$(id -u)" = 0 ] && [ "${UID_SKIP_DEPS:-}" != 1 ]; then
	bash "$top/test/deps.sh"
fi

# Debian's pg_config of major version $1, if its server and headers are installed
debian_pg_config_of() {
	[ -x "/usr/lib/postgresql/$1/bin/pg_config" ] && [ -d "/usr/lib/postgresql/$1/lib/pgxs" ] &&
		echo "/usr/lib/postgresql/$1/bin/pg_config"
}

# pg_config of major version $1: the one given, Debian's, or a cached build
pg_config_of() {
	if [ -n "$explicit_pg_config" ]; then
		echo "$explicit_pg_config"
	elif ! debian_pg_config_of "$1"; then
		bash "$top/test/build-pg.sh" "$1"
	fi
}

# the versions that 081_pg_upgrade.pl upgrades to $1 from
upgrade_sources_of() {
	local pair
	for pair in $upgrade_pairs; do
		[ "${pair#*:}" = "$1" ] && echo "${pair%%:*}"
	done
	return 0
}

# Versions that would be built from sources that are not there (a plain
# clone has none): skipped, with one line saying how to add them, unless
# UID_REQUIRE_ALL_VERSIONS=1.
declare -A result=() line=() missing=()
missing_note=
if [ -z "$explicit_pg_config" ] && [ "${UID_REQUIRE_ALL_VERSIONS:-}" != 1 ]; then
	for v in $(for v in $versions; do echo "$v"; upgrade_sources_of "$v"; done | sort -nu); do
		if ! debian_pg_config_of "$v" >/dev/null && ! bash "$top/test/build-pg.sh" --check "$v"; then
			missing[$v]=1
		fi
	done
	if [ "${#missing[@]}" != 0 ]; then
		missing_note="skipped PostgreSQL $(echo "${!missing[@]}" | tr ' ' '\n' | sort -n | paste -sd ' ' -) (no sources here): to test them, put postgresql-NN.tar.xz (REL_NN_STABLE of PostgreSQL's git) in $(cd "$top/.." && pwd)/shared/pg or set UID_PG_SOURCES to their directory (docs/versions.md)"
		echo "$missing_note"
	fi
fi
upgrade_pairs=$(for pair in $upgrade_pairs; do
	[ -n "${missing[${pair%%:*}]:-}" ] || [ -n "${missing[${pair#*:}]:-}" ] || echo "$pair"
done)

work=$(mktemp -d "${UID_TEST_TMP:-/tmp}/uid-test.XXXXXX")
chmod 755 "$work"
# The versions run at once (UID_JOBS): each has its own copy, install and
# servers, and every port a Perl TAP test takes (PostgreSQL::Test::Cluster's
# get_free_port: servers, etcd, Patroni, pgbouncer, the exporter) is
# reserved in this one directory, so that two versions never pick the same.
port_dir=$work/portlock
mkdir -p "$port_dir"
chmod 1777 "$port_dir"

# Build the servers that Debian lacks in the background, in version order,
# while the suites run on the versions already there: the suites mostly
# wait, the builds mostly compute.  test/build-pg.sh takes one lock per
# version, so a version asking for a server being built waits for that
# build and then reuses it (or builds it itself if it failed here).
# Citus is built (test/build-citus.sh) for one version, UID_CITUS_VERSION
# (default 17), when the Perl TAP suite runs there; without its sources
# that version runs without it (one line says so), unless
# UID_REQUIRE_ALL_VERSIONS=1.
citus_version=
citus_note=
if [ -z "$explicit_pg_config" ] && [[ " $versions " == *" ${UID_CITUS_VERSION:-17} "* ]] &&
	[ -z "${missing[${UID_CITUS_VERSION:-17}]:-}" ] &&
	{ [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" tap "* ]]; }; then
	citus_version=${UID_CITUS_VERSION:-17}
	if [ "${UID_REQUIRE_ALL_VERSIONS:-}" != 1 ] && ! bash "$top/test/build-citus.sh" --check "$citus_version"; then
		citus_note="no Citus on PostgreSQL $citus_version (no sources here): to add it, put citus-*.tar.xz in $(cd "$top/.." && pwd)/shared/citus or set UID_CITUS_SOURCES to its directory"
		echo "$citus_note"
		citus_version=
	fi
fi
# pg_tle, which TAP 171 installs the managed edition through
# (docs/managed.md), is built (test/build-pg_tle.sh, cached) for each
# version whose Perl TAP suite runs TAP 171, where its sources are given;
# TAP 171 copies it into the private install of the run.  pg_tle 1.5.2
# builds on PostgreSQL 15 to 18.  It does not build on 19 (19beta2, gcc
# 12): src/tleextension.c "error: too few arguments to function
# 'FuncnameGetCandidates'" (19 added an argument) and src/passcheck.c,
# src/clientauth.c "error: 'WAIT_EVENT_MESSAGE_QUEUE_RECEIVE' undeclared";
# there it is not tried, and TAP 171 skips itself, as one line says
# (UID_PG_TLE_SKIP lists such versions).
pg_tle_skip=${UID_PG_TLE_SKIP-19}
pg_tle_wanted() {
	{ [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" tap "* ]]; } &&
		{ [ -z "${UID_PROVE_TESTS:-}" ] || [[ " $UID_PROVE_TESTS " == *171_managed_pgtle.pl* ]]; } &&
		{ [ -z "$explicit_pg_config" ] || debian_pg_config_of "$1" >/dev/null; } &&
		bash "$top/test/build-pg_tle.sh" --check "$1"
}
pg_tle_note=
for v in $versions; do
	if [[ " $pg_tle_skip " == *" $v "* ]] && pg_tle_wanted "$v"; then
		pg_tle_note+="${pg_tle_note:+; }no pg_tle on PostgreSQL $v (pg_tle 1.5.2 does not build there: test/run.sh), TAP 171 skips itself"
	fi
done
[ -z "$pg_tle_note" ] || echo "$pg_tle_note"
if [ -z "$explicit_pg_config" ]; then
	to_build=$(for v in $versions; do echo "$v"; upgrade_sources_of "$v"; done | sort -nu |
		while read -r v; do
			[ -n "${missing[$v]:-}" ] || debian_pg_config_of "$v" >/dev/null || echo "$v"
		done)
	if [ -n "$to_build" ]; then
		(
			for v in $to_build; do bash "$top/test/build-pg.sh" "$v" >/dev/null || true; done
			[ -z "$citus_version" ] || bash "$top/test/build-citus.sh" "$citus_version" >/dev/null || true
		) &
	fi
fi
# The model of the lease protocol (spin, test/model/check.sh) depends on no
# server: it runs once, in the background beside the suites, and its
# outcome joins the summary.  It runs at the lowest priority (nice 19): it
# only computes, and has no timeout, so it takes the CPU that the versions
# leave while their tests wait, instead of slowing them while they compute.
model_pid=
model_start=$SECONDS
if [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" model "* ]]; then
	(
		if nice -n 19 bash "$top/test/model/check.sh" >"$work/model.log" 2>&1; then status=0; else status=$?; fi
		echo "$((SECONDS - model_start))" >"$work/model.seconds"
		exit "$status"
	) &
	model_pid=$!
fi

# One version, in the background: its output goes to $work/$v.log (shown
# whole when it ends), its outcome to $work/$v.result ("ok|line",
# "FAILED|line"), its suites' "name|outcome|counts|seconds" to
# $work/$v.summary.
test_version() {
	local v=$1 tap_jobs=$2 start=$SECONDS pc from from_pcs f server dir status suites citus_dir
	local -a env
	if ! pc=$(pg_config_of "$v"); then
		echo "FAILED|could not build the server (test/build-pg.sh $v)" >"$work/$v.result"
		return
	fi
	from=
	from_pcs=
	if [ -z "$explicit_pg_config" ]; then
		from=$(upgrade_sources_of "$v" | paste -sd ' ' -)
		for f in $from; do
			if ! from_pcs+=" $(pg_config_of "$f")"; then
				echo "FAILED|could not build the servers to upgrade from ($from)" >"$work/$v.result"
				return
			fi
		done
	fi
	citus_dir=
	if [ "$v" = "$citus_version" ] && ! citus_dir=$(bash "$top/test/build-citus.sh" "$v"); then
		echo "FAILED|could not build Citus (test/build-citus.sh $v)" >"$work/$v.result"
		return
	fi
	if [[ " $pg_tle_skip " != *" $v "* ]] && pg_tle_wanted "$v" &&
		! bash "$top/test/build-pg_tle.sh" "$v" >/dev/null; then
		echo "FAILED|could not build pg_tle (test/build-pg_tle.sh $v)" >"$work/$v.result"
		return
	fi
	server=$("$pc" --version | sed 's/^PostgreSQL //')
	echo "server: $server ($pc)${from:+; pg_upgrade test from PostgreSQL $from}${citus_dir:+; with Citus ($citus_dir)}"

	dir=$work/$v
	uid_copy_tree "$dir"
	env=(UID_RUN_SUITES=1 PG_CONFIG="$pc" UID_UPGRADE_FROM_PG_CONFIGS="$from_pcs"
		UID_TEST_ONLY="${UID_TEST_ONLY:-}" UID_PROVE_TESTS="${UID_PROVE_TESTS:-}"
		UID_PROVE_FLAGS="${UID_PROVE_FLAGS:-}" UID_TAP_JOBS="$tap_jobs"
		UID_REQUIRE_ENGINES="${UID_REQUIRE_ENGINES:-}" PG_TEST_PORT_DIR="$port_dir"
		UID_CITUS_DIR="$citus_dir")
	set +e
	if [ "$(id -u)" = 0 ]; then
		# the servers never run as root: the postgres OS user runs the copy
		chown -R postgres: "$dir"
		runuser -u postgres -- env "${env[@]}" bash "$dir/test/run.sh"
	else
		env "${env[@]}" bash "$dir/test/run.sh"
	fi
	status=$?
	set -e

	cp "$dir/tmp_summary" "$work/$v.summary" 2>/dev/null || true
	cp "$dir/tmp_tap_times.tsv" "$work/$v.tap-times" 2>/dev/null || true
	suites=$(awk -F'|' '{ printf "%s%s %s %s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$work/$v.summary" 2>/dev/null || true)
	if [ "$status" = 0 ]; then
		[ "${UID_KEEP:-}" = 1 ] || rm -rf "$dir"
		echo "ok|$server, $((SECONDS - start)) s: $suites" >"$work/$v.result"
	else
		echo "FAILED|$server, $((SECONDS - start)) s: ${suites:-the build failed}; see $dir" >"$work/$v.result"
	fi
}

# How many versions run at once: UID_JOBS (default 3).  The run is bound
# by the 2 cores of the CI machine: with two versions at once they were 70%
# busy over the run (saturated while the model ran, then one version alone
# for its last 800 s); three keep them busy 92% of the run.  More stretch
# every file (three versions with two Perl TAP files each, or all five
# versions at once, took longer in all: tests that draw IDs at a fixed
# rate while they wait, and every poll, cost CPU for as long as they
# wait).  The versions start in the order of their length, the two that
# run the store failover scenarios (15, 19) first, so that the shorter ones
# fill the end.  The last version to start runs two Perl TAP files at once
# (unless UID_TAP_JOBS says otherwise): when it starts, no version is
# waiting for a slot, and as the others end it would run alone on cores
# left idle.
jobs_max=${UID_JOBS:-3}
[[ "$jobs_max" =~ ^[1-9][0-9]*$ ]] || { echo "UID_JOBS must be a positive number, not '$jobs_max'" >&2; exit 2; }
declare -A version_of=()
declare -A began=() seconds=()
overall=0
run_start=$SECONDS

# Waits for one running version, then shows its whole log.
finish_one() {
	local pid v
	wait -n -p pid "${!version_of[@]}" || true
	v=${version_of[$pid]}
	unset "version_of[$pid]"
	seconds[$v]=$((SECONDS - ${began[$v]}))
	if [ "$jobs_max" != 1 ]; then
		echo
		echo "################ PostgreSQL $v (ended after ${seconds[$v]} s)"
		cat "$work/$v.log"
	fi
	rm -f "$work/$v.log"
}

run_order=$(for v in $versions; do [ "$v" = 15 ] || [ "$v" = 19 ] || continue; echo "$v"; done
	for v in $versions; do [ "$v" = 15 ] || [ "$v" = 19 ] || echo "$v"; done)
# the version that runs two Perl TAP files at once, if any: the last to
# start, when versions run at once and some waited for a slot before it
wide_version=
if [ -z "${UID_TAP_JOBS:-}" ] && [ "$jobs_max" != 1 ] &&
	[ "$(echo "$run_order" | wc -l)" -gt "$jobs_max" ]; then
	wide_version=$(echo "$run_order" | tail -n 1)
fi
for v in $run_order; do
	tap_jobs=${UID_TAP_JOBS:-1}
	[ "$v" != "$wide_version" ] || tap_jobs=2
	if [ -n "${missing[$v]:-}" ]; then
		echo
		echo "################ PostgreSQL $v: skipped, no sources"
		echo "skipped|no sources of PostgreSQL $v (below)" >"$work/$v.result"
		continue
	fi
	while [ "${#version_of[@]}" -ge "$jobs_max" ]; do finish_one; done
	began[$v]=$SECONDS
	if [ "$jobs_max" = 1 ]; then
		# one at a time: its output as it comes
		echo
		echo "################ PostgreSQL $v"
		test_version "$v" "$tap_jobs" 2>&1 | tee "$work/$v.log" &
	else
		echo "################ PostgreSQL $v: started ($(date -u +%H:%M:%S) UTC; its log follows when it ends)"
		test_version "$v" "$tap_jobs" >"$work/$v.log" 2>&1 &
	fi
	version_of[$!]=$v
done
while [ "${#version_of[@]}" != 0 ]; do finish_one; done
declare -A result=() line=()
for v in $versions; do
	if [ -f "$work/$v.result" ]; then
		IFS='|' read -r result[$v] line[$v] <"$work/$v.result"
		rm -f "$work/$v.result"
	else
		result[$v]=FAILED
		line[$v]="the run of this version stopped half way (its log above); see $work/$v"
	fi
	[ "${result[$v]}" != FAILED ] || overall=1
done
versions_seconds=$((SECONDS - run_start))

model_result=
if [ -n "$model_pid" ]; then
	echo
	echo "################ lease protocol model (spin)"
	if wait "$model_pid"; then model_result=ok; else model_result=FAILED; overall=1; fi
	cat "$work/model.log"
	model_line="$(tail -n 1 "$work/model.log")"
	model_seconds=$(cat "$work/model.seconds" 2>/dev/null || echo '?')
	rm -f "$work/model.log" "$work/model.seconds"
fi
wait    # for the background builds, all of them used by now

echo
echo "################ summary"
for v in $versions; do
	printf 'PostgreSQL %-3s %-7s %s\n' "$v" "${result[$v]}" "${line[$v]}"
done
[ -z "$model_result" ] || printf '%-14s %-7s %s\n' "lease model" "$model_result" "$model_line (test/model/check.sh)"

# Wall time (s) of each version and of each of its suites, the model's, and
# the whole run's; also written to $UID_TIMING_FILE if set (.ci/run adds the
# package step to it).
timing=$work/timing
{
	printf '%-12s %8s %6s %10s %9s %6s %8s\n' "wall time, s" version unit pg_regress isolation pgTAP "Perl TAP"
	for v in $versions; do
		[ "${result[$v]}" != skipped ] || continue
		printf '%-12s %8s' "PostgreSQL $v" "${seconds[$v]:-?}"
		for s in unit pg_regress isolation pgTAP "Perl TAP"; do
			printf ' %*s' "$(case $s in unit) echo 6;; pg_regress) echo 10;; isolation) echo 9;; pgTAP) echo 6;; *) echo 8;; esac)" \
				"$(awk -F'|' -v s="$s" '$1 == s { print $4 }' "$work/$v.summary" 2>/dev/null)"
		done
		echo
	done
	[ -z "$model_result" ] || printf '%-12s %8s   (in the background, beside the versions)\n' "lease model" "$model_seconds"
	printf '%-12s %8s   (%s at once, UID_JOBS)\n' "all versions" "$versions_seconds" "$jobs_max"
} >"$timing"
echo
cat "$timing"
[ -z "${UID_TIMING_FILE:-}" ] || cp "$timing" "$UID_TIMING_FILE"
rm -f "$timing" "$work"/*.summary

# Each Perl TAP file's wall time (the longest over the versions that ran
# it), "seconds<TAB>file", the slowest first, in $work/tap-times.tsv (kept
# after the run; UID_TAP_TIMES_FILE=path: a copy there).  From a run of
# the whole Perl TAP suite, it is what test/tap-times.tsv, the order the
# files run in, is refreshed from (docs/development.md).
tap_times_file=
if ls "$work"/*.tap-times >/dev/null 2>&1; then
	tap_times_file=$work/tap-times.tsv
	{
		echo "# seconds<TAB>file: each Perl TAP file's wall time (prove --timer), the longest over PostgreSQL $(ls "$work"/*.tap-times | sed -E 's|.*/([0-9]+)\.tap-times$|\1|' | sort -n | paste -sd ' ' -); test/run.sh at $(date -u '+%Y-%m-%d %H:%M') UTC, UID_JOBS=$jobs_max"
		cat "$work"/*.tap-times | awk -F'\t' '$1 + 0 >= t[$2] + 0 { t[$2] = $1 } END { for (f in t) printf "%d\t%s\n", t[f], f }' |
			sort -t "$(printf '\t')" -k1,1nr -k2,2
	} >"$tap_times_file"
	rm -f "$work"/*.tap-times
	[ -z "${UID_TAP_TIMES_FILE:-}" ] || cp "$tap_times_file" "$UID_TAP_TIMES_FILE"
fi
rm -rf "$port_dir"
rmdir "$work" 2>/dev/null || true
[ -z "$missing_note" ] || echo "$missing_note"
[ -z "$citus_note" ] || echo "$citus_note"
[ -z "$pg_tle_note" ] || echo "$pg_tle_note"
[ -z "$tap_times_file" ] || echo "each Perl TAP file's time: $tap_times_file (to order later runs by it: cp $tap_times_file test/tap-times.tsv)"
passed=$(for v in $versions; do [ "${result[$v]}" != ok ] || printf '%s ' "$v"; done)
skipped=$(for v in $versions; do [ "${result[$v]}" != skipped ] || printf '%s ' "$v"; done)
if [ "$overall" != 0 ]; then
	echo "FAILED on: $(for v in $versions; do [ "${result[$v]}" != FAILED ] || printf '%s ' "$v"; done)$([ "$model_result" != FAILED ] || echo 'the lease model')"
	exit 1
fi
if [ -z "$passed" ]; then
	echo "no version tested (skipped: ${skipped% })"
	exit 1
fi
echo "all test suites passed on PostgreSQL ${passed% }${skipped:+ (skipped for lack of sources: ${skipped% })}"
