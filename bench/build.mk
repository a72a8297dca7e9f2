# bench/build.mk: `make bench`, the benchmarks (never part of make check,
# never installed; the tools land in build/tools/).  See docs/BENCHMARKS.md.

BENCH_COMMON_SRCS	:= bench/clock.c proto/log.c

TOOLS			+= opty-benchc opty-benchunit opty-benchexec \
			   opty-relaypath
opty-benchc_SRCS	:= bench/benchc.c $(BENCH_COMMON_SRCS) \
			   proto/frame.c proto/framerd.c proto/errtext.c proto/ttyrules.c
opty-benchunit_SRCS	:= bench/benchunit.c $(BENCH_COMMON_SRCS) \
			   bench/benchprops.c dbusd/name.c proto/argcodec.c \
			   proto/dirsock.c proto/cmsgfd.c parent/pty.c
opty-benchunit_LIBS	 = $(LIBSYSTEMD)
opty-benchexec_SRCS	:= bench/benchexec.c $(BENCH_COMMON_SRCS)
opty-relaypath_SRCS	:= bench/relaypath.c $(BENCH_COMMON_SRCS) \
			   relay/outbuf.c relay/intake.c proto/frame.c \
			   proto/framerd.c proto/errtext.c proto/ttyrules.c

# The old script path (docs/BENCHMARKS.md): the launcher of the last
# commit before the terminal moved to the parent, which ran the command
# through script(1), built from git history into build/bench-old/.
BENCH_OLD_REV		:= 47854ce6109220e919a5d02f03fabfbc1998ffcf
BENCH_OLD		:= $(abspath $(BUILD))/bench-old

$(BENCH_OLD)/bin/opencode-pty-launcher:
	rm -rf $(BENCH_OLD)
	mkdir -p $(BENCH_OLD)/src
	git -C $(CURDIR) archive $(BENCH_OLD_REV) | tar -x -C $(BENCH_OLD)/src
	$(MAKE) -C $(BENCH_OLD)/src BUILD=$(BENCH_OLD) $@

.PHONY: bench
bench: all tools $(BENCH_OLD)/bin/opencode-pty-launcher
	sh bench/bench.sh
