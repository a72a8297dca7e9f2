# parent/build.mk: opencode-pty-supervisor, the root parent.  It links
# the imsg channel and the D-Bus layer but not the client frame codec.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

PROGS				+= opencode-pty-supervisor
opencode-pty-supervisor_SRCS	= parent/main.c \
				   parent/relayproc.c parent/auth.c \
				   parent/session.c parent/sessq.c \
				   parent/start.c parent/unit.c \
				   parent/shutdown.c parent/status.c \
				   parent/features.c parent/privdrop.c \
				   parent/pty.c parent/pts.c parent/signal.c \
				   $(DBUSD_SRCS) $(PROTO_IMSG_SRCS) \
				   $(PROTO_ARG_SRCS) $(PROTO_LOG_SRCS) \
				   $(PROTO_WIRE_SRCS) \
				   proto/sha256.c proto/landlock.c proto/dirsock.c
opencode-pty-supervisor_LIBS	= $(LIBEVENT) $(LIBSYSTEMD)

TESTS				+= test_dircheck test_parent_session
test_dircheck_SRCS		= regress/unit/test_dircheck.c \
				   $(PROTO_LOG_SRCS)
test_dircheck_LIBS		:= $(LIBSECCOMP) $(LIBSYSTEMD)
# No two files of parent/ or dbusd/ call each other (the objects' calls).
SCRIPT_TESTS			+= regress/host/parent-rings.sh
# The supervisor's own sources counted and held under a ceiling.
SCRIPT_TESTS			+= regress/host/parent-size.sh
# session.c is compiled into its test, the files it calls replaced.
test_parent_session_SRCS	 = regress/unit/test_parent_session.c \
				   $(PROTO_IMSG_SRCS) $(PROTO_FRAME_SRCS) \
				   $(PROTO_LOG_SRCS)
test_parent_session_LIBS	 = $(LIBEVENT) $(LIBSYSTEMD)
# unit.c likewise, the D-Bus calls and the session queue replaced.
TESTS				+= test_parent_unit
test_parent_unit_SRCS		 = regress/unit/test_parent_unit.c \
				   $(PROTO_LOG_SRCS)
test_parent_unit_LIBS		 = $(LIBEVENT) $(LIBSYSTEMD)

# The relay this supervisor executes is bound to it: the SHA-256 of the
# relay built here is embedded (parent/relayproc.c compares it with the
# installed file before executing it), so the supervisor is built after
# the relay and changes with it.  Deterministic: the relay's build is
# reproducible, so is this header (build-aux/repro.sh).
PARENT_RELAY_GEN	:= $(BUILD)/gen/opty-relay-sha256.h

$(PARENT_RELAY_GEN): $(BUILD)/bin/opencode-pty-relay
	@mkdir -p $(@D)
	@set -e; d=$$(sha256sum < $< | cut -c1-64); \
	case $$d in *[!0-9a-f]*) echo "bad digest '$$d'" >&2; exit 1;; esac; \
	[ $${#d} -eq 64 ] || { echo "bad digest '$$d'" >&2; exit 1; }; \
	printf '#define OPTY_RELAY_SHA256 "%s"\n' "$$d" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/obj/parent/relayproc.o: parent/relayproc.c $(PARENT_RELAY_GEN) \
    $(PATHS_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD)/gen -MMD -MP -c -o $@ parent/relayproc.c
