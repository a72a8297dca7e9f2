/*
 * framepeer.c: decoders of the exit and error frames (docs/PROTOCOL.md),
 * which the relay only encodes, and the encoder of the signal frame,
 * which only the Node module sends.  Test only: the tests and tools read
 * what the relay wrote with the same checks a client makes, bounds
 * checked subtractively against the bytes that remain.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "regress/framepeer.h"

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * The client's own reading of the rule for result and error texts
 * (docs/PROTOCOL.md): printable ASCII, no NUL.  Written again here, not
 * taken from proto/frame.c, so that the peer checks what the relay wrote
 * against the rule rather than against the relay's code.
 */
static int
text_check(const uint8_t *p, size_t len)
{
	size_t	i;

	if (memchr(p, '\0', len) != NULL)
		return FRAME_E_NUL;
	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return FRAME_E_STRING;
	return FRAME_OK;
}

int
exit_decode(const uint8_t *buf, size_t len, struct exit_info *ei)
{
	uint32_t	rlen;
	int		rv;

	if (len < EXIT_FIXED_LEN)
		return FRAME_E_TRUNCATED;
	rlen = get32(buf + 5);
	if (rlen > EXIT_MAX_RESULT)
		return FRAME_E_STRING;
	if (rlen > len - EXIT_FIXED_LEN)
		return FRAME_E_TRUNCATED;
	if (rlen < len - EXIT_FIXED_LEN)
		return FRAME_E_TRAILING;
	if ((rv = text_check(buf + EXIT_FIXED_LEN, rlen)) != FRAME_OK)
		return rv;
	ei->code = buf[0];
	ei->status = get32(buf + 1);
	memcpy(ei->result, buf + EXIT_FIXED_LEN, rlen);
	ei->result[rlen] = '\0';
	return FRAME_OK;
}

int
error_decode(const uint8_t *buf, size_t len, struct error_info *ei)
{
	uint16_t	tlen;
	int		rv;

	if (len < ERROR_FIXED_LEN)
		return FRAME_E_TRUNCATED;
	tlen = (uint16_t)((uint16_t)buf[2] << 8 | buf[3]);
	if (tlen > ERROR_MAX_TEXT)
		return FRAME_E_STRING;
	if (tlen > len - ERROR_FIXED_LEN)
		return FRAME_E_TRUNCATED;
	if (tlen < len - ERROR_FIXED_LEN)
		return FRAME_E_TRAILING;
	if ((rv = text_check(buf + ERROR_FIXED_LEN, tlen)) != FRAME_OK)
		return rv;
	ei->code = (uint16_t)((uint16_t)buf[0] << 8 | buf[1]);
	memcpy(ei->text, buf + ERROR_FIXED_LEN, tlen);
	ei->text[tlen] = '\0';
	return FRAME_OK;
}

int
signal_encode(uint8_t sig, uint8_t *buf, size_t len)
{
	if (!signal_allowed(sig))
		return FRAME_E_SIGNAL;
	if (len < SIGNAL_LEN)
		return FRAME_E_SPACE;
	buf[0] = sig;
	return SIGNAL_LEN;
}
