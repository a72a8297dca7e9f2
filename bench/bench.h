/*
 * bench.h: helpers shared by the benchmark tools in bench/ (never
 * installed).  They run as root or as the session user inside the
 * disposable test systemd and trust their command line.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_BENCH_H
#define OPTY_BENCH_H

#include <stdint.h>

uint64_t	bench_now_us(void);	/* CLOCK_MONOTONIC, microseconds */
uint64_t	bench_num(const char *, const char *);

#endif
