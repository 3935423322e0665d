#!/usr/bin/env bash
# Checks the map of the source in docs/development.md ("Layout of the
# source"): every folder, C file and header below src/ has a line of its
# own there, its path below src/ and what it holds ("  core/  the ID
# core", "  floor/hwm.c  what it holds", or "  floor/hwm.c/.h  ..." for a
# file and its header), and no line names a file or folder that is gone.
# Prints TAP, one test per folder and file of src/ and one for the map's
# own lines.  Run by "make check-unit".
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
doc=docs/development.md
# the map: the code block after the heading, its lines "  name  description"
# under the line of src/, until the next line of the block's first column
map=$(awk '
	/^## Layout of the source/ { in_section = 1; next }
	in_section && /^## / { exit }
	in_section && /^```/ { if (in_block) exit; in_block = 1; next }
	in_block && /^src\// { in_src = 1; next }
	in_block && in_src && /^[^ ]/ { exit }
	in_block && in_src && /^  [^ ]/ { print $1, (NF > 1 ? "described" : "bare") }
' "$doc")
# every name the map gives, "x.c/.h" standing for x.c and x.h
names=$(printf '%s\n' "$map" | awk '$2 == "described" { n = $1; if (n ~ /\.c\/\.h$/) { sub(/\/\.h$/, "", n); print n; sub(/\.c$/, ".h", n); print n } else print n }' | sort)
n=0
failed=0
for f in $(cd src && { find . -mindepth 1 -type d -printf '%P/\n'; find . -name '*.[ch]' -printf '%P\n'; } | sort); do
	n=$((n + 1))
	# a here-string, not a pipe: grep -q stops reading at its match, and
	# under pipefail the writer's broken pipe would turn a match into a miss
	if grep -qxF "$f" <<<"$names"; then
		echo "ok $n - src/$f is in the map of $doc"
	else
		echo "not ok $n - src/$f is in the map of $doc"
		echo "#   add a line \"  $f  what it holds\" under src/ in \"Layout of the source\""
		failed=$((failed + 1))
	fi
done
# lines without a description, and files the map names that are not there
bad=""
while read -r name kind; do
	[ -n "$name" ] || continue
	[ "$kind" = described ] || bad="$bad $name (no description)"
done <<<"$map"
for f in $names; do
	[ -e "src/$f" ] || bad="$bad $f (no such file or folder)"
done
n=$((n + 1))
if [ -z "$bad" ]; then
	echo "ok $n - every line of the map names a file of src/ and says what it holds"
else
	echo "not ok $n - every line of the map names a file of src/ and says what it holds"
	echo "#  $bad"
	failed=$((failed + 1))
fi
echo "1..$n"
[ "$failed" -eq 0 ] || { echo "# $failed of $n failed"; exit 1; }
