# Sourced by the unit tests written in shell (uid_decode_test.sh,
# install_links.sh): TAP output, one "ok" or "not ok" line per check, and
# the plan and count of failures at the end.  (unit_tap.h is the same for C.)
n=0
failed=0
# ok STATUS DESCRIPTION: a check passed if STATUS is 0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
# tap_done: the plan; the test's exit status is whether every check passed
tap_done() {
	echo "1..$n"
	[ "$failed" = 0 ] || echo "# $failed of $n checks failed"
	[ "$failed" = 0 ]
}
