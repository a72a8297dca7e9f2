#!/bin/sh
# repro.sh: acceptance gate 1, `make repro`.  Build tool; runs as any
# user and changes nothing in the repository.  Clones the committed
# revision (HEAD) twice, into two fresh directories whose paths differ in
# length, runs `make all` in each, and fails unless every program that
# `make install` would install is byte-identical in both.  Prints the
# record the gate asks for: source revision (and whether the work tree
# differs from it), compiler, linker and library versions, the flags and
# command used, and the SHA-256 of each binary; also writes it to
# $BUILD/repro.txt.
#
# Only committed content is built: uncommitted changes cannot be named by
# a revision, so they are reported, never included.  Never runs `make
# check` (no recursion into the test suites).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -eu
export LC_ALL=C TZ=UTC

prog=repro
die()
{
	echo "$prog: FAIL: $*" >&2
	exit 1
}

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
BUILD=${BUILD:-build}
for c in git make sha256sum pkg-config cmp mktemp; do
	command -v "$c" >/dev/null 2>&1 || die "$c is required (make deps)"
done
# Whatever the caller's make or git state, the clones build alone.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GIT_DIR GIT_WORK_TREE \
    GIT_INDEX_FILE

rev=$(git -C "$REPO" rev-parse --verify HEAD) || die "no HEAD revision"
epoch=$(git -C "$REPO" log -1 --format=%ct "$rev")
modified=$(git -C "$REPO" status --porcelain --untracked-files=no | wc -l)
untracked=$(git -C "$REPO" status --porcelain --untracked-files=normal |
    grep -c '^??' || true)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/opty-repro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# Different lengths, so a path that leaks into a binary shows.
dir_a=$tmp/a
dir_b=$tmp/second-build-in-a-much-longer-directory-name
build_one()
{
	d=$1
	git clone -q --no-checkout --no-hardlinks "$REPO" "$d" ||
	    die "git clone into $d failed"
	git -C "$d" -c advice.detachedHead=false checkout -q --detach "$rev" ||
	    die "git checkout $rev in $d failed"
	# The clone's own HEAD, so the embedded revision is the same.
	if ! SOURCE_DATE_EPOCH=$epoch make -C "$d" -j"$(nproc)" \
	    --no-print-directory all BUILD=build > "$d.log" 2>&1; then
		tail -n 40 "$d.log" >&2
		die "make all failed in $d (log above)"
	fi
}

# Asks a clone's own make for a variable's value.
make_var()
{
	make -C "$1" -s --no-print-directory BUILD=build \
	    --eval="repro-print: ; @echo \$($2)" repro-print
}

build_one "$dir_a"
build_one "$dir_b"

progs=$(make_var "$dir_a" PROGS)
[ "$progs" = "$(make_var "$dir_b" PROGS)" ] ||
    die "the two clones disagree about PROGS"
[ -n "$progs" ] || die "revision $rev declares no programs to install"

record=$tmp/record
{
	echo "# opencode-pty reproducible build record (acceptance gate 1)"
	echo "date:      $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "revision:  $rev"
	if [ "$modified" -ne 0 ]; then
		echo "work tree: $modified tracked file(s) modified since" \
		    "$rev; NOT built, the binaries are of $rev only"
	else
		echo "work tree: no tracked file differs from $rev"
	fi
	[ "$untracked" -eq 0 ] ||
	    echo "untracked: $untracked path(s) not part of the revision," \
		"not built"
	if src=$(sh "$dir_a/build-aux/review-source-hash" 2>/dev/null); then
		echo "source:    pty-source:sha256:$src"
	else
		echo "source:    (no build-aux/review-source-hash at $rev)"
	fi
	echo "SOURCE_DATE_EPOCH=$epoch"
	echo "command:   git clone $REPO DIR; git -C DIR checkout --detach" \
	    "$rev; SOURCE_DATE_EPOCH=$epoch make -C DIR all BUILD=build"
	echo "dirs:      $dir_a"
	echo "           $dir_b"
	cc=$(make_var "$dir_a" CC)
	echo "CC:        $cc: $($cc --version | head -n 1)"
	echo "ld:        $(ld --version | head -n 1)"
	for v in CFLAGS LDFLAGS; do
		echo "$v: $(make_var "$dir_a" "$v" | sed "s|$dir_a|DIR|g")"
	done
	for p in libsystemd libevent_core libseccomp cmocka; do
		echo "pkg-config $p: $(pkg-config --modversion "$p" 2>&1)"
	done
	if command -v dpkg-query >/dev/null 2>&1; then
		dpkg-query -W -f='dpkg ${Package}: ${Version}\n' gcc \
		    binutils libc6-dev libsystemd-dev libevent-dev \
		    libseccomp-dev make 2>/dev/null || true
	fi
	echo "# sha256 of the programs \`make install\` installs"
} > "$record"

differ=
for p in $progs; do
	a=$dir_a/build/bin/$p
	b=$dir_b/build/bin/$p
	if [ ! -f "$a" ] || [ ! -f "$b" ]; then
		die "$p was not built"
	fi
	if cmp -s "$a" "$b"; then
		echo "$(sha256sum < "$a" | cut -d' ' -f1)  $p" >> "$record"
	else
		echo "DIFFERENT  $p: $(sha256sum < "$a" | cut -d' ' -f1)" \
		    "vs $(sha256sum < "$b" | cut -d' ' -f1)" >> "$record"
		differ="$differ $p"
	fi
done
if [ -n "$differ" ]; then
	echo "result:    NOT reproducible:$differ" >> "$record"
else
	echo "result:    reproducible, both builds byte-identical" >> "$record"
fi

cat "$record"
case $BUILD in
/*) out=$BUILD/repro.txt ;;
*) out=$REPO/$BUILD/repro.txt ;;
esac
mkdir -p "${out%/*}" && cp "$record" "$out" && echo "(record: $out)"
[ -z "$differ" ] || die "binaries differ:$differ"
