/*
 * fuzz.h: what the libFuzzer harnesses of fuzz/ share.  Test code only,
 * built by fuzz/build.mk with clang and never linked into a shipped
 * binary.  A broken property aborts, so libFuzzer stops, saves the input
 * and the run fails exactly as it does on a sanitizer report.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_FUZZ_H
#define OPTY_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PROP(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "%s:%d: PROPERTY VIOLATED: %s\n",	\
		    __FILE__, __LINE__, #c);				\
		abort();						\
	}								\
} while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#endif
