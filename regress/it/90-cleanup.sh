#!/bin/sh
# 90-cleanup.sh: acceptance gate 9 against the real supervisor.  After a
# session the unit and its cgroup are gone and systemd announced
# UnitRemoved; a supervisor start sweeps planted orphans (strict name and
# BindsTo exactly the supervisor) and leaves lookalikes alone.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

CG=/sys/fs/cgroup/opencode.slice/opencode-pty.slice
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
busctl --system monitor --match \
    "type='signal',interface='org.freedesktop.systemd1.Manager',member='UnitRemoved'" \
    > "$tmp/mon" 2>&1 &
mon=$!
sleep 0.5
cur=$(jcursor)
client -- /bin/echo one
client -- /bin/sh -c 'echo two; exit 3'
client -F garbage -- /bin/sleep 30
wait_no_units 20
sleep 0.5
kill $mon
units=$(journalctl -u "$SUP" --after-cursor "$cur" -o cat --no-pager |
    sed -n 's/.*unit \(opencode-pty-[0-9a-f]*\.service\) started.*/\1/p')
check "three sessions were started ($(echo $units | wc -w))" \
    test "$(echo $units | wc -w)" = 3
for u in $units; do
	check "$u: UnitRemoved was emitted" grep -q "$u" "$tmp/mon"
	check "$u: no longer loaded" sh -c \
	    "test \"\$(systemctl show -P LoadState $u)\" = not-found"
	check "$u: cgroup gone" test ! -e "$CG/$u"
done
sup_stop

# Orphans.  The supervisor's start is held by a runtime drop-in until
# every planted unit exists (planting one pulls the supervisor in).
hex() { head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
D=/run/systemd/system/$SUP.d
mkdir -p "$D"
printf '[Service]\nExecStartPre=/bin/sh -c "while [ ! -e /run/opty-gate ]; do sleep 0.1; done"\n' \
    > "$D/90-test-gate.conf"
rm -f /run/opty-gate
systemctl daemon-reload
plant() {	# plant NAME BINDSTO...
	n=$1; shift
	set -- $(for b in "$@"; do echo "-p BindsTo=$b -p After=$b"; done)
	systemd-run --quiet --no-block --unit="$n" -p Type=exec "$@" /bin/sleep infinity
}
o1=opencode-pty-$(hex).service
o2=opencode-pty-$(hex).service
upper=opencode-pty-$(hex | tr a-f A-F).service
extra=opencode-pty-$(hex).service
foreign=opencode-pty-$(hex).service
scope=opencode-pty-$(hex).scope
plant "$o1" "$SUP"
plant "$o2" "$SUP"
plant "$upper" "$SUP"
plant "$extra" "$SUP" dbus.service
plant "$foreign" dbus.service
systemd-run --quiet --scope --unit="$scope" -p BindsTo="$SUP" /bin/sleep infinity &
sleep 1
cur=$(jcursor)
touch /run/opty-gate
n=0
until systemctl is-active -q "$SUP"; do
	[ $n -gt 100 ] && break; sleep 0.1; n=$((n + 1))
done
sleep 1
log=$(journalctl -u "$SUP" --after-cursor "$cur" -o cat --no-pager)
case "$log" in *"orphan sweep stopped 2 unit(s)"*) pass "the sweep stopped exactly 2 units" ;;
*) fail "sweep count:"; echo "$log" | grep -i orphan ;; esac
for u in "$o1" "$o2"; do
	check "orphan $u was removed" sh -c "! systemctl is-active -q $u"
done
for u in "$upper" "$extra" "$foreign" "$scope"; do
	check "lookalike $u was left alone" systemctl is-active -q "$u"
done
systemctl stop "$upper" "$extra" "$foreign" "$scope" 2>/dev/null
rm -rf "$D" /run/opty-gate
systemctl daemon-reload
sup_stop
check "no session unit left" wait_no_units 10
finish
