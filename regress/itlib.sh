# itlib.sh: shell functions shared by the integration scripts in
# regress/it/ (test only).  Sourced inside the disposable systemd, as
# root, with cwd = the repository and TOOLS = the test tool directory.
# With ITLIB_BASE=1 only the verdict helpers and $tmp are set up: for the
# scripts that run no session (no client install, no readiness marker,
# nothing stopped).

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
LIBEXEC=/usr/local/libexec
: "${TOOLS:?TOOLS is not set}"
TOOLS=$(cd "$TOOLS" && pwd -P) || exit 1
tmp=$(mktemp -d) || exit 1
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
	rm -rf "$tmp"
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

sup_stop() { systemctl stop "$SUP"; systemctl reset-failed "$SUP" 2>/dev/null; }

# The strictly named session units that exist right now.
pty_units() {
	systemctl list-units --all --plain --no-legend 'opencode-pty-*' |
	    awk '{ print $1 }' | grep -E '^opencode-pty-[0-9a-f]{32}\.service$'
}

# wait_no_units [SECONDS]: true once no session unit is left.
wait_no_units() {
	n=$(( ${1:-20} * 10 ))
	while [ $n -gt 0 ]; do
		[ -z "$(pty_units)" ] && return 0
		sleep 0.1; n=$((n - 1))
	done
	pty_units | sed 's/^/  left: /'
	return 1
}

# client ARGS...: runs opty-nodesim ARGS as the MainPID of
# opencode-v2.service (user byk), the way the Node service runs: from
# its non-dumpable install ($NODESIM).  $CLIENT_PROPS, if set, adds
# systemd-run options for that unit (-p Name=value, no blank in them).
# Output in $tmp/out (CR removed), the last stderr line in $tmp/last.
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

client() {
	n=$#
	for a; do sd_escape "$a"; set -- "$@" "$r"; done
	shift "$n"
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	# shellcheck disable=SC2086	# CLIENT_PROPS: no blank in them
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk ${CLIENT_PROPS:-} -- \
	    "$NODESIM" -d "$WORK" "$@" \
	    > "$tmp/out.raw" 2> "$tmp/err" < /dev/null
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
