#!/bin/sh
# xterm.sh: xterm.js's headless terminal, @xterm/headless, the emulator
# regress/node/xterm.js holds as the "browser" of a web terminal server
# (regress/it/87-xterm.sh; test host only, never installed), pinned,
# fetched once from the npm registry by build-aux/npmpkg.sh (integrity
# checked) into a node_modules tree in the cache.  Prints that
# node_modules directory; regress/node/stage.sh copies it into the
# build directory, which the disposable systemd sees.
#
#	sh build-aux/xterm.sh
#
# OPTY_XTERM_CACHE (default /var/cache/opencode-pty/xterm) holds it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
# @xterm/headless 6.0.0: the registry's latest release when pinned; it
# has no dependencies.
PKGS="@xterm/headless@6.0.0"
CACHE=${OPTY_XTERM_CACHE:-/var/cache/opencode-pty/xterm}
NPMPKG_WHO=xterm.sh
. "$(dirname "$0")/npmpkg.sh"

mods=$CACHE/node_modules
# shellcheck disable=SC2086
npmpkg_modules "$CACHE" $PKGS
[ -f "$mods/@xterm/headless/package.json" ] ||
    npmpkg_die "no package.json in $mods/@xterm/headless"
echo "$mods"
