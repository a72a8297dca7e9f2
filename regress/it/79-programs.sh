#!/bin/sh
# 79-programs.sh: ordinary programs still work inside a session (test
# only), with the session unit's sandbox and the launcher's system call
# filter in place: nice and ulimit (setpriority and prlimit64 on the
# caller itself), python3's sched_getaffinity/sched_setaffinity on
# itself, git init and commit in the workspace, the C compiler, a TCP
# server the command starts on 127.0.0.1 and a client to it, the
# session's own terminal (tty, /dev/tty), nested terminals (script,
# tmux, ssh -tt to an sshd the test starts on 127.0.0.1), an editor
# (vim -es) and a shell's job control.  Each program runs through the
# real path (`client`: opencode-v2.service's MainPID -> client helper ->
# supervisor -> session unit).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

SSHU=opty-programs-sshd.service
SSHPORT=22022
SSHDIR=$WORK/prog-ssh
sshrun=
trap 'systemctl stop "$SSHU" 2>/dev/null; systemctl reset-failed "$SSHU" \
    2>/dev/null; rm -rf "$WORK/prog-git" "$WORK/prog-cc" \
    "$WORK/prog-vim.txt" "$SSHDIR" $sshrun; itlib_cleanup' EXIT

for c in python3 git script tmux ssh ssh-keygen /usr/sbin/sshd; do
	command -v "$c" >/dev/null || {
		echo "FAIL: $c missing (make deps; regress/roots.sh EXTRA)"
		exit 1
	}
done
vim_find || exit 1
# The trees of regress/roots.sh that are no build root (bookworm-bpo,
# the one with backports) have no compiler by design; everywhere else a
# missing cc is a failure.
CC=$(command -v cc)
if [ -z "$CC" ] && [ -e /etc/apt/sources.list.d/backports.list ]; then
	echo "NOTE: cc: this tree (bookworm-bpo) has no compiler by design" \
	    "(regress/roots.sh: nobuild); the compiler row does not run here"
elif [ -z "$CC" ]; then
	echo "FAIL: cc missing (make deps)"; exit 1
fi

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
out() { cat "$tmp/out"; }

# prog NAME EXPECT SCRIPT [ARG...]: SCRIPT in a session through sh -c;
# the session must end with status 0 and its output (CR removed) must
# have a line matching the extended regular expression EXPECT.
prog() {
	name=$1 want=$2; shift 2
	client -t 60 -- /bin/sh -c "$@"
	got=$(out | tr '\n' '|' | cut -c1-300)
	if grep -q "^opty-nodesim: exit code=1 status=0 result=success " \
	    "$tmp/last" && out | grep -Eq "$want"; then
		pass "program $name ($got)"
	else
		fail "program $name: want /$want/, got '$got'" \
		    "($(cat "$tmp/last"))"
		head -c 400 "$tmp/err" | sed 's/^/  stderr: /'
	fi
}

prog "nice -n 5" '^5$' 'nice -n 5 sh -c nice'
prog "ulimit -n 256" '^256$' 'ulimit -n 256 && ulimit -n'
prog "python3 sched_{get,set}affinity(0)" '^affinity [1-9][0-9]* ok$' \
    'exec python3 -c "import os
s = os.sched_getaffinity(0)
os.sched_setaffinity(0, s)
same = os.sched_getaffinity(0) == s
print(\"affinity\", len(s), \"ok\" if same else \"changed\")"'
prog "git init and commit in the workspace" '^commits 1$' '
	mkdir prog-git && cd prog-git && git init -q &&
	echo hello > f && git add f &&
	git -c user.name=opty -c user.email=opty@localhost commit -q -m one &&
	echo "commits $(git rev-list --count HEAD)"'
if [ -n "$CC" ]; then
	prog "cc compiles and runs hello" '^hello from cc$' '
		mkdir prog-cc && cd prog-cc &&
		printf "#include <stdio.h>\nint main(void) %s\n" \
		    "{ puts(\"hello from cc\"); return 0; }" > h.c &&
		cc -o h h.c && ./h'
fi
prog "a TCP server on 127.0.0.1 and its client" '^tcp ok [0-9]+$' \
    'exec python3 -c "import socket, threading
srv = socket.socket()
srv.bind((\"127.0.0.1\", 0))
srv.listen(1)
def serve():
    c, _ = srv.accept()
    c.sendall(c.recv(16).upper())
    c.close()
t = threading.Thread(target=serve)
t.start()
cl = socket.create_connection(srv.getsockname(), timeout=10)
cl.sendall(b\"ping\")
r = cl.recv(16)
t.join()
print(\"tcp\", \"ok\" if r == b\"PING\" else r, srv.getsockname()[1])"'
prog "tty, and /dev/tty opens with the window size" \
    '^tty /dev/pts/[0-9]+ size 24 80$' \
    'echo "tty $(tty) size $(stty size < /dev/tty)"'
prog "script -qc tty: a nested terminal" '^nested /dev/pts/[0-9]+ ok$' '
	own=$(tty)
	in=$(script -qc tty /dev/null | tr -d "\r")
	case $in in
	"$own") echo "nested $in is the session tty" ;;
	/dev/pts/*) echo "nested $in ok" ;;
	*) echo "nested: $in" ;;
	esac'
prog "tmux new-session -d, send-keys, capture-pane" '^tmux saw 42$' '
	tmux -L opty new-session -d -x 80 -y 24 sh || exit 1
	tmux -L opty send-keys "echo tmux-says-\$((6 * 7))" Enter
	# Keys sent before the shell has printed its prompt are echoed
	# first, and the prompt then stands before the output: "$ tmux-...".
	# The typed line holds no "tmux-says-42", only the output does.
	n=0
	while [ $n -lt 100 ]; do
		tmux -L opty capture-pane -p | grep -q "tmux-says-42$" &&
		    { echo "tmux saw 42"; break; }
		sleep 0.1; n=$((n + 1))
	done
	[ $n -lt 100 ] || echo "tmux pane after 10 s:" \
	    "$(tmux -L opty list-panes -F "dead=#{pane_dead}" 2>&1)" \
	    "$(tmux -L opty capture-pane -p 2>&1 | grep . | head -n 5)"
	tmux -L opty kill-server'
prog "$VIM -es edits a file" '^edited: bye$' '
	echo hello > prog-vim.txt &&
	"$0" -es -u NONE -c "%s/hello/bye/" -c wq prog-vim.txt < /dev/null &&
	echo "edited: $(cat prog-vim.txt)"' "$VIM"
# ssh -tt: the session's terminal in raw mode and a terminal sshd (root,
# outside the session) allocates for byk.  The server is this test's
# own: an sshd of the tree on 127.0.0.1:$SSHPORT in a transient unit,
# with a host key, a config and byk's authorized key made here (the
# system's ssh.service is neither started nor enabled).  UsePAM: byk's
# password is locked ("!"), which sshd refuses without PAM.
ssh_setup() {
	install -d -o byk -g byk -m 0700 "$SSHDIR" &&
	    ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" &&
	    runuser -u byk -- ssh-keygen -q -t ed25519 -N '' \
	    -f "$SSHDIR/id" && cp "$SSHDIR/id.pub" "$tmp/authorized_keys" &&
	    chmod 0644 "$tmp/authorized_keys" || return 1
	printf '%s\n' "Port $SSHPORT" "ListenAddress 127.0.0.1" \
	    "HostKey $tmp/hostkey" "AuthorizedKeysFile $tmp/authorized_keys" \
	    "UsePAM yes" "PubkeyAuthentication yes" \
	    "PasswordAuthentication no" "KbdInteractiveAuthentication no" \
	    "AllowUsers byk" "PidFile none" > "$tmp/sshd_config"
	# Its privilege separation directory (the package's ssh.service
	# makes it as its RuntimeDirectory=): made here, removed at exit.
	if [ ! -d /run/sshd ]; then
		install -d -o root -g root -m 0755 /run/sshd || return 1
		sshrun=/run/sshd
	fi
	/usr/sbin/sshd -t -f "$tmp/sshd_config" || return 1
	systemctl reset-failed "$SSHU" 2>/dev/null
	systemd-run --quiet --unit="$SSHU" -- \
	    /usr/sbin/sshd -D -e -f "$tmp/sshd_config" || return 1
	wait_for "sshd on 127.0.0.1:$SSHPORT" sh -c \
	    "ss -Hltn 'sport = :$SSHPORT' | grep -q ."
}
SSHCMD='exec ssh -tt -i "$0" -p "$1" -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o LogLevel=ERROR byk@127.0.0.1 "echo remote \$(tty)"'
if ssh_setup; then
	# The control: the same ssh as byk outside any session.
	runuser -u byk -- sh -c "$SSHCMD" "$SSHDIR/id" "$SSHPORT" \
	    < /dev/null > "$tmp/ssh.ctl" 2>&1
	if tr -d '\r' < "$tmp/ssh.ctl" | grep -Eq '^remote /dev/pts/[0-9]+$'
	then
		pass "ssh -tt as byk outside a session: $(tr -d '\r' \
		    < "$tmp/ssh.ctl" | head -n 1) (control)"
		prog "ssh -tt byk@127.0.0.1: a terminal from sshd" \
		    '^remote /dev/pts/[0-9]+$' "$SSHCMD" "$SSHDIR/id" "$SSHPORT"
	else
		fail "ssh -tt as byk outside a session fails (the server" \
		    "side, not the session): $(tr -d '\r' < "$tmp/ssh.ctl" |
		    head -c 300)"
		journalctl -u "$SSHU" -n 10 -o cat --no-pager | sed 's/^/  /'
	fi
else
	fail "ssh -tt: the test's sshd did not start on 127.0.0.1:$SSHPORT"
	journalctl -u "$SSHU" -n 10 -o cat --no-pager | sed 's/^/  /'
fi
systemctl stop "$SSHU" 2>/dev/null

# Job control: the interactive shell puts the background job in a
# process group of its own (monitor mode, which needs the terminal).
prog "job control: sh -i, a background job in its own group, kill %1" \
    '^job 143 own-group yes$' '
	sh -ic "sleep 5 & p=\$!
	g=\$(ps -o pgid= -p \$p | tr -d \" \")
	kill %1; wait %1; s=\$?
	[ \"\$g\" = \"\$p\" ] && o=yes || o=\"no (\$g)\"
	echo job \$s own-group \$o" 2>/dev/null'

check "no session unit left" wait_no_units 20
sup_stop
finish
