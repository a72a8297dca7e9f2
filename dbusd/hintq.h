/*
 * hintq.h: the bounded queue of D-Bus signal hints (root parent, pure
 * data structure).  A flood of signals can only fill it, never grow it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_HINTQ_H
#define OPTY_HINTQ_H

#include <stdint.h>

#include "dbusd/dbusd.h"

#define HINTQ_BOUND	32

struct hintq {
	struct hint	ring[HINTQ_BOUND];
	unsigned	head;		/* index of the oldest hint */
	unsigned	depth;
	uint64_t	dropped;	/* arrived while full */
};

void	hintq_init(struct hintq *);
/* 1 queued, 0 coalesced into one already queued, -1 dropped (full). */
int	hintq_push(struct hintq *, const struct hint *);
/* 1 and the oldest hint in *out, or 0 when empty. */
int	hintq_pop(struct hintq *, struct hint *);

#endif
