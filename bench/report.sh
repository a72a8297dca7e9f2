# report.sh: turns the raw lines bench/inner.sh wrote into the results
# section of docs/BENCHMARKS.md (markdown on stdout).  Test-only, never
# installed; runs on the host after the disposable systemd is gone.
#	sh bench/report.sh OUTDIR
# Numbers are reported, never judged: nothing here fails on a figure.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

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
BEFORE=$(dirname "$0")/before.txt
before() { awk -v k="$1" '$1 == k { print $2 }' "$BEFORE"; }
# pick FIELD "a b c d": the FIELDth word (1-based).
pick() { echo "$2" | awk -v f="$1" '{ print $f }'; }
# lat_pcts PATH CMD COL: "p50 p90 p99 n" of a column of lat.txt, in ms.
lat_pcts() {
	awk -v p="$1" -v c="$2" -v k="$3" '$1 == p && $2 == c &&
	    $k ~ /^[0-9]+$/ && $k > 0 { print $k / 1000 }' "$OUT/lat.txt" |
	    pcts
}
# verdict OK: "met" or "**NOT met**".
verdict() { if [ "$1" = 1 ]; then echo "met"; else echo "**NOT met**"; fi; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a != "" && b != "" &&
    a != "-" && b != "-" && a + 0 <= b + 0) ? 1 : 0 }'; }

# Output throughput, MB/s: U lines (script, bare) and J lines (sup):
# $5 last byte, $8 bytes; X lines (sdpty): $5 last, $7 bytes.
sup=$(awk '$1 == "sup" && NF >= 11 && $5 > 0 { print $8 / $5 }' \
    "$OUT/tput.txt" | stats)
osu=$(awk '$1 == "oldsup" && NF >= 11 && $5 > 0 { print $8 / $5 }' \
    "$OUT/tput.txt" | stats)
scr=$(awk '$1 == "script" && $5 > 0 { print $8 / $5 }' "$OUT/tput.txt" |
    stats)
bar=$(awk '$1 == "bare" && $5 > 0 { print $8 / $5 }' "$OUT/tput.txt" |
    stats)
sdp=$(awk '$1 == "sdpty" && $5 > 0 { print $7 / $5 }' "$OUT/tput.txt" |
    stats)
sm=$(pick 2 "$sup"); cm=$(pick 2 "$scr"); pm=$(pick 2 "$sdp")
om=$(pick 2 "$osu")
bm=$(pick 2 "$bar")
cpu=$(awk -v t="$TICK" '$1 == "sup" && NF >= 11 { b[$2] = $8 }
    $1 == "cpu" { c[$2] = $3 }
    END { for (r in c) if (b[r] > 0) print c[r] / t * 1000 / (b[r] / 1e6) }' \
    "$OUT/tput.txt" | stats)
# Input, MB/s: N / (done marker - first byte), $4 and $5 in every form.
inrate() { awk -v p="$1" -v n="$IN_BYTES" '$1 == p && $5 > $4 &&
    (p != "sup" || NF >= 11) { print n / ($5 - $4) }' "$OUT/input.txt" |
    stats; }
isup=$(inrate sup); iscr=$(inrate script); ibar=$(inrate bare)
isdp=$(inrate sdpty)
ism=$(pick 2 "$isup"); ipm=$(pick 2 "$isdp")
# Latency.
l_sup_true=$(lat_pcts sup true 6); l_sdp_true=$(lat_pcts sdpipe true 6)
l_bar_true=$(lat_pcts bare true 7)
f_sup_echo=$(lat_pcts sup echo 4); f_sdp_echo=$(lat_pcts sdpipe echo 4)
f_bar_echo=$(lat_pcts bare echo 4); f_scr_echo=$(lat_pcts script echo 4)
f_loaded=$(lat_pcts loaded echo 4); f_loadbare=$(lat_pcts loadbare echo 4)
e_sup_echo=$(lat_pcts sup echo 6)
# Memory: VmRSS at the first moment, VmHWM at the last (the peak).
mem_at() { awk -v m="$1" -v f="$2" '$1 == "M" && $2 == m { print $f }' \
    "$OUT/mem.txt"; }
m16() { awk -v f="$1" '$1 == "M" && $2 ~ /^16-sessions/ && $f > x {
    x = $f } END { print x + 0 }' "$OUT/mem.txt"; }
p_idle=$(mem_at idle-start 3); p_peak=$(mem_at idle-end 4)
r_idle=$(mem_at idle-start 5); r_peak=$(mem_at idle-end 6)
p_16=$(m16 3); r_16=$(m16 5)

echo "Run: $(sed -n 's/^CONF //p' "$OUT/env.txt"); $(sed -n \
    's/^NPROC //p' "$OUT/env.txt") CPUs; kernel $(sed -n 's/^KERNEL //p' \
    "$OUT/env.txt"); $(sed -n 's/^SYSTEMD //p' "$OUT/env.txt")."
echo
echo "### Before and after"
echo
echo "Before: the previous full run, quoted from docs/BENCHMARKS.md as it"
echo "stood at commit b08f057 (2026-12-02, the same knobs as a full run;"
echo "\`bench/before.txt\`), when the launcher ran every command through"
echo "script(1). After: this run. Medians of MB/s; latencies in ms."
echo
echo "| figure | before | after |"
echo "|---|---:|---:|"
row2() { printf "| %s | %s | %s |\n" "$1" "$2" "$3"; }
row2 "output, supervisor (MB/s)" "$(before tput_sup)" "$(echo "$sm" | f1)"
row2 "output, old script path (MB/s)" "$(before tput_script)" \
    "$(echo "$cm" | f1)"
row2 "output, previous build's supervisor, this run (MB/s)" "-" \
    "$(echo "$om" | f1)"
row2 "output, systemd-run --pty (MB/s)" "$(before tput_sdpty)" \
    "$(echo "$pm" | f1)"
row2 "output, supervisor / old script path" \
    "$(ratio "$(before tput_sup)" "$(before tput_script)")" \
    "$(ratio "$sm" "$cm")"
row2 "CPU per MB relayed, parent + relay (ms)" "$(before cpu_mb)" \
    "$(pick 2 "$cpu" | f2)"
row2 "input, supervisor (MB/s)" "$(before in_sup)" "$(echo "$ism" | f1)"
row2 "first byte p50, echo x: supervisor" "$(before fb_sup_echo)" \
    "$(pick 1 "$f_sup_echo" | f1)"
row2 "first byte p50, echo x: systemd-run --wait --pipe" \
    "$(before fb_sdpipe_echo)" "$(pick 1 "$f_sdp_echo" | f1)"
row2 "exit frame p50, true: supervisor" "$(before ex_sup_true)" \
    "$(pick 1 "$l_sup_true" | f1)"
row2 "exit p50, true: systemd-run --wait --pipe" "$(before ex_sdpipe_true)" \
    "$(pick 1 "$l_sdp_true" | f1)"
row2 "exit frame p50, echo x: supervisor" "$(before ex_sup_echo)" \
    "$(pick 1 "$e_sup_echo" | f1)"
row2 "start p99 beside 15 loads: supervisor" "$(before load_sup_p99)" \
    "$(pick 3 "$f_loaded" | f1)"
row2 "start p99 beside 15 loads: bare StartTransientUnit" \
    "$(before load_bare_p99)" "$(pick 3 "$f_loadbare" | f1)"
row2 "parent VmRSS idle at start (KiB)" "$(before parent_idle)" "$p_idle"
row2 "parent VmHWM at the end (KiB)" "$(before parent_peak)" "$p_peak"
row2 "relay VmRSS idle at start (KiB)" "$(before relay_idle)" "$r_idle"
row2 "relay VmRSS, 16 sessions (max, KiB)" "$(before relay_16)" "$r_16"
row2 "relay VmHWM at the end (KiB)" "$(before relay_peak)" "$r_peak"
echo
echo "The loads differ: before, each of the 15 loads ran under script(1)"
echo "(one more process and copy per byte); after, the command writes to"
echo "the terminal itself. The old script path above is this run's, with"
echo "the old launcher (see \"The paths\")."

echo
echo "### Targets of the supervisor, this run"
echo
t1=$(awk -v a="$sm" -v b="$cm" 'BEGIN { print (b > 0 && a / b >= 1.2) }')
echo "* Output throughput >= 1.2x the old script path:" \
    "$(verdict "$t1") ($(echo "$sm" | f1) / $(echo "$cm" | f1) MB/s ="\
    "$(ratio "$sm" "$cm") at the medians)."
t1o=$(awk -v a="$sm" -v b="$om" 'BEGIN { print (b > 0 && a / b >= 1.2) }')
echo "* The same against the previous build's whole supervisor path" \
    "(script(1) and its relay, measured in turns with the others):" \
    "$(verdict "$t1o") ($(echo "$sm" | f1) / $(echo "$om" | f1) MB/s ="\
    "$(ratio "$sm" "$om"))."
t2=$(awk -v a="$sm" -v b="$pm" 'BEGIN { print (b > 0 && a / b >= 1.0) }')
echo "* Output throughput >= 1.0x systemd-run --pty: $(verdict "$t2")" \
    "($(echo "$sm" | f1) / $(echo "$pm" | f1) MB/s = $(ratio "$sm" "$pm"))."
t3=$(awk -v a="$ism" -v b="$ipm" 'BEGIN { print (b > 0 && a / b >= 1.0) }')
echo "* Input throughput >= 1.0x systemd-run --pty: $(verdict "$t3")" \
    "($(echo "$ism" | f1) / $(echo "$ipm" | f1) MB/s = $(ratio "$ism" "$ipm"))."
a=$(pick 1 "$f_sup_echo"); b=$(pick 1 "$f_sdp_echo")
t4=$(awk -v a="$a" -v b="$b" 'BEGIN { print (a - b <= 5) }')
echo "* Connect -> first output byte p50 within 5 ms of systemd-run" \
    "--wait --pipe (echo x): $(verdict "$t4") ($(echo "$a" | f1) vs" \
    "$(echo "$b" | f1) ms:" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f", a - b }') ms)."
a=$(pick 1 "$l_sup_true"); b=$(pick 1 "$l_sdp_true")
echo "* Connect -> exit frame for true no slower than systemd-run --wait" \
    "--pipe (p50): $(verdict "$(le "$a" "$b")") ($(echo "$a" | f1) vs" \
    "$(echo "$b" | f1) ms, $(ratio "$a" "$b"); p90 $(pick 2 "$l_sup_true" |
    f1) vs $(pick 2 "$l_sdp_true" | f1))."
a=$(pick 3 "$f_loaded"); b=$(pick 3 "$f_loadbare")
t6=$(awk -v a="$a" -v b="$b" 'BEGIN { print (b > 0 && a <= 1.25 * b) }')
echo "* Beside 15 sessions at full output, the 16th's start p99 within" \
    "1.25x the bare StartTransientUnit path's p99 under the same load:" \
    "$(verdict "$t6") ($(echo "$a" | f1) vs $(echo "$b" | f1) ms =" \
    "$(ratio "$a" "$b"); $(pick 4 "$f_loaded") and $(pick 4 "$f_loadbare")" \
    "probes)."
t7=$(( $(le "$p_idle" "$(before parent_idle)") &
    $(le "$p_peak" "$(before parent_peak)") ))
t8=$(( $(le "$r_idle" "$(before relay_idle)") &
    $(le "$r_peak" "$(before relay_peak)") ))
echo "* Parent RSS unchanged or lower: $(verdict "$t7") (VmRSS idle" \
    "$(before parent_idle) -> $p_idle KiB, peak VmHWM" \
    "$(before parent_peak) -> $p_peak KiB)."
echo "* Relay RSS unchanged or lower: $(verdict "$t8") (VmRSS idle" \
    "$(before relay_idle) -> $r_idle KiB, peak VmHWM" \
    "$(before relay_peak) -> $r_peak KiB; with 16 sessions" \
    "$(before relay_16) -> $r_16 KiB)."
# The previous build measured in this run (inner.sh), same kernel.
op_idle=$(mem_at old-idle-start 3); or_idle=$(mem_at old-idle-start 5)
op_16=$(mem_at old-16-sessions 3); or_16=$(mem_at old-16-sessions 5)
op_peak=$(mem_at old-idle-end 4); or_peak=$(mem_at old-idle-end 6)
# This build after the same steps (new-*, right after its start).
np_16=$(mem_at new-16-sessions 3); nr_16=$(mem_at new-16-sessions 5)
np_peak=$(mem_at new-idle-end 4); nr_peak=$(mem_at new-idle-end 6)
if [ -n "$op_idle" ] && [ -n "$np_16" ]; then
	t9=$(( $(le "$p_idle" "$op_idle") & $(le "$np_16" "$op_16") &
	    $(le "$np_peak" "$op_peak") ))
	t10=$(( $(le "$r_idle" "$or_idle") & $(le "$nr_16" "$or_16") &
	    $(le "$nr_peak" "$or_peak") ))
	echo "* The same two against the previous build installed and" \
	    "measured in this run, both builds through the same steps" \
	    "(same kernel; idle, 5 sessions, then 16 sessions at full" \
	    "output, then idle): parent $(verdict "$t9") (idle $op_idle" \
	    "-> $p_idle KiB, 16 sessions $op_16 -> $np_16 KiB, VmHWM" \
	    "after the 16 sessions $op_peak -> $np_peak KiB); relay" \
	    "$(verdict "$t10") (idle $or_idle -> $r_idle KiB, 16 sessions" \
	    "$or_16 -> $nr_16 KiB, VmHWM after the 16 sessions $or_peak" \
	    "-> $nr_peak KiB)."
fi

echo
echo "### Output throughput (MB/s, 10^6 bytes per second, connect or call to last byte)"
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row3 "supervisor (opty-benchc)" "$sup"
row3 "previous build's supervisor: script(1) in the unit, its relay" "$osu"
row3 "old script path: old launcher, script(1), socketpair" "$scr"
row3 "bare StartTransientUnit, the parent's terminal" "$bar"
row3 "systemd-run --pty --wait" "$sdp"
echo
echo "Ratio of medians: supervisor / previous build's supervisor =" \
    "$(ratio "$sm" "$om"); supervisor / old script path = $(ratio "$sm" "$cm");" \
    "supervisor / systemd-run --pty = $(ratio "$sm" "$pm"); supervisor /" \
    "bare terminal = $(ratio "$sm" "$bm")."
bad=$(awk '(($1 == "sup" || $1 == "oldsup") && (NF < 11 || $10 != 0)) ||
    ($1 == "sdpty" && $8 != 0) { n++ } END { print n + 0 }' "$OUT/tput.txt")
echo "Runs that did not end with status 0: $bad."
short=$(awk '
    (($1 == "sup" || $1 == "oldsup") && NF >= 11) || $1 == "script" ||
    $1 == "bare" { b = $8 }
    $1 == "sdpty" { b = $7 }
    $1 != "cpu" { n[b]++ } END { print length(n) }' "$OUT/tput.txt")
echo "Distinct output sizes over all runs and paths: $short (1: every path" \
    "delivered every byte)."
set -- $cpu
echo
echo "CPU per MB relayed (parent + relay utime+stime from /proc, ms per" \
    "10^6 output bytes): min $(echo "$1" | f2), median $(echo "$2" | f2)," \
    "max $(echo "$3" | f2) over $4 runs."

echo
sh "$(dirname "$0")/report-node.sh" "$OUT"

echo
echo "### Input throughput (MB/s, ${IN_MIB} MiB, raw mode, first byte to done marker)"
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row3 "supervisor (32 KiB input frames)" "$isup"
row3 "old script path (raw bytes on the socketpair)" "$iscr"
row3 "bare StartTransientUnit (raw bytes on the master)" "$ibar"
row3 "systemd-run --pty --wait (raw bytes on its stdin pipe)" "$isdp"
echo
echo "Ratio of medians: supervisor / systemd-run --pty = $(ratio "$ism" \
    "$ipm"); supervisor / old script path = $(ratio "$ism" \
    "$(pick 2 "$iscr")"); supervisor / bare terminal = $(ratio "$ism" \
    "$(pick 2 "$ibar")")."

echo
echo "### Start latency (ms; p50 / p90 / p99)"
echo
echo "| path | command | to first output byte | to exit | n |"
echo "|---|---|---:|---:|---:|"
lat() {	# lat PATH CMD FIRSTCOL EXITCOL LABEL
	fb=$(lat_pcts "$1" "$2" "$3")
	ex=$(lat_pcts "$1" "$2" "$4")
	set -- "$5" "$2" $fb $ex
	if [ "$6" = 0 ]; then fbs="-"; else
		fbs=$(printf "%.1f / %.1f / %.1f" "$3" "$4" "$5"); fi
	if [ "${10}" = 0 ]; then exs="-"; else
		exs=$(printf "%.1f / %.1f / %.1f" "$7" "$8" "$9"); fi
	n=$6; [ "$n" = 0 ] && n=${10}
	printf "| %s | %s | %s | %s | %s |\n" "$1" "$2" "$fbs" "$exs" "$n"
}
lat sup true 4 6 "supervisor: connect -> exit frame"
lat bare true 4 6 "bare: call -> main exit and unit end seen"
lat bare true 4 7 "bare: call -> EIO"
lat script true 4 7 "old script path: call -> EOF"
lat nomount true 4 7 "bare without the mount sandbox: call -> EIO"
lat sdpipe true 4 6 "systemd-run --wait --pipe"
lat sup echo 4 6 "supervisor"
lat bare echo 4 7 "bare (exit = EIO)"
lat script echo 4 7 "old script path (exit = EOF)"
lat nomount echo 4 7 "bare without the mount sandbox (exit = EIO)"
lat sdpipe echo 4 6 "systemd-run --wait --pipe"
lat loaded echo 4 6 "supervisor, 15 sessions at full output"
lat loadbare echo 4 7 "bare, beside the same 15 sessions"
echo
echo "Supervisor overhead at p50 over the bare path (the same terminal," \
    "the same call): first byte" \
    "$(awk -v a="$(pick 1 "$f_sup_echo")" -v b="$(pick 1 "$f_bar_echo")" \
    'BEGIN { printf "%+.1f", a - b }') ms (echo x), exit" \
    "$(awk -v a="$(pick 1 "$l_sup_true")" -v b="$(pick 1 "$l_bar_true")" \
    'BEGIN { printf "%+.1f", a - b }') ms (true, against EIO)." \
    "Old script path -> bare terminal, first byte p50 (echo x):" \
    "$(pick 1 "$f_scr_echo" | f1) -> $(pick 1 "$f_bar_echo" | f1) ms."
echo "ERR_BUSY retries under load:" \
    "$(awk '$1 == "busy" { print $2 }' "$OUT/lat.txt")."
fails=$(awk '($1 == "sup" || $1 == "loaded") && $4 == "error" { n++ }
    END { print n + 0 }' "$OUT/lat.txt")
echo "Sessions refused with an error frame: $fails."
# An exit frame must say CLD_EXITED (1), and echo x must have printed:
# "x\r\n" through the terminal (3 bytes).
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
ubad=$(awk '($1 == "bare" || $1 == "script" ||
    $1 == "nomount" ||
    $1 == "loadbare") && (($2 == "echo" && $8 != 3) || $7 == 0) { n++ }
    END { print n + 0 }' "$OUT/lat.txt")
echo "Bare and old script sessions without their output or their end: $ubad."
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
