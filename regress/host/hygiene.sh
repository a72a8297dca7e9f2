#!/bin/sh
# hygiene.sh: repository hygiene, checked on every make check-unit: each
# source file carries the licence line (LICENSE, ISC), and every
# document link to a file names one in the repository.  Runs on the
# build host as any user; reads only.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$REPO" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

[ -f LICENSE ] && grep -q 'Permission to use, copy, modify, and distribute' \
    LICENSE || fail "LICENSE is missing or not the ISC licence"

n=0
for f in $(git ls-files | grep -E '(\.(c|h|sh|js|mjs|ts|mk)|GNUmakefile)$' |
    grep -v '^regress/data/'); do
	n=$((n + 1))
	grep -q 'SPDX-License-Identifier: ISC' "$f" ||
	    fail "$f: no SPDX-License-Identifier line"
done
[ $n -gt 100 ] || fail "only $n source files found: git ls-files broken?"

# Markdown links and backquoted names of documents: each must exist.
for d in $(git ls-files '*.md'); do
	dir=$(dirname "$d")
	for l in $(grep -o '](\([^)#:]*\))' "$d" | sed 's/^](\(.*\))$/\1/'); do
		[ -e "$dir/$l" ] || fail "$d: link to $l, which is not here"
	done
	for m in $(grep -o '[A-Z][A-Z_-]*\.md' "$d" | sort -u); do
		[ -e "$m" ] || [ -e "docs/$m" ] || [ -e "$dir/$m" ] ||
		    fail "$d: names $m, which is not in the repository"
	done
done

[ $fails = 0 ] && echo "hygiene: $n source files licensed; document links resolve"
[ $fails = 0 ]
