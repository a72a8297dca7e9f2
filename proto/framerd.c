/*
 * framerd.c: incremental frame reader for a non-blocking client stream.
 * Runs in the unprivileged relay on bytes from an untrusted client.
 *
 * The header is judged the moment its 12 bytes are in, so a frame that
 * claims too much is refused before one payload byte is accepted.  The
 * reader never takes a byte past the end of the current frame: what the
 * client pipelined behind it stays with the caller, who feeds it again
 * after frame_reader_next().
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/frame.h"

void
frame_reader_init(struct frame_reader *fr)
{
	fr->hhave = 0;
	fr->have = 0;
	fr->ready = 0;
	memset(&fr->hdr, 0, sizeof(fr->hdr));
}

void
frame_reader_next(struct frame_reader *fr)
{
	frame_reader_init(fr);
}

long
frame_reader_feed(struct frame_reader *fr, const uint8_t *buf, size_t len)
{
	size_t	take, used = 0;
	int	rv;

	if (fr->ready)
		return 0;

	if (fr->hhave < FRAME_HDR_LEN) {
		take = FRAME_HDR_LEN - fr->hhave;
		if (take > len)
			take = len;
		if (take > 0)
			memcpy(fr->hbuf + fr->hhave, buf, take);
		fr->hhave += take;
		used = take;
		if (fr->hhave < FRAME_HDR_LEN)
			return (long)used;
	}

	/*
	 * Decoded again on every call once complete: cheap, and it keeps a
	 * refused header refused without a separate error flag.
	 */
	if ((rv = frame_hdr_decode(fr->hbuf, FRAME_HDR_LEN, &fr->hdr)) !=
	    FRAME_OK)
		return rv;

	take = fr->hdr.len - fr->have;
	if (take > len - used)
		take = len - used;
	if (take > 0)
		memcpy(fr->payload + fr->have, buf + used, take);
	fr->have += take;
	used += take;
	if (fr->have == fr->hdr.len)
		fr->ready = 1;
	return (long)used;
}
