# harness.sh: boots a throw-away real systemd (the host's own / as a
# copy-on-write overlay, in systemd-nspawn), runs commands inside it and
# tears it down leaving nothing behind.  Test-only, never installed; runs
# as root on the test host.  See docs/TESTING.md.
#
# Sourced by regress/integration.sh and regress/demo.sh (POSIX sh plus
# `local`, which dash has):
#	harness_trap		tear down on EXIT, INT, TERM, HUP
#	harness_start		boot; returns once the manager is running
#	harness_exec [VAR=val...] CMD...
#				run CMD as root in all of the container's
#				namespaces, cwd = the repository, clean env
#	harness_install		byk, sysusers, make install, unit files;
#				with HARNESS_DEB=DIR, apt-get install DIR/*.deb
#	harness_stop		poweroff, kill leftovers, verify none remain
# Executed directly:
#	sh regress/harness.sh stop STATE_DIR	tear down a kept container
#	sh regress/harness.sh _inner ...	(internal: becomes nspawn)
#
# Knobs: HARNESS_TIMEOUT (boot/poweroff seconds, default 60),
# HARNESS_MASK (units masked inside), BUILD (build dir, default build),
# HARNESS_ROOT (the OS tree to boot, default the host's /: a tree of
# regress/roots.sh runs the same tests on another systemd).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# shellcheck shell=dash disable=SC2016,SC2013,SC2044
# Scripts sourcing it live next to it, in regress/, or set HARNESS_SELF.
HARNESS_SELF=${HARNESS_SELF:-$(cd "$(dirname "$0")" && pwd -P)/harness.sh}
REPO=$(cd "$(dirname "$HARNESS_SELF")/.." && pwd -P)
BUILD=${BUILD:-build}
HARNESS_TIMEOUT=${HARNESS_TIMEOUT:-60}
# The container boots the host's enabled units: keep only what tests use.
HARNESS_MASK=${HARNESS_MASK-postgresql.service console-getty.service
getty@tty1.service systemd-timesyncd.service systemd-pstore.service
e2scrub_reap.service apt-daily.timer apt-daily-upgrade.timer
dpkg-db-backup.timer e2scrub_all.timer fstrim.timer man-db.timer}
HARNESS_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

HARNESS_STATE=
HARNESS_NAME=
HARNESS_NSPAWN=
HARNESS_LEADER=
HARNESS_NSPAWN_START=
HARNESS_LEADER_START=
HARNESS_UP=0
HARNESS_EXEC_PID=

harness_log()
{
	echo "harness: $*" >&2
}

# harness_starttime PID: the kernel's start time of PID, which tells a
# process from a later one that reuses its PID.
harness_starttime()
{
	# shellcheck disable=SC2046
	set -- $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)
	[ $# -ge 20 ] && echo "${20}"
}

# harness_alive PID START: PID is still the process that had START.  A
# zombie waiting to be reaped is not alive.
harness_alive()
{
	[ -n "${1:-}" ] && [ -n "${2:-}" ] || return 1
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)
	[ $# -ge 22 ] && [ "$3" != Z ] && [ "$2" = "${22}" ]
}

harness_nspawn_alive()
{
	harness_alive "$HARNESS_NSPAWN" "$HARNESS_NSPAWN_START"
}

harness_leader_alive()
{
	harness_alive "$HARNESS_LEADER" "$HARNESS_LEADER_START"
}

# Our own cgroups for the nspawn process, so that the "payload" and
# "supervisor" cgroups nspawn creates are below them and not at the host's
# cgroup root.  One per mounted hierarchy nspawn touches.
harness_cgroup_dirs()
{
	if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
		echo "/sys/fs/cgroup/$1"
	elif [ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" = \
	    cgroup2fs ]; then
		echo "/sys/fs/cgroup/unified/$1"
		[ -d /sys/fs/cgroup/systemd ] && echo "/sys/fs/cgroup/systemd/$1"
	else
		echo "/sys/fs/cgroup/systemd/$1"
	fi
}

# Runs in the private mount namespace made by unshare, then becomes
# systemd-nspawn (same PID all along: unshare without --fork execs).
harness_inner()
{
	state=$1 name=$2
	shift 2
	for d in $(harness_cgroup_dirs "$name"); do
		echo $$ > "$d/cgroup.procs" || exit 1
	done
	echo $$ > "$state/nspawn.pid"
	# nspawn writes below /run/systemd, which is on disk here.
	mkdir -p /run/systemd
	mount -t tmpfs -o mode=0755 opty-harness /run/systemd || exit 1
	# Non-recursive: only the root file system, not the host's /dev,
	# /proc, /sys (nspawn refuses -D / and a populated devtmpfs).  Another
	# OS tree boots the same way, under the same overlay.
	mount --bind "${HARNESS_ROOT:-/}" "$state/root" || exit 1
	binds=
	for d in "$@"; do
		binds="$binds --bind=$d"
	done
	kargs=systemd.unit=multi-user.target
	for u in $HARNESS_MASK; do
		kargs="$kargs systemd.mask=$u"
	done
	# The container gets a pure cgroup v2 tree even on a hybrid host.
	export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1
	# nspawn 252's seccomp allow-list lacks pidfd_getfd and Landlock
	# (which it refuses with EPERM inside the container's services).
	scf="pidfd_getfd landlock_create_ruleset landlock_add_rule"
	scf="$scf landlock_restrict_self"
	# Nor the keyring calls, which 78-sameuid.sh's control needs (a
	# byk service outside the session keeps a key; a session must not
	# read it).
	scf="$scf add_key keyctl"
	# shellcheck disable=SC2086
	exec systemd-nspawn -q -D "$state/root" --volatile=overlay -b \
	    --register=no --keep-unit -M "$name" --private-network \
	    --console=read-only --system-call-filter="$scf" \
	    $binds -- $kargs
}

harness_find_leader()
{
	local c
	for c in $(pgrep -P "$1"); do
		if awk '/^NSpid:/ { exit !($NF == 1 && NF > 2) }' \
		    "/proc/$c/status" 2>/dev/null; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

harness_save()
{
	{
		echo "HARNESS_NAME=$HARNESS_NAME"
		echo "HARNESS_NSPAWN=$HARNESS_NSPAWN"
		echo "HARNESS_LEADER=$HARNESS_LEADER"
		echo "HARNESS_NSPAWN_START=$HARNESS_NSPAWN_START"
		echo "HARNESS_LEADER_START=$HARNESS_LEADER_START"
	} > "$HARNESS_STATE/env"
}

harness_console()
{
	harness_log "container console log:"
	sed 's/^/  | /' "$HARNESS_STATE/console.log" >&2
}

harness_check_prereqs()
{
	local c
	if [ "$(id -u)" != 0 ]; then
		harness_log "must run as root"
		return 1
	fi
	for c in systemd-nspawn nsenter unshare setsid pgrep awk timeout; do
		if ! command -v "$c" >/dev/null; then
			harness_log "missing $c (run: make deps)"
			return 1
		fi
	done
}

harness_start()
{
	local d t0 deadline st
	harness_check_prereqs || return 1
	HARNESS_STATE=$(mktemp -d "${TMPDIR:-/tmp}/opty-harness.XXXXXX") ||
	    return 1
	HARNESS_NAME=opty-${HARNESS_STATE##*.}
	HARNESS_UP=1
	mkdir "$HARNESS_STATE/root" || return 1
	for d in $(harness_cgroup_dirs "$HARNESS_NAME"); do
		mkdir "$d" || return 1
	done
	set -- "$REPO"
	case "$BUILD" in
	/*)	case "$BUILD/" in "$REPO"/*) ;; *) set -- "$@" "$BUILD" ;; esac ;;
	esac
	t0=$(date +%s%N)
	HARNESS_MASK=$HARNESS_MASK setsid unshare --mount --propagation private \
	    -- /bin/sh "$HARNESS_SELF" _inner "$HARNESS_STATE" \
	    "$HARNESS_NAME" "$@" > "$HARNESS_STATE/console.log" 2>&1 \
	    < /dev/null &
	HARNESS_NSPAWN=$!
	HARNESS_NSPAWN_START=$(harness_starttime "$HARNESS_NSPAWN")
	harness_save
	deadline=$(( $(date +%s) + HARNESS_TIMEOUT ))
	st=
	while [ "$(date +%s)" -lt "$deadline" ]; do
		if ! harness_nspawn_alive; then
			harness_console
			harness_log "systemd-nspawn exited during boot"
			return 1
		fi
		if [ -z "$HARNESS_LEADER" ] &&
		    [ -s "$HARNESS_STATE/nspawn.pid" ]; then
			HARNESS_LEADER=$(harness_find_leader "$HARNESS_NSPAWN")
			if [ -n "$HARNESS_LEADER" ]; then
				HARNESS_LEADER_START=$(harness_starttime \
				    "$HARNESS_LEADER")
				harness_save
			fi
		fi
		if [ -n "$HARNESS_LEADER" ]; then
			st=$(timeout 10 nsenter -t "$HARNESS_LEADER" -a \
			    systemctl is-system-running 2>/dev/null)
			case "$st" in running|degraded) break ;; esac
		fi
		sleep 0.05
	done
	case "$st" in
	running|degraded) ;;
	*)	harness_console
		harness_log "boot timed out after ${HARNESS_TIMEOUT}s" \
		    "(state '$st')"
		return 1 ;;
	esac
	harness_log "$HARNESS_NAME: systemd $st in" \
	    "$(( ($(date +%s%N) - t0) / 1000000 )) ms (nspawn $HARNESS_NSPAWN," \
	    "container PID 1 = $HARNESS_LEADER, state $HARNESS_STATE)"
	if [ "$st" = degraded ]; then
		harness_exec systemctl --failed --no-legend --no-pager >&2
	fi
	return 0
}

# Runs in the background and waits, so that a trapped signal interrupts
# the wait at once instead of after the command ends.  Stdin is /dev/null.
harness_exec()
{
	if ! harness_leader_alive; then
		harness_log "container is not running"
		return 1
	fi
	nsenter -t "$HARNESS_LEADER" -a --wdns="$REPO" -- env -i \
	    PATH="$HARNESS_PATH" HOME=/root LANG=C.UTF-8 TERM=dumb "$@" &
	HARNESS_EXEC_PID=$!
	wait $HARNESS_EXEC_PID
	set -- $?
	HARNESS_EXEC_PID=
	return "$1"
}

# harness_install_deb: the Debian packages of $HARNESS_DEB installed the
# way an operator does (apt-get install ./*.deb); nothing can be
# downloaded (the container's network has no route out; apt's
# --no-download refuses files named on its command line).  The test host's policy-rc.d (a container image's,
# say) would keep the maintainer scripts from starting the supervisor: it
# goes, in the container's in-memory /.  The packages start it; it is
# stopped again so that every script begins as after `make install`.
harness_install_deb()
{
	local d
	d=$(cd "$REPO" && cd "$HARNESS_DEB" 2>/dev/null && pwd -P) &&
	    set -- "$d"/opencode-pty_*.deb "$d"/node-opencode-pty_*.deb &&
	    [ -e "$1" ] && [ -e "$2" ] || {
		harness_log "no .deb in $HARNESS_DEB (make deb)"
		return 1
	}
	harness_log "installing the packages: ${1##*/} ${2##*/}"
	harness_exec /bin/sh -ec '
		# The test host'"'"'s own `make install` would stand beside
		# the packages (and its units above theirs): refused.
		for f in /usr/local/libexec/opencode-pty-* \
		    /etc/systemd/system/opencode-pty-supervisor.service \
		    /etc/systemd/system/opencode-pty.slice \
		    /etc/sysusers.d/opencode-pty-relay.conf; do
			[ ! -e "$f" ] || { echo "the test host has $f" \
			    "(make install): not a system without opencode-pty"
			    exit 1; }
		done
		id -u byk >/dev/null 2>&1 || useradd -m -U byk
		rm -f /usr/sbin/policy-rc.d
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		    -o Dpkg::Use-Pty=0 "$@" > /run/opty-apt.log 2>&1 ||
		    { cat /run/opty-apt.log; exit 1; }
		systemctl is-active -q opencode-pty-supervisor.service ||
		    { echo "the packages left the supervisor stopped"; exit 1; }
		systemctl stop opencode-pty-supervisor.service' sh "$@" || {
		harness_log "apt-get install of the packages failed"
		return 1
	}
}

harness_install()
{
	local progs
	if [ -n "${HARNESS_DEB:-}" ]; then
		harness_install_deb
		return
	fi
	harness_log "installing into the container (BUILD=$BUILD)"
	harness_exec /bin/sh -ec '
		id -u byk >/dev/null 2>&1 || useradd -m -U byk
		set -- "$PWD"/etc/sysusers.d/*.conf
		[ -e "$1" ] && systemd-sysusers "$@"
		true' || return 1
	# An empty PROGS list would leave `make install` with no operand.
	progs=$(make -C "$REPO" -s --no-print-directory BUILD="$BUILD" \
	    --eval='harness-progs: ; @echo $(PROGS)' harness-progs) || return 1
	if [ -n "$progs" ]; then
		# -o all: install what `make all` built on the host; never
		# compile from inside into the shared build directory.
		harness_exec make -s --no-print-directory -o all \
		    BUILD="$BUILD" install || {
			harness_log "make install failed (run make all first)"
			return 1
		}
	else
		harness_log "no programs declared yet: nothing to install"
	fi
	# make install wrote the units, with this build's settings.
	harness_exec systemctl daemon-reload || return 1
}

# Everything our run created: the nspawn process, the container's PID 1,
# any process in the private mount namespace or the container's PID
# namespace, our cgroups, any mount under the state directory.  With
# "kill", also SIGKILL what is found.
harness_leftovers()
{
	local bad f p d
	bad=0
	if harness_nspawn_alive; then
		harness_log "leftover systemd-nspawn $HARNESS_NSPAWN"
		[ "${1:-}" = kill ] && kill -KILL "$HARNESS_NSPAWN"
		bad=1
	fi
	# Its PID namespace ends only after every process in it has.
	if harness_leader_alive; then
		harness_log "leftover container PID 1 $HARNESS_LEADER"
		[ "${1:-}" = kill ] && kill -KILL "$HARNESS_LEADER"
		bad=1
	fi
	# Whatever still sees our bind of / is in our private mount namespace.
	for f in $(grep -lF " $HARNESS_STATE/root " /proc/[0-9]*/mountinfo \
	    2>/dev/null); do
		p=${f#/proc/}
		p=${p%/mountinfo}
		[ "$p" = "$$" ] && continue
		harness_log "leftover process $p in our mount namespace"
		[ "${1:-}" = kill ] && kill -KILL "$p" 2>/dev/null
		bad=1
	done
	for d in $(harness_cgroup_dirs "$HARNESS_NAME"); do
		if [ -d "$d" ]; then
			harness_log "leftover cgroup $d"
			bad=1
		fi
	done
	if grep -qF " $HARNESS_STATE" /proc/self/mountinfo; then
		harness_log "leftover mount under $HARNESS_STATE"
		bad=1
	fi
	return $bad
}

harness_rm_cgroups()
{
	local d i p
	for d in $(harness_cgroup_dirs "$HARNESS_NAME"); do
		[ -d "$d" ] || continue
		i=0
		while [ $i -lt 50 ]; do
			find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$d" ] || break
			for p in $(find "$d" -name cgroup.procs \
			    -exec cat {} + 2>/dev/null); do
				harness_log "killing leftover pid $p"
				kill -KILL "$p" 2>/dev/null
			done
			sleep 0.1
			i=$((i + 1))
		done
	done
}

# harness_kill_tree PID: SIGKILL PID and its descendants, parents first
# (stopped first, so that none can fork while its children are killed).
harness_kill_tree()
{
	local c
	kill -STOP "$1" 2>/dev/null
	for c in $(pgrep -P "$1"); do
		harness_kill_tree "$c"
	done
	kill -KILL "$1" 2>/dev/null
}

# Idempotent; returns non-zero if anything of ours was left behind.
harness_stop()
{
	local i rc
	[ "$HARNESS_UP" = 1 ] || return 0
	HARNESS_UP=0
	# A second ^C must not abandon a half-done teardown.
	trap - EXIT
	trap '' INT TERM HUP
	[ -n "$HARNESS_STATE" ] || return 0
	# A command still running under harness_exec goes first, nsenter
	# and all: the container's shutdown SIGSTOPs every process, nsenter
	# then stops itself too and never reaps its child, so PID 1 never
	# exits; and orphans that are in no unit slow the poweroff down.
	[ -n "$HARNESS_EXEC_PID" ] && harness_kill_tree "$HARNESS_EXEC_PID"
	if harness_nspawn_alive; then
		# nspawn turns SIGTERM into a clean poweroff of the container.
		kill -TERM "$HARNESS_NSPAWN"
		i=0
		while [ $i -lt $((HARNESS_TIMEOUT * 10)) ] &&
		    harness_nspawn_alive; do
			sleep 0.1
			i=$((i + 1))
		done
		if harness_nspawn_alive; then
			harness_log "poweroff timed out, killing"
			harness_leader_alive && kill -KILL "$HARNESS_LEADER"
			kill -KILL "$HARNESS_NSPAWN" 2>/dev/null
			sleep 0.5
		fi
	fi
	# SIGKILL to a PID namespace's init kills the whole namespace.
	harness_leader_alive && kill -KILL "$HARNESS_LEADER"
	harness_rm_cgroups
	# The processes of a killed PID namespace exit asynchronously.
	i=0
	while ! harness_leftovers 2>/dev/null && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rc=0
	if ! harness_leftovers kill; then
		harness_rm_cgroups
		rc=1
	fi
	rmdir "$HARNESS_STATE/root" 2>/dev/null
	if [ $rc = 0 ]; then
		rm -rf "$HARNESS_STATE"
		harness_log "$HARNESS_NAME: stopped, nothing left behind"
	else
		harness_log "$HARNESS_NAME: LEFTOVERS after stop (state kept in" \
		    "$HARNESS_STATE)"
	fi
	return $rc
}

harness_trap()
{
	trap 'harness_stop' EXIT
	trap 'harness_log "interrupted"; harness_stop; exit 130' INT
	trap 'harness_log "terminated"; harness_stop; exit 143' TERM HUP
}

# IT_KEEP-style debugging: leave the container running, say how to stop it.
harness_keep()
{
	trap - EXIT INT TERM HUP
	HARNESS_UP=0
	harness_log "kept running: enter with" \
	    "nsenter -t $HARNESS_LEADER -a --wdns=$REPO"
	harness_log "stop with: sh $HARNESS_SELF stop $HARNESS_STATE"
}

harness_main()
{
	case "${1:-}" in
	_inner)
		shift
		harness_inner "$@" ;;
	stop)
		[ -f "${2:-}/env" ] || { harness_log "usage: stop STATE_DIR"; exit 2; }
		HARNESS_STATE=$2
		. "$HARNESS_STATE/env"
		HARNESS_UP=1
		harness_stop ;;
	*)
		sed -n '1,/^$/p' "$HARNESS_SELF" >&2
		exit 2 ;;
	esac
}

case "$0" in
*/harness.sh|harness.sh) harness_main "$@" ;;
esac
