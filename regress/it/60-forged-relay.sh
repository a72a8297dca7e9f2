#!/bin/sh
# 60-forged-relay.sh: the real root parent against a FORGED relay.  The
# forged relay (build/tools/opty-forgedrelay) is installed in place of
# opencode-pty-relay, so the supervisor service execs it exactly as in
# production; each scenario breaks the message table once.  The real
# supervisor executes only the relay it was built with, so the
# supervisor installed meanwhile is the same code built with the forged
# relay's digest (build/tools/opty-supervisor-forgedrelay).  The parent
# must log the reason, stop every unit and exit non-zero, and nothing
# else may happen.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

RELAY=$LIBEXEC/opencode-pty-relay
SUPBIN=$LIBEXEC/opencode-pty-supervisor
SCEN=/run/opty-forged-relay.scenario
cp -p "$RELAY" "$tmp/relay.real" || exit 1
cp -p "$SUPBIN" "$tmp/supervisor.real" || exit 1
restore() {
	install -o root -g root -m 0755 "$tmp/relay.real" "$RELAY"
	install -o root -g root -m 0755 "$tmp/supervisor.real" "$SUPBIN"
	marker_make
}
install -o root -g root -m 0755 "$TOOLS/opty-forgedrelay" "$RELAY"
install -o root -g root -m 0755 "$TOOLS/opty-supervisor-forgedrelay" "$SUPBIN"
# The readiness marker names the supervisor installed now.
marker_make || { echo "FAIL: cannot write the readiness marker"; exit 1; }

# scenario NAME REASON [needs-client [CONNECTIONS]]
scenario() {
	name=$1 reason=$2
	rm -f "$SCEN" "$SCEN.done"
	echo "$name" > "$SCEN"
	# --since has second granularity: the previous scenario's lines
	# must fall before this second, and this one's after it.
	sleep 1
	since=$(date '+%Y-%m-%d %H:%M:%S')
	sleep 1
	# The forged relay waits for a real client once the parent runs.
	systemctl start --no-block "$SUP"
	if [ "${3:-}" = client ]; then
		n=0
		while [ ! -S /run/opencode-pty/supervisor.sock ] && [ $n -lt 100 ]; do
			sleep 0.1; n=$((n + 1))
		done
		systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
		# -P: that many connections from the one MainPID.
		systemd-run --quiet --unit="$CLIENT_UNIT" -p Type=exec \
		    -p User=byk -p Group=byk -- "$NODESIM" \
		    -d "$WORK" -w /nonexistent ${4:+-P "$4"} -- /bin/true
	fi
	n=0
	while [ ! -e "$SCEN.done" ] || systemctl is-active -q "$SUP"; do
		# A fail-closed stop waits for every unit to go: on a
		# loaded machine that took over 10 s once.
		[ $n -gt 300 ] && break
		sleep 0.1; n=$((n + 1))
		# The first run died; the restart meets an idle relay.
		journalctl -u "$SUP" --since "$since" -o cat --no-pager |
		    grep -q 'status=1/FAILURE' && break
	done
	# The relay's last words may reach journald after it exited, with
	# no unit attached (docs/RELAY.md): its own identifier finds them
	# (the forged relay runs as root, not as the relay's user).
	# The parent's line comes by its stderr stream and PID 1's exit
	# line by the native socket: journald may store them in either
	# order.  The loop above may also end while the parent still stops
	# units (the unit is then deactivating, not active).  So both lines
	# are waited for, 30 s at most.
	n=0
	while :; do
		log=$(journalctl -u "$SUP" --since "$since" -o cat --no-pager
		    journalctl -t opencode-pty-relay --since "$since" -o cat \
		    --no-pager)
		case "$log" in
		*"$reason"*) case "$log" in *"status=1/FAILURE"*) break ;; esac
		esac
		[ $n -ge 300 ] && break
		sleep 0.1; n=$((n + 1))
	done
	case "$log" in
	*"$reason"*) pass "$name: parent refused with '$reason'" ;;
	*) fail "$name: no '$reason' in the log:"; echo "$log" | tail -n 15 ;;
	esac
	case "$log" in
	*"status=1/FAILURE"*) pass "$name: parent exited non-zero" ;;
	*) fail "$name: parent did not exit with status 1" ;;
	esac
	sup_stop
	systemctl stop "$CLIENT_UNIT" 2>/dev/null
	check "$name: no session unit left behind" wait_no_units 20
}

scenario unknown-type "unknown message type"
scenario short "packet shorter than header"
scenario length-mismatch "header length does not match packet"
scenario long "payload size not allowed for type"
scenario short-payload "payload size not allowed for type"
scenario fd-missing "descriptor missing"
scenario fd-extra "more than one descriptor"
scenario fd-unexpected "descriptor on a type that takes none"
scenario sid-range "session id out of range"
scenario wrong-state "not allowed in this state (type CLOSE_REQ, session 5, state FREE)"
scenario wrong-direction "message type sent in wrong direction"
scenario second-start "not allowed in this state (type START_REQ, session 2, state STARTING)" client
scenario unterminated "malformed START_REQ (session 7)" client
# The terminal: the window size rides only in START_REQ, a
# signal only for a running session and only from the fixed set, and
# SHUTDOWN_DONE only as the answer to a shutdown, on session id 0.
scenario winsize-zero "malformed START_REQ (session 6)" client
scenario winsize-big "malformed START_REQ (session 6)" client
scenario start-reserved "malformed START_REQ (session 6)" client
scenario resize-closed "not allowed in this state (type START_REQ, session 8, state FREE)" client
scenario signal-free "not allowed in this state (type SIGNAL_REQ, session 4, state FREE)"
scenario signal-admitted "not allowed in this state (type SIGNAL_REQ, session 3, state ADMITTED)" client
scenario signal-bad "signal 11 is not in the allowed set (session 9)" client
scenario signal-huge "signal 258 is not in the allowed set (session 9)" client
scenario signal-other-slot "not allowed in this state (type SIGNAL_REQ, session 11, state FREE)" client
scenario signal-closing "not allowed in this state (type SIGNAL_REQ, session 4, state FREE)" client
scenario signal-fd "descriptor on a type that takes none"
scenario signal-long "payload size not allowed for type"
scenario shutdown-wrong-direction "message type sent in wrong direction"
scenario shutdown-done-early "SHUTDOWN_DONE without a shutdown"
scenario shutdown-done-sid "session id out of range"
# Not a violation by itself: the parent holds the relay to 16 sessions
# (ERR_BUSY = 3); the scenario then ends with a CLOSE_REQ on a FREE slot.
scenario session-cap "session-cap: 16 admitted, the next denied with code 3" \
    client 17
# A relay may not hand one connection (one SO_COOKIE) to two slots.
scenario admit-twice "relay: connection admitted twice (sessions 2 and 3)" \
    client

restore
rm -f "$SCEN" "$SCEN.done"
finish
