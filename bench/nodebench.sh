# nodebench.sh: make bench's Node comparison, sourced by bench/inner.sh
# inside the disposable systemd (never installed).  Output throughput of
# the same command, in turns run by run, through node-pty (a PTY of the
# Node process's own, the library Node users know) and through the
# module client/node (the supervisor), both from bench/nodetput.js under
# the same exact Node release, each as the MainPID of
# opencode-v2.service (user byk), as Buffers and as strings; and the time
# from spawn() to the first byte of `echo x` through both, beside the
# bare D-Bus call and the supervisor's own client (opty-benchc) in the
# same turns.  The Node binary is installed as the
# deployment installs it (root-owned, 0711: non-dumpable, which the
# supervisor requires); node-pty and the module readable by byk.  Raw
# lines "N PATH RUN BYTES FIRST_US LAST_US EXIT_US CODE SIGNAL" go to
# $OUT/node.txt (with the module's steps: CONNECT_US HELPER_US
# HELPER_EXIT_US, bench/nodetput.js), the latency lines to
# $OUT/node-lat.txt; bench/report-node.sh turns them into tables.
#
# Needs BENCH_NODE_BIN (build-aux/node.sh) and NODEPTY_DIR (build-aux/
# node-pty.sh), both made on the host by bench/bench.sh (the container
# has no network); RUNS, TPUT_CMD, WORK, CLIENT_UNIT, benchc and
# benchunit from inner.sh.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

NODE_LAT_N=${BENCH_NODE_LAT_N:-40}
NODE_LAT_BLOCK=${BENCH_NODE_LAT_BLOCK:-10}

NB=$NODESIM_DIR/nodebench
nodebench_install() {
	[ -x "${BENCH_NODE_BIN:-}" ] && [ -d "${NODEPTY_DIR:-}" ] ||
	    { log "BENCH_NODE_BIN or NODEPTY_DIR not set"; return 1; }
	rm -rf "$NB" &&
	install -d -o root -g root -m 0755 "$NB" "$NB/client" "$NB/np" &&
	install -o root -g root -m 0711 "$BENCH_NODE_BIN" "$NB/node" &&
	install -o root -g root -m 0644 client/node/index.js \
	    client/node/codec.js "$NB/client/" &&
	install -o root -g root -m 0644 bench/nodetput.js "$NB/" &&
	cp -R "$(dirname "$NODEPTY_DIR")" "$NB/np/node_modules" &&
	chmod -R a+rX,go-w "$NB/np"
}

# nodetput ARGS...: bench/nodetput.js as the MainPID of
# opencode-v2.service, as the Node service runs.
nodetput() {
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk -- \
	    "$NB/node" "$NB/nodetput.js" "$@" < /dev/null
}

# nodelat PATH N: N sessions of `echo x` through PATH into node-lat.txt
# as "L PATH FIRST_US EXIT_US CONNECT_US HELPER_US HELPER_EXIT_US" (the
# steps '-' where the path has none).  module, nodepty: bench/nodetput.js
# -n N, one Node process running the sessions one after the other as
# the service does, each timed from just before spawn(); bare: the D-Bus
# call with a terminal made as the parent makes it, timed from the call
# (opty-benchunit); sup: opty-benchc, the supervisor without the
# helper, timed from connect.
nodelat() {
	case $1 in
	module)	nodetput -n "$2" module "$NB/client" "$WORK" -- /bin/echo x |
		    awk '$1 == "N" && $7 == 0 {
			print "L module", $4, $6, $9, $10, $11 }' ;;
	nodepty) nodetput -n "$2" nodepty "$NB/np/node_modules/node-pty" \
		    "$WORK" -- /bin/echo x | awk '$1 == "N" && $7 == 0 {
			print "L nodepty", $4, $6, "- - -" }' ;;
	bare)	benchunit -n "$2" -- /bin/echo x |
		    awk '$1 == "U" { print "L bare", $3, $5, "- - -" }' ;;
	sup)	benchc -n "$2" -- /bin/echo x |
		    awk '$1 == "J" && $8 == 1 && $9 == 0 {
			print "L sup", $3, $5, "- - -" }' ;;
	esac >> "$OUT/node-lat.txt"
}

nodebench_install || { log "cannot install the Node bench"; exit 1; }
echo "NODE $("$NB/node" --version) node-pty" \
    "$(sed -n 's/^version=//p' "$NODEPTY_DIR/../../.opty-npm")" \
    >> "$OUT/env.txt"
echo "NODECONF lat_n=$NODE_LAT_N lat_block=$NODE_LAT_BLOCK" >> "$OUT/env.txt"
log "Node: output throughput, $RUNS x (node-pty, module; Buffers, then" \
    "strings), ${TPUT_MIB} MiB"
nodetput nodepty "$NB/np/node_modules/node-pty" "$WORK" -- /bin/true \
    > /dev/null
nodetput module "$NB/client" "$WORK" -- /bin/true > /dev/null
r=0
while [ $r -lt "$RUNS" ]; do
	for p in nodepty module nodepty-str module-str; do
		case $p in
		nodepty*) lib=$NB/np/node_modules/node-pty ;;
		*) lib=$NB/client ;;
		esac
		nodetput "$p" "$lib" "$WORK" -- /bin/sh -c "$TPUT_CMD" |
		    sed -n "s/^N \([^ ]*\) /N \1 $r /p" >> "$OUT/node.txt"
	done
	r=$((r + 1))
done
log "Node: spawn() -> first byte, echo x: $NODE_LAT_N sessions x" \
    "(node-pty, module, bare call, supervisor), in turns of $NODE_LAT_BLOCK"
left=$NODE_LAT_N
while [ "$left" -gt 0 ]; do
	b=$NODE_LAT_BLOCK
	[ "$b" -gt "$left" ] && b=$left
	left=$((left - b))
	for p in nodepty module bare sup; do
		nodelat $p "$b"
	done
done
wait_no_units 30 || log "session units left after the Node bench"
