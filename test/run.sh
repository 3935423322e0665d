#!/usr/bin/env bash
# Runs every uid test suite: pg_regress, isolation, pgTAP and Perl TAP.
#
#   sudo test/run.sh        installs the Debian packages, then runs the suites
#                           as the postgres OS user on a copy of this tree
#   test/run.sh             as an ordinary user: just build and run
#
# UID_TEST_ONLY="unit regress isolation pgtap tap" picks suites;
# UID_PROVE_TESTS="test/t/060_replicas.pl" picks Perl TAP files.
#
# The extension is installed into a private copy of the PostgreSQL server
# (./tmp_install), never into the system directories, so no root is needed
# to test and several checkouts can test at once.  Any failing suite makes
# the script exit non-zero after printing its diffs.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PG_MAJOR=${PG_MAJOR:-15}
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PG_MAJOR/bin/pg_config}

. "$top/test/lib.sh"

if [ "$(id -u)" = 0 ]; then
	if [ "${UID_SKIP_DEPS:-}" != 1 ]; then
		bash "$top/test/deps.sh"
	fi
	work=$(mktemp -d /tmp/uid-test.XXXXXX)
	uid_copy_tree_for_postgres "$work"
	echo "test/run.sh: running the suites as the postgres OS user in $work"
	exec runuser -u postgres -- env PG_CONFIG="$PG_CONFIG" PG_MAJOR="$PG_MAJOR" \
		UID_TEST_ONLY="${UID_TEST_ONLY:-}" UID_PROVE_TESTS="${UID_PROVE_TESTS:-}" \
		bash "$work/test/run.sh"
fi

cd "$top"

uid_build_private_install

failed=()
passed=0
run_suite() {
	local name=$1; shift
	echo
	echo "=== $name"
	if "$@"; then
		echo "=== $name: ok"
		passed=$((passed + 1))
	else
		echo "=== $name: FAILED"
		failed+=("$name")
	fi
}
wants() { [ -z "${UID_TEST_ONLY:-}" ] || [[ " $UID_TEST_ONLY " == *" $1 "* ]]; }

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
suite_tap() {
	uid_make installcheck-tap ${UID_PROVE_TESTS:+PROVE_TESTS="$UID_PROVE_TESTS"} && return 0
	for f in tmp_check/log/regress_log_*; do
		[ -f "$f" ] && { echo "--- tail of $f"; tail -n 60 "$f"; }
	done
	return 1
}

if wants unit; then run_suite "unit" uid_make check-unit; fi
if wants regress; then run_suite "pg_regress" suite_regress; fi
if wants isolation; then run_suite "isolation" suite_isolation; fi
if wants pgtap; then run_suite "pgTAP" bash test/pgtap.sh; fi
if wants tap; then run_suite "Perl TAP" suite_tap; fi

echo
echo "suites: $passed passed, ${#failed[@]} failed"
if [ "${#failed[@]}" -ne 0 ]; then
	echo "FAILED suites: ${failed[*]}"
	exit 1
fi
echo "all test suites passed"
