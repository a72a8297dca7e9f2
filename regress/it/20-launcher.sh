#!/bin/sh
# 20-launcher.sh: integration test of the installed opencode-pty-launcher.
# Runs as root inside the disposable systemd container
# (regress/integration.sh); every session is a real transient unit started
# the supervisor's way (opty-unitrun) as byk in opencode-pty.slice, with
# the slave of a PTY allocated outside the unit on stdin/stdout and a
# socket carrying the directory on stderr.  The launcher execs the
# command itself: the unit's results are the command's own.  The
# arguments are encoded with the project's own encoder (opty-argenc).

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

L=/usr/local/libexec/opencode-pty-launcher
run="${TOOLS:?TOOLS is not set}/opty-unitrun"
argenc="$TOOLS/opty-argenc"
for t in "$run" "$argenc"; do
	if [ ! -x "$t" ]; then
		echo "FAIL: $t is missing (make tools)"
		exit 1
	fi
done
if ! id -u byk >/dev/null 2>&1; then
	echo "FAIL: user byk does not exist (the harness creates it)"
	exit 1
fi
if [ ! -x "$L" ]; then
	echo "FAIL: $L is not installed (make install)"
	exit 1
fi
# The launcher and every directory above it: root's, and only root's.
for p in "$L" /usr/local/libexec /usr/local /usr /; do
	m=$(stat -c '%U:%G %a' "$p")
	case "$p:$m" in
	"$L:root:root 755") pass "$p is $m" ;;
	"$L:"*) fail "$p is $m, not root:root 755" ;;
	*":root:root 755") pass "$p is $m" ;;
	*) fail "$p is $m, not root:root 755" ;;
	esac
done
if cmp -s "${BUILD:-build}/bin/opencode-pty-launcher" "$L"; then
	pass "the installed launcher is the one just built"
else
	fail "$L differs from ${BUILD:-build}/bin/opencode-pty-launcher"
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
dir="$tmp/dir"
mkdir "$dir"
chown byk: "$dir"

if [ ! -e /etc/systemd/system/opencode-pty.slice ]; then
	printf '[Unit]\nDescription=opencode-pty sessions (test)\n' \
	    > /run/systemd/system/opencode-pty.slice
	systemctl daemon-reload
fi

# unitrun OPTS... -- ARGV...: raw output bytes in $tmp/out.raw, the same
# with the PTY's CRs dropped in $tmp/out, opty-unitrun's report line in
# $tmp/last, its exit status in $rc.
unitrun() {
	"$run" "$@" > "$tmp/out.raw" 2> "$tmp/err"
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	tail -n 1 "$tmp/err" > "$tmp/last"
	head -c 2000 "$tmp/out" | sed 's/^/  stdout: /'
	sed 's/^/  stderr: /' "$tmp/err"
}

# launch USER DIR ARG...: the launcher with ARG... encoded, as USER, in
# opencode-pty.slice, DIR on stderr (none if DIR is empty).  $lopts, if
# set, adds opty-unitrun options (-p Name=value, no blank in them).
lopts=
launch() {
	lu=$1 ld=$2
	shift 2
	if ! encoded=$("$argenc" "$@"); then
		fail "opty-argenc refused the arguments"
		return 1
	fi
	set -f
	# shellcheck disable=SC2086	# the encoding has no blank or glob
	set -- $lopts -- "$L" $encoded
	set +f
	if [ -n "$ld" ]; then
		unitrun -u "$lu" -s opencode-pty.slice -D "$ld" "$@"
	else
		unitrun -u "$lu" -s opencode-pty.slice "$@"
	fi
}

# expect_result CODE STATUS RESULT WHAT (CLD_EXITED = 1, CLD_KILLED = 2)
expect_result() {
	if [ "$rc" = 0 ] && grep -Eqx "opty-unitrun: unit=[^ ]+ code=$1 status=$2 result=$3" \
	    "$tmp/last"; then
		pass "$4: code=$1 status=$2 result=$3"
	else
		fail "$4: exit $rc, last stderr line: $(cat "$tmp/last")"
	fi
}

# expect_out TEXT WHAT: the whole output, CRs dropped, is TEXT + newline.
expect_out() {
	printf '%s\n' "$1" > "$tmp/want"
	if cmp -s "$tmp/want" "$tmp/out"; then
		pass "$2"
	else
		fail "$2: output is '$(cat "$tmp/out")', expected '$1'"
	fi
}

# hexargs ARG...: one line per argument, its bytes in hex.  Run here on
# the original arguments and in the unit on what the command received.
HEXARGS='for a; do printf %s "$a" | od -An -tx1 -v | tr -d " \n"; echo; done'
hexargs() {
	for a; do printf %s "$a" | od -An -tx1 -v | tr -d ' \n'; echo; done
}

# expect_argv WHAT ARG...: the command receives ARG... byte for byte.
expect_argv() {
	what=$1
	shift
	hexargs "$@" > "$tmp/want"
	launch byk "$dir" /bin/sh -c "$HEXARGS" sh "$@"
	expect_result 1 0 success "$what: exit"
	if cmp -s "$tmp/want" "$tmp/out"; then
		pass "$what: argv arrives byte for byte ($# arguments)"
	else
		fail "$what: argv differs"
		diff "$tmp/want" "$tmp/out" | head -20
	fi
}

# --- who, where, environment, terminal -----------------------------------

launch byk "$dir" /usr/bin/id -un
expect_result 1 0 success "id -un"
expect_out byk "the command runs as byk"

launch byk "$dir" /bin/cat /proc/self/cgroup
expect_result 1 0 success "cat /proc/self/cgroup"
if grep -Eq '^0::/opencode\.slice/opencode-pty\.slice/[^/]+\.service$' \
    "$tmp/out"; then
	pass "the command runs in opencode-pty.slice"
else
	fail "wrong cgroup: $(cat "$tmp/out")"
fi

home=$(getent passwd byk | cut -d: -f6)
launch byk "$dir" /usr/bin/env
expect_result 1 0 success "env"
printf '%s\n' "HOME=$home" LANG=C.UTF-8 LOGNAME=byk \
    PATH=/usr/local/bin:/usr/bin:/bin TERM=xterm-256color USER=byk \
    > "$tmp/want"
sort "$tmp/out" > "$tmp/got"
if cmp -s "$tmp/want" "$tmp/got"; then
	pass "the environment is exactly the fixed set"
else
	fail "environment: $(tr '\n' ' ' < "$tmp/out")"
fi

launch byk "$dir" /usr/bin/readlink /proc/self/fd/0 /proc/self/fd/1 \
    /proc/self/fd/2
expect_result 1 0 success "readlink fd 0-2"
if [ "$(grep -Ec '^/dev/pts/[0-9]+$' "$tmp/out")" = 3 ] &&
    [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
	pass "stdin, stdout and stderr are one pty: $(head -n 1 "$tmp/out")"
else
	fail "fd 0-2 are not one /dev/pts/N: $(tr '\n' ' ' < "$tmp/out")"
fi

launch byk "$dir" /usr/bin/tty
expect_result 1 0 success "tty"
grep -Eqx '/dev/pts/[0-9]+' "$tmp/out" && pass "stdin is a tty" ||
    fail "tty says '$(cat "$tmp/out")'"

# The terminal is the controlling terminal of the command's session, which
# the command leads, and the command is its foreground process group (so
# ^C reaches it); it starts with no signal blocked or ignored.  Read by
# the command itself: a shell would report its own, not what it was given.
# /proc/self/stat: pid, pgrp, session, tty_nr, tpgid.
launch byk "$dir" /usr/bin/cut -d " " -f 1,5,6,7,8 /proc/self/stat
expect_result 1 0 success "cut /proc/self/stat"
# shellcheck disable=SC2046	# five numbers
set -- $(cat "$tmp/out")
[ $# = 5 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$4" != 0 ] &&
    [ "$5" = "$2" ] &&
    pass "the command leads its session, the pty is its controlling terminal, its group in front" ||
    fail "pid/pgrp/sid/tty_nr/tpgid: $(cat "$tmp/out")"
launch byk "$dir" /bin/sh -c 'exec 3<>/dev/tty && readlink /proc/$$/fd/3 /proc/$$/fd/0'
expect_result 1 0 success "/dev/tty opens"
if [ "$(sort -u "$tmp/out" | grep -Ecx '/dev/pts/[0-9]+')" = 1 ] &&
    [ "$(wc -l < "$tmp/out")" = 2 ]; then
	pass "/dev/tty is the session's pty"
else
	fail "/dev/tty: $(tr '\n' ' ' < "$tmp/out")"
fi
launch byk "$dir" /bin/stty size
expect_result 1 0 success "stty size"
expect_out "24 80" "the window size is the pty's, 24x80 by default"
lopts="-w 50x132"
launch byk "$dir" /bin/stty size
lopts=
expect_out "50 132" "the window size set outside the unit is seen (50x132)"
# ^C on the terminal is SIGINT for the foreground group: sh says it is
# ready (-W holds the input until then) and dies of it.
lopts="-W -i $(printf '\003')"
launch byk "$dir" /bin/sh -c 'echo ready; exec sleep 20'
lopts=
# systemd counts SIGHUP, SIGINT, SIGTERM and SIGPIPE as a clean end.
expect_result 2 2 success "^C written to the master: SIGINT"
launch byk "$dir" /usr/bin/grep -E "^Sig(Blk|Ign):" /proc/self/status
expect_result 1 0 success "grep /proc/self/status"
if [ "$(grep -Ec '^Sig(Blk|Ign):[[:space:]]+0+$' "$tmp/out")" = 2 ]; then
	pass "no signal blocked or ignored"
else
	fail "signal state: $(tr '\n' ' ' < "$tmp/out")"
fi

# --- descriptors ------------------------------------------------------------

# The shell lists its own descriptors through a child; it opened none.
launch byk "$dir" /bin/sh -c 'ls -1 /proc/$$/fd'
expect_result 1 0 success "ls /proc/\$\$/fd"
if [ "$(tr '\n' ' ' < "$tmp/out")" = "0 1 2 " ]; then
	pass "the command has exactly fd 0, 1 and 2 (no fd 3, nothing else)"
else
	fail "descriptors of the command: $(tr '\n' ' ' < "$tmp/out")"
fi

launch byk "$dir" /usr/bin/readlink /proc/self/fd/3
expect_result 1 1 exit-code "readlink /proc/self/fd/3 fails"
[ -s "$tmp/out" ] && fail "fd 3 is open: $(cat "$tmp/out")" ||
    pass "fd 3 is not open in the command"

# --- the working directory is the descriptor's, never a path ----------------

cwd="$tmp/cwd"
mkdir "$cwd" "$cwd/d1"
: > "$cwd/d1/marker"
chown -R byk: "$cwd"
if encoded=$("$argenc" /bin/sh -c \
    ': > started; while [ ! -e "$1" ]; do sleep 0.05; done; /bin/pwd -P; ls -1' \
    sh "$cwd/go"); then
	set -f
	# shellcheck disable=SC2086
	set -- $encoded
	set +f
	"$run" -u byk -s opencode-pty.slice -D "$cwd/d1" -- "$L" "$@" \
	    > "$tmp/cwd.raw" 2> "$tmp/cwd.err" &
	bg=$!
	i=0
	while [ ! -e "$cwd/d1/started" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	# Rename the directory under the running session and put a decoy
	# where it was: only the descriptor still leads to the original.
	mv "$cwd/d1" "$cwd/d2"
	mkdir "$cwd/d1"
	: > "$cwd/d1/decoy"
	: > "$cwd/go"
	wait $bg
	rc=$?
	tr -d '\r' < "$tmp/cwd.raw" > "$tmp/out"
	tail -n 1 "$tmp/cwd.err" > "$tmp/last"
	sed 's/^/  stdout: /' "$tmp/out"
	sed 's/^/  stderr: /' "$tmp/cwd.err"
	expect_result 1 0 success "cwd after a rename"
	expect_out "$cwd/d2
marker
started" "cwd is the descriptor's directory, renamed after the fd was opened"
fi

# A relative command name resolves in that directory too.
printf '#!/bin/sh\necho relative-ok\n' > "$dir/hello"
chmod 0755 "$dir/hello"
launch byk "$dir" ./hello
expect_result 1 0 success "./hello"
expect_out relative-ok "a relative argv[0] runs from the approved directory"
rm -f "$dir/hello"

# --- argv is byte exact, nothing is evaluated ---------------------------------

nl='
'
expect_argv "metacharacters" "a b" "  two  spaces  " "'" '"' "a'b; \$(id)" \
    '$(id)' '`id`' '${HOME}' '$HOME' ';' '&&' '|' '>x' '<x' '*' '?' '[a]' \
    '~' '\' '\\n' '%s\n' "-n" "--" "-e" "tab	tab" "x${nl}y" "${nl}" \
    "é€😀" "" "#comment" '!' "a=b"

expect_argv "an empty argument alone" ""

# Would anything evaluate them, these files would exist afterwards ($dir
# belongs to byk, so the command could create them).
expect_argv "injection attempts" "\$(touch $dir/pwned1)" \
    "; touch $dir/pwned2" "\`touch $dir/pwned3\`" "| touch $dir/pwned4" \
    "\$(touch pwned5)"
if ls "$dir"/pwned* >/dev/null 2>&1; then
	fail "an argument was evaluated: $(ls "$dir"/pwned*)"
else
	pass "no argument was evaluated by a shell"
fi

# 128 arguments in all: /bin/sh -c SCRIPT sh + 124.
set --
i=1
while [ $i -le 124 ]; do
	set -- "$@" "arg $i ;\$x"
	i=$((i + 1))
done
expect_argv "128 arguments" "$@"

big=$(head -c 3072 /dev/urandom | base64 -w 0)
[ ${#big} = 4096 ] || fail "test bug: big argument is ${#big} bytes"
expect_argv "a 4096-byte argument" "$big" "after"

# argv[0] without a slash: looked up in the fixed PATH, passed unchanged.
launch byk "$dir" cat /proc/self/cmdline
expect_result 1 0 success "cat /proc/self/cmdline"
printf 'cat\0/proc/self/cmdline\0' | od -An -tx1 -v > "$tmp/want"
od -An -tx1 -v "$tmp/out" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" &&
    pass "argv[0] 'cat' found in PATH and passed unchanged" ||
    fail "cmdline: $(tr '\0' ' ' < "$tmp/out")"

# --- exit statuses: the command's own -------------------------------------------

# The command is the unit's main process: nothing runs between them.
launch byk "$dir" /bin/sh -c \
    'u=$(sed -n "s|^0::.*/||p" /proc/self/cgroup); echo $$; systemctl --no-pager show -P MainPID "$u"; cat /proc/$PPID/comm'
expect_result 1 0 success "MainPID"
set -- $(cat "$tmp/out")
if [ $# = 3 ] && [ "$1" = "$2" ] && [ "$3" = systemd ]; then
	pass "the command is the unit's main process, a child of PID 1"
else
	fail "pid, MainPID, parent: $(tr '\n' ' ' < "$tmp/out")"
fi

launch byk "$dir" /bin/sh -c 'exit 7'
expect_result 1 7 exit-code "exit 7 reaches ExecMainStatus"

# A death by signal N is CLD_KILLED (2) and N, as systemd-run --pty
# reports it (the seeds' script -e gave code 1 and 128 + N).  SIGTERM is
# one of the signals systemd counts as a clean end: result success.
launch byk "$dir" /bin/sh -c 'kill -TERM $$'
expect_result 2 15 success "a command killed by SIGTERM"
launch byk "$dir" /bin/sh -c 'kill -KILL $$'
expect_result 2 9 signal "a command killed by SIGKILL"
# CLD_DUMPED (3) where the core is dumped.
launch byk "$dir" /bin/sh -c 'kill -SEGV $$'
if [ "$rc" = 0 ] && grep -Eqx "opty-unitrun: unit=[^ ]+ code=(2 status=11 result=signal|3 status=11 result=core-dump)" \
    "$tmp/last"; then
	pass "a command killed by SIGSEGV: $(sed 's/.* code/code/' "$tmp/last")"
else
	fail "SIGSEGV: exit $rc, last stderr line: $(cat "$tmp/last")"
fi

# --- failures: one line on the terminal, a status per class -----------------------

# expect_fail STATUS WHAT TEXT: exit STATUS and a first line
# "opencode-pty-launcher: TEXT".
expect_fail() {
	expect_result 1 "$1" exit-code "$2"
	if [ "$(head -n 1 "$tmp/out")" = "opencode-pty-launcher: $3" ]; then
		pass "$2: reason '$3'"
	else
		fail "$2: reason '$(head -n 1 "$tmp/out")', expected '$3'"
	fi
}

unitrun -u byk -s opencode-pty.slice -D "$dir" -- "$L"
expect_fail 64 "no argument" "need 1 to 128 arguments, got 0"
# The line went through the terminal, which added the CR.
printf 'opencode-pty-launcher: need 1 to 128 arguments, got 0\r\n' \
    > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out.raw" &&
    pass "a failure is reported on the terminal, and only that line" ||
    fail "report: $(od -c "$tmp/out.raw" | head -3)"

set --
i=1
while [ $i -le 129 ]; do
	set -- "$@" a
	i=$((i + 1))
done
unitrun -u byk -s opencode-pty.slice -D "$dir" -- "$L" "$@"
expect_fail 64 "129 arguments" "need 1 to 128 arguments, got 129"

for bad in bad= aZg== aZm9vY aQR aAA; do
	case $bad in
	bad=) why="argument 2: argument does not start with 'a'" ;;
	aZg==) why="argument 2: argument has a character outside [A-Za-z0-9_-]" ;;
	aZm9vY) why="argument 2: argument has an impossible base64 length" ;;
	aQR) why="argument 2: argument is not canonical base64 (trailing bits)" ;;
	aAA) why="argument 2: argument contains a NUL byte" ;;
	esac
	unitrun -u byk -s opencode-pty.slice -D "$dir" -- "$L" \
	    "$("$argenc" /bin/echo)" "$bad"
	expect_fail 64 "encoded argument $bad" "$why"
done

toolong=a$(head -c 4097 /dev/zero | tr '\0' A | base64 -w 0 | tr '+/' '-_' |
    tr -d '=')
unitrun -u byk -s opencode-pty.slice -D "$dir" -- "$L" "$toolong"
expect_fail 64 "a 4097-byte argument" \
    "argument 1: argument decodes to more than 4096 bytes"

# No directory at all: stderr is the terminal.
launch byk "" /bin/true
expect_fail 65 "stderr is the terminal" "fd 2 is not a socket"
# No directory message: stderr is the stdio socket (-m socket), on which
# nothing was queued (refused at once, never waited for).
lopts="-m socket"
launch byk "" /bin/true
lopts=
expect_fail 65 "stderr carries no directory" \
    "no directory message on fd 2: Resource temporarily unavailable"

# --- the terminal: fd 0 and fd 1 must be one (status 75) -------------------------

# Without a terminal the seeds' way (one socket on fd 0/1): refused
# before Landlock and before any argument is looked at; the line comes
# straight, without a CR.  The positive control is every session above.
lopts="-m socket"
launch byk "$dir" /usr/bin/id -un
lopts=
expect_fail 75 "stdin and stdout a socket" "stdin is not a terminal"
printf 'opencode-pty-launcher: stdin is not a terminal\n' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out.raw" &&
    pass "the refusal is the only output, and the command never ran" ||
    fail "report: $(od -c "$tmp/out.raw" | head -3)"
lopts="-m split"
launch byk "$dir" /usr/bin/id -un
lopts=
expect_fail 75 "stdin the pty, stdout a socket" "stdout is not a terminal"
launch byk "$dir" /usr/bin/id -un
expect_result 1 0 success "control: the same session on the pty"
expect_out byk "control: the same command runs on the pty"

# The directory itself on fd 2, as the seeds passed it: not the parent's
# socket.  Only systemd <= 258 takes a directory as stderr at all.
sysver=$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
unitrun -u byk -s opencode-pty.slice -d "$dir" -- "$L" "$("$argenc" /bin/true)"
if [ "${sysver:-0}" -le 258 ]; then
	expect_fail 65 "a directory on fd 2" "fd 2 is not a socket"
elif grep -q 'StandardErrorFileDescriptor passed is of incompatible type' \
    "$tmp/last"; then
	pass "a directory on fd 2: systemd $sysver refuses it itself"
else
	fail "a directory on fd 2, systemd $sysver: rc $rc: $(cat "$tmp/last")"
fi

# Another user than byk.  Not root: opty-unitrun -u root sometimes reports
# code=0 status=0 before the main process has exited (seen with /bin/false
# too, so not the launcher's doing).
other=opty-lnch-other
if ! id -u "$other" >/dev/null 2>&1 &&
    ! useradd -M -U -d /nonexistent -s /usr/sbin/nologin "$other"; then
	fail "cannot create the test user $other"
fi
launch "$other" "$dir" /bin/true
expect_fail 69 "run as $other instead of byk" "not running as byk"
userdel "$other" >/dev/null 2>&1

launch byk "$dir" opty-no-such-command
expect_fail 70 "a command not in PATH" \
    "command not found in /usr/local/bin:/usr/bin:/bin"

launch byk "$dir" ""
expect_fail 70 "an empty command name" "empty command name"

launch byk "$dir" /etc/passwd
expect_fail 71 "a command that is not executable" \
    "execve: Permission denied"

# --- the directory is re-opened by its path inside the unit (status 73) ---------

# The descriptor was opened outside the unit's mount namespace; the
# launcher re-opens its path inside and refuses another inode or none.
# expect_reanchor WHAT TEXT: refused with 73 and that reason.
expect_reanchor() {
	expect_fail 73 "$1" "the directory $2"
}

# An escape it closes: from a cwd on the host's descriptor, relative
# paths walked the host's mount tree past the unit's mounts.  Here the
# unit hides /home (ProtectHome=tmpfs); a marker there must stay hidden
# by relative path, /proc/self/cwd/... and absolute path alike.
hid=/home/opty-lnch-$$
mkdir -p "$hid/d" && chmod 0755 "$hid" && chown byk: "$hid/d" &&
    : > "$hid/marker" || fail "cannot create $hid"
up=$(printf '%s' "$dir" | sed 's#/[^/]*#../#g')
PROBE='for p; do if [ -e "$p" ]; then echo "seen $p"; else echo "hidden $p"; fi; done'
p1="$up${hid#/}/marker" p2="/proc/self/cwd/$up${hid#/}/marker"
p3="$hid/marker"
printf '%s\n' "$p1" "$p2" "$p3" > "$tmp/paths"
lopts="-p ProtectHome=tmpfs"
launch byk "$dir" /bin/sh -c "$PROBE" sh "$p1" "$p2" "$p3"
lopts=
expect_result 1 0 success "probe /home from a unit with ProtectHome=tmpfs"
sed 's/^/hidden /' "$tmp/paths" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" &&
    pass "relative, /proc/self/cwd and absolute paths see the unit's /home" ||
    fail "the host's /home is reachable: $(tr '\n' ' ' < "$tmp/out")"
# Control: without the unit's mount the same probe sees the marker.
launch byk "$dir" /bin/sh -c "$PROBE" sh "$p1" "$p2" "$p3"
sed 's/^/seen /' "$tmp/paths" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" &&
    pass "control: the same probe sees the marker without ProtectHome" ||
    fail "control probe: $(tr '\n' ' ' < "$tmp/out")"

# A directory the unit itself hides: refused, not used from outside.
lopts="-p ProtectHome=tmpfs"
launch byk "$hid/d" /bin/pwd
lopts=
expect_reanchor "a directory under the unit's hidden /home" \
    "'$hid/d' is not reachable by its path inside the unit: No such file or directory"
launch byk "$hid/d" /bin/pwd
expect_result 1 0 success "control: the same directory, /home not hidden"
expect_out "$hid/d" "control: the session starts in $hid/d"

# Opened in another mount namespace (a tmpfs only the opener sees), the
# way a client in its own namespace would pass it.  Then with a decoy
# at the same path in the unit's namespace.
ns="$tmp/ns"
mkdir -p "$ns"
nsrun() {	# nsrun: /bin/pwd in $ns/d, opened from a private tmpfs
	if ! encoded=$("$argenc" /bin/pwd); then
		fail "opty-argenc refused /bin/pwd"
		return 1
	fi
	unitrun_ns='mount -t tmpfs -o mode=0755 opty-lnch "$1" &&
	    mkdir "$1/d" && chown byk: "$1/d" || exit 99
	shift
	exec "$@"'
	# shellcheck disable=SC2086	# the encoding has no blank or glob
	unshare -m --propagation private /bin/sh -c "$unitrun_ns" sh "$ns" \
	    "$run" -u byk -s opencode-pty.slice -D "$ns/d" -- "$L" $encoded \
	    > "$tmp/out.raw" 2> "$tmp/err"
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	tail -n 1 "$tmp/err" > "$tmp/last"
	sed 's/^/  stdout: /' "$tmp/out"
	sed 's/^/  stderr: /' "$tmp/err"
}
nsrun
expect_reanchor "a directory from another mount namespace" \
    "'$ns/d' is not reachable by its path inside the unit: No such file or directory"
mkdir "$ns/d" && chown byk: "$ns/d"
nsrun
expect_reanchor "another mount namespace, a decoy at the path" \
    "'$ns/d' is another directory by its path inside the unit"
launch byk "$ns/d" /bin/pwd
expect_result 1 0 success "control: the decoy itself is a fine directory"
rmdir "$ns/d"

# Moved after the client opened it into a directory byk cannot search:
# the path is unreachable for the session user.
priv="$tmp/priv"
mkdir -m 0700 "$priv"
mkdir "$tmp/moved" && chown byk: "$tmp/moved"
exec 9< "$tmp/moved"
mv "$tmp/moved" "$priv/moved"
launch byk /proc/$$/fd/9 /bin/pwd
expect_reanchor "a directory moved where byk cannot search" \
    "'$priv/moved' is not reachable by its path inside the unit: Permission denied"
chmod 0755 "$priv"
launch byk /proc/$$/fd/9 /bin/pwd
expect_result 1 0 success "control: moved, but reachable"
expect_out "$priv/moved" "control: a rename before start is followed"
exec 9<&-

# Deleted after the client opened it.
mkdir "$tmp/gone" && chown byk: "$tmp/gone"
exec 9< "$tmp/gone"
rmdir "$tmp/gone"
launch byk /proc/$$/fd/9 /bin/pwd
expect_reanchor "a deleted directory" "'$tmp/gone (deleted)' was deleted"
exec 9<&-

# --- Landlock: the session is scoped away from other processes (status 74) -------

# A byk process outside any session, e.g. the Node service.
setpriv --reuid=byk --regid=byk --clear-groups sleep 60 &
outside=$!
i=0
until [ "$(stat -c %U "/proc/$outside" 2>/dev/null)" = byk ] &&
    [ "$(cat "/proc/$outside/comm")" = sleep ] || [ $i -ge 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
PTRACEPROBE='
if readlink "/proc/$1/root" >/dev/null 2>&1; then echo root-seen; else echo root-refused; fi
if cat "/proc/$1/environ" >/dev/null 2>&1; then echo environ-seen; else echo environ-refused; fi
if kill -0 "$1" 2>/dev/null; then echo kill-ok; else echo kill-refused; fi'
launch byk "$dir" /bin/sh -c "$PTRACEPROBE" sh "$outside"
expect_result 1 0 success "probe a byk process outside the session"
# Signals are scoped from Landlock ABI 6 (Linux 6.12).
kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
# shellcheck disable=SC2086	# two numbers
set -- $kv
if [ "$1" -gt 6 ] || { [ "$1" = 6 ] && [ "$2" -ge 12 ]; }; then
	killwant=kill-refused
else
	killwant=kill-ok
fi
expect_out "root-refused
environ-refused
$killwant" "the session cannot reach /proc/<pid>/root|environ of byk's other process ($killwant)"
# Control: the same probe as byk outside any session succeeds.
setpriv --reuid=byk --regid=byk --clear-groups /bin/sh -c "$PTRACEPROBE" \
    sh "$outside" > "$tmp/out"
expect_out "root-seen
environ-seen
kill-ok" "control: the same probe from byk outside the session succeeds"
kill "$outside"
wait "$outside" 2>/dev/null

# The command keeps ptrace over its own tree: strace -f follows a
# grandchild, strace -p attaches to a sibling.
launch byk "$dir" /bin/sh -c \
    'strace -f -qq -e trace=execve -o "$1" /bin/sh -c "/bin/echo traced-child" &&
    grep -c "execve(\"/bin/echo\"" "$1"' sh strace.out
expect_result 1 0 success "strace -f in a session"
expect_out "traced-child
1" "strace -f traces the command's own grandchild"
# strace is the parent of what it attaches to: allowed under any Yama
# ptrace_scope below 2 as well.
launch byk "$dir" /bin/sh -c 'sleep 1 & exec strace -qq -e trace=none -p "$!"'
expect_result 1 0 success "strace -p in a session attaches to its child"
if [ -s "$tmp/out" ]; then
	fail "strace -p complained: $(cat "$tmp/out")"
else
	pass "strace -p: no complaint"
fi
rm -f "$dir/strace.out"
rm -rf "$hid"

left=$(systemctl list-units --all --no-legend --plain 'opty-unitrun-*')
if [ -z "$left" ]; then
	pass "no opty-unitrun-* unit is left"
else
	fail "units left behind: $left"
fi

[ $fails = 0 ]
