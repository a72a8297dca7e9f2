# regress/tools/build.mk: forged peers and the simulated Node client used
# by the integration tests and the demo (build/tools/, never installed).

TOOLS			+= opty-nodesim opty-forgedrelay opty-dbusforge
opty-nodesim_SRCS	:= regress/tools/opty-nodesim.c proto/frame.c \
			   proto/framerd.c proto/errtext.c
opty-forgedrelay_SRCS	:= regress/tools/opty-forgedrelay.c \
			   proto/imsg.c proto/cmsgfd.c proto/msgtab.c proto/msgstart.c \
			   proto/frame.c proto/errtext.c
opty-dbusforge_SRCS	:= regress/tools/opty-dbusforge.c
opty-dbusforge_LIBS	:= $(LIBSYSTEMD)

# The forged attacker of regress/it/72-isolation.sh.
TOOLS			+= opty-escape
opty-escape_SRCS	:= regress/tools/opty-escape.c

# A kernel below the floor, simulated from outside the supervisor.
TOOLS			+= opty-oldkernel
opty-oldkernel_SRCS	:= regress/tools/opty-oldkernel.c
opty-oldkernel_LIBS	:= $(LIBSECCOMP)
