/*
 * framepeer.h: the frame codecs only a test peer needs: decoders of the
 * two frames only the relay sends, exit and error, for the tests, forged
 * peers and benchmarks that read them as a client would, and the encoder
 * of the signal frame, which only the Node module (JavaScript) sends
 * (test only, never linked into a shipped program).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_FRAMEPEER_H
#define OPTY_FRAMEPEER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"

/* A decoded error frame: no shipped program reads one. */
struct error_info {
	uint16_t	code;		/* enum frame_error */
	char		text[ERROR_MAX_TEXT + 1];
};

int	exit_decode(const uint8_t *, size_t, struct exit_info *);
int	error_decode(const uint8_t *, size_t, struct error_info *);
int	signal_encode(uint8_t, uint8_t *, size_t);

#endif
