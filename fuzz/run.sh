#!/bin/sh
# run.sh: runs libFuzzer harnesses of fuzz/ (test tooling, any user).
# usage: run.sh SECONDS [HARNESS...]   (default: every fuzz/fuzz_*.c)
# Each harness runs for SECONDS on a temporary copy of fuzz/corpus/NAME,
# so nothing new is ever written into the repository.  Any crash, leak,
# sanitizer report or violated property fails the run; its log and the
# input that caused it are kept and named.  The binaries must already be
# built (make fuzz-build).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
secs=${1:?usage: run.sh SECONDS [HARNESS...]}
shift
if [ $# = 0 ]; then
	for f in fuzz/fuzz_*.c; do
		[ -e "$f" ] && set -- "$@" "$(basename "$f" .c)"
	done
fi
[ $# -gt 0 ] || { echo "FAIL: no harness in fuzz/"; exit 1; }

sym=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$sym" ] && export ASAN_SYMBOLIZER_PATH="$sym"
export UBSAN_OPTIONS=print_stacktrace=1

# Longest input per harness: just above the largest thing it parses.
maxlen() {
	case $1 in
	fuzz_framerd)	echo 70000 ;;	# 15 splits + a full start frame
	fuzz_start)	echo 66000 ;;	# a start payload over 65536
	fuzz_imsg)	echo 70000 ;;	# a whole START_REQ record
	fuzz_argdecode)	echo 6000 ;;	# an encoding over 5463 bytes
	fuzz_marker)	echo 4200 ;;	# a marker over 4095 bytes
	*)		echo 4096 ;;
	esac
}

fails=0
for h in "$@"; do
	bin=$BUILD/fuzz/bin/$h
	if [ ! -x "$bin" ]; then
		echo "FAIL: $h: $bin not built (make fuzz-build)"
		fails=$((fails + 1))
		continue
	fi
	if [ -z "$(ls -A "fuzz/corpus/$h" 2>/dev/null)" ]; then
		echo "FAIL: $h: no seed corpus in fuzz/corpus/$h"
		fails=$((fails + 1))
		continue
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/opty-$h.XXXXXX") || exit 1
	mkdir "$tmp/corpus"
	cp -R "fuzz/corpus/$h/." "$tmp/corpus/"
	dict=
	[ -f "fuzz/$h.dict" ] && dict="-dict=fuzz/$h.dict"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -max_len="$(maxlen "$h")" \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$tmp/" $dict "$tmp/corpus" >"$tmp/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log")
	cov=$(grep -E '^#[0-9]+' "$tmp/log" | tail -n 1 |
	    sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	if [ $rc != 0 ] || [ -z "$execs" ] || [ "$execs" = 0 ] ||
	    grep -qE 'PROPERTY VIOLATED|ERROR: (Address|Leak|libFuzzer)|runtime error' \
	    "$tmp/log"; then
		echo "FAIL: $h (exit $rc, ${execs:-no} executions)"
		grep -E 'PROPERTY|ERROR|runtime error|SUMMARY|artifact' \
		    "$tmp/log" | head -n 20 | sed 's/^/  /'
		echo "  log and inputs kept in $tmp"
		fails=$((fails + 1))
	else
		echo "PASS: $h: $execs executions in ${secs}s, cov ${cov:-?}"
		rm -rf "$tmp"
	fi
done
[ $fails = 0 ]
