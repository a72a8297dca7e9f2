# npmpkg.sh: sourced by build-aux/node.sh, bun.sh and node-pty.sh (test
# and build host only, never installed): fetches one package version
# from the npm registry with curl, checks its tarball against the sha512
# `integrity` of the registry's own metadata and unpacks chosen members.
# A failure is one line on stderr and exit 1, never a fallback.
#
#	NPMPKG_WHO=name.sh; . build-aux/npmpkg.sh
#	npmpkg_version VERSION		exit unless a plain dotted version
#	npmpkg_tmp CACHE		NPMPKG_TMP: a fresh directory in CACHE,
#					removed at exit
#	npmpkg_fetch PKG VERSION MEMBER...
#					unpacks MEMBER... (package/...) of
#					PKG@VERSION into $NPMPKG_TMP and
#					writes the stamp $NPMPKG_TMP/$NPMPKG_STAMP
#	npmpkg_install DIR NAME...	moves $NPMPKG_TMP/NAME... and the
#					stamp into a new DIR, replacing it
#	npmpkg_place NEW DIR		NEW (with its stamp) becomes DIR
#	npmpkg_stamp DIR PKG VERSION	true if DIR was installed from
#					PKG@VERSION by npmpkg_install
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
#
# The registry is npm's own configuration (npmpkg_registry): no address
# is written here, and none is printed.
REGISTRY=${OPTY_NPM_REGISTRY:-}
# node.sh keeps the name its caches already carry.
NPMPKG_STAMP=${NPMPKG_STAMP:-.opty-npm}

npmpkg_die()
{
	echo "${NPMPKG_WHO:-npmpkg.sh}: FAIL: $*" >&2
	exit 1
}

# npmpkg_registry: REGISTRY, if not set already, from OPTY_NPM_REGISTRY or
# else `npm config get registry` (npm's npmrc files, its environment and
# its own default), without the trailing slash.
npmpkg_registry()
{
	[ -n "$REGISTRY" ] || {
		command -v npm >/dev/null 2>&1 || npmpkg_die "npm is missing:" \
		    "the npm registry comes from npm's configuration (make" \
		    "deps), or set OPTY_NPM_REGISTRY"
		REGISTRY=$(npm config get registry 2>/dev/null | tail -n 1)
	}
	REGISTRY=${REGISTRY%/}
	case $REGISTRY in
	http://?* | https://?* | file:///?*) ;;
	*) npmpkg_die "npm's configured registry is not a URL" \
	    "(npm config get registry)" ;;
	esac
}

npmpkg_version()
{
	case $1 in
	*[!0-9.]* | '' | .* | *.) npmpkg_die "bad version '$1'" ;;
	esac
}

npmpkg_tmp()
{
	command -v curl >/dev/null 2>&1 || npmpkg_die "curl is missing (make deps)"
	mkdir -p "$1" 2>/dev/null && [ -w "$1" ] ||
	    npmpkg_die "cannot write $1 (run as root or set the cache variable)"
	NPMPKG_TMP=$(mktemp -d "$1/.fetch.XXXXXX") || npmpkg_die "mktemp in $1"
	# shellcheck disable=SC2064
	trap "rm -rf '$NPMPKG_TMP'" EXIT
}

# The metadata is one JSON object; the two strings wanted are found
# without a JSON parser (nothing but POSIX tools on the host).
npmpkg_field()
{
	tr ',' '\n' < "$NPMPKG_TMP/meta.json" |
	    sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" | head -n 1
}

npmpkg_fetch()
{
	pkg=$1 ver=$2
	shift 2
	npmpkg_registry
	curl -fsS --retry 3 -o "$NPMPKG_TMP/meta.json" "$REGISTRY/$pkg/$ver" ||
	    npmpkg_die "cannot read the registry's metadata of $pkg@$ver"
	integrity=$(npmpkg_field integrity)
	tarball=$(npmpkg_field tarball)
	case $integrity in
	sha512-?*) integrity=${integrity#sha512-} ;;
	*) npmpkg_die "$pkg@$ver: no sha512 integrity in the registry's metadata" ;;
	esac
	case $tarball in
	"$REGISTRY"/?*) ;;
	*) npmpkg_die "$pkg@$ver: its tarball is not on the configured" \
	    "registry" ;;
	esac
	want=$(printf '%s' "$integrity" | base64 -d | od -An -v -tx1 |
	    tr -d ' \n')
	echo "$NPMPKG_WHO: fetching $pkg@$ver" >&2
	curl -fsS --retry 3 -o "$NPMPKG_TMP/pkg.tgz" "$tarball" ||
	    npmpkg_die "cannot fetch the tarball of $pkg@$ver"
	got=$(sha512sum "$NPMPKG_TMP/pkg.tgz" | cut -d' ' -f1)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
	    npmpkg_die "$pkg@$ver: sha512 mismatch"
	tar -xzf "$NPMPKG_TMP/pkg.tgz" -C "$NPMPKG_TMP" "$@" ||
	    npmpkg_die "cannot unpack $pkg@$ver"
	rm -f "$NPMPKG_TMP/pkg.tgz" "$NPMPKG_TMP/meta.json"
	printf 'package=%s\nversion=%s\nsha512=%s\n' "$pkg" "$ver" "$got" \
	    > "$NPMPKG_TMP/$NPMPKG_STAMP"
}

npmpkg_install()
{
	dest=$1
	shift
	mkdir "$NPMPKG_TMP/new" || npmpkg_die "cannot install into $dest"
	for m in "$@" "$NPMPKG_STAMP"; do
		mv "$NPMPKG_TMP/$m" "$NPMPKG_TMP/new/" ||
		    npmpkg_die "cannot install into $dest"
	done
	chmod 0755 "$NPMPKG_TMP/new" && npmpkg_place "$NPMPKG_TMP/new" "$dest"
}

# npmpkg_place NEW DEST: NEW becomes DEST.  Another fetch of the same
# version may have placed DEST in between (mv -T then fails rather than
# moving NEW inside it): its copy, with the same stamp, is as good.
npmpkg_place()
{
	rm -rf "$2" && mv -T "$1" "$2" 2>/dev/null && return 0
	[ -f "$2/$NPMPKG_STAMP" ] && cmp -s "$1/$NPMPKG_STAMP" "$2/$NPMPKG_STAMP" ||
	    npmpkg_die "cannot install into $2"
}

npmpkg_stamp()
{
	[ -f "$1/$NPMPKG_STAMP" ] &&
	    grep -qx "package=$2" "$1/$NPMPKG_STAMP" &&
	    grep -qx "version=$3" "$1/$NPMPKG_STAMP"
}

# npmpkg_modules CACHE PKG@VER...: each package, with its whole tarball
# (its one top directory is not always package/), into the node_modules
# tree CACHE/node_modules unless its stamp is there already.  Prints
# nothing; dies on any failure.
npmpkg_modules()
{
	_mods=$1/node_modules
	_cache=$1
	shift
	for pv in "$@"; do
		pkg=${pv%@*} ver=${pv##*@}
		npmpkg_version "$ver"
		npmpkg_stamp "$_mods/$pkg" "$pkg" "$ver" && continue
		mkdir -p "$(dirname "$_mods/$pkg")" ||
		    npmpkg_die "cannot write $_mods (run as root, or set the cache)"
		# One fetch per subshell: npmpkg_tmp's directory goes at its
		# exit.
		(
			npmpkg_tmp "$_cache"
			npmpkg_fetch "$pkg" "$ver"
			set -- "$NPMPKG_TMP"/*/
			[ $# = 1 ] && [ -d "$1" ] || npmpkg_die \
			    "$pkg@$ver: not one top directory in its tarball"
			cp "$NPMPKG_TMP/$NPMPKG_STAMP" "$1" &&
			    rm -rf "$_mods/$pkg" && mv "$1" "$_mods/$pkg" ||
			    npmpkg_die "cannot install $pkg@$ver into $_mods"
		) || exit 1
		npmpkg_stamp "$_mods/$pkg" "$pkg" "$ver" ||
		    npmpkg_die "$pkg@$ver: not installed in $_mods"
	done
}
