#!/bin/sh
# stage.sh: puts the exact Node release where the disposable systemd sees
# it (test and build host only, never installed).  The harness binds only
# the repository and the build directory into the container, whatever OS
# tree it boots, so the binary of build-aux/node.sh's cache is linked (or
# copied) to BUILD/node/node; the scripts inside install it from there
# the way the service is deployed (root-owned, 0711).  BUILD/node/stamp
# names the release and changes only when it does.  xterm.js's headless
# terminal (build-aux/xterm.sh) goes to BUILD/node/xterm the same way.
#
#	sh regress/node/stage.sh	(BUILD, NODE_VERSION from the environment)
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
VERSION=${NODE_VERSION:-26.4.0}
node=$(sh build-aux/node.sh "$VERSION") ||
    { echo "stage.sh: FAIL: no Node $VERSION" >&2; exit 1; }
dir=$BUILD/node
mkdir -p "$dir" || exit 1
if [ "$(stat -Lc %d:%i "$node")" != "$(stat -Lc %d:%i "$dir/node" 2>/dev/null)" ]; then
	rm -f "$dir/node.new"
	ln "$node" "$dir/node.new" 2>/dev/null ||
	    cp "$node" "$dir/node.new" || exit 1
	mv -f "$dir/node.new" "$dir/node" || exit 1
fi
# The registry tarball's sha512 from the cache's record (whichever name
# the fetching script gave it), so a re-fetch of the same release is no
# change.
stamp="version=v$VERSION size=$(stat -Lc %s "$node")
$(cat "${node%/package/bin/node}"/.opty-* 2>/dev/null | grep '^sha512=')"
if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
	printf '%s\n' "$stamp" > "$dir/stamp" || exit 1
fi

# xterm.js's headless terminal for regress/it/87-xterm.sh, copied from
# build-aux/xterm.sh's cache to BUILD/node/xterm/node_modules (a copy:
# readable by byk there whatever the cache's place), again only when
# the cache's stamp differs from the staged one.
mods=$(sh build-aux/xterm.sh) ||
    { echo "stage.sh: FAIL: no @xterm/headless" >&2; exit 1; }
xt=$dir/xterm/node_modules/@xterm/headless
if ! cmp -s "$mods/@xterm/headless/.opty-npm" "$xt/.opty-npm"; then
	rm -rf "$dir/xterm.new" &&
	    mkdir -p "$dir/xterm.new/node_modules/@xterm" &&
	    cp -R "$mods/@xterm/headless" "$dir/xterm.new/node_modules/@xterm/" &&
	    chmod -R a+rX "$dir/xterm.new" &&
	    rm -rf "$dir/xterm" && mv "$dir/xterm.new" "$dir/xterm" || exit 1
fi
