# fuzz/build.mk: the libFuzzer harnesses (docs/FUZZING.md).  They need
# clang and sanitizers, so they have their own compiler, flags and
# objects under $(BUILD)/fuzz/, apart from the gcc-built objects; they
# are never part of `all`, `tests` or `install`.
#
#   make fuzz-build	build every harness
#   make fuzz		run each for FUZZ_SECONDS (60) on a copy of its corpus
#   make fuzz-smoke	run each for FUZZ_SMOKE_SECONDS (10); also in check-unit
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

FUZZ_CC			?= clang-14
FUZZ_SECONDS		?= 60
FUZZ_SMOKE_SECONDS	?= 10
FUZZ_CFLAGS		:= -std=gnu11 -D_GNU_SOURCE= -g -O1 \
			   -fsanitize=fuzzer,address,undefined \
			   -fno-sanitize-recover=all $(WARN) -I$(CURDIR) \
			   -I$(BUILD)/paths

FUZZ_HARNESSES		:= fuzz_framerd fuzz_start fuzz_imsg \
			   fuzz_argdecode fuzz_marker
fuzz_framerd_FSRCS	:= fuzz/fuzz_framerd.c regress/framepeer.c \
			   proto/framerd.c proto/wire.c
fuzz_start_FSRCS	:= fuzz/fuzz_start.c proto/frame.c proto/wire.c \
			   proto/msgstart.c proto/startenc.c proto/msgtab.c \
			   proto/cmsgfd.c
fuzz_imsg_FSRCS		:= fuzz/fuzz_imsg.c proto/imsg.c proto/cmsgfd.c proto/msgtab.c \
			   proto/msgstart.c proto/startenc.c proto/wire.c
fuzz_argdecode_FSRCS	:= fuzz/fuzz_argdecode.c proto/argcodec.c \
			   proto/argdecode.c
fuzz_marker_FSRCS	:= fuzz/fuzz_marker.c readiness/marker.c

SCRIPT_TESTS		+= regress/host/fuzz-smoke.sh

FUZZ_OBJ		= $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(1))

define fuzz_rule
$(BUILD)/fuzz/bin/$(1): $$(call FUZZ_OBJ,$$($(1)_FSRCS))
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) -o $$@ $$^
endef

$(foreach h,$(FUZZ_HARNESSES),$(eval $(call fuzz_rule,$(h))))

$(BUILD)/fuzz/obj/%.o: %.c $(PATHS_H)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)

.PHONY: fuzz fuzz-build fuzz-smoke

fuzz-build: $(addprefix $(BUILD)/fuzz/bin/,$(FUZZ_HARNESSES))

fuzz: fuzz-build
	BUILD=$(BUILD) sh fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

fuzz-smoke:
	BUILD=$(BUILD) FUZZ_SMOKE_SECONDS=$(FUZZ_SMOKE_SECONDS) \
	    sh regress/host/fuzz-smoke.sh
