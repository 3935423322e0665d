# Sourced by the test, demo and bench scripts (it only defines functions).  Builds uid and installs it into a
# private copy of the PostgreSQL server under ./tmp_install (PostgreSQL finds
# its share and lib directories relative to its binaries), then puts that
# copy first on PATH.  Sets UID_BINDIR.

uid_build_private_install() {
	local T="$top/tmp_install" d
	local bindir pkglibdir sharedir
	bindir=$("$PG_CONFIG" --bindir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	sharedir=$("$PG_CONFIG" --sharedir)

	make -s -C "$top" PG_CONFIG="$PG_CONFIG" >/dev/null
	if [ ! -x "$T$bindir/postgres" ] || [ "$bindir/postgres" -nt "$T$bindir/postgres" ]; then
		rm -rf "$T"
		for d in "$bindir" "$pkglibdir" "$sharedir"; do
			mkdir -p "$T$(dirname "$d")"
			cp -a "$d" "$T$d"
		done
	fi
	make -s -C "$top" PG_CONFIG="$PG_CONFIG" install DESTDIR="$T" >/dev/null
	export UID_BINDIR="$T$bindir"
	export PATH="$UID_BINDIR:$PATH"
}

# make, pointed at the private install
uid_make() {
	make -s -C "$top" PG_CONFIG="$PG_CONFIG" bindir="$UID_BINDIR" "$@"
}

# As root: copy this tree, without build and test output, into directory $1
# (created if needed) and give it to the postgres OS user, which runs the
# servers (initdb refuses root).
uid_copy_tree_for_postgres() {
	mkdir -p "$1"
	tar -C "$top" --exclude=./tmp_install --exclude=./tmp_check --exclude=./.git \
		--exclude=./results --exclude=./output_iso --exclude=./tmp_check_iso \
		--exclude=./bench/out -cf - . | tar -C "$1" -xf -
	chown -R postgres: "$1"
}
