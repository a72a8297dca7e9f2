#!/bin/sh
# 85-forged-dbus.sh: FORGED systemd signals against the real supervisor.
# Another bus client announces that a live session's unit was removed
# and went inactive, 10,000 times: the session goes on, its slot stays
# taken, and the supervisor stays responsive with its hint queue within
# its bound.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -p StandardOutput="file:$tmp/out.raw" \
    -p StandardError="file:$tmp/err" -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" \
    -- /bin/sh -c 'sleep 4; echo survived'
n=0
while [ -z "$(pty_units)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
unit=$(pty_units | head -n 1)
check "a session runs ($unit)" test -n "$unit"
"$TOOLS/opty-dbusforge" "$unit" 10000
check "forgeries sent" test $? = 0
status=$(systemctl show -P StatusText "$SUP")
echo "  status: $status"
check "the slot stays taken after the forgeries" sh -c "echo '$status' | grep -q '^1/16 sessions'"
check "the unit is still active" systemctl is-active -q "$unit"
depth=$(echo "$status" | sed -n 's/.*hint queue \([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
set -- $depth
check "hint queue within its bound ($1 of $2)" test "${1:-99999}" -le "${2:-0}"
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 200 ]; do
	sleep 0.1; n=$((n + 1))
done
check "the session ran to its real end" grep -q survived "$tmp/out.raw"
check "with its real exit frame" grep -q '^opty-nodesim: exit code=1 status=0 result=success' "$tmp/err"
client -- /bin/echo responsive
expect_exit 1 0 success "the supervisor still serves new sessions"
check "no session unit left" wait_no_units 10
sup_stop
finish
