#!/bin/sh
# 83-lognamespace.sh: a session cannot log at a priority that wakes every
# terminal (issue 25 item 8; test only).  A command started through the
# real path logs an emerg (PRIORITY=0) line by each of journald's three
# ways in: syslog (logger -p user.emerg, /dev/log), a stream
# (systemd-cat -p emerg) and the native protocol (a datagram on
# /run/systemd/journal/socket).  None of them may reach the main journal,
# whose ForwardToWall= writes emerg lines to every terminal; each must be
# in the session units' namespace journal (`journalctl
# --namespace=opencode-pty`), at PRIORITY=0, with _SYSTEMD_UNIT the
# session's unit.  The positive control: the very same three lines from
# a byk service outside any session reach the main journal at
# PRIORITY=0.  The namespace's installed configuration forwards nowhere.
# Sessions back to back all start: the namespace's sync unit (257 on)
# and its two sockets stay active between them.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

NS=opencode-pty
CTLU=opty-lognamespace-control.service
TOKEN=opty-ns-$$-$(date +%s)
TAGIN=opty-ns-in-$$
TAGOUT=opty-ns-out-$$
trap 'systemctl reset-failed "$CTLU" 2>/dev/null; itlib_cleanup' EXIT

for c in systemd-run journalctl logger systemd-cat python3 systemd-analyze
do
	command -v "$c" >/dev/null ||
	    { echo "FAIL: $c missing (make deps)"; exit 1; }
done

# The three ways in, each at emerg, each sender alive a second after its
# line: journald finds the unit from the sender's pid when it reads it.
# $0 the tag, $1 the token.
EMERG='{ echo "syslog $1"; sleep 1; } | logger -t "$0" -p user.emerg
{ echo "stream $1"; sleep 1; } | systemd-cat -t "$0" -p emerg
exec python3 -c "import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
m = \"MESSAGE=native %s\nPRIORITY=0\nSYSLOG_IDENTIFIER=%s\n\"
s.sendto((m % (sys.argv[2], sys.argv[1])).encode(),
    \"/run/systemd/journal/socket\")
time.sleep(1)
print(\"sent\")" "$0" "$1"'

# seen [--namespace=NS] TAG: "TRANSPORT PRIORITY UNIT MESSAGE" per line
# of TAG, sorted.
seen() {
	journalctl "$@" -o json --no-pager 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    e = json.loads(l)
    print(e.get("_TRANSPORT"), e.get("PRIORITY"),
        e.get("_SYSTEMD_UNIT", "-"), e.get("MESSAGE"))' | sort
}
three() { [ "$(wc -l < "$1")" -ge 3 ]; }
seen_ns() {
	seen --namespace="$NS" SYSLOG_IDENTIFIER="$TAGIN" > "$tmp/ns"
	three "$tmp/ns"
}
seen_main() {
	seen SYSLOG_IDENTIFIER="$TAGOUT" > "$tmp/main"
	three "$tmp/main"
}

jc0=$(jcursor)
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# The control: a byk service outside any session.
systemctl reset-failed "$CTLU" 2>/dev/null
systemd-run --quiet --wait --pipe --unit="$CTLU" -p User=byk -p Group=byk \
    -- /bin/sh -c "$EMERG" "$TAGOUT" "$TOKEN" > "$tmp/ctl.out" 2>&1 \
    < /dev/null
wait_for "the control's three lines in the main journal" seen_main
sed 's/^/  main: /' "$tmp/main"
for t in syslog stdout journal; do
	w="control: $t emerg from a byk service outside"
	check "$w: in the main journal at PRIORITY=0" grep -Eq \
	    "^$t 0 $CTLU (syslog|stream|native) $TOKEN\$" "$tmp/main"
done

# The session.
client -t 60 -- /bin/sh -c "$EMERG" "$TAGIN" "$TOKEN"
expect_exit 1 0 success "the session logged its three emerg lines"
wait_for "the session's three lines in the namespace journal" seen_ns
sed 's/^/  namespace: /' "$tmp/ns"
for t in syslog stdout journal; do
	u='opencode-pty-[0-9a-f]{32}\.service'
	w="session: $t emerg is in the $NS journal at PRIORITY=0"
	check "$w from its unit" grep -Eq \
	    "^$t 0 $u (syslog|stream|native) $TOKEN\$" "$tmp/ns"
done
# Nothing of the session in the main journal, by its tag or by its
# messages under any other tag (the control's lines carry the same
# messages under their own; PID 1's lines about the client unit quote
# the command line, so a plain grep of the tag would find those).
journalctl --sync 2>/dev/null
journalctl --after-cursor="$jc0" -o json --no-pager | python3 -c '
import json, sys
tin, tout, tok = sys.argv[1:4]
msgs = {w + " " + tok for w in ("syslog", "stream", "native")}
for l in sys.stdin:
    e = json.loads(l)
    tag = e.get("SYSLOG_IDENTIFIER")
    if tag == tin or (e.get("MESSAGE") in msgs and tag != tout):
        print(tag, e.get("_SYSTEMD_UNIT"), e.get("MESSAGE"))
' "$TAGIN" "$TAGOUT" "$TOKEN" > "$tmp/leak"
check "session: none of its lines is in the main journal (no wall)" \
    test ! -s "$tmp/leak" || sed 's/^/  leaked: /' "$tmp/leak"

# The namespace's configuration as its journald reads it: no wall, no
# other way out.
systemd-analyze cat-config "systemd/journald@$NS.conf" > "$tmp/conf" 2>&1
for k in ForwardToWall ForwardToConsole ForwardToKMsg ForwardToSyslog; do
	check "journald@$NS.conf: $k=no" grep -qx "$k=no" "$tmp/conf"
done

# Back to back: from 257 on each session pulls in the namespace's
# StopWhenUnneeded= sync unit; a stop of it queued between two sessions
# would make PID 1 refuse the second start.  The supervisor wants it,
# so it stays active after a session is gone.
SYNCU=systemd-journald-sync@$NS.service
client -n 20 -q -- /bin/true
good=$(grep -c '^opty-nodesim: exit code=1 status=0 result=success ' "$tmp/err")
check "20 sessions back to back all ran ($good)" test "$good" = 20 ||
    grep '^opty-nodesim: error' "$tmp/err" | head -n 3 | sed 's/^/  /'
if [ "$(systemctl show -P LoadState "$SYNCU")" = loaded ]; then
	wait_no_units 20
	check "$SYNCU still active after the sessions ended" \
	    test "$(systemctl show -P ActiveState "$SYNCU")" = active
	wanted=$(systemctl show -P WantedBy "$SYNCU")
	check "$SYNCU wanted by the supervisor ($wanted)" test -n \
	    "$(echo "$wanted" | tr ' ' '\n' | grep -Fx "$SUP")"
else
	echo "  $SYNCU: not on this systemd ($(systemctl show -P LoadState "$SYNCU"))"
	check "no sync unit before systemd 257" test "$(systemctl --version |
	    awk 'NR == 1 { print $2 }')" -lt 257
fi

# The namespace's sockets are StopWhenUnneeded= on every version: held
# by the supervisor as the sync unit is (same trap: their stop queued
# between two sessions refused the second, 84-nodepty.sh on 254).
for u in systemd-journald@$NS.socket systemd-journald-varlink@$NS.socket; do
	check "$u still active after the sessions ended" \
	    test "$(systemctl show -P ActiveState "$u")" = active
	wanted=$(systemctl show -P WantedBy "$u")
	check "$u wanted by the supervisor ($wanted)" test -n \
	    "$(echo "$wanted" | tr ' ' '\n' | grep -Fx "$SUP")"
done

check "no session unit left" wait_no_units 20
sup_stop
finish
