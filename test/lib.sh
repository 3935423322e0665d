# Sourced by the test, demo and bench scripts (it only defines functions).
# uid_build_private_install builds uid and installs it into a private copy of
# the PostgreSQL server of $PG_CONFIG under $top/tmp_install (PostgreSQL finds
# its share and lib directories relative to its binaries), then puts that
# copy first on PATH.  Sets UID_BINDIR.  With UID_NO_BITCODE=1 (test/run.sh)
# it builds no LLVM bitcode for JIT inlining: the tests do not need it, and
# for a server built with LLVM (Debian's 15) it doubled the CPU of the build
# (38 s instead of 18 s on the 2-core CI machine).

uid_build_private_install() {
	local T="$top/tmp_install" d
	local bindir pkglibdir sharedir
	bindir=$("$PG_CONFIG" --bindir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	sharedir=$("$PG_CONFIG" --sharedir)

	make -s -C "$top" PG_CONFIG="$PG_CONFIG" ${UID_NO_BITCODE:+with_llvm=no} >/dev/null
	if [ ! -x "$T$bindir/postgres" ] || [ "$bindir/postgres" -nt "$T$bindir/postgres" ]; then
		rm -rf "$T"
		for d in "$bindir" "$pkglibdir" "$sharedir"; do
			mkdir -p "$T$(dirname "$d")"
			cp -a "$d" "$T$d"
		done
	fi
	make -s -C "$top" PG_CONFIG="$PG_CONFIG" ${UID_NO_BITCODE:+with_llvm=no} install DESTDIR="$T" >/dev/null
	export UID_BINDIR="$T$bindir"
	export PATH="$UID_BINDIR:$PATH"
}

# make, pointed at the private install
uid_make() {
	make -s -C "$top" PG_CONFIG="$PG_CONFIG" ${UID_NO_BITCODE:+with_llvm=no} bindir="$UID_BINDIR" "$@"
}

# Copies this tree, without build and test output (objects are built for
# one server version), into directory $1 (created if needed).
uid_copy_tree() {
	mkdir -p "$1"
	tar -C "$top" --exclude='./tmp_*' --exclude=./.git \
		--exclude=./results --exclude=./output_iso --exclude=./bench/out \
		--exclude='*.o' --exclude='*.so' --exclude='*.bc' -cf - . | tar -C "$1" -xf -
}

# As root: copy this tree into directory $1 and give it to the postgres OS
# user, which runs the servers (initdb refuses root).
uid_copy_tree_for_postgres() {
	uid_copy_tree "$1"
	chown -R postgres: "$1"
}

# A second private install, of another server: copies this tree into $2,
# builds uid there against pg_config $1, installs both into $2/tmp_install,
# and prints that server's bin directory.  (For the pg_upgrade test, which
# needs the older server with uid too.)
uid_private_install_of() {
	uid_copy_tree "$2"
	(
		top=$2
		PG_CONFIG=$1
		uid_build_private_install
		echo "$UID_BINDIR"
	)
}

# What the output of one suite (file $1) says it ran: "12 tests" for
# pg_regress and isolation, "321 tests" for prove and pg_prove, the sum of
# the plans ("1..N") of plain TAP programs (unit), and the
# Perl TAP files that skipped themselves, with the reason.
uid_count_tests() {
	local n skipped
	n=$(grep -hoE 'All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests (failed|passed)|Files=[0-9]+, Tests=[0-9]+' "$1" |
		sed -E 's/All ([0-9]+) tests passed/\1/; s/[0-9]+ of ([0-9]+) tests.*/\1/; s/.*Tests=([0-9]+)/\1/' | tail -n 1)
	# plain TAP programs (the unit suite runs several): the sum of their plans
	[ -n "$n" ] || n=$(grep -hoE '^1\.\.[0-9]+$' "$1" | sed 's/^1\.\.//' | awk '{ s += $1 } END { if (NR) print s }')
	skipped=$(sed -nE 's/^(test\/t\/)?([0-9A-Za-z_]+\.pl) .*skipped: (.*)$/\2 (\3)/p' "$1" | paste -sd ';' - | sed 's/;/; /g')
	printf '%s tests%s' "${n:-?}" "${skipped:+, skipped: $skipped}"
}

# Where the sources of $1 (pg: the PostgreSQL versions; citus) are: $2 if
# given (UID_PG_SOURCES, UID_CITUS_SOURCES), else ../shared/$1 beside this
# tree, beside the main worktree of its repository, or beside the local
# checkout it was cloned from (or that checkout's main worktree).
uid_shared_sources() {
	local what=$1 given=${2:-} origin repo common
	if [ -n "$given" ]; then
		echo "$given"
		return
	fi
	origin=$(git -C "$top" config --get remote.origin.url 2>/dev/null || true)
	[ -d "$origin" ] || origin=
	for repo in "$top" $origin; do
		if [ -d "$repo/../shared/$what" ]; then
			echo "$repo/../shared/$what"
			return
		fi
		common=$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
		if [ -n "$common" ] && [ -d "$common/../../shared/$what" ]; then
			echo "$common/../../shared/$what"
			return
		fi
	done
	echo "$top/../shared/$what"
}

# The settings of the demo server (test/demo.sh), also those of the server
# on which test/t/150_readme_sql.pl runs the README's SQL: uid preloaded,
# worker id 1, and a masking key of its own (random, so that no key of the
# demo is ever copied into a real server's configuration).
uid_demo_conf() {
	cat <<CONF
shared_preload_libraries = 'uid'
uid.worker_id = 1
uid.mask_key = '$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')'
CONF
}

# The cache of the builds of the test tool chain (PostgreSQL, Citus,
# pg_tle): /var/cache/uid-pg as root, else ~/.cache/uid-pg; UID_PG_CACHE
# sets another.
uid_build_cache() {
	if [ "$(id -u)" = 0 ]; then
		echo "${UID_PG_CACHE:-/var/cache/uid-pg}"
	else
		echo "${UID_PG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uid-pg}"
	fi
}

# The start of an extension's build for the tests (test/build-citus.sh,
# test/build-pg_tle.sh): NAME from TARBALL on PostgreSQL MAJOR (Debian's,
# or a cached build).  Sets pc (its pg_config), cache and out (the build's
# directory in the cache), and holds the lock of NAME on MAJOR (file
# descriptor 9) for the rest of the script, so that two runs build once;
# when the build is there already, prints its directory and exits.
uid_extension_build_begin() {
	local name=$1 major=$2 tarball=$3 server sum
	cache=$(uid_build_cache)
	pc=/usr/lib/postgresql/$major/bin/pg_config
	if ! [ -x "$pc" ] || ! [ -d "/usr/lib/postgresql/$major/lib/pgxs" ]; then
		pc=$(bash "$top/test/build-pg.sh" "$major")
	fi
	server=$(basename "$(dirname "$(dirname "$pc")")")
	[ "$server" != "$major" ] || server=$major-debian
	sum=$(sha256sum "$tarball" | cut -c1-16)
	out=$cache/$name-$sum-on-$server
	mkdir -p "$cache"
	exec 9>"$cache/$name-$major.lock"
	flock 9
	if [ -f "$out/.uid-build-complete" ]; then
		echo "$out"
		exit 0
	fi
}

