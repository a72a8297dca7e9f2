#!/bin/sh
# integration.sh: `make check-integration`.  Runs as root on the test host:
# boots one disposable systemd (regress/harness.sh), installs the built
# binaries and units into it, runs every regress/it/*.sh inside it as root
# and tears it down.  Test-only, never installed.
#
#	BUILD=build		build directory (relative to the repository)
#	IT_ONLY="20-launcher"	run only scripts whose name contains a pattern
#				(shell glob; several patterns, space-separated)
#	IT_TIMEOUT=300		seconds per script
#	IT_KEEP=1		leave the container running afterwards
#	IT_DEB=DIR		install the Debian packages in DIR (make deb)
#				instead of `make install`; the scripts run
#				against them (itlib.sh: IT_INSTALL=deb)
#	ROOT=trixie		boot that tree of regress/roots.sh (built or
#				rebuilt first when needed) instead of the
#				host's /; HARNESS_ROOT=DIR boots any tree
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

. "$(cd "$(dirname "$0")" && pwd -P)/harness.sh"

IT_TIMEOUT=${IT_TIMEOUT:-600}
cd "$REPO" || exit 1
if [ -n "${ROOT:-}" ]; then
	sh regress/roots.sh ensure "$ROOT" || exit 1
	HARNESS_ROOT=$(sh regress/roots.sh path "$ROOT") || exit 1
fi
export HARNESS_ROOT
HARNESS_DEB=${IT_DEB:-}
if [ -n "$HARNESS_DEB" ]; then IT_INSTALL=deb; else IT_INSTALL=make; fi

it_selected()
{
	[ -n "${IT_ONLY:-}" ] || return 0
	for pat in $IT_ONLY; do
		# shellcheck disable=SC2254
		case "$1" in *$pat*) return 0 ;; esac
	done
	return 1
}

scripts=
for f in regress/it/*.sh; do
	[ -e "$f" ] || continue
	it_selected "${f##*/}" && scripts="$scripts $f"
done
if [ -z "$scripts" ]; then
	echo "integration: no script in regress/it/ matches" \
	    "IT_ONLY='${IT_ONLY:-}'" >&2
	echo "0 passed, 0 failed"
	exit 1
fi

# it_timed_out SCRIPT: what ran on in the test bed when a script was
# stopped at its time bound (its own units outlive it), and the
# journal's last lines, so that a hang says where it was.
it_timed_out() {
	echo "-- $1: timed out after ${IT_TIMEOUT}s; units still active" \
	    "and the journal's last lines:"
	harness_exec sh -c 'systemctl list-units --no-legend --plain \
	    "opencode-*" "opty-*" | cut -c1-100
	    journalctl --no-pager -n 15 -o short-monotonic | cut -c1-160' 2>&1 |
	    sed 's/^/   /'
}

harness_trap
harness_start || exit 1
harness_install || exit 1

passed=0
failed=0
failures=
for f in $scripts; do
	echo "== $f"
	# Executable scripts run through their #! line, others through sh.
	if [ -x "$f" ]; then set -- "./$f"; else set -- /bin/sh "$f"; fi
	t0=$(date +%s%N)
	harness_exec BUILD="$BUILD" TOOLS="$BUILD/tools" REPO="$REPO" \
	    USR_PATHS="${USR_PATHS:-}" IT_INSTALL="$IT_INSTALL" \
	    IT_DEB="$HARNESS_DEB" \
	    timeout -k 5 "$IT_TIMEOUT" "$@" 2>&1
	rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ $rc = 0 ]; then
		echo "-- $f: ok (${ms} ms)"
		passed=$((passed + 1))
	else
		[ $rc = 124 ] && it_timed_out "$f"
		echo "-- $f: FAILED (exit $rc, ${ms} ms)"
		failed=$((failed + 1))
		failures="$failures ${f##*/}"
	fi
done

clean=0
if [ "${IT_KEEP:-0}" = 1 ]; then
	harness_keep
elif ! harness_stop; then
	echo "integration: FAIL: the harness left something behind" >&2
	clean=1
fi
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ $failed = 0 ] && [ $passed -gt 0 ] && [ $clean = 0 ]
