#!/bin/sh
# tables.sh: the tables the documentation restates agree with the code
# they describe: the relay's and the client's seccomp allowlists
# (docs/SANDBOX.md, docs/CLIENT.md), the error codes (docs/PROTOCOL.md),
# the imsg message table (docs/IMSG.md, from the table the channel
# itself reads, printed by the test tool opty-msgtab), the parent's
# session and unit tables (docs/ARCHITECTURE.md), the relay's slot table
# (docs/RELAY.md) and the files each of the two processes links
# (docs/ARCHITECTURE.md).  Runs on the build
# host as any user; reads only.  A table that cannot be found fails.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$REPO/$BUILD ;; esac
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The calls a filter allows: every SCMP_SYS(name) and ALLOW(ctx, name)
# outside the ASan-only blocks, one per line, sorted.
filter_calls() {
	sed '/^#ifdef __SANITIZE_ADDRESS__/,/^#endif/d; /^#define/d' "$1" |
	    grep -o 'SCMP_SYS([a-z0-9_]*)\|ALLOW(ctx, [a-z0-9_]*)' |
	    sed 's/.*[(, ]\([a-z0-9_]*\))$/\1/' | LC_ALL=C sort -u
}

# The first column of the table that follows the heading matching $2 in
# doc $1: every lower-case system call name in it, sorted.
doc_calls() {
	awk -v h="$2" '
	    index($0, h) == 1 { on = 1; next }
	    on && /^\|/ { seen = 1; print; next }
	    on && seen { exit }' "$1" |
	    awk -F'|' 'NR > 2 { print $2 }' |
	    grep -o '`\?[a-z][a-z0-9_]*`\?' | tr -d '`' |
	    grep -v '^\(only\|with\|request\|both\|without\|fd\)$' |
	    LC_ALL=C sort -u
}

same() {	# same WHAT A-FILE B-FILE
	if [ ! -s "$2" ] || [ ! -s "$3" ]; then
		fail "$1: a side is empty (table or code not found)"
	elif cmp -s "$2" "$3"; then
		pass "$1 ($(wc -l < "$2") entries)"
	else
		fail "$1 differ (< code, > docs):"
		diff "$2" "$3" | grep '^[<>]'
	fi
}

t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT

filter_calls "$REPO/relay/sandbox.c" > "$t/relay.code"
doc_calls "$REPO/docs/SANDBOX.md" "## The allowlist" > "$t/relay.doc"
same "relay seccomp allowlist vs docs/SANDBOX.md" "$t/relay.code" \
    "$t/relay.doc"
n=$(sed -n 's/^## The allowlist (\([0-9]*\) calls.*/\1/p' \
    "$REPO/docs/SANDBOX.md")
if [ "$n" = "$(wc -l < "$t/relay.code")" ]; then
	pass "docs/SANDBOX.md's heading counts $n calls"
else
	fail "docs/SANDBOX.md's heading says ${n:-no} calls;" \
	    "the filter allows $(wc -l < "$t/relay.code")"
fi

filter_calls "$REPO/client/sandbox.c" > "$t/client.code"
doc_calls "$REPO/docs/CLIENT.md" "## Seccomp filter" > "$t/client.doc"
same "client seccomp allowlist vs docs/CLIENT.md" "$t/client.code" \
    "$t/client.doc"

sed -n 's/^[[:space:]]*\(ERR_[A-Z_]*\) = \([0-9]*\),.*/\2 \1/p' \
    "$REPO/proto/wire.h" | LC_ALL=C sort > "$t/err.code"
sed -n 's/^| *\([0-9]*\) *| *`\(ERR_[A-Z_]*\)` *|.*/\1 \2/p' \
    "$REPO/docs/PROTOCOL.md" | LC_ALL=C sort > "$t/err.doc"
same "error codes vs docs/PROTOCOL.md" "$t/err.code" "$t/err.doc"

if [ -x "$BUILD/tools/opty-msgtab" ]; then
	"$BUILD/tools/opty-msgtab" | LC_ALL=C sort > "$t/imsg.code"
	sed -n '/^| type | dir /,/^$/p' "$REPO/docs/IMSG.md" |
	    awk -F'|' 'NR > 2 && NF > 5 {
		t = $2; d = $3; l = $4; f = $5; s = $6
		gsub(/[` ]/, "", t); gsub(/ /, "", d); sub(/:.*/, "", f)
		gsub(/ /, "", f); gsub(/^ +| +$/, "", s)
		# the length: the numbers in its last brackets, else its own
		if (match(l, /\([0-9.]+\)/))
			l = substr(l, RSTART + 1, RLENGTH - 2)
		else
			sub(/^ *([0-9]+).*/, "&", l)
		sub(/^ */, "", l); sub(/[^0-9.].*/, "", l)
		print t "|" d "|" l "|" f "|" s }' | LC_ALL=C sort > "$t/imsg.doc"
	same "imsg table vs docs/IMSG.md" "$t/imsg.code" "$t/imsg.doc"
else
	fail "$BUILD/tools/opty-msgtab is not built (make tools)"
fi

# The parent's session table: its ROW() lines and docs/ARCHITECTURE.md.
sed -n 's/^[[:space:]]*ROW(\([A-Z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*act_\([a-z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*\([A-Z_]*\)),.*/\1 \2 \3 \4 \5/p' \
    "$REPO/parent/session.c" | LC_ALL=C sort > "$t/sess.code"
sed -n '/^| state | event | action | next | alternative |/,/^$/p' \
    "$REPO/docs/ARCHITECTURE.md" | awk -F'|' 'NR > 2 && NF > 5 {
	o = ""; for (i = 2; i <= 6; i++) { f = $i; gsub(/ /, "", f)
	    o = o (i > 2 ? " " : "") f }; print o }' |
    LC_ALL=C sort > "$t/sess.doc"
same "parent session table vs docs/ARCHITECTURE.md" "$t/sess.code" \
    "$t/sess.doc"

# The relay's slot table: its ROW() lines and docs/RELAY.md.
sed -n 's/^[[:space:]]*ROW(\([A-Z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*act_\([a-z_]*\),[[:space:]]*\([A-Z_]*\)),.*/\1 \2 \3 \4 \5/p' \
    "$REPO/relay/slot.c" | LC_ALL=C sort > "$t/slot.code"
sed -n '/^| state | message | needs | action | next |/,/^$/p' \
    "$REPO/docs/RELAY.md" | awk -F'|' 'NR > 2 && NF > 5 {
	o = ""; for (i = 2; i <= 6; i++) { f = $i; gsub(/ /, "", f)
	    o = o (i > 2 ? " " : "") f }; print o }' |
    LC_ALL=C sort > "$t/slot.doc"
same "relay slot table vs docs/RELAY.md" "$t/slot.code" "$t/slot.doc"

# The parent's unit table: its ROW() lines and docs/ARCHITECTURE.md.
sed -n 's/^[[:space:]]*ROW(\([A-Z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*\([A-Z_]*\),[[:space:]]*\(act_\|unit_\)\{0,1\}\([a-zA-Z_]*\),[[:space:]]*\([A-Z_]*\)),.*/\1 \2 \3 \5 \6/p' \
    "$REPO/parent/unit.c" | LC_ALL=C sort > "$t/unit.code"
sed -n '/^| phase | input | posts | action | next |/,/^$/p' \
    "$REPO/docs/ARCHITECTURE.md" | awk -F'|' 'NR > 2 && NF > 5 {
	o = ""; for (i = 2; i <= 6; i++) { f = $i; gsub(/ /, "", f)
	    o = o (i > 2 ? " " : "") f }; print o }' |
    LC_ALL=C sort > "$t/unit.doc"
same "parent unit table vs docs/ARCHITECTURE.md" "$t/unit.code" \
    "$t/unit.doc"

# The files of each process: the .c files of parent/ and dbusd/ the
# supervisor links, and of relay/ the relay links (the build's own
# list), against the ones named in their docs/ARCHITECTURE.md section.
prog_files() {	# prog_files PROGRAM DIR-REGEX
	(cd "$REPO" && make -s BUILD="$BUILD" shipped-objs) |
	    awk -F'\t' -v p="$1" '$1 == p { print $2 }' | tr ' ' '\n' |
	    sed -n "s#.*/obj/\\($2\\)/\\([^/]*\\)\\.o\$#\\2.c#p" |
	    LC_ALL=C sort -u
}
doc_files() {	# doc_files HEADING
	awk -v h="$1" 'index($0, h) == 1 { on = 1; next }
	    on && /^## / { exit } on { print }' "$REPO/docs/ARCHITECTURE.md" |
	    grep -o '`[a-z0-9_][a-z0-9_]*\.c`' | tr -d '`' | LC_ALL=C sort -u
}
prog_files opencode-pty-supervisor "parent\|dbusd" > "$t/pfiles.code"
doc_files "## The root parent (parent/, dbusd/)" > "$t/pfiles.doc"
same "the root parent's files vs docs/ARCHITECTURE.md" "$t/pfiles.code" \
    "$t/pfiles.doc"
prog_files opencode-pty-relay relay > "$t/rfiles.code"
doc_files "## The relay (relay/)" > "$t/rfiles.doc"
same "the relay's files vs docs/ARCHITECTURE.md" "$t/rfiles.code" \
    "$t/rfiles.doc"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
