/*
 * admit.c: IMSG_AUTH_REQ and IMSG_CLOSE_REQ, the ends of a session's
 * life (root parent).  The connection descriptor is only looked at for
 * the peer's credentials and pidfd, and closed at once; the pidfd is
 * kept so the client can be authenticated again when it asks to start.
 * The relay waits for the answer to AUTH_REQ (it may send nothing else
 * for the session meanwhile); a CLOSE_REQ may cross any later answer.
 * A slot in AUTH is not a session: OPTY_MAX_SESSIONS counts the slots
 * past admission, and the parent holds the relay to that cap.
 */
#include <string.h>
#include <unistd.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	admit_busy;

void
session_auth_req(struct session *s, struct imsg *m)
{
	int	 conn = m->fd;

	m->fd = -1;
	s->state = SS_AUTH;
	auth_begin(s, conn);
}

/* Slots past admission: each may hold a unit. */
int
session_live_count(void)
{
	int	 i, n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (parent->sessions[i].state != SS_FREE &&
		    parent->sessions[i].state != SS_AUTH)
			n++;
	return n;
}

/* The end of an authentication: admission, or the start's re-check. */
void
session_authed(struct session *s, int code)
{
	struct imsg_code	 deny;

	if (s->state == SS_STARTING) {
		start_authed(s, code);
		return;
	}
	/* The relay's own cap is not trusted: a full table refuses here. */
	if (code == 0 && session_live_count() >= OPTY_MAX_SESSIONS) {
		log_info_limited(&admit_busy, "session %u: client pid %ld "
		    "refused: %d sessions live",
		    s->sid, (long)s->auth_pid, OPTY_MAX_SESSIONS);
		code = ERR_BUSY;
	}
	if (code != 0) {
		memset(&deny, 0, sizeof(deny));
		deny.code = code;
		parent_send(s, IMSG_AUTH_DENY, -1, &deny, sizeof(deny));
		session_reset(s);
		return;
	}
	s->client_pid = s->auth_pid;
	memcpy(s->invocation, s->auth_id.invocation, sizeof(s->invocation));
	log_info("session %u: admitted client pid %ld", s->sid,
	    (long)s->client_pid);
	s->state = SS_ADMITTED;
	parent_send(s, IMSG_AUTH_OK, -1, NULL, 0);
}

/* Answered only once the unit is confirmed gone (watch.c). */
void
session_close_req(struct session *s, struct imsg *m)
{
	struct imsg_close	 c;

	memcpy(&c, m->data, sizeof(c));
	s->state = SS_CLOSING;
	s->bytes_in = c.bytes_in;
	s->bytes_out = c.bytes_out;
	if (s->relay_end != -1) {
		close(s->relay_end);
		s->relay_end = -1;
	}
	/* No unit asked for yet (a re-authentication in flight is dropped). */
	if (!s->unit_made) {
		session_closed(s);
		return;
	}
	/* PID 1 takes our calls in order: this stop follows any start. */
	session_stop(s);
	session_check(s);
}

/* The last word on a session: the relay may reuse the slot after this. */
void
session_closed(struct session *s)
{
	parent_send(s, IMSG_CLOSED, -1, NULL, 0);
	if (s->argc != 0)
		journal_session(s);
	session_reset(s);
}
