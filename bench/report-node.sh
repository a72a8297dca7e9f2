# report-node.sh: the Node comparison's section of the results (markdown
# on stdout) from OUT/node.txt (bench/nodebench.sh).  Run by report.sh
# in a full run and by bench.sh alone for make bench-node.  Test-only.
#	sh bench/report-node.sh OUTDIR
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

OUT=${1:?usage: report-node.sh OUTDIR}
[ -s "$OUT/node.txt" ] || { echo "(no Node comparison in this run)"; exit 0; }

# col PATH EXPR: EXPR (awk, on the fields of the N lines of PATH that
# ended with status 0: N PATH RUN BYTES FIRST_US LAST_US EXIT_US CODE
# SIGNAL) per run, then "min median max n" (nearest rank).
col() {
	awk -v p="$1" '$1 == "N" && $2 == p && $8 == 0 && $6 > 0 {
	    print '"$2"' }' "$OUT/node.txt" | sort -g | awk '{ v[NR] = $1 }
	    END { if (NR == 0) { print "- - - 0"; exit }
		printf "%s %s %s %d\n", v[1], v[int((NR + 1) / 2)], v[NR], NR }'
}
row() {
	echo "$3" | awk -v n="$1" -v d="$2" '{
	    for (i = 1; i <= 3; i++) if ($i != "-") $i = sprintf("%.*f", d, $i)
	    printf "| %s | %s | %s | %s | %s |\n", n, $1, $2, $3, $4 }'
}
np=$(col nodepty '$4 / $6'); md=$(col module '$4 / $6')
npf=$(col nodepty '$5 / 1000'); mdf=$(col module '$5 / 1000')
npm=$(echo "$np" | awk '{ print $2 }'); mdm=$(echo "$md" | awk '{ print $2 }')
conf() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$OUT/env.txt"; }

echo "### Node: node-pty vs the module through the supervisor"
echo
echo "$(sed -n 's/^NODE //p' "$OUT/env.txt"); \`head -c $(conf tput_mib)M" \
    "/dev/zero | base64 -w 76\` on a 24x80 terminal, read as Buffers by" \
    "\`bench/nodetput.js\` as the MainPID of opencode-v2.service (byk), the" \
    "two paths in turns, run by run. MB/s = output bytes (10^6) / time" \
    "from just before \`spawn()\` to the last output byte."
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row "node-pty: a PTY of the Node process (MB/s)" 1 "$np"
row "client/node through the supervisor (MB/s)" 1 "$md"
row "node-pty: spawn() -> first byte (ms)" 1 "$npf"
row "client/node: spawn() -> first byte (ms)" 1 "$mdf"
echo
echo "Ratio of medians: client/node through the supervisor / node-pty =" \
    "$(awk -v a="$mdm" -v b="$npm" 'BEGIN { if (b + 0 == 0) print "-";
    else printf "%.2fx\n", a / b }')."
bad=$(awk '$1 == "N" && $8 != 0 { n++ } END { print n + 0 }' "$OUT/node.txt")
sizes=$(awk '$1 == "N" { n[$4]++ } END { print length(n) }' "$OUT/node.txt")
echo "Runs that did not end with status 0: $bad. Distinct output sizes:" \
    "$sizes (1: both paths delivered every byte)."
