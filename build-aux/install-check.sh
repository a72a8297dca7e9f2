#!/bin/sh
# install-check.sh: acceptance gate 3.  Checks, as root or any user, that
# the installed opencode-pty binaries (and the installed unit, drop-in and
# sysusers files) can be changed by root alone: every one of them and
# every directory on the way to them from / is owned by uid 0, writable
# by neither group nor others (so not by byk), and not a symbolic link.
# Binaries must be regular root:root 0755 files (the client helper 0711:
# unreadable, so that it runs non-dumpable), configuration regular
# root:root 0644 files.  Reads only; prints every offending path and
# exits 1 if there is one.
#
# Usage: install-check.sh [-f CONFFILE]... LIBEXECDIR PROG...
#
# A POSIX ACL entry granting write shows in the group bits (the ACL mask),
# so the group-write test covers named users and groups too.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

prog=install-check
bad=0
checked=
badirs=

usage()
{
	echo "usage: $prog [-f conffile]... libexecdir prog..." >&2
	exit 2
}

fail()
{
	echo "$prog: FAIL: $1: $2" >&2
	bad=1
}

# One path component: exists, not a symlink, uid 0, no group/other write.
check_owner_mode()
{
	op=$1
	if [ -L "$op" ]; then
		fail "$op" "is a symbolic link"
		return 1
	fi
	if ! st=$(stat -c '%u %g %a' -- "$op" 2>/dev/null); then
		fail "$op" "does not exist"
		return 1
	fi
	read -r o_uid o_gid o_mode <<-EOF
	$st
	EOF
	[ "$o_uid" = 0 ] || fail "$op" "owned by uid $o_uid, not root"
	# %a is octal without leading zeros; the last two digits are the
	# group and other classes.
	m=$(printf '%04o' "0$o_mode")
	case $m in
	*[2367]?|*[2367])
		fail "$op" "writable by group or others (mode $m)" ;;
	esac
	return 0
}

# Every directory from / down to and including $1.
check_dirs()
{
	case $1 in
	/*) ;;
	*) fail "$1" "not an absolute path"; return ;;
	esac
	path=
	rest=${1#/}
	check_dir_once /
	while [ -n "$rest" ]; do
		c=${rest%%/*}
		case $rest in
		*/*) rest=${rest#*/} ;;
		*) rest= ;;
		esac
		case $c in
		'') continue ;;
		.|..) fail "$1" "contains a '$c' component"; return ;;
		esac
		path=$path/$c
		check_dir_once "$path" || return
	done
}

# Parents shared by several files are reported once.
check_dir_once()
{
	case " $badirs " in
	*" $1 "*) return 1 ;;
	esac
	case " $checked " in
	*" $1 "*) return 0 ;;
	esac
	checked="$checked $1"
	if ! check_owner_mode "$1"; then
		badirs="$badirs $1"
		return 1
	fi
	if [ ! -d "$1" ]; then
		fail "$1" "not a directory"
		badirs="$badirs $1"
		return 1
	fi
}

# A file: its directories, then itself: regular, uid 0, gid 0, exact mode.
check_file()
{
	f=$1 want=$2
	check_dirs "${f%/*}"
	check_owner_mode "$f" || return
	if [ ! -f "$f" ]; then
		fail "$f" "not a regular file"
		return
	fi
	[ "$o_gid" = 0 ] || fail "$f" "group is gid $o_gid, not root"
	[ "$o_mode" = "$want" ] || fail "$f" "mode $o_mode, not $want"
}

confs=
while getopts f: opt; do
	case $opt in
	f) confs="$confs $OPTARG" ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
libexec=$1
shift
case $libexec in
/*) ;;
*) echo "$prog: $libexec: not an absolute path" >&2; exit 2 ;;
esac
libexec=${libexec%/}

# prog_mode NAME: the exact mode NAME must have.
prog_mode()
{
	case $1 in
	opencode-pty-client) echo 711 ;;
	*) echo 755 ;;
	esac
}

check_dirs "$libexec"
n=0
for p in "$@"; do
	case $p in
	*/*|''|.|..) echo "$prog: bad program name '$p'" >&2; exit 2 ;;
	esac
	check_file "$libexec/$p" "$(prog_mode "$p")"
	n=$((n + 1))
done
# A stale opencode-pty binary from an earlier install is as dangerous as
# a current one: hold it to the same rules.
for f in "$libexec"/opencode-pty-*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	case " $* " in
	*" ${f##*/} "*) continue ;;
	esac
	echo "$prog: note: $f is not a current program; checking it too" >&2
	check_file "$f" "$(prog_mode "${f##*/}")"
	n=$((n + 1))
done
for f in $confs; do
	check_file "$f" 644
	n=$((n + 1))
done

if [ $bad != 0 ]; then
	echo "$prog: FAILED: see the paths above" >&2
	exit 1
fi
echo "$prog: ok: $n files under root-only directories"
