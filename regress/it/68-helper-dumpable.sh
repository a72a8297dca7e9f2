#!/bin/sh
# 68-helper-dumpable.sh: the client helper holds the Node service's
# authenticated connection on fd 3 while it sends its start frame; no
# other byk process may take it.  The installed helper is root:root 0711
# (unreadable, so the kernel makes it non-dumpable at execve) and makes
# itself non-dumpable first thing in main().  A byk service holds the
# helper inside its send (fd 3's buffer is full), and an unrelated byk
# service tries pidfd_getfd on fds 3 and 4 and ptrace: refused.  Positive
# control: the same holder runs /bin/sleep with the same descriptors,
# and the same thief takes both.  A readable copy of the helper (0755)
# is refused too: prctl alone covers it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
ITLIB_BASE=1
. "$REPO/regress/itlib.sh"

HELPER=$LIBEXEC/opencode-pty-client
COPYDIR=/usr/local/lib/opencode-pty-test-helper
HOLDER=opty-helper-holder.service
[ -x "$TOOLS/opty-steal" ] ||
    { echo "FAIL: $TOOLS/opty-steal missing (make tools)"; exit 1; }
[ -x "$HELPER" ] || { echo "FAIL: $HELPER is not installed"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 missing"; exit 1; }
id -u byk >/dev/null 2>&1 || { echo "FAIL: user byk missing"; exit 1; }
trap 'systemctl stop "$HOLDER" 2>/dev/null; rm -rf "$COPYDIR";
    itlib_cleanup' EXIT

check "the installed helper is root:root 0711" \
    test "$(stat -c '%U:%G %a' "$HELPER")" = "root:root 711"
install -d -m 0755 "$COPYDIR" &&
    install -m 0755 "$HELPER" "$COPYDIR/opencode-pty-client" ||
    { echo "FAIL: cannot make the readable copy"; exit 1; }

# The holder: fd 3 a connected socket whose send buffer is full, fd 4 a
# directory, 0-2 /dev/null; runs PROG ARGS... with them and waits.
cat > "$tmp/holder.py" <<'PY'
import os, socket, sys, time
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
b.setblocking(False)
try:
    while True:
        b.send(b"x" * 65536)
except BlockingIOError:
    pass
s, d = os.dup(b.fileno()), os.open("/", os.O_RDONLY | os.O_DIRECTORY)
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], {}, file_actions=[
    (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDWR, 0),
    (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2),
    (os.POSIX_SPAWN_DUP2, s, 3), (os.POSIX_SPAWN_DUP2, d, 4)])
print(pid, flush=True)
time.sleep(60)
PY
chmod 0644 "$tmp/holder.py"

# hold PROG ARGS...: starts the holder; sets $pid to the held process.
hold() {
	systemctl stop "$HOLDER" 2>/dev/null
	systemctl reset-failed "$HOLDER" 2>/dev/null
	rm -f "$tmp/pid"
	systemd-run --quiet --unit="$HOLDER" -p User=byk -p Group=byk \
	    -p StandardOutput="file:$tmp/pid" -- python3 "$tmp/holder.py" "$@"
	n=0 pid=
	while [ $n -lt 100 ]; do
		pid=$(cat "$tmp/pid" 2>/dev/null)
		[ -n "$pid" ] && [ -e "/proc/$pid/fd/3" ] && break
		sleep 0.1; n=$((n + 1))
	done
	# The helper must be inside its send, fd 3 still held.
	sleep 0.5
	[ -n "$pid" ] && [ -e "/proc/$pid/fd/3" ]
}

# steal: opty-steal on $pid as an unrelated byk service.
steal() {
	systemctl reset-failed opty-thief.service 2>/dev/null
	systemd-run --quiet --wait --pipe --unit=opty-thief.service \
	    -p User=byk -p Group=byk -- "$TOOLS/opty-steal" "$pid" 4 \
	    > "$tmp/steal" 2>&1 < /dev/null
	sed 's/^/  /' "$tmp/steal"
}
has() { grep -q "^opty-steal: $1\$" "$tmp/steal"; }

# refused LABEL: fd 3, fd 4 and ptrace all EPERM.
refused() {
	check "$1: pidfd_getfd of fd 3 (the connection) refused" \
	    has 'getfd 3 errno=EPERM'
	check "$1: pidfd_getfd of fd 4 (the directory) refused" \
	    has 'getfd 4 errno=EPERM'
	check "$1: ptrace attach refused" has 'ptrace errno=EPERM'
}

if hold "$HELPER" -- /bin/true; then
	check "the installed helper is held in its send" \
	    grep -q '^State:.*S' "/proc/$pid/status"
	steal
	refused "installed helper (0711)"
else
	fail "the installed helper could not be held with fd 3 open"
fi
if hold "$COPYDIR/opencode-pty-client" -- /bin/true; then
	steal
	refused "readable copy (0755, prctl only)"
else
	fail "the readable copy could not be held with fd 3 open"
fi
# Positive control: the same descriptors in a dumpable byk process.
if hold /bin/sleep 30; then
	steal
	check "control: /bin/sleep's fd 3 taken" \
	    has 'getfd 3 ok socket peer=-'
	check "control: /bin/sleep's fd 4 taken" has 'getfd 4 ok other'
	check "control: /bin/sleep attached" has 'ptrace ok'
else
	fail "control: /bin/sleep could not be held"
fi
finish
