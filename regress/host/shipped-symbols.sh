#!/bin/sh
# shipped-symbols.sh: host-level check of the built programs (run by
# `make check-unit`; test-only; any user).  Nothing shipped exists for
# the tests: every global symbol (function or data: nm types T, D, B,
# R) that an object of a shipped program defines is referenced by
# another object of a program that links it, or by a library that
# program links (relay/nonss.c's resolver stand-ins, which libevent's
# evutil.o calls: seen in the program's link, ld -y).  One defined for
# a test, or used only inside its own file, fails: the test compiles
# the .c file or drives the real entry point, and the symbol is static.
# main is the one exception.  A proto/ object shared by two programs
# may define what only one of them uses: the link's --gc-sections
# keeps it out of the other's binary (build-aux/deadcode.sh checks).
# Second, every field of a struct of this tree that the shipped sources
# use is read by them somewhere (clang-query over each shipped source):
# a use counts unless it is the left side of an assignment (compound
# ones too) or a ++ or -- whose value is dropped; a struct passed to
# syscall() or ioctl() by address is read whole (the kernel reads it,
# padding too); a union's
# members are views of one storage and are not checked.  A read is
# counted generously (sizeof, an address taken), so a field flagged is
# written and never read.
# Positive controls: the symbol probe, run on a program of two objects
# built here, finds exactly the function and the datum no other object
# refers to and the function called only inside its own file; the
# field probe, run on a file written here, finds exactly its field only
# assigned and its counter only incremented.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
CC=${CC:-cc}
command -v nm >/dev/null 2>&1 ||
    { echo "shipped-symbols: FAIL: nm is missing (binutils)" >&2; exit 1; }
command -v clang-query >/dev/null 2>&1 || { echo "shipped-symbols: FAIL:" \
    "clang-query is missing (make deps)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Reads "program<TAB>objects<TAB>link flags" lines; prints "object
# symbol" for each global definition no other object of a program
# linking it refers to, and that no library of such a program refers to.
unreferenced() {
	: > "$tmp/defs"
	: > "$tmp/uses"
	while IFS='	' read -r p objs ldflags; do
		for o in $objs; do
			[ -f "$o" ] || { echo "shipped-symbols: FAIL: $o" \
			    "not built" >&2; return 1; }
			nm --defined-only "$o" |
			    awk -v p="$p" -v o="$o" '$2 ~ /^[TDBR]$/ &&
				$3 != "main" { print p, o, $3 }'
		done >> "$tmp/defs"
		for o in $objs; do
			nm -u "$o" |
			    awk -v p="$p" -v o="$o" '{ print p, o, $NF }'
		done >> "$tmp/uses"
	done
	# Referred to by another object of the same program.
	awk 'NR == FNR { u[$1 " " $3] = u[$1 " " $3] " " $2; next }
	    { n = split(u[$1 " " $3], a, " ")
	      for (i = 1; i <= n; i++)
		if (a[i] != $2) { print $2, $3; next } }' \
	    "$tmp/uses" "$tmp/defs" | sort -u > "$tmp/used"
	awk '{ print $2, $3 }' "$tmp/defs" | sort -u |
	    comm -23 - "$tmp/used" > "$tmp/left"
}

# The rest, each program linked again with ld tracing them: a reference
# from anything but our own objects (a library) counts.
library_refs() {
	: > "$tmp/libused"
	[ -s "$tmp/left" ] || return 0
	while IFS='	' read -r p objs ldflags; do
		for o in $objs; do echo "$o"; done > "$tmp/ours"
		ys=$(awk 'NR == FNR { ours[$1] = 1; next }
		    ($1 in ours) { printf " -Wl,-y,%s", $2 }' \
		    "$tmp/ours" "$tmp/left")
		[ -n "$ys" ] || continue
		# Tracing is a warning to the linker: not fatal here.
		# shellcheck disable=SC2086
		ld=$(printf '%s\n' $ldflags |
		    grep -vx -e '-Wl,--fatal-warnings')
		# shellcheck disable=SC2086
		"$CC" -o "$tmp/link" $objs $ld $ys > "$tmp/ld.out" 2>&1 ||
		    { cat "$tmp/ld.out" >&2; echo "shipped-symbols: FAIL:" \
		    "$p: the traced link failed" >&2; return 1; }
		sed -n 's/^[^:]*: \(.*\): reference to \(.*\)$/\1 \2/p' \
		    "$tmp/ld.out" |
		    awk 'NR == FNR { ours[$1] = 1; next } !($1 in ours)
			{ print $2 }' "$tmp/ours" - |
		    sort -u > "$tmp/libref"
		for o in $objs; do
			awk -v o="$o" '$1 == o { print $2 }' "$tmp/left" |
			    sort | comm -12 - "$tmp/libref" |
			    sed "s|^|$o |"
		done >> "$tmp/libused"
	done
	sort -u -o "$tmp/libused" "$tmp/libused"
}

# Both passes over a list of programs; prints what fails.
probe() {
	unreferenced < "$1" || return 1
	library_refs < "$1" || return 1
	comm -23 "$tmp/left" "$tmp/libused"
}

# Fields: prints "file:line name" for each field declared under the
# prefix $1 that the C files $3... never read, compiled with flags $2.
decl_m='fieldDecl(unless(hasParent(recordDecl(isUnion())))).bind("decl")'
read_m='memberExpr(member(fieldDecl().bind("read")),'
read_m="$read_m unless(hasParent(binaryOperator(isAssignmentOperator()))),"
read_m="$read_m unless(hasParent(unaryOperator(anyOf(hasOperatorName(\"++\"),"
read_m="$read_m hasOperatorName(\"--\")), hasParent(stmt(unless(expr())))))))"
kernel='callExpr(callee(functionDecl(hasAnyName("syscall", "ioctl"))),'
kernel="$kernel hasAnyArgument(ignoringParenImpCasts("
whole_m="$kernel unaryOperator(hasOperatorName(\"&\"), hasUnaryOperand("
whole_m="$whole_m declRefExpr(hasType(recordDecl().bind(\"whole\"))))))))"
whole_p="$kernel declRefExpr(hasType(pointsTo("
whole_p="$whole_p recordDecl().bind(\"whole\")))))))"
printf 'set output dump\nset bind-root false\nm %s\nm %s\nm %s\nm %s\n' \
    "$decl_m" "$read_m" "$whole_m" "$whole_p" > "$tmp/fields.q"
unread() {
	prefix=$1
	flags=$2
	shift 2
	for c in "$@"; do
		# shellcheck disable=SC2086
		clang-query -f "$tmp/fields.q" "$c" -- $flags 2>"$tmp/cq.err" ||
		    { cat "$tmp/cq.err" >&2; echo "shipped-symbols: FAIL:" \
		    "clang-query on $c" >&2; return 1; }
	done > "$tmp/fields.raw"
	# "decl|read file:line name"; a whole record's fields are read.
	awk -v pre="$prefix" '
	function put(k, loc, rest,   w, n) {
		sub(/ \047.*$/, "", rest)
		n = split(rest, w, " ")
		if (index(loc, pre) == 1)
			print k, substr(loc, length(pre) + 1), w[n]
	}
	/^Binding for "/ { split($0, b, "\""); bind = b[2]; next }
	bind == "whole" && /^RecordDecl / {
		match($0, /<[^:,>]+:[0-9]+/)
		rloc = substr($0, RSTART + 1, RLENGTH - 1)
		rfile = rloc
		sub(/:[0-9]+$/, "", rfile)
		next
	}
	# Its fields: "<line:N:C" on a line of their own, "<col:C" on its.
	bind == "whole" && /^[|`]-FieldDecl 0x[0-9a-f]+ <line:/ {
		match($0, /<line:[0-9]+/)
		put("read", rfile ":" substr($0, RSTART + 6, RLENGTH - 6), $0)
		next
	}
	bind == "whole" && /^[|`]-FieldDecl 0x[0-9a-f]+ <col:/ {
		put("read", rloc, $0)
		next
	}
	(bind == "decl" || bind == "read") && /^FieldDecl / {
		if (match($0, /<[^:,>]+:[0-9]+/))
			put(bind, substr($0, RSTART + 1, RLENGTH - 1), $0)
		bind = ""
	}' "$tmp/fields.raw" | sort -u > "$tmp/fields.tab"
	awk '$1 == "decl" { print $2, $3 }' "$tmp/fields.tab" > "$tmp/fdecl"
	awk '$1 == "read" { print $2, $3 }' "$tmp/fields.tab" > "$tmp/fread"
	[ -s "$tmp/fdecl" ] || { echo "shipped-symbols: FAIL: no field" \
	    "declaration read" >&2; return 1; }
	comm -23 "$tmp/fdecl" "$tmp/fread"
}

fail=0
make -s --no-print-directory BUILD="$BUILD" shipped-objs > "$tmp/progs" ||
    { echo "shipped-symbols: FAIL: make shipped-objs" >&2; exit 1; }
[ -s "$tmp/progs" ] ||
    { echo "shipped-symbols: FAIL: no shipped program listed" >&2; exit 1; }
found=$(probe "$tmp/progs") || exit 1
nprog=$(wc -l < "$tmp/progs")
ndef=$(wc -l < "$tmp/defs")
nlib=$(wc -l < "$tmp/libused")
if [ -n "$found" ]; then
	echo "shipped-symbols: FAIL: global, but no other shipped object" \
	    "refers to it (make it static; a test compiles the .c file):" >&2
	echo "$found" | sed 's|^\([^ ]*\) |  \1: |' >&2
	fail=1
else
	echo "shipped-symbols: $nprog programs, $ndef global definitions," \
	    "each referred to by another object ($nlib by a library)"
fi

# The shipped sources, compiled as the build compiles them.
srcs=$(cut -f2 "$tmp/progs" | tr ' ' '\n' |
    sed -n "s|^$BUILD/obj[^/]*/\(.*\)\.o\$|\1.c|p" | sort -u)
[ -n "$srcs" ] ||
    { echo "shipped-symbols: FAIL: no source named" >&2; exit 1; }
# shellcheck disable=SC2016
cflags=$(make -s --no-print-directory BUILD="$BUILD" \
    --eval='shipped-cflags: ; @echo $(CFLAGS)' shipped-cflags) ||
    { echo "shipped-symbols: FAIL: cannot read CFLAGS" >&2; exit 1; }
# shellcheck disable=SC2086
found=$(unread "$PWD/" "$cflags -I$BUILD/gen" $srcs) || exit 1
if [ -n "$found" ]; then
	echo "shipped-symbols: FAIL: struct fields the shipped sources" \
	    "never read (delete them):" >&2
	echo "$found" | sed 's|^|  |' >&2
	fail=1
else
	echo "shipped-symbols: $(wc -l < "$tmp/fdecl") struct fields of" \
	    "$(echo "$srcs" | wc -l) shipped sources, each read"
fi

# The control: a.o calls b_used and defines a_self (called only in a.o)
# and a_unused; b.o defines b_used, b_data (never read elsewhere) and a
# static function; nothing refers to a_unused or b_data.
mkdir -p "$tmp/ctl" || exit 1
cat > "$tmp/ctl/a.c" <<'EOF'
int	b_used(void);
int	a_self(void);
int	a_unused(void);
int	main(void);
int a_self(void) { return 1; }
int a_unused(void) { return 2; }
int main(void) { return b_used() + a_self(); }
EOF
cat > "$tmp/ctl/b.c" <<'EOF'
int	b_used(void);
extern int	b_data;
int b_data = 3;
static int b_static(void) { return 4; }
int b_used(void) { return b_static(); }
EOF
for f in a b; do
	"$CC" -c -o "$tmp/ctl/$f.o" "$tmp/ctl/$f.c" ||
	    { echo "shipped-symbols: FAIL: control: $CC failed" >&2; exit 1; }
done
printf 'ctl\t%s %s\t\n' "$tmp/ctl/a.o" "$tmp/ctl/b.o" > "$tmp/ctl/progs"
found=$(probe "$tmp/ctl/progs" | sed "s|$tmp/ctl/||" | tr '\n' ' ') ||
    exit 1
if [ "$found" = "a.o a_self a.o a_unused b.o b_data " ]; then
	echo "shipped-symbols: control: a_self, a_unused and b_data of a" \
	    "built program are found, b_used, main and the static are not"
else
	echo "shipped-symbols: FAIL: control: found '$found', want" \
	    "a_self, a_unused, b_data" >&2
	fail=1
fi
# The field control: set only, counted only; read, read by a ++ whose
# value is used, read whole by the kernel, in a union.
cat > "$tmp/ctl/f.c" <<'EOF'
#include <sys/ioctl.h>
#include <unistd.h>
struct t { int set_only, counted, got, pre; };
struct k { int by_kernel; };
struct i { int by_ioctl; };
union u { int one; char two; };
int f(struct t *, struct i *);
int f(struct t *p, struct i *ip)
{
	struct k	k;
	union u		u;

	k.by_kernel = 1;
	ip->by_ioctl = 1;
	u.one = 1;
	p->set_only = 1;
	p->counted++;
	return p->got + ++p->pre + (int)syscall(0, &k) + ioctl(0, 0, ip) +
	    u.two;
}
EOF
found=$(unread "$tmp/ctl/" "" "$tmp/ctl/f.c" | tr '\n' ' ') || exit 1
if [ "$found" = "f.c:3 counted f.c:3 set_only " ]; then
	echo "shipped-symbols: control: a field only set and one only" \
	    "incremented are found, the read ones and the union's are not"
else
	echo "shipped-symbols: FAIL: control: found fields '$found', want" \
	    "counted, set_only" >&2
	fail=1
fi
[ "$fail" -eq 0 ] && echo "shipped-symbols: ok"
exit "$fail"
