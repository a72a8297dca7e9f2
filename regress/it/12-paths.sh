#!/bin/sh
# 12-paths.sh: `make install` honours its settings (issue 26).  The
# install under test is set aside (not deleted) and the build of other
# settings installed with DESTDIR empty, at its real paths, in its place:
# after `make install` of the defaults, $BUILD/usr-paths (`make
# usr-paths`: PREFIX=/usr, LIBEXECDIR=/usr/libexec/opencode-pty,
# UNITDIR=/usr/lib/systemd/system); after the Debian packages, which
# have those settings, $BUILD with the defaults (/usr/local/libexec,
# /etc/systemd/system).  That install must work there: the units name
# the configured programs, the supervisor runs a session, the installed
# verifier finds its marker and its configuration good, and the
# readiness drop-in from the configured unit directory gates the
# client's unit.  Then it is removed and the install under test put
# back.  Runs as root in the disposable systemd (regress/integration.sh).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -u
: "${USR_PATHS:?USR_PATHS is not set (run through make check-integration)}"
BUILD=${BUILD:-build}
# The install under test (itinst.sh: CUR_) is set aside and the other
# settings' build (A_) installed in its place: after `make install` of
# the defaults, $BUILD/usr-paths with $USR_PATHS; after the packages
# (which have the distribution's settings), $BUILD with the defaults.
. "$REPO/regress/itinst.sh"
case $IT_INSTALL in
make)	ALT=$BUILD/usr-paths ALT_SETTINGS=$USR_PATHS ;;
deb)	ALT=$BUILD ALT_SETTINGS= ;;
esac
for kv in $ALT_SETTINGS; do
	case $kv in
	PREFIX=/* | LIBEXECDIR=/* | UNITDIR=/* | SYSUSERSDIR=/*) ;;
	*) echo "FAIL: unexpected setting '$kv' in USR_PATHS"; exit 1 ;;
	esac
done
# shellcheck disable=SC2086	# ALT_SETTINGS: no blank in them
read -r A_LX A_U A_SYSUSERSDIR A_NODEDIR A_PREFIX <<EOF
$(inst_dirs "$ALT" $ALT_SETTINGS)
EOF
[ -n "$A_PREFIX" ] || { echo "FAIL: the directories of $ALT"; exit 1; }
[ "$A_LX" != "$INST_LIBEXEC" ] && [ "$A_U" != "$INST_UNITDIR" ] || {
	echo "FAIL: $ALT installs where the install under test is"; exit 1; }
for p in supervisor relay launcher client verify-readiness; do
	[ -x "$ALT/bin/opencode-pty-$p" ] || { echo "FAIL: $ALT/bin/" \
	    "opencode-pty-$p is missing (make usr-paths)"; exit 1; }
done
CUR_LX=$INST_LIBEXEC
CUR_U=$INST_UNITDIR
CUR_SYSUSERS=$INST_SYSUSERSDIR/opencode-pty-relay.conf
A_SYSUSERS=$A_SYSUSERSDIR/opencode-pty-relay.conf
DROPIN=opencode-v2.service.d/10-opencode-pty-readiness.conf
# The loopback table's drop-in: its ExecStartPre= names the loader in
# LIBEXECDIR, so it goes with the install as the readiness one does.
LOOPBACK=opencode-v2.service.d/20-opencode-pty-loopback.conf
UNITS="opencode-pty-supervisor.service opencode-pty.slice $DROPIN $LOOPBACK"
MAN="$A_PREFIX/share/man/man8/opencode-pty-supervisor.8
$A_PREFIX/share/man/man8/opencode-pty-launcher.8
$A_PREFIX/share/man/man8/opencode-pty-client.8
$A_PREFIX/share/man/man8/opencode-pty-verify-readiness.8
$A_PREFIX/share/man/man5/opencode-pty.5"

# Nothing of the other install may be here already: it is removed after.
for f in $MAN "$A_NODEDIR/opencode-pty"; do
	[ ! -e "$f" ] || { echo "FAIL: $f exists: not a disposable system"; exit 1; }
done
if ls "$A_LX" 2>/dev/null | grep -q '^opencode-pty-'; then
	echo "FAIL: $A_LX holds opencode-pty programs: not a disposable system"
	exit 1
fi
for u in $UNITS; do
	[ ! -e "$A_U/$u" ] ||
	    { echo "FAIL: $A_U/$u exists: not a disposable system"; exit 1; }
	[ -f "$CUR_U/$u" ] ||
	    { echo "FAIL: $CUR_U/$u is not installed"; exit 1; }
done

# The install under test, set aside; put back by paths_restore.
park=$(mktemp -d /root/opty-paths.XXXXXX) || exit 1
paths_restore()
{
	systemctl stop opencode-pty-supervisor.service 2>/dev/null
	systemctl reset-failed opencode-pty-supervisor.service 2>/dev/null
	rm -f "$A_LX"/opencode-pty-*
	rmdir "$A_LX" 2>/dev/null
	# shellcheck disable=SC2086
	rm -f $MAN
	rm -rf "$A_NODEDIR/opencode-pty"
	rmdir "$A_NODEDIR" 2>/dev/null
	for u in $UNITS; do rm -f "$A_U/$u"; done
	rmdir "$A_U/opencode-v2.service.d" 2>/dev/null
	rm -f "$A_SYSUSERS"
	[ -d "$park" ] || return 0
	for f in "$park"/libexec/*; do
		[ -e "$f" ] && mv -f "$f" "$CUR_LX/"
	done
	for u in $UNITS; do
		[ -e "$park/units/$u" ] && mv -f "$park/units/$u" "$CUR_U/$u"
	done
	[ -e "$park/sysusers" ] && cp -p "$park/sysusers" "$CUR_SYSUSERS"
	rm -rf "$park"
	systemctl daemon-reload
}
trap 'paths_restore' EXIT
mkdir -p "$park/libexec" "$park/units/opencode-v2.service.d" || exit 1
mv "$CUR_LX"/opencode-pty-* "$park/libexec/" || exit 1
for u in $UNITS; do mv "$CUR_U/$u" "$park/units/$u" || exit 1; done
cp -p "$CUR_SYSUSERS" "$park/sysusers" || exit 1

# shellcheck disable=SC2086
if ! make -s --no-print-directory -o all BUILD="$ALT" $ALT_SETTINGS \
    install > "$park/install.log" 2>&1; then
	echo "FAIL: make install $ALT_SETTINGS:"
	sed 's/^/  | /' "$park/install.log"
	exit 1
fi
systemctl daemon-reload

# The sessions below use this install's programs (itlib: LIBEXEC).
IT_LIBEXEC=$A_LX
IT_ACTOR=opty-nodesim
. "$REPO/regress/itlib.sh"
trap 'itlib_cleanup; paths_restore' EXIT

pass "make install BUILD=$ALT $ALT_SETTINGS"
check "nothing left in $CUR_LX" test -z "$(ls "$CUR_LX" | grep '^opencode-pty-')"
# (On a merged /usr, systemd may name /usr/lib/... through /lib.)
frag=$(systemctl show -p FragmentPath --value "$SUP")
check "the supervisor's unit is $A_U/$SUP ($frag)" \
    test "$(readlink -f "$frag")" = "$(readlink -f "$A_U/$SUP")"
es=$(systemctl show -p ExecStart --value "$SUP")
case $es in
*"path=$A_LX/opencode-pty-supervisor "*)
	pass "ExecStart= is $A_LX/opencode-pty-supervisor" ;;
*)	fail "ExecStart= is not in $A_LX: $es" ;;
esac
for p in supervisor launcher client verify-readiness relay; do
	b=$A_LX/opencode-pty-$p
	check "$b names no $CUR_LX path" sh -c \
	    "! grep -q '$CUR_LX' '$b'"
done
check "the supervisor names $A_LX" \
    grep -q "$A_LX/opencode-pty-relay" \
    "$A_LX/opencode-pty-supervisor"

"$A_LX/opencode-pty-verify-readiness" > "$tmp/verify" 2>&1
v=$?
check "the installed verifier says ready (exit $v: $(head -c 300 \
    "$tmp/verify"))" test $v = 0

sup_start || { fail "the supervisor did not start"; finish; exit 1; }
client -c "$A_LX/opencode-pty-client" -- /bin/echo hello
expect_exit 1 0 success "a session through $A_LX"
check "its output is exactly hello" test "$(cat "$tmp/out")" = hello

# The drop-in in $A_U gates the client's unit: no marker, no start.
mv /etc/opencode/pty-supervisor-verified "$tmp/marker"
client -c "$A_LX/opencode-pty-client" -- /bin/echo hello
check "without the marker the client's unit does not run (rc $rc)" \
    sh -c "[ $rc != 0 ] && ! grep -q '^opty-nodesim: exit' '$tmp/last'"
mv "$tmp/marker" /etc/opencode/pty-supervisor-verified

check "no session unit left" wait_no_units 20
sup_stop

# Removed again, and the install under test back in force.
paths_restore
trap 'itlib_cleanup' EXIT
check "the other install is gone" sh -c "[ ! -e '$A_LX/opencode-pty-supervisor' ] &&
    [ ! -e '$A_U/$SUP' ] && [ ! -e '$A_U/$DROPIN' ]"
frag=$(systemctl show -p FragmentPath --value "$SUP")
check "the supervisor's unit is $CUR_U/$SUP again ($frag)" \
    test "$(readlink -f "$frag")" = "$(readlink -f "$CUR_U/$SUP")"
check "the programs under test are back" test -x "$CUR_LX/opencode-pty-supervisor"
finish
