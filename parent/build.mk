# parent/build.mk: opencode-pty-supervisor, the root parent.  It links
# the imsg channel and the D-Bus layer but not the client frame codec.

PROGS				+= opencode-pty-supervisor
opencode-pty-supervisor_SRCS	= parent/main.c parent/listen.c \
				   parent/relayproc.c parent/dispatch.c \
				   parent/auth.c parent/admit.c \
				   parent/start.c parent/watch.c \
				   parent/shutdown.c parent/status.c \
				   parent/journal.c parent/features.c \
				   $(DBUSD_SRCS) $(PROTO_IMSG_SRCS) \
				   $(PROTO_ARG_SRCS) $(PROTO_LOG_SRCS) \
				   $(PROTO_ERR_SRCS) \
				   proto/sha256.c proto/landlock.c
opencode-pty-supervisor_LIBS	= $(LIBEVENT) $(LIBSYSTEMD)
