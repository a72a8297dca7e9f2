/*
 * intake.c: the client-input state machine of one relay session.  Runs
 * in the unprivileged, sandboxed relay on bytes and descriptors from an
 * untrusted client, so every rule ends in a clear error code for the
 * client and never in a crash, an allocation or a leaked descriptor.
 *
 * Rules (docs/RELAY.md): after admission exactly one start frame, with
 * exactly one descriptor in total, received while that frame is being
 * read, and resize frames before it; after it, input, resize and signal
 * frames.  A frame of the wrong type is refused as soon as its header
 * is in, before its payload is taken.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "proto/frame.h"
#include "relay/intake.h"

void
intake_init(struct intake *in)
{
	in->phase = INTAKE_START;
	in->dirfd = -1;
	in->nfds = 0;
	in->failed = 0;
	memset(&in->start, 0, sizeof(in->start));
	frame_reader_init(&in->fr);
}

void
intake_reset(struct intake *in)
{
	if (in->dirfd != -1)
		close(in->dirfd);
	intake_init(in);
}

static int
intake_fail(struct intake *in, uint16_t code, uint16_t *codep)
{
	in->failed = 1;
	*codep = code;
	return INTAKE_ERROR;
}

/*
 * Descriptors that came with one read.  The first one is kept as the
 * directory; every other one is closed at once, and any of them beyond
 * the first in the session's life ends the session.  A descriptor is
 * only welcome while the start frame is still being read.
 */
int
intake_fds(struct intake *in, const int *fds, size_t n, uint16_t *codep)
{
	size_t	i;
	int	bad = 0;

	for (i = 0; i < n; i++) {
		if (in->phase == INTAKE_START && !in->fr.ready &&
		    in->nfds == 0 && !in->failed)
			in->dirfd = fds[i];
		else {
			close(fds[i]);
			bad = 1;
		}
		if (in->nfds < 2)
			in->nfds++;
	}
	if (in->failed)
		return intake_fail(in, ERR_PROTOCOL, codep);
	if (bad)
		return intake_fail(in, ERR_FD_EXTRA, codep);
	return INTAKE_MORE;
}

/*
 * A header just completed: refuse a wrong type before its payload.  0
 * if the type is welcome, else the error code for the client: a frame
 * only valid later is ERR_UNEXPECTED, anything else ERR_PROTOCOL.
 */
static uint16_t
intake_check_type(const struct intake *in)
{
	switch (in->fr.hdr.type) {
	case FRAME_RESIZE:
		return 0;
	case FRAME_START:
		return in->phase == INTAKE_START ? 0 : ERR_PROTOCOL;
	case FRAME_INPUT:
	case FRAME_SIGNAL:
		return in->phase == INTAKE_INPUT ? 0 : ERR_UNEXPECTED;
	default:
		return in->phase == INTAKE_START ? ERR_UNEXPECTED :
		    ERR_PROTOCOL;
	}
}

/* The event a complete frame of this (already welcome) type makes. */
static int
intake_event(const struct intake *in)
{
	switch (in->fr.hdr.type) {
	case FRAME_START:
		return INTAKE_STARTED;
	case FRAME_RESIZE:
		return INTAKE_RESIZE;
	case FRAME_SIGNAL:
		return INTAKE_SIGNAL;
	default:
		return INTAKE_DATA;
	}
}

static int
intake_complete(struct intake *in, uint16_t *codep)
{
	const uint8_t	*p = in->fr.payload;
	size_t		 len = in->fr.hdr.len;

	switch (in->fr.hdr.type) {
	case FRAME_INPUT:
		return INTAKE_DATA;
	case FRAME_RESIZE:
		if (resize_decode(p, len, &in->ws) != FRAME_OK)
			return intake_fail(in, ERR_PROTOCOL, codep);
		return INTAKE_RESIZE;
	case FRAME_SIGNAL:
		if (signal_decode(p, len, &in->sig) != FRAME_OK)
			return intake_fail(in, ERR_PROTOCOL, codep);
		return INTAKE_SIGNAL;
	}
	if (start_decode(in->fr.payload, in->fr.hdr.len, &in->start) !=
	    FRAME_OK)
		return intake_fail(in, ERR_PROTOCOL, codep);
	if (in->dirfd == -1)
		return intake_fail(in, ERR_FD_MISSING, codep);
	return INTAKE_STARTED;
}

/*
 * Takes bytes until one frame is complete or an error is found; *usedp
 * says how many were taken, the rest belongs to later frames.  While a
 * frame is held (until intake_done()) nothing more is taken.
 */
int
intake_feed(struct intake *in, const uint8_t *buf, size_t len,
    size_t *usedp, uint16_t *codep)
{
	long		n;
	uint16_t	code;

	*usedp = 0;
	if (in->failed)
		return intake_fail(in, ERR_PROTOCOL, codep);
	if (in->fr.ready)
		return intake_event(in);
	if ((n = frame_reader_feed(&in->fr, buf, len)) < 0)
		return intake_fail(in, ERR_PROTOCOL, codep);
	*usedp = (size_t)n;
	if (in->fr.hhave == FRAME_HDR_LEN &&
	    (code = intake_check_type(in)) != 0)
		return intake_fail(in, code, codep);
	if (!in->fr.ready)
		return INTAKE_MORE;
	return intake_complete(in, codep);
}

/* The held frame was handled: the next one may come. */
void
intake_done(struct intake *in)
{
	if (in->fr.hdr.type == FRAME_START)
		in->phase = INTAKE_INPUT;
	frame_reader_next(&in->fr);
}

const uint8_t *
intake_data(const struct intake *in, size_t *lenp)
{
	*lenp = in->fr.hdr.len;
	return in->fr.payload;
}

/* Hands the directory descriptor over; the caller then owns it. */
int
intake_take_dirfd(struct intake *in)
{
	int	fd = in->dirfd;

	in->dirfd = -1;
	return fd;
}
