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
for pv in $PKGS; do
	pkg=${pv%@*} ver=${pv##*@}
	npmpkg_version "$ver"
	npmpkg_stamp "$mods/$pkg" "$pkg" "$ver" && continue
	mkdir -p "$(dirname "$mods/$pkg")" ||
	    npmpkg_die "cannot write $mods (run as root or set OPTY_XTERM_CACHE)"
	# One fetch per subshell: npmpkg_tmp's directory goes at its exit.
	(
		npmpkg_tmp "$CACHE"
		npmpkg_fetch "$pkg" "$ver"
		set -- "$NPMPKG_TMP"/*/
		[ $# = 1 ] && [ -d "$1" ] ||
		    npmpkg_die "$pkg@$ver: not one top directory in its tarball"
		cp "$NPMPKG_TMP/$NPMPKG_STAMP" "$1" &&
		    rm -rf "$mods/$pkg" && mv "$1" "$mods/$pkg" ||
		    npmpkg_die "cannot install $pkg@$ver into $mods"
	) || exit 1
	npmpkg_stamp "$mods/$pkg" "$pkg" "$ver" ||
	    npmpkg_die "$pkg@$ver: not installed in $mods"
done
[ -f "$mods/@xterm/headless/package.json" ] ||
    npmpkg_die "no package.json in $mods/@xterm/headless"
echo "$mods"
