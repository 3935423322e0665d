#!/usr/bin/env bash
# Checks that no line of a table in README.md and docs/*.md is longer than
# about 200 characters (210): a table cell that needs a paragraph is a
# section, or a list item, below its table (docs/reference.md shows both).
# Prints TAP, one test per file.  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
limit=210
n=0
failed=0
for f in README.md docs/*.md; do
	n=$((n + 1))
	long=$(awk -v limit="$limit" '/^```/ { code = !code } !code && /^\|/ && length($0) > limit { printf " %d (%d)", NR, length($0) }' "$f")
	if [ -z "$long" ]; then
		echo "ok $n - $f: no table line over $limit characters"
	else
		echo "not ok $n - $f: table lines over $limit characters, line (length):$long"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ] || { echo "# $failed of $n failed"; exit 1; }
