# bench/build.mk: `make bench`, the benchmarks (never part of make check,
# never installed; the tools land in build/tools/).  See docs/BENCHMARKS.md.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

BENCH_COMMON_SRCS	:= bench/clock.c proto/log.c

TOOLS			+= opty-benchc opty-benchunit opty-benchexec \
			   opty-relaypath
opty-benchc_SRCS	:= bench/benchc.c $(BENCH_COMMON_SRCS) regress/framepeer.c \
			   proto/frame.c proto/framerd.c proto/wire.c
opty-benchunit_SRCS	:= bench/benchunit.c $(BENCH_COMMON_SRCS) \
			   bench/benchprops.c dbusd/name.c proto/argcodec.c \
			   proto/dirsock.c proto/cmsgfd.c parent/pty.c
opty-benchunit_LIBS	 = $(LIBSYSTEMD)
opty-benchexec_SRCS	:= bench/benchexec.c $(BENCH_COMMON_SRCS)
opty-relaypath_SRCS	:= bench/relaypath.c $(BENCH_COMMON_SRCS) \
			   relay/outbuf.c relay/intake.c proto/frame.c \
			   proto/framerd.c proto/wire.c

# The previous build (docs/BENCHMARKS.md): the last commit before the
# terminal moved to the parent, whose launcher ran the command through
# script(1), built from git history into build/bench-old/: its launcher
# is the old script path, its supervisor is measured for the memory
# target.
BENCH_OLD_REV		:= 3a4130cfbe8f263a8212429e98d3ead7b8b2beb7
BENCH_OLD		:= $(abspath $(BUILD))/bench-old
BENCH_OLD_STAMP		:= $(BENCH_OLD)/rev-$(BENCH_OLD_REV)

$(BENCH_OLD_STAMP):
	rm -rf $(BENCH_OLD)
	mkdir -p $(BENCH_OLD)/src
	git -C $(CURDIR) archive $(BENCH_OLD_REV) | tar -x -C $(BENCH_OLD)/src
	$(MAKE) -C $(BENCH_OLD)/src BUILD=$(BENCH_OLD) all
	touch $@

.PHONY: bench bench-node bench-input
bench: all tools $(BENCH_OLD_STAMP)
	sh bench/bench.sh

# The Node comparison alone (node-pty vs client/node through the
# supervisor, bench/nodebench.sh), without the previous build.
bench-node: all tools
	BENCH_ONLY=node sh bench/bench.sh

# The input paths alone, in turns (bench/inner.sh, BENCH_ONLY=input):
# the supervisor, the bare call with and without the mount sandbox, and
# systemd-run --pty without and with a mount namespace of its own.
bench-input: all tools
	BENCH_ONLY=input sh bench/bench.sh
