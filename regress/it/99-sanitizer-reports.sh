#!/bin/sh
# 99-sanitizer-reports.sh: integration test, run last, as root inside
# the disposable systemd: no AddressSanitizer, LeakSanitizer or UBSan
# report anywhere in this boot's journal.  Meaningful for the ASan/UBSan
# build (make check-asan), where the supervisor and the relay write
# their reports to stderr, i.e. the journal; harmless in a normal run.
# See docs/ANALYSIS.md.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
ITLIB_BASE=1
. "$REPO/regress/itlib.sh"

PAT='AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'

command -v journalctl >/dev/null 2>&1 || { echo "FAIL: no journalctl"; exit 1; }
# Whatever is still buffered reaches the journal before we read it.
journalctl --sync 2>/dev/null
if ! journalctl -b --no-pager -q -n 1 >/dev/null 2>&1; then
	echo "FAIL: cannot read this boot's journal"
	exit 1
fi
hits=$(journalctl -b --no-pager -q -o short-monotonic | grep -E "$PAT")
if [ -n "$hits" ]; then
	fail "sanitizer reports in the journal:"
	printf '%s\n' "$hits" | head -50 | sed 's/^/  /'
else
	pass "no sanitizer report in this boot's journal"
fi
finish
