#!/bin/sh
# bench.sh: `make bench`.  Runs as root on the test host: boots one
# disposable systemd (regress/harness.sh), installs the built binaries,
# runs bench/inner.sh inside it, tears it down, then prints the table and
# writes docs/BENCHMARKS.md (bench/BENCHMARKS.md.in + bench/report.sh).
# Test-only, never installed.  It fails only if the benchmark could not
# run at all, never because a number is slow.
#
#	BENCH_RUNS=5 BENCH_TPUT_MIB=256 BENCH_IN_MIB=16 BENCH_LAT_N=200
#	BENCH_LAT_BLOCK=20
#	BENCH_LOAD_N=50 BENCH_LOAD_SETTLE_MS=1000 BENCH_TAIL_N=1000
#	BENCH_WINDOW=5	(see inner.sh)
#	BENCH_NODE_LAT_N=40 BENCH_NODE_LAT_BLOCK=10	(bench/nodebench.sh)
#	BENCH_ONLY=node	(make bench-node: the Node comparison alone,
#			bench/nodebench.sh; docs/BENCHMARKS.md untouched)
#	BENCH_ONLY=input (make bench-input: the input paths alone,
#			bench/report-input.sh; docs/BENCHMARKS.md untouched)
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

. "$(cd "$(dirname "$0")/.." && pwd -P)/regress/harness.sh"
# harness.sh finds itself from $0, which is this script.
HARNESS_SELF=$REPO/regress/harness.sh

cd "$REPO" || exit 1
case ${BENCH_ONLY:-} in
""|node|input) ;;
*)	echo "bench: BENCH_ONLY=$BENCH_ONLY: only node or input" >&2; exit 1 ;;
esac
OUT=$BUILD/bench
rm -rf "$OUT"
mkdir -p "$OUT" || exit 1
chmod 0755 "$OUT"

# The Node comparison's Node and node-pty, made here: the container has
# no network (build-aux/node.sh, node-pty.sh; cached after the first).
BENCH_NODE_BIN=$(sh build-aux/node.sh "${NODE_VERSION:-26.4.0}") || exit 1
NODEPTY_DIR=$(sh build-aux/node-pty.sh) || exit 1

harness_trap
harness_start || exit 1
harness_install || exit 1
t0=$(date +%s)
harness_exec BUILD="$BUILD" TOOLS="$BUILD/tools" REPO="$REPO" OUT="$OUT" \
    BENCH_RUNS="${BENCH_RUNS:-}" BENCH_TPUT_MIB="${BENCH_TPUT_MIB:-}" \
    BENCH_IN_MIB="${BENCH_IN_MIB:-}" BENCH_LAT_N="${BENCH_LAT_N:-}" \
    BENCH_LAT_BLOCK="${BENCH_LAT_BLOCK:-}" \
    BENCH_LOAD_N="${BENCH_LOAD_N:-}" BENCH_TAIL_N="${BENCH_TAIL_N:-}" \
    BENCH_WINDOW="${BENCH_WINDOW:-}" \
    BENCH_NODE_LAT_N="${BENCH_NODE_LAT_N:-}" \
    BENCH_NODE_LAT_BLOCK="${BENCH_NODE_LAT_BLOCK:-}" \
    BENCH_LOAD_SETTLE_MS="${BENCH_LOAD_SETTLE_MS:-}" \
    BENCH_ONLY="${BENCH_ONLY:-}" BENCH_NODE_BIN="$BENCH_NODE_BIN" \
    NODEPTY_DIR="$NODEPTY_DIR" \
    timeout -k 5 3600 /bin/sh bench/inner.sh
rc=$?
t1=$(date +%s)
harness_stop || echo "bench: the harness left something behind" >&2
if [ $rc != 0 ]; then
	echo "bench: the benchmark driver failed (exit $rc)" >&2
	exit 1
fi
if [ -n "${BENCH_ONLY:-}" ]; then
	# Not a full run: its table is printed, docs/BENCHMARKS.md is left
	# alone.
	sh "bench/report-$BENCH_ONLY.sh" "$OUT" > "$OUT/results.md" || exit 1
	echo "Measured in $((t1 - t0)) s on $(date -u +%Y-%m-%d)" \
	    "(make bench-$BENCH_ONLY)." >> "$OUT/results.md"
	cat "$OUT/results.md"
	exit 0
fi
sh bench/report.sh "$OUT" > "$OUT/results.md" || exit 1
echo "Measured in $((t1 - t0)) s on $(date -u +%Y-%m-%d)." >> "$OUT/results.md"
awk -v f="$OUT/results.md" '
    /^@RESULTS@$/ { while ((getline l < f) > 0) print l; next } { print }' \
    bench/BENCHMARKS.md.in > docs/BENCHMARKS.md || exit 1
cat "$OUT/results.md"
echo "bench: wrote docs/BENCHMARKS.md"
