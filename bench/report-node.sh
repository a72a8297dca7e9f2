# report-node.sh: the Node comparison's section of the results (markdown
# on stdout) from OUT/node.txt and OUT/node-lat.txt (bench/nodebench.sh),
# with the Node module's performance targets judged.  Run by report.sh in a full
# run and by bench.sh alone for make bench-node.  Test-only.
#	sh bench/report-node.sh OUTDIR
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

OUT=${1:?usage: report-node.sh OUTDIR}
[ -s "$OUT/node.txt" ] || { echo "(no Node comparison in this run)"; exit 0; }

# stats: the numbers on stdin as "min median max n" (nearest rank).
stats() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (NR == 0) { print "- - - 0"; exit }
		printf "%s %s %s %d\n", v[1], v[int((NR + 1) / 2)], v[NR], NR }'
}
# col PATH EXPR: EXPR (awk, on the fields of the N lines of PATH that
# ended with status 0: N PATH RUN BYTES FIRST_US LAST_US EXIT_US CODE
# SIGNAL CONNECT_US HELPER_US HELPER_EXIT_US CPU_US) per run, then stats.
col() {
	awk -v p="$1" '$1 == "N" && $2 == p && $8 == 0 && $6 > 0 {
	    print '"$2"' }' "$OUT/node.txt" | stats
}
# lat PATH FIELD: field FIELD (ms) of the L lines of PATH (L PATH
# FIRST_US EXIT_US CONNECT_US HELPER_US HELPER_EXIT_US), then stats.
lat() {
	[ -s "$OUT/node-lat.txt" ] || { echo "- - - 0"; return; }
	awk -v p="$1" -v f="$2" '$1 == "L" && $2 == p && $f != "-" {
	    print $f / 1000 }' "$OUT/node-lat.txt" | stats
}
row() {
	echo "$3" | awk -v n="$1" -v d="$2" '{
	    for (i = 1; i <= 3; i++) if ($i != "-") $i = sprintf("%.*f", d, $i)
	    printf "| %s | %s | %s | %s | %s |\n", n, $1, $2, $3, $4 }'
}
med() { echo "$1" | awk '{ print $2 }'; }
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == "-" || b + 0 == 0 ||
	    a == "-") print "-"; else printf "%.2f\n", a / b }'
}
# judge WHAT MET: "met" or "**NOT met**" with WHAT after it.
judge() {
	if [ "$2" = 1 ]; then echo "met ($1)"; else echo "**NOT met** ($1)"; fi
}
conf() { sed -n "s/^CONF.* $1=\([0-9]*\).*/\1/p" "$OUT/env.txt"; }
nconf() { sed -n "s/^NODECONF.* $1=\([0-9]*\).*/\1/p" "$OUT/env.txt"; }

np=$(col nodepty '$4 / $6'); md=$(col module '$4 / $6')
nps=$(col nodepty-str '$4 / $6'); mds=$(col module-str '$4 / $6')
npf=$(col nodepty '$5 / 1000'); mdf=$(col module '$5 / 1000')

echo "### Node: node-pty vs the module through the supervisor"
echo
echo "$(sed -n 's/^NODE //p' "$OUT/env.txt"); \`head -c $(conf tput_mib)M" \
    "/dev/zero | base64 -w 76\` on a 24x80 terminal, read by" \
    "\`bench/nodetput.js\` as the MainPID of opencode-v2.service (byk) as" \
    "Buffers (\`encoding: null\`) and as strings (the default, UTF-8), the" \
    "four paths in turns, run by run. MB/s = output bytes (10^6) / time" \
    "from just before \`spawn()\` to the last output byte."
echo
echo "| path | min | median | max | runs |"
echo "|---|---:|---:|---:|---:|"
row "node-pty, Buffers (MB/s)" 1 "$np"
row "client/node through the supervisor, Buffers (MB/s)" 1 "$md"
row "node-pty, strings (MB/s)" 1 "$nps"
row "client/node through the supervisor, strings (MB/s)" 1 "$mds"
row "node-pty, Buffers: the Node process's CPU per 10^6 bytes (ms)" 2 \
    "$(col nodepty '$13 * 1000 / $4')"
row "client/node, Buffers: the Node process's CPU per 10^6 bytes (ms)" 2 \
    "$(col module '$13 * 1000 / $4')"
row "node-pty, strings: the Node process's CPU per 10^6 bytes (ms)" 2 \
    "$(col nodepty-str '$13 * 1000 / $4')"
row "client/node, strings: the Node process's CPU per 10^6 bytes (ms)" 2 \
    "$(col module-str '$13 * 1000 / $4')"
row "node-pty: spawn() -> first byte of the command above (ms)" 1 "$npf"
row "client/node: spawn() -> first byte of the command above (ms)" 1 "$mdf"
echo
rb=$(ratio "$(med "$md")" "$(med "$np")")
rs=$(ratio "$(med "$mds")" "$(med "$nps")")
echo "Ratios of medians, client/node / node-pty: Buffers ${rb}x, strings" \
    "${rs}x."
bad=$(awk '$1 == "N" && $8 != 0 { n++ } END { print n + 0 }' "$OUT/node.txt")
sizes=$(awk '$1 == "N" { n[$4]++ } END { print length(n) }' "$OUT/node.txt")
echo "Runs that did not end with status 0: $bad. Distinct output sizes:" \
    "$sizes (1: every path delivered every byte)."
# A full run also measured the same command from C (bench/inner.sh's
# throughput section): the bare call read directly, no relay, no Node.
if [ -s "$OUT/tput.txt" ]; then
	tb=$(awk '$1 == "bare" && $5 > 0 { print $8 / $5 }' \
	    "$OUT/tput.txt" | stats)
	ts=$(awk '$1 == "sup" && NF >= 11 && $5 > 0 { print $8 / $5 }' \
	    "$OUT/tput.txt" | stats)
	echo "The same command in this run's C throughput runs (medians):" \
	    "bare \`StartTransientUnit\`, its master read directly" \
	    "$(med "$tb" | awk '{ printf "%.1f", $1 }') MB/s, the supervisor" \
	    "through \`opty-benchc\` $(med "$ts" | awk '{ printf "%.1f",
	    $1 }') MB/s: node-pty / bare = $(ratio "$(med "$np")" \
	    "$(med "$tb")")x, client/node (Buffers) / bare =" \
	    "$(ratio "$(med "$md")" "$(med "$tb")")x."
fi
echo
echo "#### spawn() -> first byte, \`echo x\`"
echo
echo "$(nconf lat_n) sessions per path, in turns of $(nconf lat_block)" \
    "sessions. node-pty and client/node: \`bench/nodetput.js -n\`, one" \
    "Node process per turn running its sessions one after the other as" \
    "the service does (after one more, not counted), from just before" \
    "\`spawn()\`; bare: the" \
    "\`StartTransientUnit\` call with the parent's properties and a" \
    "terminal made as the parent makes it, from the call" \
    "(\`opty-benchunit\`); supervisor: \`opty-benchc\` (no helper), from" \
    "connect. The module's steps are timed from outside it (its" \
    "\`net.connect\` and \`child_process.spawn\` wrapped)."
echo
echo "| path, step | min | median | max | n |"
echo "|---|---:|---:|---:|---:|"
lnp=$(lat nodepty 3); lmd=$(lat module 3)
lba=$(lat bare 3); lsu=$(lat sup 3)
row "node-pty: spawn() -> first byte (ms)" 1 "$lnp"
row "client/node: spawn() -> socket connected (ms)" 1 "$(lat module 5)"
row "client/node: spawn() -> helper exec'd (ms)" 1 "$(lat module 6)"
row "client/node: spawn() -> helper exited, start frame sent (ms)" 1 \
    "$(lat module 7)"
row "client/node: spawn() -> first byte (ms)" 1 "$lmd"
row "bare StartTransientUnit: call -> first byte (ms)" 1 "$lba"
row "supervisor (opty-benchc): connect -> first byte (ms)" 1 "$lsu"
echo
dm=$(awk -v a="$(med "$lmd")" -v b="$(med "$lba")" 'BEGIN {
    if (a == "-" || b == "-") print "-"; else printf "%+.1f\n", a - b }')
echo "##### Targets of the Node module, this run"
echo
echo "* Module output throughput, Buffers, >= 0.95x node-pty:" \
    "$(judge "${rb}x" "$(awk -v r="$rb" 'BEGIN { print (r != "-" &&
    r >= 0.95) }')")."
echo "* Module output throughput, strings, >= 0.95x node-pty:" \
    "$(judge "${rs}x" "$(awk -v r="$rs" 'BEGIN { print (r != "-" &&
    r >= 0.95) }')")."
echo "* \`spawn()\` -> first byte within 10 ms of the bare" \
    "\`StartTransientUnit\` path's first byte (medians, \`echo x\`):" \
    "$(judge "$(med "$lmd" | awk '{ printf "%.1f", $1 }') vs $(med "$lba" |
    awk '{ printf "%.1f", $1 }') ms: $dm ms" "$(awk -v d="$dm" \
    'BEGIN { print (d != "-" && d + 0 <= 10) }')")."
