#!/bin/sh
# bun.sh: provides the exact Bun release the module's tests also run
# under (test host only, never installed) and prints the path of `bun`.
#
#	sh build-aux/bun.sh [VERSION]		default $BUN_VERSION or 1.4.4
#
# The release is the npm registry's binary package @oven/bun-linux-x64
# (@oven/bun-linux-x64-baseline on an x86-64 CPU without AVX2, as Bun's
# own `bun` package picks; @oven/bun-linux-aarch64 on arm64), fetched
# and checked against the sha512 `integrity` of the registry's metadata
# by build-aux/npmpkg.sh, and unpacked into OPTY_BUN_CACHE (default
# /var/cache/opencode-pty/bun)/VERSION.  A good cache is used without
# network access.  A failure is one line on stderr and exit 1.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
VERSION=${1:-${BUN_VERSION:-1.4.4}}
CACHE=${OPTY_BUN_CACHE:-/var/cache/opencode-pty/bun}
NPMPKG_WHO=bun.sh
. "$(dirname "$0")/npmpkg.sh"

npmpkg_version "$VERSION"
case $(uname -m) in
x86_64)
	if grep -qw avx2 /proc/cpuinfo; then
		PKG=@oven/bun-linux-x64
	else
		PKG=@oven/bun-linux-x64-baseline
	fi ;;
aarch64)
	PKG=@oven/bun-linux-aarch64 ;;
*)
	npmpkg_die "no npm binary package of Bun for $(uname -m)" ;;
esac

dir=$CACHE/$VERSION
bin=$dir/package/bin/bun
if npmpkg_stamp "$dir" "$PKG" "$VERSION" && [ -x "$bin" ] &&
    [ "$("$bin" --version 2>/dev/null)" = "$VERSION" ]; then
	echo "$bin"
	exit 0
fi

npmpkg_tmp "$CACHE"
npmpkg_fetch "$PKG" "$VERSION" package/bin/bun package/package.json
[ "$("$NPMPKG_TMP/package/bin/bun" --version 2>/dev/null)" = "$VERSION" ] ||
    npmpkg_die "$PKG@$VERSION does not run here"
npmpkg_install "$dir" package
echo "$bin"
