# client/build.mk: opencode-pty-client, the helper the Node service runs
# to send one start frame plus the directory descriptor; its unit test
# and its strace-based host test.  Linked static-pie so that strace of
# the whole process, from execve on, shows every system call it makes.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

CLIENT_SRCS		:= client/fdcheck.c client/cli.c client/send.c \
			   client/sandbox.c proto/cmsgfd.c

PROGS			+= opencode-pty-client
opencode-pty-client_SRCS	:= client/main.c $(CLIENT_SRCS) \
			   proto/frame.c proto/wire.c
opencode-pty-client_LIBS	:= $(LIBSECCOMP)
opencode-pty-client_LDFLAGS	:= -static-pie

TESTS			+= test_client
# fdcheck.c is compiled into the test, which drives its static checks.
test_client_SRCS	:= regress/unit/test_client.c \
			   $(filter-out client/fdcheck.c,$(CLIENT_SRCS)) \
			   proto/frame.c proto/wire.c
test_client_LIBS	:= $(LIBSECCOMP)

SCRIPT_TESTS		+= regress/host/client-strace.sh
