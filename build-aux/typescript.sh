#!/bin/sh
# typescript.sh: the TypeScript compiler and Node's type declarations
# the Node module's declarations are checked with (regress/host/
# node-pack.sh; test host only, never installed), pinned, fetched once
# from the npm registry by build-aux/npmpkg.sh (integrity checked) into
# a node_modules tree in the cache.  Prints that node_modules directory.
#
#	sh build-aux/typescript.sh
#
# OPTY_TS_CACHE (default /var/cache/opencode-pty/typescript) holds it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
# typescript 6.0.3: the last release written in JavaScript (7 is a
# native binary per platform); @types/node for Node 26, and the
# undici-types release its package.json asks for (~8.9.0).
PKGS="typescript@6.0.3 @types/node@26.6.11 undici-types@8.9.0"
CACHE=${OPTY_TS_CACHE:-/var/cache/opencode-pty/typescript}
NPMPKG_WHO=typescript.sh
. "$(dirname "$0")/npmpkg.sh"

mods=$CACHE/node_modules
# shellcheck disable=SC2086
npmpkg_modules "$CACHE" $PKGS
[ -f "$mods/typescript/bin/tsc" ] || npmpkg_die "no tsc in $mods/typescript"
echo "$mods"
