/*
 * errtext.c: the default text of each error frame code.  Shared by the
 * relay (which sends error frames) and the root parent (which only logs
 * codes): kept apart from frame.c so the parent links no frame parser.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdint.h>

#include "proto/wire.h"

const char *
frame_error_text(uint16_t code)
{
	switch (code) {
	case ERR_PROTOCOL:
		return "protocol error";
	case ERR_UNEXPECTED:
		return "unexpected frame";
	case ERR_BUSY:
		return "too many sessions";
	case ERR_AUTH_PEER:
		return "peer credentials unavailable";
	case ERR_AUTH_PID:
		return "peer is not the client service";
	case ERR_AUTH_STATE:
		return "client service not running";
	case ERR_AUTH_CGROUP:
		return "client service in unexpected cgroup";
	case ERR_AUTH_CHANGED:
		return "client identity changed";
	case ERR_FD_MISSING:
		return "directory descriptor missing";
	case ERR_FD_EXTRA:
		return "more than one descriptor";
	case ERR_NOTDIR:
		return "descriptor is not a directory";
	case ERR_DIR_MISMATCH:
		return "directory does not match start frame";
	case ERR_START:
		return "unit could not be started";
	case ERR_INTERNAL:
		return "internal supervisor error";
	case ERR_SHUTDOWN:
		return "supervisor shutting down";
	case ERR_AUTH_DUMPABLE:
		return "client service is dumpable";
	default:
		return "unknown error";
	}
}
