# regress/build.mk: test-only tools for the integration tests (build/tools/,
# never installed).  The harness itself is regress/harness.sh.

TOOLS			+= opty-unitrun
opty-unitrun_SRCS	:= regress/tools/opty-unitrun.c proto/log.c \
			   proto/dirsock.c proto/cmsgfd.c
opty-unitrun_LIBS	:= $(LIBSYSTEMD)
