#!/bin/sh
# node-paths.sh: host-level test (run by `make check-unit`; test-only;
# any user who can write a temporary directory) of the Node module as the
# build installs it ($BUILD/nodejs/opencode-pty, client/node/build.mk):
# built with the GNUmakefile's defaults and again with the .deb's
# LIBEXECDIR into two scratch build directories, each module, loaded by
# the exact Node release (build-aux/node.sh), names the helper of its own
# install as HELPER_PATH; the two differ (the control: the setting does
# reach the module); the tree's module (what the tests and the disposable
# systemd load) is the defaults' one; every other file is the tree's
# byte for byte; package.json's name and version are the package's.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
cd "$(dirname "$0")/../.." || exit 1
node=$(sh build-aux/node.sh "${NODE_VERSION:-26.4.0}") ||
    { echo "node-paths: FAIL: no Node ${NODE_VERSION:-26.4.0}"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "node-paths: FAIL: $*"; fail=1; }
ok() { echo "node-paths: ok: $*"; }
# No setting of the calling make reaches these builds.
unset MAKEFLAGS MAKELEVEL MFLAGS PREFIX LIBEXECDIR

# helper DIR: HELPER_PATH of the module in DIR, as Node loads it.
helper()
{
	"$node" -e 'process.stdout.write(require(process.argv[1]).HELPER_PATH)' \
	    "$1"
}

deb_dir=/usr/libexec/opencode-pty
make -s BUILD="$tmp/def" nodejs-module > "$tmp/log" 2>&1 &&
make -s BUILD="$tmp/deb" PREFIX=/usr LIBEXECDIR=$deb_dir nodejs-module \
    >> "$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "node-paths: FAIL: make nodejs-module"; exit 1; }
def=$(helper "$tmp/def/nodejs/opencode-pty") || bad "defaults' module"
deb=$(helper "$tmp/deb/nodejs/opencode-pty") || bad "the .deb's module"
tree=$(helper "$(pwd -P)/client/node") || bad "the tree's module"

[ "$def" = /usr/local/libexec/opencode-pty-client ] &&
    ok "defaults: $def" || bad "defaults: HELPER_PATH '$def'"
[ "$deb" = $deb_dir/opencode-pty-client ] &&
    ok "LIBEXECDIR=$deb_dir: $deb" || bad "LIBEXECDIR=$deb_dir: '$deb'"
[ "$def" != "$deb" ] || bad "the setting does not reach the module"
[ "$tree" = "$def" ] && ok "the tree's module is the defaults' one" ||
    bad "the tree's HELPER_PATH '$tree' is not the defaults' '$def'"

for f in package.json codec.js index.d.mts index.d.ts index.mjs \
    node-pty.d.ts node-pty.js; do
	for b in def deb; do
		cmp -s "client/node/$f" "$tmp/$b/nodejs/opencode-pty/$f" ||
		    bad "$b: $f differs from client/node/$f"
	done
done
n=$(diff "client/node/index.js" "$tmp/deb/nodejs/opencode-pty/index.js" |
    grep -c '^[<>]')
[ "$n" = 2 ] && ok "index.js: one line rewritten, the rest the tree's" ||
    bad "index.js: $n lines differ, not 1 rewritten"

# The ESM face sees the same value.
esm=$("$node" --input-type=module -e "import { HELPER_PATH } from
    '$tmp/deb/nodejs/opencode-pty/index.mjs';
    process.stdout.write(HELPER_PATH)") || bad "index.mjs does not load"
[ "$esm" = "$deb" ] || bad "index.mjs: HELPER_PATH '$esm', not '$deb'"

ver=$(sed -n '1s/^[^(]*(\([^)-]*\).*/\1/p' debian/changelog)
pj=$("$node" -p 'const p = require("./client/node/package.json");
    p.name + " " + p.version') || bad "package.json does not load"
[ "$pj" = "opencode-pty $ver" ] && ok "package.json: $pj" ||
    bad "package.json: '$pj', not 'opencode-pty $ver' (debian/changelog)"
[ $fail = 0 ] && echo "node-paths: PASS"
exit $fail
