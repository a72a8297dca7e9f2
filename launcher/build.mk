# launcher/build.mk: opencode-pty-launcher, the session unit's ExecStart
# (runs as the session user; links libc and libseccomp), and its unit
# tests.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

LAUNCHER_PURE_SRCS	:= launcher/command.c proto/argdecode.c

PROGS			+= opencode-pty-launcher
# Not pure: they act on the process (re-anchoring, the terminal,
# Landlock, the system call filter), and the unit test runs them in
# forked children.
LAUNCHER_SYS_SRCS	:= launcher/reanchor.c launcher/tty.c \
			   launcher/landlock.c proto/landlock.c proto/dirtake.c \
			   proto/cmsgfd.c launcher/seccomp.c

opencode-pty-launcher_SRCS := launcher/main.c $(LAUNCHER_SYS_SRCS) \
			    $(LAUNCHER_PURE_SRCS)
opencode-pty-launcher_LIBS := $(LIBSECCOMP)

TESTS			+= test_launcher
# command.c and reanchor.c are compiled into the test, which drives
# their static parts.
# dirsock.c (the root parent's side) makes the messages it takes.
test_launcher_SRCS	:= regress/unit/test_launcher.c proto/dirsock.c \
			   $(filter-out launcher/command.c launcher/reanchor.c,\
			     $(LAUNCHER_SYS_SRCS) $(LAUNCHER_PURE_SRCS))
test_launcher_LIBS	:= $(LIBSECCOMP)

# docs/SANDBOX.md places every kernel system call; its seccomp rows are
# launcher/seccomp.c's.
SCRIPT_TESTS		+= regress/host/syscall-table.sh
