#!/bin/sh
# lint.sh: `make lint`, static analysis of every C file of opencode-pty
# with cppcheck, clang-tidy (configuration: .clang-tidy) and scan-build;
# any finding fails.  Runs on the build host as any user, writes only
# below LINT_BUILD; test-only, never installed.  See docs/ANALYSIS.md.
#
#	sh build-aux/lint.sh		every C file in LINT_DIRS, then
#					scan-build over a fresh full build
#					and build-aux/deadcode.sh
#	sh build-aux/lint.sh FILE...	cppcheck and clang-tidy only
#
#	LINT_BUILD=build/lint	scratch: compile database, scan-build tree
#	LINT_JOBS=2		parallel jobs
#	LINT_DIRS="..."		directories whose *.c are checked
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$REPO" || exit 1
LINT_BUILD=${LINT_BUILD:-build/lint}
LINT_JOBS=${LINT_JOBS:-2}
dirs="parent relay dbusd launcher client proto readiness"
LINT_DIRS=${LINT_DIRS:-"$dirs regress/tools regress/unit fuzz bench"}

fail()
{
	echo "lint: FAIL: $*" >&2
	exit 1
}

now() { date +%s; }

for c in cppcheck clang-tidy scan-build clang make git xargs; do
	command -v "$c" >/dev/null 2>&1 ||
	    fail "$c is not installed (run: make deps)"
done

if [ $# -gt 0 ]; then
	files=
	for f in "$@"; do
		[ -f "$f" ] || fail "no such file: $f"
		case "$f" in /*) ;; *) f=$REPO/$f ;; esac
		files="$files $f"
	done
	scan=0
else
	# shellcheck disable=SC2086
	files=$(find $LINT_DIRS -name '*.c' -type f | LC_ALL=C sort |
	    sed "s|^|$REPO/|")
	scan=1
fi
[ -n "$files" ] || fail "no C file found in: $LINT_DIRS"
# shellcheck disable=SC2086
nfiles=$(echo $files | wc -w)
mkdir -p "$LINT_BUILD" || fail "mkdir $LINT_BUILD"
LINT_BUILD=$(cd "$LINT_BUILD" && pwd -P)
rc=0

# The flags of a real build, so that both tools see what the compiler
# sees; readiness/revision.c, readiness/confs.c and parent/relayproc.c
# also need their generated headers (the last one builds the relay).
mk() { make -s --no-print-directory BUILD="$LINT_BUILD/scan" "$@"; }
cflags=$(mk --eval='lint-cflags: ; @echo $(CFLAGS)' lint-cflags) ||
    fail "cannot read CFLAGS from the GNUmakefile"
mk "$LINT_BUILD/scan/gen/opty-revision.h" ||
    fail "cannot generate the readiness revision header"
mk "$LINT_BUILD/scan/gen/opty-confs.h" ||
    fail "cannot generate the readiness configuration header"
mk "$LINT_BUILD/scan/gen/opty-relay-sha256.h" ||
    fail "cannot generate the relay digest header"
mk "$LINT_BUILD/scan/paths/opty-paths.h" ||
    fail "cannot generate the settings header"
gen=$LINT_BUILD/scan/gen
case "$cflags$REPO$gen" in
*'"'*|*\\*) fail "flags or paths hold a quote or backslash" ;;
esac

# --- KNF's 80 columns (tabs every 8), in the shipped programs' files.
# shellcheck disable=SC2086
long=$(for f in $files; do
	case " $dirs " in *" $(echo "${f#"$REPO"/}" | cut -d/ -f1) "*) ;;
	*) continue ;; esac
	expand "$f" | awk -v f="${f#"$REPO"/}" 'length > 80 {
	    print f ":" NR ": " length " columns" }'
done)
if [ -n "$long" ]; then
	printf '%s\n' "$long" >&2
	echo "lint: lines over 80 columns" >&2
	rc=1
fi

# --- cppcheck: the configuration the build uses (_GNU_SOURCE, the
# project's include path); glibc's headers stay out, its API comes from
# cppcheck's own posix and gnu libraries.
t0=$(now)
echo "lint: cppcheck on $nfiles files"
# shellcheck disable=SC2086
cppcheck -q --enable=warning,style,performance,portability \
    --error-exitcode=1 --inline-suppr --std=c11 --platform=unix64 \
    --library=posix --library=gnu -D_GNU_SOURCE -I"$REPO" -I"$gen" \
    -I"$LINT_BUILD/scan/paths" \
    --suppressions-list="$REPO/lint/cppcheck.supp" -j"$LINT_JOBS" \
    --template='{file}:{line}:{column}: {severity}({id}): {message}' \
    $files || { echo "lint: cppcheck found problems" >&2; rc=1; }
echo "lint: cppcheck done in $(( $(now) - t0 ))s"

# --- clang-tidy: one file per process.  clang-tidy 14 given several
# files in one run carries analyzer state from one to the next (false
# "uninitialized va_list" reports that vanish file by file).
t0=$(now)
db=$LINT_BUILD/db
mkdir -p "$db" || fail "mkdir $db"
{
	echo '['
	sep=
	for f in $files; do
		printf '%s{"directory":"%s","file":"%s",' "$sep" "$REPO" "$f"
		printf '"command":"cc %s -I%s -c %s"}\n' "$cflags" "$gen" "$f"
		sep=,
	done
	echo ']'
} > "$db/compile_commands.json" || fail "cannot write the compile database"
echo "lint: clang-tidy on $nfiles files ($LINT_JOBS jobs)"
# shellcheck disable=SC2086
printf '%s\n' $files | xargs -P "$LINT_JOBS" -n 1 sh -c '
	out=$(clang-tidy --quiet -p "$1" --config-file="$2/.clang-tidy" "$3" \
	    2>&1) && exit 0
	printf "%s\n" "$out" | grep -v "warnings\? generated\.$"
	exit 1' lint-tidy "$db" "$REPO" ||
    { echo "lint: clang-tidy found problems" >&2; rc=1; }
echo "lint: clang-tidy done in $(( $(now) - t0 ))s"

# --- scan-build: the clang static analyzer over a fresh build of every
# program, test and tool, exactly as the GNUmakefile builds them.
if [ $scan = 1 ]; then
	t0=$(now)
	rm -rf "$LINT_BUILD/scan/obj" "$LINT_BUILD/scan/bin" \
	    "$LINT_BUILD/scan/test" "$LINT_BUILD/scan/tools" \
	    "$LINT_BUILD/scan-report" || fail "cannot clean $LINT_BUILD"
	echo "lint: scan-build of a fresh build ($LINT_JOBS jobs)"
	if ! scan-build --status-bugs -o "$LINT_BUILD/scan-report" \
	    make -s --no-print-directory -j"$LINT_JOBS" \
	    BUILD="$LINT_BUILD/scan" all tests tools; then
		# One line per report: where and what.
		for r in "$LINT_BUILD"/scan-report/*/report-*.html; do
			[ -f "$r" ] || continue
			sed -n 's/^<!-- BUGFILE \(.*\) -->$/\1/p;
			    s/^<!-- BUGLINE \(.*\) -->$/:\1/p;
			    s/^<!-- BUGDESC \(.*\) -->$/: \1/p' "$r" |
			    tr -d '\n'
			echo
		done
		echo "lint: scan-build found problems (or the build failed);" \
		    "reports in $LINT_BUILD/scan-report" >&2
		rc=1
	fi
	echo "lint: scan-build done in $(( $(now) - t0 ))s"
fi

# --- dead code: each shipped program carries only what it calls, and
# no function beside the shipped sources is called by none of them.
if [ $scan = 1 ]; then
	t0=$(now)
	DEAD_BUILD=$LINT_BUILD/dead sh "$REPO/build-aux/deadcode.sh" || rc=1
	echo "lint: dead-code check done in $(( $(now) - t0 ))s"
fi

if [ $rc = 0 ]; then
	echo "lint: no findings"
else
	echo "lint: FAIL" >&2
fi
exit $rc
