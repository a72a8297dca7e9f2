#!/bin/sh
# no-registry-host.sh: no package registry's host name in the repository
# (issue 26): the Debian mirror comes from the host's apt sources
# (regress/roots.sh), the npm registry from npm's configuration
# (build-aux/npmpkg.sh).  Run by make check-unit on the tracked tree;
# regress/matrix.sh runs it on the logs it keeps (FILE... given: those
# files are scanned instead).  Fails naming each file and line.  Runs
# on the build host as any user; reads only.
#
#	sh regress/host/no-registry-host.sh [FILE...]
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd -P)
fails=0
fail() { echo "no-registry-host: FAIL: $*"; fails=$((fails + 1)); }

# The names, each built from its labels so that this file names none.
# join LABEL...: the labels with a literal dot between them.
join()
{
	local p=$1
	shift
	for l; do p="${p}[.]$l"; done
	echo "$p"
}
hosts=
for h in "deb debian org" "ftp debian org" "security debian org" \
    "httpredir debian org" "snapshot debian org" "archive ubuntu com" \
    "security ubuntu com" "registry npmjs org" "registry yarnpkg com" \
    "registry npmmirror com" "deb nodesource com" "pypi org" \
    "files pythonhosted org" "crates io" "static crates io" \
    "index crates io" "proxy golang org" "rubygems org" \
    "repo maven apache org" "repo1 maven org"; do
	# shellcheck disable=SC2086
	hosts="${hosts:+$hosts|}$(join $h)"
done
pat="(^|[^A-Za-z0-9.-])($hosts)([^A-Za-z0-9-]|$)"

# Positive control: the pattern finds a planted name, and only that.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/opty-noreg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'x\nmirror=http://%s.%s.%s/debian\ny\n' deb debian org \
    > "$tmp/planted"
printf 'registry: https://%s.%s.%s/\n' registry npmjs org >> "$tmp/planted"
printf 'not.deb.%s.%s.example\n' debian org > "$tmp/clean"
[ "$(grep -cE "$pat" "$tmp/planted")" = 2 ] ||
    fail "the pattern does not find the two planted names"
grep -qE "$pat" "$tmp/clean" &&
    fail "the pattern matches a name that only contains a registry's"

if [ $# -gt 0 ]; then
	what="$# log file(s)"
	for f; do
		[ -r "$f" ] || { fail "$f: cannot read"; continue; }
		grep -nE "$pat" "$f" | cut -c1-160 | while read -r l; do
			echo "no-registry-host: FAIL: $f:$l"
		done
		grep -qE "$pat" "$f" && fails=$((fails + 1))
	done
else
	cd "$REPO" || exit 1
	command -v git >/dev/null 2>&1 ||
	    { fail "git is missing (make deps)"; exit 1; }
	n=$(git ls-files | wc -l)
	[ "$n" -gt 100 ] || fail "only $n tracked files: git ls-files broken?"
	what="$n tracked files"
	for f in $(git ls-files); do
		[ -f "$f" ] || continue
		grep -qIE "$pat" "$f" || continue
		fail "$f names a registry host:"
		grep -nIE "$pat" "$f" | cut -c1-160 | sed 's/^/  /'
	done
fi
[ $fails = 0 ] && echo "no-registry-host: ok ($what; positive control" \
    "found the planted names)"
[ $fails = 0 ]
