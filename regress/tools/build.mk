# regress/tools/build.mk: forged peers and the simulated Node client used
# by the integration tests and the demo (build/tools/, never installed).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

TOOLS			+= opty-nodesim opty-forgedrelay opty-dbusforge \
			   opty-steal opty-flood
opty-nodesim_SRCS	:= regress/tools/opty-nodesim.c regress/framepeer.c \
			   proto/frame.c \
			   proto/framerd.c proto/wire.c
opty-forgedrelay_SRCS	:= regress/tools/opty-forgedrelay.c \
			   proto/imsg.c proto/cmsgfd.c proto/msgtab.c proto/msgstart.c \
			   proto/frame.c proto/wire.c
opty-dbusforge_SRCS	:= regress/tools/opty-dbusforge.c
opty-dbusforge_LIBS	:= $(LIBSYSTEMD)

# The forged attacker of regress/it/72-isolation.sh.
TOOLS			+= opty-escape
opty-escape_SRCS	:= regress/tools/opty-escape.c

# A kernel below the floor, simulated from outside the supervisor.
TOOLS			+= opty-oldkernel
opty-oldkernel_SRCS	:= regress/tools/opty-oldkernel.c
opty-oldkernel_LIBS	:= $(LIBSECCOMP)

# opty-supervisor-forgedrelay: the supervisor's own sources, with the
# SHA-256 of opty-forgedrelay embedded instead of the real relay's.
# The real supervisor executes only the relay it was built with
# (parent/relayproc.c), so regress/it/60-forged-relay.sh installs this
# build beside the forged relay.  Same code, no test-only path: only the
# generated digest header differs.
FORGED_SUP	:= $(BUILD)/tools/opty-supervisor-forgedrelay
FORGED_GEN	:= $(BUILD)/gen/forgedrelay/opty-relay-sha256.h
FORGED_SUP_OBJS	= $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out \
		    parent/relayproc.c,$(opencode-pty-supervisor_SRCS))) \
		  $(BUILD)/obj-forgedrelay/parent/relayproc.o

tools: $(FORGED_SUP)

$(FORGED_GEN): $(BUILD)/tools/opty-forgedrelay
	@mkdir -p $(@D)
	@set -e; d=$$(sha256sum < $< | cut -c1-64); \
	printf '#define OPTY_RELAY_SHA256 "%s"\n' "$$d" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/obj-forgedrelay/parent/relayproc.o: parent/relayproc.c $(FORGED_GEN) \
    $(PATHS_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD)/gen/forgedrelay -MMD -MP -c -o $@ \
	    parent/relayproc.c

$(FORGED_SUP): $(FORGED_SUP_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(opencode-pty-supervisor_LIBS)
-include $(shell find $(BUILD)/obj-forgedrelay -name "*.d" 2>/dev/null)

opty-steal_SRCS		:= regress/tools/opty-steal.c
opty-flood_SRCS		:= regress/tools/opty-flood.c regress/framepeer.c \
			   proto/frame.c \
			   proto/wire.c

# The docs' tables against the code (opty-msgtab prints the imsg table).
SCRIPT_TESTS		+= regress/host/tables.sh
TOOLS			+= opty-msgtab
opty-msgtab_SRCS	:= regress/tools/opty-msgtab.c proto/msgtab.c
opty-msgtab_LIBS	:=

# The descriptor table a process was started with, for the Node
# inheritance probe (regress/it/77-node-probe.sh).
TOOLS			+= opty-fdtable
opty-fdtable_SRCS	:= regress/tools/opty-fdtable.c

# The installed launcher run directly, outside any unit, with the
# directory on fd 2 as the parent passes it (regress/it/20-launcher.sh).
TOOLS			+= opty-lxdirect
opty-lxdirect_SRCS	:= regress/tools/opty-lxdirect.c proto/dirsock.c \
			   proto/cmsgfd.c
