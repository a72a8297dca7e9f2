/*
 * msgstart.c: the IMSG_START_REQ payload, struct msg_start followed by
 * argc NUL-terminated strings.  The relay encodes it from a start frame
 * it already checked; the root parent decodes it and trusts nothing the
 * relay did, so the decoder repeats every rule on its own.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/frame.h"
#include "proto/imsg.h"

#define MSG_START_MAX	(sizeof(struct msg_start) + FRAME_MAX_PAYLOAD)

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
		if (alen + 1 > MSG_START_MAX - need)
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

int
msg_start_decode(const uint8_t *buf, size_t len, struct start_args *args)
{
	const uint8_t	*p, *nul;
	size_t		 rem, lim, slen;
	unsigned int	 i;

	if (len > MSG_START_MAX)
		return FRAME_E_TOOLARGE;
	if (len < sizeof(args->fixed))
		return FRAME_E_TRUNCATED;
	memcpy(&args->fixed, buf, sizeof(args->fixed));
	if (args->fixed.runtime > START_MAX_RUNTIME)
		return FRAME_E_RUNTIME;
	if (args->fixed.argc < 1 || args->fixed.argc > START_MAX_ARGS)
		return FRAME_E_ARGC;
	if (!winsize_valid(args->fixed.rows, args->fixed.cols))
		return FRAME_E_WINSIZE;
	if (args->fixed.zero != 0)
		return FRAME_E_RESERVED;

	p = buf + sizeof(args->fixed);
	rem = len - sizeof(args->fixed);
	for (i = 0; i < args->fixed.argc; i++) {
		/* Look no further than one byte past the longest argument. */
		lim = rem < START_MAX_ARGLEN + 1 ? rem : START_MAX_ARGLEN + 1;
		if ((nul = memchr(p, '\0', lim)) == NULL)
			/* cppcheck is wrong: equal when rem <= 4097. */
			/* cppcheck-suppress knownConditionTrueFalse */
			return lim == rem ? FRAME_E_TRUNCATED : FRAME_E_ARGLEN;
		slen = (size_t)(nul - p);
		if (i == 0 && slen == 0)
			return FRAME_E_EMPTYARG0;
		args->argv[i] = (const char *)p;
		rem -= slen + 1;
		p = nul + 1;
	}
	if (rem != 0)
		return FRAME_E_TRAILING;
	return 0;
}
