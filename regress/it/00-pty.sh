#!/bin/sh
# 00-pty.sh: first integration test.  Runs as root inside the disposable
# systemd container (regress/integration.sh): a session started through
# the real path (real Node as the Node service -> opencode-pty-client
# -> the installed supervisor -> its transient unit -> the launcher) gets
# a real PTY on stdin/stdout, allocated outside the unit by the root
# parent (TIOCGPTPEER, 24x80, byk:tty 0620), its results are reported in
# the exit frame, and the unit is gone after.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# CLD_EXITED is 1: the code of a normal exit.
client -- /usr/bin/tty
expect_exit 1 0 success "tty in a session unit"
if grep -Eqx '/dev/pts/[0-9]+' "$tmp/out"; then
	pass "the unit's stdin is a pty: $(cat "$tmp/out")"
else
	fail "no /dev/pts/N path in the output: $(cat "$tmp/out")"
fi

client -- /usr/bin/stat -L -c '%U:%G %a %t' /proc/self/fd/0 /proc/self/fd/1
expect_exit 1 0 success "stat fd 0 and 1"
# Unix98 slaves have majors 136..143 (hex 88..8f).  The parent sets
# 0620; systemd 257 makes a terminal stdin 0600 itself (measured; 252 and
# 262 leave it): either way nobody else may read it.
if [ "$(sort -u "$tmp/out" | grep -Ecx 'byk:tty 6[02]0 8[89a-f]')" = 1 ] &&
    [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
	pass "stdin and stdout: a pty slave owned by byk:tty, $(cut -d' ' -f2 "$tmp/out" | head -n 1)"
else
	fail "the slave: $(tr '\n' ' ' < "$tmp/out")"
fi

# One terminal on stdin and stdout (the launcher makes fd 2 the same).
client -- /usr/bin/readlink /proc/self/fd/0 /proc/self/fd/1
expect_exit 1 0 success "readlink fd 0 and 1"
if [ "$(grep -Ecx '/dev/pts/[0-9]+' "$tmp/out")" = 2 ] &&
    [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
	pass "stdin and stdout are one pty"
else
	fail "stdin and stdout: $(tr '\n' ' ' < "$tmp/out")"
fi

client -- /bin/stty size
expect_exit 1 0 success "stty size"
if [ "$(cat "$tmp/out")" = "24 80" ]; then
	pass "the window is 24x80 by default"
else
	fail "stty size says '$(cat "$tmp/out")', not '24 80'"
fi
client -W 50x132 -- /bin/stty size
expect_exit 1 0 success "stty size, client -s 50x132"
if [ "$(cat "$tmp/out")" = "50 132" ]; then
	pass "a resize before the start sets the window before the unit starts"
else
	fail "stty size says '$(cat "$tmp/out")', not '50 132'"
fi

client -- /usr/bin/id -un
expect_exit 1 0 success "id -un"
if [ "$(cat "$tmp/out")" = byk ]; then
	pass "the unit ran as byk"
else
	fail "the unit ran as '$(cat "$tmp/out")', not byk"
fi

client -- /bin/cat /proc/self/cgroup
expect_exit 1 0 success "cat /proc/self/cgroup"
if grep -Eqx '0::/opencode\.slice/opencode-pty\.slice/opencode-pty-[0-9a-f]{32}\.service' \
    "$tmp/out"; then
	pass "the unit ran in opencode-pty.slice (nested in opencode.slice)"
else
	fail "wrong cgroup: $(cat "$tmp/out")"
fi

# Input.  The terminal is canonical and echoes: the line comes back
# twice, once from the echo and once from head.  -O sends it once the
# command's first output arrived.
client -O -i "hello
" -- /bin/sh -c 'echo go; head -n 1'
expect_exit 1 0 success "input written to the master"
if [ "$(cat "$tmp/out")" = "go
hello
hello" ]; then
	pass "the unit read the input (echoed by the terminal)"
else
	fail "output '$(cat "$tmp/out")', expected the echo and the line"
fi

client -- /bin/sh -c 'exit 3'
expect_exit 1 3 exit-code "a failing command"

# A death by signal: CLD_KILLED 2, or CLD_DUMPED 3 where a core is dumped.
client -- /bin/sh -c 'kill -SEGV $$'
if grep -Eq '^opty-nodesim: exit (code=2 status=11 result=signal|code=3 status=11 result=core-dump) ' \
    "$tmp/last"; then
	pass "SIGSEGV: $(sed 's/.*exit //' "$tmp/last")"
else
	fail "SIGSEGV: rc $rc, last line: $(cat "$tmp/last")"
fi

# The runtime limit stops a hung unit.
client -t 1 -- /bin/sleep 60
check "runtime 1 s stops a hung command: result timeout" \
    grep -q '^opty-nodesim: exit .* result=timeout ' "$tmp/last"

# A relative argv[0] is the launcher's to resolve, in the session's
# directory: not found there, it is refused and the command never runs.
client -- relative/path
expect_exit 1 71 exit-code "a relative argv[0] that does not exist"
if grep -q '^opencode-pty-launcher: execve: No such file or directory$' \
    "$tmp/out"; then
	pass "the launcher says why"
else
	fail "the launcher's line: $(cat "$tmp/out")"
fi

check "no session unit is left" wait_no_units 10
sup_stop
finish
