/*
 * ttyrules.c: the bounds of a session's terminal that every process
 * checks on its own: the window size and the signals a client may ask
 * for.  Linked into the relay and client (frame codecs) and into the
 * root parent, which judges the relay's requests by the same rules.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdint.h>

#include "proto/wire.h"

int
winsize_valid(uint32_t rows, uint32_t cols)
{
	return rows >= 1 && rows <= WINSIZE_MAX && cols >= 1 &&
	    cols <= WINSIZE_MAX;
}

/*
 * The signals a client may send its command: the job-control and
 * termination set a terminal user can cause, and nothing that reports
 * a fault (SEGV, BUS, ...) or is reserved by the C library.  Written
 * out as numbers so both ends agree whatever headers they build with.
 */
int
signal_allowed(uint32_t sig)
{
	switch (sig) {
	case 1:		/* HUP */
	case 2:		/* INT */
	case 3:		/* QUIT */
	case 9:		/* KILL */
	case 10:	/* USR1 */
	case 12:	/* USR2 */
	case 15:	/* TERM */
	case 18:	/* CONT */
	case 19:	/* STOP */
	case 20:	/* TSTP */
	case 28:	/* WINCH */
		return 1;
	default:
		return 0;
	}
}
