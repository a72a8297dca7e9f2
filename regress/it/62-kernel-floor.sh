#!/bin/sh
# 62-kernel-floor.sh: the supervisor on a kernel below its floor fails
# closed and says why.  The real supervisor runs under opty-oldkernel, a
# test-only seccomp wrapper started by a drop-in (nothing in the shipped
# binary knows): without SO_PEERPIDFD (Linux < 6.5) every client is
# refused with ERR_AUTH_PEER, no unit is made, and the journal names the
# kernel requirement; without Landlock the supervisor does not start.
# Each case is preceded by its control: the same client admitted by the
# unwrapped supervisor.
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

# wrap FEATURE: the next start of the supervisor runs under the wrapper.
wrap() {
	mkdir -p "$DROPIN"
	printf '[Service]\nExecStart=\nExecStart=%s %s %s/opencode-pty-supervisor\n' \
	    "$OLDK" "$1" "$LIBEXEC" > "$DROPIN/90-oldkernel.conf"
	systemctl daemon-reload
}
unwrap() { rm -rf "$DROPIN"; systemctl daemon-reload; }

# Control: this kernel has SO_PEERPIDFD, the client is admitted.
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
client -- /bin/echo floor-control
expect_exit 1 0 success "control: a session on this kernel"
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
finish
