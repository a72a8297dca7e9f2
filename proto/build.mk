# proto/build.mk: shared codecs (wire frames, imsg channel, arguments, logs)
# and their cmocka tests.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

PROTO_WIRE_SRCS		:= proto/wire.c
PROTO_FRAME_SRCS	:= proto/frame.c proto/framerd.c $(PROTO_WIRE_SRCS)
PROTO_IMSG_SRCS		:= proto/imsg.c proto/msgtab.c proto/msgstart.c \
			   proto/cmsgfd.c
# The relay's side only: the root parent decodes a start, never encodes.
PROTO_STARTENC_SRCS	:= proto/startenc.c
PROTO_ARG_SRCS		:= proto/argcodec.c
PROTO_LOG_SRCS		:= proto/log.c

TESTS			+= test_frame test_framerd test_imsg test_msgstart \
			   test_argcodec test_vectors
# frame.c is compiled into test_frame, which reads its static caps.
test_frame_SRCS		:= regress/unit/test_frame.c regress/unit/seedreq.c \
			   regress/framepeer.c \
			   $(filter-out proto/frame.c,$(PROTO_FRAME_SRCS))
test_framerd_SRCS	:= regress/unit/test_framerd.c $(PROTO_FRAME_SRCS)
test_vectors_SRCS	:= regress/unit/test_vectors.c regress/framepeer.c \
			   $(PROTO_FRAME_SRCS)
# imsg.c is compiled into test_imsg, which reads the table through its
# static msgtab_lookup().
test_imsg_SRCS		:= regress/unit/test_imsg.c \
			   $(filter-out proto/imsg.c,$(PROTO_IMSG_SRCS)) \
			   $(PROTO_FRAME_SRCS) $(PROTO_LOG_SRCS)
test_msgstart_SRCS	:= regress/unit/test_msgstart.c regress/unit/seedreq.c \
			   $(PROTO_IMSG_SRCS) $(PROTO_STARTENC_SRCS) \
			   $(PROTO_FRAME_SRCS) $(PROTO_LOG_SRCS)
test_argcodec_SRCS	:= regress/unit/test_argcodec.c $(PROTO_ARG_SRCS) \
			   proto/argdecode.c
