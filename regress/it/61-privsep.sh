#!/bin/sh
# 61-privsep.sh: the two processes of the real supervisor service.  The
# relay runs unprivileged and sandboxed; killing it makes the parent stop
# every unit and exit non-zero; SIGTERM ends both cleanly.
. "$REPO/regress/itlib.sh"

relay_pid() {
	mp=$(systemctl show -P MainPID "$SUP")
	pgrep -P "$mp" | head -n 1
}

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
rp=$(relay_pid)
check "relay process exists (pid $rp)" test -n "$rp"
st=/proc/$rp/status
ruid=$(id -u opencode-pty-relay)
check "relay uid is opencode-pty-relay" sh -c \
    "grep -Eq '^Uid:[[:space:]]+$ruid[[:space:]]+$ruid[[:space:]]+$ruid[[:space:]]+$ruid\$' $st"
check "relay has no supplementary groups" sh -c "grep -Eq '^Groups:[[:space:]]*\$' $st"
for c in CapInh CapPrm CapEff CapBnd CapAmb; do
	check "relay $c is zero" grep -Eq "^$c:[[:space:]]+0+\$" "$st"
done
check "relay NoNewPrivs" grep -Eq '^NoNewPrivs:[[:space:]]+1$' "$st"
check "relay Seccomp filter mode" grep -Eq '^Seccomp:[[:space:]]+2$' "$st"
check "relay root is the empty dir" test "$(readlink /proc/$rp/root)" = /run/opencode-pty/empty

# A session running when the relay dies is stopped by the parent.
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODESIM" -d "$WORK" -- /bin/sleep 60
n=0
while [ -z "$(pty_units)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
check "a session unit runs" test -n "$(pty_units)"
since=$(date '+%Y-%m-%d %H:%M:%S')
sleep 1
kill -9 "$(relay_pid)"
n=0
until journalctl -u "$SUP" --since "$since" -o cat --no-pager |
    grep -q 'status=1/FAILURE'; do
	[ $n -gt 100 ] && break; sleep 0.1; n=$((n + 1))
done
log=$(journalctl -u "$SUP" --since "$since" -o cat --no-pager)
case "$log" in *"relay killed by signal 9"*) pass "parent noticed the relay's death" ;;
*) fail "no 'relay killed by signal 9' in the log"; echo "$log" | tail -n 10 ;; esac
case "$log" in *"status=1/FAILURE"*) pass "parent exited non-zero" ;;
*) fail "parent did not exit with status 1" ;; esac
check "every session unit was stopped" wait_no_units 20
systemctl stop "$CLIENT_UNIT" 2>/dev/null
sup_stop

# SIGTERM: both processes end, exit status 0.
sup_start || { echo "FAIL: supervisor did not restart"; exit 1; }
mp=$(systemctl show -P MainPID "$SUP")
rp=$(relay_pid)
systemctl stop "$SUP"
check "SIGTERM: parent gone" sh -c "! kill -0 $mp 2>/dev/null"
check "SIGTERM: relay gone" sh -c "! kill -0 $rp 2>/dev/null"
check "SIGTERM: clean exit (Result=success)" test "$(systemctl show -P Result "$SUP")" = success
finish
