#!/bin/sh
# 74-protocol.sh: what docs/PROTOCOL.md promises about the session's edges,
# through the real path (real Node as the Node service, opty-nodesim for
# the forged frames; the real opencode-pty-client, the installed
# supervisor, its unit): which frame
# out of turn is ERR_UNEXPECTED and which ERR_PROTOCOL; the 10 s wait for
# the start frame; the largest start frame (65,536 bytes, gate 8); an
# operator's stop of a session's unit (the parent's reference keeps its
# end readable); ERR_AUTH_CHANGED for a client service
# restarted between connect and start; the command sees none of the
# client helper's descriptors; and gate 9's cleanup (no unit, no cgroup,
# no descriptor left in the supervisor) after a start failure, the start
# timeout and a SIGKILL of the command.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

L=$LIBEXEC/opencode-pty-launcher
CG=/sys/fs/cgroup/opencode.slice/opencode-pty.slice
trap 'chmod 0755 "$L"; systemctl kill -s KILL "$CLIENT_UNIT" 2>/dev/null;
    itlib_cleanup' EXIT

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
started() { journalctl -u "$SUP" -o cat --no-pager | grep -c 'started for client'; }

# wait_file FILE [SECONDS]: true once FILE exists.
wait_file() {
	n=$(( ${2:-10} * 20 ))
	while [ $n -gt 0 ]; do
		[ -e "$1" ] && return 0
		sleep 0.05; n=$((n - 1))
	done
	return 1
}

# The supervisor's two processes and how many descriptors each holds.
sup_pids() {
	ppid=$(systemctl show -P MainPID "$SUP")
	rpid=$(pgrep -P "$ppid" | head -n 1)
}
fd_count() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
# clean WHAT: gate 9 after WHAT: no session unit, no session cgroup, the
# parent and the relay back to the descriptors they held before.
clean() {
	check "$1: no session unit is left" wait_no_units 20
	left=$(find "$CG" -mindepth 1 -maxdepth 1 -name 'opencode-pty-*' \
	    2>/dev/null)
	check "$1: no session cgroup is left${left:+ ($left)}" test -z "$left"
	n=0
	while [ $n -lt 50 ]; do
		[ "$(fd_count "$ppid")" = "$pfd0" ] &&
		    [ "$(fd_count "$rpid")" = "$rfd0" ] && break
		sleep 0.1; n=$((n + 1))
	done
	check "$1: the parent holds $pfd0 descriptors as before ($(fd_count "$ppid"))" \
	    test "$(fd_count "$ppid")" = "$pfd0"
	check "$1: the relay holds $rfd0 descriptors as before ($(fd_count "$rpid"))" \
	    test "$(fd_count "$rpid")" = "$rfd0"
}

# A first session, so that whatever the parent opens once is open.
client -- /bin/true
expect_exit 1 0 success "a first session"
wait_no_units 20
sup_pids
pfd0=$(fd_count "$ppid")
rfd0=$(fd_count "$rpid")
check "the supervisor's parent ($ppid) and relay ($rpid) are found" \
    test -n "$rpid" -a "$pfd0" -gt 0 -a "$rfd0" -gt 0

# --- ERR_UNEXPECTED and ERR_PROTOCOL -------------------------------------
# A frame's type is judged on its header.  Before the start frame, a
# frame that is only valid later (input, signal) or that only the relay
# sends (output, exit, error) is ERR_UNEXPECTED; a type no frame has is
# ERR_PROTOCOL.  After the start frame, a second start or a
# relay-to-client type is ERR_PROTOCOL.  A '^' frame goes before the
# client helper runs.
n0=$(started)
for f in 2:hex:6869 3:hex:6869 4:hex: 5:hex: ; do
	client -X "^$f" -- /bin/true
	expect_error 2 "type ${f%%:*} before the start frame: ERR_UNEXPECTED"
done
client -S ^2 -- /bin/true
expect_error 2 "a signal frame before the start frame: ERR_UNEXPECTED"
for f in 0:hex: 8:hex: 255:hex:; do
	client -X "^$f" -- /bin/true
	expect_error 1 "type ${f%%:*} (no such type) before the start: ERR_PROTOCOL"
done
# One byte over the start frame's cap: refused on its header alone.
client -X ^1:len:65537 -- /bin/true
expect_error 1 "a start frame header claiming 65,537 bytes: ERR_PROTOCOL"
check "no unit was started for any of them" test "$(started)" = "$n0"
# Control: a resize before the start is welcome.
client -R ^30x100 -- /bin/stty size
expect_exit 1 0 success "control: a resize frame before the start"
check "control: the resize before the start took effect" \
    test "$(cat "$tmp/out")" = "30 100"

client -O -X 1:hex:00 -- /bin/sh -c 'echo ready; exec sleep 20'
expect_error 1 "a second start frame: ERR_PROTOCOL"
for f in 3:hex:6869 4:hex: 5:hex:; do
	client -O -X "$f" -- /bin/sh -c 'echo ready; exec sleep 20'
	expect_error 1 "type ${f%%:*} after the start frame: ERR_PROTOCOL"
done
client -O -X 8:hex: -- /bin/sh -c 'echo ready; exec sleep 20'
expect_error 1 "type 8 (no such type) after the start: ERR_PROTOCOL"
# Control: input after the start is welcome.
client -O -X 2:hex:6869 -- /bin/sh -c 'echo ready; exec sleep 1'
expect_exit 1 0 success "control: an input frame after the start"
clean "refused frames"

# --- the wait for the start frame: 10 s from admission -----------------
# The client connects (admitted at once) and holds its start frame back
# until $tmp/late exists; the relay gives up after 10 s.
rm -f "$tmp/late"
cur=$(jcursor)
n0=$(started)
t0=$(date +%s%N)
bg_client -w "$tmp/late" -- /bin/true
n=0
until journalctl -u "$SUP" --after-cursor "$cur" -o cat --no-pager |
    grep -q 'no start frame within 10 s'; do
	[ $n -gt 300 ] && break; sleep 0.1; n=$((n + 1))
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "the relay gave up waiting for the start frame after ${ms} ms" \
    test "$ms" -ge 9500 -a "$ms" -lt 14000
: > "$tmp/late"
bg_wait
expect_error 1 "no start frame within 10 s: ERR_PROTOCOL"
check "the start timeout started no unit" test "$(started)" = "$n0"
clean "the start timeout"

# --- the largest start frame: 65,536 bytes of payload (gate 8) ---------
# payload = 22 + for each argument 2 + its length.  /bin/sh -c S sh,
# then arguments of 4096 bytes and one that makes up the rest.
S='printf "%s\n" "$@" | sha256sum; echo $#'
set -- /bin/sh -c "$S" sh
rest=$((65536 - 22 - (2 + 7) - (2 + 2) - (2 + ${#S}) - (2 + 2)))
a4096=$(head -c 4096 /dev/zero | tr '\0' x)
while [ $rest -ge $((2 + 4096 + 2)) ]; do
	set -- "$@" "$a4096"
	rest=$((rest - 4098))
done
set -- "$@" "$(head -c $((rest - 2)) /dev/zero | tr '\0' y)"
sum=0
for a; do sum=$((sum + 2 + ${#a})); done
check "test: the arguments make a payload of exactly 65,536 bytes ($((22 + sum)))" \
    test $((22 + sum)) = 65536
shift 4
want=$(printf '%s\n' "$@" | sha256sum)
client -- /bin/sh -c "$S" sh "$@"
expect_exit 1 0 success "a 65,536-byte start frame"
check "every argument of the largest start frame arrives ($# arguments)" \
    test "$(cat "$tmp/out")" = "$want
$#"

# --- the command sees none of the client helper's descriptors -----------
# The helper's fds 3 (the connection) and 4 (the directory) are
# close-on-exec and never leave it; the command, in the unit, has the
# terminal on 0-2 and nothing else.
# ls, a child of the shell, lists the shell's descriptors: a glob or a
# command substitution would show its own.
client -- /bin/sh -c 'ls -l /proc/$$/fd'
expect_exit 1 0 success "the command lists its descriptors"
sed -n 's/.* \([0-9][0-9]*\) -> \(.*\)$/\1 \2/p' "$tmp/out" > "$tmp/fds"
check "the command has fds 0, 1, 2 only, all the terminal ($(tr '\n' ' ' < "$tmp/fds"))" \
    sh -c "test \"\$(cut -d' ' -f1 '$tmp/fds' | tr '\n' ' ')\" = '0 1 2 ' &&
    test \"\$(grep -Ec '^[012] /dev/pts/[0-9]+\$' '$tmp/fds')\" = 3"
check "no socket and no directory among them" \
    sh -c "! grep -Eq 'socket:|$WORK' '$tmp/fds'"

# --- an operator's stop: the unit's end stays readable -------------------
# An operator stops the session's unit while the parent is held (SIGSTOP,
# the way a loaded machine may not schedule it).  The unit was started
# with AddRef=yes: PID 1 keeps it, inactive and loaded, until the parent
# has read how the command ended and let go (CollectMode=
# inactive-or-failed would collect it at once otherwise).  The exit frame
# then reports that end, the command killed by the stop's SIGTERM, not
# the result `gone` of a unit nobody can read any more; and the unit is
# removed after all.
g="$tmp/g"
mkdir "$g" && chown byk: "$g"
bg_client -d "$g" -- /bin/sh -c ': > started; exec sleep 60'
check "the session runs" wait_file "$g/started"
unit=$(pty_units | head -n 1)
kill -STOP "$ppid"
systemctl stop "$unit"
sleep 1
st=
for p in LoadState ActiveState ExecMainCode ExecMainStatus; do
	st="$st$(systemctl show -P "$p" "$unit") "
done
check "stopped while the parent is held, the unit stays loaded ($st)" \
    test "$st" = "loaded inactive 2 15 "
kill -CONT "$ppid"
bg_wait
expect_exit 2 15 success "the exit frame reports the stop's SIGTERM"
clean "an operator's stop"

# --- gate 9: a start failure ---------------------------------------------
# The launcher cannot be executed (an operator's mistake): systemd fails
# the unit's start job with 203/EXEC; the session ends with that exit
# frame, never a hang, and nothing is left.
chmod 0644 "$L"
client -- /bin/true
chmod 0755 "$L"
expect_exit 1 203 exit-code "the launcher not executable: exit frame 203/EXEC"
clean "a start failure"

# --- gate 9: SIGKILL of the command from outside -------------------------
k="$tmp/k"
mkdir "$k" && chown byk: "$k"
bg_client -d "$k" -- /bin/sh -c ': > started; exec sleep 60'
check "the session runs" wait_file "$k/started"
unit=$(pty_units | head -n 1)
kill -KILL "$(systemctl show -P MainPID "$unit")"
bg_wait
expect_exit 2 9 signal "the command killed by SIGKILL from outside"
clean "a SIGKILL of the command"

# --- ERR_AUTH_CHANGED: the client service restarted between connect and
# start.  The process that connected survives the restart (KillMode=none)
# and becomes the MainPID of the new invocation again (MAINPID=, from
# inside the service's cgroup): the same pid, another InvocationID.
cat > "$tmp/chg.sh" <<EOF
if [ -e "$WORK/.chg" ]; then
	exec systemd-notify --ready --pid="\$(cat "$tmp/chg.pid")"
fi
: > "$WORK/.chg"
systemd-notify --ready
exec "$NODESIM" -d "$WORK" -w "$tmp/chg.go" -- /bin/true
EOF
rm -f "$WORK/.chg" "$tmp/chg.go" "$tmp/chg.pid"
n0=$(started)
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=notify -p NotifyAccess=all \
    -p KillMode=none -p User=byk -p Group=byk \
    -p StandardError="file:$tmp/chg.err" /bin/sh "$tmp/chg.sh"
a=$(systemctl show -P MainPID "$CLIENT_UNIT")
inv1=$(systemctl show -P InvocationID "$CLIENT_UNIT")
check "the client connected and holds its directory" sh -c \
    "n=0; until ls -l /proc/$a/fd 2>/dev/null | grep -q ' -> $WORK\$'; do
    [ \$n -gt 100 ] && exit 1; sleep 0.05; n=\$((n + 1)); done"
sleep 1		# admission: one read of systemd
echo "$a" > "$tmp/chg.pid"
systemctl restart "$CLIENT_UNIT"
inv2=$(systemctl show -P InvocationID "$CLIENT_UNIT")
check "the restarted service has pid $a as MainPID again" \
    test "$(systemctl show -P MainPID "$CLIENT_UNIT")" = "$a"
check "... in a new invocation" test -n "$inv2" -a "$inv1" != "$inv2"
check "... active/running" test "$(systemctl show -P SubState "$CLIENT_UNIT")" = running
: > "$tmp/chg.go"
n=0
until grep -q '^opty-nodesim: ' "$tmp/chg.err" 2>/dev/null; do
	[ $n -gt 100 ] && break; sleep 0.1; n=$((n + 1))
done
grep '^opty-nodesim:' "$tmp/chg.err" | tail -n 1 > "$tmp/last"
rc=-
expect_error 8 "client service restarted between connect and start: ERR_AUTH_CHANGED"
check "no unit was started for it" test "$(started)" = "$n0"
systemctl kill -s KILL "$CLIENT_UNIT" 2>/dev/null
systemctl stop "$CLIENT_UNIT" 2>/dev/null
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
rm -f "$WORK/.chg"

# The supervisor still serves.
client -- /bin/echo still-serving
expect_exit 1 0 success "a valid session after all of it"
clean "the whole script"
sup_stop
finish
