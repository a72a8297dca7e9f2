/*
 * startenc.c: the relay's encoder of the IMSG_START_REQ payload (the
 * layout is in imsg.h), from a start frame it already checked.  Kept
 * apart from the decoder (msgstart.c) so that the root parent, which
 * only decodes, does not link it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/frame.h"
#include "proto/imsg.h"

int
msg_start_encode(const struct start_req *req, uint8_t *buf, size_t len)
{
	struct msg_start	fixed;
	size_t			need, off, alen;
	unsigned int		i;

	if (req->runtime > START_MAX_RUNTIME)
		return FRAME_E_RUNTIME;
	if (req->argc < 1 || req->argc > START_MAX_ARGS)
		return FRAME_E_ARGC;
	if (!winsize_valid(req->rows, req->cols))
		return FRAME_E_WINSIZE;
	need = sizeof(fixed);
	for (i = 0; i < req->argc; i++) {
		alen = req->arglen[i];
		if (alen > START_MAX_ARGLEN)
			return FRAME_E_ARGLEN;
		if (i == 0 && alen == 0)
			return FRAME_E_EMPTYARG0;
		if (alen > 0 && memchr(req->argv[i], '\0', alen) != NULL)
			return FRAME_E_NUL;
		if (alen + 1 > IMSG_MAX_PAYLOAD - need)
			return FRAME_E_TOOLARGE;
		need += alen + 1;
	}
	if (need > len)
		return FRAME_E_SPACE;

	memset(&fixed, 0, sizeof(fixed));
	fixed.dev = req->dev;
	fixed.ino = req->ino;
	fixed.runtime = req->runtime;
	fixed.argc = req->argc;
	fixed.rows = req->rows;
	fixed.cols = req->cols;
	memcpy(buf, &fixed, sizeof(fixed));
	off = sizeof(fixed);
	for (i = 0; i < req->argc; i++) {
		if (req->arglen[i] > 0)
			memcpy(buf + off, req->argv[i], req->arglen[i]);
		off += req->arglen[i];
		buf[off++] = '\0';
	}
	return (int)need;
}
