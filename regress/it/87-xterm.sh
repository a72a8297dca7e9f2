#!/bin/sh
# 87-xterm.sh: a real terminal emulator as the client (test only).  A
# Node program (regress/node/xterm.js) under the exact Node release, the
# MainPID of opencode-v2.service (user byk), serves sessions the way an
# xterm.js web terminal server does (node-pty's interface of the
# installed module, opencode-pty/node-pty) to xterm.js's headless
# terminal (@xterm/headless, pinned by build-aux/xterm.sh and staged
# into the build directory by regress/node/stage.sh).  Through it vim
# writes a new file and less pages a long one; both are resized, and
# the emulator's screen is checked each time: size, redraw, vim's
# status line, less's prompt, onExit.  The file vim wrote is checked
# here: content and owner.  The controls: the same screen checks fail
# on a screen of the wrong size or without the status line.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"
. "$REPO/regress/node/itnode.sh"

VFILE=xt-vim.txt
LFILE=xt-less.txt
LLINES=200
trap 'rm -f "$WORK/$VFILE" "$WORK/$LFILE" /home/byk/.lesshst; itlib_cleanup' EXIT

vim_find || exit 1
LESS=$(command -v less) || {
	echo "FAIL: less missing (make deps; regress/roots.sh EXTRA)"
	exit 1
}
case $BUILD in /*) XTERM=$BUILD ;; *) XTERM=$REPO/$BUILD ;; esac
XTERM=$XTERM/node/xterm/node_modules/@xterm/headless
XTERM_WANT=$(sed -n 's/^version=//p' "$XTERM/.opty-npm" 2>/dev/null)
[ -f "$XTERM/package.json" ] && [ -n "$XTERM_WANT" ] || {
	echo "FAIL: no @xterm/headless at $XTERM (make node-stage:" \
	    "build-aux/xterm.sh)"
	exit 1
}
node_install
XTERM_JS=$(node_entry "$REPO/regress/node/xterm.js") || exit 1
runuser -u byk -- test -r "$XTERM/package.json" ||
    { echo "FAIL: byk cannot read $XTERM"; exit 1; }
check "@xterm/headless is the pinned release ($XTERM_WANT)" grep -q \
    "\"version\": \"$XTERM_WANT\"" "$XTERM/package.json"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

rm -f "$WORK/$VFILE"
runuser -u byk -- sh -c 'i=1; while [ $i -le "$2" ]; do
	echo "line $i"; i=$((i + 1)); done > "$1"' sh "$WORK/$LFILE" "$LLINES" ||
    { echo "FAIL: cannot write $WORK/$LFILE"; exit 1; }

systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
    -p Type=exec -p User=byk -p Group=byk -- \
    "$NODE_BIN" "$XTERM_JS" --xterm "$XTERM" --cwd "$WORK" --vim "$VIM" \
    --less "$LESS" --vim-file "$VFILE" --less-file "$LFILE" \
    --less-lines "$LLINES" > "$tmp/xt.out" 2> "$tmp/xt.err" < /dev/null
rc=$?
actor_note "node (xterm.js)"

# Every check the program makes, by name: a missing line fails too.
for n in vim-start vim-insert vim-typed vim-resize control-vim-old-size \
    control-vim-no-status vim-exit less-start less-page \
    control-less-first-page less-resize control-less-old-size less-exit; do
	l=$(grep "^xterm: [a-zA-Z]* $n " "$tmp/xt.out" | head -n 1)
	case $l in
	"xterm: ok $n "*) pass "xterm.js $n: ${l#"xterm: ok $n "}" ;;
	"") fail "xterm.js $n: no result (rc $rc; $(tail -n 3 "$tmp/xt.out" |
	    tr '\n' ' '); stderr: $(head -c 600 "$tmp/xt.err"))" ;;
	*) fail "xterm.js $n: ${l#"xterm: "}" ;;
	esac
done
grep -q '^xterm: FAIL' "$tmp/xt.out" && sed 's/^/  /' "$tmp/xt.err" | head -n 80
check "xterm.js ran to its end, exit 0 (rc $rc; $(tail -n 1 "$tmp/xt.out"))" \
    sh -c "[ $rc = 0 ] && tail -n 1 '$tmp/xt.out' | grep -qx 'xterm: done 0 failed'"

# The file vim wrote, seen from outside the session.
printf 'hello from xterm.js\nsecond line\n' > "$tmp/want"
check "vim wrote $VFILE: exactly the typed text" cmp -s "$tmp/want" "$WORK/$VFILE"
check "$VFILE is byk's ($(stat -c %U:%G "$WORK/$VFILE" 2>&1))" \
    test "$(stat -c %U:%G "$WORK/$VFILE" 2>/dev/null)" = byk:byk
# The control of the comparison: it tells another text apart.
printf 'hello from xterm.js\nsecond lin\n' > "$tmp/other"
check "control: the comparison refuses a file one byte short" \
    sh -c "! cmp -s '$tmp/other' '$WORK/$VFILE'"

check "no session unit left" wait_no_units 20
sup_stop
finish
