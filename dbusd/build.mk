# dbusd/build.mk: the root parent's systemd D-Bus layer (linked into the
# supervisor by parent/build.mk via DBUSD_SRCS, which must also link
# proto/argcodec.c and proto/log.c), its cmocka tests and the test-only
# probe tool that drives it inside the disposable systemd.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

DBUSD_SRCS		:= dbusd/bus.c dbusd/match.c \
			   dbusd/ident.c \
			   dbusd/props.c dbusd/unit.c \
			   dbusd/name.c dbusd/req.c
DBUSD_LIBS		 = $(LIBSYSTEMD) $(LIBEVENT)

TESTS			+= test_dbusd_names test_dbusd_hintq \
			   test_dbusd_props test_dbusd_ident test_dbusd_pid1 \
			   test_dbusd_req
test_dbusd_names_SRCS	:= regress/unit/test_dbusd_names.c dbusd/name.c
test_dbusd_names_LIBS	:=
# match.c is compiled into the hint queue's test: the queue is static.
test_dbusd_hintq_SRCS	:= regress/unit/test_dbusd_hintq.c \
			   $(filter-out dbusd/match.c,$(DBUSD_SRCS)) \
			   proto/argcodec.c proto/log.c
test_dbusd_hintq_LIBS	 = $(DBUSD_LIBS)
test_dbusd_props_SRCS	:= regress/unit/test_dbusd_props.c dbusd/props.c \
			   dbusd/name.c proto/argcodec.c
test_dbusd_props_LIBS	 = $(LIBSYSTEMD)
# ident.c is compiled into its test, which reads its static table.
test_dbusd_ident_SRCS	:= regress/unit/test_dbusd_ident.c \
			   $(filter-out dbusd/ident.c,$(DBUSD_SRCS)) \
			   proto/argcodec.c proto/log.c
test_dbusd_ident_LIBS	 = $(DBUSD_LIBS)
test_dbusd_pid1_SRCS	:= regress/unit/test_dbusd_pid1.c $(DBUSD_SRCS) \
			   proto/argcodec.c proto/log.c
test_dbusd_pid1_LIBS	 = $(DBUSD_LIBS)
test_dbusd_req_SRCS	:= regress/unit/test_dbusd_req.c $(DBUSD_SRCS) \
			   proto/argcodec.c proto/log.c
test_dbusd_req_LIBS	 = $(DBUSD_LIBS)

TOOLS			+= opty-dbusprobe
# bus.c is compiled into the probe, which frees its bus at exit.
opty-dbusprobe_SRCS	:= regress/tools/opty-dbusprobe.c \
			   $(filter-out dbusd/bus.c,$(DBUSD_SRCS)) \
			   proto/argcodec.c proto/log.c proto/dirsock.c \
			   proto/cmsgfd.c parent/pty.c
opty-dbusprobe_LIBS	 = $(LIBSYSTEMD) $(LIBEVENT)
