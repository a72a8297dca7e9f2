# nodebench.sh: make bench's Node comparison, sourced by bench/inner.sh
# inside the disposable systemd (never installed).  Output throughput of
# the same command, in turns run by run, through node-pty (a PTY of the
# Node process's own, the library Node users know) and through the
# module client/node (the supervisor), both from bench/nodetput.js under
# the same exact Node release, each as the MainPID of
# opencode-v2.service (user byk).  The Node binary is installed as the
# deployment installs it (root-owned, 0711: non-dumpable, which the
# supervisor requires); node-pty and the module readable by byk.  Raw
# lines "N PATH RUN BYTES FIRST_US LAST_US EXIT_US CODE SIGNAL" go to
# $OUT/node.txt; bench/report.sh turns them into a table.
#
# Needs BENCH_NODE_BIN (build-aux/node.sh) and NODEPTY_DIR (build-aux/
# node-pty.sh), both made on the host by bench/bench.sh (the container
# has no network); RUNS, TPUT_CMD, WORK, CLIENT_UNIT from inner.sh.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

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

nodebench_install || { log "cannot install the Node bench"; exit 1; }
echo "NODE $("$NB/node" --version) node-pty" \
    "$(sed -n 's/^version=//p' "$NODEPTY_DIR/../../.opty-npm")" \
    >> "$OUT/env.txt"
log "Node: output throughput, $RUNS x (node-pty, module), ${TPUT_MIB} MiB"
nodetput nodepty "$NB/np/node_modules/node-pty" "$WORK" -- /bin/true \
    > /dev/null
nodetput module "$NB/client" "$WORK" -- /bin/true > /dev/null
r=0
while [ $r -lt "$RUNS" ]; do
	nodetput nodepty "$NB/np/node_modules/node-pty" "$WORK" -- \
	    /bin/sh -c "$TPUT_CMD" | sed -n "s/^N \([^ ]*\) /N \1 $r /p" \
	    >> "$OUT/node.txt"
	nodetput module "$NB/client" "$WORK" -- /bin/sh -c "$TPUT_CMD" |
	    sed -n "s/^N \([^ ]*\) /N \1 $r /p" >> "$OUT/node.txt"
	r=$((r + 1))
done
wait_no_units 30 || log "session units left after the Node bench"
