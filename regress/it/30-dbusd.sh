#!/bin/sh
# 30-dbusd.sh: integration test of the root parent's D-Bus layer (dbusd/)
# through opty-dbusprobe.  Runs as root inside the disposable systemd
# container (regress/integration.sh), never on a real host: it starts a
# stand-in opencode-v2.service, a dummy supervisor unit and planted
# orphan and look-alike units, and removes them all at the end.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

ITLIB_BASE=1
. "$REPO/regress/itlib.sh"

probe="${TOOLS:?TOOLS is not set}/opty-dbusprobe"
SUP=opencode-pty-supervisor.service
if [ ! -x "$probe" ]; then
	echo "FAIL: $probe is missing (make tools)"
	exit 1
fi
if ! id -u byk >/dev/null 2>&1; then
	echo "FAIL: user byk does not exist (the harness creates it)"
	exit 1
fi
# The probe's units run the launcher of the install under test (TOOLS
# are built with its settings: itinst.sh), INST_LIBEXEC.
# $tmp (itlib.sh) is 0755: byk must reach its working directory.
dropin=/run/systemd/system/$SUP.d
v2dropin=/run/systemd/system/opencode-v2.service.d
planted=

cleanup() {
	for u in $planted opencode-v2.service; do
		systemctl stop "$u" 2>/dev/null
		systemctl reset-failed "$u" 2>/dev/null
	done
	systemctl stop "$SUP" 2>/dev/null
	rm -rf "$dropin" "$v2dropin" "/run/systemd/system/$SUP"
	systemctl daemon-reload
	itlib_cleanup
}
trap cleanup EXIT

hex32() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n'; }
prop() { systemctl show -P "$2" "$1"; }

# A dummy supervisor that only exists, so BindsTo= has something to bind
# to.  A runtime drop-in overrides an installed unit without touching it.
if [ -n "$(prop "$SUP" FragmentPath)" ]; then
	mkdir -p "$dropin"
	printf '[Service]\nType=exec\nExecCondition=\nExecStartPre=\n%s\n%s\n' \
	    'ExecStart=' 'ExecStart=/bin/sleep infinity' > "$dropin/dummy.conf"
else
	printf '[Service]\nType=exec\nExecStart=/bin/sleep infinity\n' \
	    > "/run/systemd/system/$SUP"
fi
# The stand-in client must start without the readiness marker: a later
# drop-in empties the installed ExecCondition= list.
mkdir -p "$v2dropin"
printf '[Service]\nExecCondition=\n' > "$v2dropin/90-dbusd-test.conf"
if [ ! -e "$INST_UNITDIR/opencode-pty.slice" ]; then
	printf '[Unit]\nDescription=opencode-pty sessions (test)\n' \
	    > /run/systemd/system/opencode-pty.slice
fi
systemctl daemon-reload
if systemctl start "$SUP"; then
	pass "dummy $SUP started"
else
	fail "dummy $SUP did not start"
fi

# --- client identity --------------------------------------------------
out=$("$probe" ident 2>/dev/null)
case "$out" in
"error=-2 "*) pass "ident without opencode-v2.service: ENOENT" ;;
*) fail "ident without the unit: $out" ;;
esac

if [ -n "$(prop opencode-v2.service FragmentPath)" ]; then
	fail "opencode-v2.service has a unit file here; cannot stand in"
elif systemd-run -q --unit=opencode-v2.service -p Type=exec sleep 1000
then
	out=$("$probe" ident 2>/dev/null)
	echo "  $out"
	pid=$(prop opencode-v2.service MainPID)
	cg=$(prop opencode-v2.service ControlGroup)
	inv=$(prop opencode-v2.service InvocationID)
	want="main_pid=$pid active=active sub=running cgroup=$cg"
	want="$want invocation=$inv"
	if [ "$out" = "$want" ] && [ "$pid" -gt 1 ] &&
	    [ "$cg" = /system.slice/opencode-v2.service ] &&
	    [ ${#inv} = 32 ]; then
		pass "ident matches MainPID, ControlGroup, InvocationID"
	else
		fail "ident: want '$want'"
	fi
	systemctl stop opencode-v2.service
	out=$("$probe" ident 2>/dev/null)
	case "$out" in
	"error=-2 "*) pass "ident after stop: ENOENT" ;;
	*) fail "ident after stop: $out" ;;
	esac
else
	fail "systemd-run --unit=opencode-v2.service failed"
fi

# --- a session unit with the full property set ------------------------
mkdir -p "$tmp/work"
chown byk "$tmp/work"
# The probe holds its AddRef reference until $tmp/release exists, so the
# ended unit stays loaded for the checks below.
rm -f "$tmp/release"
OPTY_PROBE_RUNTIME=120 OPTY_PROBE_HOLD=$tmp/release "$probe" \
    start-launcher "$tmp/work" printf '%s' hello > "$tmp/start" \
    2> "$tmp/start.err" &
holder=$!
n=0
until grep -q '^hints_job=' "$tmp/start" || [ $n -ge 300 ]; do
	sleep 0.1; n=$((n + 1))
done
rc=0
grep -q '^hints_job=' "$tmp/start" || rc=1
sed 's/^/  /' "$tmp/start" "$tmp/start.err"
unit=$(sed -n 's/^unit=\(opencode-pty-[0-9a-f]\{32\}\.service\)$/\1/p' \
    "$tmp/start")
if [ $rc = 0 ] && [ -n "$unit" ]; then
	pass "start-launcher started $unit and saw its main process end"
else
	fail "start-launcher: exit $rc"
fi
if grep -q "^unit=$unit loaded=1 active=inactive sub=dead result=success exec_code=1 exec_status=0$" "$tmp/start" &&
    grep -q hello "$tmp/start"; then
	pass "the launcher ran printf in the unit: output and exit 0 seen"
else
	fail "the session did not run as expected"
fi
if grep -q "^hint: job .* $unit done$" "$tmp/start.err"; then
	pass "JobRemoved hint delivered through the event loop"
else
	fail "no JobRemoved hint for $unit"
fi

path=$(busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 \
    org.freedesktop.systemd1.Manager GetUnit s "$unit" 2>/dev/null |
    sed -n 's/^o "\(.*\)"$/\1/p')
# iface property expected-busctl-output
check() {
	got=$(busctl get-property org.freedesktop.systemd1 "$path" \
	    "org.freedesktop.systemd1.$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then
		pass "$2 = $3"
	else
		fail "$2: got '$got', want '$3'"
	fi
}
check Unit Description "s \"OpenCode isolated PTY $unit\""
check Service Type 's "exec"'
check Service Slice 's "opencode-pty.slice"'
check Unit BindsTo "as 1 \"$SUP\""
check Service User 's "byk"'
check Service Group 's "byk"'
check Service NoNewPrivileges 'b true'
check Service UMask 'u 63'
check Service KillMode 's "control-group"'
check Service KillSignal 'i 15'
check Service FinalKillSignal 'i 9'
check Service SendSIGKILL 'b true'
check Service TimeoutStopUSec 't 15000000'
check Service OOMPolicy 's "kill"'
check Service Delegate 'b false'
check Service RemainAfterExit 'b false'
check Unit CollectMode 's "inactive-or-failed"'
check Service RuntimeMaxUSec 't 120000000'
check Service TemporaryFileSystem "a(ss) 3 \"/run\" \"ro,nosuid,noexec\" \
\"/run/lock\" \"mode=1777,size=5m,nosuid,noexec\" \
\"/dev/shm\" \"mode=1777,nosuid,nodev\""
b=
for p in /run/systemd/resolve /run/resolvconf; do
	b="$b \"$p\" \"$p\" true 0"
done
check Service BindReadOnlyPaths "a(ssbt) 2$b"
check Service LogNamespace 's "opencode-pty"'
check Service InaccessiblePaths 'as 2 "-/run/dbus" "-/run/user"'
# Never PrivatePIDs=: the command must stay signalable (docs/UNITS.md).
if busctl get-property org.freedesktop.systemd1 "$path" \
    org.freedesktop.systemd1.Service PrivatePIDs >/dev/null 2>&1; then
	check Service PrivatePIDs 's "no"'
else
	pass "PrivatePIDs not known to PID 1 and not sent"
fi
after=$(prop "$unit" After)
case " $after " in
*" $SUP "*) pass "After contains $SUP" ;;
*) fail "After = $after" ;;
esac
# printf, %s, hello in the launcher's encoding.
enc="argv[]=$INST_LIBEXEC/opencode-pty-launcher acHJpbnRm aJXM aaGVsbG8 ;"
case "$(prop "$unit" ExecStart)" in
*"path=$INST_LIBEXEC/opencode-pty-launcher ; $enc"*)
	pass "ExecStart is the launcher with encoded arguments" ;;
*) fail "ExecStart = $(prop "$unit" ExecStart)" ;;
esac

# Standard{Input,Output,Error}FileDescriptor= do not show as properties
# (StandardInput= stays "null"): check what the unit did with them.
# stdout: the stream; stderr: the socket carrying the directory (the
# launcher takes it and fchdir()s to it).
"$probe" start-launcher "$tmp/work" /bin/pwd > "$tmp/pwd" 2>/dev/null
u2=$(sed -n 's/^unit=\(opencode-pty-[0-9a-f]\{32\}\.service\)$/\1/p' "$tmp/pwd")
"$probe" stop "$u2" > /dev/null 2>&1
if tr -d '\r' < "$tmp/pwd" | grep -qx "$tmp/work"; then
	pass "stdout is the stream, stderr carries the directory (pwd = $tmp/work)"
else
	fail "pwd in the unit: $(cat "$tmp/pwd")"
fi
# stdin: the stream (a line written to it comes back through head).
OPTY_PROBE_INPUT=ping-$$ "$probe" start-launcher "$tmp/work" /usr/bin/head \
    -n 1 > "$tmp/head" 2>/dev/null
u3=$(sed -n 's/^unit=\(opencode-pty-[0-9a-f]\{32\}\.service\)$/\1/p' "$tmp/head")
"$probe" stop "$u3" > /dev/null 2>&1
if [ "$(tr -d '\r' < "$tmp/head" | grep -cx "ping-$$")" -ge 1 ] &&
    grep -q "exec_code=1 exec_status=0$" "$tmp/head"; then
	pass "stdin is the stream (input line read by head)"
else
	fail "input through the stream: $(cat "$tmp/head")"
fi

# probe_state_until UNIT PATTERN: the probe's state line, in $out, once
# it matches the shell pattern or after five seconds.
probe_state_until() {
	n=0
	until out=$("$probe" state "$1" 2>/dev/null) &&
	    case "$out" in $2) true ;; *) false ;; esac || [ $n -ge 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
}

out=$("$probe" state "$unit" 2>/dev/null)
case "$out" in
"unit=$unit loaded=1 active=inactive "*) pass "ended and referenced: $out" ;;
*) fail "state: $out" ;;
esac
# AddRef=yes: the reference is the only thing that kept it.
touch "$tmp/release"
wait "$holder"
probe_state_until "$unit" "unit=$unit loaded=0 *"
case "$out" in
"unit=$unit loaded=0 "*) pass "its starter gone, the ended unit is collected" ;;
*) fail "after the starter's exit: $out" ;;
esac
# A unit that runs: StopUnit, then ResetFailedUnit, as the sweep does.
OPTY_PROBE_HOLD=$tmp/release2 "$probe" start-launcher "$tmp/work" \
    /bin/sleep 60 > "$tmp/long" 2>/dev/null &
holder=$!
n=0
until u4=$(sed -n 's/^unit=\(opencode-pty-[0-9a-f]\{32\}\.service\)$/\1/p' \
    "$tmp/long") && [ -n "$u4" ] &&
    [ "$(prop "$u4" SubState)" = running ] || [ $n -ge 100 ]; do
	sleep 0.1; n=$((n + 1))
done
out=$("$probe" stop "$u4" 2>/dev/null)
[ "$out" = "stopped=$u4" ] && pass "stop of a running unit: $out" ||
    fail "stop of a running unit: $out"
probe_state_until "$u4" "* active=inactive *"
case "$out" in
"unit=$u4 loaded=1 active=inactive "*) pass "stopped, still referenced: $out" ;;
*) fail "after stop: $out" ;;
esac
touch "$tmp/release2"
wait "$holder"
out=$("$probe" stop "$unit" 2>/dev/null)
[ "$out" = "stopped=$unit" ] && pass "stopping a gone unit is not an error" ||
    fail "stop of a gone unit: $out"
out=$("$probe" state opencode-v2.service 2>/dev/null)
case "$out" in
"error=-22 "*) pass "state refuses a name that is not a session unit" ;;
*) fail "state of a foreign name: $out" ;;
esac

# --- orphan sweep -----------------------------------------------------
plant() {	# plant NAME [systemd-run -p options]
	n=$1
	shift
	if systemd-run -q --unit="$n" -p RemainAfterExit=yes "$@" \
	    /bin/sleep 1000; then
		planted="$planted $n"
	else
		fail "could not plant $n"
	fi
}
o1=opencode-pty-$(hex32).service
o2=opencode-pty-$(hex32).service
o3=opencode-pty-$(hex32).service
upper=opencode-pty-$(hex32 | tr a-f A-F).service
extra=opencode-pty-$(hex32).service
foreign=opencode-pty-$(hex32).service
nobind=opencode-pty-$(hex32).service
scope=opencode-pty-$(hex32).scope
plant "$o1" -p BindsTo=$SUP -p After=$SUP
plant "$o2" -p BindsTo=$SUP
# A failed orphan: StopUnit alone would leave it; reset-failed removes it.
if systemd-run -q --unit="$o3" -p BindsTo=$SUP -p RemainAfterExit=yes \
    /bin/false; then
	planted="$planted $o3"
fi
plant "$upper" -p BindsTo=$SUP
plant "$extra" -p BindsTo=$SUP -p BindsTo=dbus.service
plant "$foreign" -p BindsTo=dbus.service
plant "$nobind"
systemd-run -q --scope --unit="$scope" -p BindsTo=$SUP \
    /bin/sleep 1000 > /dev/null 2>&1 &
planted="$planted $scope"
sleep 1
[ "$(prop "$o3" ActiveState)" = failed ] && pass "planted a failed orphan" ||
    fail "$o3 is $(prop "$o3" ActiveState), not failed"
[ "$(prop "$scope" ActiveState)" = active ] && pass "planted $scope" ||
    fail "$scope is $(prop "$scope" ActiveState)"

"$probe" sweep > "$tmp/sweep" 2> "$tmp/sweep.err"
rc=$?
sed 's/^/  /' "$tmp/sweep" "$tmp/sweep.err"
[ $rc = 0 ] && [ "$(cat "$tmp/sweep")" = stopped=3 ] &&
    pass "sweep stopped exactly 3 orphans" || fail "sweep: exit $rc"
sleep 1
for u in $o1 $o2 $o3; do
	st=$(prop "$u" LoadState)/$(prop "$u" ActiveState)
	case "$st" in
	not-found/inactive) pass "orphan $u is gone" ;;
	*) fail "orphan $u is still $st" ;;
	esac
done
for u in $upper $extra $foreign $nobind $scope; do
	st=$(prop "$u" ActiveState)
	[ "$st" = active ] && pass "look-alike $u left alone" ||
	    fail "look-alike $u is $st"
done
[ "$(prop "$SUP" ActiveState)" = active ] &&
    pass "the supervisor unit itself was not touched" ||
    fail "$SUP is $(prop "$SUP" ActiveState)"

finish
