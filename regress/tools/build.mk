# regress/tools/build.mk: forged peers and the simulated Node client used
# by the integration tests and the demo (build/tools/, never installed).

TOOLS			+= opty-nodesim opty-forgedrelay opty-dbusforge \
			   opty-steal opty-flood
opty-nodesim_SRCS	:= regress/tools/opty-nodesim.c proto/frame.c \
			   proto/framerd.c proto/errtext.c
opty-forgedrelay_SRCS	:= regress/tools/opty-forgedrelay.c \
			   proto/imsg.c proto/cmsgfd.c proto/msgtab.c proto/msgstart.c \
			   proto/frame.c proto/errtext.c
opty-dbusforge_SRCS	:= regress/tools/opty-dbusforge.c
opty-dbusforge_LIBS	:= $(LIBSYSTEMD)
opty-steal_SRCS		:= regress/tools/opty-steal.c
opty-flood_SRCS		:= regress/tools/opty-flood.c proto/frame.c \
			   proto/errtext.c
