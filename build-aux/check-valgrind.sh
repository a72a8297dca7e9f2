#!/bin/sh
# check-valgrind.sh: `make check-valgrind`.  Runs every cmocka unit test
# named on the command line ($BUILD/test/NAME) under valgrind memcheck:
# any memory error, any definitely or indirectly lost block, or any
# failed test fails the run.  Runs on the build host (root, as the unit
# tests need); test-only, never installed.  See docs/ANALYSIS.md.
#
#	BUILD=build sh build-aux/check-valgrind.sh [-n TEST]... TEST...
#
# Children forked by a test stay under valgrind: a fork is not an exec,
# so --trace-children=no does not let them go.  Their errors end them
# with VG_ERR; the tests wait for each child and check how it ended, so
# a child that trips valgrind fails its test.  A test named with -n runs
# natively instead (it must still pass; its result counts): the reason
# is in lint/build.mk (VALGRIND_NATIVE) and docs/ANALYSIS.md.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

BUILD=${BUILD:-build}
VG_ERR=99	# valgrind's exit status on an error; no test uses it

command -v valgrind >/dev/null 2>&1 ||
    { echo "FAIL: valgrind is not installed (make deps)"; exit 1; }
native=" "
while getopts n: opt; do
	case $opt in
	n)	native="$native$OPTARG " ;;
	*)	echo "usage: check-valgrind.sh [-n TEST]... TEST..." >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: check-valgrind.sh TEST..." >&2; exit 2; }

passed=0
failed=0
failures=
for t in "$@"; do
	bin=$BUILD/test/$t
	echo "== $t (valgrind)"
	if [ ! -x "$bin" ]; then
		echo "FAIL: $bin is not built (make tests)"
		failed=$((failed + 1))
		failures="$failures $t"
		continue
	fi
	case "$native" in
	*" $t "*)
		echo "NATIVE: $t runs without valgrind (docs/ANALYSIS.md)"
		"$bin" ;;
	*)
		valgrind -q --error-exitcode=$VG_ERR --leak-check=full \
		    --errors-for-leak-kinds=definite,indirect \
		    --show-leak-kinds=definite,indirect \
		    --trace-children=no "$bin" ;;
	esac
	rc=$?
	case $rc in
	0)	echo "-- $t: ok"
		passed=$((passed + 1))
		continue ;;
	"$VG_ERR") echo "-- $t: FAILED: valgrind found errors or leaks" ;;
	*)	echo "-- $t: FAILED: the test failed under valgrind" \
		    "(exit $rc)" ;;
	esac
	failed=$((failed + 1))
	failures="$failures $t"
done
[ -n "$failures" ] && echo "failed:$failures"
echo "valgrind: $passed passed, $failed failed"
[ $failed = 0 ] && [ $passed -gt 0 ]
