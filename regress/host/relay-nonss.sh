#!/bin/sh
# relay-nonss.sh: host-level check of the built relay (run by `make
# check-unit`; test-only; any user).  The static relay must contain no
# NSS code: no glibc resolver or user-database function and no NSS
# module loader (relay/nonss.c, relay/build.mk).  Positive control: the
# same probe finds NSS code in the dynamically linked supervisor's
# import table, so a probe that cannot match is caught.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
BUILD=${BUILD:-build}
R=$BUILD/bin/opencode-pty-relay
S=$BUILD/bin/opencode-pty-supervisor
for c in nm readelf; do
	command -v "$c" >/dev/null 2>&1 ||
	    { echo "relay-nonss: FAIL: $c is missing (binutils)" >&2; exit 1; }
done
for f in "$R" "$S"; do
	[ -f "$f" ] || { echo "relay-nonss: FAIL: $f not built" >&2; exit 1; }
done
# A sanitizer build (make check-asan writes SAN into $BUILD/config.mk)
# links the relay as a dynamic PIE by design (relay/build.mk): glibc's
# NSS code is then in libc.so, not in the relay, and the static-link
# property this script proves does not exist to be checked.
if [ -f "$BUILD/config.mk" ] && grep -Eq '^SAN[[:space:]]*:?=[[:space:]]*[^[:space:]]' "$BUILD/config.mk"; then
	echo "relay-nonss: $BUILD is a sanitizer build: the relay is a" \
	    "dynamic PIE there by design; the static relay is checked by" \
	    "make check-unit"
	exit 0
fi
if readelf -d "$R" 2>/dev/null | grep -q NEEDED; then
	echo "relay-nonss: FAIL: $R is not statically linked" >&2
	exit 1
fi
nss='__nss_|nss_files|_nss_|getpwnam|getpwuid|getgrnam|gethostbyname|getaddrinfo_internal'
if nm "$R" | grep -E "$nss" | head -n 5 | grep .; then
	echo "relay-nonss: FAIL: NSS code is linked into $R (above)" >&2
	exit 1
fi
nm "$R" | grep -q ' T getaddrinfo$' ||
    { echo "relay-nonss: FAIL: $R lacks relay/nonss.c's getaddrinfo" >&2; exit 1; }
if ! nm -D "$S" | grep -Eq 'getpwnam'; then
	echo "relay-nonss: FAIL: positive control: no getpwnam import in $S" >&2
	exit 1
fi
echo "relay-nonss: no NSS code in $R"
