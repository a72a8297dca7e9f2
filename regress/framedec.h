/*
 * framedec.h: decoders of the two frames only the relay sends, exit and
 * error, for the tests, forged peers and benchmarks that read them as a
 * client would (test only, never linked into a shipped program).
 */
#ifndef OPTY_FRAMEDEC_H
#define OPTY_FRAMEDEC_H

#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"

int	exit_decode(const uint8_t *, size_t, struct exit_info *);
int	error_decode(const uint8_t *, size_t, struct error_info *);

#endif
