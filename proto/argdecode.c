/*
 * argdecode.c: the decoder of the launcher's argument codec (argcodec.h).
 * It runs in the launcher as the session user on whatever systemd put
 * on its command line, so it accepts exactly one spelling of each byte
 * string (the one arg_encode() writes, in the root parent) and rejects
 * everything else.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/argcodec.h"

/* Longest canonical suffix after the 'a': base64 of START_MAX_ARGLEN. */
#define ARG_SUFFIX_MAX	((START_MAX_ARGLEN * 4 + 2) / 3)

/* Value of one alphabet character, or -1. */
static int
b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

int
arg_decode(const char *enc, char *out, size_t outsz)
{
	const char	*s;
	size_t		 n, i, o, rem, declen;
	uint32_t	 v;

	if (enc[0] != 'a')
		return ARG_E_PREFIX;
	s = enc + 1;

	/* Bound the scan itself: the suffix length alone decides TOOLONG. */
	n = strnlen(s, ARG_SUFFIX_MAX + 1);
	if (n > ARG_SUFFIX_MAX)
		return ARG_E_TOOLONG;
	for (i = 0; i < n; i++)
		if (b64_value((unsigned char)s[i]) < 0)
			return ARG_E_CHAR;
	rem = n % 4;
	if (rem == 1)
		return ARG_E_LENGTH;
	declen = n / 4 * 3 + (rem == 0 ? 0 : rem - 1);
	if (outsz < declen + 1)
		return ARG_E_SPACE;

	o = 0;
	for (i = 0; n - i >= 4; i += 4) {
		v = (uint32_t)b64_value((unsigned char)s[i]) << 18 |
		    (uint32_t)b64_value((unsigned char)s[i + 1]) << 12 |
		    (uint32_t)b64_value((unsigned char)s[i + 2]) << 6 |
		    (uint32_t)b64_value((unsigned char)s[i + 3]);
		out[o++] = (char)(v >> 16 & 0xff);
		out[o++] = (char)(v >> 8 & 0xff);
		out[o++] = (char)(v & 0xff);
	}
	if (rem == 2) {
		v = (uint32_t)b64_value((unsigned char)s[i]) << 18 |
		    (uint32_t)b64_value((unsigned char)s[i + 1]) << 12;
		/* 12 bits carry 8: the low 4 must be zero to be canonical. */
		if ((v & 0xffff) != 0)
			return ARG_E_BITS;
		out[o++] = (char)(v >> 16 & 0xff);
	} else if (rem == 3) {
		v = (uint32_t)b64_value((unsigned char)s[i]) << 18 |
		    (uint32_t)b64_value((unsigned char)s[i + 1]) << 12 |
		    (uint32_t)b64_value((unsigned char)s[i + 2]) << 6;
		/* 18 bits carry 16: the low 2 must be zero. */
		if ((v & 0xff) != 0)
			return ARG_E_BITS;
		out[o++] = (char)(v >> 16 & 0xff);
		out[o++] = (char)(v >> 8 & 0xff);
	}
	if (o > 0 && memchr(out, '\0', o) != NULL)
		return ARG_E_NUL;
	out[o] = '\0';
	return (int)o;
}

const char *
arg_strerror(int status)
{
	switch (status) {
	case ARG_OK:
		return "ok";
	case ARG_E_PREFIX:
		return "argument does not start with 'a'";
	case ARG_E_CHAR:
		return "argument has a character outside [A-Za-z0-9_-]";
	case ARG_E_LENGTH:
		return "argument has an impossible base64 length";
	case ARG_E_BITS:
		return "argument is not canonical base64 (trailing bits)";
	case ARG_E_TOOLONG:
		return "argument decodes to more than 4096 bytes";
	case ARG_E_NUL:
		return "argument contains a NUL byte";
	case ARG_E_SPACE:
		return "output buffer too small";
	default:
		return "unknown argument error";
	}
}
