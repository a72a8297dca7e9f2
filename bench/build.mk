# bench/build.mk: `make bench`, the benchmarks (never part of make check,
# never installed; the tools land in build/tools/).  See docs/BENCHMARKS.md.

BENCH_COMMON_SRCS	:= bench/clock.c proto/log.c

TOOLS			+= opty-benchc opty-benchunit opty-benchexec \
			   opty-relaypath
opty-benchc_SRCS	:= bench/benchc.c $(BENCH_COMMON_SRCS) \
			   proto/frame.c proto/framerd.c proto/errtext.c proto/ttyrules.c
opty-benchunit_SRCS	:= bench/benchunit.c $(BENCH_COMMON_SRCS) \
			   dbusd/props.c dbusd/name.c proto/argcodec.c \
			   proto/dirsock.c proto/cmsgfd.c
opty-benchunit_LIBS	 = $(LIBSYSTEMD)
opty-benchexec_SRCS	:= bench/benchexec.c $(BENCH_COMMON_SRCS)
opty-relaypath_SRCS	:= bench/relaypath.c $(BENCH_COMMON_SRCS) \
			   relay/outbuf.c relay/intake.c proto/frame.c \
			   proto/framerd.c proto/errtext.c proto/ttyrules.c

.PHONY: bench
bench: all tools
	sh bench/bench.sh
