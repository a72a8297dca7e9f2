#!/bin/sh
# deadcode.sh: part of `make lint`; shows that the shipped programs carry
# only code a shipped path calls.  Runs on the build host as any user,
# writes only below its build directory; test-only, never installed.
#
# Every shipped program is linked again from objects built without
# inlining (so that a function inlined everywhere still counts as
# called), with the linker printing each function section that no path
# from the program's entry reaches.  Then:
#  1. a function of ours that no shipped program reaches, although some
#     link its object, is dead in production: test-only code must live
#     under regress/, not beside the shipped sources;
#  2. no real shipped binary (the production build, whose link drops
#     such sections with --gc-sections) holds a function that its own
#     program never reaches.  This half fails if --gc-sections goes.
#
#	DEAD_BUILD=build/lint/dead	scratch build directory
#	BUILD=build			the production build to inspect
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$REPO" || exit 1
DEAD_BUILD=${DEAD_BUILD:-build/lint/dead}
BUILD=${BUILD:-build}

fail() { echo "deadcode: FAIL: $*" >&2; exit 1; }

mkdir -p "$DEAD_BUILD" || fail "mkdir $DEAD_BUILD"
DEAD_BUILD=$(cd "$DEAD_BUILD" && pwd -P)
make -s --no-print-directory -j2 BUILD="$DEAD_BUILD" \
    OPT="-Og -g -fno-inline" deadcode-links >"$DEAD_BUILD/make.log" 2>&1 ||
    { cat "$DEAD_BUILD/make.log" >&2; fail "the dead-code build failed"; }
make -s --no-print-directory all >/dev/null 2>&1 ||
    fail "the production build failed"

progs=$(ls "$DEAD_BUILD/dead" | sed -n 's/\.objs$//p')
[ -n "$progs" ] || fail "no program was linked in $DEAD_BUILD/dead"
rc=0
t=$DEAD_BUILD/dead/report
: > "$t.unreached"
: > "$t.linked"
for p in $progs; do
	d=$DEAD_BUILD/dead/$p
	# "removing unused section '.text.NAME' in file 'OBJ'", our objects
	# only, as "OBJ NAME"; clones (NAME.part.0) count as NAME.
	sed -n "s|.*removing unused section '\.text\.\([^'.]*\)[^']*' in file '$DEAD_BUILD/\(obj[^/]*/[^']*\)'.*|\2 \1|p" \
	    "$d.gc" | sort -u > "$d.unreached"
	sed -n "s|^$DEAD_BUILD/||p" "$d.objs" | while read -r o; do
		nm --defined-only "$DEAD_BUILD/$o" |
		    awk -v o="$o" '$2 ~ /^[Tt]$/ { print o, $3 }'
	done | sort -u > "$d.defined"
	sort -u "$d.unreached" >> "$t.unreached"
	comm -23 "$d.defined" "$d.unreached" >> "$t.linked"

	# Half 2: the real binary holds none of what p never reaches.
	[ -f "$BUILD/bin/$p" ] || fail "$BUILD/bin/$p is missing"
	nm --defined-only "$BUILD/bin/$p" 2>/dev/null |
	    awk '$2 ~ /^[Tt]$/ { sub(/\..*/, "", $3); print $3 }' |
	    sort -u > "$d.real"
	extra=$(awk '{ print $2 }' "$d.unreached" | sort -u |
	    comm -12 - "$d.real")
	if [ -n "$extra" ]; then
		echo "deadcode: $p carries functions it never calls:" $extra >&2
		rc=1
	fi
done

# Half 1: reached by no shipped program that links its object (each
# function named by its object, as static names repeat).
sort -u "$t.linked" > "$t.reached"
sort -u "$t.unreached" | comm -23 - "$t.reached" > "$t.dead"
if [ -s "$t.dead" ]; then
	sed 's|^obj[^/]*/\([^ ]*\)\.o \(.*\)|deadcode: \1.c: \2 is linked into a shipped program but no shipped path calls it|' \
	    "$t.dead" >&2
	rc=1
fi
[ $rc = 0 ] || fail "code that no shipped path runs (see above)"
echo "deadcode: $(echo $progs | wc -w) programs, every function of ours" \
    "in them is called by a shipped path"
