#!/bin/sh
# 70-session.sh: acceptance gates 6 and 7 against the real supervisor
# service in the disposable systemd.  A valid session runs as byk in
# opencode-pty.slice, in the directory of the passed descriptor, with
# the fixed environment and the exact argv; its transient unit has the
# specified properties; D-Bus and Docker sockets are out of its reach.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

client -- /bin/echo hello
expect_exit 1 0 success "echo: exit frame code=1 status=0 result=success"
check "echo: output is exactly hello" test "$(cat "$tmp/out")" = hello

client -- /usr/bin/tty
check "stdin is a tty ($(cat "$tmp/out"))" grep -Eqx '/dev/pts/[0-9]+' "$tmp/out"

# cwd comes from the descriptor: rename the directory under the client.
mkdir -p "$WORK/d1" && chown byk:byk "$WORK/d1"
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note "opty-nodesim (-w)"
systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" -p Type=exec \
    -p User=byk -p Group=byk -- "$NODESIM" -d "$WORK/d1" \
    -w "$WORK/go" -- /bin/pwd > "$tmp/out.raw" 2> "$tmp/err" &
cpid=$!
sleep 0.5
mv "$WORK/d1" "$WORK/d2" && touch "$WORK/go"
wait $cpid
tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
check "cwd is the descriptor's directory after a rename ($(cat "$tmp/out"))" \
    test "$(cat "$tmp/out")" = "$WORK/d2"
rm -rf "$WORK/d2" "$WORK/go"

client -- /usr/bin/env
sort "$tmp/out" > "$tmp/env"
printf '%s\n' HOME=/home/byk LANG=C.UTF-8 LOGNAME=byk \
    PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color USER=byk \
    > "$tmp/env.want"
check "environment is exactly the fixed set" cmp -s "$tmp/env" "$tmp/env.want" ||
    diff "$tmp/env.want" "$tmp/env"

client -- /usr/bin/id -un
u=$(cat "$tmp/out")
client -- /usr/bin/id -gn
check "runs as byk:byk" test "$u:$(cat "$tmp/out")" = byk:byk

client -- /bin/cat /proc/self/cgroup
check "in opencode-pty.slice under a strict unit name" grep -Eqx \
    '0::/opencode.slice/opencode-pty.slice/opencode-pty-[0-9a-f]{32}\.service' \
    "$tmp/out"

# argv arrives byte-exact and unevaluated.
nl='
'
client -- /usr/bin/printf '[%s]\n' 'a b' "q'u\"ote" '$(id)' ';' '*' \
    "line1${nl}line2" '' 'ü€'
printf '[%s]\n' 'a b' "q'u\"ote" '$(id)' ';' '*' "line1${nl}line2" '' \
    'ü€' > "$tmp/argv.want"
check "argv with spaces, quotes, \$(), ;, glob, newline, empty, UTF-8" \
    cmp -s "$tmp/out" "$tmp/argv.want" || diff "$tmp/argv.want" "$tmp/out"

# Gate 7: the transient unit's properties, read back while it runs (8 s:
# some thirty systemctl reads, slow on a loaded host, must fall in it).
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
actor_note node
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" -t 30 -- /bin/sleep 8
n=0
while [ -z "$(pty_units)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
unit=$(pty_units | head -n 1)
check "a strictly named unit appeared ($unit)" test -n "$unit"
prop() { systemctl show -P "$1" "$unit"; }
want() {	# want PROPERTY VALUE
	got=$(prop "$1")
	if [ "$got" = "$2" ]; then pass "property $1=$2"
	else fail "property $1: got '$got', want '$2'"; fi
}
want Type exec
want User byk
want Group byk
want Slice opencode-pty.slice
want BindsTo opencode-pty-supervisor.service
case " $(prop After) " in
*" opencode-pty-supervisor.service "*) pass "After has the supervisor" ;;
*) fail "After lacks the supervisor: $(prop After)" ;;
esac
want NoNewPrivileges yes
want UMask 0077
want KillMode control-group
want KillSignal 15
want FinalKillSignal 9
want SendSIGKILL yes
want TimeoutStopUSec 15s
want OOMPolicy kill
want Delegate no
want RemainAfterExit no
want CollectMode inactive-or-failed
want RuntimeMaxUSec 30s
# StandardInput/Output/ErrorFileDescriptor are not readable back over
# D-Bus (systemd shows its defaults); that the unit used the passed
# stream and directory is what the sessions above prove.
uid=$(id -u byk)
# The private /run (its details: 71-runview.sh).
want TemporaryFileSystem '/run:ro,nosuid,noexec '\
'/run/lock:mode=1777,size=5m,nosuid,noexec /dev/shm:mode=1777,nosuid,nodev'
want InaccessiblePaths '-/run/dbus -/run/user'
check "ExecStart is the launcher with encoded args" sh -c \
    "systemctl show -P ExecStart '$unit' | grep -q 'path=$LIBEXEC/opencode-pty-launcher ; argv\[\]=$LIBEXEC/opencode-pty-launcher a'"
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 200 ]; do
	sleep 0.1; n=$((n + 1))
done
check "the session ended and its unit is gone" wait_no_units 20

# The system and user buses and Docker's socket are out of reach.
mkdir -p "/run/user/$uid"
/usr/bin/python3 -c '
import socket, sys
for p in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX); s.bind(p)
' /run/docker.sock "/run/user/$uid/bus"
client -- /usr/bin/python3 -c '
import socket, sys
for p in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(p); print("REACHABLE", p)
    except OSError as e:
        print("blocked", p, e.errno)
' /run/dbus/system_bus_socket "/run/user/$uid/bus" /run/docker.sock \
    /var/run/docker.sock
cat "$tmp/out" | sed 's/^/  /'
check "no bus or Docker socket reachable from the command" \
    sh -c "! grep -q REACHABLE '$tmp/out' && test \$(grep -c blocked '$tmp/out') = 4"
rm -f /run/docker.sock "/run/user/$uid/bus"

check "no session unit left" wait_no_units 20
sup_stop
finish
