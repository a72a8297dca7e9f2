#!/bin/sh
# 78-sameuid.sh: the same-uid attacker table of issue 25 (test only).
# A command started through the real path (opencode-v2.service's MainPID
# -> client helper -> supervisor -> session unit) runs the forged
# attacker opty-escape against what byk has outside the session: the
# Node service's MainPID and an unrelated byk decoy service (limits,
# priorities, scheduling, I/O priority, memory policy, kcmp,
# process_madvise, oom_score_adj), and the objects an unrelated byk
# service makes (a key in byk's user keyring, a UNIX socket in /tmp,
# files in /var/tmp and /dev/shm, SysV shared memory and message queue,
# a POSIX message queue, the user manager's delegated cgroup), plus
# unshare(CLONE_NEWUSER).  Every operation is harmless (it writes back
# the value it just read, or only opens).  Every row must be blocked
# inside and, as its positive control, succeed when the very same
# operation runs in an unrelated byk service outside the session.
# Last, a command logs as `-t opencode-pty-supervisor -p crit`: the
# auditor's query by trusted fields must not return the line, the query
# by the forgeable identifier in the session units' journal namespace
# must (the control).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

ESCDIR=/usr/local/lib/opencode-pty-test
ESC=$ESCDIR/opty-escape
OPS=$WORK/sameuid.ops
OPSNICE=$WORK/sameuid-nice.ops
GO=$WORK/sameuid.go
uid=$(id -u byk)
UM=user@$uid.service
# The delegated subtree: user@UID.service's own cgroup.freeze and
# cgroup.kill stay root's (not in /sys/kernel/cgroup/delegate); the
# cgroups the user manager makes below it are byk's, files and all.
CG=/sys/fs/cgroup/user.slice/user-$uid.slice/$UM/init.scope
DECOY=opty-sameuid-decoy.service
SOCKSVC=opty-sameuid-sock.service
CTL=opty-sameuid-control.service
SOCK=/tmp/opty-sameuid.sock
VTMP=/var/tmp/opty-sameuid.file
SHM=/dev/shm/opty-sameuid.file
IPCKEY=7878781
MQ=/opty-sameuid
TOKEN=opty-forged-$$-$(date +%s)
BYK="-p User=byk -p Group=byk"

su_cleanup() {
	systemctl stop "$DECOY" "$SOCKSVC" 2>/dev/null
	systemctl reset-failed "$DECOY" "$SOCKSVC" "$CTL" 2>/dev/null
	[ -n "${serial:-}" ] && byk_run "$ESC" revokekey "$serial"
	[ -x "$ESC" ] && "$ESC" rmipc "$IPCKEY" "$MQ" 2>/dev/null
	systemctl stop "$UM" "user-runtime-dir@$uid.service" 2>/dev/null
	rm -f "$SOCK" "$VTMP" "$SHM" "$OPS" "$OPSNICE" "$GO" "$ESC"
	itlib_cleanup
}
trap 'su_cleanup' EXIT

# byk_run CMD...: CMD as byk in a transient service of its own (not in
# any session), its output on ours.
# shellcheck disable=SC2086	# BYK: options without blanks
byk_run() {
	systemd-run --quiet --wait --pipe $BYK -- "$@" < /dev/null
}

[ -x "$TOOLS/opty-escape" ] ||
    { echo "FAIL: $TOOLS/opty-escape missing (make tools)"; exit 1; }
for c in systemd-run journalctl awk logger; do
	command -v "$c" >/dev/null ||
	    { echo "FAIL: $c missing (make deps)"; exit 1; }
done
install -d -o root -g root -m 0755 "$ESCDIR" &&
    install -o root -g root -m 0755 "$TOOLS/opty-escape" "$ESC" ||
    { echo "FAIL: cannot install $ESC"; exit 1; }

jc0=$(jcursor)
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# The targets outside the session, all byk's: a decoy process, a UNIX
# socket in /tmp, files in /var/tmp and /dev/shm, SysV and POSIX IPC, a
# key, and the user manager (as lingering starts it) with its cgroup.
# shellcheck disable=SC2086
systemd-run --quiet --unit="$DECOY" $BYK -p WorkingDirectory=/home/byk \
    -- /bin/sleep infinity ||
    { echo "FAIL: the decoy byk service did not start"; exit 1; }
# shellcheck disable=SC2086
systemd-run --quiet --unit="$SOCKSVC" -p Type=notify $BYK -- \
    "$ESC" listen "$SOCK" ||
    { echo "FAIL: the /tmp socket's byk service did not start"; exit 1; }
byk_run /bin/sh -c 'umask 077; echo secret > "$1" && echo secret > "$2" &&
    exec "$3" mkipc "$4" "$5"' sh "$VTMP" "$SHM" "$ESC" "$IPCKEY" "$MQ" ||
    { echo "FAIL: a byk service could not make its files and IPC"; exit 1; }
systemctl start "$UM" && wait_for "$UM active" systemctl is-active -q "$UM" ||
    { echo "FAIL: byk's user manager did not start"; exit 1; }
[ -w "$CG/cgroup.freeze" ] && [ -e "$CG/cgroup.kill" ] ||
    { echo "FAIL: no delegated cgroup.freeze/cgroup.kill in $CG"; exit 1; }
[ "$(stat -c %U "$CG/cgroup.freeze")" = byk ] ||
    { echo "FAIL: $CG is not delegated to byk"; exit 1; }
# The key last: on systemd 254 (bookworm-bpo) a key added before the
# user manager started was seen gone once it ran (ENOKEY).
serial=$(byk_run "$ESC" addkey opty-sameuid)
case $serial in
'' | *[!0-9]*)
	echo "FAIL: a byk service could not add a key to its user keyring" \
	    "($serial): the test bed's seccomp filter (regress/harness.sh)" \
	    "must allow add_key and keyctl"
	serial=; exit 1 ;;
esac

has_unit() { [ -n "$(pty_units)" ]; }

# The session: the attack once the targets are listed, then the forged
# audit line.
ATTACK='"$0" -w "$1" -f "$2"
logger -t opencode-pty-supervisor -p user.crit "forged audit line $3"'
client -t 120 -- /bin/sh -c "$ATTACK" "$ESC" "$GO" "$OPS" "$TOKEN" &
cpid=$!
wait_for "a session unit" has_unit || { kill "$cpid"; wait "$cpid"; exit 1; }

node=$(systemctl show -P MainPID "$CLIENT_UNIT")
dc=$(systemctl show -P MainPID "$DECOY")
for v in "node $node" "decoy $dc"; do
	case ${v##* } in
	'' | 0 | *[!0-9]*) fail "no pid for ${v% *}" ;;
	esac
done
pgrp=$(awk '{ print $5 }' "/proc/$dc/stat")
addr=$(awk '$2 ~ /^r/ { split($1, a, "-"); print a[1]; exit }' \
    "/proc/$dc/maps")
oom=$(cat "/proc/$dc/oom_score_adj")
echo "node $node, decoy $dc (process group $pgrp), key $serial"

# The plan: NAME|OP, one row each.
{
	for t in "node $node" "decoy $dc"; do
		n=${t% *} p=${t#* }
		echo "prlimit64 RLIMIT_NOFILE <$n>|prlimit $p"
		echo "setpriority PRIO_PROCESS <$n>|setprio process $p"
		echo "sched_setaffinity <$n>|setaffinity $p"
		echo "sched_setscheduler <$n>|setsched $p"
		echo "sched_setattr <$n>|setattr $p"
		echo "ioprio_set <$n>|ioprio $p"
	done
	echo "setpriority PRIO_PGRP <decoy's group>|setprio pgrp $pgrp"
	echo "setpriority PRIO_USER <byk>|setprio user $uid"
	echo "getpriority PRIO_USER <byk>|getprio user $uid"
	echo "migrate_pages <decoy>|migrate $dc"
	echo "move_pages <decoy>|movepages $dc $addr"
	echo "kcmp KCMP_VM <decoy>|kcmp $dc"
	echo "/proc/<decoy>/oom_score_adj|write /proc/$dc/oom_score_adj $oom"
	echo "keyctl READ <byk's user keyring key>|keyread $serial"
	echo "unshare CLONE_NEWUSER|unshare-user"
	echo "connect <byk's socket in /tmp>|connect $SOCK"
	echo "read <byk's file in /var/tmp>|read $VTMP"
	echo "read <byk's file in /dev/shm>|read $SHM"
	echo "shmat <byk's SysV segment>|shmat $IPCKEY"
	echo "msgget <byk's SysV queue>|msgq $IPCKEY"
	echo "mq_open <byk's POSIX queue>|mqopen $MQ"
	um="<user manager's init.scope>"
	echo "cgroup.kill O_WRONLY $um|openw $CG/cgroup.kill"
	echo "cgroup.freeze 0 $um|write $CG/cgroup.freeze 0"
} > "$tmp/plan"
# A remote process_madvise needs CAP_SYS_NICE in the kernel itself: its
# control is a byk service that has it (a session never can: its unit
# sets NoNewPrivileges and gives no capability).
echo "process_madvise MADV_COLD <decoy>|madvise $dc $addr" > "$tmp/plannice"
cut -d'|' -f2 "$tmp/plan" > "$OPS"
cut -d'|' -f2 "$tmp/plannice" >> "$OPS"
cut -d'|' -f2 "$tmp/plannice" > "$OPSNICE"
chmod 0644 "$OPS" "$OPSNICE"
echo "$(wc -l < "$OPS") rows"

# The controls first, while the session waits for $GO.
systemctl reset-failed "$CTL" 2>/dev/null
# shellcheck disable=SC2086
systemd-run --quiet --wait --pipe --unit="$CTL" $BYK \
    -p WorkingDirectory="$WORK" -- "$ESC" -f "$OPS" \
    > "$tmp/outside" 2>&1 < /dev/null
systemctl reset-failed "$CTL" 2>/dev/null
# shellcheck disable=SC2086
systemd-run --quiet --wait --pipe --unit="$CTL" $BYK \
    -p AmbientCapabilities=CAP_SYS_NICE -p WorkingDirectory="$WORK" -- \
    "$ESC" -f "$OPSNICE" > "$tmp/outside-nice" 2>&1 < /dev/null
touch "$GO"
wait "$cpid"
expect_exit 1 0 success "the attacking session ran to its end"
cp "$tmp/out" "$tmp/inside"

# result FILE OP: what the attacker printed for OP ("ok", "err ENAME"),
# or "missing".
result() {
	awk -v op="$2" 'index($0, op " ") == 1 {
		r = substr($0, length(op) + 2)
		if (r !~ /^(ok|err [A-Z0-9]+)$/) r = "garbled: " r
	} END { print (r == "" ? "missing" : r) }' "$1"
}

# row NAME OP OUTSIDE-FILE [NOTE]: blocked inside with a refusal errno,
# reached outside.
row() {
	in=$(result "$tmp/inside" "$2")
	out=$(result "$3" "$2")
	case $in in
	"err "EPERM | "err "EACCES | "err "ENOENT | "err "EROFS | \
	"err "ESRCH | "err "ENOSYS) i=ok iv="blocked (${in#err })" ;;
	ok) i=bad iv=REACHED ;;
	*) i=bad iv=$in ;;
	esac
	ctl="NOT reached ($out)"
	[ "$out" = ok ] && ctl="reached$4"
	line="sameuid $1 | inside: $iv | outside: $ctl  [$2]"
	if [ "$i" = ok ] && [ "$out" = ok ]; then
		pass "$line"
	else
		fail "$line"
	fi
}
while IFS='|' read -r l o; do
	row "$l" "$o" "$tmp/outside"
done < "$tmp/plan"
while IFS='|' read -r l o; do
	row "$l" "$o" "$tmp/outside-nice" " (with CAP_SYS_NICE)"
done < "$tmp/plannice"
grep -Ev ' (ok|err E[A-Z0-9]+)$' "$tmp/inside" | head -n 5 |
    sed 's/^/  inside says: /'
grep -Ev ' (ok|err E[A-Z0-9]+)$' "$tmp/outside" "$tmp/outside-nice" |
    head -n 5 | sed 's/^/  outside says: /'

# The forged audit line: the untrusted identifier finds it in the
# session units' journal namespace (the control; LogNamespace= keeps it
# out of the main journal), the documented query by trusted fields does
# not; that query does return the supervisor's own lines.
forged() {
	journalctl --namespace=opencode-pty -o cat --no-pager \
	    -t opencode-pty-supervisor | grep -q "$TOKEN"
}
FL="sameuid forged audit line |"
wait_for "the forged line in the journal" forged &&
    pass "$FL journalctl --namespace=opencode-pty" \
    "-t opencode-pty-supervisor: shown (control)"
audit() {
	journalctl --after-cursor="$jc0" -o cat --no-pager \
	    _SYSTEMD_UNIT="$SUP" _UID=0
}
nsup=$(audit | wc -l)
if audit | grep -q "$TOKEN"; then
	fail "$FL _SYSTEMD_UNIT=$SUP _UID=0: shown"
elif [ "$nsup" -eq 0 ]; then
	fail "$FL _SYSTEMD_UNIT=$SUP _UID=0: no line at all"
else
	pass "$FL _SYSTEMD_UNIT=$SUP _UID=0: not shown" \
	    "($nsup supervisor lines are)"
fi

check "no session unit left" wait_no_units 20
sup_stop
finish
