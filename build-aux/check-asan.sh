#!/bin/sh
# check-asan.sh: `make check-asan`.  Builds everything with ASan and
# UBSan into ASAN_BUILD (the static-pie client without them: the
# runtimes need a dynamic PIE), runs the unit tests and the host script
# tests, then the whole integration suite with those binaries installed
# in the disposable systemd.  Any failure, and any sanitizer report on
# the host or in the container's journal (regress/it/99-sanitizer-
# reports.sh), fails the run.  Root on the test host; test-only, never
# installed.  Not part of `make check`: it takes minutes.
#
#	ASAN_BUILD=build-asan	build directory
#	ASAN_SAN=...		sanitizer flags (lint/build.mk)
#	TESTS, SCRIPT_TESTS	what check-unit runs (lint/build.mk leaves
#				out regress/host/lint.sh: the same sources,
#				already linted by make check)
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$REPO" || exit 1
ASAN_BUILD=${ASAN_BUILD:-build-asan}
ASAN_SAN=${ASAN_SAN:--fsanitize=address,undefined -fno-sanitize-recover=all}
SCRIPT_TESTS=${SCRIPT_TESTS-}
PAT='AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'

# Every report is fatal and goes to stderr; LeakSanitizer stays on for
# the unit tests (its default on x86-64 Linux).
ASAN_OPTIONS=halt_on_error=1:detect_stack_use_after_return=1
ASAN_OPTIONS=$ASAN_OPTIONS:strict_string_checks=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS

log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT INT TERM
t0=$(date +%s)
rc=0

# part WHAT CMD...: runs CMD, its output shown as it comes and kept in
# $log; a non-zero exit or a sanitizer report in the output sets rc=1.
part()
{
	local what prc
	what=$1; shift
	# The status comes back on fd 3.
	prc=$( { { "$@" 2>&1; echo $? >&3; } | tee "$log" >&2; } 3>&1)
	if [ "$prc" != 0 ]; then
		echo "check-asan: FAIL: $what (exit $prc)"
		rc=1
	fi
	if grep -qE "$PAT" "$log"; then
		echo "check-asan: FAIL: sanitizer reports in the $what"
		rc=1
	fi
}

echo "check-asan: building into $ASAN_BUILD with $ASAN_SAN"
# Pinned in the tree (GNUmakefile), so that the makes the integration
# scripts run on it (make install in the container) agree.
mkdir -p "$ASAN_BUILD" &&
    printf 'SAN := %s\n' "$ASAN_SAN" > "$ASAN_BUILD/config.mk" ||
    { echo "check-asan: FAIL: cannot write $ASAN_BUILD/config.mk"; exit 1; }
make -s --no-print-directory -j2 BUILD="$ASAN_BUILD" SAN="$ASAN_SAN" \
    all tests tools || { echo "check-asan: FAIL: build"; exit 1; }

echo "check-asan: unit tests and host tests"
part "unit tests" make --no-print-directory BUILD="$ASAN_BUILD" \
    SAN="$ASAN_SAN" SCRIPT_TESTS="$SCRIPT_TESTS" check-unit
t1=$(date +%s)
echo "check-asan: unit part took $((t1 - t0))s"

echo "check-asan: integration suite with the $ASAN_BUILD binaries"
part "integration suite" env BUILD="$ASAN_BUILD" sh regress/integration.sh
echo "check-asan: integration part took $(( $(date +%s) - t1 ))s"
[ $rc = 0 ] && echo "check-asan: PASS (no sanitizer report)"
exit $rc
