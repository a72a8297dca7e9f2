#!/bin/sh
# 72-isolation.sh: the attacker table of SECURITY.md (acceptance gate 7).
# A command started through the real path (opencode-v2.service's
# MainPID -> client helper -> supervisor -> session unit) runs the forged
# attacker opty-escape and tries to reach the system bus, byk's user bus,
# the user manager (its private socket and `systemd-run --user`) and a
# fake Docker daemon, by every path form, and to take hold of every other
# byk process (the Node service's MainPID, the user manager, the user
# dbus-daemon, an unrelated byk service) with pidfd_getfd, ptrace,
# process_vm_readv and kill.  Every row must be blocked inside and, as
# its positive control, reached by the very same operation from an
# unrelated byk service outside the session unit.  Phase A starts the
# user manager before the session; phase B starts it after the session
# started and re-creates the Docker socket mid-session.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

ESCDIR=/usr/local/lib/opencode-pty-test
ESC=$ESCDIR/opty-escape
OPS=$WORK/escape.ops
GO=$WORK/escape.go
uid=$(id -u byk)
RUNUSER=/run/user/$uid
UM=user@$uid.service
LISTEN=opty-fake-docker.service
DECOY=opty-decoy.service
ABSTRACT=opty-fake-abstract.service
ANAME=@opty-escape

iso_cleanup() {
	systemctl stop "$LISTEN" "$DECOY" "$ABSTRACT" \
	    opty-escape-control.service 2>/dev/null
	systemctl reset-failed "$LISTEN" "$DECOY" "$ABSTRACT" \
	    opty-escape-control.service 2>/dev/null
	systemctl stop "$UM" "user-runtime-dir@$uid.service" 2>/dev/null
	rm -f /run/docker.sock "$OPS" "$GO"
	rm -rf "$ESCDIR"
	itlib_cleanup
}
trap 'iso_cleanup' EXIT

[ -x "$TOOLS/opty-escape" ] ||
    { echo "FAIL: $TOOLS/opty-escape missing (make tools)"; exit 1; }
for c in loginctl systemd-run awk; do
	command -v "$c" >/dev/null ||
	    { echo "FAIL: $c missing (make deps)"; exit 1; }
done
[ -e /usr/lib/systemd/user/dbus.socket ] ||
    { echo "FAIL: no user bus: install dbus-user-session (make deps)"; exit 1; }
# The session runs as byk with the unit's own mounts: the attacker lives
# in a root-owned directory any user can read, not in the source tree.
install -d -o root -g root -m 0755 "$ESCDIR" &&
    install -o root -g root -m 0755 "$TOOLS/opty-escape" "$ESC" ||
    { echo "FAIL: cannot install $ESC"; exit 1; }
# Landlock scopes signals from ABI 6 on: below that the kill rows cannot
# pass, and that is a failure of the host, said as such.  Asked from a
# service, as the launcher will: the container's seccomp filter applies.
abi=$(systemd-run --quiet --wait --pipe -- "$ESC" abi) ||
    { echo "FAIL: no Landlock for the container's services"; exit 1; }
echo "Landlock ABI $abi"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# The fake Docker daemon: a new process unlinks and re-binds the socket
# (/var/run is a link to /run here; a separate /var/run gets its own).
listen_start() {
	systemctl stop "$LISTEN" 2>/dev/null
	systemctl reset-failed "$LISTEN" 2>/dev/null
	systemd-run --quiet --unit="$LISTEN" -p Type=notify -- \
	    "$ESC" listen /run/docker.sock
}
[ "$(readlink -f /var/run)" = /run ] ||
    { echo "FAIL: /var/run is not a link to /run here"; exit 1; }
listen_start || { echo "FAIL: the fake Docker daemon did not start"; exit 1; }

# An unrelated, dumpable byk process in a service of its own: whatever
# the Node service becomes, this one shows that a byk process outside
# the session is reachable from outside and not from inside.
systemctl reset-failed "$DECOY" 2>/dev/null
systemd-run --quiet --unit="$DECOY" -p User=byk -p Group=byk \
    -p WorkingDirectory=/home/byk -- /bin/sleep infinity ||
    { echo "FAIL: the decoy byk service did not start"; exit 1; }

# A byk service listening on an abstract socket (no file, no
# permission: only Landlock's scope, ABI 6, keeps a session from it).
systemctl reset-failed "$ABSTRACT" 2>/dev/null
systemd-run --quiet --unit="$ABSTRACT" -p Type=notify -p User=byk \
    -p Group=byk -- "$ESC" listen "$ANAME" ||
    { echo "FAIL: the abstract socket's service did not start"; exit 1; }

# byk's user manager without a login, as lingering starts it: PID 1
# starts user@UID.service, which pulls in user-runtime-dir@UID.service
# (the tmpfs on /run/user/UID).  Not `loginctl enable-linger`: logind
# 257 answers a root caller without a session with EUNATCH.
um_up() {
	systemctl start "$UM" &&
	    wait_for "$UM active" systemctl is-active -q "$UM" &&
	    wait_for "$RUNUSER/bus" test -S "$RUNUSER/bus" &&
	    systemd-run --quiet --wait --pipe -p User=byk -p Group=byk \
	    -E XDG_RUNTIME_DIR="$RUNUSER" -- systemctl --user start dbus.service
}
um_down() {
	systemctl stop "$UM" "user-runtime-dir@$uid.service"
	wait_for "$RUNUSER removed" sh -c "! test -e '$RUNUSER'"
}

# The attack, the same inside the session and in the control: the
# operations file, then `systemd-run --user`, which without --wait talks
# to the user manager over its private socket (with --wait, over the
# user bus): a process outside the session's cgroup and RuntimeMaxSec.
ATTACK='"$0" ${2:+-w "$2"} -f "$3"
XDG_RUNTIME_DIR=/run/user/$1 systemd-run --user --quiet -- /bin/true
echo "systemd-run --user exit $?"'

ups() {		# ups PATH: one ../ per component of PATH
	u=
	for c in $(echo "$1" | tr / ' '); do u="$u../"; done
	echo "$u"
}

# plan_socket LABEL PATH: every path form of one socket.
plan_socket() {
	rel=${2#/}
	echo "$1|absolute|connect $2"
	echo "$1|relative from the cwd|connect $(ups "$WORK")$rel"
	echo "$1|/proc/self/cwd/..|connect /proc/self/cwd/$(ups "$WORK")$rel"
	for t in $targets; do
		n=${t%%=*} p=${t#*=}
		echo "$1|/proc/<$n>/root|connect /proc/$p/root/$rel"
		echo "$1|/proc/<$n>/cwd/..|connect /proc/$p/cwd/$(ups \
		    "$(readlink "/proc/$p/cwd")")$rel"
	done
}

# plan_process NAME PID: the process attacks against one process.
plan_process() {
	fd=$(ls -lv "/proc/$2/fd" | awk '/socket:/ && $9 >= 3 { print $9; exit }')
	addr=$(awk '$2 ~ /^r/ { split($1, a, "-"); print a[1]; exit }' \
	    "/proc/$2/maps")
	echo "<$1>|pidfd_getfd fd ${fd:-0}|getfd $2 ${fd:-0}"
	echo "<$1>|ptrace attach|ptrace $2"
	echo "<$1>|process_vm_readv|vmread $2 $addr"
	echo "<$1>|kill 0|kill $2 0"
	echo "<$1>|kill SIGCONT|kill $2 18"
}

# row LABEL FORM OP: one line of the table.  Blocked means a refusal
# errno (for a socket: no such path, no permission or no listener at
# the inode that path reaches; for a process: no permission or no such
# process in the command's PID namespace).  A Node service that is not
# dumpable is refused to the control too (66-dumpable.sh): then only
# the decoy's rows prove the session's own boundary.
row() {
	in=$(result "$tmp/inside" "$3")
	out=$(result "$tmp/outside" "$3")
	case "$3:$in" in
	systemd-run*:"err EXIT"*) i=ok ;;
	connect*:"err "E[A-Z]*)
		case "${in#err }" in
		ENOENT|EACCES|EPERM|ECONNREFUSED|ENOTDIR) i=ok ;;
		*) i=bad ;;
		esac ;;
	*:"err "EPERM|*:"err "EACCES|*:"err "ESRCH) i=ok ;;
	*) i=bad ;;
	esac
	case $in in ok) iv=REACHED ;; "err "*) iv="blocked (${in#err })" ;;
	*) iv=$in ;; esac
	ctl=reached
	if [ "$out" != ok ]; then
		ctl="NOT reached ($out)"
		case "$1|$2:$out" in
		*"<node>"*:"err EPERM"|*"<node>"*:"err EACCES")
			case "$3" in
			kill*) ;;
			*)	[ "$nodedump" = 0 ] &&
				    ctl="refused too (node not dumpable)" ;;
			esac ;;
		esac
	fi
	line="$1 | $2 | inside: $iv | outside: $ctl  [$3]"
	case "$i:$ctl" in
	ok:reached|ok:"refused too"*) pass "$line" ;;
	*) fail "$line" ;;
	esac
}

has_unit() { [ -n "$(pty_units)" ]; }

# phase NAME BEFORE MIDDLE USER_SUFFIX DOCKER_SUFFIX: one session
# attacks, one control attacks the same targets.  BEFORE runs before the
# session starts, MIDDLE once it runs and before the targets are listed;
# the suffixes mark the rows whose target was (re)started mid-session.
phase() {
	echo "-- phase $1"
	rm -f "$OPS" "$GO"
	$2 || { fail "$1: setup before the session"; return 1; }
	client -t 120 -- /bin/sh -c "$ATTACK" "$ESC" "$uid" "$GO" "$OPS" &
	cpid=$!
	wait_for "a session unit" has_unit ||
	    { kill "$cpid"; wait "$cpid"; return 1; }
	$3 || fail "$1: setup during the session"
	node=$(systemctl show -P MainPID "$CLIENT_UNIT")
	um=$(systemctl show -P MainPID "$UM")
	ub=$(pgrep -u byk -x dbus-daemon | head -n 1)
	dc=$(systemctl show -P MainPID "$DECOY")
	for v in "node $node" "user manager $um" "user dbus-daemon $ub" \
	    "decoy $dc"; do
		case ${v##* } in
		''|0|*[!0-9]*) fail "$1: no pid for ${v% *}" ;;
		esac
	done
	# A non-dumpable process's /proc files (not its directory) are
	# root's.
	nodedump=1
	[ "$(stat -c %u "/proc/$node/status")" = 0 ] && nodedump=0
	echo "node $node (dumpable: $nodedump), user manager $um," \
	    "user dbus-daemon $ub, decoy $dc"
	targets="node=$node usermgr=$um userbus=$ub decoy=$dc"
	{
		plan_socket "system bus" /run/dbus/system_bus_socket
		plan_socket "user bus$4" "$RUNUSER/bus"
		plan_socket "user manager socket$4" "$RUNUSER/systemd/private"
		plan_socket "docker /run$5" /run/docker.sock
		plan_socket "docker /var/run$5" /var/run/docker.sock
		echo "abstract socket|$ANAME, a byk service's|connect $ANAME"
		plan_process node "$node"
		plan_process usermgr "$um"
		plan_process userbus "$ub"
		plan_process decoy "$dc"
	} > "$tmp/plan"
	rows=$(wc -l < "$tmp/plan")
	check "$1: $rows rows planned, 76 expected" test "$rows" = 76
	cut -d'|' -f3 "$tmp/plan" > "$OPS"
	chmod 0644 "$OPS"
	# The control first, while the Node service's MainPID is there.
	systemctl reset-failed opty-escape-control.service 2>/dev/null
	systemd-run --quiet --wait --pipe --unit=opty-escape-control.service \
	    -p User=byk -p Group=byk -p WorkingDirectory="$WORK" -- \
	    /bin/sh -c "$ATTACK" "$ESC" "$uid" "" "$OPS" \
	    > "$tmp/outside" 2>&1 < /dev/null
	touch "$GO"
	wait "$cpid"
	expect_exit 1 0 success "$1: the attacking session ran to its end"
	cp "$tmp/out" "$tmp/inside"
	while IFS='|' read -r l f o; do
		row "$l" "$f" "$o"
	done < "$tmp/plan"
	row "user manager$4" "systemd-run --user" "systemd-run --user exit"
	# Whatever else the session printed (an error message, say).
	grep -Ev ' (ok|err E[A-Z0-9]+)$|^systemd-run --user exit [0-9]+$' \
	    "$tmp/inside" | head -n 5 | sed 's/^/  inside says: /'
}

# result FILE OP: what the attacker printed for OP ("ok", "err ENAME"),
# or "missing"; for `systemd-run --user`, "ok" if it exited 0, else
# "err EXITn".
result() {
	case $2 in
	"systemd-run --user exit")
		r=$(awk '/^systemd-run --user exit [0-9]+$/ { print $4 }' "$1")
		case $r in
		'') echo missing ;; 0) echo ok ;; *) echo "err EXIT$r" ;;
		esac ;;
	*)	awk -v op="$2" 'index($0, op " ") == 1 {
			r = substr($0, length(op) + 2)
			if (r !~ /^(ok|err [A-Z0-9]+)$/) r = "garbled: " r
		} END { print (r == "" ? "missing" : r) }' "$1" ;;
	esac
}

before_a() { um_up; }
middle_a() { true; }
before_b() { um_down; }
middle_b() {
	ino=$(stat -c %i /run/docker.sock)
	um_up && listen_start || return 1
	ino2=$(stat -c %i /run/docker.sock)
	check "docker socket re-created mid-session (inode $ino -> $ino2)" \
	    test "$ino2" != "$ino"
}

phase "A: user manager running before the session" before_a middle_a "" ""
phase "B: user manager started, docker socket re-created, mid-session" \
    before_b middle_b " (manager started later)" " (re-created)"

if [ "$abi" -lt 6 ]; then
	fail "kill and abstract socket rows: Landlock ABI $abi < 6 cannot" \
	    "scope signals or abstract sockets"
fi

check "no session unit left" wait_no_units 20
sup_stop
finish
