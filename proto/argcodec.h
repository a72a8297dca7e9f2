/*
 * argcodec.h: the launcher's argument encoding.  The root parent encodes
 * each command argument as "a" + unpadded URL-safe base64 so that the
 * ExecStart line systemd sees is inert; the launcher (as the session
 * user) accepts only the canonical form of that grammar.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_ARGCODEC_H
#define OPTY_ARGCODEC_H

#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

/* Longest encoded argument (strlen): "a" + base64 of 4096 bytes; buffers
 * need one more byte for the NUL. */
#define ARG_ENC_MAX	(1 + (START_MAX_ARGLEN * 4 + 2) / 3)

enum arg_status {
	ARG_OK = 0,
	ARG_E_PREFIX = -1,	/* does not start with 'a' */
	ARG_E_CHAR = -2,	/* outside [A-Za-z0-9_-] (e.g. padding) */
	ARG_E_LENGTH = -3,	/* impossible base64 length (mod 4 == 1) */
	ARG_E_BITS = -4,	/* non-zero trailing bits: not canonical */
	ARG_E_TOOLONG = -5,	/* decodes to more than START_MAX_ARGLEN */
	ARG_E_NUL = -6,		/* decoded bytes contain NUL */
	ARG_E_SPACE = -7,	/* output buffer too small */
};

/* Writes a NUL-terminated encoding; returns its strlen or ARG_E_*. */
int	arg_encode(const uint8_t *, size_t, char *, size_t);
/* Decodes into a NUL-terminated buffer; returns the decoded length. */
int	arg_decode(const char *, char *, size_t);
const char *arg_strerror(int);

#endif
