#!/bin/sh
# node-unit.sh: host-level test (run by `make check-unit`; test-only;
# root, or any user with OPTY_NODE_CACHE and OPTY_BUN_CACHE set to
# writable caches): the Node client module's unit tests
# (client/node/test/*.test.js) under the exact Node release the
# deployment uses, NODE_VERSION, with Node's own runner (`node --test`),
# then the same files under Bun, BUN_VERSION, with Bun's runner (`bun
# test`, which runs node:test's test() as its own).  build-aux/node.sh
# and bun.sh fetch each once from the npm registry.  pty.test.js runs the
# real helper, $BUILD/bin/opencode-pty-client.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
node=$(sh build-aux/node.sh "${NODE_VERSION:-26.4.0}") ||
    { echo "node-unit: FAIL: no Node ${NODE_VERSION:-26.4.0}"; exit 1; }
bun=$(sh build-aux/bun.sh "${BUN_VERSION:-1.4.4}") ||
    { echo "node-unit: FAIL: no Bun ${BUN_VERSION:-1.4.4}"; exit 1; }
[ -x "$BUILD/bin/opencode-pty-client" ] ||
    { echo "node-unit: FAIL: $BUILD/bin/opencode-pty-client not built"; exit 1; }

# only012 CMD...: CMD with descriptors 0-2 only, as systemd starts a
# service.  The helper refuses any inherited descriptor above 4, and Node
# passes on whatever it inherited without close-on-exec (make's jobserver
# pipes, a terminal's extras; runtime-fds.test.js).
only012()
{
	OPTY_HELPER=$BUILD/bin/opencode-pty-client bash -c '
	for fd in $(ls /proc/$$/fd); do
		[ "$fd" -gt 2 ] && eval "exec $fd>&-"
	done
	exec "$@"' node-unit "$@"
}

rc=0
echo "node-unit: node $("$node" --version) ($node)"
only012 "$node" --test --test-reporter=spec --test-timeout=60000 \
    client/node/test/*.test.js || { echo "node-unit: FAIL under Node"; rc=1; }
echo "node-unit: bun $("$bun" --version) ($bun)"
only012 "$bun" test --timeout 60000 client/node/test/*.test.js ||
    { echo "node-unit: FAIL under Bun"; rc=1; }
exit $rc
