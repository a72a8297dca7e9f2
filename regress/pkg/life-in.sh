#!/bin/sh
# life-in.sh: the package's life inside a fresh system of one release,
# booted by regress/pkg/life.sh (test only; root in the disposable
# systemd, cwd = the repository, no network).  The Node service's user
# byk exists, as on a host the package is made for; nftables is not
# installed and its .deb waits in apt's cache, with the release's lists.
#
#  1. `apt-get install ./opencode-pty_*.deb ./node-opencode-pty_*.deb`
#     pulls nftables, leaves the supervisor running and enabled, and
#     the installed verifier says ready once the operator's marker is
#     written; a session through the installed Node module and helper
#     prints its output; gates 2 and 3 of docs/ROOT-ACCEPTANCE.md hold
#     on the packaged files; a session's command reaches no byk process
#     outside it (signal, limits, /proc) and not the host's /tmp, while
#     the same probe as byk outside reaches each (the control); its
#     /dev/pts holds its own terminal only (the attack on other
#     terminals is 82-terminals.sh); cleanup: no unit, no mount left.
#  2. `apt-get remove` stops the supervisor: no session unit, socket,
#     runtime directory or terminal mount is left; the conffiles stay.
#  3. `apt-get purge` removes the conffiles and the programs.
#  4. The earlier version installed, a session live, the upgrade to this
#     version: that client gets ERR_SHUTDOWN (the restart after the
#     upgrade stops the supervisor, docs/PACKAGING.md), no unit is left,
#     the supervisor runs again, a new session works.
#  5. purge and `apt-get autoremove --purge`: /etc, /usr, /home, /opt and
#     /srv are as before the first install, but for the relay's system
#     user (kept, as Debian keeps system users) and the paths this test
#     writes as the operator (the marker, the Node actor, byk's work
#     directory).
#  6. Masked before the install (a host that keeps it off until its
#     gates): the install succeeds and the supervisor does not run;
#     unmasked and started, a session works.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
: "${DEBDIR:?}" "${PREVDIR:?}" "${BUILD:?}" "${TOOLS:?}" "${REPO:?}"
export DEBIAN_FRONTEND=noninteractive
LX=/usr/libexec/opencode-pty
MOD=/usr/share/nodejs/opencode-pty
PKGS="opencode-pty node-opencode-pty"
ITLIB_BASE=1
. "$REPO/regress/itlib.sh"
ITLIB_BASE=0
VICTIM=opty-pkg-victim.service
# The snapshots outlive the $tmp of either sourcing of itlib.
snapd=$(mktemp -d -p /var/lib opty-pkg.XXXXXX) || exit 1
PLANT=/tmp/opty-pkg-planted

# What the package may not touch, as names, types, modes and owners, and
# the content of /etc; the operator's own paths apart.
snap()
{
	find /etc /usr /home /opt /srv -xdev \( -path /etc/opencode -o \
	    -path /usr/local/lib/opencode-pty-test -o -path /home/byk/work \
	    -o -name '*-' \) -prune -o -printf '%p %y %m %u %g\n' | sort
	find /etc -xdev \( -path /etc/opencode -o -name '*-' \) -prune -o \
	    -type f -print0 | sort -z | xargs -0 sha256sum
}

# apt_in WHAT DEBS...: apt-get install from files.  Nothing can be
# downloaded: the container has a network of its own, with no route out.
# (apt's --no-download refuses files named on its command line.)
apt_in()
{
	what=$1; shift
	apt-get -y install "$@" > "$tmp/apt" 2>&1
	rc=$?
	check "$what (apt-get exit $rc)" test $rc = 0 ||
	    tail -n 20 "$tmp/apt" | sed 's/^/  apt: /'
}

# apt_do WHAT ARGS...: another apt-get run that must succeed.
apt_do()
{
	what=$1; shift
	apt-get -y "$@" > "$tmp/apt" 2>&1
	rc=$?
	check "$what (apt-get exit $rc)" test $rc = 0 ||
	    tail -n 20 "$tmp/apt" | sed 's/^/  apt: /'
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'; }
not_installed() { ! installed "$1"; }
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

# session_probe: what a command sees, in a session and as byk outside.
PROBE='kill -0 "$1" 2>/dev/null && echo SIGNAL
prlimit --pid "$1" --nofile > /dev/null 2>&1 && echo LIMITS
test -e "/proc/$1" && echo PROC
test -e "$2" && echo TMP
ls /dev/pts | grep -vx ptmx | wc -l | sed "s/^/TERMINALS=/"
echo PROBED'

# --- 0: the fresh system
check "opencode-pty is not installed" sh -c "! dpkg-query -W opencode-pty > /dev/null 2>&1"
check "nftables is not installed (taken out to be pulled)" not_installed nftables
check "nftables waits in apt's cache" sh -c 'ls /var/cache/apt/archives/nftables_*.deb'
id -u byk > /dev/null 2>&1 || useradd -m -U byk
snap > "$snapd/snap0"
dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' |
    sort > "$snapd/pkgs0"
cp -p /etc/passwd /etc/group /etc/shadow /etc/gshadow "$snapd/"

# --- 1: install
apt_in "apt-get install of $DEBDIR's packages" \
    "$DEBDIR"/opencode-pty_*.deb "$DEBDIR"/node-opencode-pty_*.deb
check "nftables was pulled as a dependency" installed nftables
check "nftables is marked automatically installed" \
    sh -c 'apt-mark showauto | grep -qx nftables'
check "the supervisor is running after the install" \
    systemctl is-active -q opencode-pty-supervisor.service
check "the supervisor is enabled" \
    systemctl is-enabled -q opencode-pty-supervisor.service
check "the client helper is installed 0711" \
    test "$(stat -c %a "$LX/opencode-pty-client")" = 711
conffiles=$(dpkg-query -W -f='${Conffiles}\n' opencode-pty | awk 'NF { print $1 }')
# Gates 2 and 3 of docs/ROOT-ACCEPTANCE.md on the packaged files, by their
# real paths (bookworm's /lib is a link to /usr/lib, which gate 3
# refuses on the way to a file).
UD=/usr/lib/systemd/system
systemd-analyze verify "$UD/opencode-pty-supervisor.service" \
    "$UD/opencode-pty.slice" > "$snapd/gate2" 2>&1
check "gate 2: systemd-analyze verify of the installed units says nothing" \
    test ! -s "$snapd/gate2" || sed 's/^/  /' "$snapd/gate2"
set --
for f in "$UD/opencode-pty-supervisor.service" "$UD/opencode-pty.slice" \
    "$UD"/opencode-v2.service.d/*-opencode-pty-*.conf \
    /usr/lib/sysusers.d/opencode-pty-relay.conf $conffiles; do
	set -- "$@" -f "$f"
done
sh build-aux/install-check.sh "$@" "$LX" opencode-pty-supervisor \
    opencode-pty-relay opencode-pty-launcher opencode-pty-client \
    opencode-pty-verify-readiness opencode-pty-loopback > "$snapd/gate3" 2>&1
check "gate 3: install-check on the packaged programs and files" test $? = 0 ||
    sed 's/^/  /' "$snapd/gate3"
n=$(( $# / 2 + 6 ))
check "gate 3 checked the $n programs and files ($(tail -n 1 "$snapd/gate3"))" \
    grep -q "^install-check: ok: $n files " "$snapd/gate3"
check "the package has conffiles ($(echo $conffiles))" test -n "$conffiles"

# The sessions below: the installed programs (itlib: LIBEXEC), the
# installed Node module (its default helper is the package's).
f0=$fails
IT_INSTALL=deb IT_DEB=$DEBDIR
IT_ACTOR=node
. "$REPO/regress/itlib.sh"
fails=$f0
# itlib stops what an earlier script left running: the supervisor too.
sup_start || fail "the supervisor does not start again"
trap 'systemctl stop "$VICTIM" 2>/dev/null; rm -rf "$PLANT" "$snapd"
    itlib_cleanup' EXIT
"$LX/opencode-pty-verify-readiness" > "$tmp/verify" 2>&1
v=$?
check "the installed verifier says ready (exit $v: $(head -c 200 "$tmp/verify"))" \
    test $v = 0
CLIENT_PROPS="-p Environment=OPTY_NODE_MODULE=$MOD"
client -- /bin/echo hello
expect_exit 1 0 success "a session through the installed module and helper"
check "its output is exactly hello" test "$(cat "$tmp/out")" = hello
# The control: the module named is the one that runs.
CLIENT_PROPS="-p Environment=OPTY_NODE_MODULE=/nonexistent"
client -- /bin/echo hello
check "the control: no session through a module that is not there" \
    sh -c "! grep -q '^opty-nodesim: exit' '$tmp/last'"
CLIENT_PROPS="-p Environment=OPTY_NODE_MODULE=$MOD"

# Isolation rows, each with its control outside the session.
systemctl reset-failed "$VICTIM" 2>/dev/null
systemd-run --quiet --unit="$VICTIM" -p User=byk -p Group=byk /bin/sleep 600
victim=$(systemctl show -P MainPID "$VICTIM")
echo planted > "$PLANT" && chmod 0644 "$PLANT"
client -- /bin/sh -c "$PROBE" sh "$victim" "$PLANT"
grep -q PROBED "$tmp/out" || fail "the probe did not run in a session: $(cat "$tmp/out")"
for w in SIGNAL LIMITS PROC TMP; do
	check "session: $w of byk's pid $victim not reached" \
	    sh -c "! grep -qx $w '$tmp/out'"
done
check "session: only its own terminal in /dev/pts ($(grep TERMINALS "$tmp/out"))" \
    grep -qx TERMINALS=1 "$tmp/out"
runuser -u byk -- /bin/sh -c "$PROBE" sh "$victim" "$PLANT" > "$tmp/ctl" 2>&1
for w in SIGNAL LIMITS PROC TMP; do
	check "control, byk outside: $w of pid $victim reached" grep -qx $w "$tmp/ctl"
done
systemctl stop "$VICTIM"
check "cleanup: no session unit left" wait_no_units 20
# The slots' instances stay for their next sessions (parent/pts.c), with
# no terminal left in them; remove, below, unmounts them.
check "cleanup: no terminal left in the instances kept" test -z \
    "$(for d in /run/opencode-pty/pts/*; do ls -A "$d"; done 2>/dev/null |
    grep -vx ptmx)"

# --- 2: remove
apt_do "apt-get remove" remove $PKGS
check "remove: the supervisor is stopped" \
    sh -c '! systemctl is-active -q opencode-pty-supervisor.service'
check "remove: its unit is gone ($(systemctl show -P LoadState opencode-pty-supervisor.service))" \
    test "$(systemctl show -P LoadState opencode-pty-supervisor.service)" = not-found
check "remove: no runtime directory or socket" test ! -e /run/opencode-pty ||
    { find /run/opencode-pty -ls; grep ' /run/opencode-pty' /proc/self/mountinfo
      systemctl list-units --all --no-legend 'run-opencode*'; } 2>&1 |
    sed 's/^/  left: /'
check "remove: no session unit" wait_no_units 5
check "remove: no terminal mount unit" test -z \
    "$(systemctl list-units --all --plain --no-legend 'run-opencode\x2dpty-pts-*.mount')"
check "remove: the programs are gone" test ! -e "$LX"
for c in $conffiles; do
	check "remove: conffile $c stays" test -e "$c"
done

# --- 3: purge (node-opencode-pty, which has no conffile, is gone)
apt_do "apt-get purge" purge opencode-pty
for c in $conffiles; do
	check "purge: conffile $c removed" test ! -e "$c"
done
check "purge: nothing of the package in dpkg's database" \
    sh -c "! dpkg-query -W opencode-pty > /dev/null 2>&1"

# --- 4: upgrade from the earlier version with a live session
apt_in "apt-get install of the earlier version" "$PREVDIR"/*.deb
pv=$(version opencode-pty)
check "the earlier version is installed ($pv)" sh -c "case '$pv' in *~prev) ;; *) false ;; esac"
check "the supervisor runs" systemctl is-active -q opencode-pty-supervisor.service
marker_make
old_pid=$(systemctl show -P MainPID opencode-pty-supervisor.service)
bg_client -- /bin/sleep 600
wait_for "a live session" sh -c '[ -n "$(systemctl list-units --plain --no-legend "opencode-pty-*.service" | grep -E "^opencode-pty-[0-9a-f]{32}")" ]'
apt_in "the upgrade to $DEBDIR's version with a session live" \
    "$DEBDIR"/opencode-pty_*.deb "$DEBDIR"/node-opencode-pty_*.deb
bg_wait
expect_error 15 "upgrade: the live session's client got ERR_SHUTDOWN"
check "upgrade: no session unit left" wait_no_units 20
nv=$(version opencode-pty)
check "upgrade: this version is installed ($nv)" test "$nv" = "${pv%~prev}"
check "upgrade: the supervisor runs again" \
    systemctl is-active -q opencode-pty-supervisor.service
new_pid=$(systemctl show -P MainPID opencode-pty-supervisor.service)
check "upgrade: it was restarted (pid $old_pid, now $new_pid)" \
    test "$new_pid" != "$old_pid"
client -- /bin/echo hello
expect_exit 1 0 success "upgrade: a new session works"

# --- 5: purge and autoremove: the system as before
apt_do "apt-get purge" purge $PKGS
apt_do "apt-get autoremove --purge" autoremove --purge
check "autoremove takes nftables back out" not_installed nftables
check "the relay's system user is kept" sh -c 'id -u opencode-pty-relay > /dev/null'
for f in passwd group shadow gshadow; do
	check "/etc/$f: only the relay's entry added" sh -c \
	    "grep -v '^opencode-pty-relay:' /etc/$f | cmp -s - '$snapd/$f'"
done
# What apt pulled with the install and autoremove keeps (netbase, which
# nftables recommends, is kept where another installed package also
# recommends it) is apt's, not the package's: purged too, and named.
dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' |
    sort > "$snapd/pkgs1"
kept=$(comm -13 "$snapd/pkgs0" "$snapd/pkgs1")
echo "  pulled by the install, kept by autoremove: ${kept:-nothing}"
[ -z "$kept" ] || apt_do "apt-get purge of $(echo $kept)" purge $kept
for p in $PKGS; do
	check "dpkg knows $p no more" sh -c "! dpkg-query -W $p > /dev/null 2>&1"
done
snap | grep -Ev '^[0-9a-f]{64}  /etc/(passwd|group|shadow|gshadow)$' > "$snapd/snap1"
grep -Ev '^[0-9a-f]{64}  /etc/(passwd|group|shadow|gshadow)$' "$snapd/snap0" > "$snapd/snap0x"
check "/etc, /usr, /home, /opt, /srv as before the install ($(wc -l < "$snapd/snap1") entries)" \
    cmp -s "$snapd/snap0x" "$snapd/snap1" ||
    diff "$snapd/snap0x" "$snapd/snap1" | head -n 20 | sed 's/^/  /'

# --- 6: a host that keeps the unit off until its gates (README): masked
# before the install, nothing runs, and the install still succeeds.
systemctl mask -q opencode-pty-supervisor.service 2>/dev/null
apt_in "apt-get install with the unit masked" \
    "$DEBDIR"/opencode-pty_*.deb "$DEBDIR"/node-opencode-pty_*.deb
check "masked: the supervisor did not start" \
    sh -c '! systemctl is-active -q opencode-pty-supervisor.service'
systemctl unmask -q opencode-pty-supervisor.service
sup_start
client -- /bin/echo hello
expect_exit 1 0 success "unmasked and started: a session works"
apt_do "apt-get purge" purge $PKGS
finish
