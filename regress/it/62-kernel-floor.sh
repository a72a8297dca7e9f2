#!/bin/sh
# 62-kernel-floor.sh: the supervisor on a kernel below its floor fails
# closed and says why.  The real supervisor runs under opty-oldkernel, a
# test-only seccomp wrapper started by a drop-in (nothing in the shipped
# binary knows): without SO_PEERPIDFD (Linux < 6.5) every client is
# refused with ERR_AUTH_PEER, no unit is made, and the journal names the
# kernel requirement; without Landlock the supervisor does not start.
# Below Landlock ABI 6 (landlock5: the version query answers 5) it does
# not start either, unless OPENCODE_PTY_ALLOW_LANDLOCK_UNSCOPED=1 is set
# in a drop-in: then it serves, and says so at start and at every
# admission.  Each case is preceded by its control: the same client
# admitted by the unwrapped supervisor, which logs the kernel's real ABI
# (>= 6 here) and no such warning.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

DROPIN=/run/systemd/system/$SUP.d
[ -x "$TOOLS/opty-oldkernel" ] ||
    { echo "FAIL: $TOOLS/opty-oldkernel missing (make tools)"; exit 1; }
# The supervisor's unit has PrivateTmp=yes and ProtectHome=yes: a build
# directory under /tmp or /home is not visible to it, so the wrapper is
# installed beside the test client.
OLDK=$NODESIM_DIR/opty-oldkernel
install -o root -g root -m 0755 "$TOOLS/opty-oldkernel" "$OLDK" ||
    { echo "FAIL: cannot install $OLDK"; exit 1; }
trap 'rm -rf "$DROPIN"; systemctl daemon-reload; itlib_cleanup' EXIT

started() { journalctl -u "$SUP" -o cat --no-pager | grep -c 'started for client'; }
# since CURSOR: the supervisor's journal lines from CURSOR on.  Not
# --after-cursor: with a match (-u, -p) journalctl 252 skips the first
# matching entry when the cursor's own entry does not match.
since() { journalctl -u "$SUP" --cursor="$1" -o cat --no-pager; }
# nlines CURSOR PATTERN: how many of them match.
nlines() { since "$1" | grep -c -- "$2"; }
# nwarn CURSOR PATTERN: how many of them match and are at warning
# priority (the PRIORITY field: -p has the same skip).
nwarn() {
	journalctl -u "$SUP" --cursor="$1" -o json --no-pager |
	    grep -- "$2" | grep -c '"PRIORITY":"4"'
}
UNSCOPED=OPENCODE_PTY_ALLOW_LANDLOCK_UNSCOPED
ADMIT_WARN='admission of client pid [0-9]*: the session runs WITHOUT Landlock signal'

# wrap FEATURE: the next start of the supervisor runs under the wrapper.
wrap() {
	mkdir -p "$DROPIN"
	printf '[Service]\nExecStart=\nExecStart=%s %s %s/opencode-pty-supervisor\n' \
	    "$OLDK" "$1" "$LIBEXEC" > "$DROPIN/90-oldkernel.conf"
	systemctl daemon-reload
}
unwrap() { rm -rf "$DROPIN"; systemctl daemon-reload; }

# Control: this kernel has SO_PEERPIDFD, the client is admitted.
cursor=$(jcursor)
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
client -- /bin/echo floor-control
expect_exit 1 0 success "control: a session on this kernel"
real=$(since "$cursor" | sed -n 's/^supervisor: Landlock ABI \([0-9]*\): .*/\1/p' | head -n 1)
check "control: the unwrapped supervisor logs the kernel's real Landlock ABI ($real) and it is >= 6 (this test bed needs Linux >= 6.12)" \
    test "${real:-0}" -ge 6
check "control: no unscoped warning, at start or at admission" \
    test "$(nlines "$cursor" 'WITHOUT')" = 0
sup_stop

wrap peerpidfd
cursor=$(jcursor)
sup_start || { echo "FAIL: wrapped supervisor did not start"; exit 1; }
n0=$(started)
client -- /bin/echo must-not-run
expect_error 4 "no SO_PEERPIDFD: ERR_AUTH_PEER"
check "no SO_PEERPIDFD: no unit started" test "$(started)" = "$n0"
check "no SO_PEERPIDFD: no session unit exists" wait_no_units 5
check "no SO_PEERPIDFD: the output never ran" \
    sh -c "! grep -q must-not-run '$tmp/out'"
check "no SO_PEERPIDFD: the journal names the kernel requirement" \
    sh -c "journalctl -u '$SUP' --after-cursor='$cursor' -o cat --no-pager |
	grep -q 'SO_PEERPIDFD: .*Linux >= 6.5 is required: Protocol not available'"
sup_stop
unwrap

wrap landlock
cursor=$(jcursor)
systemctl reset-failed "$SUP" 2>/dev/null
if systemctl start "$SUP" 2>/dev/null; then
	fail "no Landlock: the supervisor started"
else
	pass "no Landlock: the supervisor refuses to start"
fi
check "no Landlock: the journal names the requirement" \
    sh -c "journalctl -u '$SUP' --after-cursor='$cursor' -o cat --no-pager |
	grep -q 'Landlock is required.*Function not implemented'"
check "no Landlock: no session unit exists" wait_no_units 5
systemctl stop "$SUP" 2>/dev/null
systemctl reset-failed "$SUP" 2>/dev/null
unwrap

# Landlock ABI 5, no opt-in: no start, and the line says what is needed.
wrap landlock5
cursor=$(jcursor)
systemctl reset-failed "$SUP" 2>/dev/null
if systemctl start "$SUP" 2>/dev/null; then
	fail "Landlock ABI 5: the supervisor started without $UNSCOPED=1"
else
	pass "Landlock ABI 5: the supervisor refuses to start"
fi
check "Landlock ABI 5: the journal names ABI 6 and the setting" \
    test "$(nlines "$cursor" \
	"Landlock ABI 5 is below ABI 6: Linux >= 6.12 (Landlock ABI 6: signal and abstract UNIX socket scoping) is required, or set $UNSCOPED=1")" -ge 1
check "Landlock ABI 5: no session unit exists" wait_no_units 5
systemctl stop "$SUP" 2>/dev/null

# A value other than 0 or 1 is refused, not read as consent.
printf '[Service]\nEnvironment=%s=yes\n' "$UNSCOPED" > "$DROPIN/91-unscoped.conf"
systemctl daemon-reload
cursor=$(jcursor)
systemctl reset-failed "$SUP" 2>/dev/null
check "Landlock ABI 5, $UNSCOPED=yes: the supervisor refuses to start" \
    sh -c "! systemctl start '$SUP' 2>/dev/null"
check "$UNSCOPED=yes: the journal says 0 or 1" \
    test "$(nlines "$cursor" "$UNSCOPED=yes: must be 0 or 1")" -ge 1
systemctl stop "$SUP" 2>/dev/null

# The operator's opt-in: it serves, loudly.
printf '[Service]\nEnvironment=%s=1\n' "$UNSCOPED" > "$DROPIN/91-unscoped.conf"
systemctl daemon-reload
cursor=$(jcursor)
sup_start || { echo "FAIL: supervisor did not start with $UNSCOPED=1"; exit 1; }
mpid=$(systemctl show -P MainPID "$SUP")
check "opt-in: the unit's main process is the supervisor itself (pid $mpid)" \
    test "$(readlink "/proc/$mpid/exe")" = "$LIBEXEC/opencode-pty-supervisor"
check "opt-in: the start-up line says Landlock ABI 5" \
    test "$(nlines "$cursor" '^supervisor: Landlock ABI 5: .*signals and abstract UNIX sockets not scoped')" -ge 1
check "opt-in: a warning at start names the setting" \
    test "$(nwarn "$cursor" "supervisor: $UNSCOPED=1: Landlock ABI 5: sessions run WITHOUT signal and abstract UNIX socket scoping")" = 1
check "opt-in: the hardening report says no scoping" \
    test "$(nlines "$cursor" 'socket scoping NO (below ABI 6')" = 1
for i in 1 2; do
	client -- /bin/echo "unscoped-$i"
	expect_exit 1 0 success "opt-in: session $i runs"
	check "opt-in: session $i printed its output" grep -q "unscoped-$i" "$tmp/out"
done
check "opt-in: one admission warning per admission ($(nlines "$cursor" "$ADMIT_WARN") = 2)" \
    test "$(nlines "$cursor" "$ADMIT_WARN")" = 2
check "opt-in: each at warning priority" \
    test "$(nwarn "$cursor" "$ADMIT_WARN")" = 2
sup_stop
check "the wrapper's notification server ended with the unit" \
    sh -c "! pgrep -x opty-oldkernel >/dev/null"
unwrap

# The opt-in on a kernel with ABI >= 6 changes nothing: no warning.
mkdir -p "$DROPIN"
printf '[Service]\nEnvironment=%s=1\n' "$UNSCOPED" > "$DROPIN/91-unscoped.conf"
systemctl daemon-reload
cursor=$(jcursor)
sup_start || { echo "FAIL: supervisor did not start with $UNSCOPED=1"; exit 1; }
client -- /bin/echo scoped
expect_exit 1 0 success "opt-in on this kernel: a session runs"
check "opt-in on this kernel: said to have no effect" \
    test "$(nlines "$cursor" "$UNSCOPED=1 has no effect: Landlock ABI $real scopes")" = 1
check "opt-in on this kernel: no unscoped warning" \
    test "$(nlines "$cursor" 'WITHOUT')" = 0
sup_stop
unwrap
finish
