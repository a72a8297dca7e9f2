/*
 * msgtab.c: the one table of parent-relay messages (docs/IMSG.md), as
 * data only: the channel code in imsg.c reads it, nothing here calls
 * anything.  Read by both sides; its real job is in the root parent,
 * where it bounds what a compromised relay can say: direction, exact
 * payload size, descriptor presence and the session states allowing
 * each type.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>

#include "proto/imsg.h"

#define S(x)	SS_BIT(SS_ ## x)

const struct msgtab_ent msgtab[IMSG_TYPE_MAX] = {
	[IMSG_AUTH_REQ] = { "AUTH_REQ", TO_PARENT, 0, 0,
	    FD_REQUIRED, S(FREE) },
	[IMSG_AUTH_OK] = { "AUTH_OK", TO_RELAY, 0, 0,
	    FD_NONE, S(AUTH) },
	[IMSG_AUTH_DENY] = { "AUTH_DENY", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, S(AUTH) },
	/* The smallest start: one argument of one byte plus its NUL. */
	[IMSG_START_REQ] = { "START_REQ", TO_PARENT,
	    sizeof(struct msg_start) + 2,
	    sizeof(struct msg_start) + FRAME_MAX_PAYLOAD,
	    FD_REQUIRED, S(ADMITTED) },
	/*
	 * CLOSING in the relay's rows: the parent may have answered before
	 * it read a close request that crossed its answer.
	 */
	[IMSG_START_OK] = { "START_OK", TO_RELAY, 0, 0,
	    FD_REQUIRED, S(STARTING) | S(CLOSING) },
	[IMSG_START_FAIL] = { "START_FAIL", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, S(STARTING) | S(CLOSING) },
	[IMSG_EXIT] = { "EXIT", TO_RELAY,
	    sizeof(struct imsg_exit), sizeof(struct imsg_exit),
	    FD_NONE, S(STARTING) | S(RUNNING) | S(CLOSING) },
	[IMSG_CLOSE_REQ] = { "CLOSE_REQ", TO_PARENT,
	    sizeof(struct imsg_close), sizeof(struct imsg_close),
	    FD_NONE, S(ADMITTED) | S(STARTING) | S(RUNNING) | S(ENDED) },
	[IMSG_CLOSED] = { "CLOSED", TO_RELAY, 0, 0,
	    FD_NONE, S(CLOSING) },
	/*
	 * ENDED: the parent may have sent the exit before it read a signal
	 * request that crossed it; that request is then dropped.
	 */
	[IMSG_SIGNAL_REQ] = { "SIGNAL_REQ", TO_PARENT,
	    sizeof(struct imsg_signal), sizeof(struct imsg_signal),
	    FD_NONE, S(RUNNING) | S(ENDED) },
	/* Channel-wide: session id 0, whatever that slot's state. */
	[IMSG_SHUTDOWN] = { "SHUTDOWN", TO_RELAY, 0, 0,
	    FD_NONE, SS_ANY },
	[IMSG_SHUTDOWN_DONE] = { "SHUTDOWN_DONE", TO_PARENT, 0, 0,
	    FD_NONE, SS_ANY },
};

const char *const sess_state_names[SS_NSTATES] = {
	[SS_FREE] = "FREE",
	[SS_AUTH] = "AUTH",
	[SS_ADMITTED] = "ADMITTED",
	[SS_STARTING] = "STARTING",
	[SS_RUNNING] = "RUNNING",
	[SS_ENDED] = "ENDED",
	[SS_CLOSING] = "CLOSING",
};
