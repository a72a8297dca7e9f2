#!/bin/sh
# 00-pty.sh: first integration test.  Runs as root inside the disposable
# systemd container (regress/integration.sh): a transient unit started the
# supervisor's way (opty-unitrun) as byk in opencode-pty.slice gets a real
# PTY through script(1), its results are reported, and it is gone after.

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run="${TOOLS:?TOOLS is not set}/opty-unitrun"
if [ ! -x "$run" ]; then
	echo "FAIL: $run is missing (make tools)"
	exit 1
fi
if ! id -u byk >/dev/null 2>&1; then
	echo "FAIL: user byk does not exist (the harness creates it)"
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ ! -e /etc/systemd/system/opencode-pty.slice ]; then
	printf '[Unit]\nDescription=opencode-pty sessions (test)\n' \
	    > /run/systemd/system/opencode-pty.slice
	systemctl daemon-reload
fi

# unitrun ARGS...: output in $tmp/out (CRs dropped), last stderr line in
# $tmp/last, exit status in $rc.
unitrun() {
	"$run" "$@" > "$tmp/out.raw" 2> "$tmp/err"
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	tail -n 1 "$tmp/err" > "$tmp/last"
	awk '{ print "  stdout: " $0 }' "$tmp/out"
	sed 's/^/  stderr: /' "$tmp/err"
}

# expect_result CODE STATUS RESULT WHAT
expect_result() {
	if [ "$rc" = 0 ] && grep -Eqx "opty-unitrun: unit=opty-unitrun-[0-9a-f]{16}\.service code=$1 status=$2 result=$3" \
	    "$tmp/last"; then
		pass "$4: code=$1 status=$2 result=$3"
	else
		fail "$4: exit $rc, last stderr line: $(cat "$tmp/last")"
	fi
}

# CLD_EXITED is 1: the code of a normal exit.
unitrun -u byk -s opencode-pty.slice -- /usr/bin/script -qefc tty /dev/null
expect_result 1 0 success "script(1) in a transient unit"
if grep -Eqx '/dev/pts/[0-9]+' "$tmp/out"; then
	pass "script(1) got a pty: $(cat "$tmp/out")"
else
	fail "no /dev/pts/N path in the output"
fi

unitrun -u byk -s opencode-pty.slice -- /usr/bin/id -un
expect_result 1 0 success "id -un"
if [ "$(cat "$tmp/out")" = byk ]; then
	pass "the unit ran as byk"
else
	fail "the unit ran as '$(cat "$tmp/out")', not byk"
fi

unitrun -u byk -s opencode-pty.slice -- /bin/cat /proc/self/cgroup
expect_result 1 0 success "cat /proc/self/cgroup"
if grep -Eqx '0::/opencode\.slice/opencode-pty\.slice/opty-unitrun-[0-9a-f]{16}\.service' \
    "$tmp/out"; then
	pass "the unit ran in opencode-pty.slice (nested in opencode.slice)"
else
	fail "wrong cgroup: $(cat "$tmp/out")"
fi

# The tool itself: input, a directory as stderr, failures, the timeout.
unitrun -u byk -i hello -- /usr/bin/head -c 5
expect_result 1 0 success "input written to the stream"
if [ "$(cat "$tmp/out")" = hello ]; then
	pass "the unit read the input"
else
	fail "input echoed back as '$(cat "$tmp/out")'"
fi

# A directory as a unit's stderr: systemd up to 258 takes it (measured on
# 252, 254, 257); 259 and later refuse the call (seen on 262), which is
# why the supervisor sends the directory through a socket (-D,
# proto/dirsock.c).
sysver=$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
unitrun -u byk -d /var/tmp -- /usr/bin/readlink /proc/self/fd/2
if [ "${sysver:-0}" -le 258 ]; then
	expect_result 1 0 success "-d dir"
	if [ "$(cat "$tmp/out")" = /var/tmp ]; then
		pass "stderr is the directory (systemd $sysver)"
	else
		fail "stderr is '$(cat "$tmp/out")', not /var/tmp"
	fi
elif grep -q 'StandardErrorFileDescriptor passed is of incompatible type' \
    "$tmp/last"; then
	pass "systemd $sysver refuses a directory as stderr"
else
	fail "systemd $sysver: -d dir gave rc $rc: $(cat "$tmp/last")"
fi
unitrun -u byk -D /var/tmp -- /usr/bin/readlink /proc/self/fd/2
expect_result 1 0 success "-D dir"
case $(cat "$tmp/out") in
socket:*) pass "stderr is the socket carrying the directory" ;;
*) fail "stderr is '$(cat "$tmp/out")', not a socket" ;;
esac

unitrun -u byk -- /bin/sh -c 'exit 3'
expect_result 1 3 exit-code "a failing command (unit failed, reset)"

unitrun -u opty-no-such-user -- /bin/true
expect_result 1 217 exit-code "an unknown user (217/USER)"

unitrun -u byk -t 1 -- /bin/sleep 60
if [ "$rc" = 124 ]; then
	pass "-t 1 stops a hung unit, exit 124"
else
	fail "-t 1: exit $rc, expected 124"
fi

unitrun -u byk -- relative/path
if [ "$rc" != 0 ] && grep -q 'absolute path' "$tmp/err"; then
	pass "a relative ARGV[0] is refused"
else
	fail "a relative ARGV[0]: exit $rc"
fi

left=$(systemctl list-units --all --no-legend --plain 'opty-unitrun-*')
if [ -z "$left" ]; then
	pass "no opty-unitrun-* unit is left"
else
	fail "units left behind: $left"
fi

[ $fails = 0 ]
