/*
 * hintq.c: the bounded hint queue of the root parent's D-Bus layer.
 * Signals are only hints (the parent re-asks systemd before acting), so
 * losing one under a flood is safe while unbounded growth is not: a full
 * queue drops and counts.  Duplicate "unit changed" hints carry no more
 * information than one, so they are merged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <string.h>

#include "dbusd/priv.h"

static int
hintq_has_change(const struct hintq *q, const char *unit)
{
	const struct hint	*h;
	unsigned		 i;

	for (i = 0; i < q->depth; i++) {
		h = &q->ring[(q->head + i) % HINTQ_BOUND];
		if (h->kind == HINT_UNIT_CHANGED && strcmp(h->unit, unit) == 0)
			return 1;
	}
	return 0;
}

int
hintq_push(struct hintq *q, const struct hint *h)
{
	if (h->kind == HINT_UNIT_CHANGED && hintq_has_change(q, h->unit))
		return 0;
	if (q->depth >= HINTQ_BOUND) {
		q->dropped++;
		return -1;
	}
	q->ring[(q->head + q->depth) % HINTQ_BOUND] = *h;
	q->depth++;
	return 1;
}

int
hintq_pop(struct hintq *q, struct hint *out)
{
	if (q->depth == 0)
		return 0;
	*out = q->ring[q->head];
	q->head = (q->head + 1) % HINTQ_BOUND;
	q->depth--;
	return 1;
}
