#!/bin/sh
# 73-terminal.sh: the session's terminal as the Node service sees it,
# against the real supervisor in the disposable systemd:
# the PTY the root parent makes (size, owner, who holds its ends), the
# command as the unit's main process with its own exit status, RESIZE
# and SIGNAL frames from a client (valid, invalid, before and after the
# start), and a supervisor stop that tells a live client ERR_SHUTDOWN
# after its output.  Forged frames come from opty-nodesim -R/-S (FORGED
# client frames, written raw on the real connection).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
out() { cat "$tmp/out"; }

# --- the window size --------------------------------------------------
client -- /bin/stty size
expect_exit 1 0 success "stty size runs"
check "no resize: the terminal is 24x80 ($(out))" test "$(out)" = "24 80"
client -W 50x132 -- /bin/stty size
check "client helper -s 50x132: the first size ($(out))" \
    test "$(out)" = "50 132"
client -R ^30x100 -R ^40x120 -- /bin/stty size
check "two resizes before the start: the last one wins ($(out))" \
    test "$(out)" = "40 120"
client -R ^1x1 -- /bin/stty size
check "the smallest size, 1x1 ($(out))" test "$(out)" = "1 1"
client -R ^4096x4096 -- /bin/stty size
check "the largest size, 4096x4096 ($(out))" test "$(out)" = "4096 4096"
# After the start: the kernel sends SIGWINCH to the foreground group.
client -O -R 33x99 -- /bin/sh -c \
    'trap "stty size; exit 0" WINCH; echo ready; while :; do sleep 0.05; done'
expect_exit 1 0 success "resize after the start: the command's WINCH trap ran"
check "resize after the start: SIGWINCH and the new size ($(out | tr '\n' ' '))" \
    test "$(out | tail -n 1)" = "33 99"

# Invalid sizes: ERR_PROTOCOL (1), before or after the start, no unit.
for r in ^0x80 ^80x0 ^4097x80 ^80x4097 ^65535x65535 ^hex:0018 \
    ^hex:0018005000 0x80 hex:00; do
	client -O -R "$r" -- /bin/sh -c 'echo ready; sleep 5'
	expect_error 1 "resize '$r' refused with ERR_PROTOCOL"
done
check "no unit left after the refused resizes" wait_no_units 20

# --- the terminal itself -----------------------------------------------
client -- /bin/sh -c 'stat -c "%U:%G:%a" "$(tty)"; grep PPid /proc/$$/status'
owner=$(out | sed -n 1p)
case $owner in
# systemd 257 sets a service's terminal to 0600 when it sets it up.
byk:tty:620|byk:tty:600) pass "the terminal is byk:tty ($owner)" ;;
*) fail "the terminal's owner and mode: '$owner'" ;;
esac
check "the command is the unit's main process (its parent is PID 1)" \
    grep -Eq '^PPid:[[:space:]]+1$' "$tmp/out"
client -- /bin/sh -c 'stty -a | tr " " "\n" | grep -x -e iutf8 -e imaxbel'
check "IUTF8 and IMAXBEL are set, as systemd and node-pty set them" \
    test "$(out | tr '\n' ' ')" = "imaxbel iutf8 "

# While a session runs: the parent holds no end of any terminal, the
# relay holds the master (the positive control of the same probe).
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -- /bin/sleep 3
n=0
while [ -z "$(pty_units)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
sleep 0.5
mp=$(systemctl show -P MainPID "$SUP")
rp=$(pgrep -P "$mp" | head -n 1)
# A session's terminals are in its own devpts instance (82-terminals.sh).
ptys() {
	find "/proc/$1/fd" \( -lname '/dev/pt*' -o \
	    -lname '/run/opencode-pty/pts/*' \) 2>/dev/null | wc -l
}
check "the parent holds no terminal descriptor ($(ptys "$mp"))" \
    test "$(ptys "$mp")" = 0
check "the relay holds the session's master ($(ptys "$rp"))" \
    test "$(ptys "$rp")" -ge 1
unit=$(pty_units | head -n 1)
main=$(systemctl show -P MainPID "$unit")
check "the unit's main process is the command (sleep, no script)" \
    test "$(readlink "/proc/$main/exe")" = "$(readlink -f /bin/sleep)"
check "one process in the session unit" test "$(systemctl show -P \
    ControlGroup "$unit" | xargs -I{} cat "/sys/fs/cgroup{}/cgroup.procs" |
    wc -l)" = 1
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 100 ]; do
	sleep 0.1; n=$((n + 1))
done
check "the session ended and its unit is gone" wait_no_units 20

# --- signals -----------------------------------------------------------
# systemd counts HUP, INT, TERM and PIPE as a clean end of a service.
client -O -S 2 -- /bin/sh -c 'echo ready; exec sleep 60'
expect_exit 2 2 success "SIGNAL INT: killed by signal 2"
client -O -S 15 -- /bin/sh -c 'echo ready; exec sleep 60'
expect_exit 2 15 success "SIGNAL TERM: killed by signal 15"
client -O -S 9 -- /bin/sh -c 'echo ready; exec sleep 60'
expect_exit 2 9 signal "SIGNAL KILL: killed by signal 9"
client -O -S 1 -- /bin/sh -c 'echo ready; exec sleep 60'
expect_exit 2 1 success "SIGNAL HUP: killed by signal 1"
client -O -S 10 -- /bin/sh -c \
    'trap "echo got-usr1; exit 5" USR1; echo ready; while :; do sleep 0.05; done'
expect_exit 1 5 exit-code "SIGNAL USR1: the command's handler ran"
check "SIGNAL USR1: its output" test "$(out | tail -n 1)" = got-usr1
# STOP then CONT, in that order: a CONT lost or overtaken would leave
# the command stopped (the session would time out); its handler shows
# that CONT itself arrived.
client -O -S 19 -S 18 -- /bin/sh -c \
    'trap "echo got-cont" CONT; echo ready; sleep 1; echo went-on'
expect_exit 1 0 success "SIGNAL STOP then CONT: the command went on"
check "STOP/CONT: CONT reached the command, which went on" \
    test "$(out | grep -v ready | tr '\n' ' ')" = "got-cont went-on "
# Only the main process: a child with its own USR1 handler is not sent
# the signal.  Control: the same child's handler runs when the command
# itself signals it, so a silent child is not a broken probe.
client -- /bin/sh -c '(trap "echo child-usr1; exit 0" USR1
    while :; do sleep 0.05; done) & c=$!; sleep 0.3; kill -USR1 $c; wait $c'
check "control: the child's USR1 handler works" grep -qx child-usr1 "$tmp/out"
client -O -S 10 -- /bin/sh -c 'trap "echo main-usr1; exit 5" USR1
    (trap "echo child-usr1" USR1; while :; do sleep 0.05; done) &
    echo ready; while :; do sleep 0.05; done'
expect_exit 1 5 exit-code "SIGNAL USR1 with a child: the main process got it"
check "SIGNAL USR1 did not reach the command's child" \
    sh -c "grep -qx main-usr1 '$tmp/out' && ! grep -q child-usr1 '$tmp/out'"
# Sent before the unit runs: held until it does.
client -S 15 -- /bin/sh -c 'exec sleep 60'
expect_exit 2 15 success "a SIGNAL right after the start waits for the unit"
# Sixteen at once: the queue bounds them, the session lives on.
client -O -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 \
    -S 18 -S 18 -S 18 -S 18 -S 18 -S 18 -- /bin/sh -c \
    'echo ready; sleep 1; echo alive'
expect_exit 1 0 success "sixteen CONT signals: the session is unharmed"
check "sixteen signals: output after them" test "$(out | tail -n 1)" = alive

# Invalid signals: outside the set, empty, long; before the start.
for sg in 11 0 31 32 255 hex: hex:0202; do
	client -O -S "$sg" -- /bin/sh -c 'echo ready; sleep 5'
	expect_error 1 "signal '$sg' refused with ERR_PROTOCOL"
done
client -S ^2 -- /bin/true
expect_error 2 "a SIGNAL before the start: ERR_UNEXPECTED"
check "no unit left after the refused signals" wait_no_units 20
check "the supervisor still runs after every refusal" \
    systemctl is-active -q "$SUP"

# --- a terminal held open outside the unit cannot keep the exit back ---
# A process outside the session opens the session's terminal by path
# and keeps it open: the master then never reads EIO.  The exit frame
# must still come, after every byte the command wrote; the holder still
# holding the terminal at that moment is the control that it really did.
# Only root reaches the session's instance on the host (82-terminals.sh
# shows byk cannot), so the holder is a root service.
HOLDER=opty-pts-holder.service
rm -f "$WORK/opty-pid" "$WORK/opty-held"
bg_client -- /bin/sh -c 'echo $$ > opty-pid.tmp && mv opty-pid.tmp opty-pid
	echo first-line
	while [ ! -e opty-held ]; do sleep 0.1; done; echo last-line'
n=0
while [ ! -s "$WORK/opty-pid" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
pts=$(pts_instance "$(cat "$WORK/opty-pid" 2>/dev/null)")/0
systemctl reset-failed "$HOLDER" 2>/dev/null
systemd-run --quiet --unit="$HOLDER" -- \
    /bin/sh -c "exec 3<>'$pts'; exec sleep 60"
hp=$(systemctl show -P MainPID "$HOLDER")
n=0
while [ "$(readlink "/proc/$hp/fd/3" 2>/dev/null)" != "$pts" ] &&
    [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check "a process outside the unit holds the session's $pts" \
    test "$(readlink "/proc/$hp/fd/3" 2>/dev/null)" = "$pts"
touch "$WORK/opty-held"
n=0
while kill -0 "$bg" 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 "$bg" 2>/dev/null; then
	fail "the exit frame did not come within 30 s while $pts is held"
	kill "$bg"
fi
bg_wait
expect_exit 1 0 success "the exit frame came while $pts was held outside"
check "every line came before it" \
    test "$(tr '\n' ' ' < "$tmp/out")" = "first-line last-line "
# The relay closed the master: the node is gone, the holder's file not
# (named from its instance's root once the instance is lazily unmounted).
held=$(readlink "/proc/$hp/fd/3" 2>/dev/null)
check "the holder still held $pts then (control: $held)" \
    test "$held" = "$pts (deleted)" -o "$held" = "/0 (deleted)" ||
    { ls -l "/proc/$hp/fd/"; systemctl status --no-pager "$HOLDER"; } 2>&1 |
    sed 's/^/  /'
systemctl stop "$HOLDER"
rm -f "$WORK/opty-pid" "$WORK/opty-held"

# --- a supervisor stop tells a live client ------------------------------
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
# append: the drop-in's ExecCondition= writes to the same files first.
rm -f "$tmp/sd.out" "$tmp/sd.err"
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -p StandardOutput="append:$tmp/sd.out" \
    -p StandardError="append:$tmp/sd.err" -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -- \
    /bin/sh -c 'echo before-stop; exec sleep 60'
wait_units "the session runs"
sleep 1
systemctl stop "$SUP"
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 100 ]; do
	sleep 0.1; n=$((n + 1))
done
check "on stop the client got ERR_SHUTDOWN (15) ($(tail -n 1 "$tmp/sd.err"))" \
    grep -q '^opty-nodesim: error code=15 ' "$tmp/sd.err"
check "its output came first, intact" test \
    "$(tr -d '\r' < "$tmp/sd.out" | tail -n 1)" = before-stop
check "the relay logged that every client was told" sh -c \
    "journalctl -u '$SUP' -o cat --no-pager | grep -q 'every client told'"
check "no session unit left after the stop" wait_no_units 20
systemctl reset-failed "$SUP" 2>/dev/null
finish
