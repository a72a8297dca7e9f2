#!/bin/sh
# 84-nodepty.sh: node-pty's own test cases, ported by behaviour, and
# node-pty-style code unchanged, against the real supervisor (test only).
# A real opencode-v2.service runs regress/node/nodepty.js under the exact
# Node release through the installed module's node-pty interface
# (opencode-pty/node-pty): resize(cols, rows) seen by stty, onData into a
# WebSocket whose send() returns false, kill() and onExit; dispose();
# write() false and onDrain; encodings; write/resize/kill after the exit;
# a throwing listener; the socket errors; no descriptor of the service
# leaked over many sessions ended every way.  docs/NODE.md ("node-pty's
# own tests, case by case") maps each of node-pty's cases to one here.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"
. "$REPO/regress/node/itnode.sh"

node_install
[ -f "$NODE_MODULE/node-pty.js" ] ||
    { echo "FAIL: $NODE_MODULE/node-pty.js is not installed"; exit 1; }
NODEPTY=$(node_entry "$REPO/regress/node/nodepty.js") || exit 1
runuser -u byk -- test -r "$NODEPTY" ||
    { echo "FAIL: byk cannot read $NODEPTY"; exit 1; }
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# nodepty ARGS...: nodepty.js ARGS under the exact Node as the MainPID of
# opencode-v2.service (user byk); its case lines in $tmp/err.
nodepty() {
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk -- \
	    "$NODE_BIN" "$NODEPTY" --cwd "$WORK" "$@" \
	    > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	actor_note "node (nodepty.js)"
	return $rc
}

# ncase NAME WHAT: nodepty.js reported case NAME as passed.  A case it
# never reported (it crashed, or the case is gone) is a failure too.
ncase() {
	l=$(grep -m 1 "^nodepty: \(ok\|FAIL\) $1: " "$tmp/err")
	case $l in
	"nodepty: ok $1: "*) pass "$2 (${l#"nodepty: ok $1: "})" ;;
	'') fail "$2: no result for $1 (rc $rc; $(tail -n 3 "$tmp/err" | tr '\n' ' '))" ;;
	*) fail "$2: ${l#"nodepty: FAIL "}" ;;
	esac
}

# The main run: every self-contained case, one Node process.
nodepty main
ncase nodepty-style "node-pty-style code unchanged: spawn(file, args, { name, cols, rows, cwd }), onData(d => ws.send(d)) with send() false, resize(cols, rows) seen by stty size, write, onExit"
ncase busy "the 17th concurrent spawn(): exitCode -1, ERR_BUSY; 16 ran"
ncase slow-ws "20000 lines through a ws whose send() returns false: all, in order"
ncase kill-default "kill(): SIGHUP by default, { exitCode: 0, signal: 1 }, nothing after"
ncase kill-sigterm "kill('SIGTERM'): { exitCode: 0, signal: 15 }"
ncase sigint-parent-and-child "SIGINT handled in the service and in the command, once each"
ncase sigint-default-in-child "the command's SIGINT at its default while the service handles its own"
ncase sigusr1-parent-and-child "SIGUSR1 handled in the service and in the command, once each"
ncase pts-name "the command's terminal is a /dev/pts/N; the service holds none"
ncase no-ptmx-in-child "a third session's shell holds fds 0 1 2 and no ptmx (control: one opened is counted)"
ncase exec-error "a command that cannot run: the launcher's 71 (execve) or 70 (not in PATH)"
ncase spawn-throws "spawn() throws for a missing cwd, bad types, an unknown encoding, env; nothing opened"
ncase flow-control "handleFlowControl with flowControlPause/Resume: pause, resume, neither reaches the terminal"
ncase listeners-dispose "listeners in order; a disposed onData/onExit listener gets nothing more"
ncase encodings "encodings: utf8 by default across a split character, null Buffers, base64 hex latin1 utf16le"
ncase write-false-ondrain "write() false on a full socket, onDrain, every byte read after (module API)"
ncase after-exit "write, resize, kill after the exit: no throw, nothing sent"
ncase destroy "destroy(): exitCode -1, EDESTROYED"
ncase spam-close "sessions spammed with input and killed at 100 ms each end (spam-close.js)"
ncase socket-errors "socketPath errors: ENOENT, ECONNREFUSED, EAGAIN (a full listen queue)"
ncase eeof-and-helper "EEOF (closed without a frame) and EHELPER (refusing or missing helper)"
ncase throwing-listener "a throwing listener: onError, onExit with ELISTENER, socket closed, exception on up"
ncase rounds "3 rounds of each way a session ends"
ncase no-fd-leak "the service's descriptors are the same after every session (controls: one left open is seen; 16 live sessions are seen)"
check "nodepty.js main ran to its end (rc $rc)" grep -qx 'nodepty: done' "$tmp/err"
check "no session unit left after the main run" wait_no_units 20

# The sync run: nodepty.js stops at points where this side looks.
# await_sync NAME: nodepty.js waits at NAME (up to 30 s).
await_sync() {
	n=0
	until grep -qx "nodepty: sync $1" "$tmp/err"; do
		[ $n -ge 300 ] && { fail "nodepty.js never reached sync $1 ($(tail -n 3 "$tmp/err" | tr '\n' ' '))"; return 1; }
		sleep 0.1; n=$((n + 1))
	done
}
go() { touch "$tmp/go/$1"; }
mkdir -p "$tmp/go"
nodepty --go "$tmp/go" sync &
bgrun=$!

# A throwing listener: the unit goes while the service lives on.
if await_sync listener-live; then
	nu=$(pty_units | wc -l)
	check "control: the live session's unit is listed ($nu)" test "$nu" = 1
	go listener-live
fi
if await_sync listener-thrown; then
	check "a throwing listener: the unit is removed" wait_no_units 20
	check "... while the service still runs (its socket closed, not its exit)" \
	    systemctl is-active -q "$CLIENT_UNIT"
	go listener-thrown
fi
# A background job of the command ends with the session.
leftover() { pgrep -u byk -f '^sleep 101$' > /dev/null; }
if await_sync bg-live; then
	check "control: the command's background job is seen live" leftover
	go bg-live
fi
if await_sync bg-done; then
	check "the session ended: its unit is removed" wait_no_units 20
	n=0
	while leftover && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	check "... and no process of it is left (sleep 101)" test -z "$(pgrep -u byk -f '^sleep 101$')"
	go bg-done
fi
wait "$bgrun"
rc=$?
ncase listener-unit "a throwing listener ends the session (ELISTENER) and the shell sees its unit go"
ncase no-child-left "no process of a session outlives it (a background job)"
check "nodepty.js sync ran to its end (rc $rc)" grep -qx 'nodepty: done' "$tmp/err"

check "no session unit left" wait_no_units 10
sup_stop
finish
