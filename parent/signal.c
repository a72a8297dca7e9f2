/*
 * signal.c: a session's IMSG_SIGNAL_REQ, from session.c (root parent).
 * A client's signal for its command is delivered by PID 1 to the unit's
 * main process (KillUnit, whom "main"): never to a process the relay
 * names, and never by the parent itself, which holds no CAP_KILL.  One
 * KillUnit per session is in flight at a time, so a client cannot make
 * PID 1's queue grow: signals asked for meanwhile wait in a short FIFO,
 * in the order asked, a repeat of the last one merged with it (as the
 * kernel merges a standard signal already pending), and any beyond the
 * FIFO dropped with a line in the journal.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdint.h>
#include <string.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/* A client flooding signals is told once a second, not per signal. */
static struct log_limit	signal_dropped;

static void	signal_next(struct session *);

static void
signal_done(struct dbusd_req *req, void *arg)
{
	struct session	*s = arg;
	int		 r;

	r = dbusd_unit_call_end(req);
	dbusd_req_free(req);
	s->kill_req = NULL;
	/* The command may have exited meanwhile: news, not an error. */
	if (r < 0)
		log_info("session %u: KillUnit %s: %s", s->sid, s->u.name,
		    strerror(-r));
	signal_next(s);
}

static void
signal_next(struct session *s)
{
	int	 sig, r;

	if (s->kill_req != NULL || s->sigq_n == 0)
		return;
	sig = s->sigq[0];
	memmove(s->sigq, s->sigq + 1, --s->sigq_n);
	if ((r = dbusd_unit_call(parent->bus, UM_KILL, s->u.name, sig,
	    signal_done, s, &s->kill_req)) < 0) {
		log_warnx("session %u: KillUnit %s %d: %s", s->sid, s->u.name,
		    sig, strerror(-r));
		s->sigq_n = 0;
		return;
	}
	log_info("session %u: signal %d to the main process of %s", s->sid,
	    sig, s->u.name);
}

/* Outside the set the relay lets through, a signal is a violation. */
static uint8_t
signal_of(const struct session *s, const struct imsg *m)
{
	struct imsg_signal	sg;

	memcpy(&sg, m->data, sizeof(sg));
	if (!signal_allowed(sg.signo))
		fatalx("relay violated the message table: signal %u is not "
		    "in the allowed set (session %u)", sg.signo, s->sid);
	return (uint8_t)sg.signo;
}

/* The command's end was told (or the client left): nothing more goes. */
void
signal_end(struct session *s)
{
	s->sigq_n = 0;
}

/* A request that crossed the exit report: checked, then dropped. */
void
signal_late(struct session *s, struct imsg *m)
{
	log_debug("session %u: signal %u after the exit, dropped", s->sid,
	    signal_of(s, m));
}

void
signal_request(struct session *s, struct imsg *m)
{
	struct imsg_signal	sg;

	sg.signo = signal_of(s, m);
	/* Waiting signals mean a KillUnit is in flight (signal_next). */
	if (s->sigq_n > 0 && s->sigq[s->sigq_n - 1] == sg.signo)
		return;
	if (s->sigq_n == sizeof(s->sigq)) {
		log_info_limited(&signal_dropped, "session %u: signal %u "
		    "dropped: %zu already waiting", s->sid, sg.signo,
		    sizeof(s->sigq));
		return;
	}
	s->sigq[s->sigq_n++] = (uint8_t)sg.signo;
	signal_next(s);
}
