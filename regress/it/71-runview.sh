#!/bin/sh
# 71-runview.sh: the session unit's view of /run and the supervisor's
# start-up feature checks, against the real
# supervisor in the disposable systemd.  A real session unit has the
# private /run properties as PID 1 shows them and PrivatePIDs= exactly
# where PID 1 knows it; ordinary commands still work in it; its /run
# holds only the allowlist; what a user shares between its processes
# (/tmp, /var/tmp, /dev/shm, IPC, the cgroup tree, /proc, user
# namespaces, core files) is the session's own, against a positive
# control outside; the supervisor logs the Landlock ABI, systemd's
# version and the Landlock scoping, and refuses to start when Landlock is refused to
# it.  The probes that try to reach the buses and Docker from a session
# are the attacker table's (70-session and later scripts).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

dropin=/run/systemd/system/$SUP.d
cleanup71() {
	rm -rf "$dropin"
	systemctl daemon-reload
	itlib_cleanup
}
trap cleanup71 EXIT

# The supervisor's journal lines of its current invocation, in
# $tmp/sup.log, once journald has them up to the "ready" line (it reads
# the stream on its own time, after systemctl start has returned).
sup_log() {
	inv=$(systemctl show -P InvocationID "$SUP")
	n=0
	while :; do
		journalctl -q --no-pager -o cat _SYSTEMD_INVOCATION_ID="$inv" \
		    > "$tmp/sup.log"
		grep -q '^supervisor: ready on ' "$tmp/sup.log" && return 0
		[ $n -ge 100 ] && return 1
		sleep 0.1; n=$((n + 1))
	done
}

# --- start-up: the Landlock ABI, systemd's version and scoping logged -
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
sup_log || fail "no 'ready on' line in the supervisor's journal"
check "start-up logs the Landlock ABI ($(grep -o 'Landlock ABI [0-9]*' \
    "$tmp/sup.log"))" grep -Eq '^supervisor: Landlock ABI [1-9][0-9]*: ' \
    "$tmp/sup.log"
# What PID 1 itself says its version is, asked independently.
ver=$(busctl get-property org.freedesktop.systemd1 /org/freedesktop/systemd1 \
    org.freedesktop.systemd1.Manager Version | sed -n 's/^s "\(.*\)"$/\1/p')
[ -n "$ver" ] || fail "busctl: no Manager.Version"
check "start-up logs systemd $ver and the Landlock scoping" grep -Fq \
    "supervisor: systemd $ver; Landlock signal and abstract socket scoping " \
    "$tmp/sup.log" || sed 's/^/  /' "$tmp/sup.log"

# --- a real session unit's properties, read while it runs --------------
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -t 30 -- /bin/sleep 8
# 8 s: some thirty reads below, on a host that may be busy.
n=0
while [ -z "$(pty_units)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
unit=$(pty_units | head -n 1)
check "a strictly named unit appeared ($unit)" test -n "$unit"
want() {	# want PROPERTY VALUE
	got=$(systemctl show -P "$1" "$unit")
	if [ "$got" = "$2" ]; then pass "property $1=$2"
	else fail "property $1: got '$got', want '$2'"; fi
}
want TemporaryFileSystem '/run:ro,nosuid,noexec '\
'/run/lock:mode=1777,size=5m,nosuid,noexec /dev/shm:mode=1777,nosuid,nodev'
b=
for p in /run/systemd/resolve /run/resolvconf; do
	b="$b${b:+ }-$p:$p"
done
want BindReadOnlyPaths "$b"
# Its lines go to a journald instance of their own (issue 25 item 8).
want LogNamespace opencode-pty
want InaccessiblePaths '-/run/dbus -/run/user'
# PrivatePIDs= is never set: "no" where PID 1 knows the setting at all
# (asked of the supervisor's own unit), nothing where it does not.
if busctl get-property org.freedesktop.systemd1 \
    /org/freedesktop/systemd1/unit/opencode_2dpty_2dsupervisor_2eservice \
    org.freedesktop.systemd1.Service PrivatePIDs >/dev/null 2>&1; then
	want PrivatePIDs no
else
	want PrivatePIDs ''
fi
# What a user shares between its processes (issue 25 item 4).
for p in PrivateTmp PrivateIPC ProtectControlGroups ProtectKernelTunables \
    ProtectKernelModules ProtectKernelLogs ProtectClock ProtectHostname \
    LockPersonality RestrictSUIDSGID RestrictRealtime; do
	want $p yes
done
want RestrictNamespaces yes
want LimitCORE 0
want LimitCORESoft 0
want SystemCallArchitectures native
want ProtectProc ptraceable
# A property PID 1 does not know fails the whole start, with an error
# that names it (the parent logs that text): a session never starts
# without one of the above.  The same call without it starts.
tu=opty-runview-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n').service
tcall() {
	busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 \
	    org.freedesktop.systemd1.Manager StartTransientUnit \
	    'ssa(sv)a(sa(sv))' "$tu" fail "$@" 0
}
if tcall 2 ExecStart 'a(sasb)' 1 /bin/true 1 /bin/true false \
    OptyNoSuchProperty b true > "$tmp/tu.out" 2>&1; then
	fail "PID 1 started a unit with an unknown property"
else
	check "PID 1 refuses an unknown property, naming it" grep -q \
	    'OptyNoSuchProperty' "$tmp/tu.out" || sed 's/^/  /' "$tmp/tu.out"
fi
check "the same call without it starts the unit" \
    tcall 1 ExecStart 'a(sasb)' 1 /bin/true 1 /bin/true false
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 200 ]; do
	sleep 0.1; n=$((n + 1))
done
check "the session ended and its unit is gone" wait_no_units 20

# --- ordinary commands work in a session ------------------------------
client -- /bin/sh -c 'id; ls /; getent hosts localhost'
expect_exit 1 0 success "sh -c 'id; ls /; getent hosts localhost' exits 0"
# The session's journal record says what its Landlock domain held: the
# same words as the start-up line.
ll=$(journalctl -u "$SUP" -o verbose --no-pager |
    sed -n 's/^ *OPTY_LANDLOCK=//p' | tail -n 1)
check "the session's record has OPTY_LANDLOCK='$ll'" \
    grep -qxF "supervisor: $ll" "$tmp/sup.log"
check "id: byk" grep -q '^uid=[0-9]*(byk) gid=[0-9]*(byk)' "$tmp/out"
check "ls /: usr and etc listed" sh -c \
    "grep -qw usr '$tmp/out' && grep -qw etc '$tmp/out'"
check "getent hosts localhost resolves" grep -Eq \
    '^(127\.0\.0\.1|::1)[[:space:]]+localhost' "$tmp/out" ||
    sed 's/^/  /' "$tmp/out"

client -- /usr/bin/python3 -c 'import os, socket; print(len(os.listdir("/")) > 0, socket.gethostname() != "")'
expect_exit 1 0 success "python3 runs in a session"
check "python3 printed its answer" grep -qx 'True True' "$tmp/out"

# --- what a user shares, made the session's own (issue 25 item 4) -----
# One probe, run in a session and, as the positive control, by a byk
# process outside any session (runuser): the host's byk objects planted
# below must be seen by the control and not by the session.
tag=opty-rv-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')
for d in /tmp /var/tmp /dev/shm; do runuser -u byk -- touch "$d/$tag"; done
shmid=$(runuser -u byk -- ipcmk -M 4096 | sed -n 's/^Shared memory id: //p')
qid=$(runuser -u byk -- ipcmk -Q | sed -n 's/^Message queue id: //p')
probe='t=$0
echo "tmp:$(ls -A /tmp | tr "\n" " ")"
echo "vartmp:$(ls -A /var/tmp | tr "\n" " ")"
echo "shm:$(ls -A /dev/shm | tr "\n" " ")"
for d in /tmp /var/tmp /dev/shm; do test -e "$d/$t" && echo "seen:$d"; done
echo "ipcs-m:$(ipcs -m | grep -c "^0x")"
echo "ipcs-q:$(ipcs -q | grep -c "^0x")"
echo "cgroupfs:$(findmnt -no OPTIONS /sys/fs/cgroup | cut -d, -f1)"
echo "core:$(sed -n "s/^Max core file size  *\([^ ]*\)  *\([^ ]*\) .*/\1 \2/p" /proc/self/limits)"
if unshare -U true 2>/dev/null; then echo userns:yes; else echo userns:no; fi
echo "pid1:$(test -e /proc/1 && echo seen)"
for p in /proc/[0-9]*; do grep "^0::" "$p/cgroup" 2>/dev/null; done |
    sort -u | sed "s/^/cg:/"
echo "self:$(grep "^0::" /proc/self/cgroup)"
if tty -s; then
	echo "tty:$(tty)"
	echo "nested:$(script -qec tty /dev/null | tr -d "\r")"
	: < /dev/tty && echo devtty:ok
fi'
client -- /bin/sh -c "$probe" "$tag"
expect_exit 1 0 success "the probe ran in a session"
cp "$tmp/out" "$tmp/in.out"
runuser -u byk -- /bin/sh -c "$probe" "$tag" < /dev/null > "$tmp/ctl.out" 2>&1
for d in /tmp /var/tmp /dev/shm; do rm -f "$d/$tag"; done
[ -n "$shmid" ] && ipcrm -m "$shmid"
[ -n "$qid" ] && ipcrm -q "$qid"
# pair WHAT SESSION-RE CONTROL-RE: a line of the session's output matches
# the first, one of a byk process's outside matches the second (the
# probe works, and the host has what the session must not see).
pair() {
	if ! grep -Eqx -- "$3" "$tmp/ctl.out"; then
		fail "$1: the control outside a session has no line '$3'"
		sed 's/^/  ctl: /' "$tmp/ctl.out"
	elif grep -Eqx -- "$2" "$tmp/in.out"; then
		pass "$1 (outside: $(grep -Ex -- "$3" "$tmp/ctl.out" |
		    head -n 1))"
	else
		fail "$1: the session has no line '$2'"
		sed 's/^/  in: /' "$tmp/in.out"
	fi
}
check "the control made a SysV segment and queue ($shmid, $qid)" \
    test -n "$shmid" -a -n "$qid"
pair "/tmp is the session's own and empty" "tmp:" "seen:/tmp"
pair "/var/tmp is the session's own and empty" "vartmp:" "seen:/var/tmp"
pair "/dev/shm is the session's own and empty" "shm:" "seen:/dev/shm"
check "no host file in the session's /tmp, /var/tmp or /dev/shm" \
    sh -c "! grep '^seen:' '$tmp/in.out'"
pair "ipcs -m in a session: no SysV segment" "ipcs-m:0" "ipcs-m:[1-9][0-9]*"
pair "ipcs -q in a session: no SysV queue" "ipcs-q:0" "ipcs-q:[1-9][0-9]*"
pair "/sys/fs/cgroup is read-only in a session" "cgroupfs:ro" "cgroupfs:rw"
pair "core file size 0 (soft and hard) in a session" "core:0 0" \
    "core:.* unlimited"
pair "unshare -U fails in a session" "userns:no" "userns:yes"
pair "PID 1 is not in the session's /proc" "pid1:" "pid1:seen"
# Every PID the session's /proc lists is in the session's own cgroup:
# the Node service's MainPID (the client of this very session) and any
# other byk process are absent (ProtectProc=ptraceable with Landlock's
# ptrace scope).
self=$(sed -n 's/^self://p' "$tmp/in.out")
check "the session's cgroup is its unit's ($self)" sh -c \
    "echo '$self' | grep -Eq 'opencode-pty-[0-9a-f]{32}\.service$'"
check "ls /proc in a session: only the session's own PIDs" \
    test "$(grep '^cg:' "$tmp/in.out")" = "cg:$self" ||
    sed 's/^/  /' "$tmp/in.out"
check "outside a session /proc lists other cgroups' PIDs" \
    test "$(grep -c '^cg:' "$tmp/ctl.out")" -gt 1
check "the client's cgroup is absent from the session's /proc" \
    sh -c "! grep -q '^cg:.*$CLIENT_UNIT' '$tmp/in.out'"
# The terminal stays usable (the rest of /dev is the host's).
check "tty, a nested terminal (script) and /dev/tty work in a session" \
    sh -c "grep -Eqx 'tty:/dev/pts/[0-9]+' '$tmp/in.out' &&
    grep -Eqx 'nested:/dev/pts/[0-9]+' '$tmp/in.out' &&
    grep -qx devtty:ok '$tmp/in.out' &&
    test \"\$(sed -n 's/^tty://p' '$tmp/in.out')\" != \
    \"\$(sed -n 's/^nested://p' '$tmp/in.out')\"" ||
    sed 's/^/  /' "$tmp/in.out"
check "no session unit left" wait_no_units 20

# The session's /run: the allowlist and nothing else of the host's.
client -- /bin/sh -c 'ls -A1 /run; echo --; ls -A1 /run/systemd; echo --; ls -A1 /run/systemd/journal'
# /run/systemd/incoming is PID 1's own mount-propagation directory: up
# to 257 it makes one in every namespace it sets up, 262 does not.
if grep -qx incoming "$tmp/out"; then inc=incoming; else inc=; fi
# /run/systemd/journal is the session namespace's directory (LogNamespace=):
# its three input sockets and its varlink socket, root's 0600; from 257
# on, journald's own seqnum and synced files (root's, read-only here).
seq= syn=
grep -qx seqnum "$tmp/out" && seq=seqnum
grep -qx synced "$tmp/out" && syn=synced
printf '%s\n' lock systemd -- $inc journal -- dev-log io.systemd.journal \
    $seq socket stdout $syn > "$tmp/run.want"
check "the session's /run holds only the allowlist" \
    cmp -s "$tmp/out" "$tmp/run.want" || diff "$tmp/run.want" "$tmp/out"

client -- /bin/sh -c 'touch /run/x 2>/dev/null && echo run-writable; touch /run/lock/x && echo lock-ok; test -e /run/opencode-pty || echo no-sock'
check "/run is read-only, /run/lock private and writable, no supervisor socket" \
    test "$(cat "$tmp/out")" = "$(printf 'lock-ok\nno-sock')"
check "the host's /run/lock did not get the session's file" \
    test ! -e /run/lock/x

# The journal is reachable: logger(1) from a session lands in the
# session units' journal namespace (opencode-pty), attributed by
# journald to the session's unit (83-lognamespace.sh shows that no line
# of a session reaches the main journal).  journald finds
# the unit from the sender's pid when it reads the line, so logger itself
# must still be alive then: it reads its line from a pipe that stays open
# a second after the line (logger sends each line as it reads it).
tag=opty-runview-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')
client -- /bin/sh -c '{ echo hello; sleep 1; } | logger -t "$0"' "$tag"
expect_exit 1 0 success "logger runs in a session"
n=0
while [ $n -lt 200 ]; do
	u=$(journalctl --namespace=opencode-pty -q --no-pager -o cat \
	    --output-fields=_SYSTEMD_UNIT SYSLOG_IDENTIFIER="$tag" \
	    2>/dev/null | head -n 1)
	[ -n "$u" ] && break
	sleep 0.1; n=$((n + 1))
done
check "logger's line is in the namespace journal, from a session ($u)" \
    sh -c \
    "echo '$u' | grep -Eqx 'opencode-pty-[0-9a-f]{32}\.service'"
check "no session unit left" wait_no_units 20
sup_stop

# --- no Landlock for the supervisor: it refuses to start --------------
# A drop-in makes landlock_create_ruleset fail with EPERM in the
# supervisor, as on a kernel that refuses it; the unit is otherwise the
# installed one.
mkdir -p "$dropin"
printf '[Service]\nSystemCallFilter=~landlock_create_ruleset\n' \
    > "$dropin/90-no-landlock.conf"
systemctl daemon-reload
systemctl reset-failed "$SUP" 2>/dev/null
t0=$(date +%s)
if systemctl start "$SUP" 2>/dev/null; then
	fail "the supervisor started without Landlock"
else
	pass "the supervisor refuses to start without Landlock"
fi
check "nothing listens on the supervisor socket" \
    test ! -e /run/opencode-pty/supervisor.sock
# Restart=on-failure would try again every second: stop that.
sup_stop
journalctl -q --no-pager -o cat -u "$SUP" --since="@$t0" > "$tmp/nol.log"
check "its journal line names the requirement" grep -q \
    '^supervisor: Landlock is required (kernel >= 5.19 with landlock in the lsm= list): landlock_create_ruleset: Operation not permitted' \
    "$tmp/nol.log" || sed 's/^/  /' "$tmp/nol.log"
rm -rf "$dropin"
systemctl daemon-reload
systemctl reset-failed "$SUP" 2>/dev/null
check "with the drop-in gone it starts again" sup_start
sup_stop

finish
