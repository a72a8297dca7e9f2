#!/bin/sh
# 12-paths.sh: `make install` honours its settings (issue 26).  The
# programs, units and pages built with the distribution's settings
# ($BUILD/usr-paths, `make usr-paths`: PREFIX=/usr,
# LIBEXECDIR=/usr/libexec/opencode-pty, UNITDIR=/usr/lib/systemd/system)
# are installed with DESTDIR empty, at their real paths, in place of the
# default install (set aside, not deleted), and must work there: the
# units name the configured programs, the supervisor runs a session,
# the installed verifier finds its marker and its configuration good, and
# the readiness drop-in from the configured unit directory gates the
# client's unit.  Then that install is removed and the default one put
# back.  Runs as root in the disposable systemd (regress/integration.sh).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

set -u
: "${USR_PATHS:?USR_PATHS is not set (run through make check-integration)}"
ALT=$BUILD/usr-paths
U_PREFIX= U_LIBEXECDIR= U_UNITDIR=
for kv in $USR_PATHS; do
	case $kv in
	PREFIX=/* | LIBEXECDIR=/* | UNITDIR=/*) eval "U_$kv" ;;
	*) echo "FAIL: unexpected setting '$kv' in USR_PATHS"; exit 1 ;;
	esac
done
[ -n "$U_PREFIX" ] && [ -n "$U_LIBEXECDIR" ] && [ -n "$U_UNITDIR" ] ||
    { echo "FAIL: USR_PATHS='$USR_PATHS' lacks a setting"; exit 1; }
for p in supervisor relay launcher client verify-readiness; do
	[ -x "$ALT/bin/opencode-pty-$p" ] || { echo "FAIL: $ALT/bin/" \
	    "opencode-pty-$p is missing (make usr-paths)"; exit 1; }
done
DEF_LX=/usr/local/libexec
DEF_U=/etc/systemd/system
SYSUSERS=/etc/sysusers.d/opencode-pty-relay.conf
DROPIN=opencode-v2.service.d/10-opencode-pty-readiness.conf
# The loopback table's drop-in: its ExecStartPre= names the loader in
# LIBEXECDIR, so it goes with the install as the readiness one does.
LOOPBACK=opencode-v2.service.d/20-opencode-pty-loopback.conf
UNITS="opencode-pty-supervisor.service opencode-pty.slice $DROPIN $LOOPBACK"
MAN="$U_PREFIX/share/man/man8/opencode-pty-supervisor.8
$U_PREFIX/share/man/man8/opencode-pty-launcher.8
$U_PREFIX/share/man/man8/opencode-pty-client.8
$U_PREFIX/share/man/man8/opencode-pty-verify-readiness.8
$U_PREFIX/share/man/man5/opencode-pty.5"

# Nothing of the other install may be here already: it is removed after.
for f in "$U_LIBEXECDIR" $MAN; do
	[ ! -e "$f" ] || { echo "FAIL: $f exists: not a disposable system"; exit 1; }
done
for u in $UNITS; do
	[ ! -e "$U_UNITDIR/$u" ] ||
	    { echo "FAIL: $U_UNITDIR/$u exists: not a disposable system"; exit 1; }
	[ -f "$DEF_U/$u" ] ||
	    { echo "FAIL: $DEF_U/$u is not installed (make install)"; exit 1; }
done

# The default install, set aside; put back by paths_restore.
park=$(mktemp -d /root/opty-paths.XXXXXX) || exit 1
paths_restore()
{
	systemctl stop opencode-pty-supervisor.service 2>/dev/null
	systemctl reset-failed opencode-pty-supervisor.service 2>/dev/null
	rm -rf "$U_LIBEXECDIR"
	# shellcheck disable=SC2086
	rm -f $MAN
	for u in $UNITS; do rm -f "$U_UNITDIR/$u"; done
	rmdir "$U_UNITDIR/opencode-v2.service.d" 2>/dev/null
	[ -d "$park" ] || return 0
	for f in "$park"/libexec/*; do
		[ -e "$f" ] && mv -f "$f" "$DEF_LX/"
	done
	for u in $UNITS; do
		[ -e "$park/units/$u" ] && mv -f "$park/units/$u" "$DEF_U/$u"
	done
	[ -e "$park/sysusers" ] && cp -p "$park/sysusers" "$SYSUSERS"
	rm -rf "$park"
	systemctl daemon-reload
}
trap 'paths_restore' EXIT
mkdir -p "$park/libexec" "$park/units/opencode-v2.service.d" || exit 1
mv "$DEF_LX"/opencode-pty-* "$park/libexec/" || exit 1
for u in $UNITS; do mv "$DEF_U/$u" "$park/units/$u" || exit 1; done
cp -p "$SYSUSERS" "$park/sysusers" || exit 1

# shellcheck disable=SC2086
if ! make -s --no-print-directory -o all BUILD="$ALT" $USR_PATHS \
    install > "$park/install.log" 2>&1; then
	echo "FAIL: make install $USR_PATHS:"
	sed 's/^/  | /' "$park/install.log"
	exit 1
fi
systemctl daemon-reload

# The sessions below use this install's programs (itlib: LIBEXEC).
IT_LIBEXEC=$U_LIBEXECDIR
IT_ACTOR=opty-nodesim
. "$REPO/regress/itlib.sh"
trap 'itlib_cleanup; paths_restore' EXIT

pass "make install $USR_PATHS"
check "nothing left in $DEF_LX" test -z "$(ls "$DEF_LX" | grep '^opencode-pty-')"
# (On a merged /usr, systemd may name /usr/lib/... through /lib.)
frag=$(systemctl show -p FragmentPath --value "$SUP")
check "the supervisor's unit is $U_UNITDIR/$SUP ($frag)" \
    test "$(readlink -f "$frag")" = "$(readlink -f "$U_UNITDIR/$SUP")"
es=$(systemctl show -p ExecStart --value "$SUP")
case $es in
*"path=$U_LIBEXECDIR/opencode-pty-supervisor "*)
	pass "ExecStart= is $U_LIBEXECDIR/opencode-pty-supervisor" ;;
*)	fail "ExecStart= is not in $U_LIBEXECDIR: $es" ;;
esac
for p in supervisor launcher client verify-readiness relay; do
	b=$U_LIBEXECDIR/opencode-pty-$p
	check "$b names no $DEF_LX path" sh -c \
	    "! grep -q '$DEF_LX' '$b'"
done
check "the supervisor names $U_LIBEXECDIR" \
    grep -q "$U_LIBEXECDIR/opencode-pty-relay" \
    "$U_LIBEXECDIR/opencode-pty-supervisor"

"$U_LIBEXECDIR/opencode-pty-verify-readiness" > "$tmp/verify" 2>&1
v=$?
check "the installed verifier says ready (exit $v: $(head -c 300 \
    "$tmp/verify"))" test $v = 0

sup_start || { fail "the supervisor did not start"; finish; exit 1; }
client -c "$U_LIBEXECDIR/opencode-pty-client" -- /bin/echo hello
expect_exit 1 0 success "a session through $U_LIBEXECDIR"
check "its output is exactly hello" test "$(cat "$tmp/out")" = hello

# The drop-in in $U_UNITDIR gates the client's unit: no marker, no start.
mv /etc/opencode/pty-supervisor-verified "$tmp/marker"
client -c "$U_LIBEXECDIR/opencode-pty-client" -- /bin/echo hello
check "without the marker the client's unit does not run (rc $rc)" \
    sh -c "[ $rc != 0 ] && ! grep -q '^opty-nodesim: exit' '$tmp/last'"
mv "$tmp/marker" /etc/opencode/pty-supervisor-verified

check "no session unit left" wait_no_units 20
sup_stop

# Removed again, and the default install back in force.
paths_restore
trap 'itlib_cleanup' EXIT
check "the other install is gone" sh -c "[ ! -e '$U_LIBEXECDIR' ] &&
    [ ! -e '$U_UNITDIR/$SUP' ] && [ ! -e '$U_UNITDIR/$DROPIN' ]"
frag=$(systemctl show -p FragmentPath --value "$SUP")
check "the supervisor's unit is $DEF_U/$SUP again ($frag)" \
    test "$frag" = "$DEF_U/$SUP"
check "the default programs are back" test -x "$DEF_LX/opencode-pty-supervisor"
finish
