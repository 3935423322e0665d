# Sourced by test/unit/file_graph.sh and test/unit/header_names.sh: the
# global symbols of the module's object files, read with one nm for all of
# them (an nm and an awk per file cost 4.5 to 5 s of CPU per check on the
# CI machine, where every process start is dear; one nm, 0.3 s).

# uid_object_symbols [object files]: prints "file.c D symbol" for each
# global symbol a file defines and "file.c U symbol" for each it needs from
# elsewhere, the file named by its path below src/ ("floor/hwm.c").  Without
# arguments: every object below src/ (the module's; the programs live
# apart, in tools/).  An object that is missing is a failed test (TAP).
uid_object_symbols() {
	local o
	if [ $# -eq 0 ]; then
		set -- $(find src -name '*.o' | sort)
	fi
	for o in "$@"; do
		[ -f "$o" ] || { echo "1..1"; echo "not ok 1 - $o exists (build first)"; return 1; }
	done
	# nm -A opens each line with "path:"; a defined symbol's address follows
	# the colon, an undefined one's kind "U" comes after blanks
	nm -g -A "$@" | awk '
		{ f = $1; sub(/:.*/, "", f); sub(/^(.*\/)?src\//, "", f); sub(/\.o$/, ".c", f) }
		NF == 3 && $2 == "U" { print f, "U", $3; next }
		NF == 3 && $2 ~ /^[TDBRVWCGS]$/ { print f, "D", $3 }'
}
