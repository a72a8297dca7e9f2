#!/bin/sh
# 76-node.sh: a real opencode-v2.service runs a Node
# program (regress/node/service.js) under the exact Node release, which
# uses the client module client/node/ against the real supervisor:
# output, input, exit codes, signals, resize, the 17th session's busy
# error, a client that stops reading (the Node service's and the relay's
# memory stay flat while the command is held), and a disconnect, by
# destroy() or by the service going away, that removes the unit.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"
. "$REPO/regress/node/itnode.sh"

node_install
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

check "Node is installed root:root 0711" \
    test "$(stat -c '%U:%G %a' "$NODE_BIN")" = "root:root 711"
check "Node is the exact release $NODE_WANT" \
    test "$("$NODE_BIN" --version)" = "$NODE_WANT"

# Output, and the service was admitted (non-dumpable) as the MainPID.
cur=$(jcursor)
nclient -- /bin/echo hello from node
nexpect "exit code=0 signal=- result=success" "echo: exit 0, success"
check "echo: the output arrives ($(head -c 80 "$tmp/out"))" \
    grep -qx 'hello from node' "$tmp/out"
check "the Node service was admitted" sh -c \
    "journalctl --after-cursor '$cur' -u '$SUP' -o cat --no-pager | grep -q 'admitted client pid'"

# Input: write() before the start frame is held and sent after it.
nclient --input 'abc
' -- /bin/sh -c 'read l; echo "got:$l"'
nexpect "exit code=0 signal=- result=success" "input: exit 0"
check "input: the command read the line" grep -qx 'got:abc' "$tmp/out"
big=$(head -c 40000 /dev/zero | tr '\0' q)
nclient --input "$(printf '%s\n' "$big" | fold -w 1000)
" -- /bin/sh -c 'head -n 40 | tr -d "\n" | wc -c'
check "input: 40000 bytes split into frames of at most 32 KiB arrive" \
    test "$(tail -n 1 "$tmp/out" | tr -d ' ')" = 40000

# Exit codes and deaths by signal.
nclient -- /bin/sh -c 'exit 7'
nexpect "exit code=7 signal=- result=exit-code" "exit 7: exitCode 7, exit-code"
nclient -- /bin/sh -c 'kill -KILL $$'
nexpect "exit code=137 signal=SIGKILL result=signal" \
    "SIGKILL: exitCode 137, signal SIGKILL"

# kill(): signals from the module reach the command.
# systemd counts a main process killed by SIGTERM (or HUP, INT, PIPE)
# as a clean exit: Result=success; the exit frame carries the signal.
nclient --after-output --kill SIGTERM -- /bin/sh -c 'echo ready; exec sleep 30'
nexpect "exit code=143 signal=SIGTERM result=success" "kill('SIGTERM') ends the command"
nclient --after-output --kill INT -- /bin/sh -c \
    'trap "echo got-INT; exit 3" INT; echo ready; while :; do sleep 0.05; done'
nexpect "exit code=3 signal=- result=exit-code" "kill('INT'): the command's trap ran"
check "kill('INT'): the trap's output arrives" grep -qx 'got-INT' "$tmp/out"

# Resize: the initial size and a resize() while the command runs.
nclient --size 50x132 -- /bin/stty size
check "rows/cols at spawn: 50x132 ($(cat "$tmp/out"))" grep -qx '50 132' "$tmp/out"
nclient --after-output --resize 33x99 -- /bin/sh -c \
    'trap "stty size; exit 0" WINCH; echo ready; while :; do sleep 0.05; done'
nexpect "exit code=0 signal=- result=success" "resize(): the command's WINCH trap ran"
check "resize(): the new size ($(tr '\n' ' ' < "$tmp/out"))" \
    grep -qx '33 99' "$tmp/out"

# The cap: 16 live sessions of one Node service; the 17th is busy.
nclient --parallel 17 -- /bin/sleep 3
ok=$(grep -c '^node-service: exit code=0 signal=- result=success$' "$tmp/results")
busy=$(grep -c '^node-service: error name=SupervisorError code=ERR_BUSY number=3$' "$tmp/results")
check "16 concurrent sessions ran ($ok)" test "$ok" = 16
check "the 17th was refused with ERR_BUSY ($busy; $(sort "$tmp/results" | uniq -c | tr '\n' ' '))" \
    test "$busy" = 1
check "all 16 units gone" wait_no_units 20

# destroy(): the module's disconnect; the supervisor removes the unit.
nclient --after-output --destroy -- /bin/sh -c 'echo ready; exec sleep 60'
nexpect "error name=PtyError code=EDESTROYED" "destroy() ends the session here"
check "destroy(): the unit is removed" wait_no_units 20

# A client that stops reading: the command is held by back-pressure,
# nothing piles up in the Node service or in the relay.
relay_pid=$(pgrep -P "$(systemctl show -P MainPID "$SUP")" | head -n 1)
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -p StandardOutput=null -p StandardError="file:$tmp/pause.err" \
    -- "$NODE_BIN" "$NODE_SERVICE" \
    --cwd "$WORK" --after-output --pause -- \
    /bin/sh -c 'head -c 268435456 /dev/zero | base64'
node_pid=$(systemctl show -P MainPID "$CLIENT_UNIT")
sleep 2
unit=$(pty_units | head -n 1)
nr0=$(rss_kib "$node_pid"); rr0=$(rss_kib "$relay_pid")
sleep 3
nr1=$(rss_kib "$node_pid"); rr1=$(rss_kib "$relay_pid")
check "stopped reader: the command is still running (back-pressure)" \
    systemctl is-active -q "$unit" || sed 's/^/  /' "$tmp/pause.err"
check "stopped reader: the Node service's RSS grew < 1 MiB ($nr0 -> $nr1 KiB)" \
    test $((nr1 - nr0)) -lt 1024
check "stopped reader: the relay's RSS grew < 512 KiB ($rr0 -> $rr1 KiB)" \
    test $((rr1 - rr0)) -lt 512
# The service goes away (its connection closes): the unit is removed.
systemctl stop "$CLIENT_UNIT"
check "the Node service stopped: the unit is removed" wait_no_units 20

check "no session unit left" wait_no_units 10
sup_stop
finish
