#!/bin/sh
# 82-terminals.sh: a session's terminal is its own (issue 25 item 2),
# against the real supervisor in the disposable systemd.  Two sessions
# run at once from one client (opty-nodesim/nodesim -P 2): the first to
# take the victim's role holds its terminal, the other attacks it and a
# terminal a byk service outside any session holds (script(1) on the
# host's devpts), by every path a command has: each /dev/pts/N it sees,
# the victim's instance on the host (/run/opencode-pty/pts/<id>/0), the
# victim's and the holder's /proc/<pid>/fd/0, and /proc/<pid>/root of
# PID 1.  Every attempt must fail and no byte may reach either terminal.
# Positive controls, outside the sessions: root writes to the victim's
# terminal by its host path and the bytes come out of the victim's
# stream; byk writes to the holder's terminal by its /dev/pts path and
# the holder's typescript has them.  Then what the session has instead:
# /dev/pts holds its own terminal and ptmx only, tty(1) names it, a
# nested terminal comes from the same instance, /dev/stdout reopens.
# Then the reuse of a slot's instance by its next session (parent/pts.c):
# it happens (the control); a terminal of the ended session held outside
# is hung up and the next session's terminal is another; a master held
# outside makes the slot take a new instance, and the supervisor says
# so.  Every instance is unmounted once the supervisor stops.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
PTS=/run/opencode-pty/pts
HOLDER=opty-terminals-holder.service
TS=/var/lib/opty-terminals.typescript
rm -rf "$WORK"/t82.* "$TS"

# --- a byk terminal outside any session ---------------------------------
systemctl reset-failed "$HOLDER" 2>/dev/null
# The typescript exists and is byk's before script(1) opens it: byk
# cannot create files in /var/lib, and a touch after systemd-run races
# script's open (lost once under load: the holder exited at once).
touch "$TS" && chown byk:byk "$TS"
systemd-run --quiet --unit="$HOLDER" -p User=byk -p Group=byk \
    -p ReadWritePaths=/var/lib -- \
    /usr/bin/script -qfc 'exec sleep 60' "$TS" > /dev/null 2>&1
hpid= hpts=
wait_for "the holder's terminal" sh -c \
    "pgrep -u byk -x sleep -P \$(systemctl show -P MainPID $HOLDER) \
    > $tmp/hpid"
hpid=$(cat "$tmp/hpid")
hpts=$(readlink "/proc/$hpid/fd/0")
case $hpts in
/dev/pts/[0-9]*) pass "a byk service outside holds $hpts (pid $hpid)" ;;
*) fail "the holder's terminal: '$hpts'" ;;
esac
# Control: byk outside the sessions reaches it by path.
runuser -u byk -- sh -c "printf 'CONTROL-BYK\n' > $hpts"
check "control: byk outside writes to $hpts" test $? = 0
wait_for "the control in the holder's typescript" grep -q CONTROL-BYK "$TS"

# --- two sessions: a victim and an attacker ------------------------------
cat > "$WORK/t82.sh" <<'SCRIPT'
cd "$HOME/work" || exit 9
if mkdir t82.victim 2>/dev/null; then
	sed -n 's|^0::.*/\(opencode-pty-[0-9a-f]*\)\.service$|\1|p' \
	    /proc/self/cgroup > t82.unit.tmp && mv t82.unit.tmp t82.unit
	echo $$ > t82.vpid
	echo "VICTIM-TTY $(tty)"
	while [ ! -e t82.done ]; do sleep 0.1; done
	echo VICTIM-END
	exit 0
fi
while [ ! -e t82.go ]; do sleep 0.1; done
read -r vinst vpid hpid hpts < t82.go
me=$(stat -L -c %d:%i /dev/stdin)
try() {	# try PATH: open for writing, write a marker
	if (printf 'INJECT %s\n' "$1" > "$1") 2>/dev/null; then
		echo "ATTEMPT $1: WROTE"
	else
		echo "ATTEMPT $1: refused"
	fi
}
for p in /dev/pts/[0-9]* "$hpts"; do
	[ -e "$p" ] && [ "$(stat -L -c %d:%i "$p")" = "$me" ] && continue
	try "$p"
done
for p in "$vinst/0" \
    "/proc/$vpid/fd/0" "/proc/$vpid/fd/1" "/proc/$hpid/fd/0" \
    "/proc/1/root$hpts" "/proc/1/root$vinst/0"; do
	try "$p"
done
echo "ATTACKER-PTS $(cd /dev/pts && echo *)"
echo "ATTACKER-TTY $(tty)"
echo "ATTACKER-NESTED $(script -qc tty /dev/null | tr -d '\r')"
echo "ATTACKER-STDOUT" > /dev/stdout && echo "ATTACKER-STDOUT-OK"
touch t82.done
SCRIPT
chown byk:byk "$WORK/t82.sh"
bg_client -P 2 -- /bin/sh "$WORK/t82.sh"
wait_for "the victim's unit name" test -s "$WORK/t82.unit"
hex=$(cat "$WORK/t82.unit")
vpid=$(cat "$WORK/t82.vpid")
# The victim's PID as the host sees it, for the /proc attempts.
hvpid=$(pgrep -f -x '/bin/sh /home/byk/work/t82.sh' | while read -r p; do
	grep -q "$hex" "/proc/$p/cgroup" && echo "$p"; done | head -n 1)
vinst=$(pts_instance "${hvpid:-$vpid}")
vpath=$vinst/0
check "the victim's terminal is its own instance on the host ($vpath)" \
    test -c "$vpath"
check "that instance is devpts, under $PTS" \
    sh -c "[ '${vinst%/*}' = '$PTS' ] && [ \"\$(stat -f -c %T '$vinst')\" = devpts ]"
check "$PTS is root's alone (0700)" \
    test "$(stat -c %U:%a "$PTS")" = root:700
# Control: root outside writes to the victim's terminal by that path.
printf 'CONTROL-ROOT\n' > "$vpath"
check "control: root writes to $vpath" test $? = 0
echo "$vinst ${hvpid:-$vpid} $hpid $hpts" > "$WORK/t82.go"
chown byk:byk "$WORK/t82.go"
n=0
while kill -0 "$bg" 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -0 "$bg" 2>/dev/null && { fail "the sessions did not end in 30 s"; kill "$bg"; }
bg_wait
grep -E '^(ATTEMPT|ATTACKER|VICTIM)' "$tmp/out" | sed 's/^/  /'

check "control: root's bytes came out of the victim's stream" \
    grep -q '^CONTROL-ROOT' "$tmp/out"
natt=$(grep -c '^ATTEMPT ' "$tmp/out")
check "the attacker made its attempts ($natt, at least 7)" test "$natt" -ge 7
check "no attempt opened a terminal for writing" \
    test "$(grep -c '^ATTEMPT .*: WROTE$' "$tmp/out")" = 0
check "no injected byte reached the victim's or the attacker's stream" \
    test "$(grep -c '^INJECT' "$tmp/out")" = 0
check "no injected byte reached the holder's terminal" \
    test "$(grep -c INJECT "$TS")" = 0
check "the attacker's /dev/pts: its terminal and ptmx only" \
    grep -qx 'ATTACKER-PTS 0 ptmx' "$tmp/out"
check "tty(1) names the session's terminal" grep -qx 'ATTACKER-TTY /dev/pts/0' "$tmp/out"
check "a nested terminal comes from the session's instance" \
    grep -qx 'ATTACKER-NESTED /dev/pts/1' "$tmp/out"
check "/dev/stdout reopens the terminal" grep -qx 'ATTACKER-STDOUT-OK' "$tmp/out"
check "the victim's tty(1) too" grep -qx 'VICTIM-TTY /dev/pts/0' "$tmp/out"
systemctl stop "$HOLDER"

# --- the instances kept for the slots' next sessions ---------------------
# A slot's instance serves its next session if nothing of the last one is
# left in it (parent/pts.c): no terminal entry, so no master open.
check "no session unit left" wait_no_units 20
kept=$(for d in "$PTS"/*; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" = devpts ] && echo "$d"; done)
check "the sessions' instances are kept while the supervisor runs ($(echo $kept))" \
    test -n "$kept"
left=$(for d in $kept; do ls -A "$d"; done | grep -vx ptmx)
check "no terminal is left in them ('$(echo $left)')" test -z "$left"

# next NAME: a session that says its PID, terminal and /dev/pts, then
# waits for t82.end.NAME; its instance on the host in $inst once it runs.
cat > "$WORK/t82.next" <<'SCRIPT'
cd "$HOME/work" || exit 9
echo "NEXT-TTY $(tty)"
echo "NEXT-PTS $(cd /dev/pts && echo *)"
echo $$ > "t82.pid.$1.tmp" && mv "t82.pid.$1.tmp" "t82.pid.$1"
while [ ! -e "t82.end.$1" ]; do sleep 0.1; done
SCRIPT
chown byk:byk "$WORK/t82.next"
next() {
	rm -f "$WORK/t82.pid.$1" "$WORK/t82.end.$1"
	bg_client -- /bin/sh "$WORK/t82.next" "$1"
	wait_for "session $1 runs" test -s "$WORK/t82.pid.$1"
	inst=$(pts_instance "$(cat "$WORK/t82.pid.$1")")
}
next_end() {
	touch "$WORK/t82.end.$1"
	bg_wait > /dev/null
	expect_exit 1 0 success "session $1 ends"
	wait_no_units 20
}

# Reuse, the control that it happens: the next session is served by one
# of the kept instances, holding its terminal 0 and ptmx only.
next reuse
check "the next session reuses a kept instance ($inst)" \
    sh -c "echo '$kept' | grep -qx '$inst'"
next_end reuse
check "its /dev/pts: its terminal and ptmx only" \
    grep -qx 'NEXT-PTS 0 ptmx' "$tmp/out"

# A terminal held outside past its session (root holds its slave): the
# master closed, its entry goes, the instance serves the next session,
# whose terminal is another; the held one is hung up and reaches nothing.
next held
held_inst=$inst
systemctl reset-failed opty-t82-slave.service 2>/dev/null
systemd-run --quiet --unit=opty-t82-slave.service -- \
    /bin/sh -c "exec 3<>'$inst/0'; exec sleep 60"
wait_for "root holds $inst/0" sh -c "readlink \
    /proc/\$(systemctl show -P MainPID opty-t82-slave.service)/fd/3 | grep -q '/0'"
hp=$(systemctl show -P MainPID opty-t82-slave.service)
printf 'CONTROL-HELD\n' > "/proc/$hp/fd/3"
next_end held
check "control: while its session ran, the held terminal reached it" \
    grep -q '^CONTROL-HELD' "$tmp/out"
next after
check "the next session reuses that instance ($inst)" test "$inst" = "$held_inst"
if printf 'INJECT-HELD\n' > "/proc/$hp/fd/3"; then
	fail "the held terminal of the ended session still takes bytes"
else
	pass "the held terminal of the ended session is hung up (write fails)"
fi
next_end after
systemctl stop opty-t82-slave.service
check "the next session's terminal is another: $(grep '^NEXT-TTY' "$tmp/out")" \
    grep -qx 'NEXT-TTY /dev/pts/1' "$tmp/out"
check "no byte of the held terminal reached it" \
    test "$(grep -c INJECT "$tmp/out")" = 0

# A master held outside past its session (root opens the instance's
# ptmx): the instance is not reused; the next session has a new one,
# holding its own terminal only, and the supervisor says why.
next master
master_inst=$inst
systemctl reset-failed opty-t82-master.service 2>/dev/null
systemd-run --quiet --unit=opty-t82-master.service -- \
    /bin/sh -c "exec 3<>'$inst/ptmx'; exec sleep 60"
wait_for "root holds a master of $inst" test -e "$inst/1"
next_end master
cur=$(jcursor)
next fresh
check "the next session has a new instance ($inst, not $master_inst)" \
    sh -c "[ -n '$inst' ] && [ '$inst' != '$master_inst' ]"
check "the supervisor said why" sh -c "journalctl --after-cursor '$cur' \
    -u '$SUP' -o cat --no-pager | grep -q '$master_inst still holds 1 terminal'"
next_end fresh
check "its /dev/pts: its terminal and ptmx only" \
    grep -qx 'NEXT-PTS 0 ptmx' "$tmp/out"
systemctl stop opty-t82-master.service

# --- nothing is left mounted once the supervisor stops --------------------
sup_stop
mounted() { grep -c " $PTS/" /proc/self/mountinfo; }
wait_for "every devpts instance unmounted" test "$(mounted)" = 0
check "no devpts mount unit left" test -z "$(systemctl list-units --all \
    --plain --no-legend 'run-opencode\x2dpty-pts-*' | awk '{ print $1 }')"
rm -rf "$WORK"/t82.* "$TS"
rmdir "$WORK/t82.victim" 2>/dev/null
finish
