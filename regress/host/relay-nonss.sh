#!/bin/sh
# relay-nonss.sh: host-level check of the built relay (run by `make
# check-unit`; test-only; any user).  The static relay must contain no
# NSS code: no glibc resolver or user-database function and no NSS
# module loader (relay/nonss.c, relay/build.mk).  Positive control: the
# same probe finds NSS code in the dynamically linked supervisor's
# import table, so a probe that cannot match is caught.
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
# Under SAN the relay is a dynamic PIE (relay/build.mk): nothing to check.
if readelf -d "$R" 2>/dev/null | grep -q NEEDED; then
	echo "relay-nonss: FAIL: $R is not static (SAN build?)" >&2
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
