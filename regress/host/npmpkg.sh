#!/bin/sh
# npmpkg.sh: host-level test (any user; run by `make check-unit`;
# test-only) of build-aux/npmpkg.sh, the npm registry fetch behind
# build-aux/node.sh, bun.sh and node-pty.sh, against a registry made of
# files (curl reads file:// URLs): a package whose tarball matches the
# sha512 of its metadata is unpacked and stamped (the positive control);
# a tarball one byte off, metadata without a sha512, and a tarball URL
# off the registry are each refused with their reason and leave nothing
# installed.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd -P)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "npmpkg: FAIL: $*"; fail=1; }

reg=$tmp/reg
mkdir -p "$reg/p/-" "$tmp/src/package/bin" "$tmp/cache" &&
    echo 'echo hello' > "$tmp/src/package/bin/tool" &&
    tar -czf "$reg/p/-/p-1.0.0.tgz" -C "$tmp/src" package || exit 1
sri=$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read())
    .digest()).decode())' "$reg/p/-/p-1.0.0.tgz") && [ -n "$sri" ] ||
    { echo "npmpkg: FAIL: python3 could not hash (make deps)"; exit 1; }
# meta VERSION INTEGRITY TARBALL: the registry's answer for p@VERSION.
meta() {
	mkdir -p "$reg/p" &&
	printf '{"name": "p", "version": "%s", "dist": {"integrity": "%s", "tarball": "%s"}}\n' \
	    "$1" "$2" "$3" > "$reg/p/$1"
}
good=file://$reg/p/-/p-1.0.0.tgz
meta 1.0.0 "sha512-$sri" "$good"
cp "$reg/p/-/p-1.0.0.tgz" "$reg/p/-/p-1.0.1.tgz" &&
    printf '\0' >> "$reg/p/-/p-1.0.1.tgz"
meta 1.0.1 "sha512-$sri" "file://$reg/p/-/p-1.0.1.tgz"
meta 1.0.2 "sha1-AAAA" "$good"
mkdir -p "$tmp/elsewhere" && cp "$reg/p/-/p-1.0.0.tgz" "$tmp/elsewhere/"
meta 1.0.3 "sha512-$sri" "file://$tmp/elsewhere/p-1.0.0.tgz"

# get VERSION: fetch p@VERSION into $tmp/cache/VERSION as node.sh does.
get() {
	( OPTY_NPM_REGISTRY=file://$reg NPMPKG_WHO='test'
	  . "$top/build-aux/npmpkg.sh"
	  npmpkg_version "$1"
	  npmpkg_tmp "$tmp/cache"
	  npmpkg_fetch p "$1" package/bin/tool
	  npmpkg_install "$tmp/cache/$1" package ) 2>&1
}

out=$(get 1.0.0) || bad "a good package was refused: $out"
[ "$(sh "$tmp/cache/1.0.0/package/bin/tool")" = hello ] ||
    bad "the good package was not unpacked"
( NPMPKG_WHO='test'; . "$top/build-aux/npmpkg.sh"
  npmpkg_stamp "$tmp/cache/1.0.0" p 1.0.0 ) || bad "no stamp for p@1.0.0"
# want VERSION TEXT: p@VERSION refused with TEXT, nothing installed.
want() {
	if out=$(get "$1"); then
		bad "p@$1 was accepted"
	fi
	case $out in
	*"test: FAIL: "*"$2"*) ;;
	*) bad "p@$1: expected '$2', got: $out" ;;
	esac
	[ ! -e "$tmp/cache/$1" ] || bad "p@$1 left $tmp/cache/$1"
}
want 1.0.1 "sha512 mismatch"
want 1.0.2 "no sha512 integrity"
want 1.0.3 "is not on the configured registry"
want 1.0.x "bad version"
[ -z "$(ls -A "$tmp/cache" | grep -v '^1\.0\.0$')" ] ||
    bad "temporary directories left: $(ls -A "$tmp/cache")"
[ $fail = 0 ] && echo "npmpkg: ok (good package, bad sha512, no sha512," \
    "tarball off the registry, bad version)"
exit $fail
