#!/bin/sh
# lint.sh: host-level test (any user) run by `make check-unit`: the
# static analysis of build-aux/lint.sh (cppcheck, clang-tidy,
# scan-build) must report nothing.  First it proves the three analysers
# are wired up and fail the run: a planted leak must be caught by each.
# A missing tool is a failure.  Test-only; see docs/ANALYSIS.md.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for c in cppcheck clang-tidy scan-build clang; do
	command -v "$c" >/dev/null 2>&1 ||
	    { echo "FAIL: $c is not installed (make deps)"; exit 1; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

cat > "$tmp/canary.c" <<'EOF'
/* canary.c: a planted leak that every analyser must report. */
#include <stdlib.h>

int	canary(int);

int
canary(int n)
{
	int	*p;

	if ((p = malloc(sizeof(*p))) == NULL)
		return -1;
	if (n > 0)
		return 1;
	*p = n;
	free(p);
	return 0;
}
EOF

out=$(LINT_BUILD=$tmp/lint sh build-aux/lint.sh "$tmp/canary.c" 2>&1)
rc=$?
case "$rc:$out" in
0:*)	fail "canary: lint passed a planted leak" ;;
*memleak*)	pass "canary: cppcheck reports the leak" ;;
*)	fail "canary: cppcheck missed the leak" ;;
esac
case "$out" in
*clang-analyzer-unix.Malloc*)
	pass "canary: clang-tidy reports the leak" ;;
*)	fail "canary: clang-tidy missed the leak" ;;
esac
if scan-build --status-bugs -o "$tmp/scan" clang -c "$tmp/canary.c" \
    -o "$tmp/canary.o" >"$tmp/scan.log" 2>&1; then
	fail "canary: scan-build --status-bugs passed a planted leak"
else
	pass "canary: scan-build reports the leak"
fi
[ $fails = 0 ] || { printf '%s\n' "$out"; cat "$tmp/scan.log"; }

if LINT_BUILD=$BUILD/lint sh build-aux/lint.sh; then
	pass "lint: no findings in the tree"
else
	fail "lint: findings in the tree (above)"
fi
[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
