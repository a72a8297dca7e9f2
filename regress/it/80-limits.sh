#!/bin/sh
# 80-limits.sh: acceptance gate 8 against the real supervisor: the cap of
# 16, maximum frames and arguments, slow and vanished readers, large
# output byte-exact, RuntimeMaxSec, TERM-to-KILL, non-zero and signal
# exits, protocol garbage, client disconnect and supervisor stop.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
relay_rss() {
	rp=$(pgrep -P "$(systemctl show -P MainPID "$SUP")" | head -n 1)
	awk '/^VmRSS:/ { print $2 }' "/proc/$rp/status"
}

# 16 live sessions; the 17th connection is refused as busy.
client -P 17 -q -- /bin/sleep 3
ok=$(grep -c '^opty-nodesim: exit code=1 status=0 result=success' "$tmp/err")
busy=$(grep -c '^opty-nodesim: error code=3 ' "$tmp/err")
check "16 concurrent sessions ran ($ok)" test "$ok" = 16
check "the 17th was refused busy ($busy)" test "$busy" = 1
check "all 16 units gone" wait_no_units 20

# Largest argv: 128 arguments; one argument of 4096 bytes.
set --
i=0; while [ $i -lt 127 ]; do set -- "$@" "a$i"; i=$((i + 1)); done
client -q -- /bin/echo "$@"
expect_exit 1 0 success "128 arguments"
big=$(head -c 4096 /dev/zero | tr '\0' y)
client -- /bin/sh -c 'printf %s "$1" | wc -c' sh "$big"
check "a 4096-byte argument arrives whole" test "$(tr -d ' ' < "$tmp/out")" = 4096
# A full 32 KiB input frame reaches the command.  The command turns echo
# and canonical mode off before it says ready (-O holds the input until
# then): an echo the relay has not drained yet may come out after the
# command's own output, and canonical mode keeps at most 4095 bytes of a
# line.
line=$(head -c 4095 /dev/zero | tr '\0' z)
in=$(printf '%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s' "$line" "$line" "$line" \
    "$line" "$line" "$line" "$line" "$line")
client -O -i "$in
" -- /bin/sh -c 'stty raw -echo; echo ready; head -c 32768 | wc -c'
got=$(tr -d ' ' < "$tmp/out" | tr '\n' ,)
check "a full 32 KiB input frame reaches the command ($(echo "$got" |
    cut -c 1-20))" test "$got" = ready,32768, ||
    { wc -c "$tmp/out"; cat "$tmp/err"; }

# Non-zero and signal exits.
client -- /bin/sh -c 'exit 7'
expect_exit 1 7 exit-code "exit 7 reported"
client -- /bin/sh -c 'kill -KILL $$'
expect_exit 2 9 signal "death by SIGKILL reported as the command's own"

# RuntimeMaxSec, and a command that ignores TERM is KILLed.
client -t 1 -- /bin/sleep 30
check "RuntimeMaxSec=1 ends the session as timeout" \
    grep -q ' result=timeout ' "$tmp/last"
cur=$(jcursor)
client -t 1 -- /bin/sh -c 'trap "" TERM HUP; exec sleep 67'
check "TERM ignored: the session still ends as timeout" \
    grep -q ' result=timeout ' "$tmp/last"
check "TERM ignored: no process of the session survives" \
    sh -c "! pgrep -x -f 'sleep 67' > /dev/null"
# systemd escalates to SIGKILL after the stop timeout, on every version
# (no PrivatePIDs=: docs/UNITS.md).
check "TERM ignored: systemd escalated to SIGKILL" sh -c \
    "journalctl --after-cursor '$cur' -o cat --no-pager | grep -q 'with signal SIGKILL'"

# Large output, byte-exact: base64 of 192 MiB of zeroes (256 MiB).
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" -p Type=exec \
    -p User=byk -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -- \
    /bin/sh -c 'head -c 201326592 /dev/zero | base64 -w 76' 2> "$tmp/err" |
    tr -d '\r' | sha256sum > "$tmp/sum"
want=$(head -c 201326592 /dev/zero | base64 -w 76 | sha256sum)
check "256 MiB of output arrive byte-exact" test "$(cat "$tmp/sum")" = "$want"
grep '^opty-nodesim:' "$tmp/err" | tail -n 1 > "$tmp/last"
expect_exit 1 0 success "large output then the exit frame"

# A slow reader stalls the command; relay memory stays flat.
rss0=$(relay_rss)
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note "opty-nodesim (-s)"
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODESIM" -q -s 1024 -d "$WORK" -- \
    /bin/sh -c 'head -c 268435456 /dev/zero | base64'
sleep 4
rss1=$(relay_rss)
unit=$(pty_units | head -n 1)
check "slow reader: the command is still running (back-pressure)" \
    systemctl is-active -q "$unit"
check "slow reader: relay RSS grew < 512 KiB ($rss0 -> $rss1 KiB)" \
    test $((rss1 - rss0)) -lt 512
# The reader vanishes: the unit is stopped and confirmed gone.
systemctl kill -s KILL "$CLIENT_UNIT"
check "vanished reader: the unit is stopped" wait_no_units 20

# Protocol garbage after the start frame ends the session.
client -F garbage -- /bin/sleep 30
check "garbage after admission: the unit is stopped" wait_no_units 20

# Client disconnect while the command runs.
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -- /bin/sleep 60
sleep 1
check "a session runs" test -n "$(pty_units)"
systemctl stop "$CLIENT_UNIT"
check "client disconnect: the unit is stopped" wait_no_units 20

# Supervisor stop with live sessions.
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -P 3 -q -d "$WORK" -- /bin/sleep 60
sleep 1
check "three sessions run" test "$(pty_units | wc -l)" = 3
systemctl stop "$SUP"
check "supervisor stop: every unit is gone" wait_no_units 5
check "supervisor stop: clean exit" test "$(systemctl show -P Result "$SUP")" = success
systemctl stop "$CLIENT_UNIT" 2>/dev/null
sup_stop
finish
