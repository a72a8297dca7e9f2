#!/bin/sh
# relay-layers.sh: host-level check of the relay's structure (run by
# `make check-unit`; test-only; any user).  From nm of the built objects:
# no two relay files call each other (a file reacts to a lower one's
# event by its return value or a function given at init, docs/RELAY.md),
# no relay function is named after another process (parent_*, client_*),
# proto/msgtab.o is data only, and the relay binary links none of the
# test-only decoders.  Positive control: the same ring probe finds the
# ring of two small objects that call each other.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
BUILD=${BUILD:-build}
R=$BUILD/bin/opencode-pty-relay
fail() { echo "relay-layers: FAIL: $*" >&2; exit 1; }
command -v nm >/dev/null 2>&1 || fail "nm is missing (binutils)"
command -v cc >/dev/null 2>&1 || fail "cc is missing"
[ -f "$R" ] || fail "$R not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# rings OBJ...: prints "A <-> B" for each pair of objects where A refers
# to a function B defines and B to one A defines.
rings() {
	for o in "$@"; do
		b=$(basename "$o" .o)
		nm "$o" | awk -v f="$b" '$2 == "T" { print "D", f, $3 }'
		nm -u "$o" | awk -v f="$b" '{ print "U", f, $2 }'
	done | awk '
	$1 == "D" { def[$3] = $2; next }
	{ use[NR] = $2 " " $3 }
	END {
		for (i in use) {
			split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1])
				e[u[1] " " def[u[2]]] = 1
		}
		for (k in e) {
			split(k, p, " ")
			if ((p[2] " " p[1]) in e && p[1] < p[2])
				print p[1] " <-> " p[2]
		}
	}'
}

printf 'int pong(int);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' \
    >"$tmp/ping.c"
printf 'int ping(int);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' \
    >"$tmp/pong.c"
cc -c -o "$tmp/ping.o" "$tmp/ping.c" && cc -c -o "$tmp/pong.o" "$tmp/pong.c" ||
    fail "cannot build the positive control"
[ "$(rings "$tmp/ping.o" "$tmp/pong.o")" = "ping <-> pong" ] ||
    fail "positive control: the probe misses the ring of ping.o and pong.o"

# The objects of the relay's sources as they are now, not stale ones.
set --
for c in relay/*.c; do
	o=$BUILD/obj/${c%.c}.o
	[ -f "$o" ] || fail "$o not built"
	set -- "$@" "$o"
done
r=$(rings "$@")
[ -z "$r" ] || fail "relay files that call each other: $r"
n=$(nm "$@" | awk '($2 == "T" || $2 == "t") && $3 ~ /^(parent|client)_/' |
    head -n 3)
[ -z "$n" ] || fail "relay functions named after another process: $n"
m=$BUILD/obj/proto/msgtab.o
[ -f "$m" ] || fail "$m not built"
# A sanitizer build adds its own hooks (__asan_*, _sub_I_*): not code of ours.
[ -z "$(nm "$m" | awk '($2 == "T" || $2 == "t" || $2 == "U") &&
    $NF !~ /^(__(a|ub)san_|_sub_[DI]_)/')" ] ||
    fail "proto/msgtab.o holds code or calls out: it must be data only"
t=$(nm "$R" | awk '$3 ~ /^(exit_decode|error_decode|outbuf_put_error)$/')
[ -z "$t" ] || fail "test-only code linked into $R: $t"
echo "relay-layers: no ring among $# relay objects; msgtab is data;" \
    "no test-only decoder in the relay"
