/*
 * msgtab.c: the one table of parent-relay messages (docs/IMSG.md), as
 * data only: the channel code in imsg.c reads it, nothing here calls
 * anything.  Read by both sides; its real job is in the root parent,
 * where it bounds what a compromised relay can say: direction, exact
 * or bounded payload size, descriptor presence, and whether a type
 * names a session or the whole channel.  Which state of a session
 * allows a type is not the channel's business: each receiver has its
 * own table (parent/session.c, relay/slot.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>

#include "proto/imsg.h"

const struct msgtab_ent msgtab[IMSG_TYPE_MAX] = {
	[IMSG_AUTH_REQ] = { "AUTH_REQ", TO_PARENT, 0, 0,
	    FD_REQUIRED, SCOPE_SESSION },
	[IMSG_AUTH_OK] = { "AUTH_OK", TO_RELAY, 0, 0,
	    FD_NONE, SCOPE_SESSION },
	[IMSG_AUTH_DENY] = { "AUTH_DENY", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, SCOPE_SESSION },
	/* The smallest start: one argument of one byte plus its NUL. */
	[IMSG_START_REQ] = { "START_REQ", TO_PARENT,
	    sizeof(struct msg_start) + 2,
	    sizeof(struct msg_start) + FRAME_MAX_PAYLOAD,
	    FD_REQUIRED, SCOPE_SESSION },
	[IMSG_START_OK] = { "START_OK", TO_RELAY, 0, 0,
	    FD_REQUIRED, SCOPE_SESSION },
	[IMSG_START_FAIL] = { "START_FAIL", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, SCOPE_SESSION },
	[IMSG_EXIT] = { "EXIT", TO_RELAY,
	    sizeof(struct imsg_exit), sizeof(struct imsg_exit),
	    FD_NONE, SCOPE_SESSION },
	[IMSG_CLOSE_REQ] = { "CLOSE_REQ", TO_PARENT,
	    sizeof(struct imsg_close), sizeof(struct imsg_close),
	    FD_NONE, SCOPE_SESSION },
	[IMSG_CLOSED] = { "CLOSED", TO_RELAY, 0, 0,
	    FD_NONE, SCOPE_SESSION },
	[IMSG_SIGNAL_REQ] = { "SIGNAL_REQ", TO_PARENT,
	    sizeof(struct imsg_signal), sizeof(struct imsg_signal),
	    FD_NONE, SCOPE_SESSION },
	/* Channel-wide: session id 0, naming no session. */
	[IMSG_SHUTDOWN] = { "SHUTDOWN", TO_RELAY, 0, 0,
	    FD_NONE, SCOPE_CHANNEL },
	[IMSG_SHUTDOWN_DONE] = { "SHUTDOWN_DONE", TO_PARENT, 0, 0,
	    FD_NONE, SCOPE_CHANNEL },
};
