/*
 * outbuf.c: the bounded to-client buffer of one relay session.  Runs in
 * the unprivileged relay.  It holds one frame at a time: the stream is
 * read straight into the payload area behind the header, so an output
 * frame is written with one send and never copied, and nothing more is
 * read from the stream until the client has taken the whole frame.
 * That is the backpressure: a client that stops reading stops the
 * stream reads, the PTY fills and the command blocks.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"
#include "relay/outbuf.h"

void
outbuf_init(struct outbuf *ob)
{
	ob->off = 0;
	ob->len = 0;
}

int
outbuf_empty(const struct outbuf *ob)
{
	return ob->len == 0;
}

/* Where the next payload may be read to; NULL while a frame is held. */
uint8_t *
outbuf_payload(struct outbuf *ob, size_t *roomp)
{
	if (!outbuf_empty(ob)) {
		*roomp = 0;
		return NULL;
	}
	*roomp = FRAME_MAX_INPUT;
	return ob->buf + FRAME_HDR_LEN;
}

/* Puts the header in front of a payload already in place. */
int
outbuf_commit(struct outbuf *ob, uint8_t type, size_t plen)
{
	if (!outbuf_empty(ob) || plen > FRAME_MAX_INPUT)
		return -1;
	frame_hdr_encode(ob->buf, type, (uint32_t)plen);
	ob->off = 0;
	ob->len = FRAME_HDR_LEN + plen;
	return 0;
}

int
outbuf_put_exit(struct outbuf *ob, const struct exit_info *ei)
{
	int	n;

	if (!outbuf_empty(ob))
		return -1;
	if ((n = exit_encode(ei, ob->buf + FRAME_HDR_LEN, FRAME_MAX_INPUT)) <
	    0)
		return -1;
	return outbuf_commit(ob, FRAME_EXIT, (size_t)n);
}

const uint8_t *
outbuf_pending(const struct outbuf *ob, size_t *lenp)
{
	*lenp = ob->len - ob->off;
	return ob->buf + ob->off;
}

/* n bytes were written; the buffer is empty again once all were. */
void
outbuf_consume(struct outbuf *ob, size_t n)
{
	if (n > ob->len - ob->off)
		n = ob->len - ob->off;
	ob->off += n;
	if (ob->off == ob->len)
		outbuf_init(ob);
}
