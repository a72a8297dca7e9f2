# report.sh: turns the raw lines bench/inner.sh wrote into the results
# section of docs/BENCHMARKS.md (markdown on stdout).  Test-only, never
# installed; runs on the host after the disposable systemd is gone.
#	sh bench/report.sh OUTDIR
# Numbers are reported, never judged: nothing here fails on a figure.

OUT=${1:?usage: report.sh OUTDIR}

# Numbers on stdin -> "min median max n" (nearest-rank median).
stats() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "- - - 0"; exit }
		m = int((NR + 1) / 2)
		printf "%s %s %s %d\n", v[1], v[m], v[NR], NR }'
}
# Numbers on stdin -> "p50 p90 p99 n" (nearest rank).
pcts() {
	sort -g | awk '
	function rank(q,  i) { i = int(q * NR + 0.999999); if (i < 1) i = 1;
		return v[i] }
	{ v[NR] = $1 } END {
		if (NR == 0) { print "- - - 0"; exit }
		printf "%s %s %s %d\n", rank(0.50), rank(0.90), rank(0.99), NR }'
}
f1() { awk '{ printf "%.1f", $1 }'; }
f2() { awk '{ printf "%.2f", $1 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-";
	else printf "%.2fx\n", a / b }'; }
conf() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$OUT/env.txt"; }
# row NAME "min med max n" UNIT-FORMAT
row3() {
	set -- "$1" $2
	printf "| %s | %s | %s | %s | %s |\n" "$1" \
	    "$(echo "$2" | f1)" "$(echo "$3" | f1)" "$(echo "$4" | f1)" "$5"
}

TICK=$(sed -n 's/^CLK_TCK //p' "$OUT/env.txt")
IN_MIB=$(conf in_mib)
IN_BYTES=$((IN_MIB * 1048576))

echo "Run: $(sed -n 's/^CONF //p' "$OUT/env.txt"); $(sed -n \
    's/^NPROC //p' "$OUT/env.txt") CPUs; kernel $(sed -n 's/^KERNEL //p' \
    "$OUT/env.txt"); $(sed -n 's/^SYSTEMD //p' "$OUT/env.txt")."
echo
echo "### Output throughput (MB/s, 10^6 bytes per second, connect or call to last byte)"
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
sup=$(awk '$1 == "sup" && NF >= 11 && $5 > 0 { print $8 / $5 }' \
    "$OUT/tput.txt" | stats)
scr=$(awk '$1 == "script" && $5 > 0 { print $8 / $5 }' "$OUT/tput.txt" |
    stats)
sdp=$(awk '$1 == "sdpty" && $5 > 0 { print $7 / $5 }' "$OUT/tput.txt" |
    stats)
row3 "supervisor (opty-benchc)" "$sup"
row3 "script(1) in a transient unit, socketpair (bare D-Bus)" "$scr"
row3 "systemd-run --pty --wait" "$sdp"
set -- $sup; sm=$2; set -- $scr; cm=$2; set -- $sdp; pm=$2
echo
echo "Ratio of medians: supervisor / script = **$(ratio "$sm" "$cm")**" \
    "(target >= 0.95x); supervisor / systemd-run --pty = $(ratio "$sm" "$pm")."
bad=$(awk '($1 == "sup" && (NF < 11 || $10 != 0)) ||
    ($1 == "sdpty" && $8 != 0) { n++ } END { print n + 0 }' "$OUT/tput.txt")
echo "Runs that did not end with status 0: $bad."
cpu=$(awk -v t="$TICK" '$1 == "sup" && NF >= 11 { b[$2] = $8 }
    $1 == "cpu" { c[$2] = $3 }
    END { for (r in c) if (b[r] > 0) print c[r] / t * 1000 / (b[r] / 1e6) }' \
    "$OUT/tput.txt" | stats)
set -- $cpu
echo
echo "CPU per MB relayed (parent + relay utime+stime from /proc, ms per" \
    "10^6 output bytes): min $(echo "$1" | f2), median $(echo "$2" | f2)," \
    "max $(echo "$3" | f2) over $4 runs."

echo
echo "### Input throughput (MB/s, ${IN_MIB} MiB in 32 KiB input frames, raw mode, first byte to done marker)"
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
isup=$(awk -v n="$IN_BYTES" '$1 == "sup" && NF >= 11 && $5 > $4 {
    print n / ($5 - $4) }' "$OUT/input.txt" | stats)
iscr=$(awk -v n="$IN_BYTES" '$1 == "script" && $5 > $4 {
    print n / ($5 - $4) }' "$OUT/input.txt" | stats)
row3 "supervisor (input frames)" "$isup"
row3 "script(1) in a transient unit (raw bytes on the socketpair)" "$iscr"
set -- $isup; a=$2; set -- $iscr
echo
echo "Ratio of medians: supervisor / script = $(ratio "$a" "$2")."

echo
echo "### Start latency (ms; p50 / p90 / p99)"
echo
echo "| path | command | to first output byte | to exit | n |"
echo "|---|---|---:|---:|---:|"
lat() {	# lat PATH CMD FIRSTCOL EXITCOL LABEL
	fb=$(awk -v p="$1" -v c="$2" -v k="$3" '$1 == p && $2 == c &&
	    $k ~ /^[0-9]+$/ && $k > 0 { print $k / 1000 }' "$OUT/lat.txt" |
	    pcts)
	ex=$(awk -v p="$1" -v c="$2" -v k="$4" '$1 == p && $2 == c &&
	    $k ~ /^[0-9]+$/ && $k > 0 { print $k / 1000 }' "$OUT/lat.txt" |
	    pcts)
	set -- "$5" "$2" $fb $ex
	if [ "$6" = 0 ]; then fbs="-"; else
		fbs=$(printf "%.1f / %.1f / %.1f" "$3" "$4" "$5"); fi
	if [ "$10" = 0 ]; then exs="-"; else
		exs=$(printf "%.1f / %.1f / %.1f" "$7" "$8" "$9"); fi
	n=$6; [ "$n" = 0 ] && n=${10}
	printf "| %s | %s | %s | %s | %s |\n" "$1" "$2" "$fbs" "$exs" "$n"
}
lat sup true 4 6 "supervisor: connect -> exit frame"
lat bare true 4 7 "bare StartTransientUnit: call -> stop + stream EOF"
lat bare true 4 6 "bare StartTransientUnit: call -> main exit seen"
lat sdpipe true 4 6 "systemd-run --wait --pipe"
lat sup echo 4 6 "supervisor"
lat bare echo 4 7 "bare StartTransientUnit (exit = stop + EOF)"
lat sdpipe echo 4 6 "systemd-run --wait --pipe"
lat loaded echo 4 6 "supervisor, 15 sessions at full output"
lat loadbare echo 4 7 "bare StartTransientUnit, beside the same 15 sessions"
p50() { awk -v p="$1" -v c="$2" -v k="$3" '$1 == p && $2 == c &&
    $k ~ /^[0-9]+$/ && $k > 0 { print $k / 1000 }' "$OUT/lat.txt" | pcts |
    awk '{ print $1 }'; }
sfb=$(p50 sup echo 4); bfb=$(p50 bare echo 4); sex=$(p50 sup true 6)
bex=$(p50 bare true 7); dex=$(p50 sdpipe true 6)
lp99=$(awk '$1 == "loaded" && $2 == "echo" && $4 > 0 { print $4 / 1000 }' \
    "$OUT/lat.txt" | pcts | awk '{ print $3 }')
lb50=$(p50 loadbare echo 4); lb99=$(awk '$1 == "loadbare" && $2 == "echo" &&
    $4 > 0 { print $4 / 1000 }' "$OUT/lat.txt" | pcts | awk '{ print $3 }')
echo
echo "Supervisor overhead at p50 over the bare D-Bus path: first byte" \
    "**$(awk -v a="$sfb" -v b="$bfb" 'BEGIN { printf "%+.1f", a - b }') ms**" \
    "(echo x; target <= 5 ms), exit" \
    "$(awk -v a="$sex" -v b="$bex" 'BEGIN { printf "%+.1f", a - b }') ms" \
    "(true, against call -> stop + EOF).  Supervisor / systemd-run --pipe" \
    "to exit at p50 (true): $(ratio "$sex" "$dex")."
echo "Start p99 under load / idle p50 (echo x, first byte):" \
    "$(ratio "$lp99" "$sfb") (target <= 2x).  ERR_BUSY retries under" \
    "load: $(awk '$1 == "busy" { print $2 }' "$OUT/lat.txt")."
echo "The bare StartTransientUnit path beside the same load: p99 / its own" \
    "idle p50 $(ratio "$lb99" "$bfb"), p50 / idle p50 $(ratio "$lb50" "$bfb")."
fails=$(awk '($1 == "sup" || $1 == "loaded") && $4 == "error" { n++ }
    END { print n + 0 }' "$OUT/lat.txt")
echo "Sessions refused with an error frame: $fails."
# An exit frame must say CLD_EXITED (1), and echo x must have printed.
odd=$(awk '($1 == "sup" || $1 == "loaded") && NF >= 11 &&
    ($9 != 1 || ($2 == "echo" && $8 != 3)) { print }' "$OUT/lat.txt")
if [ -n "$odd" ]; then
	echo "**Sessions whose exit frame is wrong** (not code 1, or echo x"
	echo "without its 3 output bytes; fields: path cmd idx first last exit"
	echo "input bytes code status result):"
	echo
	echo '```'
	echo "$odd"
	echo '```'
else
	echo "Every exit frame said code 1 (exited); every echo x delivered x."
fi

echo
echo "### 16 concurrent sessions at full output"
echo
agg=$(awk '$1 == "conc" { b[$2] += $8; w[$2] = $9 }
    END { for (r in b) if (w[r] > 0) print b[r] / w[r] }' "$OUT/conc.txt" |
    stats)
fair=$(awk '$1 == "conc" { if (!($2 in mn) || $8 < mn[$2]) mn[$2] = $8;
    if ($8 > mx[$2]) mx[$2] = $8 }
    END { for (r in mx) if (mx[r] > 0) print mn[r] / mx[r] }' \
    "$OUT/conc.txt" | stats)
nses=$(awk '$1 == "conc" { n[$2]++ } END { for (r in n) print n[r] }' \
    "$OUT/conc.txt" | stats)
echo "| figure | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row3 "aggregate MB/s over the window" "$agg"
set -- $fair
printf "| fairness: min/max bytes per session | %.2f | %.2f | %.2f | %s |\n" \
    "$1" "$2" "$3" "$4"
set -- $nses
echo "| sessions per run (min/median/max) | $1 | $2 | $3 | $4 |"
set -- $agg; a=$2
echo
echo "Aggregate / single-session supervisor median: $(ratio "$a" "$sm")."

echo
echo "### Memory (KiB)"
echo
echo "VmRSS (peak VmHWM) counts every page mapped: for the parent that includes"
echo "the shared clean pages of libc and libsystemd (libc alone is ~1.5 MiB of"
echo "it); the relay is static-pie and maps no shared library. Pss and"
echo "Private_Dirty are the process's own share."
echo
echo "| moment | parent VmRSS (HWM) | parent Pss / Private_Dirty | relay VmRSS (HWM) | relay Pss / Private_Dirty |"
echo "|---|---:|---:|---:|---:|"
awk '$1 == "M" { printf "| %s | %s (%s) | %s / %s | %s (%s) | %s / %s |\n",
    $2, $3, $4, (NF >= 10 ? $7 : "-"), (NF >= 10 ? $8 : "-"), $5, $6,
    (NF >= 10 ? $9 : "-"), (NF >= 10 ? $10 : "-") }' "$OUT/mem.txt"
sl=$(awk '$1 == "L" { print $6 }' "$OUT/slow.txt")
echo
echo "Slow reader: ${sl:-?} payload bytes in complete frames reached it at" \
    "1 KiB/s while the command had 256 MiB to write; relay RSS" \
    "slow-3s -> slow-9s:" \
    "$(awk '$2 == "slow-3s" { a = $5 } $2 == "slow-9s" { b = $5 }
    END { printf "%+d KiB", b - a }' "$OUT/mem.txt")."
echo "Targets: parent <= 4096 KiB; relay <= 2048 KiB + 64 KiB per session" \
    "(3072 KiB with 16)."

echo
echo "### Tail loss (4096 bytes then exit 3)"
echo
awk '$1 == "J" && NF >= 10 { n++; if ($7 != 4096) s++; if ($9 != 3) x++ }
    $1 == "J" && NF < 10 { e++ }
    $1 == "#" { busy = $3 }
    END { printf "%d sessions ended with an exit frame; short outputs: " \
    "**%d**; wrong exit status: %d; errors/EOF without exit frame: %d; " \
    "ERR_BUSY retries: %d.\n", n, s, x, e, busy }' "$OUT/tail.txt"

echo
echo "### Relay hot path under callgrind (opty-relaypath, instructions per MiB)"
echo
echo "| direction | Ir for 0 MiB | Ir for 64 MiB | Ir per MiB |"
echo "|---|---:|---:|---:|"
awk '{ ir[$2 " " $3] = $4 } END {
    split("out in", d, " ")
    for (i = 1; i <= 2; i++) printf "| %s | %d | %d | %d |\n", d[i],
        ir[d[i] " 0"], ir[d[i] " 64"], (ir[d[i] " 64"] - ir[d[i] " 0"]) / 64 }' \
    "$OUT/cg.txt"
for m in out in; do
	[ -s "$OUT/cg.$m.top" ] || continue
	echo
	echo "Top functions, $m, 64 MiB:"
	echo
	echo '```'
	cat "$OUT/cg.$m.top"
	echo '```'
done
echo
echo "### Relay profile under perf (cpu-clock samples, one output run)"
echo
if [ -s "$OUT/perf.top" ]; then
	echo '```'
	cat "$OUT/perf.top"
	echo '```'
else
	echo "perf was not usable here: $(cat "$OUT/perf.err" 2>/dev/null)."
fi
