# Sourced by test/package.sh and test/newcomer.sh (it only defines functions):
# a fresh Debian 12 root made by debootstrap, as a newcomer's machine would be.
#
#   uid_root_make DIR LOGDIR   unpacks a fresh root into DIR (from a cached
#                              debootstrap tarball, made on first use), with
#                              /proc, /dev and the apt cache mounted, this
#                              machine's Debian apt sources and no services
#   uid_root_unmount DIR       what uid_root_make mounted
#
# The debootstrap root is cached in /var/cache/uid-root (UID_ROOT_CACHE),
# keyed by suite, mirror and variant, with the packages apt fetched for it,
# so a rerun fetches nothing twice.  The mirror is the one this machine's apt
# sources use.  Needs root; uses say and fail of the caller.
uid_root_cache=${UID_ROOT_CACHE:-/var/cache/uid-root}
uid_root_suite=bookworm

# The Debian entries of this machine's apt sources (deb822 or one-line), for
# the root's sources, and the main archive's URI, for debootstrap.
uid_debian_sources() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v RS= -v ORS='\n\n' '/Suites:[^\n]*bookworm/ && /Components:[^\n]*main/ && /debian-archive-keyring/' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		grep -E '^deb[[:space:]]+[^[:space:]]+[[:space:]]+bookworm(-updates|-security)?[[:space:]]' "$f" || true
	done
}
uid_mirror_of() {
	uid_debian_sources | awk '
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") { print uri; exit } }
		/^deb[ \t]/ && $3 == "bookworm" { print $2; exit }'
}

uid_root_make() {
	local root=$1 work=$2 cache=$uid_root_cache suite=$uid_root_suite
	local mirror variant key base
	mirror=$(uid_mirror_of | head -n 1)
	[ -n "$mirror" ] || fail "no Debian bookworm mirror in /etc/apt/sources.list*"
	variant=minbase
	key=$(printf '%s|%s|%s|1' "$suite" "$mirror" "$variant" | sha256sum | cut -c1-12)
	base=$cache/$suite-$variant-$key.tar
	mkdir -p "$cache/apt-archives/partial"
	if [ ! -f "$base" ]; then
		say "debootstrap --variant=$variant $suite from $mirror (cached as $base)"
		rm -rf "$cache/build-$key"
		debootstrap --variant=$variant --cache-dir="$cache/apt-archives" \
			"$suite" "$cache/build-$key" "$mirror" >"$work/debootstrap.log" 2>&1 ||
			{ tail -20 "$work/debootstrap.log"; fail "debootstrap failed (log: $work/debootstrap.log)"; }
		tar -C "$cache/build-$key" -cf "$base.tmp" .
		mv "$base.tmp" "$base"
		rm -rf "$cache/build-$key"
	else
		say "fresh root from the cached $base"
	fi
	mkdir "$root"
	tar -C "$root" -xf "$base"
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount --make-rslave "$root/dev"
	mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	rm -f "$root/etc/apt/sources.list"
	uid_debian_sources >"$root/etc/apt/sources.list.d/debian.sources.tmp"
	if grep -q '^Types:' "$root/etc/apt/sources.list.d/debian.sources.tmp"; then
		mv "$root/etc/apt/sources.list.d/debian.sources.tmp" "$root/etc/apt/sources.list.d/debian.sources"
	else
		mv "$root/etc/apt/sources.list.d/debian.sources.tmp" "$root/etc/apt/sources.list"
	fi
	[ -f "$root/usr/share/keyrings/debian-archive-keyring.gpg" ] ||
		cp /usr/share/keyrings/debian-archive-keyring.gpg "$root/usr/share/keyrings/"
	# no service starts inside the root; apt keeps what it fetched
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/99keep"
}

uid_root_unmount() {
	local m
	for m in "$1/var/cache/apt/archives" "$1/dev" "$1/proc"; do
		mountpoint -q "$m" && umount -R "$m"
	done
	return 0
}
