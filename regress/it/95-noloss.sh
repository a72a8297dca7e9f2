#!/bin/sh
# 95-noloss.sh: no output byte is lost behind the exit frame.  1,000
# sessions each write 4096 bytes and exit 3; every one must deliver all
# 4096 bytes and then an exit frame with status 3.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
client -n 1000 -q -- /bin/sh -c 'head -c 4096 /dev/zero | tr "\0" x; exit 3'
good=$(grep -c '^opty-nodesim: exit code=1 status=3 result=exit-code bytes=4096$' "$tmp/err")
bad=$(grep '^opty-nodesim:' "$tmp/err" | grep -vc 'bytes=4096$')
check "1000 runs delivered 4096 bytes then exit 3 ($good good, $bad short)" \
    test "$good" = 1000 ||
    grep '^opty-nodesim:' "$tmp/err" | grep -v ' status=3 result=exit-code bytes=4096$' |
    head -n 5 | sed 's/^/  /' 
check "no session unit left" wait_no_units 10
sup_stop
finish
