# table.sh: the differential oracle's command table (test only, sourced
# by regress/it/75-oracle.sh as root in the disposable systemd).  Each
# line runs one argv through the supervisor and through systemd-run
# --pty and compares the raw PTY bytes and the exit status.
#
#	row NAME RELATION INPUT ARGV...
#
# RELATION is what may differ, each justified in docs/ORACLE.md:
#	same		nothing: identical bytes, identical status
#	env-order	the same lines in another order
#	termios		stty -a without the window size
# INPUT is typed once the command runs ('' for none).  ARGV is passed
# verbatim: '$' is not expanded by systemd on either path.  Absolute
# paths, so the reference can tell when the command itself runs.
# $ORACLE_DATA is a 1 MiB file of fixed pseudo-random bytes.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# The '$' in these arguments is for the command's shell, not for ours.
# shellcheck disable=SC2016
nl='
'
eot=$(printf '\004')

# Plain output and the PTY's output processing (onlcr only).
row echo	same '' /bin/echo hello
row argv	same '' /usr/bin/printf '[%s]\n' 'a b' '' "q'u\"o" '$(id)' '*' ';'
row no-newline	same '' /usr/bin/printf 'abc'
row empty	same '' /bin/true
row cr-lf	same '' /usr/bin/printf 'a\rb\r\nc\n\nd\n'
row tab-bell-esc same '' /usr/bin/printf 'a\tb\a\033[1mbold\033[0m\b\n'
row utf8	same '' /usr/bin/printf '%s\n' 'ü€😀 ﬁ ǅ' 'ｗｉｄｅ'
row bad-utf8	same '' /usr/bin/printf '\377\376\300\200\355\240\200\n'
row long-line	same '' /usr/bin/awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%d", i % 10; print "" }'
row small-writes same '' /usr/bin/awk 'BEGIN { for (i = 0; i < 3000; i++) { printf "%d ", i; fflush() } }'
row sleep-output same '' /bin/sh -c 'printf early; sleep 1; echo late'
row stderr	same '' /bin/sh -c 'echo out; echo err >&2; echo out2'

# Bytes: all 256 values, raw and as base64; 8 MiB and more of output.
row random-b64	same '' /usr/bin/base64 "$ORACLE_DATA"
row random-raw	same '' /bin/cat "$ORACLE_DATA"
row large	same '' /usr/bin/seq 1 1200000

# Exit status.
row exit-0	same '' /bin/sh -c 'echo zero; exit 0'
row exit-1	same '' /bin/false
row exit-3	same '' /bin/sh -c 'exit 3'
row exit-7	same '' /bin/sh -c 'echo seven; exit 7'
row exit-255	same '' /bin/sh -c 'exit 255'
row sigterm	same '' /bin/sh -c 'echo before; kill -TERM $$'
row sigkill	same '' /bin/sh -c 'echo before; kill -KILL $$'
row sigsegv	same '' /bin/sh -c 'kill -SEGV $$'
row segv-fault	same '' /usr/bin/python3 -c \
    'import ctypes; ctypes.string_at(0)'

# Input typed into the PTY: echoed by the line discipline, ^D is EOF.
row stdin-cat	same "hello$nl$eot" /bin/cat
row stdin-wc	same "one${nl}two 2$nl$eot" /usr/bin/wc
row stdin-od	same "ü\\x$nl$eot" /usr/bin/od -An -c
row read-tty	same "typed line$nl" /bin/sh -c 'read -r x < /dev/tty; echo "[$x]"'

# The terminal and the process.
row tty		same '' /bin/sh -c 'tty | tr -d 0-9; for f in 0 1 2; do test -t $f && echo "fd $f tty"; done'
row stty	termios '' /bin/stty -a
row foreground	same '' /usr/bin/python3 -c 'import os; print(os.tcgetpgrp(0) == os.getpgrp(), os.isatty(0), os.ttyname(0) == os.ttyname(2))'
row signals	sigign '' /bin/grep -E '^Sig(Blk|Ign)|^NoNewPrivs' /proc/self/status
row fds		same '' /bin/ls /proc/self/fd
row env		env-order '' /usr/bin/env
row env-sorted	same '' /bin/sh -c 'env | LC_ALL=C sort'
row id		same '' /usr/bin/id
row pwd		same '' /bin/pwd
row umask-limits same '' /bin/sh -c 'umask; ulimit -a'
