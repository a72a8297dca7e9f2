/*
 * sessq.c: the root parent's queue of session events (root).  The steps
 * the session table starts (auth.c, start.c, pts.c, unit.c,
 * shutdown.c) tell it what happened by posting here, never by calling
 * it: the table calls them, so a call back would close a ring, and one
 * transition would run inside another.  The table drains the queue in
 * order (parent/session.c says when); this file calls nothing of the
 * parent, and posting is always safe, inside a transition or not.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <event2/event.h>

#include "proto/log.h"
#include "parent/parent.h"

/*
 * Between two drains a session posts a few events at most (a reply or
 * a timer brings one or two, a transition one), so the queue is small;
 * more than it holds means a step posts in a loop: fail closed.
 */
#define SESSQ_MAX	(4 * OPTY_MAX_SLOTS)

static struct sess_news	 sessq[SESSQ_MAX];
static size_t		 sessq_head, sessq_len;
static struct event	*sessq_ev;

/*
 * The loop's turn for the queue comes before any other callback
 * (priority 0, the others' is 1): news of a step is acted on before
 * the next message, reply or timer is looked at.
 */
void
sessq_init(struct event_base *base, void (*drain)(int, short, void *))
{
	if ((sessq_ev = event_new(base, -1, 0, drain, NULL)) == NULL ||
	    event_priority_set(sessq_ev, 0) == -1)
		fatalx("session queue event");
}

void
parent_session_post(struct session *s, enum parent_session_ev ev, int code)
{
	if (sessq_len == SESSQ_MAX)
		fatalx("session %u: event %d: the session queue is full",
		    s->sid, ev);
	sessq[sessq_len++] = (struct sess_news){ .sid = s->sid, .ev = ev,
	    .code = code };
	if (sessq_ev != NULL)
		event_active(sessq_ev, EV_TIMEOUT, 0);
}

/*
 * The oldest news, NULL once the queue is empty; it stays in place
 * while the table acts on it (posts only append).
 */
const struct sess_news *
sessq_pop(void)
{
	if (sessq_head == sessq_len) {
		sessq_head = sessq_len = 0;
		return NULL;
	}
	return &sessq[sessq_head++];
}
