# itlib.sh: shell functions shared by the integration scripts in
# regress/it/ (test only).  Sourced inside the disposable systemd, as
# root, with cwd = the repository and TOOLS = the test tool directory.
# With ITLIB_BASE=1 only the verdict helpers and $tmp are set up: for the
# scripts that run no session (no client install, no readiness marker,
# nothing stopped).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() {	# check WHAT CMD...: PASS/FAIL on CMD's status, which it returns
	what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; return 1; fi
}
finish() { [ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"; [ "$fails" = 0 ]; }

SUP=opencode-pty-supervisor.service
CLIENT_UNIT=opencode-v2.service
. "$REPO/regress/itinst.sh"
# 12-paths.sh runs its sessions from the install of other settings.
LIBEXEC=${IT_LIBEXEC:-$INST_LIBEXEC}
: "${TOOLS:?TOOLS is not set}"
TOOLS=$(cd "$TOOLS" && pwd -P) || exit 1
# Not under /tmp or /var/tmp: a session has its own (PrivateTmp=), and
# the scripts hand sessions directories and files made here.
tmp=$(mktemp -d -p /var/lib opty-it.XXXXXX) || exit 1
chmod 0755 "$tmp"
trap 'itlib_cleanup' EXIT
itlib_marker=0

itlib_cleanup() {
	if [ "${ITLIB_BASE:-0}" != 1 ]; then
		systemctl stop "$CLIENT_UNIT" 2>/dev/null
		systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	fi
	# The marker is this script's: the next one starts without it.
	[ "$itlib_marker" = 1 ] && rm -f /etc/opencode/pty-supervisor-verified
	itlib_actors
	rm -rf "$tmp"
	# The container's / is in memory: what a script installs goes.
	[ "${ITLIB_BASE:-0}" != 1 ] && rm -f "$NODE_BIN"
}

# actor_note ACTOR: a client run outside `client` (a script's own
# systemd-run of "$NODE_BIN" "$NODE_SIM" or "$NODESIM"), for the count.
actor_note() { echo "$1" >> "$tmp/actors"; }

# itlib_actors: one line on how many client runs each actor made.
itlib_actors() {
	[ -s "$tmp/actors" ] || return 0
	echo "actor runs: $(sort "$tmp/actors" | uniq -c |
	    awk '{ n = $1; $1 = ""; printf "%s%s x%d", s, substr($0, 2), n; s = "; " }')"
}
[ "${ITLIB_BASE:-0}" = 1 ] && return 0

# Whatever an earlier script left (a timed-out one, say) is not ours.
systemctl stop "$CLIENT_UNIT" "$SUP" 2>/dev/null
systemctl reset-failed "$CLIENT_UNIT" "$SUP" 2>/dev/null

for t in opty-nodesim; do
	[ -x "$TOOLS/$t" ] || { echo "FAIL: $TOOLS/$t missing (make tools)"; exit 1; }
done
id -u byk >/dev/null 2>&1 || { echo "FAIL: user byk missing"; exit 1; }

# The client as the deployment installs the Node service's binary:
# root-owned and executable but not readable by byk (0711), so that it
# runs non-dumpable, which the supervisor requires of the client's
# MainPID (ERR_AUTH_DUMPABLE otherwise).  $TOOLS/opty-nodesim itself is
# readable: run from there it is dumpable (66-dumpable.sh).
NODESIM_DIR=/usr/local/lib/opencode-pty-test
NODESIM=$NODESIM_DIR/opty-nodesim
install -d -o root -g root -m 0755 "$NODESIM_DIR" &&
install -o root -g root -m 0711 "$TOOLS/opty-nodesim" "$NODESIM" ||
    { echo "FAIL: cannot install $NODESIM"; exit 1; }

# The Node-side actor: regress/node/nodesim.js, which plays the Node
# service through the client module client/node/, under the exact Node
# release (regress/node/stage.sh put it in $BUILD/node), installed the
# same way.  `client` runs it for every session a valid client can
# ask for and opty-nodesim only for the options of client_forges.  The
# integration scripts (regress/it/) require it; a demo or bench that
# sources this file without staging Node runs opty-nodesim throughout,
# and says so ($IT_ACTOR, below).
NODE_BIN=$NODESIM_DIR/node
NODE_SIM=$REPO/regress/node/nodesim.js
# The Node programs play through the module as installed (index.js names
# the install's helper), required by its path as a service requires it
# by name: node_entry SCRIPT writes and prints an entry point that hands
# SCRIPT that module (OPTY_NODE_MODULE, unless the unit's environment
# names another: regress/pkg/life-in.sh's control; SCRIPT's own default
# is the repository's client/node/, which names the default install's
# helper).
NODE_MODULE=$INST_NODEDIR/opencode-pty
node_entry() {
	local e=$NODESIM_DIR/${1##*/}
	printf '%s\n' "process.env.OPTY_NODE_MODULE ??= '$NODE_MODULE';" \
	    "require('$1');" > "$e" && chmod 0644 "$e" && echo "$e"
}
case $0 in
*regress/it/*) : "${IT_ACTOR:=node}" ;;
*) : "${IT_ACTOR:=opty-nodesim}" ;;
esac
case $IT_ACTOR in
node)
	[ -f "$BUILD/node/node" ] ||
	    { echo "FAIL: $BUILD/node/node missing (make node-stage)"; exit 1; }
	install -o root -g root -m 0711 "$BUILD/node/node" "$NODE_BIN" ||
	    { echo "FAIL: cannot install $NODE_BIN"; exit 1; }
	[ -f "$NODE_MODULE/index.js" ] || { echo "FAIL:" \
	    "$NODE_MODULE is not installed"; exit 1; }
	NODE_SIM=$(node_entry "$NODE_SIM") || exit 1
	runuser -u byk -- test -r "$NODE_SIM" ||
	    { echo "FAIL: byk cannot read $NODE_SIM"; exit 1; }
	;;
opty-nodesim) echo "itlib: IT_ACTOR=opty-nodesim: every session by the C actor" ;;
*) echo "FAIL: IT_ACTOR=$IT_ACTOR: node or opty-nodesim"; exit 1 ;;
esac

# vim_find: VIM, the editor the sessions run: vim, or else vim.tiny
# (the trees have the latter); a FAIL line if there is neither.
vim_find() {
	VIM=$(command -v vim || command -v vim.tiny) && return 0
	echo "FAIL: no vim or vim.tiny (make deps; regress/roots.sh EXTRA)"
	return 1
}

# The readiness marker the opencode-v2.service drop-in demands
# (ExecCondition=): written the way an operator would, for these binaries.
marker_make() {
	mkdir -p /etc/opencode && chmod 0755 /etc/opencode
	{
		"$LIBEXEC/opencode-pty-verify-readiness" --print-revision &&
		sha256sum "$LIBEXEC/opencode-pty-supervisor" \
		    "$LIBEXEC/opencode-pty-launcher" "$LIBEXEC/opencode-pty-client"
	} > /etc/opencode/pty-supervisor-verified || return 1
	chown root:root /etc/opencode/pty-supervisor-verified
	chmod 0644 /etc/opencode/pty-supervisor-verified
}
itlib_marker=1
marker_make || { echo "FAIL: cannot write the readiness marker"; exit 1; }

# A working directory for sessions, owned by byk.
WORK=/home/byk/work
mkdir -p "$WORK" && chown byk:byk "$WORK"

sup_start() {
	systemctl reset-failed "$SUP" 2>/dev/null
	if ! systemctl start "$SUP"; then
		journalctl -u "$SUP" -n 30 --no-pager
		return 1
	fi
}

# The journal's position now: `journalctl --after-cursor "$c"` then shows
# exactly what came later (a --since time has second granularity, so the
# last lines of the script before can fall in the same second).
jcursor() {
	journalctl -n 0 --show-cursor --no-pager 2>/dev/null |
	    sed -n 's/^-- cursor: //p'
}

# bg_client ARGS...: client ARGS... in the background ($bg); $cpid is the
# client service's MainPID once it has one.  bg_wait waits for it and
# shows the start of what the command printed.
bg_client() {
	client "$@" &
	bg=$!
	i=0
	cpid=0
	while [ $i -lt 100 ]; do
		cpid=$(systemctl show -P MainPID "$CLIENT_UNIT" 2>/dev/null)
		[ "${cpid:-0}" != 0 ] && break
		sleep 0.05
		i=$((i + 1))
	done
}
bg_wait() {
	wait "$bg"
	head -c 2000 "$tmp/out" | sed 's/^/  stdout: /'
}

# wait_for WHAT CMD...: up to 20 s for CMD to succeed.
wait_for() {
	what=$1; shift
	n=0
	until "$@"; do
		[ $n -ge 200 ] && { fail "timed out waiting: $what"; return 1; }
		sleep 0.1; n=$((n + 1))
	done
}

sup_stop() { systemctl stop "$SUP"; systemctl reset-failed "$SUP" 2>/dev/null; }

# pts_instance PID: the host's mount point of the devpts instance that
# is PID's /dev/pts, found by its device: a slot's instance serves its
# sessions one after the other, named from the first (parent/pts.c).
pts_instance() {
	local dev d
	dev=$(stat -c %d "/proc/$1/root/dev/pts" 2>/dev/null) || return 1
	for d in /run/opencode-pty/pts/*; do
		[ "$(stat -f -c %T "$d" 2>/dev/null)" = devpts ] &&
		    [ "$(stat -c %d "$d")" = "$dev" ] && { echo "$d"; return 0; }
	done
	return 1
}

# The strictly named session units that exist right now.
pty_units() {
	systemctl list-units --all --plain --no-legend 'opencode-pty-*' |
	    awk '{ print $1 }' | grep -E '^opencode-pty-[0-9a-f]{32}\.service$'
}

# wait_no_units [SECONDS]: true once no session unit is left.
# wait_units WHAT: a session unit appears within 20 s (a bound against a
# hang, not a timing claim); PASS/FAIL, and on FAIL the client's unit
# and the supervisor's last lines, so the reason is in the log.
wait_units() {
	n=0
	while [ -z "$(pty_units)" ] && [ $n -lt 200 ]; do
		sleep 0.1; n=$((n + 1))
	done
	check "$1" test -n "$(pty_units)" && return 0
	systemctl status --no-pager -n 20 "$CLIENT_UNIT" 2>&1 |
	    sed 's/^/  client: /'
	journalctl -u "$SUP" -n 20 -o cat --no-pager | sed 's/^/  sup: /'
	return 1
}

wait_no_units() {
	n=$(( ${1:-20} * 10 ))
	while [ $n -gt 0 ]; do
		[ -z "$(pty_units)" ] && return 0
		sleep 0.1; n=$((n - 1))
	done
	pty_units | sed 's/^/  left: /'
	return 1
}

# client ARGS...: one client of opencode-v2.service (user byk), the way
# the Node service runs, with opty-nodesim's options (its usage comment)
# and its result lines on stderr.  The actor is the exact Node running
# regress/node/nodesim.js from $NODE_BIN, unless an option of
# client_forges asks for what only opty-nodesim can do; then (or with
# IT_ACTOR=opty-nodesim) it is opty-nodesim from its non-dumpable
# install ($NODESIM).  The first line of $tmp/err names the actor and
# why; $tmp/actors counts them by option (one line at the script's end).
# $CLIENT_PROPS, if set, adds systemd-run options for that unit
# (-p Name=value, no blank in them).  Output in $tmp/out (CR removed),
# the last result line in $tmp/last.
# systemd-run's ExecStart= expands '$' in every argument; '$$' is one
# '$'.  sd_escape VALUE sets $r to VALUE with each '$' doubled (pure sh,
# so a trailing newline survives).
sd_escape() {
	r= s=$1
	while :; do
		case $s in
		*'$'*) r="$r${s%%\$*}\$\$"; s=${s#*\$} ;;
		*) r="$r$s"; return ;;
		esac
	done
}

# is_size ROWSxCOLS: both 1..4096, as the module and the relay take them.
is_size() {
	case $1 in
	*[!0-9x]* | *x*x* | x* | *x | [!0-9]*) return 1 ;;
	*x*) ;;
	*) return 1 ;;
	esac
	set -- "${1%x*}" "${1#*x}"
	[ ${#1} -le 4 ] && [ ${#2} -le 4 ] &&
	    [ "$1" -ge 1 ] && [ "$1" -le 4096 ] && [ "$2" -ge 1 ] && [ "$2" -le 4096 ]
}

# client_forges ARGS...: true, with the reason in $forges, when an
# option before '--' is one a valid client never uses, which only
# opty-nodesim implements (docs/TESTING.md lists them):
#   -F  a forged start frame        -X  a frame of any type and payload
#   -R/-S ^...  a frame before the start frame (the helper sends that)
#   -R/-S hex:...  a raw payload    -R outside 1..4096, -S outside the
#   fixed signal set: frames the module refuses to build
#   -w  the start frame held until a file exists (after the connect)
#   -r  the MainPID replaced after admission
#   -s  a reader of N bytes a second   -D  a delay after the start
#   -c  another helper binary       -t  outside 1..3600, -W invalid
#   a command argument that is not UTF-8 (the module takes strings)
#   anything else nodesim.js does not know (clustered flags, say).
client_forges() {
	while [ $# -gt 0 ]; do
		case $1 in
		--)	shift
			printf '%s\0' "$@" | iconv -f UTF-8 -t UTF-8 \
			    > /dev/null 2>&1 && return 1
			forges="non-UTF-8 argument"; return 0 ;;
		-q | -O) ;;
		-d | -i | -n | -P) shift ;;
		-t)	case $2 in
			[1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-3][0-9][0-9][0-9])
				[ "$2" -le 3600 ] || { forges="-t $2"; return 0; } ;;
			*) forges="-t $2"; return 0 ;;
			esac
			shift ;;
		-W | -R) is_size "$2" || { forges="$1 $2"; return 0; }; shift ;;
		-S)	case $2 in	# the fixed set (proto/wire.c)
			1 | 2 | 3 | 9 | 10 | 12 | 15 | 18 | 19 | 20 | 28) ;;
			*) forges="-S $2"; return 0 ;;
			esac
			shift ;;
		*) forges=$1; return 0 ;;
		esac
		shift
	done
	return 1
}

client() {
	if [ "$IT_ACTOR" = node ] && ! client_forges "$@"; then
		actor=node sum=node
		set -- "$NODE_BIN" "$NODE_SIM" -d "$WORK" "$@"
	else
		if [ "$IT_ACTOR" = node ]; then
			actor="opty-nodesim ($forges)" sum="opty-nodesim (${forges%% *})"
		else
			actor="opty-nodesim (IT_ACTOR)" sum=$actor
		fi
		set -- "$NODESIM" -d "$WORK" "$@"
	fi
	n=$#
	for a; do sd_escape "$a"; set -- "$@" "$r"; done
	shift "$n"
	echo "$sum" >> "$tmp/actors"
	echo "itlib: actor $actor" > "$tmp/err"
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	# shellcheck disable=SC2086	# CLIENT_PROPS: no blank in them
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk ${CLIENT_PROPS:-} -- \
	    "$@" > "$tmp/out.raw" 2>> "$tmp/err" < /dev/null
	rc=$?
	tr -d '\r' < "$tmp/out.raw" > "$tmp/out"
	grep '^opty-nodesim:' "$tmp/err" | tail -n 1 > "$tmp/last"
}

# expect_exit CODE STATUS RESULT WHAT: the last session ended that way.
expect_exit() {
	if grep -q "^opty-nodesim: exit code=$1 status=$2 result=$3 " "$tmp/last"; then
		pass "$4"
	else
		fail "$4 (rc $rc: $(cat "$tmp/last"); stderr: $(head -c 400 "$tmp/err"))"
	fi
}

# expect_error CODE WHAT: the last session was refused with CODE.
expect_error() {
	if grep -q "^opty-nodesim: error code=$1 " "$tmp/last"; then
		pass "$2"
	else
		fail "$2 (rc $rc: $(cat "$tmp/last"); stderr: $(head -c 400 "$tmp/err"))"
	fi
}
