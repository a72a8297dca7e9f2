#!/bin/sh
# mandoc-lint.sh: host-level test (any user) run by `make check-unit`:
# every manual page in man/ must pass `mandoc -Tlint -W warning` with no
# output at all.  A missing mandoc or an empty man/ is a failure.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

cd "$(dirname "$0")/../.." || exit 1
if ! command -v mandoc >/dev/null 2>&1; then
	echo "FAIL: mandoc is not installed (make deps)"
	exit 1
fi
n=0
fails=0
for f in man/*.[1-9]; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	out=$(mandoc -Tlint -W warning "$f" 2>&1)
	rc=$?
	if [ -n "$out" ] || [ $rc != 0 ]; then
		echo "FAIL: $f (mandoc exit $rc)"
		printf '%s\n' "$out" | sed 's/^/  /'
		fails=$((fails + 1))
	else
		echo "PASS: $f"
	fi
done
if [ $n = 0 ]; then
	echo "FAIL: no manual page in man/"
	exit 1
fi
[ $fails = 0 ] || exit 1
