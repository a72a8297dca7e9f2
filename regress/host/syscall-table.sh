#!/bin/sh
# syscall-table.sh: docs/SANDBOX.md, "The session's system calls",
# places every x86-64 system call of the kernel's table (the __NR_*
# names of asm/unistd_64.h) in a row or in the list of names that name
# no other process, each once; and its rows marked "launcher seccomp" are
# exactly the calls launcher/seccomp.c filters.  A positive control
# proves that the check fails on a copy of the table with one name
# removed, and on one with a filtered call's mark removed.  Runs on the
# build host as any user; reads only (and writes in a private
# directory).  A missing header, table or filter fails.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
HDR=/usr/include/x86_64-linux-gnu/asm/unistd_64.h
DOC=$REPO/docs/SANDBOX.md
SRC=$REPO/launcher/seccomp.c
HEAD="## The session's system calls"
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

header_names() {
	sed -n 's/^#define __NR_\([a-z0-9_]*\)[[:space:]].*/\1/p' "$1" |
	    LC_ALL=C sort -u
}

# The section of doc $1, from its heading to the next "## " heading.
section() {
	awk -v h="$HEAD" 'index($0, h) == 1 { on = 1; next }
	    on && /^## / { exit } on { print }' "$1"
}

# The names in the first column of the rows (mechanism matching $2).
# shellcheck disable=SC2016 # the backquotes are Markdown's
row_names() {
	section "$1" | sed 's/\\|/ /g' |
	    awk -F'|' -v m="$2" '/^\| `/ && index($4, m) { print $2 }' |
	    grep -o '`[a-z_][a-z0-9_]*`' | tr -d '`' | LC_ALL=C sort
}

# The names of the fenced list.
list_names() {
	section "$1" | awk '/^```/ { on = !on; next } on' |
	    tr -s ' \t' '\n' | grep '^[a-z_][a-z0-9_]*$' | LC_ALL=C sort
}

# The calls of the filter: SC_SELF, SC_DENY, SC_WHEN, not the macros.
filter_names() {
	grep -v '^#define' "$1" | grep -o 'SC_[A-Z]*([a-z0-9_]*' |
	    sed 's/.*(//' | LC_ALL=C sort -u
}

# check HEADER DOC SRC: one FAIL line per problem; status 1 if any.
check() {
	t=$(mktemp -d) || return 2
	header_names "$1" > "$t/hdr"
	row_names "$2" "" > "$t/rows"
	list_names "$2" > "$t/list"
	cat "$t/rows" "$t/list" | LC_ALL=C sort > "$t/all"
	bad=0
	if [ ! -s "$t/hdr" ]; then
		echo "FAIL: no __NR_ name in $1"; bad=1
	fi
	if [ ! -s "$t/rows" ] || [ ! -s "$t/list" ]; then
		echo "FAIL: no rows or no list under '$HEAD' in $2"; bad=1
	fi
	for n in $(LC_ALL=C comm -23 "$t/hdr" "$t/all"); do
		echo "FAIL: $n is in $1 but in no row and not in the list"
		bad=1
	done
	for n in $(uniq -d "$t/all"); do
		echo "FAIL: $n is placed more than once"; bad=1
	done
	row_names "$2" "launcher seccomp" | uniq > "$t/marked"
	filter_names "$3" > "$t/filter"
	[ -s "$t/filter" ] || { echo "FAIL: no SC_* rule in $3"; bad=1; }
	for n in $(LC_ALL=C comm -23 "$t/filter" "$t/marked"); do
		echo "FAIL: $n is filtered but its row is not 'launcher seccomp'"
		bad=1
	done
	for n in $(LC_ALL=C comm -13 "$t/filter" "$t/marked"); do
		echo "FAIL: $n is marked 'launcher seccomp' but not filtered"
		bad=1
	done
	rm -rf "$t"
	return $bad
}

for f in "$HDR" "$DOC" "$SRC"; do
	[ -r "$f" ] || { fail "cannot read $f (linux-libc-dev for the" \
	    "header)"; exit 1; }
done

if out=$(check "$HDR" "$DOC" "$SRC"); then
	pass "all $(header_names "$HDR" | wc -l) names of $HDR placed once;" \
	    "$(filter_names "$SRC" | wc -l) filtered calls, each marked"
else
	echo "$out"
	fail "the table of docs/SANDBOX.md and the kernel's or the filter's" \
	    "list differ"
fi

# Positive controls: the same check on copies it must refuse.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sed 's/^read write close /write close /' "$DOC" > "$tmp/noread.md"
out=$(check "$HDR" "$tmp/noread.md" "$SRC")
case $? in
1)	if echo "$out" | grep -q '^FAIL: read is in '; then
		pass "control: a table without 'read' fails and names it"
	else
		fail "control: a table without 'read' fails, not naming it"
	fi ;;
*)	fail "control: a table without 'read' passes" ;;
esac
# shellcheck disable=SC2016 # the backquotes are Markdown's
sed 's/^| `kcmp` \(.*\)launcher seccomp/| `kcmp` \1seccomp/' "$DOC" \
    > "$tmp/nokcmp.md"
if cmp -s "$DOC" "$tmp/nokcmp.md"; then
	fail "control: no kcmp row marked 'launcher seccomp' to unmark"
elif out=$(check "$HDR" "$tmp/nokcmp.md" "$SRC"); then
	fail "control: a filtered kcmp without its mark passes"
elif echo "$out" | grep -q '^FAIL: kcmp is filtered'; then
	pass "control: a filtered kcmp without its mark fails and names it"
else
	fail "control: a filtered kcmp without its mark fails, not naming it"
fi

[ "$fails" -eq 0 ]
