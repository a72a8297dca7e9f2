#!/bin/sh
# 20-launcher.sh: integration test of the installed opencode-pty-launcher.
# Runs as root inside the disposable systemd container
# (regress/integration.sh); every session goes the real path: the client
# of itlib.sh (real Node; opty-nodesim for a held start frame) as the
# Node service's MainPID runs the real opencode-pty-client, the
# installed supervisor starts its own transient unit (the properties of
# dbusd/props.c, the only definition of the unit), with the slave of the
# PTY its parent allocated on stdin/stdout and a socket carrying the
# directory on stderr.  The launcher execs the command itself: the exit
# frame carries the command's own results.
#
# Launcher refusals the supervisor can never cause (no argument or 129,
# a malformed encoded argument or one over 4096 bytes: the parent
# encodes the arguments itself; stdin or stdout not the terminal, no
# directory message on fd 2: the parent always passes both; another user
# than byk: the unit's User= is fixed; an empty command name: the start
# frame refuses it, FRAME_E_EMPTYARG0) are provoked on the installed
# binary run directly, outside any unit (opty-lxdirect passes the
# directory on fd 2 as the parent does), with their exact status and
# line; regress/unit/test_launcher.c tests the checks behind them.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

L=$INST_LIBEXEC/opencode-pty-launcher
if [ ! -x "$L" ]; then
	echo "FAIL: $L is not installed (make install or the packages)"
	exit 1
fi
# The launcher and every directory above it: root's, and only root's.
above=
p=$INST_LIBEXEC
while [ -n "$p" ]; do above="$above $p"; p=${p%/*}; done
for p in "$L" $above /; do
	m=$(stat -c '%U:%G %a' "$p")
	case "$p:$m" in
	"$L:root:root 755") pass "$p is $m" ;;
	"$L:"*) fail "$p is $m, not root:root 755" ;;
	*":root:root 755") pass "$p is $m" ;;
	*) fail "$p is $m, not root:root 755" ;;
	esac
done
if inst_is_built opencode-pty-launcher; then
	pass "the installed launcher is $(inst_origin opencode-pty-launcher)"
else
	fail "$L is not $(inst_origin opencode-pty-launcher)"
fi

dir="$tmp/dir"
mkdir "$dir"
chown byk: "$dir"
sup_start || { echo "FAIL: supervisor did not start"; exit 1; }

# launch DIR ARG...: a session in DIR running ARG... (client's options
# first when $lopts is set: no blank in them).  Raw output in
# $tmp/out.raw, without the PTY's CRs in $tmp/out, the last result
# line in $tmp/last.
lopts=
launch() {
	ld=$1
	shift
	set -f
	# shellcheck disable=SC2086	# no blank or glob in $lopts
	client $lopts -d "$ld" -- "$@"
	set +f
	head -c 2000 "$tmp/out" | sed 's/^/  stdout: /'
}

# expect_result CODE STATUS RESULT WHAT (CLD_EXITED = 1, CLD_KILLED = 2)
expect_result() { expect_exit "$@"; }

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
	launch "$dir" /bin/sh -c "$HEXARGS" sh "$@"
	expect_result 1 0 success "$what: exit"
	if cmp -s "$tmp/want" "$tmp/out"; then
		pass "$what: argv arrives byte for byte ($# arguments)"
	else
		fail "$what: argv differs"
		diff "$tmp/want" "$tmp/out" | head -20
	fi
}

# fd_open PID PATH: PID holds a descriptor of PATH (up to 5 s).
fd_open() {
	i=0
	while [ $i -lt 100 ]; do
		for f in "/proc/$1/fd"/*; do
			[ "$(readlink "$f")" = "$2" ] && return 0
		done
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# --- who, where, environment, terminal -----------------------------------

launch "$dir" /usr/bin/id -un
expect_result 1 0 success "id -un"
expect_out byk "the command runs as byk"

launch "$dir" /bin/cat /proc/self/cgroup
expect_result 1 0 success "cat /proc/self/cgroup"
if grep -Eqx '0::/opencode\.slice/opencode-pty\.slice/opencode-pty-[0-9a-f]{32}\.service' \
    "$tmp/out"; then
	pass "the command runs in opencode-pty.slice"
else
	fail "wrong cgroup: $(cat "$tmp/out")"
fi

home=$(getent passwd byk | cut -d: -f6)
launch "$dir" /usr/bin/env
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

launch "$dir" /usr/bin/readlink /proc/self/fd/0 /proc/self/fd/1 \
    /proc/self/fd/2
expect_result 1 0 success "readlink fd 0-2"
if [ "$(grep -Ec '^/dev/pts/[0-9]+$' "$tmp/out")" = 3 ] &&
    [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
	pass "stdin, stdout and stderr are one pty: $(head -n 1 "$tmp/out")"
else
	fail "fd 0-2 are not one /dev/pts/N: $(tr '\n' ' ' < "$tmp/out")"
fi

launch "$dir" /usr/bin/tty
expect_result 1 0 success "tty"
grep -Eqx '/dev/pts/[0-9]+' "$tmp/out" && pass "stdin is a tty" ||
    fail "tty says '$(cat "$tmp/out")'"

# The terminal is the controlling terminal of the command's session, which
# the command leads, and the command is its foreground process group (so
# ^C reaches it); it starts with no signal blocked or ignored.  Read by
# the command itself: a shell would report its own, not what it was given.
# /proc/self/stat: pid, pgrp, session, tty_nr, tpgid.
launch "$dir" /usr/bin/cut -d " " -f 1,5,6,7,8 /proc/self/stat
expect_result 1 0 success "cut /proc/self/stat"
# shellcheck disable=SC2046	# five numbers
set -- $(cat "$tmp/out")
[ $# = 5 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$4" != 0 ] &&
    [ "$5" = "$2" ] &&
    pass "the command leads its session, the pty is its controlling terminal, its group in front" ||
    fail "pid/pgrp/sid/tty_nr/tpgid: $(cat "$tmp/out")"
launch "$dir" /bin/sh -c 'exec 3<>/dev/tty && readlink /proc/$$/fd/3 /proc/$$/fd/0'
expect_result 1 0 success "/dev/tty opens"
if [ "$(sort -u "$tmp/out" | grep -Ecx '/dev/pts/[0-9]+')" = 1 ] &&
    [ "$(wc -l < "$tmp/out")" = 2 ]; then
	pass "/dev/tty is the session's pty"
else
	fail "/dev/tty: $(tr '\n' ' ' < "$tmp/out")"
fi
launch "$dir" /bin/stty size
expect_result 1 0 success "stty size"
expect_out "24 80" "the window size is the pty's, 24x80 by default"
lopts="-W 50x132"
launch "$dir" /bin/stty size
lopts=
expect_out "50 132" "the window size set outside the unit is seen (50x132)"
# ^C on the terminal is SIGINT for the foreground group: sh says it is
# ready (-O holds the input until then) and dies of it.
lopts="-O -i $(printf '\003')"
launch "$dir" /bin/sh -c 'echo ready; exec sleep 20'
lopts=
# systemd counts SIGHUP, SIGINT, SIGTERM and SIGPIPE as a clean end.
expect_result 2 2 success "^C written to the master: SIGINT"
launch "$dir" /usr/bin/grep -E "^Sig(Blk|Ign):" /proc/self/status
expect_result 1 0 success "grep /proc/self/status"
if [ "$(grep -Ec '^Sig(Blk|Ign):[[:space:]]+0+$' "$tmp/out")" = 2 ]; then
	pass "no signal blocked or ignored"
else
	fail "signal state: $(tr '\n' ' ' < "$tmp/out")"
fi

# --- descriptors ------------------------------------------------------------

# The shell lists its own descriptors through a child; it opened none.
launch "$dir" /bin/sh -c 'ls -1 /proc/$$/fd'
expect_result 1 0 success "ls /proc/\$\$/fd"
if [ "$(tr '\n' ' ' < "$tmp/out")" = "0 1 2 " ]; then
	pass "the command has exactly fd 0, 1 and 2 (no fd 3, nothing else)"
else
	fail "descriptors of the command: $(tr '\n' ' ' < "$tmp/out")"
fi

launch "$dir" /usr/bin/readlink /proc/self/fd/3
expect_result 1 1 exit-code "readlink /proc/self/fd/3 fails"
[ -s "$tmp/out" ] && fail "fd 3 is open: $(cat "$tmp/out")" ||
    pass "fd 3 is not open in the command"

# --- the working directory is the descriptor's, never a path ----------------

cwd="$tmp/cwd"
mkdir "$cwd" "$cwd/d1"
: > "$cwd/d1/marker"
chown -R byk: "$cwd"
bg_client -d "$cwd/d1" -- /bin/sh -c \
    ': > started; while [ ! -e "$1" ]; do sleep 0.05; done; /bin/pwd -P; ls -1' \
    sh "$cwd/go"
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
bg_wait
expect_result 1 0 success "cwd after a rename"
expect_out "$cwd/d2
marker
started" "cwd is the descriptor's directory, renamed after the fd was opened"

# A relative command name resolves in that directory too.
printf '#!/bin/sh\necho relative-ok\n' > "$dir/hello"
chmod 0755 "$dir/hello"
launch "$dir" ./hello
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
launch "$dir" cat /proc/self/cmdline
expect_result 1 0 success "cat /proc/self/cmdline"
printf 'cat\0/proc/self/cmdline\0' | od -An -tx1 -v > "$tmp/want"
od -An -tx1 -v "$tmp/out" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" &&
    pass "argv[0] 'cat' found in PATH and passed unchanged" ||
    fail "cmdline: $(tr '\0' ' ' < "$tmp/out")"

# --- exit statuses: the command's own -------------------------------------------

# The command is the unit's main process: nothing runs between them.
# Read from outside (the unit reaches no bus): its pid and its parent's
# pid, then systemd's MainPID of the unit while it runs.  (Not the
# parent's name: PID 1 is not in a session's /proc, ProtectProc=.)
rm -f "$dir/go" "$dir/pid"
bg_client -d "$dir" -- /bin/sh -c \
    'echo $$ $PPID > pid.tmp && mv pid.tmp pid; while [ ! -e go ]; do sleep 0.05; done'
i=0
while [ ! -s "$dir/pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
unit=$(pty_units | head -n 1)
mainpid=$(systemctl show -P MainPID "$unit")
: > "$dir/go"
bg_wait
expect_result 1 0 success "MainPID"
# shellcheck disable=SC2046	# two pids
set -- $(cat "$dir/pid") "$mainpid"
if [ $# = 3 ] && [ "$1" = "$3" ] && [ "$2" = 1 ]; then
	pass "the command is the unit's main process, a child of PID 1"
else
	fail "pid, parent, MainPID: $*"
fi
rm -f "$dir/go" "$dir/pid"

launch "$dir" /bin/sh -c 'exit 7'
expect_result 1 7 exit-code "exit 7 reaches ExecMainStatus"

# A death by signal N is CLD_KILLED (2) and N, as systemd-run --pty
# reports it (the seeds' script -e gave code 1 and 128 + N).  SIGTERM is
# one of the signals systemd counts as a clean end: result success.
launch "$dir" /bin/sh -c 'kill -TERM $$'
expect_result 2 15 success "a command killed by SIGTERM"
launch "$dir" /bin/sh -c 'kill -KILL $$'
expect_result 2 9 signal "a command killed by SIGKILL"
# CLD_DUMPED (3) where the core is dumped.
launch "$dir" /bin/sh -c 'kill -SEGV $$'
if grep -Eq '^opty-nodesim: exit (code=2 status=11 result=signal|code=3 status=11 result=core-dump) ' \
    "$tmp/last"; then
	pass "a command killed by SIGSEGV: $(sed 's/.*exit //' "$tmp/last")"
else
	fail "SIGSEGV: rc $rc, last line: $(cat "$tmp/last")"
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

# --- refusals only a unit the supervisor never makes could show ------------

# The installed launcher run directly, outside any unit, as byk on a new
# terminal, its directory on fd 2 the way the parent passes it
# (opty-lxdirect, which starts no unit): no argument or 129, bad
# encodings, stdio that is not one terminal, no directory message,
# another user.  ENC: the launcher's argument encoding ('a' + unpadded
# base64url), made here independently of the project's encoder.
enc() { printf 'a%s' "$(printf %s "$1" | base64 -w 0 | tr '+/' '-_' | tr -d '=')"; }
# lx [-s|-o|-r] DIR USER ARG...: the launcher with ARG... as they are.
lx() {
	lxo=
	case $1 in -[sor]) lxo=$1; shift ;; esac
	lxd=$1 lxu=$2
	shift 2
	# shellcheck disable=SC2086	# $lxo: one option or none
	"$TOOLS/opty-lxdirect" $lxo "$lxd" "$(command -v setpriv)" \
	    --reuid="$lxu" --regid="$lxu" --clear-groups --reset-env \
	    "$L" "$@" < /dev/null > "$tmp/out.raw" 2> "$tmp/err"
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	head -c 2000 "$tmp/out" | sed 's/^/  stdout: /'
}
# lx_fail STATUS WHAT TEXT: the direct run ended STATUS with TEXT.
lx_fail() {
	check "$2: status $1 ($rc)" test "$rc" = "$1"
	if [ "$(head -n 1 "$tmp/out")" = "opencode-pty-launcher: $3" ]; then
		pass "$2: reason '$3'"
	else
		fail "$2: reason '$(head -n 1 "$tmp/out")', expected '$3'"
	fi
}

lx "$dir" byk
lx_fail 64 "no argument" "need 1 to 128 arguments, got 0"
# The line went through the terminal, which added the CR.
printf 'opencode-pty-launcher: need 1 to 128 arguments, got 0\r\n' \
    > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out.raw" &&
    pass "no argument: reported on the terminal, and only that line" ||
    fail "report: $(od -c "$tmp/out.raw" | head -3)"

set --
i=1
while [ $i -le 129 ]; do
	set -- "$@" a
	i=$((i + 1))
done
lx "$dir" byk "$@"
lx_fail 64 "129 arguments" "need 1 to 128 arguments, got 129"

echo_enc=$(enc /bin/echo)
for bad in bad= aZg== aZm9vY aQR aAA; do
	case $bad in
	bad=) why="argument 2: argument does not start with 'a'" ;;
	aZg==) why="argument 2: argument has a character outside [A-Za-z0-9_-]" ;;
	aZm9vY) why="argument 2: argument has an impossible base64 length" ;;
	aQR) why="argument 2: argument is not canonical base64 (trailing bits)" ;;
	aAA) why="argument 2: argument contains a NUL byte" ;;
	esac
	lx "$dir" byk "$echo_enc" "$bad"
	lx_fail 64 "encoded argument $bad" "$why"
done

toolong=a$(head -c 4097 /dev/zero | tr '\0' A | base64 -w 0 | tr '+/' '-_' |
    tr -d '=')
lx "$dir" byk "$toolong"
lx_fail 64 "a 4097-byte argument" \
    "argument 1: argument decodes to more than 4096 bytes"

# No directory at all: stderr is the terminal.
setpriv --reuid=byk --regid=byk --clear-groups --reset-env \
    script -qec "$L $(enc /bin/true)" /dev/null < /dev/null > "$tmp/out.raw" 2>&1
rc=$?
tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
lx_fail 65 "stderr is the terminal" "fd 2 is not a socket"
# No directory message: stderr is the stdio socket, on which nothing was
# queued (refused at once, never waited for).
lx -s - byk "$(enc /bin/true)"
lx_fail 65 "stderr carries no directory" \
    "no directory message on fd 2: Resource temporarily unavailable"
# The directory itself on fd 2, as the seeds passed it.
lx -r "$dir" byk "$(enc /bin/true)"
lx_fail 65 "a directory on fd 2" "fd 2 is not a socket"

# The terminal: fd 0 and fd 1 must be one (status 75).  Without a
# terminal the seeds' way (one socket on fd 0/1): refused before
# Landlock and before any argument is looked at; the line comes
# straight, without a CR.
lx -s "$dir" byk "$(enc /usr/bin/id)" "$(enc -un)"
lx_fail 75 "stdin and stdout a socket" "stdin is not a terminal"
printf 'opencode-pty-launcher: stdin is not a terminal\n' > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out.raw" &&
    pass "the refusal is the only output, and the command never ran" ||
    fail "report: $(od -c "$tmp/out.raw" | head -3)"
lx -o "$dir" byk "$(enc /usr/bin/id)" "$(enc -un)"
lx_fail 75 "stdin the pty, stdout a socket" "stdout is not a terminal"
lx "$dir" byk "$(enc /usr/bin/id)" "$(enc -un)"
check "control: the same direct run on the terminal ($rc)" test "$rc" = 0
expect_out byk "control: the same command runs on the terminal"

# Another user than byk.
other=opty-lnch-other
if ! id -u "$other" >/dev/null 2>&1 &&
    ! useradd -M -U -d /nonexistent -s /usr/sbin/nologin "$other"; then
	fail "cannot create the test user $other"
fi
lx "$dir" "$other" "$(enc /bin/true)"
lx_fail 69 "run as $other instead of byk" "not running as byk"
userdel "$other" >/dev/null 2>&1

# An empty command name ('a' encodes the empty string).
lx "$dir" byk a
lx_fail 70 "an empty command name" "empty command name"

# --- failures through the supervisor's unit ----------------------------------------

launch "$dir" opty-no-such-command
expect_fail 70 "a command not in PATH" \
    "command not found in /usr/local/bin:/usr/bin:/bin"
# The line went through the terminal, which added the CR.
printf 'opencode-pty-launcher: command not found in /usr/local/bin:/usr/bin:/bin\r\n' \
    > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out.raw" &&
    pass "a failure is reported on the terminal, and only that line" ||
    fail "report: $(od -c "$tmp/out.raw" | head -3)"

launch "$dir" /etc/passwd
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
# paths walked the host's mount tree past the unit's mounts.  The session
# unit's /run is its own read-only tmpfs (dbusd/props.c); a marker in the
# host's /run must stay hidden by relative path, /proc/self/cwd/... and
# absolute path alike.
hid=/run/opty-lnch-$$
mkdir -p "$hid/d" && chmod 0755 "$hid" && chown byk: "$hid/d" &&
    : > "$hid/marker" || fail "cannot create $hid"
up=$(printf '%s' "$dir" | sed 's#/[^/]*#../#g')
PROBE='for p; do if [ -e "$p" ]; then echo "seen $p"; else echo "hidden $p"; fi; done'
p1="$up${hid#/}/marker" p2="/proc/self/cwd/$up${hid#/}/marker"
p3="$hid/marker"
printf '%s\n' "$p1" "$p2" "$p3" > "$tmp/paths"
launch "$dir" /bin/sh -c "$PROBE" sh "$p1" "$p2" "$p3"
expect_result 1 0 success "probe the host's /run from a session"
sed 's/^/hidden /' "$tmp/paths" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" &&
    pass "relative, /proc/self/cwd and absolute paths see the unit's /run" ||
    fail "the host's /run is reachable: $(tr '\n' ' ' < "$tmp/out")"
# Control: byk outside the unit, in the same directory, sees the marker.
(cd "$dir" && setpriv --reuid=byk --regid=byk --clear-groups \
    /bin/sh -c "$PROBE" sh "$p1" "$p2" "$p3") > "$tmp/out"
sed 's/^/seen /' "$tmp/paths" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" &&
    pass "control: the same probe as byk outside the unit sees the marker" ||
    fail "control probe: $(tr '\n' ' ' < "$tmp/out")"

# A directory the unit itself hides: refused, not used from outside.
launch "$hid/d" /bin/pwd
expect_reanchor "a directory under the unit's hidden /run" \
    "'$hid/d' is not reachable by its path inside the unit: No such file or directory"
# Control: the client reached it (it sent its descriptor), and byk
# outside the unit reaches it by its path.
check "control: byk outside the unit reaches $hid/d" \
    setpriv --reuid=byk --regid=byk --clear-groups test -x "$hid/d"

# Opened in another mount namespace: the client service has its own
# ($ns shows $tmp/nsrc there only, BindPaths=), the way a client in its
# own namespace would pass a directory.  Then with a decoy at the same
# path in the unit's namespace.
ns="$tmp/ns"
mkdir -p "$ns" "$tmp/nsrc/d"
chown byk: "$tmp/nsrc/d"
CLIENT_PROPS="-p BindPaths=$tmp/nsrc:$ns"
launch "$ns/d" /bin/pwd
CLIENT_PROPS=
expect_reanchor "a directory from another mount namespace" \
    "'$ns/d' is not reachable by its path inside the unit: No such file or directory"
mkdir "$ns/d" && chown byk: "$ns/d"
CLIENT_PROPS="-p BindPaths=$tmp/nsrc:$ns"
launch "$ns/d" /bin/pwd
CLIENT_PROPS=
expect_reanchor "another mount namespace, a decoy at the path" \
    "'$ns/d' is another directory by its path inside the unit"
launch "$ns/d" /bin/pwd
expect_result 1 0 success "control: the decoy itself is a fine directory"
rmdir "$ns/d"

# Moved after the client opened it, before its start frame, into a
# directory byk cannot search: the path is unreachable for the session
# user.  The client holds the descriptor from -d on and sends the start
# frame once $tmp/go exists (-w).
priv="$tmp/priv"
mkdir -m 0700 "$priv"
mkdir "$tmp/moved" && chown byk: "$tmp/moved"
rm -f "$tmp/go"
bg_client -w "$tmp/go" -d "$tmp/moved" -- /bin/pwd
check "the client holds the directory open" fd_open "$cpid" "$tmp/moved"
mv "$tmp/moved" "$priv/moved"
: > "$tmp/go"
bg_wait
expect_reanchor "a directory moved where byk cannot search" \
    "'$priv/moved' is not reachable by its path inside the unit: Permission denied"
chmod 0755 "$priv"
mv "$priv/moved" "$tmp/moved"
rm -f "$tmp/go"
bg_client -w "$tmp/go" -d "$tmp/moved" -- /bin/pwd
check "the client holds the directory open" fd_open "$cpid" "$tmp/moved"
mv "$tmp/moved" "$priv/moved"
: > "$tmp/go"
bg_wait
expect_result 1 0 success "control: moved, but reachable"
expect_out "$priv/moved" "control: a rename before start is followed"

# Deleted after the client opened it.
mkdir "$tmp/gone" && chown byk: "$tmp/gone"
rm -f "$tmp/go"
bg_client -w "$tmp/go" -d "$tmp/gone" -- /bin/pwd
check "the client holds the directory open" fd_open "$cpid" "$tmp/gone"
rmdir "$tmp/gone"
: > "$tmp/go"
bg_wait
expect_reanchor "a deleted directory" "'$tmp/gone (deleted)' was deleted"

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
launch "$dir" /bin/sh -c "$PTRACEPROBE" sh "$outside"
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
launch "$dir" /bin/sh -c \
    'strace -f -qq -e trace=execve -o "$1" /bin/sh -c "/bin/echo traced-child" &&
    grep -c "execve(\"/bin/echo\"" "$1"' sh strace.out
expect_result 1 0 success "strace -f in a session"
expect_out "traced-child
1" "strace -f traces the command's own grandchild"
# strace is the parent of what it attaches to: allowed under any Yama
# ptrace_scope below 2 as well.
launch "$dir" /bin/sh -c 'sleep 1 & exec strace -qq -e trace=none -p "$!"'
expect_result 1 0 success "strace -p in a session attaches to its child"
if [ -s "$tmp/out" ]; then
	fail "strace -p complained: $(cat "$tmp/out")"
else
	pass "strace -p: no complaint"
fi
rm -f "$dir/strace.out"
rm -rf "$hid"

check "no session unit is left" wait_no_units 10
sup_stop
finish
