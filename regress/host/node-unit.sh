#!/bin/sh
# node-unit.sh: host-level test (run by `make check-unit`; test-only;
# root, or any user with OPTY_NODE_CACHE set to a writable cache): the
# Node client module's unit tests (client/node/test/*.test.js) under the
# exact Node release the deployment uses, NODE_VERSION (build-aux/node.sh
# fetches it once from the npm registry).  pty.test.js runs the real
# helper, $BUILD/bin/opencode-pty-client.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
node=$(sh build-aux/node.sh "${NODE_VERSION:-26.4.0}") ||
    { echo "node-unit: FAIL: no Node ${NODE_VERSION:-26.4.0}"; exit 1; }
[ -x "$BUILD/bin/opencode-pty-client" ] ||
    { echo "node-unit: FAIL: $BUILD/bin/opencode-pty-client not built"; exit 1; }
echo "node-unit: $("$node" --version) ($node)"
# The helper refuses any inherited descriptor above 4, and Node passes
# on whatever it inherited without close-on-exec (make's jobserver pipes,
# a terminal's extras): start Node with 0-2 only, as systemd would.
OPTY_HELPER=$BUILD/bin/opencode-pty-client exec bash -c '
for fd in $(ls /proc/$$/fd); do
	[ "$fd" -gt 2 ] && eval "exec $fd>&-"
done
exec "$@"' node-unit "$node" --test --test-reporter=spec --test-timeout=60000 \
    client/node/test/*.test.js
