/*
 * errtext.c: the default text of each error frame code.  Shared by the
 * relay (which sends error frames) and the root parent (which only logs
 * codes): kept apart from frame.c so the parent links no frame parser.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

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
