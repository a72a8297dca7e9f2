/*
 * wire.h: the facts of the client wire protocol (docs/PROTOCOL.md) that
 * the root parent judges by too: the bounds of a start request, the
 * window size and the signals a client may ask for, the codes of a
 * refusal.  Every process includes it; the frame codec itself (frame.h)
 * only the relay and the client, so the root parent parses no frame.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_WIRE_H
#define OPTY_WIRE_H

#include <stdint.h>

#define FRAME_MAX_PAYLOAD	65536u

#define START_MAX_ARGS		128
#define START_MAX_ARGLEN	4096
#define START_MAX_RUNTIME	3600

#define EXIT_MAX_RESULT		64
#define WINSIZE_MAX		4096	/* rows and cols are 1..4096 */

/* Decoder results: 0 is success, each rule its own negative code. */
enum frame_status {
	FRAME_OK = 0,
	FRAME_E_MAGIC = -1,
	FRAME_E_VERSION = -2,
	FRAME_E_RESERVED = -3,
	FRAME_E_TYPE = -4,
	FRAME_E_TOOLARGE = -5,	/* payload length over the type's cap */
	FRAME_E_TRUNCATED = -6,
	FRAME_E_TRAILING = -7,
	FRAME_E_ARGC = -8,
	FRAME_E_ARGLEN = -9,
	FRAME_E_EMPTYARG0 = -10,
	FRAME_E_NUL = -11,
	FRAME_E_RUNTIME = -12,
	FRAME_E_STRING = -13,	/* result/text string over its bound */
	FRAME_E_SPACE = -14,	/* encoder: output buffer too small */
	FRAME_E_WINSIZE = -15,	/* rows or cols not 1..4096 */
	FRAME_E_SIGNAL = -16,	/* signal not in the allowed set */
};

/*
 * Error frame codes: stable numbers a client may act on.  The text is
 * for people; see docs/PROTOCOL.md for the meaning of each code.
 */
enum frame_error {
	ERR_PROTOCOL = 1,	/* malformed frame */
	ERR_UNEXPECTED = 2,	/* valid frame not allowed in this state */
	ERR_BUSY = 3,		/* 16 sessions live */
	ERR_AUTH_PEER = 4,	/* no SO_PEERCRED / SO_PEERPIDFD */
	ERR_AUTH_PID = 5,	/* peer is not the client service's MainPID */
	ERR_AUTH_STATE = 6,	/* client service not active/running */
	ERR_AUTH_CGROUP = 7,	/* client service cgroup not the expected one */
	ERR_AUTH_CHANGED = 8,	/* client identity changed while checked */
	ERR_FD_MISSING = 9,	/* start frame without a descriptor */
	ERR_FD_EXTRA = 10,	/* more than one descriptor */
	ERR_NOTDIR = 11,	/* descriptor is not a directory */
	ERR_DIR_MISMATCH = 12,	/* st_dev/st_ino differ from the frame */
	ERR_START = 13,		/* systemd refused or failed the unit */
	ERR_INTERNAL = 14,	/* supervisor-side failure (e.g. bus down) */
	ERR_SHUTDOWN = 15,	/* supervisor is stopping */
	ERR_AUTH_DUMPABLE = 16,	/* client attachable by any same-uid process */
};

int	winsize_valid(uint32_t, uint32_t);
int	signal_allowed(uint32_t);	/* the fixed set of frame type 7 */
const char *frame_error_text(uint16_t); /* default text of an ERR_ code */

#endif
