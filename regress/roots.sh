#!/bin/sh
# roots.sh: builds and checks the Debian root trees the integration suite
# boots with HARNESS_ROOT= to run on other systemd versions (test only,
# never installed; runs as root on the test host).  Each tree comes from
# Debian's archive through debootstrap, with exactly the runtime and test
# packages the suite needs, plus the build packages where the code is also
# compiled with that release's toolchain.  See docs/TESTING.md.
#
#	sh regress/roots.sh ensure NAME...	build what is missing, stale or
#						broken; print nothing else
#	sh regress/roots.sh path NAME		the tree's directory
#	sh regress/roots.sh list		the names this script knows
#
# NAME is one of: bookworm-bpo (systemd 254 from bookworm-backports),
# trixie (257), sid (the newest Debian has).  The cache is
# OPTY_ROOTS (default /var/cache/opencode-pty/roots); a tree is rebuilt
# when its stamp is missing, was made from another package list, is older
# than OPTY_ROOTS_MAX_AGE days (default 30), or a file the suite runs is
# gone.  Nothing is downloaded when the cache is good.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -u
OPTY_ROOTS=${OPTY_ROOTS:-/var/cache/opencode-pty/roots}
OPTY_ROOTS_MAX_AGE=${OPTY_ROOTS_MAX_AGE:-30}
# The Debian mirror: OPTY_MIRROR, else the host's own apt configuration
# (roots_mirror), read only when a tree is to be made.  Never printed.
MIRROR=${OPTY_MIRROR:-}

# What the suite runs inside the container: the supervisor's libraries,
# systemd and D-Bus (a user bus too), and the tools the scripts call.
RUNTIME="systemd systemd-sysv dbus dbus-user-session libpam-systemd
libsystemd0 libseccomp2 python3 procps util-linux bsdutils make passwd
strace git ca-certificates"
# Packages the suite came to need after the trees were first made: added
# to a cached tree in place (apt-get in the tree, roots_extra) instead of
# a rebuild of every tree.  libatomic1: the npm registry's Node binary
# links it (regress/node/, 76-node.sh); the build trees have it already.
# tmux and vim-tiny: the nested terminal and the editor that
# regress/it/79-programs.sh runs inside a session.  openssh-client and
# -server: 79-programs.sh's `ssh -t` in a session, to an sshd the test
# starts in the container.  nftables and iproute2: the loopback table of
# the Node service's listeners (81-loopback.sh).  less: the pager
# 87-xterm.sh runs, with vim-tiny, through xterm.js's headless terminal.
EXTRA="libatomic1 tmux vim-tiny openssh-client openssh-server nftables
iproute2 less"
# The release's own compiler and headers: make -Werror runs in the tree.
BUILDPKGS="gcc libc6-dev pkg-config libsystemd-dev libevent-dev
libseccomp-dev libcmocka-dev"

roots_log()
{
	echo "roots: $*" >&2
}

# roots_mirror: sets MIRROR to the first Debian archive URI of the host's
# apt sources (one-line .list files and deb822 .sources files, in apt's
# order): the first "deb" entry for a Debian release or its -updates or
# -backports suite, not the security archive.  No such entry: a failure
# that says what to set.
roots_mirror()
{
	local f re
	[ -n "$MIRROR" ] && return 0
	re='^(oldoldstable|oldstable|stable|testing|unstable|buster|bullseye'
	re="$re|bookworm|trixie|forky|duke|sid)(-updates|-backports)?\$"
	MIRROR=$(for f in /etc/apt/sources.list \
	    /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		case $f in
		*.sources) awk '
		    function flush() {
			if (deb && uri != "" && ok) print uri
			deb = 0; uri = ""; ok = 0
		    }
		    /^[ \t]*#/ { next }
		    /^[ \t]*$/ { flush(); next }
		    tolower($1) == "types:" {
			for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
		    tolower($1) == "uris:" { uri = $2 }
		    tolower($1) == "enabled:" && tolower($2) == "no" { deb = 0 }
		    tolower($1) == "suites:" {
			for (i = 2; i <= NF; i++) if (suite($i)) ok = 1 }
		    END { flush() }
		    function suite(s) {
			return s ~ re
		    }' re="$re" "$f" ;;
		*) awk '
		    $1 == "deb" {
			i = 2
			if ($i ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++
			if ($i ~ /^\[/ || $i ~ /\]$/) i++
			if ($(i + 1) ~ re)
				print $i
		    }' re="$re" "$f" ;;
		esac
	done | sed -n '/^[a-z+]*:\/\//{s,/*$,,;p;q;}')
	[ -n "$MIRROR" ] && return 0
	roots_log "no Debian archive in the host's apt sources" \
	    "(/etc/apt/sources.list, /etc/apt/sources.list.d/):" \
	    "set OPTY_MIRROR to a Debian mirror's URL"
	return 1
}

# roots_spec NAME: suite, the libevent runtime's name there, and whether
# the tree is also a build root.  Prints nothing for an unknown name.
roots_spec()
{
	case $1 in
	bookworm-bpo)	echo "bookworm libevent-core-2.1-7 nobuild" ;;
	trixie)		echo "trixie libevent-core-2.1-7t64 build" ;;
	sid)		echo "sid libevent-core-2.1-7t64 build" ;;
	esac
}

roots_pkgs()
{
	# shellcheck disable=SC2086
	set -- $(roots_spec "$1")
	echo $RUNTIME "$2"
	[ "$3" = build ] && echo $BUILDPKGS
}

# The stamp says which list made the tree: a change of list is a rebuild.
roots_want()
{
	{
		roots_spec "$1"
		roots_pkgs "$1"
		[ "$1" = bookworm-bpo ] && echo "backports: systemd"
	} | sha256sum | cut -c1-64
}

# roots_good NAME: the tree exists, was made from today's list, is not too
# old, and has what the suite runs.
roots_good()
{
	local d f
	d=$OPTY_ROOTS/$1
	[ -f "$d/.opty-root" ] || return 1
	[ "$(sed -n 's/^spec=//p' "$d/.opty-root")" = "$(roots_want "$1")" ] ||
	    return 1
	[ -n "$(find "$d/.opty-root" -mtime "-$OPTY_ROOTS_MAX_AGE")" ] ||
	    return 1
	for f in usr/lib/systemd/systemd usr/bin/dbus-daemon usr/bin/python3 \
	    usr/bin/make usr/bin/logger usr/sbin/useradd usr/bin/git; do
		[ -x "$d/$f" ] || { roots_log "$1: $f is missing"; return 1; }
	done
	chroot "$d" systemctl --version >/dev/null 2>&1
}

# The bookworm tree takes systemd and what must match it from backports.
roots_backports()
{
	local d=$1
	echo "deb $MIRROR bookworm-backports main" \
	    > "$d/etc/apt/sources.list.d/backports.list" || return 1
	chroot "$d" sh -ec '
		export DEBIAN_FRONTEND=noninteractive
		apt-get -qq update
		apt-get -q -y --no-install-recommends -t bookworm-backports \
		    install systemd systemd-sysv libsystemd0 libpam-systemd \
		    libudev1 2>&1 | tail -n 3
		apt-get clean'
}

roots_build()
{
	local name d new suite pkgs
	name=$1
	d=$OPTY_ROOTS/$name
	new=$d.new
	# shellcheck disable=SC2046
	set -- $(roots_spec "$name")
	suite=$1
	pkgs=$(roots_pkgs "$name" | tr -s ' \n' ',' | sed 's/,$//')
	command -v debootstrap >/dev/null ||
	    { roots_log "debootstrap is missing (run: make deps)"; return 1; }
	rm -rf "$new" || return 1
	mkdir -p "$OPTY_ROOTS" || return 1
	roots_mirror || return 1
	roots_log "$name: debootstrap $suite (this downloads from the" \
	    "host's Debian mirror)"
	if ! debootstrap --variant=minbase --include="$pkgs" "$suite" "$new" \
	    "$MIRROR" > "$OPTY_ROOTS/$name.log" 2>&1; then
		tail -n 20 "$OPTY_ROOTS/$name.log" >&2
		roots_log "$name: debootstrap failed (log: $OPTY_ROOTS/$name.log)"
		return 1
	fi
	if [ "$name" = bookworm-bpo ] && ! roots_backports "$new"; then
		roots_log "$name: installing systemd from backports failed"
		return 1
	fi
	chroot "$new" apt-get clean
	# The suite creates byk itself; a tree must not come with one.
	rm -rf "$d" && mv "$new" "$d" || return 1
	{
		echo "spec=$(roots_want "$name")"
		echo "systemd=$(chroot "$d" systemctl --version | sed -n 1p)"
		echo "made=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} > "$d/.opty-root"
	roots_good "$name" || { roots_log "$name: the new tree is broken"; return 1; }
	roots_log "$name: $(sed -n 's/^systemd=//p' "$d/.opty-root")"
}

# What a Debian installation has and debootstrap's minbase may not:
# bookworm's minbase has no /etc/hosts, so `getent hosts localhost`
# fails there.  Idempotent, so a cached tree gets it too.
roots_fixup()
{
	local d=$OPTY_ROOTS/$1
	[ -e "$d/etc/hosts" ] && return 0
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
	    > "$d/etc/hosts"
}

# roots_extra NAME: EXTRA's packages in the tree, installed when missing.
roots_extra()
{
	local d=$OPTY_ROOTS/$1 p missing=
	for p in $EXTRA; do
		chroot "$d" dpkg-query -W -f '${Status}' "$p" 2>/dev/null |
		    grep -q ' installed$' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	roots_log "$1: adding$missing"
	# sid's Release carries a Valid-Until that a cached tree outlives.
	chroot "$d" sh -ec "
		export DEBIAN_FRONTEND=noninteractive
		apt-get -qq -o Acquire::Check-Valid-Until=false update
		apt-get -q -y --no-install-recommends install $missing |
		    tail -n 1
		apt-get clean" >&2 || { roots_log "$1: cannot add$missing"; return 1; }
}

roots_ensure()
{
	local n t0
	for n; do
		[ -n "$(roots_spec "$n")" ] ||
		    { roots_log "unknown root '$n' (see: roots.sh list)"; return 2; }
		if ! roots_good "$n"; then
			t0=$(date +%s)
			roots_build "$n" || return 1
			roots_log "$n: built in $(( $(date +%s) - t0 )) s"
		fi
		roots_fixup "$n" || return 1
		roots_extra "$n" || return 1
	done
}

case "${1:-}" in
ensure)	shift; roots_ensure "$@" ;;
path)	[ -n "$(roots_spec "${2:-}")" ] || exit 2; echo "$OPTY_ROOTS/$2" ;;
list)	echo "bookworm-bpo trixie sid" ;;
*)	sed -n '2,/^$/p' "$0" >&2; exit 2 ;;
esac
