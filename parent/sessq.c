/*
 * sessq.c: the root parent's queue of session events (root).  The steps
 * the session table starts (auth.c, start.c, pts.c, watch.c,
 * shutdown.c) tell it what happened by posting here, never by calling
 * it: the table calls them, so a call back would close a ring, and one
 * transition would run inside another.  The table drains the queue in
 * order (parent/session.c says when); this file calls nothing of the
 * parent, and posting is always safe, inside a transition or not.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "proto/log.h"
#include "parent/parent.h"

struct sessq_ent {
	uint32_t		 sid;
	enum parent_session_ev	 ev;
	int			 code;
};

static struct sessq_ent	*sessq;
static size_t		 sessq_head, sessq_len, sessq_cap;
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
	struct sessq_ent	*n;

	if (sessq_head > 0 && sessq_len == sessq_cap) {
		memmove(sessq, sessq + sessq_head,
		    (sessq_len - sessq_head) * sizeof(*sessq));
		sessq_len -= sessq_head;
		sessq_head = 0;
	}
	if (sessq_len == sessq_cap) {
		n = reallocarray(sessq, sessq_cap + OPTY_MAX_SLOTS,
		    sizeof(*sessq));
		if (n == NULL)
			fatal("session queue");
		sessq = n;
		sessq_cap += OPTY_MAX_SLOTS;
	}
	sessq[sessq_len].sid = s->sid;
	sessq[sessq_len].ev = ev;
	sessq[sessq_len].code = code;
	sessq_len++;
	if (sessq_ev != NULL)
		event_active(sessq_ev, EV_TIMEOUT, 0);
}

/* The oldest event, 0 once the queue is empty. */
int
sessq_pop(uint32_t *sid, enum parent_session_ev *ev, int *code)
{
	if (sessq_head == sessq_len) {
		sessq_head = sessq_len = 0;
		return 0;
	}
	*sid = sessq[sessq_head].sid;
	*ev = sessq[sessq_head].ev;
	*code = sessq[sessq_head].code;
	sessq_head++;
	return 1;
}
