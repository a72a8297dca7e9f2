#!/bin/sh
# 65-admission.sh: acceptance gates 4 and 5 against the real supervisor.
# Every peer that is not exactly the MainPID of a running
# /system.slice/opencode-v2.service, and every start frame with a wrong
# descriptor, is refused with its error code, and no unit is created.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
started() { journalctl -u "$SUP" -o cat --no-pager | grep -c 'started for client'; }

# other UNIT ARGS...: opty-nodesim as the MainPID of another service.
other() {
	u=$1; shift
	systemctl reset-failed "$u" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$u" -p Type=exec \
	    -p User=byk -p Group=byk "$@" > "$tmp/out.raw" 2> "$tmp/err" \
	    < /dev/null
	rc=$?
	grep '^opty-nodesim:' "$tmp/err" | tail -n 1 > "$tmp/last"
}
nodesim="$NODESIM -d $WORK"

n0=$(started)
# Gate 4: the client service is not running at all.
other intruder.service $nodesim -- /bin/true
expect_error 6 "client service inactive: ERR_AUTH_STATE"

# A process of another service while opencode-v2.service runs.
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk /bin/sleep infinity
other intruder.service $nodesim -- /bin/true
expect_error 5 "wrong pid (another service): ERR_AUTH_PID"
systemctl stop "$CLIENT_UNIT"

# A child of the MainPID.
other "$CLIENT_UNIT" /bin/sh -c "$nodesim -- /bin/true; exit \$?"
expect_error 5 "child of MainPID: ERR_AUTH_PID"

# The right unit name in the wrong place: no
# /system.slice/opencode-v2.service cgroup exists, so the kernel's facts
# refuse the peer before systemd is asked (parent/auth.c peer_cgroup).
other "$CLIENT_UNIT" --slice=elsewhere.slice $nodesim -- /bin/true
expect_error 6 "wrong cgroup: no client service cgroup, ERR_AUTH_STATE"

# Client replaced between connect and start: the MainPID that connected
# exits after admission and systemd restarts the service (a new MainPID
# and InvocationID; KillMode=process keeps the first one's child), then
# the original connection sends its start frame.
rm -f "$tmp/go" "$WORK/.first"
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -p KillMode=process -p Restart=always -p RestartSec=100ms \
    -p StandardError="file:$tmp/repl.err" /bin/sh -c "
	if [ -e $WORK/.first ]; then exec /bin/sleep infinity; fi
	touch $WORK/.first; exec $nodesim -r $tmp/go -- /bin/true"
n=0
until [ "$(systemctl show -P NRestarts "$CLIENT_UNIT")" = 1 ] &&
    systemctl is-active -q "$CLIENT_UNIT"; do
	[ $n -gt 100 ] && break; sleep 0.1; n=$((n + 1))
done
check "the client service was restarted" test "$(systemctl show -P NRestarts "$CLIENT_UNIT")" = 1
touch "$tmp/go"
n=0
until grep -q '^opty-nodesim: ' "$tmp/repl.err" 2>/dev/null; do
	[ $n -gt 100 ] && break; sleep 0.1; n=$((n + 1))
done
grep '^opty-nodesim:' "$tmp/repl.err" | tail -n 1 > "$tmp/last"
expect_error 5 "client replaced after admission: ERR_AUTH_PID"
systemctl stop "$CLIENT_UNIT"

# Forged start frames from the right process.
client -F nofd -- /bin/true
expect_error 9 "no descriptor: ERR_FD_MISSING"
client -F twofd -- /bin/true
expect_error 10 "two descriptors: ERR_FD_EXTRA"
client -F notdir -- /bin/true
expect_error 11 "regular file as directory: ERR_NOTDIR"
client -F mismatch -- /bin/true
expect_error 12 "st_ino mismatch: ERR_DIR_MISMATCH"
client -F early-input -- /bin/true
expect_error 2 "input before start: ERR_UNEXPECTED"

check "no unit was started by any refused peer" test "$(started)" = "$n0"
check "no session unit exists" wait_no_units 5

# The relay survived every hostile client: a good session still works.
client -- /bin/echo still-serving
expect_exit 1 0 success "a valid session after all refusals"
sup_stop
finish
