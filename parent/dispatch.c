/*
 * dispatch.c: parent_dispatch_relay, the root parent's only door for the
 * relay.  Every message is checked against proto/msgtab.c (type,
 * direction, exact length, descriptor, session id) and the session's
 * state before a handler sees it; any violation is fatal and the parent
 * fails closed, because a relay that breaks the table is compromised.
 */
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

typedef void (*parent_handler)(struct session *, struct imsg *);

/* The relay may send these and nothing else. */
static const parent_handler parent_handlers[IMSG_TYPE_MAX] = {
	[IMSG_AUTH_REQ] = session_auth_req,
	[IMSG_START_REQ] = session_start_req,
	[IMSG_CLOSE_REQ] = session_close_req,
	[IMSG_SIGNAL_REQ] = session_signal_req,
	[IMSG_SHUTDOWN_DONE] = parent_shutdown_done,
};

static struct imsg	 relay_msg;	/* 64 KiB: not on the stack */

static void
relay_refuse(struct imsg *m, const char *why, const struct session *s)
{
	if (m->fd != -1)
		close(m->fd);
	m->fd = -1;
	fatalx("relay violated the message table: %s (type %s, session %u, "
	    "state %s)", why, imsg_type_name(m->hdr.type), m->hdr.sid,
	    s != NULL ? sess_state_name(s->state) : "-");
}

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
			relay_lost("closed the channel");
		if (r == IMSG_E_IO)
			fatal("relay channel");
		if (r < 0)
			fatalx("relay violated the message table: %s",
			    imsg_strerror(r));
		s = &parent->sessions[m->hdr.sid];
		if (imsg_check_state(m, s->state) != 0)
			relay_refuse(m, "not allowed in this state", s);
		if (parent_handlers[m->hdr.type] == NULL)
			relay_refuse(m, "no handler", s);
		parent_handlers[m->hdr.type](s, m);
		if (m->fd != -1) {
			close(m->fd);
			m->fd = -1;
		}
		parent_status();
	}
}

/* A relay that cannot take a message is as broken as one that lies. */
void
parent_send(struct session *s, uint32_t type, int fd, const void *data,
    size_t len)
{
	if (imsg_send(parent->relay_fd, type, s->sid, fd, data, len) == -1)
		fatal("send %s to relay", imsg_type_name(type));
	log_debug("session %u: sent %s", s->sid, imsg_type_name(type));
}
