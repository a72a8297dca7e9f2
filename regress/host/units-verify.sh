#!/bin/sh
# units-verify.sh: host-level test of the unit files of etc/ as `make
# all` fills in its settings under $BUILD/etc (run by `make check-unit`;
# test-only, never installed; any user).  Needs no running systemd and
# no built binaries:
#  1. the supervisor unit keeps every directive of the Go pilot's unit
#     (regress/data/seed-supervisor.service; docs/ARCHITECTURE.md,
#     "Terms") except Type=;
#  2. `systemd-analyze verify --root=` is silent on the units and the
#     readiness drop-in, installed into a scratch root whose ExecStart=
#     and ExecCondition= programs are empty stand-ins (so this proves the
#     syntax and the paths, not the programs: regress/it/10-units.sh
#     verifies the real install inside a real systemd), and the check
#     itself does catch an unknown directive;
#  3. `systemd-analyze security --offline=yes` rates our supervisor unit
#     strictly below the seed's.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
BUILD=${BUILD:-build}
case $BUILD in /*) ETC=$BUILD/etc ;; *) ETC=$REPO/$BUILD/etc ;; esac
SEED=$REPO/regress/data/seed-supervisor.service
SUP=$ETC/opencode-pty-supervisor.service
SLICE=$ETC/opencode-pty.slice
DROPIN=$ETC/opencode-v2.service.d/10-opencode-pty-readiness.conf
failed=0

fail()
{
	echo "units-verify: FAIL: $*" >&2
	failed=1
}

for c in systemd-analyze install mktemp; do
	command -v "$c" >/dev/null 2>&1 ||
	    { echo "units-verify: FAIL: $c is missing (make deps)" >&2; exit 1; }
done
for f in "$SEED" "$SUP" "$SLICE" "$DROPIN"; do
	[ -f "$f" ] || { echo "units-verify: FAIL: $f is missing" \
	    "(make all)" >&2; exit 1; }
done
# The configured directory of the programs, as the unit names it.
LIBEXEC=$(sed -n 's|^ExecStart=\(/.*\)/opencode-pty-supervisor$|\1|p' "$SUP")
[ -n "$LIBEXEC" ] || { echo "units-verify: FAIL: no ExecStart= of the" \
    "supervisor in $SUP" >&2; exit 1; }

# Key=value lines of a unit, without comments or blank lines.
directives()
{
	sed -n 's/^[[:space:]]*\([A-Za-z][A-Za-z0-9]*=.*\)$/\1/p' "$1"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/opty-units.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# 1. Every seed directive survives, with its value, except the type and
# User=root: root is the default, and systemd 257 takes CAP_SETUID away
# from a service that names it (docs/UNITS.md).
directives "$SEED" | grep -v -e '^Type=' -e '^Description=' \
    -e '^User=root$' > "$tmp/seed"
directives "$SUP" > "$tmp/ours"
n=0
while IFS= read -r d; do
	n=$((n + 1))
	grep -qxF -- "$d" "$tmp/ours" ||
	    fail "seed directive '$d' is missing from ${SUP##*/}"
done < "$tmp/seed"
[ $n -ge 25 ] || fail "only $n directives read from the seed fixture"
grep -qx 'Type=notify' "$tmp/ours" || fail "Type= is not notify"
grep -q '^User=' "$tmp/ours" && fail "User= is set: the unit runs as root by default"
echo "units-verify: ${SUP##*/} checked $n seed directives"

# 2. A scratch root as `make install` lays it out, plus the host's own
# unit files for the dependencies (dbus.service, sysinit.target...).
root=$tmp/root
unitdir=$root/etc/systemd/system
mkdir -p "$unitdir/opencode-v2.service.d" "$root$LIBEXEC" \
    "$root/usr/lib/systemd" || exit 1
sysunits=
for d in /usr/lib/systemd/system /lib/systemd/system; do
	[ -d "$d" ] && { sysunits=$d; break; }
done
[ -n "$sysunits" ] || { fail "no system unit directory on this host"; exit 1; }
cp -a "$sysunits" "$root/usr/lib/systemd/" || exit 1
install -m 0644 "$SUP" "$SLICE" "$unitdir/" || exit 1
install -m 0644 "$DROPIN" "$unitdir/opencode-v2.service.d/" || exit 1
# The Node service is not ours: a minimal stand-in carries the drop-in.
printf '[Service]\nExecStart=%s/opencode-pty-client\nUser=byk\n' \
    "$LIBEXEC" > "$unitdir/opencode-v2.service"
for p in supervisor client verify-readiness; do
	: > "$root$LIBEXEC/opencode-pty-$p"
	chmod 0755 "$root$LIBEXEC/opencode-pty-$p"
done

# Silent and successful, or it failed: verify only warns on an unknown
# key and still exits 0.
verify_clean()
{
	out=$(cd "$tmp" && systemd-analyze verify --root="$root" "$@" 2>&1)
	rc=$?
	[ $rc = 0 ] && [ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed 's/^/    | /' >&2
	return 1
}

units="$unitdir/opencode-pty-supervisor.service $unitdir/opencode-pty.slice
$unitdir/opencode-v2.service"
# shellcheck disable=SC2086
if verify_clean $units; then
	echo "units-verify: systemd-analyze verify: clean"
else
	fail "systemd-analyze verify is not clean"
fi
# The drop-in is really read: its program must exist in the root.
rm "$root$LIBEXEC/opencode-pty-verify-readiness"
if verify_clean "$unitdir/opencode-v2.service" 2>/dev/null; then
	fail "verify did not see the drop-in's ExecCondition= program"
fi
: > "$root$LIBEXEC/opencode-pty-verify-readiness"
chmod 0755 "$root$LIBEXEC/opencode-pty-verify-readiness"
# And the check is not vacuous: one bad key makes it fail.
echo 'ProtectSystm=strict' >> "$unitdir/opencode-pty-supervisor.service"
if verify_clean "$unitdir/opencode-pty-supervisor.service" 2>/dev/null; then
	fail "verify_clean accepted an unknown directive"
fi
install -m 0644 "$SUP" "$unitdir/"

# 3. Exposure scores (lower is better).
score()
{
	(cd "$tmp" && systemd-analyze security --offline=yes "$1" 2>&1) |
	    sed -n 's/^.*Overall exposure level for [^:]*: \([0-9][0-9.]*\) .*$/\1/p'
}
ours=$(score "$SUP")
seed=$(score "$SEED")
echo "units-verify: exposure: ours ${ours:-?}, seed ${seed:-?}"
if [ -z "$ours" ] || [ -z "$seed" ]; then
	fail "systemd-analyze security --offline printed no score"
elif ! awk -v a="$ours" -v b="$seed" 'BEGIN { exit !(a + 0 < b + 0) }'; then
	fail "our exposure $ours is not below the seed's $seed"
fi

if [ $failed = 0 ]; then
	echo "units-verify: ok"
fi
exit $failed
