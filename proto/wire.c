/*
 * wire.c: the rules of wire.h that every process applies on its own:
 * the window size and the signals a client may ask for, and the default
 * text of each error frame code.  Linked into the relay and client
 * (frame codecs) and into the root parent, which judges the relay's
 * requests by the same rules and only logs codes: kept apart from
 * frame.c so the parent links no frame parser.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
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

const char *
frame_error_text(uint16_t code)
{
	static const char *const text[] = {
		[ERR_PROTOCOL] = "protocol error",
		[ERR_UNEXPECTED] = "unexpected frame",
		[ERR_BUSY] = "too many sessions",
		[ERR_AUTH_PEER] = "peer credentials unavailable",
		[ERR_AUTH_PID] = "peer is not the client service",
		[ERR_AUTH_STATE] = "client service not running",
		[ERR_AUTH_CGROUP] = "client service in unexpected cgroup",
		[ERR_AUTH_CHANGED] = "client identity changed",
		[ERR_FD_MISSING] = "directory descriptor missing",
		[ERR_FD_EXTRA] = "more than one descriptor",
		[ERR_NOTDIR] = "descriptor is not a directory",
		[ERR_DIR_MISMATCH] = "directory does not match start frame",
		[ERR_START] = "unit could not be started",
		[ERR_INTERNAL] = "internal supervisor error",
		[ERR_SHUTDOWN] = "supervisor shutting down",
		[ERR_AUTH_DUMPABLE] = "client service is dumpable",
	};

	if (code >= sizeof(text) / sizeof(text[0]) || text[code] == NULL)
		return "unknown error";
	return text[code];
}
