#!/bin/sh
# parent-rings.sh: host-level check of the built root parent (run by
# `make check-unit`; test-only; any user).  No two files of parent/, and
# no two of dbusd/, call each other, and no longer cycle of calls runs
# through a folder's files either; the one way back is the session
# table's entry point, parent_session_event() in parent/session.c
# (parent/session.h).  The calls are read from the objects: a file calls
# another when it references a function that one defines (nm).
# Positive control: counting the entry point too, the ring session.c <->
# watch.c is found, so a probe that cannot see a ring is caught.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
BUILD=${BUILD:-build}
ENTRY=parent_session_event
command -v nm >/dev/null 2>&1 ||
    { echo "parent-rings: FAIL: nm is missing (binutils)" >&2; exit 1; }
command -v tsort >/dev/null 2>&1 ||
    { echo "parent-rings: FAIL: tsort is missing (coreutils)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The objects of the folder's sources (not those of deleted files).
objs() {
	for c in "$1"/*.c; do
		o=$BUILD/obj/${c%.c}.o
		[ -f "$o" ] || { echo "parent-rings: FAIL: $o not built" >&2
		    exit 1; }
		echo "$o"
	done
}

# Prints "caller callee function" for each call between two files.
edges() {
	objs "$1" > "$tmp/objs" || exit 1
	while read -r o; do
		f=$(basename "$o" .o)
		nm --defined-only "$o" | awk -v f="$f" '$2 == "T" { print f, $3 }'
	done < "$tmp/objs" > "$tmp/defs"
	while read -r o; do
		f=$(basename "$o" .o)
		nm -u "$o" | awk -v f="$f" '{ print f, $NF }'
	done < "$tmp/objs" > "$tmp/uses"
	awk 'NR == FNR { def[$2] = $1; next }
	    ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
	    "$tmp/defs" "$tmp/uses"
}

# Prints each pair of files that call each other, then tsort's cycles.
rings() {
	awk '{ print $1, $2 }' | sort -u > "$tmp/pairs"
	awk 'NR == FNR { e[$1 " " $2] = 1; next }
	    ($2 " " $1) in e && $1 < $2 { print "ring:", $1, "<->", $2 }' \
	    "$tmp/pairs" "$tmp/pairs"
	awk '{ print $1, $1; print }' "$tmp/pairs" | tsort >/dev/null 2>"$tmp/ts" ||
	    sed 's/^/cycle: /' "$tmp/ts"
}

fail=0
for dir in parent dbusd; do
	edges "$dir" > "$tmp/$dir.edges" || exit 1
	[ -s "$tmp/$dir.edges" ] ||
	    { echo "parent-rings: FAIL: no calls read in $dir" >&2; exit 1; }
	found=$(grep -v " $ENTRY\$" "$tmp/$dir.edges" | rings)
	if [ -n "$found" ]; then
		echo "parent-rings: FAIL: $dir/ has files calling back:" >&2
		echo "$found" >&2
		fail=1
	else
		echo "parent-rings: $dir/: $(wc -l < "$tmp/$dir.edges") calls" \
		    "between files, no ring"
	fi
done
if rings < "$tmp/parent.edges" | grep -q '^ring: session <-> watch$'; then
	echo "parent-rings: control: with $ENTRY counted, session <-> watch" \
	    "is found"
else
	echo "parent-rings: FAIL: control: the ring session <-> watch" \
	    "through $ENTRY is not found" >&2
	fail=1
fi
[ "$fail" -eq 0 ] && echo "parent-rings: ok"
exit "$fail"
