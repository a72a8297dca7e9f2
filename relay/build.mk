# relay/build.mk: opencode-pty-relay, the unprivileged half of the
# supervisor, its unit tests and the forged parent used to drive it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

RELAY_CORE_SRCS		:= relay/intake.c relay/outbuf.c
RELAY_SRCS		:= relay/relay.c relay/sandbox.c relay/slot.c \
			   relay/pump.c relay/conn.c relay/chan.c \
			   $(RELAY_CORE_SRCS)

PROGS			+= opencode-pty-relay
opencode-pty-relay_SRCS	:= $(RELAY_SRCS) relay/nonss.c $(PROTO_FRAME_SRCS) \
			   $(PROTO_IMSG_SRCS) $(PROTO_STARTENC_SRCS) \
			   $(PROTO_LOG_SRCS)
opencode-pty-relay_LIBS	:= $(LIBEVENT) $(LIBSECCOMP)
# Linked static-pie: the relay maps no shared library, so its image is
# the one reproducible file that was reviewed, and its memory is its own
# (dynamically linked, ~1.5 MiB of its ~2.4 MiB VmRSS were libc's pages;
# docs/BENCHMARKS.md).  Its link must be warning-free, and warnings are
# errors here (--fatal-warnings) so that none can come back unseen:
# glibc warns when a static program links an NSS function (it would load
# glibc's shared modules at run time).  The relay calls none: its uid
# and gid come from the parent on the command line, and libevent's
# resolver wrappers (getaddrinfo, getservbyname, getprotobynumber, in
# evutil.o) find the relay's own never-called definitions in
# relay/nonss.c before glibc's; regress/host/relay-nonss.sh checks with
# nm that no NSS code is in the binary.  Under SAN it stays a dynamic
# PIE: the sanitizer runtimes link only dynamically, and check-asan must
# run the parser of untrusted input.
opencode-pty-relay_LDFLAGS	= -Wl,--fatal-warnings \
				  $(if $(strip $(SAN)),,-static-pie)
# The supervisor embeds the relay's digest (parent/build.mk), so the relay
# must be installed exactly as built.  A packager whose tools strip
# programs after the build (Debian's dh_strip) names its strip command in
# RELAY_STRIP: the relay is stripped right after its link, before its
# digest is taken, and the packager's tool then finds it stripped and
# leaves it alone (debian/rules).
opencode-pty-relay_STRIP	= $(RELAY_STRIP)
SCRIPT_TESTS		+= regress/host/relay-nonss.sh regress/host/relay-layers.sh

TESTS			+= test_sandbox test_relay_intake test_relay_outbuf \
			   test_relay_slot
test_sandbox_SRCS	:= regress/unit/test_sandbox.c relay/sandbox.c \
			   $(PROTO_LOG_SRCS)
test_sandbox_LIBS	:= $(LIBEVENT) $(LIBSECCOMP) $(LIBSYSTEMD)
test_relay_intake_SRCS	:= regress/unit/test_relay_intake.c relay/intake.c \
			   $(PROTO_FRAME_SRCS)
test_relay_outbuf_SRCS	:= regress/unit/test_relay_outbuf.c relay/outbuf.c \
			   regress/framepeer.c $(PROTO_FRAME_SRCS)
# slot.c is compiled into its test, pump.c and conn.c replaced.
test_relay_slot_SRCS	:= regress/unit/test_relay_slot.c relay/chan.c \
			   relay/intake.c relay/outbuf.c $(PROTO_FRAME_SRCS) \
			   $(PROTO_IMSG_SRCS) $(PROTO_STARTENC_SRCS) \
			   $(PROTO_LOG_SRCS)
test_relay_slot_LIBS	:= $(LIBEVENT)

TOOLS			+= opty-forgedparent
opty-forgedparent_SRCS	:= regress/tools/opty-forgedparent.c \
			   regress/framepeer.c \
			   $(PROTO_FRAME_SRCS) $(PROTO_IMSG_SRCS) \
			   $(PROTO_LOG_SRCS)
opty-forgedparent_LIBS	:= $(LIBSYSTEMD)
