#!/bin/sh
# parent-size.sh: host-level count of the supervisor's own sources (run
# by `make check-unit`; test-only; any user).  The .c files are the
# compile units named in build/bin/opencode-pty-supervisor's debug
# information, wherever they live; the headers are those the compiler
# recorded as included by each of them (its -MMD dependency file), from
# this tree (system headers and the build's generated ones aside).
# Prints every file with its lines and the total, and fails when the
# total is above PARENT_SIZE_MAX, a ceiling lowered as mechanisms go
# and raised only by a commit that says why (docs/ARCHITECTURE.md,
# "Size").  Controls: parent/main.c and proto/config.h
# (a header with macros only) must be among the files counted; a unit
# the binary names but this tree lacks, or no debug information, fails.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
BUILD=${BUILD:-build}
BIN=$BUILD/bin/opencode-pty-supervisor
PARENT_SIZE_MAX=${PARENT_SIZE_MAX:-7077}
command -v readelf >/dev/null 2>&1 ||
    { echo "parent-size: FAIL: readelf is missing (binutils)" >&2; exit 1; }
[ -f "$BIN" ] || { echo "parent-size: FAIL: $BIN not built" >&2; exit 1; }
top=$(pwd -P)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

readelf --debug-dump=info "$BIN" 2>/dev/null |
    awk '/DW_TAG_compile_unit/ { cu = 1; next }
	cu && /DW_AT_name/ { print $NF; cu = 0 }' | sort -u > "$tmp/units"
[ -s "$tmp/units" ] ||
    { echo "parent-size: FAIL: no compile unit in $BIN's debug" \
    "information" >&2; exit 1; }
while read -r c; do
	[ -f "$c" ] || { echo "parent-size: FAIL: $c (named by $BIN)" \
	    "is not in this tree" >&2; exit 1; }
	d=$BUILD/obj/${c%.c}.d
	[ -f "$d" ] || { echo "parent-size: FAIL: $d missing" >&2; exit 1; }
	echo "$c"
	# The rule's prerequisites: every word after the first colon.
	# Headers of this tree come as absolute paths (-I of the tree).
	tr ' \\' '\n\n' < "$d" | sed -n 's/^\(.*\.h\)$/\1/p' |
	    awk -v top="$top/" -v b="$BUILD/" '
		index($0, top) == 1 { print substr($0, length(top) + 1); next }
		/^\// || index($0, b) == 1 { next }
		{ sub(/^\.\//, ""); print }'
done < "$tmp/units" | sort -u > "$tmp/files"
# Control: a unit and a header with macros only must be counted.
for f in parent/main.c proto/config.h; do
	grep -qx "$f" "$tmp/files" || { echo "parent-size: FAIL: control:" \
	    "$f is not counted" >&2; exit 1; }
done
total=0
while read -r f; do
	n=$(wc -l < "$f")
	total=$((total + n))
	printf '%6d %s\n' "$n" "$f"
done < "$tmp/files"
echo "parent-size: $(grep -c '\.c$' "$tmp/files") .c and" \
    "$(grep -c '\.h$' "$tmp/files") headers, $total lines" \
    "(ceiling $PARENT_SIZE_MAX)"
if [ "$total" -gt "$PARENT_SIZE_MAX" ]; then
	echo "parent-size: FAIL: $total lines, over the ceiling" \
	    "$PARENT_SIZE_MAX" >&2
	exit 1
fi
echo "parent-size: ok"
