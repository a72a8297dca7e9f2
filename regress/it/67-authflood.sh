#!/bin/sh
# 67-authflood.sh: connections waiting for authentication.  Two forged
# flooders open connections as fast as they can for a bounded time and
# count: a byk process outside
# opencode-v2.service and a process of another uid (nobody, in group byk
# so it can reach the socket).  Meanwhile the real client runs sessions:
# none may be refused ERR_BUSY, and the flood may cost PID 1 no D-Bus
# call: the supervisor's method calls to systemd, counted on the bus
# (dbus-monitor), during the same sessions with and without the flood.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

[ -x "$TOOLS/opty-flood" ] || { echo "FAIL: $TOOLS/opty-flood missing (make tools)"; exit 1; }
command -v dbus-monitor >/dev/null || { echo "FAIL: dbus-monitor missing (dbus-bin)"; exit 1; }
# Bounds only for a test gone wrong: the flooders are stopped (SIGUSR1)
# once the sessions are over, so the flood lasts through every one of
# them however long a session start takes on this machine.
FLOOD_SECONDS=120
FLOOD_COUNT=5000000
SESSIONS=5
trap 'systemctl stop opty-flood-byk.service opty-flood-other.service 2>/dev/null;
    [ -n "${mon:-}" ] && kill "$mon" 2>/dev/null; itlib_cleanup' EXIT

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
sup_pid=$(systemctl show -P MainPID "$SUP")
# The supervisor's unique name on the system bus.
sup_name=$(busctl --system list --no-legend | awk -v p="$sup_pid" '$1 ~ /^:/ && $2 == p { print $1; exit }')
[ -n "$sup_name" ] || { echo "FAIL: no bus name for supervisor pid $sup_pid"; exit 1; }

# monitor_start / monitor_stop: every method call to systemd in between.
monitor_start() {
	: > "$tmp/mon"
	dbus-monitor --system "type='method_call',destination='org.freedesktop.systemd1'" \
	    > "$tmp/mon" 2>&1 &
	mon=$!
	n=0
	until grep -q . "$tmp/mon" || [ $n -gt 50 ]; do sleep 0.1; n=$((n + 1)); done
	# A call of our own marks the start of the window.
	busctl --system call org.freedesktop.systemd1 /org/freedesktop/systemd1 \
	    org.freedesktop.DBus.Properties Get ss org.freedesktop.systemd1.Manager \
	    Version > /dev/null
	t1=$(awk '{ print $14 + $15 }' /proc/1/stat)
}
monitor_stop() {
	busctl --system call org.freedesktop.systemd1 /org/freedesktop/systemd1 \
	    org.freedesktop.DBus.Properties Get ss org.freedesktop.systemd1.Manager \
	    Architecture > /dev/null
	n=0
	until grep -q 'string "Architecture"' "$tmp/mon" || [ $n -gt 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
	kill "$mon"; wait "$mon" 2>/dev/null; mon=
	sup_calls=$(grep -c "^method call .* sender=$sup_name " "$tmp/mon")
	# Calls about a session's own unit (its state reads, paced by
	# timers: more of them when the machine is slower) apart from the
	# rest (identity reads, starts, stops), whose number only the
	# sessions and the connections decide.
	sup_other=$(grep "^method call .* sender=$sup_name " "$tmp/mon" |
	    grep -vc 'path=/org/freedesktop/systemd1/unit/opencode_2dpty_2d')
	# By member and path, so a count that differs says which call.
	sup_kinds=$(grep "^method call .* sender=$sup_name " "$tmp/mon" |
	    grep -v 'path=/org/freedesktop/systemd1/unit/opencode_2dpty_2d' |
	    sed 's/.* path=\([^;]*\); .*member=\([^ ]*\).*/\2 \1/' |
	    sed 's,/job/[0-9]*$,/job/N,' | sort | uniq -c |
	    awk '{ printf "%s%s %s x%s", (NR > 1 ? ", " : ""), $2, $3, $1 }')
	# Of those, the starts of a slot's devpts instance (its mount unit,
	# named in the call's first argument): one for a slot's first
	# session, not one per session (parent/pts.c).
	sup_pts=$(awk -v s="sender=$sup_name " '
	    /^[^ ]/ { inb = index($0, "method call ") == 1 &&
		index($0, s) > 0 && index($0, "member=StartTransientUnit") > 0
		next }
	    inb && /string "run-opencode.*pty-pts-[0-9a-f]+\.mount"/ {
		n++; inb = 0 }
	    END { print n + 0 }' "$tmp/mon")
	all_calls=$(grep -c '^method call ' "$tmp/mon")
	pid1_ticks=$(( $(awk '{ print $14 + $15 }' /proc/1/stat) - t1 ))
}

# sessions: SESSIONS clients one after the other; $ok counts those that
# ended by their exit, $busy those refused ERR_BUSY, and $why says how
# the first other one ended (its result line and the start of its
# stderr), so a failure names its cause.
sessions() {
	ok=0 busy=0 why=
	for i in $(seq "$SESSIONS"); do
		client -- /bin/echo "session $i"
		if grep -q '^opty-nodesim: exit code=1 status=0 result=success ' "$tmp/last"; then
			ok=$((ok + 1))
			continue
		fi
		grep -q '^opty-nodesim: error code=3 ' "$tmp/last" && busy=$((busy + 1))
		[ -n "$why" ] && continue
		why="; session $i: rc $rc: $(cat "$tmp/last"); stderr:"
		why="$why $(head -c 400 "$tmp/err" | tr '\n' '|')"
	done
}

# Baseline: the sessions alone.
monitor_start
sessions
monitor_stop
base_sup=$sup_calls base_all=$all_calls base_ticks=$pid1_ticks
base_other=$sup_other base_kinds=$sup_kinds base_pts=$sup_pts
check "baseline: $SESSIONS sessions ran ($ok$why)" test "$ok" = "$SESSIONS"
check "baseline: the count sees the supervisor's calls ($base_sup)" test "$base_sup" -gt 0

# The same sessions under the flood.
fcur=$(jcursor)
monitor_start
for who in byk other; do
	systemctl reset-failed "opty-flood-$who.service" 2>/dev/null
done
systemd-run --quiet --unit=opty-flood-byk.service -p User=byk -p Group=byk \
    -p StandardOutput="file:$tmp/flood-byk" -- \
    "$TOOLS/opty-flood" "$FLOOD_SECONDS" "$FLOOD_COUNT" 4
systemd-run --quiet --unit=opty-flood-other.service -p User=nobody \
    -p Group=nogroup -p SupplementaryGroups=byk \
    -p StandardOutput="file:$tmp/flood-other" -- \
    "$TOOLS/opty-flood" "$FLOOD_SECONDS" "$FLOOD_COUNT" 4
sleep 0.5	# both flooders at full speed before the first session
sessions
overlap=1
for who in byk other; do
	systemctl is-active -q "opty-flood-$who.service" || overlap=0
done
systemctl kill -s USR1 opty-flood-byk.service opty-flood-other.service
n=0
while systemctl is-active -q opty-flood-byk.service opty-flood-other.service &&
    [ $n -lt 200 ]; do
	sleep 0.1; n=$((n + 1))
done
monitor_stop
echo "  flood, byk outside the service: $(grep '^opty-flood:' "$tmp/flood-byk")"
echo "  flood, another uid:            $(grep '^opty-flood:' "$tmp/flood-other")"
echo "  supervisor -> systemd calls: $base_sup for $SESSIONS sessions alone, $sup_calls under the flood"
echo "    of which not about a session unit: $base_other alone, $sup_other under the flood"
echo "    of those, a slot's devpts instance started: $base_pts alone, $sup_pts under the flood"
echo "    alone:       $base_kinds"
echo "    under flood: $sup_kinds"
echo "  all calls to systemd:        $base_all alone, $all_calls under the flood"
echo "  PID 1 CPU ticks:             $base_ticks alone, $pid1_ticks under the flood"
check "the flood lasted through every session" test "$overlap" = 1
check "under the flood: $SESSIONS sessions ran ($ok$why)" test "$ok" = "$SESSIONS"
check "under the flood: no ERR_BUSY ($busy)" test "$busy" = 0
# code N in a flooder's line: how many of its connections got it.
code() { sed -n "s/.*codes=\(.*,\)*$1:\([0-9]*\).*/\2/p" "$tmp/flood-$2"; }
for who in byk other; do
	c=$(sed -n 's/.*connections=\([0-9]*\).*/\1/p' "$tmp/flood-$who")
	check "flood $who: at least 100 connections ($c)" test "${c:-0}" -ge 100
	check "flood $who: never told busy" grep -q ' busy=0 ' "$tmp/flood-$who"
done
# The byk flooder meets the client service running (a peer outside its
# cgroup: ERR_AUTH_PID) or between two sessions (no such cgroup:
# ERR_AUTH_STATE); the other uid is refused on its uid.
c=$(sed -n 's/.*connections=\([0-9]*\).*/\1/p' "$tmp/flood-byk")
p=$(code 5 byk) s=$(code 6 byk)
check "flood byk: each refused ERR_AUTH_PID ($p) or ERR_AUTH_STATE ($s) of $c" \
    test $((${p:-0} + ${s:-0})) = "$c"
check "flood byk: some met the running service ($p ERR_AUTH_PID)" test "${p:-0}" -gt 0
c=$(sed -n 's/.*connections=\([0-9]*\).*/\1/p' "$tmp/flood-other")
check "flood other uid: each refused ERR_AUTH_PID ($(code 5 other) of $c)" \
    test "$(code 5 other)" = "$c"
# The flood's connections cost no call to PID 1: apart from the state
# reads of the sessions' own units (paced by timers, so more of them on
# a slower machine) and the start of a slot's devpts instance, the
# supervisor made no more calls than for the same sessions alone.  A
# call caused by a flood connection would be an identity read or a
# manager call: it is in this count.  A connection held in admission
# can move a session to another slot, whose first session mounts its
# instance: at most one per slot (16) for the supervisor's life, never
# one per connection; that bound is checked apart.
check "the flood cost PID 1 no call ($((sup_other - sup_pts)) <= $((base_other - base_pts)), session units' state reads and slots' instances apart)" \
    test $((sup_other - sup_pts)) -le $((base_other - base_pts))
check "the count sees the slots' instances started ($base_pts alone, at least 1)" \
    test "$base_pts" -ge 1
check "under the flood, at most one instance per slot ($sup_pts <= 16)" \
    test "$sup_pts" -le 16
check "the count sees more than the state reads ($base_other)" \
    test "$base_other" -ge "$SESSIONS"

# A flooder inside the client service (children of its MainPID) passes
# the kernel's facts and needs systemd's answer for each connection: the
# parent keeps at most OPTY_AUTH_INFLIGHT (2) of those reads in flight.
# Measured on the bus: the supervisor's calls to systemd not yet
# answered, at their most (with no bound, the 16 authentication slots
# would allow 16 reads, 80 calls).
monitor_start() {
	: > "$tmp/mon"
	dbus-monitor --system \
	    "type='method_call',destination='org.freedesktop.systemd1'" \
	    "type='method_return',destination='$sup_name'" \
	    "type='error',destination='$sup_name'" > "$tmp/mon" 2>&1 &
	mon=$!
	n=0
	until grep -q . "$tmp/mon" || [ $n -gt 50 ]; do sleep 0.1; n=$((n + 1)); done
	t1=$(awk '{ print $14 + $15 }' /proc/1/stat)
}
monitor_start
systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
systemd-run --quiet --wait --unit="$CLIENT_UNIT" -p Type=exec -p User=byk \
    -p Group=byk -p StandardOutput="file:$tmp/flood-inside" -- \
    /bin/sh -c "\"\$0\" 3 $FLOOD_COUNT 4" "$TOOLS/opty-flood"
monitor_stop
maxout=$(awk -v me="$sup_name" '
	/^method call / && index($0, " sender=" me " ") {
		match($0, / serial=[0-9]+/)
		out[substr($0, RSTART + 8, RLENGTH - 8)] = 1; n++
		if (n > max) max = n
	}
	/^(method return|error) / && index($0, " destination=" me " ") {
		match($0, / reply_serial=[0-9]+/)
		k = substr($0, RSTART + 14, RLENGTH - 14)
		if (k in out) { delete out[k]; n-- }
	}
	END { print max + 0 }' "$tmp/mon")
echo "  flood inside the client service: $(grep '^opty-flood:' "$tmp/flood-inside")"
echo "  supervisor -> systemd calls: $sup_calls; at most $maxout unanswered at once"
echo "  PID 1 CPU ticks:             $pid1_ticks"
c=$(sed -n 's/.*connections=\([0-9]*\).*/\1/p' "$tmp/flood-inside")
check "flood inside: at least 100 connections ($c)" test "${c:-0}" -ge 100
check "flood inside: each refused ERR_AUTH_PID ($(code 5 inside) of $c)" \
    test "$(code 5 inside)" = "$c"
check "flood inside: systemd was asked ($sup_calls calls)" test "$sup_calls" -gt 0
# One identity read is 5 Get calls sent together (dbusd/ident.c).
check "flood inside: at most 2 reads (2 x 5 calls) in flight ($maxout calls)" \
    test "$maxout" -le 10
# One line per refused peer would use up journald's rate limit for the
# supervisor's unit and silence every later line of it: refusals are
# logged at most 10 a second per call site, the rest counted.
check "the floods used up no journal rate limit of the supervisor" sh -c \
    "! journalctl --after-cursor='$fcur' -o cat --no-pager |
	grep -q 'Suppressed .* messages from $SUP'"
check "the refusals not logged were counted" sh -c \
    "journalctl -u '$SUP' --after-cursor='$fcur' -o cat --no-pager |
	grep -q 'similar lines not logged (more than 10 a second)'"
check "the supervisor's lines still reach the journal" sh -c \
    "journalctl -u '$SUP' --after-cursor='$fcur' -o cat --no-pager |
	grep -q 'admitted client pid'"
check "no session unit left" wait_no_units 10
sup_stop
finish
