/*
 * outbuf.h: the bounded to-client buffer of one relay session: at most
 * one frame (header and payload side by side) waiting to be written.
 * Runs in the unprivileged relay.  Pure, so its bounds can be tested.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef RELAY_OUTBUF_H
#define RELAY_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"

/* Large enough for an output frame; an exit frame is smaller. */
#define OUTBUF_SIZE	(FRAME_HDR_LEN + FRAME_MAX_INPUT)

struct outbuf {
	size_t	off;		/* bytes already written */
	size_t	len;		/* bytes of the held frame */
	uint8_t	buf[OUTBUF_SIZE];
};

void	 outbuf_init(struct outbuf *);
int	 outbuf_empty(const struct outbuf *);
uint8_t	*outbuf_payload(struct outbuf *, size_t *);
int	 outbuf_commit(struct outbuf *, uint8_t, size_t);
int	 outbuf_put_exit(struct outbuf *, const struct exit_info *);
const uint8_t *outbuf_pending(const struct outbuf *, size_t *);
void	 outbuf_consume(struct outbuf *, size_t);

#endif
