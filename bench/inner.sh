# inner.sh: the benchmark driver inside the disposable systemd (never
# installed).  Runs as root, cwd = the repository, started by bench.sh
# through harness_exec with TOOLS and OUT set.  Writes raw per-run lines
# to $OUT/*.txt; bench/report.sh turns them into the table.  Nothing here
# judges a number: a slow figure is reported, never a failure.  A session
# that fails outright is recorded as such in the raw lines.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

: "${OUT:?OUT is not set}"
RUNS=${BENCH_RUNS:-5}
TPUT_MIB=${BENCH_TPUT_MIB:-256}
IN_MIB=${BENCH_IN_MIB:-16}
LAT_N=${BENCH_LAT_N:-200}
LAT_BLOCK=${BENCH_LAT_BLOCK:-20}
LOAD_N=${BENCH_LOAD_N:-50}
TAIL_N=${BENCH_TAIL_N:-1000}
WINDOW=${BENCH_WINDOW:-5}
TPUT_CMD="head -c ${TPUT_MIB}M /dev/zero | base64 -w 76"
LOAD_CMD="head -c 256M /dev/zero | base64 -w 76"
LOAD_SETTLE_MS=${BENCH_LOAD_SETTLE_MS:-1000}
IN_BYTES=$((IN_MIB * 1048576))
IN_CMD="stty raw -echo; printf R; head -c $IN_BYTES >/dev/null; printf D"
SDRUN="/usr/bin/systemd-run --quiet -p User=byk -p Group=byk
    --slice=opencode-pty.slice"

log() { echo "bench: $*" >&2; }

# The bench client installed as the deployment installs the Node
# service (root-owned, 0711: it runs non-dumpable, which the supervisor
# requires of the client's MainPID), beside itlib.sh's $NODESIM.
BENCHC=$NODESIM_DIR/opty-benchc
install -o root -g root -m 0711 "$TOOLS/opty-benchc" "$BENCHC" ||
    { log "cannot install $BENCHC"; exit 1; }

# benchc ARGS...: opty-benchc as the MainPID of opencode-v2.service.
benchc() {
	systemctl reset-failed "$CLIENT_UNIT" 2>/dev/null
	systemd-run --quiet --wait --pipe --unit="$CLIENT_UNIT" \
	    -p Type=exec -p User=byk -p Group=byk -- \
	    "$BENCHC" -d "$WORK" "$@" < /dev/null
}
benchunit() { "$TOOLS/opty-benchunit" -d "$WORK" "$@"; }
benchexec() { "$TOOLS/opty-benchexec" "$@"; }

# BENCH_ONLY=node (make bench-node): the Node comparison alone.
if [ "${BENCH_ONLY:-}" = node ]; then
	sup_start || { log "supervisor did not start"; exit 1; }
	echo "CONF runs=$RUNS tput_mib=$TPUT_MIB" > "$OUT/env.txt"
	echo "NPROC $(nproc)" >> "$OUT/env.txt"
	echo "KERNEL $(uname -r)" >> "$OUT/env.txt"
	. "$REPO/bench/nodebench.sh"
	sup_stop
	log "done"
	exit 0
fi

# input_run RUN PATH...: one input run of each PATH into input.txt, in
# the order given.  sup: the supervisor; script: the old script path;
# bare: the bare call; nomount: the bare call without the mount sandbox;
# sdpty: systemd-run --pty; sdptyns: the same with a mount namespace.
input_run() {
	_r=$1
	shift
	for _p in "$@"; do
		case $_p in
		sup)	benchc -i "$IN_BYTES" -- /bin/sh -c "$IN_CMD" |
			    sed -n "s/^J /sup $_r /p" ;;
		script)	benchscript -i "$IN_BYTES" -- /bin/sh -c "$IN_CMD" |
			    sed "s/^U /script $_r /" ;;
		bare)	benchunit -i "$IN_BYTES" -- /bin/sh -c "$IN_CMD" |
			    sed "s/^U /bare $_r /" ;;
		nomount) benchunit -M -i "$IN_BYTES" -- /bin/sh -c "$IN_CMD" |
			    sed "s/^U /nomount $_r /" ;;
		# shellcheck disable=SC2086
		sdpty)	benchexec -i "$IN_BYTES" -- $SDRUN --pty --wait -- \
			    /bin/sh -c "$IN_CMD" | sed "s/^X /sdpty $_r /" ;;
		# shellcheck disable=SC2086
		sdptyns) benchexec -i "$IN_BYTES" -- $SDRUN --pty --wait \
			    -p NoNewPrivileges=yes -p PrivateTmp=yes -- \
			    /bin/sh -c "$IN_CMD" | sed "s/^X /sdptyns $_r /" ;;
		*)	log "input_run: unknown path $_p"; return 1 ;;
		esac >> "$OUT/input.txt"
	done
}

# BENCH_ONLY=input (make bench-input): the input paths alone, in turns,
# with the bare path also without its mount sandbox (-M), to tell what
# the unit's sandbox costs input from what the supervisor does.
if [ "${BENCH_ONLY:-}" = input ]; then
	sup_start || { log "supervisor did not start"; exit 1; }
	echo "CONF runs=$RUNS in_mib=$IN_MIB" > "$OUT/env.txt"
	echo "NPROC $(nproc)" >> "$OUT/env.txt"
	echo "KERNEL $(uname -r)" >> "$OUT/env.txt"
	log "input throughput: $RUNS x 5 paths, ${IN_MIB} MiB in raw mode"
	r=0
	while [ $r -lt "$RUNS" ]; do
		input_run "$r" sup bare nomount sdpty sdptyns
		r=$((r + 1))
	done
	sup_stop
	log "done"
	exit 0
fi
# The old script path: the launcher of the last build before the
# terminal moved to the parent (bench/build.mk), with a socketpair.
OLD_LAUNCHER=/usr/local/libexec/opty-bench-script/opencode-pty-launcher
install -D -o root -g root -m 0755 "$BUILD/bench-old/bin/opencode-pty-launcher" \
    "$OLD_LAUNCHER" || { log "cannot install $OLD_LAUNCHER"; exit 1; }
benchscript() { benchunit -s "$OLD_LAUNCHER" "$@"; }

sup_pids() {
	PARENT=$(systemctl show -P MainPID "$SUP")
	RELAY=$(pgrep -P "$PARENT" | head -n 1)
}
# cpu_ticks: utime+stime of the parent and the relay, in clock ticks.
cpu_ticks() {
	for p in "$PARENT" "$RELAY"; do
		sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 }'
	done | awk '{ s += $1 } END { print s }'
}
# mem LABEL: VmRSS and VmHWM, then Pss and Private_Dirty (KiB) of the
# parent and the relay into mem.txt.  VmRSS counts the shared clean pages
# of libc and the other libraries; Pss and Private_Dirty are the
# process's own share.
mem() {
	for p in "$PARENT" "$RELAY"; do
		awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 }
		    END { printf " %s %s", r, h }' "/proc/$p/status"
	done | sed "s/^/M $1/" >> "$OUT/mem.txt"
	for p in "$PARENT" "$RELAY"; do
		awk '/^Pss:/ { s = $2 } /^Private_Dirty:/ { d = $2 }
		    END { printf " %s %s", s, d }' "/proc/$p/smaps_rollup"
	done >> "$OUT/mem.txt"
	echo >> "$OUT/mem.txt"
}

# smaps LABEL: the mappings of the parent and the relay, for the analysis.
smaps() {
	cat "/proc/$PARENT/smaps" > "$OUT/smaps.parent.$1"
	cat "/proc/$RELAY/smaps" > "$OUT/smaps.relay.$1"
}

# install_build DIR SRC: `make install` of the build in DIR (made on the
# host) from the tree SRC, as harness_install does, and the readiness
# marker for those binaries (itlib.sh).
install_build() {
	make -s --no-print-directory -C "$2" -o all BUILD="$1" install &&
	    marker_make
}

# The previous build (bench/build.mk: the commit before the terminal
# moved to the parent) installed and measured for the memory target in
# this same run, on this kernel: idle, with 16 sessions at full output,
# idle again.  Then this build is installed back.
case $BUILD in
/*)	OLD_BUILD=$BUILD/bench-old ;;
*)	OLD_BUILD=$(pwd -P)/$BUILD/bench-old ;;
esac
log "memory of the previous build ($OLD_BUILD)"
install_build "$OLD_BUILD" "$OLD_BUILD/src" ||
    { log "cannot install the previous build"; exit 1; }
sup_start || { log "the previous build's supervisor did not start"; exit 1; }
sup_pids
mem old-idle-start
smaps old-idle-start
benchc -n 5 -- /bin/echo x > "$OUT/old.txt"
( sleep $((WINDOW / 2 + 2)); mem old-16-sessions ) &
benchc -n 0 -L 16 -l "$TPUT_CMD" -T "$WINDOW" >> "$OUT/old.txt"
wait
wait_no_units 30 || log "session units left after the previous build"
mem old-idle-end
sup_stop
install_build "$BUILD" . || { log "cannot install this build back"; exit 1; }

sup_start || { log "supervisor did not start"; exit 1; }
sup_pids
smaps idle-start
echo "CLK_TCK $(getconf CLK_TCK)" > "$OUT/env.txt"
echo "NPROC $(nproc)" >> "$OUT/env.txt"
echo "KERNEL $(uname -r)" >> "$OUT/env.txt"
echo "SYSTEMD $(systemctl --version | head -n 1)" >> "$OUT/env.txt"
echo "CONF runs=$RUNS tput_mib=$TPUT_MIB in_mib=$IN_MIB lat_n=$LAT_N" \
    "lat_block=$LAT_BLOCK" \
    "load_n=$LOAD_N load_settle_ms=$LOAD_SETTLE_MS tail_n=$TAIL_N" \
    "window=$WINDOW" >> "$OUT/env.txt"
mem idle-start

# This build through the previous build's memory steps above (5
# sessions, then 16 at full output, then idle), so that the two builds
# are compared after the same work; the later figures come after
# thousands of sessions, which the previous build is not put through.
log "memory of this build, the previous build's steps"
benchc -n 5 -- /bin/echo x > /dev/null
( sleep $((WINDOW / 2 + 2)); mem new-16-sessions ) &
benchc -n 0 -L 16 -l "$TPUT_CMD" -T "$WINDOW" > /dev/null
wait
wait_no_units 30 || log "session units left after this build's memory steps"
mem new-idle-end

log "warm-up"
benchc -n 5 -- /bin/echo x > /dev/null
benchunit -n 5 -- /bin/echo x > /dev/null
benchscript -n 5 -- /bin/echo x > /dev/null
mem idle

log "output throughput: $RUNS x 5 paths, ${TPUT_MIB} MiB of zeroes in base64"
# oldsup_tput RUN: one run through the previous build's whole supervisor
# (its launcher under script(1), its relay), then this build back.
oldsup_tput() {
	sup_stop
	{ install_build "$OLD_BUILD" "$OLD_BUILD/src" && sup_start; } ||
	    { log "the previous build's supervisor did not start"; exit 1; }
	benchc -- /bin/sh -c "$TPUT_CMD" | sed -n "s/^J /oldsup $1 /p" \
	    >> "$OUT/tput.txt"
	sup_stop
	{ install_build "$BUILD" . && sup_start; } ||
	    { log "this build's supervisor did not start again"; exit 1; }
	sup_pids
}

r=0
while [ $r -lt "$RUNS" ]; do
	oldsup_tput "$r"
	c0=$(cpu_ticks)
	benchc -- /bin/sh -c "$TPUT_CMD" | sed -n "s/^J /sup $r /p" \
	    >> "$OUT/tput.txt"
	echo "cpu $r $(( $(cpu_ticks) - c0 ))" >> "$OUT/tput.txt"
	benchscript -- /bin/sh -c "$TPUT_CMD" | sed "s/^U /script $r /" \
	    >> "$OUT/tput.txt"
	benchunit -- /bin/sh -c "$TPUT_CMD" | sed "s/^U /bare $r /" \
	    >> "$OUT/tput.txt"
	# shellcheck disable=SC2086
	benchexec -- $SDRUN --pty --wait -- /bin/sh -c "$TPUT_CMD" |
	    sed "s/^X /sdpty $r /" >> "$OUT/tput.txt"
	r=$((r + 1))
done

. "$REPO/bench/nodebench.sh"

log "input throughput: $RUNS x 4 paths, ${IN_MIB} MiB in raw mode"
r=0
while [ $r -lt "$RUNS" ]; do
	input_run "$r" sup script bare sdpty
	r=$((r + 1))
done

# The paths take turns in blocks of LAT_BLOCK sessions, so that the
# machine's drift over the minutes of a run hits them alike.  "nomount"
# is the bare path without the mount sandbox.
log "start latency: $LAT_N sessions x 2 commands x 5 paths," \
    "in turns of $LAT_BLOCK"
for cmd in true echo; do
	if [ $cmd = true ]; then set -- /bin/true; else set -- /bin/echo x; fi
	left=$LAT_N
	while [ "$left" -gt 0 ]; do
		b=$LAT_BLOCK
		[ "$b" -gt "$left" ] && b=$left
		left=$((left - b))
		benchc -n "$b" -- "$@" | sed -n "s/^J /sup $cmd /p" \
		    >> "$OUT/lat.txt"
		benchunit -n "$b" -- "$@" | sed "s/^U /bare $cmd /" \
		    >> "$OUT/lat.txt"
		benchscript -n "$b" -- "$@" | sed "s/^U /script $cmd /" \
		    >> "$OUT/lat.txt"
		benchunit -M -n "$b" -- "$@" |
		    sed "s/^U /nomount $cmd /" >> "$OUT/lat.txt"
		# shellcheck disable=SC2086
		benchexec -n "$b" -- $SDRUN --wait --pipe -- "$@" |
		    sed "s/^X /sdpipe $cmd /" >> "$OUT/lat.txt"
	done
done
mem idle-after-latency

log "16 sessions at full output: $RUNS windows of ${WINDOW}s"
r=0
while [ $r -lt "$RUNS" ]; do
	wait_no_units 30 || log "session units left before a window"
	( sleep $((WINDOW / 2 + 2)); mem "16-sessions-run$r" ) &
	benchc -n 0 -L 16 -l "$TPUT_CMD" -T "$WINDOW" |
	    sed -n "s/^L /conc $r /p" >> "$OUT/conc.txt"
	wait
	r=$((r + 1))
done

wait_no_units 30 || log "session units left after the windows"
# The loads write 256 MiB each (as the command), so that none
# ends before the last probe; the probes start 1 s after every load
# produced output: the steady state, not the loads' own start-up.
log "start latency under load: 15 loaded sessions, $LOAD_N starts"
benchc -L 15 -l "$LOAD_CMD" -K -S "$LOAD_SETTLE_MS" -n "$LOAD_N" -- /bin/echo x |
    sed -n 's/^J /loaded echo /p; s/^L /load /p; s/^# busy /busy /p' \
    >> "$OUT/lat.txt"

# The reference under the same load: 15 supervisor sessions at full
# output in the background, the bare StartTransientUnit path probed.
log "bare D-Bus start latency under the same load: $LOAD_N starts"
wait_no_units 30 || log "session units left before the bare probes"
benchc -n 0 -L 15 -l "$LOAD_CMD" -T 600 > /dev/null &
until [ "$(systemctl list-units --no-legend --state=running \
    'opencode-pty-*.service' | wc -l)" -ge 15 ]; do sleep 0.2; done
sleep $((LOAD_SETTLE_MS / 1000 + 1))
benchunit -n "$LOAD_N" -- /bin/echo x | sed "s/^U /loadbare echo /" \
    >> "$OUT/lat.txt"
systemctl stop "$CLIENT_UNIT"
wait

log "memory: one 1 KiB/s reader of 256 MiB of output"
( sleep 3; mem slow-3s; sleep 6; mem slow-9s ) &
benchc -n 0 -L 1 -l 'head -c 256M /dev/zero | base64' -s 1024 -T 12 \
    > "$OUT/slow.txt"
wait
mem slow-after
wait_no_units 30 || log "session units left after the slow reader"
mem idle-end

log "tail loss: $TAIL_N x (4096 bytes then exit 3), 8 at a time"
benchc -n "$TAIL_N" -P 8 -- /bin/sh -c \
    'head -c 4096 /dev/zero | tr "\0" x; exit 3' > "$OUT/tail.txt"

log "callgrind: the relay's hot path in-process (opty-relaypath)"
for m in out in; do
	for mib in 0 64; do
		valgrind -q --tool=callgrind \
		    --callgrind-out-file="$OUT/cg.$m.$mib" \
		    "$TOOLS/opty-relaypath" $m $mib > /dev/null 2>&1
		ir=$(callgrind_annotate "$OUT/cg.$m.$mib" 2>/dev/null |
		    awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
		echo "cg $m $mib ${ir:-0}" >> "$OUT/cg.txt"
	done
	callgrind_annotate --threshold=95 "$OUT/cg.$m.64" 2>/dev/null |
	    grep -E 'PROGRAM TOTALS|\[/' | head -n 12 > "$OUT/cg.$m.top"
done
rm -f "$OUT"/cg.*.0 "$OUT"/cg.in.64 "$OUT"/cg.out.64

log "profile: the relay under perf (cpu-clock) during one output run"
( perf record -q -e cpu-clock -p "$RELAY" -o "$OUT/perf.data" -- \
    sleep 6 > /dev/null 2>&1 || echo "perf record failed" > \
    "$OUT/perf.err" ) &
benchc -- /bin/sh -c "$TPUT_CMD" > /dev/null
wait
if [ -s "$OUT/perf.data" ]; then
	perf report -i "$OUT/perf.data" --stdio --no-children \
	    --sort sym 2>/dev/null | grep -E '^ +[0-9.]+%' | head -n 15 \
	    > "$OUT/perf.top"
	rm -f "$OUT/perf.data"
fi
sup_stop
log "done"
