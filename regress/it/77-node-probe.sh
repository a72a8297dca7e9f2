#!/bin/sh
# 77-node-probe.sh: the inheritance probe (also `make
# node-probe`).  The probe (regress/node/probe.js), built as a single
# executable application of the exact Node release (regress/node/sea.sh)
# and installed root-owned 0711 as the Node service is deployed, runs as
# the MainPID of opencode-v2.service against the real supervisor.  With
# sessions live it checks that the fixed helper alone inherits the
# socket and the directory (the helper's table is recorded by
# opty-fdtable, bind-mounted over the helper's path once the service's
# readiness condition has checked the real one, and removed again as
# soon as the probe's sessions run; it executes the shipped helper), and
# that spawn, spawnSync, exec, execFile, fork and a worker thread's
# child inherit neither.  Here, an unrelated byk process's pidfd_getfd
# and ptrace fail against the running SEA; the same theft succeeds
# against the same SEA run from a readable copy (positive control).
# The report goes to stdout and to $BUILD/node/probe-report-*.txt.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"
. "$REPO/regress/node/itnode.sh"

PROBE_SRC=$(cd "$BUILD/node" && pwd -P)/opty-node-probe
for f in "$PROBE_SRC" "$TOOLS/opty-fdtable" "$TOOLS/opty-steal"; do
	[ -x "$f" ] || { echo "FAIL: $f missing (make node-sea tools)"; exit 1; }
done
PROBE=$NODESIM_DIR/opty-node-probe
FDT=$NODESIM_DIR/opty-fdtable
FDT_DIR=/run/opty-fdtable
HELPER=$LIBEXEC/opencode-pty-client
CONTROL_UNIT=opty-probe-control.service
THIEF_UNIT=opty-thief.service

probe_cleanup() {
	systemctl stop "$CONTROL_UNIT" "$THIEF_UNIT" 2>/dev/null
	systemctl reset-failed "$CONTROL_UNIT" "$THIEF_UNIT" 2>/dev/null
	umount "$HELPER" 2>/dev/null
	umount "$FDT_DIR/real-client" 2>/dev/null
	rm -rf "$FDT_DIR"
	# The container's / is in memory: the copies go when done.
	rm -f "$PROBE" "$FDT"
	itlib_cleanup
}
trap probe_cleanup EXIT

install -o root -g root -m 0711 "$PROBE_SRC" "$PROBE" &&
install -o root -g root -m 0755 "$TOOLS/opty-fdtable" "$FDT" &&
install -d -o root -g root -m 0755 "$FDT_DIR" &&
install -d -o byk -g byk -m 0755 "$FDT_DIR/rec" "$FDT_DIR/sync" &&
: > "$FDT_DIR/real-client" &&
mount --bind "$HELPER" "$FDT_DIR/real-client" &&
# Private: the recorder's mount over the helper's path must not
# propagate into this view of the shipped file (/ is shared).
mount --make-private "$FDT_DIR/real-client" ||
    { echo "FAIL: cannot set the probe up"; exit 1; }

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
cur=$(jcursor)

# wait_file FILE UNIT: until FILE exists, while UNIT runs (30 s at most).
wait_file() {
	n=0
	while [ ! -e "$1" ] && [ $n -lt 300 ] && systemctl is-active -q "$2"; do
		sleep 0.1; n=$((n + 1))
	done
	[ -e "$1" ]
}

# steal PID MAXFD: opty-steal as an unrelated byk process (its own service).
steal() {
	systemctl reset-failed "$THIEF_UNIT" 2>/dev/null
	timeout 60 systemd-run --quiet --wait --pipe --unit="$THIEF_UNIT" \
	    -p RuntimeMaxSec=30 -p User=byk -p Group=byk -- \
	    "$TOOLS/opty-steal" "$1" "$2" > "$tmp/steal" 2>&1 < /dev/null ||
	    echo "(the thief's unit: exit $?)" >> "$tmp/steal"
}

# probe_wait: the probe's systemd-run --wait, 150 s at most; then what
# systemd says of its unit.
probe_wait() {
	n=0
	while kill -0 "$probe_job" 2>/dev/null && [ $n -lt 1500 ]; do
		sleep 0.1; n=$((n + 1))
	done
	if kill -0 "$probe_job" 2>/dev/null; then
		fail "systemd-run --wait of the probe did not return in 150 s"
		systemctl status --no-pager "$CLIENT_UNIT" 2>&1 | sed 's/^/  /'
		kill "$probe_job"
	fi
	wait "$probe_job"
}

# Every unit here has a time bound of its own (a run takes seconds): a
# probe that waits for what never comes is stopped, and its report says
# what it waited for.
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --wait --unit="$CLIENT_UNIT" -p Type=exec \
    -p RuntimeMaxSec=120 -p TimeoutStopSec=10 -p User=byk -p Group=byk \
    -p StandardOutput="file:$tmp/probe.out" \
    -p StandardError="file:$tmp/probe.err" -- \
    "$PROBE" run --cwd "$WORK" --fdtable "$FDT" --records "$FDT_DIR/rec" \
    --start "$FDT_DIR/sync/start" --ready "$FDT_DIR/sync/ready" \
    --go "$FDT_DIR/sync/go" --helper "$HELPER" < /dev/null &
probe_job=$!

# maxfd FILE: the highest descriptor named in a ready file ("PID FD...").
maxfd() { tr ' ' '\n' < "$1" | sed 1d | sort -n | tail -n 1; }

{
	echo "== the probe, as the MainPID of $CLIENT_UNIT (user byk)"
	# The unit's ExecCondition= compares the helper with the readiness
	# marker: the recorder goes over it only once the probe runs.
	n=0
	while [ "$(systemctl show -P MainPID "$CLIENT_UNIT")" = 0 ] &&
	    [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	mount --bind "$FDT" "$HELPER" && touch "$FDT_DIR/sync/start" ||
	    fail "cannot put the recorder over $HELPER"
	check "the recorder executes the shipped helper (its SHA-256 is the readiness marker's)" \
	    grep -q "^$(sha256sum < "$FDT_DIR/real-client" | cut -c1-64)  $HELPER\$" \
	    /etc/opencode/pty-supervisor-verified
	if wait_file "$FDT_DIR/sync/ready" "$CLIENT_UNIT"; then
		umount "$HELPER"
		pid=$(systemctl show -P MainPID "$CLIENT_UNIT")
		check "the probe runs from $PROBE ($(readlink "/proc/$pid/exe"))" \
		    test "$(readlink "/proc/$pid/exe")" = "$PROBE"
		steal "$pid" "$(maxfd "$FDT_DIR/sync/ready")"
		sed 's/^/  /' "$tmp/steal"
		check "pidfd_getfd of the running SEA by another byk process: EPERM, nothing copied" \
		    sh -c "grep -q '^opty-steal: getfd [0-9]* errno=EPERM$' '$tmp/steal' &&
			! grep -q ' ok' '$tmp/steal'"
		check "ptrace of the running SEA by another byk process: EPERM" \
		    grep -q '^opty-steal: ptrace errno=EPERM$' "$tmp/steal"
	else
		fail "the probe did not get its sessions live"
	fi

	echo "== positive control: the same SEA from a readable file (dumpable)"
	systemctl reset-failed "$CONTROL_UNIT" 2>/dev/null
	systemd-run --quiet --unit="$CONTROL_UNIT" -p Type=exec \
	    -p RuntimeMaxSec=120 -p User=byk \
	    -p Group=byk -- "$PROBE_SRC" hold --cwd "$WORK" \
	    --ready "$FDT_DIR/sync/control"
	if wait_file "$FDT_DIR/sync/control" "$CONTROL_UNIT"; then
		steal "$(systemctl show -P MainPID "$CONTROL_UNIT")" \
		    "$(maxfd "$FDT_DIR/sync/control")"
		sed 's/^/  /' "$tmp/steal"
		check "positive control: pidfd_getfd copies its supervisor socket" \
		    grep -q '^opty-steal: getfd [0-9]* ok socket peer=/run/opencode-pty/supervisor.sock$' "$tmp/steal"
		check "positive control: ptrace attaches to it" \
		    grep -q '^opty-steal: ptrace ok$' "$tmp/steal"
	else
		fail "positive control: the readable SEA did not start"
	fi
	systemctl stop "$CONTROL_UNIT"

	touch "$FDT_DIR/sync/go"
	probe_wait
	prc=$?
	echo "== the probe's own report (exit $prc)"
	cat "$tmp/probe.out"
	[ -s "$tmp/probe.err" ] && sed 's/^/  stderr: /' "$tmp/probe.err"
	check "the probe passed (exit $prc)" test "$prc" = 0
	if [ "$prc" != 0 ]; then
		echo "  the supervisor's and the sessions' journal meanwhile:"
		journalctl --after-cursor "$cur" --no-pager -o short-monotonic \
		    -u "$SUP" -u 'opencode-pty-*' -u "$CLIENT_UNIT" |
		    tail -n 60 | sed 's/^/  /'
		echo "  the sessions' own lines (their journal namespace):"
		journalctl --namespace=opencode-pty --no-pager -n 30 \
		    -o short-monotonic | sed 's/^/  /'
	fi
	check "it ran as a single executable application" \
	    grep -q '; single executable application: yes$' "$tmp/probe.out"
	got=$(sed -n 's/^node \(v[^ ]*\) .*/\1/p' "$tmp/probe.out")
	built=$(sed -n 's/^version=//p' "$PROBE_SRC.info")
	check "it ran Node $got, the release its base binary is ($built)" \
	    test "$got" = "$built"
	if [ "$(sed -n 's/^base=//p' "$PROBE_SRC.info")" = \
	    "$(cd "$BUILD/node" && pwd -P)/node" ]; then
		check "that is NODE_VERSION ($NODE_WANT)" test "$got" = "$NODE_WANT"
	fi
} > "$tmp/checks" 2>&1
fails=$((fails + $(grep -c '^FAIL' "$tmp/checks")))

sysd=$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
report=$BUILD/node/probe-report-systemd$sysd.txt
{
	echo "opencode-pty: Node inheritance probe report"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ); systemd $sysd;" \
	    "kernel $(uname -r); Yama ptrace_scope" \
	    "$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo absent)"
	echo "probe $PROBE: $(stat -c '%U:%G %a' "$PROBE");" \
	    "sha256 $(sha256sum < "$PROBE" | cut -c1-64)"
	echo "built by regress/node/sea.sh from $(tr '\n' ' ' < "$PROBE_SRC.info")"
	echo "helper $HELPER: sha256 $(sha256sum < "$HELPER" | cut -c1-64)"
	echo "installed supervisor $("$LIBEXEC/opencode-pty-verify-readiness" --print-revision 2>/dev/null || echo unknown)"
	cat "$tmp/checks"
	if [ "$fails" = 0 ]; then echo "== RESULT: PASS"; else echo "== RESULT: FAIL ($fails)"; fi
} > "$tmp/report"
cat "$tmp/report"
cp "$tmp/report" "$report" && echo "(report saved as $report)"
echo "SUMMARY: Node inheritance probe: $(tail -n 1 "$tmp/report" | sed 's/^== //')"
check "no session unit left" wait_no_units 10
sup_stop
finish
