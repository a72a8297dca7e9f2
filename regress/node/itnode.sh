# itnode.sh: shell functions for the integration scripts that run a real
# Node service (test only; sourced after regress/itlib.sh, inside the
# disposable systemd, as root).  The exact Node release is itlib.sh's
# $NODE_BIN: installed from $BUILD/node/node (regress/node/stage.sh put
# it there on the host) the way the Node service's binary is deployed,
# root-owned and executable but not readable by byk (0711), so that the
# service's MainPID is non-dumpable as the supervisor requires.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# Through the installed module (itlib.sh: node_entry).
NODE_SERVICE=$(node_entry "$REPO/regress/node/service.js") || exit 1
NODE_WANT=$(sed -n 's/^version=\([^ ]*\).*/\1/p' "$BUILD/node/stamp")

# node_install: checks that itlib.sh installed Node at $NODE_BIN (an
# integration script runs with IT_ACTOR=node) and that byk can read the
# service.
node_install() {
	[ "$IT_ACTOR" = node ] && [ -x "$NODE_BIN" ] ||
	    { echo "FAIL: no Node at $NODE_BIN (IT_ACTOR=$IT_ACTOR)"; exit 1; }
	runuser -u byk -- test -r "$NODE_SERVICE" ||
	    { echo "FAIL: byk cannot read $NODE_SERVICE"; exit 1; }
}

# nclient ARGS...: regress/node/service.js ARGS under the exact Node as
# the MainPID of opencode-v2.service (user byk).  Output in $tmp/out (CR
# removed), every result line in $tmp/results, the last in $tmp/last.
nclient() {
	n=$#
	for a; do sd_escape "$a"; set -- "$@" "$r"; done
	shift "$n"
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk -- \
	    "$NODE_BIN" "$NODE_SERVICE" --cwd "$WORK" "$@" \
	    > "$tmp/out.raw" 2> "$tmp/err" < /dev/null
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	grep '^node-service:' "$tmp/err" > "$tmp/results"
	actor_note "node (service.js)"
	tail -n 1 "$tmp/results" > "$tmp/last"
}

# nexpect LINE WHAT: the last session's result line is exactly LINE.
nexpect() {
	if [ "$(cat "$tmp/last")" = "node-service: $1" ]; then
		pass "$2"
	else
		fail "$2 (rc $rc: $(cat "$tmp/last"); stderr: $(head -c 400 "$tmp/err"))"
	fi
}

# rss_kib PID: resident set size in KiB.
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
