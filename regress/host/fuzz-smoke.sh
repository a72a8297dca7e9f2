#!/bin/sh
# fuzz-smoke.sh: host-level test (any user) run by `make check-unit`:
# builds the libFuzzer harnesses of fuzz/ and runs every one for
# FUZZ_SMOKE_SECONDS (default 10) on a temporary copy of its seed
# corpus, two at a time (about 40 s in all).  Fails on any crash, leak,
# sanitizer report or violated property, and on a missing clang or
# libFuzzer runtime (make deps).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
secs=${FUZZ_SMOKE_SECONDS:-10}

if ! command -v clang-14 >/dev/null 2>&1; then
	echo "FAIL: clang-14 is not installed (make deps)"
	exit 1
fi
if ! make -s BUILD="$BUILD" fuzz-build >/dev/null; then
	echo "FAIL: make fuzz-build"
	exit 1
fi
set --
for f in fuzz/fuzz_*.c; do
	[ -e "$f" ] && set -- "$@" "$(basename "$f" .c)"
done
if [ $# = 0 ]; then
	echo "FAIL: no harness in fuzz/"
	exit 1
fi

# Two lanes, one per core; each lane's lines are printed whole.
lane1=
lane2=
i=0
for h in "$@"; do
	if [ $((i % 2)) = 0 ]; then lane1="$lane1 $h"; else lane2="$lane2 $h"; fi
	i=$((i + 1))
done
# shellcheck disable=SC2086
BUILD=$BUILD sh fuzz/run.sh "$secs" $lane1 &
pid1=$!
rc2=0
if [ -n "$lane2" ]; then
	# shellcheck disable=SC2086
	BUILD=$BUILD sh fuzz/run.sh "$secs" $lane2
	rc2=$?
fi
wait $pid1
rc1=$?
[ $rc1 = 0 ] && [ $rc2 = 0 ]
