#!/bin/sh
# matrix.sh: `make check-matrix`, the integration suite on every systemd
# version the project claims (test only, never installed; root on the
# test host).  For each version it boots the disposable systemd over that
# version's root tree (the host's own / for the host's systemd, the trees
# of regress/roots.sh for the others), runs every regress/it/*.sh there
# with the same binaries, and prints a version x script table and each
# version's summary (the SUMMARY: lines the scripts print).  In the trees
# that carry a compiler it also builds the whole project with that
# release's toolchain, warnings as errors, and runs the unit tests.  Any
# failure on any version fails the run.
#
#	MATRIX="host bookworm-bpo trixie sid"	the versions (default: all)
#	MATRIX_DEB="host"			the versions whose suite runs
#						against the installed Debian
#						packages ($BUILD/deb, make deb)
#						instead of `make install`
#	IT_ONLY=...				passed on to integration.sh
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -u
REPO=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$REPO" || exit 1
BUILD=${BUILD:-build}
MATRIX=${MATRIX:-host bookworm-bpo trixie sid}
# The packages are built with the host's toolchain: the host runs the
# whole suite against them (issue 26), the trees against `make install`
# (and regress/pkg/life.sh installs each tree's own packages there).
MATRIX_DEB=${MATRIX_DEB-host}
ROOTS="sh $REPO/regress/roots.sh"
out=$(mktemp -d "${TMPDIR:-/tmp}/opty-matrix.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM HUP

failed=0
fail()
{
	echo "matrix: FAIL: $*"
	failed=1
}

# matrix_label NAME ROOT: "systemd N" of that tree.
matrix_label()
{
	if [ "$1" = host ]; then
		systemctl --version | sed -n '1s/^\(systemd [0-9]*\).*/\1/p'
	else
		sed -n 's/^systemd=\(systemd [0-9]*\).*/\1/p' "$2/.opty-root"
	fi
}

# matrix_build NAME ROOT: the project built in ROOT by its own compiler,
# from a read-only view of the repository into a scratch tmpfs, then the
# unit tests run there.  The tree itself is not written.
matrix_build()
{
	local log=$out/$1.build
	unshare --mount --propagation private /bin/sh -ec '
		root=$1 repo=$2
		mount -t tmpfs opty-build "$root/mnt"
		mkdir "$root/mnt/src" "$root/mnt/build"
		mount --bind "$repo" "$root/mnt/src"
		mount -o remount,bind,ro "$root/mnt/src"
		mount -t proc proc "$root/proc"
		# Unit tests make terminals: the tree has /dev/ptmx, no devpts.
		mount --bind /dev/pts "$root/dev/pts"
		chroot "$root" /bin/sh -ec "
			cd /mnt/src
			gcc --version | sed -n 1p
			make -s -j2 BUILD=/mnt/build all tests tools
			for t in /mnt/build/test/*; do \$t > /dev/null 2>&1 ||
			    { echo \"unit test \$t failed\"; exit 1; }; done"
	' sh "$2" "$REPO" > "$log" 2>&1
	rc=$?
	cc=$(sed -n 1p "$log")
	if [ $rc != 0 ]; then
		sed 's/^/  | /' "$log" | tail -n 30
		fail "$1: build or unit tests with $cc"
	elif grep -qi 'warning' "$log"; then
		grep -i 'warning' "$log" | sed 's/^/  | /' | head -n 20
		fail "$1: the build with $cc printed warnings"
	else
		echo "SUMMARY: build with $cc: warning-free, unit tests pass" \
		    >> "$out/$1.it"
	fi
}

# matrix_run NAME: the integration suite on that version.
matrix_run()
{
	local name=$1 root= t0 deb how
	if [ "$name" != host ]; then
		$ROOTS ensure "$name" || { fail "$name: no root tree"; return; }
		root=$($ROOTS path "$name")
	fi
	deb= how="make install"
	case " $MATRIX_DEB " in
	*" $name "*) deb=$BUILD/deb how="the packages of $BUILD/deb" ;;
	esac
	echo "== $name ($(matrix_label "$name" "$root")), $how"
	t0=$(date +%s)
	HARNESS_ROOT=$root BUILD=$BUILD IT_DEB=$deb sh regress/integration.sh \
	    > "$out/$name.it" 2>&1
	rc=$?
	echo "$(( $(date +%s) - t0 ))" > "$out/$name.secs"
	if [ $rc != 0 ]; then
		grep -a -E '^(FAIL|-- |harness:)' "$out/$name.it" | sed 's/^/  | /'
		fail "$name: integration suite"
	else
		tail -n 1 "$out/$name.it" | sed 's/^/  /'
	fi
	if [ -n "$root" ] && [ -x "$root/usr/bin/gcc" ]; then
		matrix_build "$name" "$root"
	fi
}

# The table: one row per script, one column per version.
matrix_table()
{
	local f s n v cell
	printf '\n%-26s' "script"
	for n in $MATRIX; do printf ' %-16s' "$n"; done
	printf '\n%-26s' ""
	for n in $MATRIX; do
		v=$(matrix_label "$n" "$($ROOTS path "$n" 2>/dev/null)" 2>/dev/null)
		printf ' %-16s' "${v:-?}"
	done
	echo
	for f in regress/it/*.sh; do
		s=${f##*/}
		printf '%-26s' "${s%.sh}"
		for n in $MATRIX; do
			cell=$(sed -n "s|^-- regress/it/$s: ok (\([0-9]*\) ms)\$|ok \1|p;
			    s|^-- regress/it/$s: FAILED.*|FAIL|p" \
			    "$out/$n.it" 2>/dev/null | tail -n 1)
			case $cell in
			ok*)	cell="ok $(awk -v m="${cell#ok }" \
				    'BEGIN { printf "%.1fs", m / 1000 }')" ;;
			"")	cell=- ;;
			esac
			printf ' %-16s' "$cell"
		done
		echo
	done
	printf '%-26s' "(whole run)"
	for n in $MATRIX; do
		printf ' %-16s' "$(cat "$out/$n.secs" 2>/dev/null || echo -)s"
	done
	echo
	for n in $MATRIX; do
		echo
		echo "summary $n:"
		grep -a '^SUMMARY: ' "$out/$n.it" 2>/dev/null | sort -u |
		    sed 's/^SUMMARY: /  /'
	done
}

# matrix_recap: each failed script's failures (with the lines each
# printed after it) and its last lines, last of all, so that a log kept
# only by its tail (CI's) still names the failure and shows why.
matrix_recap()
{
	local n s
	for n in $MATRIX; do
		for s in $(sed -n 's|^-- regress/it/\([^:]*\): FAILED.*|\1|p' \
		    "$out/$n.it" 2>/dev/null); do
			echo
			echo "==== $n: $s failed; its failures, then its last lines:"
			awk -v s="== regress/it/$s" '
			    $0 == s { on = 1; n = 0; k = 0 }
			    on && /^ *FAIL/ { k = 16 }
			    on && k > 0 && !/^ *PASS/ { print "  " $0; k-- }
			    on { buf[n++ % 20] = $0 }
			    on && index($0, "-- regress/it/" substr(s, 15) ":") == 1 {
				on = 0; print "  ...";
				for (i = (n > 20 ? n - 20 : 0); i < n; i++)
				    print "  " buf[i % 20] }' "$out/$n.it"
		done
	done
}

for n in $MATRIX; do
	case " $($ROOTS list) host " in
	*" $n "*) ;;
	*) fail "unknown version '$n'"; continue ;;
	esac
	matrix_run "$n"
done
matrix_table
passed=0 nfail=0
for n in $MATRIX; do
	p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
	    "$out/$n.it" 2>/dev/null | tail -n 1)
	[ -n "$p" ] || p="0 1"
	passed=$((passed + ${p%% *}))
	nfail=$((nfail + ${p##* }))
done
[ $failed = 0 ] || nfail=$((nfail > 0 ? nfail : 1))
matrix_recap
# What the versions printed names no package registry host (issue 26).
sh "$REPO/regress/host/no-registry-host.sh" "$out"/* ||
    fail "a log of this run names a package registry host"
[ $failed = 0 ] || nfail=$((nfail > 0 ? nfail : 1))
echo "$passed passed, $nfail failed"
[ $failed = 0 ] && [ $nfail = 0 ]
