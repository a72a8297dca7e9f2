#!/bin/sh
# life.sh: the Debian package's life in the disposable systemd of one
# release (issue 26 item 3; test only, never installed; root on the test
# host).  `make pkg-check` runs it for each version the project claims.
#
#	sh regress/pkg/life.sh NAME	NAME: host (the host's /, with the
#					packages of $BUILD/deb) or a tree of
#					regress/roots.sh (with $BUILD/deb-NAME,
#					built there by `make deb-check`)
#
# A fresh system of that release is made from its tree: an overlay in
# memory (nothing is written to the tree), where the release's apt,
# from the mirror of its own sources, updates its lists, takes out
# nftables (so that installing the package has a dependency to pull)
# with whatever no installed package needs any more, and downloads
# what `apt-get install ./opencode-pty_*.deb` needs.
# That system is booted (regress/harness.sh, private network: nothing is
# fetched there) and regress/pkg/life-in.sh installs, upgrades, removes
# and purges the package in it.  An earlier version of the package is
# made here: the same .debs with a lower version number (0.1.0 is the
# first release; docs/PACKAGING.md).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
BUILD=${BUILD:-build}
prog="pkg-life"
die() { echo "$prog: FAIL: $*"; exit 1; }

# prev DEBDIR OUT: every .deb of DEBDIR again with VERSION~prev as its
# version (and as the version node-opencode-pty depends on).
prev()
{
	local d f v t
	for f in "$1"/*.deb; do
		t=$(mktemp -d) || return 1
		dpkg-deb -R "$f" "$t/x" || return 1
		v=$(sed -n 's/^Version: //p' "$t/x/DEBIAN/control")
		sed -i "s/^Version: .*/Version: $v~prev/;
		    s/(= $v)/(= $v~prev)/" "$t/x/DEBIAN/control"
		d=${f##*/}
		dpkg-deb -b --root-owner-group "$t/x" \
		    "$2/$(echo "$d" | sed "s/_${v}_/_${v}~prev_/")" \
		    > /dev/null || return 1
		rm -rf "$t"
	done
}

# fresh ROOT DEBDIR MERGED: the release's system, with the package's
# downloads, at MERGED (an overlay of ROOT whose upper layer is in
# memory).  Its apt runs chrooted, with the host's network.
fresh()
{
	local root=$1 debs=$2 m=$3 s=${3%/*}
	mount -t tmpfs -o mode=0755 opty-pkg "$s/mem" &&
	mkdir "$s/mem/upper" "$s/mem/work" &&
	mount -t overlay opty-pkg \
	    -o "lowerdir=$root,upperdir=$s/mem/upper,workdir=$s/mem/work" "$m" ||
	    return 1
	unshare --mount --propagation private /bin/sh -ec '
		m=$1 debs=$2
		mount -t proc proc "$m/proc"
		mount --rbind /dev "$m/dev"
		mkdir -p "$m/mnt/debs"
		mount --bind "$debs" "$m/mnt/debs"
		chroot "$m" /bin/sh -ec "
			export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
			apt-get -qq -o Acquire::Check-Valid-Until=false update
			dpkg-query -W -f=\"\\\${Status}\" nftables |
			    grep -q \" installed\$\" ||
			    { echo \"nftables is not in the tree\"; exit 1; }
			apt-get -qq -y purge nftables > /dev/null
			apt-get -qq -y autoremove --purge > /dev/null
			# A build machine may forbid every service start
			# (a container image policy-rc.d exiting 101):
			# not on the servers the package is for.
			if [ -e /usr/sbin/policy-rc.d ]; then
				rm /usr/sbin/policy-rc.d
				echo \"policy-rc.d of the build machine left out\"
			fi
			cd /mnt/debs
			apt-get -q -y --download-only install \
			    ./opencode-pty_*.deb ./node-opencode-pty_*.deb |
			    grep -E \"^(Need to get|Download complete)\"
			ls /var/cache/apt/archives/nftables_*.deb"
	' sh "$m" "$(cd "$debs" && pwd -P)"
}

life_main()
{
	local name=$1 root debs st pv rc
	case $name in
	host)	root=/ debs=$BUILD/deb ;;
	*)	root=$(sh "$REPO/regress/roots.sh" path "$name") ||
		    die "unknown tree $name"
		debs=$BUILD/deb-$name ;;
	esac
	ls "$debs"/opencode-pty_*.deb "$debs"/node-opencode-pty_*.deb \
	    > /dev/null 2>&1 || die "no packages in $debs (make deb-check)"
	st=$(mktemp -d "${TMPDIR:-/tmp}/opty-pkg.XXXXXX") || exit 1
	mkdir "$st/mem" "$st/merged" || exit 1
	# Under the repository, which the container sees at the same path.
	pv=$BUILD/pkg-prev-$name
	rm -rf "$pv" && mkdir -p "$pv" &&
	    prev "$debs" "$pv" || die "cannot make the earlier version"
	echo "$prog: $name: a fresh system from $root; packages $debs"
	fresh "$root" "$debs" "$st/merged" > "$st/fresh.log" 2>&1 ||
	    { sed 's/^/  | /' "$st/fresh.log"; die "$name: apt in the tree"; }
	sed 's/^/  apt: /' "$st/fresh.log"
	HARNESS_SELF=$REPO/regress/harness.sh
	HARNESS_ROOT=$st/merged
	export HARNESS_ROOT
	. "$HARNESS_SELF"
	harness_trap
	harness_start || die "$name: no disposable systemd"
	harness_exec BUILD="$BUILD" TOOLS="$BUILD/tools" REPO="$REPO" \
	    USR_PATHS="${USR_PATHS:?USR_PATHS is not set}" DEBDIR="$(cd "$debs" && pwd -P)" PREVDIR="$(cd "$pv" && pwd -P)" \
	    timeout -k 5 600 /bin/sh regress/pkg/life-in.sh 2>&1
	rc=$?
	harness_stop || { echo "$prog: FAIL: the harness left something"; rc=1; }
	umount "$st/merged" && umount "$st/mem" && rm -rf "$st" "$pv"
	return $rc
}

case ${1:-} in
_in)	life_main "$2" ;;
"")	sed -n '2,/^$/p' "$0" >&2; exit 2 ;;
*)	[ "$(id -u)" = 0 ] || die "must run as root"
	# The overlay exists only in a mount namespace of this run's own.
	exec unshare --mount --propagation private /bin/sh "$0" _in "$1" ;;
esac
