/*
 * msgstart.c: the decoder of the IMSG_START_REQ payload, struct
 * msg_start followed by argc NUL-terminated strings.  The relay encodes
 * it (startenc.c) from a start frame it already checked; the root parent
 * decodes it here and trusts nothing the relay did, so the decoder
 * repeats every rule on its own.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/imsg.h"

int
msg_start_decode(const uint8_t *buf, size_t len, struct start_args *args)
{
	const uint8_t	*p, *nul;
	size_t		 rem, lim, slen;
	unsigned int	 i;

	if (len > IMSG_MAX_PAYLOAD)
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
