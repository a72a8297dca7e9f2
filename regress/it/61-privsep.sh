#!/bin/sh
# 61-privsep.sh: the two processes of the real supervisor service.  The
# relay runs unprivileged and sandboxed; killing it makes the parent stop
# every unit and exit non-zero; SIGTERM ends both cleanly.  The relay
# logs on its own journal stream (identifier opencode-pty-relay), and
# the supervisor executes no relay but the one it was built with.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
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
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -- /bin/sleep 60
wait_units "a session unit runs"
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

# The relay's lines are on its own stream: the stop above made it log
# "parent closed the channel".  Each identifier carries only its own
# process's lines, so no relay line can pass for a supervisor line.
# journald stamps each stream line with its writer's _PID.
journal_pid() {	# journal_pid PID [FIELD=VALUE]: MESSAGEs of that process
	journalctl _PID="$1" ${2:+"$2"} -o cat --no-pager
}
n=0
until journal_pid "$rp" | grep -q 'parent closed the channel'; do
	[ $n -gt 200 ] && break; sleep 0.1; n=$((n + 1))
done
rlog=$(journal_pid "$rp" SYSLOG_IDENTIFIER=opencode-pty-relay)
slog=$(journal_pid "$mp" SYSLOG_IDENTIFIER=opencode-pty-supervisor)
case "$rlog" in
*"relay: parent closed the channel"*)
	pass "relay line has SYSLOG_IDENTIFIER=opencode-pty-relay" ;;
*)	fail "no relay line under SYSLOG_IDENTIFIER=opencode-pty-relay"
	journalctl _PID="$rp" -o verbose --no-pager | tail -n 30
	journalctl -u "$SUP" -n 20 -o cat --no-pager ;;
esac
check "every line of the relay's pid is under its identifier" test \
    "$(journal_pid "$rp")" = "$rlog"
check "every opencode-pty-relay line is a relay line" \
    sh -c "! printf '%s\n' \"\$1\" | grep -v '^relay: '" sh "$rlog"
case "$slog" in
*"supervisor: ready on"*) pass "supervisor lines have their own identifier (positive control)" ;;
*) fail "no 'supervisor: ready on' under SYSLOG_IDENTIFIER=opencode-pty-supervisor" ;;
esac
# The auditor's query for the relay (SECURITY.md): by its uid, which only
# the relay runs as; it holds this run's "parent closed the channel".
ulog=$(journalctl _UID="$(id -u opencode-pty-relay)" -o cat --no-pager)
case "$ulog" in
*"relay: parent closed the channel"*)
	pass "journalctl _UID=<relay uid> finds the relay's lines" ;;
*)	fail "journalctl _UID=<relay uid> misses the relay's lines" ;;
esac
check "journalctl _UID=<relay uid> holds only relay lines" \
    sh -c "! printf '%s\n' \"\$1\" | grep -v '^relay: '" sh "$ulog"
check "no relay line under the supervisor's identifier" \
    sh -c "! journalctl SYSLOG_IDENTIFIER=opencode-pty-supervisor -o cat --no-pager | grep '^relay: '"

# The relay is bound to the supervisor: a relay whose bytes differ from
# the one it was built with is not executed.
RELAY=$LIBEXEC/opencode-pty-relay
cp -p "$RELAY" "$tmp/relay.good" || exit 1
restore_relay() { install -o root -g root -m 0755 "$tmp/relay.good" "$RELAY"; }
trap 'restore_relay; itlib_cleanup' EXIT
{ cat "$tmp/relay.good"; printf '\0'; } > "$tmp/relay.bad" || exit 1
install -o root -g root -m 0755 "$tmp/relay.bad" "$RELAY" || exit 1
since=$(date '+%Y-%m-%d %H:%M:%S')
sleep 1
systemctl reset-failed "$SUP" 2>/dev/null
check "a modified relay: the supervisor does not start" \
    sh -c "! systemctl start $SUP 2>/dev/null"
n=0
until journalctl -u "$SUP" --since "$since" -o cat --no-pager |
    grep -q 'relay binary does not match'; do
	[ $n -gt 50 ] && break; sleep 0.1; n=$((n + 1))
done
log=$(journalctl -u "$SUP" --since "$since" -o cat --no-pager)
case "$log" in
*"relay binary does not match the one this supervisor was built with"*)
	pass "journal says the relay binary does not match" ;;
*) fail "no 'relay binary does not match' line"; echo "$log" | tail -n 10 ;;
esac
systemctl stop "$SUP" 2>/dev/null
restore_relay
check "the built relay restored: the supervisor starts" sup_start
sup_stop
finish
