#!/bin/sh
# parent-rings.sh: host-level check of the built root parent (run by
# `make check-unit`; test-only; any user).  No two files of parent/, and
# no two of dbusd/, call each other, and no longer cycle of calls runs
# through a folder's files either, with no exemption: the steps tell the
# session table their news through its queue (parent/sessq.c), never by
# a call.  The calls are read from the objects: a file calls another
# when it references a function that one defines (nm).
# Positive control: the same probe, run on a folder of three objects
# built here whose calls make a ring (a -> b -> c -> a) and a pair (b
# <-> c), finds both, so a probe that cannot see a ring is caught.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
BUILD=${BUILD:-build}
CC=${CC:-cc}
command -v nm >/dev/null 2>&1 ||
    { echo "parent-rings: FAIL: nm is missing (binutils)" >&2; exit 1; }
command -v tsort >/dev/null 2>&1 ||
    { echo "parent-rings: FAIL: tsort is missing (coreutils)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The objects of the folder's sources (not those of deleted files).
objs() {
	for c in "$1"/*.c; do
		o=$OBJ/${c%.c}.o
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
OBJ=$BUILD/obj
for dir in parent dbusd; do
	edges "$dir" > "$tmp/$dir.edges" || exit 1
	[ -s "$tmp/$dir.edges" ] ||
	    { echo "parent-rings: FAIL: no calls read in $dir" >&2; exit 1; }
	found=$(rings < "$tmp/$dir.edges")
	if [ -n "$found" ]; then
		echo "parent-rings: FAIL: $dir/ has files calling back:" >&2
		echo "$found" >&2
		fail=1
	else
		echo "parent-rings: $dir/: $(wc -l < "$tmp/$dir.edges") calls" \
		    "between files, no ring"
	fi
done

# The control: a -> b -> c -> a, and c -> b.
mkdir -p "$tmp/src/ring" "$tmp/obj/ring" || exit 1
printf 'void b(void); void a(void); void a(void) { b(); }\n' \
    > "$tmp/src/ring/a.c"
printf 'void c(void); void b(void); void b(void) { c(); }\n' \
    > "$tmp/src/ring/b.c"
printf 'void a(void); void b(void); void c(void); void c(void) { a(); b(); }\n' \
    > "$tmp/src/ring/c.c"
for f in a b c; do
	"$CC" -c -o "$tmp/obj/ring/$f.o" "$tmp/src/ring/$f.c" ||
	    { echo "parent-rings: FAIL: control: $CC failed" >&2; exit 1; }
done
OBJ=$tmp/obj
found=$(cd "$tmp/src" && edges ring | rings)
if echo "$found" | grep -q '^ring: b <-> c$' &&
    echo "$found" | grep -q '^cycle: '; then
	echo "parent-rings: control: the ring b <-> c and the cycle" \
	    "a -> b -> c -> a of a built folder are found"
else
	echo "parent-rings: FAIL: control: a built ring is not found" \
	    "($found)" >&2
	fail=1
fi
[ "$fail" -eq 0 ] && echo "parent-rings: ok"
exit "$fail"
