/*
 * argcodec.c: the encoder of the launcher's argument codec, "a" +
 * unpadded URL-safe base64.  It runs in the root parent on arguments it
 * has already bounded; the decoder (argdecode.c) runs in the launcher,
 * which the root parent does not link.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/argcodec.h"

/* With its NUL: GCC 15 and later warn on a string that fills the array. */
static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "abcdefghijklmnopqrstuvwxyz"
    "0123456789-_";

int
arg_encode(const uint8_t *in, size_t len, char *out, size_t outsz)
{
	size_t	 i, k, n, o, need;
	uint32_t v;
	uint8_t	 g[3];

	/*
	 * Refuse what the decoder would refuse, so that the parent can
	 * never build an ExecStart line the launcher rejects.
	 */
	if (len > START_MAX_ARGLEN)
		return ARG_E_TOOLONG;
	if (len > 0 && memchr(in, '\0', len) != NULL)
		return ARG_E_NUL;
	need = 1 + (len * 4 + 2) / 3 + 1;
	if (outsz < need)
		return ARG_E_SPACE;

	/* Each group of n <= 3 bytes is n + 1 digits: unpadded base64. */
	o = 0;
	out[o++] = 'a';
	for (i = 0; i < len; i += n) {
		n = len - i < 3 ? len - i : 3;
		memset(g, 0, sizeof(g));
		memcpy(g, in + i, n);
		v = (uint32_t)g[0] << 16 | (uint32_t)g[1] << 8 | g[2];
		for (k = 0; k <= n; k++)
			out[o++] = b64_alphabet[v >> (18 - 6 * k) & 63];
	}
	out[o] = '\0';
	return (int)o;
}
