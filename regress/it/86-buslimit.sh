#!/bin/sh
# 86-buslimit.sh: the system bus and the supervisor's calls in flight.
# The bus answers LimitsExceeded to a connection with more calls pending
# than its max_replies_per_connection (128 in Debian's system.conf).  A
# stop or a drop of a unit's reference (UnrefUnit: the units are started
# with AddRef=yes) that it refused would leave the unit running, or ended
# and kept for good.  Twice, 16 sessions run and their client goes away
# at once, so 16 stops, 16 drops and their state reads are asked within
# milliseconds.  With the bus's own limit, the supervisor's budget of
# calls in flight (dbusd/req.c) must keep it from being refused at all.
# With the limit lowered to 8, below that budget, the journal must show
# refused calls (which proves the first count can see them) and every
# unit must go all the same: the budget comes down to what the bus
# takes.  The supervisor must serve again once the limit is back.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

LIMIT=/etc/dbus-1/system.d/zz-opty-buslimit.conf
bus_reload() {
	busctl call org.freedesktop.DBus /org/freedesktop/DBus \
	    org.freedesktop.DBus ReloadConfig
}
trap 'rm -f "$LIMIT"; bus_reload; systemctl kill -s KILL "$CLIENT_UNIT" \
    2>/dev/null; itlib_cleanup' EXIT

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
[ -d /etc/dbus-1/system.d ] ||
    { echo "FAIL: no /etc/dbus-1/system.d: not the dbus-daemon bus"; exit 1; }

running() {
	n=0
	for u in $(pty_units); do
		[ "$(systemctl show -P SubState "$u")" = running ] &&
		    n=$((n + 1))
	done
	echo $n
}
refusals() {
	journalctl --after-cursor "$1" -u "$SUP" -o cat --no-pager |
	    grep -c 'No buffer space available'
}
# 16 sessions, then their client killed (with the bus's limit lowered to
# $2 in between, if given); the journal cursor from before that.  The bus
# also reloads by itself when the file appears.
sixteen_leave() {
	bg_client -P 16 -q -- /bin/sleep 600
	n=0
	until [ "$(running)" = 16 ] || [ $n -ge 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	check "16 sessions run ($(running), $1)" test "$(running)" = 16
	cur=$(jcursor)
	if [ -n "$2" ]; then
		printf '<busconfig>\n  <limit name="max_replies_per_connection">%s</limit>\n</busconfig>\n' \
		    "$2" > "$LIMIT"
		check "the bus took the lower limit" bus_reload
	fi
	systemctl kill -s KILL "$CLIENT_UNIT"
	check "every unit is gone ($1)" wait_no_units 60
	bg_wait
}

sixteen_leave "the bus's own limit"
refused=$(refusals "$cur")
check "the bus refused none of the supervisor's calls ($refused)" \
    test "$refused" -eq 0

sixteen_leave "although the bus refused calls" 8
refused=$(refusals "$cur")
check "the bus refused some of the supervisor's calls ($refused)" \
    test "$refused" -gt 0

rm -f "$LIMIT"
check "the bus took its own limit back" bus_reload
client -- /bin/echo served
expect_exit 1 0 success "the supervisor serves again"
check "its output arrived" grep -qx served "$tmp/out"
check "no unit left" wait_no_units 20
finish
