/*
 * dispatch.c: parent_dispatch_relay, the root parent's only door for the
 * relay.  Every message is checked against proto/msgtab.c (type,
 * direction, exact length, descriptor, session id), then given to
 * session.c's table as an event: a request with no row for the
 * session's state is the one state check.  Any violation is fatal and
 * the parent fails closed, because a relay that breaks the tables is
 * compromised.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/* The relay may send these and nothing else; session.c takes them. */
static const enum parent_session_ev relay_events[IMSG_TYPE_MAX] = {
	[IMSG_AUTH_REQ] = PEV_AUTH_REQ,
	[IMSG_START_REQ] = PEV_START_REQ,
	[IMSG_CLOSE_REQ] = PEV_CLOSE_REQ,
	[IMSG_SIGNAL_REQ] = PEV_SIGNAL_REQ,
};

/* For the line that says why the parent fails closed. */
static const char *const state_names[SS_NSTATES] = {
	[SS_FREE] = "FREE",
	[SS_AUTH] = "AUTH",
	[SS_ADMITTED] = "ADMITTED",
	[SS_STARTING] = "STARTING",
	[SS_RUNNING] = "RUNNING",
	[SS_ENDED] = "ENDED",
	[SS_CLOSING] = "CLOSING",
};

static struct imsg	 relay_msg;	/* 64 KiB: not on the stack */

void
parent_dispatch_relay(int fd, short ev, void *arg)
{
	struct imsg	*m = &relay_msg;
	struct session	*s;
	int		 r;

	(void)ev;
	(void)arg;
	for (;;) {
		r = imsg_recv(fd, TO_PARENT, m);
		if (r == IMSG_E_IO && (errno == EAGAIN || errno == EINTR))
			return;
		if (r == 0)
			relayproc_lost("closed the channel");
		if (r == IMSG_E_IO)
			fatal("relay channel");
		if (r < 0)
			fatalx("relay violated the message table: %s",
			    imsg_strerror(r));
		s = &parent->sessions[m->hdr.sid];
		if (m->hdr.type == IMSG_SHUTDOWN_DONE)
			parent_shutdown_done();
		else if (relay_events[m->hdr.type] == PEV_NONE ||
		    parent_session_event(s, relay_events[m->hdr.type],
		    m) == -1) {
			if (m->fd != -1)
				close(m->fd);
			fatalx("relay violated the message table: not allowed "
			    "in this state (type %s, session %u, state %s)",
			    imsg_type_name(m->hdr.type), m->hdr.sid,
			    state_names[s->state]);
		}
		if (m->fd != -1) {
			close(m->fd);
			m->fd = -1;
		}
		parent_status();
	}
}
