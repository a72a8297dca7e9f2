# report-input.sh: the table of make bench-input (markdown on stdout)
# from OUT/input.txt (bench/inner.sh, BENCH_ONLY=input).  Test-only.
#	sh bench/report-input.sh OUTDIR
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

OUT=${1:?usage: report-input.sh OUTDIR}
[ -s "$OUT/input.txt" ] || { echo "report-input: no input.txt" >&2; exit 1; }
IN_MIB=$(sed -n 's/.*in_mib=\([0-9]*\).*/\1/p' "$OUT/env.txt")
IN_BYTES=$((IN_MIB * 1048576))

# rate PATH: MB/s per run (bytes over first byte -> done marker, $4 and
# $5 in every form; a supervisor line without its exit fields is a
# failed session), then "min median max n" (nearest rank).
rate() {
	awk -v p="$1" -v n="$IN_BYTES" '$1 == p && $5 > $4 &&
	    (p != "sup" || NF >= 11) { print n / ($5 - $4) }' \
	    "$OUT/input.txt" | sort -g | awk '{ v[NR] = $1 }
	    END { if (NR == 0) { print "- - - 0"; exit }
		printf "%.1f %.1f %.1f %d\n", v[1], v[int((NR + 1) / 2)],
		    v[NR], NR }'
}
row() {
	echo "$2" | awk -v n="$1" '{
	    printf "| %s | %s | %s | %s | %s |\n", n, $1, $2, $3, $4 }'
}
sup=$(rate sup); bare=$(rate bare); nom=$(rate nomount)
sdp=$(rate sdpty); sdn=$(rate sdptyns)
echo "### Input throughput alone (MB/s, ${IN_MIB} MiB, raw mode, first byte to done marker)"
echo
echo "$(sed -n 's/^NPROC //p' "$OUT/env.txt") CPUs;" \
    "kernel $(sed -n 's/^KERNEL //p' "$OUT/env.txt")."
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row "supervisor (32 KiB input frames)" "$sup"
row "bare StartTransientUnit, the parent's properties" "$bare"
row "bare, without the mount sandbox (-M)" "$nom"
row "systemd-run --pty --wait" "$sdp"
row "systemd-run --pty --wait -p PrivateTmp=yes -p NoNewPrivileges=yes" "$sdn"
echo
med() { echo "$1" | awk '{ print $2 }'; }
echo "$(med "$sup") $(med "$sdp") $(med "$bare") $(med "$nom")" | awk '
    $2 > 0 && $3 > 0 && $4 > 0 {
	printf "Ratio of medians: supervisor / systemd-run --pty = %.2fx;" \
	    " supervisor / bare = %.2fx; bare / bare without the mount" \
	    " sandbox = %.2fx.\n", $1 / $2, $1 / $3, $3 / $4 }'
