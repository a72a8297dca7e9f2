#!/bin/sh
# deb.sh: builds the Debian packages of debian/ (build tool, root: the
# package's files are root:root, and the release trees are entered by
# chroot; changes nothing in the repository).  Only a committed revision
# is built, in a fresh clone, so what is built can be named.
#
#	deb.sh build DIR [REV]	clone REV (default HEAD) into DIR/opencode-pty,
#				dpkg-buildpackage -us -uc -b there (the .debs,
#				.changes and .buildinfo land in DIR), then
#				lintian --fail-on error,warning on the .changes
#	deb.sh repro DIR	the revision built in DIR built again in a
#				second clone at a path of another length, a
#				later time, another time zone, umask and
#				locale; every .deb compared, both sha256s
#				printed; a difference fails, naming the
#				member and the files that differ; then the
#				control: a build dated a day later must
#				differ in every .deb
#	deb.sh release NAME DIR	the revision built in DIR built in the suite's
#				tree NAME (regress/roots.sh) by that release's
#				own dpkg-dev, debhelper, compiler and lintian:
#				see deb_release below
#
# dpkg-buildpackage sets SOURCE_DATE_EPOCH from debian/changelog, so
# the build's clock does not reach the packages.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
prog=deb
REPO=$(cd "$(dirname "$0")/.." && pwd -P)
# Whatever the caller's make or git state, the clones build alone.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GIT_DIR GIT_WORK_TREE \
    GIT_INDEX_FILE
die() { echo "$prog: FAIL: $*" >&2; exit 1; }

# clone DIR REV: a fresh clone of the repository at REV in DIR/opencode-pty.
clone()
{
	rm -rf "$1" && mkdir -p "$1" || die "cannot make $1"
	git clone -q --no-hardlinks --no-checkout "$REPO" "$1/opencode-pty" &&
	git -C "$1/opencode-pty" checkout -q --detach "$2" ||
	    die "cannot clone $2 into $1"
}

deb_build()
{
	local dir=$1 rev t0
	rev=$(git -C "$REPO" rev-parse --verify "${2:-HEAD}^{commit}") ||
	    die "no revision ${2:-HEAD}"
	for c in dpkg-buildpackage lintian; do
		command -v $c > /dev/null || die "$c is missing (make deps)"
	done
	clone "$dir" "$rev"
	echo "$prog: building $rev in $dir"
	t0=$(date +%s)
	(cd "$dir/opencode-pty" && dpkg-buildpackage -us -uc -b) \
	    > "$dir/build.log" 2>&1 ||
	    { tail -n 30 "$dir/build.log"; die "dpkg-buildpackage failed" \
	    "(log: $dir/build.log)"; }
	echo "$prog: built in $(( $(date +%s) - t0 )) s:" \
	    $(cd "$dir" && ls *.deb)
	lintian --fail-on error,warning "$dir"/*.changes ||
	    die "lintian on $dir/*.changes"
	echo "$prog: lintian $(lintian --version | sed 's/^Lintian v//'):" \
	    "no error, no warning"
}

# differ A B: where two .debs differ: the ar members, then the files of
# the differing tar members.
differ()
{
	local t=$(mktemp -d) m
	mkdir "$t/a" "$t/b"
	(cd "$t/a" && ar x "$1") && (cd "$t/b" && ar x "$2") || return
	for m in $(ar t "$1"); do
		cmp -s "$t/a/$m" "$t/b/$m" && continue
		echo "  member $m differs"
		case $m in
		*.tar*) ;;
		*) continue ;;
		esac
		mkdir "$t/a.$m" "$t/b.$m"
		tar -xf "$t/a/$m" -C "$t/a.$m" && tar -xf "$t/b/$m" -C "$t/b.$m"
		tar -tvf "$t/a/$m" > "$t/a.$m.list"
		tar -tvf "$t/b/$m" > "$t/b.$m.list"
		diff "$t/a.$m.list" "$t/b.$m.list" | sed 's/^/    /' | head -n 20
		diff -rq "$t/a.$m" "$t/b.$m" | sed "s|$t/||g; s/^/    /"
	done
	rm -rf "$t"
}

deb_repro()
{
	local a=$1 b rev f fail=0 sa sb
	b=$a-repro/a/path/of/another/length
	rev=$(git -C "$a/opencode-pty" rev-parse HEAD 2>/dev/null) ||
	    die "nothing built in $a (deb.sh build $a)"
	ls "$a"/*.deb > /dev/null 2>&1 || die "no .deb in $a"
	clone "$b" "$rev"
	sleep 1
	echo "$prog: second build of $rev in $b"
	(cd "$b/opencode-pty" && umask 0002 && TZ=Pacific/Kiritimati \
	    LC_ALL=C LANG=C dpkg-buildpackage -us -uc -b) > "$b/build.log" 2>&1 ||
	    { tail -n 30 "$b/build.log"; die "second dpkg-buildpackage" \
	    "failed (log: $b/build.log)"; }
	for f in "$a"/*.deb; do
		f=${f##*/}
		[ -f "$b/$f" ] || { echo "$prog: FAIL: $f: not built again"; \
		    fail=1; continue; }
		sa=$(sha256sum < "$a/$f") sb=$(sha256sum < "$b/$f")
		echo "$prog: $f"
		echo "  sha256 ${sa%% *}  $a/$f"
		echo "  sha256 ${sb%% *}  $b/$f"
		if [ "$sa" != "$sb" ]; then
			echo "$prog: FAIL: $f differs between the two builds"
			differ "$(cd "$a" && pwd -P)/$f" "$(cd "$b" && pwd -P)/$f"
			fail=1
		fi
	done
	for f in "$b"/*.deb; do
		[ -f "$a/${f##*/}" ] ||
		    { echo "$prog: FAIL: ${f##*/}: only in the second"; fail=1; }
	done
	[ $fail = 0 ] || exit 1
	echo "$prog: PASS: $(ls "$a"/*.deb | wc -l) .debs bit-identical" \
	    "(paths, time, time zone, umask and locale differ)"
	deb_repro_control "$a" "$rev"
}

# deb_repro_control DIR REV: the comparison above, on a build that must
# differ: the same revision with its changelog dated a day later, so
# another SOURCE_DATE_EPOCH.  Every .deb must then differ, or the
# comparison (or the pinning of time) proves nothing.
deb_repro_control()
{
	local a=$1 c=$1-repro/control f n=0 same=0
	clone "$c" "$2"
	sed -i '0,/^ -- /s/\(^ -- .*  \)\(.*\)$/\1Mon, 07 Dec 2026 03:00:00 +0000/' \
	    "$c/opencode-pty/debian/changelog"
	grep -q '^ -- .*Mon, 07 Dec 2026 03:00:00 +0000$' \
	    "$c/opencode-pty/debian/changelog" ||
	    die "control: the changelog's date was not changed"
	(cd "$c/opencode-pty" && dpkg-buildpackage -us -uc -b) \
	    > "$c/build.log" 2>&1 ||
	    { tail -n 30 "$c/build.log"; die "control build failed" \
	    "(log: $c/build.log)"; }
	for f in "$a"/*.deb; do
		f=${f##*/}
		[ -f "$c/$f" ] || die "control: $f was not built"
		n=$((n + 1))
		cmp -s "$a/$f" "$c/$f" && same=$((same + 1))
	done
	[ "$same" = 0 ] || die "control: $same of $n .debs built with" \
	    "another SOURCE_DATE_EPOCH are identical to the first build's"
	echo "$prog: control: a build dated a day later differs in each of" \
	    "its $n .debs"
}

# deb_release NAME DIR: the revision built in DIR built again inside the
# suite's tree NAME, through an overlay whose upper layer, kept in
# $OPTY_DEBCACHE/NAME (outside the repository), holds the build
# dependencies, dpkg-dev and lintian that the release's apt installs the
# first time (the tree itself is never written; a rebuilt tree, whose
# stamp differs, starts a fresh layer).  bookworm-bpo takes them with -t
# bookworm-backports: its systemd, and so libsystemd0, comes from there.
# The .debs land in DIR-NAME; lintian is the release's own.
deb_release()
{
	local name=$1 dir=$2 root cache out rev t0 target=
	root=$(sh "$REPO/regress/roots.sh" path "$name") ||
	    die "unknown tree $name (regress/roots.sh list)"
	sh "$REPO/regress/roots.sh" ensure "$name" || die "no tree $name"
	rev=$(git -C "$dir/opencode-pty" rev-parse HEAD 2>/dev/null) ||
	    die "nothing built in $dir (deb.sh build $dir)"
	cache=${OPTY_DEBCACHE:-/var/cache/opencode-pty/deb}/$name
	out=$dir-$name
	[ "$name" = bookworm-bpo ] && target="-t bookworm-backports"
	if ! cmp -s "$root/.opty-root" "$cache/stamp"; then
		rm -rf "$cache" && mkdir -p "$cache/upper" "$cache/work" &&
		    cp "$root/.opty-root" "$cache/stamp" ||
		    die "cannot make $cache"
	fi
	clone "$out" "$rev"
	mkdir -p "$cache/merged" || die "cannot make $cache/merged"
	echo "$prog: building $rev in $name ($root)"
	t0=$(date +%s)
	unshare --mount --propagation private /bin/sh -ec '
		root=$1 cache=$2 out=$3 target=$4 m=$2/merged
		o="lowerdir=$root,upperdir=$cache/upper,workdir=$cache/work"
		mount -t overlay opty-deb -o "$o" "$m"
		mount -t proc proc "$m/proc"
		mount --bind /dev/pts "$m/dev/pts"
		mount --bind "$out" "$m/mnt"
		chroot "$m" /bin/sh -ec "
			export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
			cd /mnt/opencode-pty
			if ! { command -v lintian && dpkg-checkbuilddeps; } \
			    > /dev/null 2>&1; then
				apt-get -qq -o Acquire::Check-Valid-Until=false update
				apt-get -q -y --no-install-recommends $target \
				    install dpkg-dev debhelper lintian | tail -n 1
				apt-get -q -y --no-install-recommends $target \
				    build-dep ./ | tail -n 1
				apt-get clean
			fi
			echo \"dpkg-dev \$(dpkg-query -W -f=\\\${Version} dpkg-dev)\" \
			    \"debhelper \$(dpkg-query -W -f=\\\${Version} debhelper)\" \
			    \"gcc \$(dpkg-query -W -f=\\\${Version} gcc)\"
			dpkg-buildpackage -us -uc -b > ../build.log 2>&1 ||
			    { tail -n 30 ../build.log; exit 1; }
			lintian --version
			lintian --fail-on error,warning ../*.changes"
	' sh "$root" "$cache" "$(cd "$out" && pwd -P)" "$target" \
	    > "$out/release.log" 2>&1 ||
	    { tail -n 40 "$out/release.log"; die "$name: build or lintian" \
	    "failed (log: $out/release.log)"; }
	echo "$prog: $name: $(grep '^dpkg-dev ' "$out/release.log");" \
	    "$(grep '^Lintian ' "$out/release.log"): no error, no warning;" \
	    "$(( $(date +%s) - t0 )) s:" $(cd "$out" && ls *.deb)
}

case ${1:-} in
build)	[ $# -ge 2 ] || die "usage: deb.sh build DIR [REV]"
	deb_build "$2" "${3:-HEAD}" ;;
repro)	[ $# = 2 ] || die "usage: deb.sh repro DIR"
	deb_repro "$2" ;;
release) [ $# = 3 ] || die "usage: deb.sh release NAME DIR"
	deb_release "$2" "$3" ;;
*)	sed -n '2,/^$/p' "$0" >&2; exit 2 ;;
esac
