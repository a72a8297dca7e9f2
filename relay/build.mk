# relay/build.mk: opencode-pty-relay, the unprivileged half of the
# supervisor, its unit tests and the forged parent used to drive it.

RELAY_CORE_SRCS		:= relay/intake.c relay/outbuf.c
RELAY_SRCS		:= relay/relay.c relay/sandbox.c relay/session.c \
			   relay/client.c relay/stream.c relay/parent.c \
			   $(RELAY_CORE_SRCS)

PROGS			+= opencode-pty-relay
opencode-pty-relay_SRCS	:= $(RELAY_SRCS) $(PROTO_FRAME_SRCS) \
			   $(PROTO_IMSG_SRCS) $(PROTO_LOG_SRCS)
opencode-pty-relay_LIBS	:= $(LIBEVENT) $(LIBSECCOMP)
# Linked static-pie: the relay maps no shared library, so its image is
# the one reproducible file that was reviewed, and its memory is its own
# (dynamically linked, ~1.5 MiB of its ~2.4 MiB VmRSS were libc's pages;
# docs/BENCHMARKS.md).  glibc's linker warns that these NSS functions
# would need glibc's shared libraries at run time: getpwnam/endpwent
# (relay/sandbox.c: the relay's own user, answered by glibc's built-in
# files source from /etc/passwd, docs/SANDBOX.md) and libevent's
# resolver wrappers (getaddrinfo, getservbyname, getprotobynumber),
# never called: the relay resolves no name and may not open a socket.
# Under SAN it stays a dynamic PIE: the sanitizer runtimes link only
# dynamically, and check-asan must run the parser of untrusted input.
opencode-pty-relay_LDFLAGS	= $(if $(strip $(SAN)),,-static-pie)

TESTS			+= test_sandbox test_relay_intake test_relay_outbuf
test_sandbox_SRCS	:= regress/unit/test_sandbox.c relay/sandbox.c \
			   $(PROTO_LOG_SRCS)
test_sandbox_LIBS	:= $(LIBEVENT) $(LIBSECCOMP) $(LIBSYSTEMD)
test_relay_intake_SRCS	:= regress/unit/test_relay_intake.c relay/intake.c \
			   $(PROTO_FRAME_SRCS)
test_relay_outbuf_SRCS	:= regress/unit/test_relay_outbuf.c relay/outbuf.c \
			   $(PROTO_FRAME_SRCS)

TOOLS			+= opty-forgedparent
opty-forgedparent_SRCS	:= regress/tools/opty-forgedparent.c \
			   $(PROTO_FRAME_SRCS) $(PROTO_IMSG_SRCS) \
			   $(PROTO_LOG_SRCS)
opty-forgedparent_LIBS	:= $(LIBSYSTEMD)
