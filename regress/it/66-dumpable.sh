#!/bin/sh
# 66-dumpable.sh: the Node service must be non-dumpable, and waiting
# connections are closed early.  The client's MainPID must not be attachable by an unrelated byk process:
# a dumpable client is refused (ERR_AUTH_DUMPABLE, 16) with a journal
# line saying how to fix the deployment, unless the operator's setting
# OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT=1 relaxes it, loudly.  The theft the
# rule prevents is shown working against a dumpable client (positive
# control) and failing against the admitted non-dumpable one.  And the
# parent holds no copy of a client's connection once it was decided.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

[ -x "$TOOLS/opty-steal" ] || { echo "FAIL: $TOOLS/opty-steal missing (make tools)"; exit 1; }
DROPIN=/run/systemd/system/$SUP.d/50-allow-dumpable.conf
trap 'rm -f "$DROPIN"; systemctl daemon-reload; itlib_cleanup' EXIT

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
jcount() { journalctl -u "$SUP" -o cat --no-pager | grep -c -- "$1"; }
started() { jcount 'started for client'; }

# dumpable ARGS...: the readable opty-nodesim as the client's MainPID.
dumpable() {
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" -p Type=exec \
	    -p User=byk -p Group=byk -- "$TOOLS/opty-nodesim" -d "$WORK" "$@" \
	    > "$tmp/out.raw" 2> "$tmp/err" < /dev/null
	rc=$?
	grep '^opty-nodesim:' "$tmp/err" | tail -n 1 > "$tmp/last"
}

# held BINARY: a client that connects and waits for $tmp/go before its
# start frame, as the running MainPID; sets $pid.
held() {
	rm -f "$tmp/go" "$tmp/held.err"
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
	    -p Group=byk -p StandardError="file:$tmp/held.err" -- \
	    "$1" -d "$WORK" -w "$tmp/go" -- /bin/true
	pid=$(systemctl show -P MainPID "$CLIENT_UNIT")
}

# wait_journal PATTERN COUNT: until the supervisor logged it COUNT times.
wait_journal() {
	n=0
	while [ "$(jcount "$1")" -lt "$2" ] && [ $n -lt 100 ]; do
		sleep 0.1; n=$((n + 1))
	done
	[ "$(jcount "$1")" -ge "$2" ]
}

# steal PID: opty-steal as an unrelated byk process (its own service).
steal() {
	systemctl reset-failed opty-thief.service 2>/dev/null
	systemd-run --quiet --wait --pipe --unit=opty-thief.service \
	    -p User=byk -p Group=byk -- "$TOOLS/opty-steal" "$1" \
	    > "$tmp/steal" 2>&1 < /dev/null
	sed 's/^/  /' "$tmp/steal"
}

# Socket descriptors a process holds (root in the container sees all).
socks() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:'; }

check "the client install is root:root 0711" \
    test "$(stat -c '%U:%G %a' "$NODESIM")" = "root:root 711"
check "the readable copy is readable by byk" \
    runuser -u byk -- test -r "$TOOLS/opty-nodesim"

n0=$(started)
r0=$(jcount 'refused: it is dumpable')
sup_pid=$(systemctl show -P MainPID "$SUP")
relay_pid=$(pgrep -P "$sup_pid" | head -n 1)
ps0=$(socks "$sup_pid")

# The dumpable client is refused, with a journal line on the fix.
dumpable -- /bin/echo dumpable
expect_error 16 "dumpable client refused: ERR_AUTH_DUMPABLE"
check "the journal says how to fix the deployment" \
    test "$(jcount 'refused: it is dumpable.*mode 0711 or 0111.*ptrace_scope >= 1')" -gt "$r0"
check "no unit for the dumpable client" test "$(started)" = "$n0"
check "the parent holds no socket of the refused client ($(socks "$sup_pid") = $ps0)" \
    test "$(socks "$sup_pid")" = "$ps0"

# Positive control: an unrelated byk process takes the dumpable
# client's supervisor connection and attaches to it.
held "$TOOLS/opty-nodesim"
wait_journal "peer pid $pid refused: client service is dumpable" 1
steal "$pid"
check "positive control: pidfd_getfd copies the dumpable client's supervisor socket" \
    grep -q '^opty-steal: getfd [0-9]* ok socket peer=/run/opencode-pty/supervisor.sock$' "$tmp/steal"
check "positive control: ptrace attaches to the dumpable client" \
    grep -q '^opty-steal: ptrace ok$' "$tmp/steal"
systemctl stop "$CLIENT_UNIT"

# The admitted non-dumpable client: the same theft fails with EPERM.
rs0=$(socks "$relay_pid")
held "$NODESIM"
wait_journal "admitted client pid $pid" 1
check "the non-dumpable client is admitted" test "$(jcount "admitted client pid $pid")" = 1
steal "$pid"
check "pidfd_getfd of the admitted client: EPERM, nothing copied" \
    sh -c "grep -q '^opty-steal: getfd [0-9]* errno=EPERM$' '$tmp/steal' &&
        ! grep -q ' ok' '$tmp/steal'"
check "ptrace of the admitted client: EPERM" \
    grep -q '^opty-steal: ptrace errno=EPERM$' "$tmp/steal"
# Early close: the relay holds the admitted connection (the count sees
# it), the parent does not.
check "positive control: the relay holds the admitted connection ($(socks "$relay_pid") = $rs0 + 1)" \
    test "$(socks "$relay_pid")" = $((rs0 + 1))
check "the parent holds no socket of the admitted client ($(socks "$sup_pid") = $ps0)" \
    test "$(socks "$sup_pid")" = "$ps0"
touch "$tmp/go"
n=0
while systemctl is-active -q "$CLIENT_UNIT" && [ $n -lt 100 ]; do
	sleep 0.1; n=$((n + 1))
done
grep '^opty-nodesim:' "$tmp/held.err" | tail -n 1 > "$tmp/last"
expect_exit 1 0 success "the admitted client's session ran"

# The operator's relaxation: admitted, and said loudly each time.
mkdir -p "${DROPIN%/*}"
printf '[Service]\nEnvironment=OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT=1\n' > "$DROPIN"
systemctl daemon-reload
sup_stop
sup_start || { echo "FAIL: supervisor did not start with the relaxation"; exit 1; }
check "start-up says the relaxation is in force" \
    test "$(jcount 'OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT=1: a DUMPABLE client')" -ge 1
w0=$(jcount 'admission of DUMPABLE client pid')
for i in 1 2; do
	dumpable -- /bin/echo relaxed
	expect_exit 1 0 success "relaxed: dumpable client $i admitted"
done
check "each relaxed admission is logged ($(jcount 'admission of DUMPABLE client pid') - $w0 = 2)" \
    test "$(jcount 'admission of DUMPABLE client pid')" = $((w0 + 2))
check "at warning priority" sh -c "journalctl -u '$SUP' -p warning -o cat --no-pager | grep -q 'admission of DUMPABLE client pid'"

# A value other than 0 or 1 is a typo: the supervisor does not start.
printf '[Service]\nEnvironment=OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT=yes\n' > "$DROPIN"
systemctl daemon-reload
sup_stop
check "OPENCODE_PTY_ALLOW_DUMPABLE_CLIENT=yes: the supervisor refuses to start" \
    sh -c "! systemctl start '$SUP' 2>/dev/null"
rm -f "$DROPIN"
systemctl daemon-reload
sup_stop
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
dumpable -- /bin/echo dumpable
expect_error 16 "without the setting the dumpable client is refused again"
check "no session unit left" wait_no_units 10
sup_stop
finish
