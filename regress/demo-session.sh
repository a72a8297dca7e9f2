#!/bin/sh
# demo-session.sh: the body of `make demo`, run inside the disposable
# systemd as root.  Starts the supervisor service, writes the readiness
# marker, and runs two real sessions through a demo opencode-v2.service
# that spawns opencode-pty-client exactly as the Node service does.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "the readiness marker (/etc/opencode/pty-supervisor-verified)"
cat /etc/opencode/pty-supervisor-verified
say "starting opencode-pty-supervisor.service"
sup_start || exit 1
systemctl status --no-pager -n 0 "$SUP" | sed -n '1,12p'
printf 'hello from the workspace\n' > "$WORK/README"
chown byk:byk "$WORK/README"

say "session 1: ls -la in $WORK (the directory is passed as a descriptor)"
client -- /bin/ls -la
cat "$tmp/out"
echo "-- $(sed 's/^opty-nodesim: //' "$tmp/last")"

say "session 2: an interactive exchange in the PTY"
client -i 'hello supervisor
' -- /bin/sh -c 'printf "tty: %s\nwho are you? " "$(tty)"; read line; echo "you said: $line"; exit 3'
cat "$tmp/out"
echo "-- $(sed 's/^opty-nodesim: //' "$tmp/last")"

say "session 3: a full-screen-aware program sees its size, then a resize"
# The window size comes from the client (opencode-pty-client -s 30x100),
# then a RESIZE frame while it runs: the kernel sends SIGWINCH.
client -W 30x100 -O -R 40x120 -- /bin/sh -c 'printf "tput: %s lines, %s columns\n" "$(tput lines)" "$(tput cols)"; trap "printf \"SIGWINCH: now %s lines, %s columns\n\" \"\$(tput lines)\" \"\$(tput cols)\"; exit 0" WINCH; while :; do sleep 0.05; done'
cat "$tmp/out"
echo "-- $(sed 's/^opty-nodesim: //' "$tmp/last")"

say "session 4: a SIGNAL frame (INT) ends a running command"
client -O -S 2 -- /bin/sh -c 'echo "sleeping as the unit main process"; exec sleep 60'
cat "$tmp/out"
echo "-- $(sed 's/^opty-nodesim: //' "$tmp/last")"

say "the journal record of the last session"
journalctl -u "$SUP" -n 200 -o verbose --no-pager |
    grep -E '^ +(MESSAGE=session|OPTY_)' | tail -n 12

say "after the sessions: no session unit is left"
systemctl list-units --all --no-legend 'opencode-pty-*' | sed 's/^/  /'
sup_stop
echo
grep -q '^opty-nodesim: exit ' "$tmp/last"
