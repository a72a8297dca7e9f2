#!/bin/sh
# 00-pty.sh: first integration test.  Runs as root inside the disposable
# systemd container (regress/integration.sh): a transient unit started the
# supervisor's way (opty-unitrun) as byk in opencode-pty.slice gets a real
# PTY on stdin/stdout, allocated outside the unit as the supervisor's
# parent allocates it (TIOCGPTPEER, 24x80, byk:tty 0620), its results are
# reported, and it is gone after.

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
unitrun -u byk -s opencode-pty.slice -- /usr/bin/tty
expect_result 1 0 success "tty in a transient unit"
if grep -Eqx '/dev/pts/[0-9]+' "$tmp/out"; then
	pass "the unit's stdin is a pty: $(cat "$tmp/out")"
else
	fail "no /dev/pts/N path in the output"
fi

unitrun -u byk -s opencode-pty.slice -- /usr/bin/stat -L -c '%U:%G %a %t' \
    /proc/self/fd/0 /proc/self/fd/1
expect_result 1 0 success "stat fd 0 and 1"
# Unix98 slaves have majors 136..143 (hex 88..8f).  opty-unitrun sets
# 0620; systemd 257 makes a terminal stdin 0600 itself (measured; 252 and
# 262 leave it): either way nobody else may read it.
if [ "$(sort -u "$tmp/out" | grep -Ecx 'byk:tty 6[02]0 8[89a-f]')" = 1 ] &&
    [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
	pass "stdin and stdout: a pty slave owned by byk:tty, $(cut -d' ' -f2 "$tmp/out" | head -n 1)"
else
	fail "the slave: $(tr '\n' ' ' < "$tmp/out")"
fi

unitrun -u byk -s opencode-pty.slice -- /bin/stty size
expect_result 1 0 success "stty size"
if [ "$(cat "$tmp/out")" = "24 80" ]; then
	pass "the window is 24x80 by default"
else
	fail "stty size says '$(cat "$tmp/out")', not '24 80'"
fi
unitrun -u byk -s opencode-pty.slice -w 50x132 -- /bin/stty size
expect_result 1 0 success "stty size, -w 50x132"
if [ "$(cat "$tmp/out")" = "50 132" ]; then
	pass "-w 50x132 sets the window before the unit starts"
else
	fail "stty size says '$(cat "$tmp/out")', not '50 132'"
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

# The tool itself: input, other stdio, a directory as stderr, failures,
# the timeout.  No launcher here (20-launcher.sh tests it on the pty).
# The terminal is canonical and echoes: the line comes back twice, once
# from the echo and once from head.  systemd 252 flushes a
# terminal's input when it sets up a unit's stdin (reset_terminal_fd;
# 257 and 262 do not), so the input waits for the unit's first output
# (-W).
unitrun -u byk -W -i "hello
" -- /bin/sh -c 'echo go; head -n 1'
expect_result 1 0 success "input written to the master"
if [ "$(cat "$tmp/out")" = "go
hello
hello" ]; then
	pass "the unit read the input (echoed by the terminal)"
else
	fail "output '$(cat "$tmp/out")', expected the echo and the line"
fi

# Without a terminal (-m socket) and with only stdin one (-m split): what
# the launcher's refusals of 20-launcher.sh are made of.
unitrun -u byk -m socket -- /usr/bin/readlink /proc/self/fd/0 /proc/self/fd/1
expect_result 1 0 success "-m socket"
if [ "$(grep -c '^socket:' "$tmp/out")" = 2 ]; then
	pass "-m socket: stdin and stdout are a socket"
else
	fail "-m socket: $(tr '\n' ' ' < "$tmp/out")"
fi
unitrun -u byk -m split -- /usr/bin/readlink /proc/self/fd/0 /proc/self/fd/1
expect_result 1 0 success "-m split"
if grep -Eqx '/dev/pts/[0-9]+' "$tmp/out" &&
    [ "$(sed -n 2p "$tmp/out" | cut -c1-7)" = "socket:" ]; then
	pass "-m split: stdin is a pty, stdout a socket"
else
	fail "-m split: $(tr '\n' ' ' < "$tmp/out")"
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

# A death by signal: CLD_KILLED 2, or CLD_DUMPED 3 where a core is dumped.
# ($$ on an ExecStart line is systemd's escape for one $.)
unitrun -u byk -- /bin/sh -c 'kill -SEGV $$$$'
if [ "$rc" = 0 ] && grep -Eqx "opty-unitrun: unit=[^ ]+ code=(2 status=11 result=signal|3 status=11 result=core-dump)" \
    "$tmp/last"; then
	pass "SIGSEGV: $(sed 's/.* code/code/' "$tmp/last")"
else
	fail "SIGSEGV: exit $rc, last stderr line: $(cat "$tmp/last")"
fi

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
