/*
 * clock.c: monotonic time and number parsing for the benchmark tools
 * (never installed; trusts its caller).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench.h"
#include "proto/log.h"

uint64_t
bench_now_us(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		fatal("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* A decimal option value, or a clear exit. */
uint64_t
bench_num(const char *what, const char *s)
{
	unsigned long long	 v;
	char			*end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		fatalx("%s: not a number: '%s'", what, s);
	return (uint64_t)v;
}
