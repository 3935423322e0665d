#!/usr/bin/env bash
# Runs every uid test suite (unit, pg_regress, isolation, pgTAP, Perl TAP) on each
# supported PostgreSQL major version, and prints a summary per version.
#
#   sudo bash test/run.sh   installs the Debian packages (test/deps.sh), builds
#                           the servers Debian 12 lacks, then runs the suites
#                           as the postgres OS user on a copy of this tree
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
#   UID_CITUS_VERSION=17    the version whose private install gets Citus,
#                           built by test/build-citus.sh from ../shared/citus
#                           (UID_CITUS_SOURCES); the tests see it in
#                           UID_CITUS_DIR
#   UID_KEEP=1              keep each version's working copy even if it passed
#   UID_TEST_TMP=/some/dir  where the working copies go (default /tmp)
#
# The Perl TAP test of pg_upgrade (test/t/081_pg_upgrade.pl) upgrades from
# older versions to the version under test: 15 -> 18, 17 -> 18 and 16 -> 19
# (UID_UPGRADE_PAIRS); the older servers are built too if needed.
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
		local name=$1 fn=$2 log status
		log=$top/tmp_$fn.log
		echo
		echo "=== $name"
		set +e
		"$fn" 2>&1 | tee "$log"
		status=${PIPESTATUS[0]}
		set -e
		if [ "$status" = 0 ]; then
			echo "=== $name: ok"
			echo "$name|ok|$(uid_count_tests "$log")" >>"$summary"
		else
			echo "=== $name: FAILED"
			echo "$name|FAILED|$(uid_count_tests "$log")" >>"$summary"
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
	suite_tap() {
		uid_make installcheck-tap ${UID_PROVE_TESTS:+PROVE_TESTS="$UID_PROVE_TESTS"} && return 0
		for f in tmp_check/log/regress_log_*; do
			[ -f "$f" ] && { echo "--- tail of $f"; tail -n 60 "$f"; }
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

# Citus for version $1, when it is UID_CITUS_VERSION (default 17) and the
# Perl TAP suite runs: prints the directory test/build-citus.sh made (empty
# for other versions); without the Citus sources, one line says so and the
# version runs without it, unless UID_REQUIRE_ALL_VERSIONS=1.  Fails if the
# build fails.
citus_dir_of() {
	[ -z "$explicit_pg_config" ] && [ "$1" = "${UID_CITUS_VERSION:-17}" ] || return 0
	[ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" tap "* ]] || return 0
	if [ "${UID_REQUIRE_ALL_VERSIONS:-}" != 1 ] && ! bash "$top/test/build-citus.sh" --check "$1"; then
		echo "no Citus on PostgreSQL $1 (no sources here): to add it, put citus-*.tar.xz in $(cd "$top/.." && pwd)/shared/citus or set UID_CITUS_SOURCES to its directory" >&2
		return 0
	fi
	bash "$top/test/build-citus.sh" "$1"
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

# Build the servers that Debian lacks in the background, in version order,
# while the suites run on the versions already there: the suites mostly
# wait, the builds mostly compute.  test/build-pg.sh takes one lock per
# version, so the loop below, asking for a version being built, waits for
# that build and then reuses it (or builds it itself if it failed here).
if [ -z "$explicit_pg_config" ]; then
	to_build=$(for v in $versions; do echo "$v"; upgrade_sources_of "$v"; done | sort -nu |
		while read -r v; do
			[ -n "${missing[$v]:-}" ] || debian_pg_config_of "$v" >/dev/null || echo "$v"
		done)
	if [ -n "$to_build" ]; then
		(for v in $to_build; do bash "$top/test/build-pg.sh" "$v" >/dev/null || true; done) &
	fi
fi
# The model of the lease protocol (spin, test/model/check.sh) depends on no
# server: it runs once, in the background beside the suites (it computes,
# they mostly wait), and its outcome joins the summary.
model_pid=
if [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" model "* ]]; then
	bash "$top/test/model/check.sh" >"$work/model.log" 2>&1 &
	model_pid=$!
fi
overall=0
for v in $versions; do
	echo
	echo "################ PostgreSQL $v"
	start=$SECONDS
	if [ -n "${missing[$v]:-}" ]; then
		result[$v]="skipped"
		line[$v]="no sources of PostgreSQL $v (below)"
		echo "skipped: no sources"
		continue
	fi
	if ! pc=$(pg_config_of "$v"); then
		result[$v]="FAILED"
		line[$v]="could not build the server (test/build-pg.sh $v)"
		overall=1
		continue
	fi
	from=
	from_pcs=
	if [ -z "$explicit_pg_config" ]; then
		from=$(upgrade_sources_of "$v" | paste -sd ' ' -)
		for f in $from; do
			if ! from_pcs+=" $(pg_config_of "$f")"; then
				from_pcs=failed
				break
			fi
		done
	fi
	if [ "$from_pcs" = failed ]; then
		result[$v]="FAILED"
		line[$v]="could not build the servers to upgrade from ($from)"
		overall=1
		continue
	fi
	if ! citus_dir=$(citus_dir_of "$v"); then
		result[$v]="FAILED"
		line[$v]="could not build Citus (test/build-citus.sh $v)"
		overall=1
		continue
	fi
	server=$("$pc" --version | sed 's/^PostgreSQL //')
	echo "server: $server ($pc)${from:+; pg_upgrade test from PostgreSQL $from}${citus_dir:+; with Citus ($citus_dir)}"

	dir=$work/$v
	uid_copy_tree "$dir"
	env=(UID_RUN_SUITES=1 PG_CONFIG="$pc" UID_UPGRADE_FROM_PG_CONFIGS="$from_pcs"
		UID_TEST_ONLY="${UID_TEST_ONLY:-}" UID_PROVE_TESTS="${UID_PROVE_TESTS:-}"
		UID_REQUIRE_ENGINES="${UID_REQUIRE_ENGINES:-}" UID_CITUS_DIR="$citus_dir"
		UID_CITUS_VERSION="${UID_CITUS_VERSION:-17}")
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

	suites=$(awk -F'|' '{ printf "%s%s %s %s", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$dir/tmp_summary" 2>/dev/null || true)
	if [ "$status" = 0 ]; then
		result[$v]="ok"
		[ "${UID_KEEP:-}" = 1 ] || rm -rf "$dir"
	else
		result[$v]="FAILED"
		overall=1
		suites="${suites:-the build failed}; see $dir"
	fi
	line[$v]="$server, $((SECONDS - start)) s: $suites"
done

model_result=
if [ -n "$model_pid" ]; then
	echo
	echo "################ lease protocol model (spin)"
	if wait "$model_pid"; then model_result=ok; else model_result=FAILED; overall=1; fi
	cat "$work/model.log"
	model_line="$(tail -n 1 "$work/model.log")"
	rm -f "$work/model.log"
fi
wait    # for the background builds, all of them used by now

echo
echo "################ summary"
for v in $versions; do
	printf 'PostgreSQL %-3s %-7s %s\n' "$v" "${result[$v]}" "${line[$v]}"
done
[ -z "$model_result" ] || printf '%-14s %-7s %s\n' "lease model" "$model_result" "$model_line (test/model/check.sh)"
rmdir "$work" 2>/dev/null || true
[ -z "$missing_note" ] || echo "$missing_note"
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
