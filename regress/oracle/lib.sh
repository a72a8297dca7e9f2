# lib.sh: the differential oracle's two runners and its comparison (test
# only, never installed).  Sourced by regress/it/75-oracle.sh after
# regress/itlib.sh, as root inside the disposable systemd.  Every command
# runs twice: once as a supervisor session (opty-nodesim as the MainPID of
# opencode-v2.service) and once under `systemd-run --pty`, the reference,
# configured like the session unit.  What may legitimately differ, and
# why, is in docs/ORACLE.md; nothing else is forgiven.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# oracle_wait_main UNIT PATH: the unit's main process runs PATH's image,
# so systemd has done its terminal setup and anything typed now reaches
# the command.  10 seconds at most.
oracle_wait_main() {
	want=$(readlink -f "$2")
	n=0
	while [ $n -lt 500 ]; do
		pid=$(systemctl show -P MainPID "$1" 2>/dev/null)
		if [ -n "$pid" ] && [ "$pid" != 0 ] &&
		    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$want" ]; then
			return 0
		fi
		sleep 0.02; n=$((n + 1))
	done
	return 1
}

# oracle_ref UNIT INPUT CMD...: the reference run.  Raw PTY bytes in
# $tmp/ref.raw; ref_code (1 exited, 2 killed, 3 dumped), ref_status
# (number), ref_result.  Its stdin is a FIFO held open and idle until
# systemd-run is done (as the session's input stream stays open): EOF on
# a pipe makes systemd-run stop forwarding at once, losing the output.
# Its stdout is a pipe: written to a regular file it starts over at
# offset 0.
oracle_ref() {
	unit=$1 input=$2
	shift 2
	rm -f "$tmp/fifo" "$tmp/ref.st" "$tmp/ref.rc"
	exe=$1
	# Verbatim, as client() passes them: systemd expands '$' in
	# ExecStart= ('$$' is one '$').
	n=$#
	for a; do sd_escape "$a"; set -- "$@" "$r"; done
	shift "$n"
	mkfifo "$tmp/fifo" || return 1
	# The reference unit: the session's user, slice, directory, umask
	# and NoNewPrivileges, and the launcher's fixed environment.  systemd
	# adds SHELL, INVOCATION_ID and SYSTEMD_EXEC_PID to every service
	# (and from 254 on MEMORY_PRESSURE_WATCH and MEMORY_PRESSURE_WRITE);
	# they are unset so that the set of variables is the same.  systemd
	# ignores SIGPIPE in services; the launcher resets every signal to
	# SIG_DFL, so the reference must not ignore it either.  The main
	# process's status is read by ExecStopPost= (as root, '+'), which
	# systemd gives EXIT_CODE, EXIT_STATUS and SERVICE_RESULT: the exit
	# status of systemd-run cannot tell a signal from exit 255, nor
	# SIGTERM from success.  '$$' is one '$' for systemd.
	(
		TERM=xterm-256color systemd-run --unit="$unit" --pty --wait \
		    --quiet --service-type=exec --uid=byk --gid=byk \
		    --slice=opencode-pty.slice --working-directory="$WORK" \
		    -p UMask=0077 -p NoNewPrivileges=yes -p IgnoreSIGPIPE=no \
		    -p Environment=HOME=/home/byk -p Environment=LANG=C.UTF-8 \
		    -p Environment=LOGNAME=byk \
		    -p Environment=PATH=/usr/local/bin:/usr/bin:/bin \
		    -p Environment=TERM=xterm-256color -p Environment=USER=byk \
		    -p "UnsetEnvironment=SHELL INVOCATION_ID SYSTEMD_EXEC_PID MEMORY_PRESSURE_WATCH MEMORY_PRESSURE_WRITE" \
		    -p "ExecStopPost=+/bin/sh -c 'echo \"\$\$SERVICE_RESULT \$\$EXIT_CODE \$\$EXIT_STATUS\" > $tmp/ref.st'" \
		    -- "$@" < "$tmp/fifo" 2> "$tmp/ref.err"
		echo $? > "$tmp/ref.rc"
	) | cat > "$tmp/ref.raw" &
	rpid=$!
	exec 3> "$tmp/fifo"
	if [ -n "$input" ]; then
		if oracle_wait_main "$unit" "$exe"; then
			printf '%s' "$input" >&3
		else
			echo "  reference: $unit never ran $exe"
		fi
	fi
	wait $rpid
	exec 3>&-
	systemctl reset-failed "$unit" 2>/dev/null
	ref_code=0 ref_status=-1 ref_result=none
	if ! read -r ref_result c s < "$tmp/ref.st" 2>/dev/null; then
		echo "  reference: no status (rc $(cat "$tmp/ref.rc"):" \
		    "$(head -c 300 "$tmp/ref.err"))"
		return 1
	fi
	case $c in
	exited) ref_code=1 ref_status=$s ;;
	killed) ref_code=2 ref_status=$(/bin/kill -l "$s") ;;
	dumped) ref_code=3 ref_status=$(/bin/kill -l "$s") ;;
	*) echo "  reference: EXIT_CODE '$c'"; return 1 ;;
	esac
}

# oracle_sup INPUT CMD...: the supervisor run.  Raw PTY bytes in
# $tmp/sup.raw; sup_code, sup_status, sup_result from the exit frame.
oracle_sup() {
	input=$1
	shift
	if [ -n "$input" ]; then
		client -i "$input" -- "$@"
	else
		client -- "$@"
	fi
	cp "$tmp/out.raw" "$tmp/sup.raw"
	sup_code=0 sup_status=-1 sup_result=none
	# Digits and [a-z-] only: splitting is what is wanted.
	# shellcheck disable=SC2046
	set -- $(sed -n 's/^opty-nodesim: exit code=\([0-9]*\) status=\([0-9]*\) result=\([a-z-]*\) .*/\1 \2 \3/p' "$tmp/last")
	if [ $# != 3 ]; then
		echo "  supervisor: no exit frame (rc $rc: $(cat "$tmp/last"))"
		return 1
	fi
	sup_code=$1 sup_status=$2 sup_result=$3
}

# oracle_want_status: the supervisor's exit frame must carry exactly the
# reference's status: the command is the unit's main process on both
# paths (the launcher execs it), so ExecMainCode, ExecMainStatus and
# Result are the command's own, a death by signal included.
oracle_want_status() {
	case $ref_code in
	1|2|3) want_code=$ref_code want_status=$ref_status
	    want_result=$ref_result ;;
	*) want_code=x want_status=x want_result=x ;;
	esac
}

# What systemd-run --pty itself adds on newer systemd, taken out of the
# reference before any comparison (seen on 262, not on 257): a final
# newline where the command's output did not end with one (its PTY
# forwarder leaves the terminal at the start of a line), and TERM=dumb
# for a caller whose output is not a terminal, over the unit's own
# Environment=TERM=.  Our session has neither; nothing else is touched.
oracle_sysver=$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
oracle_ref_quirks() {
	if [ "${oracle_sysver:-0}" -le 257 ]; then
		cat
		return
	fi
	python3 -c '
import sys
ref = sys.stdin.buffer.read()
sup = open(sys.argv[1], "rb").read()
if ref == sup + b"\n" and not sup.endswith(b"\n"):
	ref = sup
ref = ref.replace(b"TERM=dumb\r\n", b"TERM=xterm-256color\r\n")
sys.stdout.buffer.write(ref)' "$tmp/sup.raw"
}

# oracle_expect RELATION: builds $tmp/sup.cmp and $tmp/ref.cmp, the bytes
# to compare, from the raw outputs under the row's relation (see
# docs/ORACLE.md).
oracle_expect() {
	cp "$tmp/sup.raw" "$tmp/sup.cmp"
	oracle_ref_quirks < "$tmp/ref.raw" > "$tmp/ref.cmp"
	cp "$tmp/ref.cmp" "$tmp/ref.raw"
	case $1 in
	same) ;;
	env-order)
		# The environ order is the order systemd merged it in.
		sort "$tmp/sup.raw" > "$tmp/sup.cmp"
		sort "$tmp/ref.raw" > "$tmp/ref.cmp" ;;
	termios)
		# The window size is not compared: the reference's is set
		# by systemd-run after the unit starts.  From 257 on systemd
		# no longer adds imaxbel and iutf8 to a service's terminal;
		# the parent sets both on every version (docs/ORACLE.md).
		sed -e '1s/rows [0-9]*; columns [0-9]*;/rows -; columns -;/' \
		    "$tmp/sup.raw" > "$tmp/sup.cmp"
		if [ "${oracle_sysver:-0}" -ge 257 ]; then
			q='s/ -imaxbel -iutf8\r$/ imaxbel iutf8\r/'
		else
			q=
		fi
		sed -e '1s/rows [0-9]*; columns [0-9]*;/rows -; columns -;/' \
		    -e "${q:-p;d}" "$tmp/ref.raw" > "$tmp/ref.cmp" ;;
	sigign)
		# The reference inherits glibc's reserved signals 32 and 33
		# ignored from PID 1 (33 seen on 254 and 257 once PID 1 has
		# run for a while); the launcher resets every signal, both
		# included (launcher/command.c).  Nothing else may differ.
		sed -e 's/^\(SigIgn:\t\)0000000[01][08]0000000\r$/\10000000000000000\r/' \
		    "$tmp/ref.raw" > "$tmp/ref.cmp" ;;
	*) echo "  unknown relation $1"; return 1 ;;
	esac
}

oracle_sum() { sha256sum < "$1" | cut -c1-12; }

# row NAME RELATION INPUT CMD...: one line of the table, PASS or FAIL.
# INPUT is typed into the PTY once the command runs ('' for none).
oracle_n=0
row() {
	name=$1 rel=$2 input=$3
	shift 3
	oracle_n=$((oracle_n + 1))
	ok=1
	t0=$(date +%s%N)
	oracle_sup "$input" "$@" || ok=0
	t1=$(date +%s%N)
	oracle_ref "opty-oracle-$oracle_n.service" "$input" "$@" || ok=0
	t2=$(date +%s%N)
	oracle_want_status
	oracle_expect "$rel" || ok=0
	# systemd-run's forwarder was seen to lose the end of a stream of
	# small writes (13475 of 13890 bytes, once, on 254): a reference
	# that differs is run once more before the row is judged.  The
	# supervisor's side is never run again.
	if [ $ok = 1 ] && ! cmp -s "$tmp/sup.cmp" "$tmp/ref.cmp"; then
		echo "  $name: the reference differs; running it once more"
		oracle_ref "opty-oracle-$oracle_n-again.service" "$input" \
		    "$@" || ok=0
		oracle_want_status
		oracle_expect "$rel" || ok=0
	fi
	if ! cmp -s "$tmp/sup.cmp" "$tmp/ref.cmp"; then
		ok=0
		cmp "$tmp/sup.cmp" "$tmp/ref.cmp" 2>&1 | sed 's/^/  /'
		if [ "$(wc -c < "$tmp/sup.cmp")" -lt 4096 ] &&
		    [ "$(wc -c < "$tmp/ref.cmp")" -lt 4096 ]; then
			echo "  supervisor:"; od -c "$tmp/sup.cmp" | sed 's/^/    /'
			echo "  reference:"; od -c "$tmp/ref.cmp" | sed 's/^/    /'
		fi
	fi
	[ "$sup_code/$sup_status/$sup_result" = \
	    "$want_code/$want_status/$want_result" ] || ok=0
	if [ $ok = 1 ]; then m=PASS; else m=FAIL; fi
	# The times are for reading, never judged.
	printf '%-4s %-13s %8s %s %-16s %5s | %8s %s %-15s %5s %s\n' "$m" \
	    "$name" "$(wc -c < "$tmp/sup.raw")" "$(oracle_sum "$tmp/sup.raw")" \
	    "$sup_code/$sup_status/$sup_result" $(((t1 - t0) / 1000000)) \
	    "$(wc -c < "$tmp/ref.raw")" "$(oracle_sum "$tmp/ref.raw")" \
	    "$ref_code/$ref_status/$ref_result" $(((t2 - t1) / 1000000)) \
	    "$rel"
	[ $ok = 1 ] || fails=$((fails + 1))
	[ $ok = 1 ]
}
