#!/bin/sh
# 10-units.sh: integration test of the installed units and of the install
# itself (acceptance gates 2 and 3).  Runs as root inside the disposable
# systemd container (regress/integration.sh) after `make install` or the
# packages' install (itlib.sh: IT_INSTALL, the INST_ paths); cwd is
# the repository.  Checks that the installed units are the reviewed ones,
# root:root 0644, verify clean and load as written; that install-check
# passes on the real install and names every path planted wrong in a
# scratch DESTDIR tree; that the supervisor unit scores better than the
# seed's; and that the real supervisor starts and stops under it with the
# capabilities, filters and files the unit promises.  Restores what it
# changes.  IT_ONLY=10-units runs just this one.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

ITLIB_BASE=1
. "$REPO/regress/itlib.sh"
# verdict PASSMSG FAILMSG CMD...: PASS or FAIL on CMD's status.
verdict()
{
	okm=$1 badm=$2
	shift 2
	if "$@"; then pass "$okm"; else fail "$badm"; fi
}

BUILD=${BUILD:-build}
U=$INST_UNITDIR
LX=$INST_LIBEXEC
SUP=opencode-pty-supervisor.service
SLICE=opencode-pty.slice
V2=opencode-v2.service
DROPIN=$V2.d/10-opencode-pty-readiness.conf
SEED=regress/data/seed-supervisor.service
FIXTURE=/run/systemd/system/$V2
RUNDIR=/run/opencode-pty

for c in systemd-analyze systemctl make stat cmp; do
	command -v "$c" >/dev/null || { echo "FAIL: $c missing"; exit 1; }
done
id -u byk >/dev/null 2>&1 ||
    { echo "FAIL: user byk does not exist (the harness creates it)"; exit 1; }

scratch=
made_fixture=0
# shellcheck disable=SC2317	# called from the trap
cleanup()
{
	if [ -n "$scratch" ]; then
		rm -rf "$scratch"
	fi
	if [ "$made_fixture" = 1 ]; then
		rm -f "$FIXTURE"
		systemctl daemon-reload
	fi
	itlib_cleanup
}
trap cleanup EXIT

# 1. The installed files are the reviewed ones with the build's settings
# filled in ($INST_BUILD/etc, from etc/), root:root 0644.
for f in $SUP $SLICE $DROPIN; do
	if [ ! -f "$U/$f" ]; then
		fail "$U/$f is not installed"
		continue
	fi
	if cmp -s "$INST_BUILD/etc/$f" "$U/$f"; then
		pass "$U/$f is $INST_BUILD/etc/$f"
	else
		fail "$U/$f differs from $INST_BUILD/etc/$f"
	fi
	st=$(stat -c '%U:%G %a' "$U/$f")
	verdict "$U/$f is $st" "$U/$f is $st, not root:root 644" \
	    [ "$st" = "root:root 644" ]
done

# 2. systemd-analyze verify: silent (it only warns on unknown keys).
verify_clean()
{
	out=$(systemd-analyze verify "$@" 2>&1)
	rc=$?
	[ $rc = 0 ] && [ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed 's/^/    | /'
	return 1
}
if verify_clean "$U/$SUP" "$U/$SLICE"; then
	pass "systemd-analyze verify $SUP $SLICE: clean"
	echo "SUMMARY: systemd-analyze verify $SUP $SLICE: clean"
else
	fail "systemd-analyze verify $SUP $SLICE is not clean"
fi
# The Node service is not ours; a stand-in carries the drop-in if needed.
if [ -z "$(systemctl show -P FragmentPath $V2)" ]; then
	printf '[Unit]\nDescription=stand-in Node service (10-units.sh)\n[Service]\nType=exec\nUser=byk\nExecStart=/bin/sleep infinity\n' \
	    > "$FIXTURE"
	made_fixture=1
	systemctl daemon-reload
fi
frag=$(systemctl show -P FragmentPath $V2)
if verify_clean "$frag"; then
	pass "systemd-analyze verify $V2 with the drop-in: clean"
	echo "SUMMARY: systemd-analyze verify $V2 with the drop-in: clean"
else
	fail "systemd-analyze verify $V2 with the drop-in is not clean"
fi
# (On a merged /usr, systemd may name /usr/lib/... through /lib.)
dropins=
for d in $(systemctl show -P DropInPaths $V2); do
	dropins="$dropins $(readlink -f "$d")"
done
case "$dropins " in
*" $(readlink -f "$U/$DROPIN") "*) pass "$V2 loads $U/$DROPIN" ;;
*) fail "$V2 does not load $U/$DROPIN:$dropins" ;;
esac
cond=$(systemctl show -P ExecConditionEx $V2)
case $cond in
*"path=$LX/opencode-pty-verify-readiness "*"flags=privileged"*)
	pass "$V2: ExecCondition=+$LX/opencode-pty-verify-readiness" ;;
*)	fail "$V2: ExecConditionEx is '$cond'" ;;
esac

# The properties systemd actually loaded, as the unit files say them.
expect_prop()
{
	v=$(systemctl show -P "$2" "$1")
	verdict "$1: $2=$v" "$1: $2='$v', want '$3'" [ "$v" = "$3" ]
}
# CPU time is counted on cgroup v2 by default; systemd 258 removed the
# setting, and PID 1 then shows no such property.
sysver=$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
cpuacct=$(systemctl show -P CPUAccounting $SLICE)
cpu_counted() {
	[ "$cpuacct" = yes ] || { [ "${sysver:-0}" -ge 258 ] && [ -z "$cpuacct" ]; }
}
verdict "$SLICE: CPU time counted (CPUAccounting='$cpuacct', systemd $sysver)" \
    "$SLICE: CPUAccounting='$cpuacct' on systemd $sysver" cpu_counted
expect_prop $SLICE MemoryAccounting yes
expect_prop $SLICE TasksAccounting yes
expect_prop $SLICE MemoryMax 2147483648
expect_prop $SLICE TasksMax 512
expect_prop $SUP Type notify
expect_prop $SUP NotifyAccess main
# No User=: root by default (an explicit User=root costs CAP_SETUID on 257).
expect_prop $SUP User ""
expect_prop $SUP Group byk
expect_prop $SUP CapabilityBoundingSet \
    "cap_chown cap_setgid cap_setuid cap_setpcap cap_sys_chroot"
expect_prop $SUP AmbientCapabilities ""
expect_prop $SUP NoNewPrivileges yes
expect_prop $SUP PrivateNetwork yes
expect_prop $SUP ProtectSystem strict
expect_prop $SUP ProtectHome yes
expect_prop $SUP RestrictAddressFamilies AF_UNIX

# 3. install-check on the real install, with its settings.
# shellcheck disable=SC2086	# INST_SETTINGS: no blank in them
if out=$(make -s --no-print-directory BUILD="$INST_BUILD" $INST_SETTINGS \
    install-check 2>&1); then
	pass "make install-check on the real install: $out"
else
	printf '%s\n' "$out" | sed 's/^/    | /'
	fail "make install-check fails on the real install"
fi

# 4. install-check on a scratch DESTDIR tree, below a root-only /run:
# `make install` of $BUILD with the defaults, whatever the install above.
read -r DLX DU _ <<EOF
$(inst_dirs "$BUILD")
EOF
DP=${DLX%/*}
scratch=$(mktemp -d -p /run opty-units.XXXXXX) || exit 1
if make -s --no-print-directory -o all BUILD="$BUILD" DESTDIR="$scratch" \
    install >/dev/null 2>&1; then
	pass "make install DESTDIR=$scratch"
else
	fail "make install DESTDIR=$scratch failed"
fi
ic()
{
	make -s --no-print-directory BUILD="$BUILD" DESTDIR="$scratch" \
	    install-check 2>&1
}
if out=$(ic); then
	pass "install-check on the scratch tree: $out"
else
	printf '%s\n' "$out" | sed 's/^/    | /'
	fail "install-check fails on the pristine scratch tree"
fi
# planted WHAT PATH: install-check must fail and name PATH.
planted()
{
	if out=$(ic); then
		fail "$1: install-check passed"
	else
		case $out in
		*"FAIL: $2: "*) pass "$1: install-check names $2" ;;
		*) printf '%s\n' "$out" | sed 's/^/    | /'
		   fail "$1: install-check did not name $2" ;;
		esac
	fi
}
L=$scratch$DLX
b=$L/opencode-pty-supervisor
chmod g+w "$b"; planted "group-writable supervisor" "$b"; chmod g-w "$b"
cp -p "$b" "$L/opencode-pty-copy"; chmod 0775 "$L/opencode-pty-copy"
planted "group-writable stray copy" "$L/opencode-pty-copy"
rm -f "$L/opencode-pty-copy"
chown byk "$L/opencode-pty-launcher"
planted "byk-owned launcher" "$L/opencode-pty-launcher"
chown root "$L/opencode-pty-launcher"
chgrp byk "$L/opencode-pty-client"
planted "client in group byk" "$L/opencode-pty-client"
chgrp root "$L/opencode-pty-client"
chmod 4711 "$L/opencode-pty-client"
planted "setuid client" "$L/opencode-pty-client"
chmod 0755 "$L/opencode-pty-client"
planted "client readable by byk (dumpable)" "$L/opencode-pty-client"
chmod 0711 "$L/opencode-pty-client"
chmod o+w "$scratch$DP"
planted "world-writable parent directory" "$scratch$DP"
chmod o-w "$scratch$DP"
chgrp byk "$L"; chmod g+w "$L"
planted "byk-writable libexec" "$L"
chmod g-w "$L"; chgrp root "$L"
mv "$L" "$scratch$DP/real"; ln -s real "$L"
planted "symlinked libexec" "$L"
rm -f "$L"; mv "$scratch$DP/real" "$L"
chmod g+w "$scratch$DU/$SLICE"
planted "group-writable slice" "$scratch$DU/$SLICE"
chmod g-w "$scratch$DU/$SLICE"
if out=$(ic); then
	pass "install-check passes again once every fault is undone"
else
	printf '%s\n' "$out" | sed 's/^/    | /'
	fail "install-check still fails after the faults were undone"
fi

# 5. Exposure scores: what PID 1 loaded and the installed file, both
# strictly below the seed's unit.
score()
{
	systemd-analyze security "$@" 2>&1 |
	    sed -n 's/^.*Overall exposure level for [^:]*: \([0-9][0-9.]*\) .*$/\1/p'
}
seed=$(score --offline=yes "$SEED")
loaded=$(score $SUP)
file=$(score --offline=yes "$U/$SUP")
echo "exposure: $SUP as loaded ${loaded:-?}, installed file ${file:-?}," \
    "seed ${seed:-?}"
for s in "loaded:$loaded" "file:$file"; do
	v=${s#*:}
	if [ -n "$v" ] && [ -n "$seed" ] &&
	    awk -v a="$v" -v b="$seed" 'BEGIN { exit !(a + 0 < b + 0) }'; then
		pass "exposure (${s%%:*}) $v < seed $seed"
	else
		fail "exposure (${s%%:*}) '$v' is not below the seed's '$seed'"
	fi
done
# The bound the project claims on every systemd version it supports.
if [ -n "$loaded" ] && awk -v a="$loaded" 'BEGIN { exit !(a + 0 <= 1.5) }'; then
	pass "exposure as loaded $loaded <= 1.5"
else
	fail "exposure as loaded '$loaded' is above 1.5"
fi
echo "SUMMARY: $(systemctl --version | sed -n 1p | cut -d' ' -f1-2)," \
    "kernel $(uname -r)"
echo "SUMMARY: systemd-analyze security $SUP: ${loaded:-?} (bound 1.5)"

# 6. The real supervisor under this unit: starts (READY=1), holds no
# capability once the relay runs, and leaves nothing behind when stopped.
was_active=0
systemctl is-active -q $SUP && was_active=1
if [ $was_active = 0 ]; then
	systemctl reset-failed $SUP 2>/dev/null
	if systemctl start $SUP; then
		pass "systemctl start $SUP (Type=notify: READY=1 seen)"
	else
		fail "systemctl start $SUP"
		journalctl -u $SUP -n 30 --no-pager -o cat | sed 's/^/    | /'
	fi
fi
mp=$(systemctl show -P MainPID $SUP)
if [ "${mp:-0}" -gt 0 ] && [ -r "/proc/$mp/status" ]; then
	st=/proc/$mp/status
	# Once the relay runs the parent holds no capability in any set
	# (parent/privdrop.c): the session terminals need no chown.
	for c in CapInh CapAmb CapPrm CapEff CapBnd; do
		verdict "parent $c is zero" "parent $(grep "^$c:" "$st")" \
		    grep -Eq "^$c:[[:space:]]+0+\$" "$st"
	done
	# Securebits are not in /proc: the parent reads them back and
	# logs them, or exits (privdrop.c check_dropped).
	inv=$(systemctl show -P InvocationID $SUP)
	verdict "parent logged its drop and locked securebits 0xef" \
	    "no 'capabilities kept: none ... securebits 0xef locked' line" \
	    sh -c "for i in \$(seq 50); do
	    journalctl _SYSTEMD_INVOCATION_ID=$inv -o cat --no-pager |
	    grep -q 'capabilities kept: none (.*); securebits 0xef locked' &&
	    exit 0; sleep 0.1; done; exit 1"
	verdict "parent NoNewPrivs" "parent lacks NoNewPrivs" \
	    grep -Eq '^NoNewPrivs:[[:space:]]+1$' "$st"
	verdict "parent runs under a seccomp filter" \
	    "parent has no seccomp filter" \
	    grep -Eq '^Seccomp:[[:space:]]+2$' "$st"
	verdict "the relay runs" "no relay child of the parent" \
	    [ -n "$(pgrep -P "$mp")" ]
else
	fail "$SUP has no main process"
	systemctl status --no-pager $SUP 2>&1 | sed 's/^/    | /'
	journalctl -u $SUP -n 30 --no-pager -o cat | sed 's/^/    | /'
fi
expect_stat()
{
	v=$(stat -c '%F %U:%G %a' "$1" 2>&1)
	verdict "$1: $v" "$1: '$v', want '$2'" [ "$v" = "$2" ]
}
# What this version and kernel put in force (parent/features.c).
journalctl -u $SUP -o cat --no-pager | grep -E \
    '^supervisor: (Landlock ABI|systemd .*; Landlock signal)' |
    tail -n 2 | sed 's/^supervisor: /SUMMARY: /'
expect_stat $RUNDIR "directory root:byk 750"
expect_stat $RUNDIR/supervisor.sock "socket root:byk 660"
expect_stat $RUNDIR/empty "directory root:root 555"
if [ $was_active = 0 ]; then
	systemctl stop $SUP
	expect_prop $SUP ActiveState inactive
	expect_prop $SUP Result success
	verdict "$RUNDIR removed on stop" "$RUNDIR left behind on stop" \
	    [ ! -e $RUNDIR ]
	systemctl reset-failed $SUP 2>/dev/null
fi

finish
