/*
 * parent.c: the relay's end of the channel to the root parent.  Runs in
 * the unprivileged, sandboxed relay.
 *
 * The parent is the more trusted side: a message it should not have
 * sent in a session's state means the channel or the parent is broken,
 * and the relay stops (fatalx) rather than guess.  End of file on the
 * channel is the normal way the relay ends (exit 0).
 *
 * Outgoing messages never block and are never dropped: each session has
 * at most one unsent message (AUTH_REQ, START_REQ, SIGNAL_REQ or
 * CLOSE_REQ), sent in FIFO order when the channel can take it.  A
 * session only makes its next request after the parent answered the
 * previous one, except CLOSE_REQ, which replaces a START_REQ or a
 * SIGNAL_REQ the parent never saw, and SIGNAL_REQ, which has no answer:
 * the next waiting signal is queued once one is sent.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/log.h"
#include "relay/relay.h"

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	chan_denied;

static struct imsg	parent_msg;		/* too large for the stack */
static uint8_t		parent_scratch[IMSG_MAX_PAYLOAD];

static struct session *
parent_next_pending(void)
{
	struct session	*s, *best = NULL;
	uint32_t	 i;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &relay.sess[i];
		if (s->pending != 0 && (best == NULL ||
		    s->pending_seq < best->pending_seq))
			best = s;
	}
	return best;
}

/* Sends the session's pending message: 1 sent, 0 channel full. */
static int
parent_send(struct session *s)
{
	struct imsg_close	 cl;
	struct imsg_signal	 sg;
	int			 n, rv = -1;

	switch (s->pending) {
	case IMSG_AUTH_REQ:
		rv = imsg_send(relay.chan, IMSG_AUTH_REQ, s->id, s->cfd,
		    NULL, 0);
		break;
	case IMSG_START_REQ:
		/* The latest size: a resize may have followed the start. */
		s->in.start.rows = s->ws.rows;
		s->in.start.cols = s->ws.cols;
		if ((n = msg_start_encode(&s->in.start, parent_scratch,
		    sizeof(parent_scratch))) < 0)
			fatalx("session %u: start request not encodable",
			    s->id);
		rv = imsg_send(relay.chan, IMSG_START_REQ, s->id,
		    s->in.dirfd, parent_scratch, (size_t)n);
		break;
	case IMSG_SIGNAL_REQ:
		memset(&sg, 0, sizeof(sg));
		sg.signo = s->sigq[0];
		rv = imsg_send(relay.chan, IMSG_SIGNAL_REQ, s->id, -1, &sg,
		    sizeof(sg));
		break;
	case IMSG_CLOSE_REQ:
		memset(&cl, 0, sizeof(cl));
		cl.bytes_in = s->bytes_in;
		cl.bytes_out = s->bytes_out;
		rv = imsg_send(relay.chan, IMSG_CLOSE_REQ, s->id, -1, &cl,
		    sizeof(cl));
		break;
	default:
		fatalx("session %u: bad pending message %u", s->id,
		    s->pending);
	}
	if (rv == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		if (errno == EPIPE || errno == ECONNRESET) {
			log_info("parent closed the channel");
			exit(0);
		}
		fatal("send %s to parent", imsg_type_name(s->pending));
	}
	log_debug("session %u: sent %s", s->id, imsg_type_name(s->pending));
	if (s->pending == IMSG_START_REQ) {
		/* The parent holds its own copy now; ours is not needed. */
		close(intake_take_dirfd(&s->in));
		intake_done(&s->in);
		s->start_sent = 1;
		s->resume = 1;
		event_active(relay.ev_resume, EV_TIMEOUT, 0);
	}
	if (s->pending == IMSG_SIGNAL_REQ)
		memmove(s->sigq, s->sigq + 1, --s->sigq_n);
	s->pending = 0;
	/* The next waiting signal goes behind every other session's. */
	if (s->sigq_n > 0 && s->state == SS_RUNNING) {
		s->pending = IMSG_SIGNAL_REQ;
		s->pending_seq = ++relay.seq;
	}
	return 1;
}

/* Once every session's messages are out: 1 sent, 0 channel full. */
static int
parent_send_shutdown_done(void)
{
	if (relay.shutdown_told != 1)
		return 1;
	if (imsg_send(relay.chan, IMSG_SHUTDOWN_DONE, 0, -1, NULL, 0) ==
	    -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		fatal("send SHUTDOWN_DONE to parent");
	}
	relay.shutdown_told = 2;
	log_info("every client told of the shutdown");
	return 1;
}

static void
parent_flush(void)
{
	struct session	*s;

	while ((s = parent_next_pending()) != NULL) {
		if (!parent_send(s))
			goto full;
	}
	if (!parent_send_shutdown_done())
		goto full;
	event_del(relay.ev_chan_write);
	return;
full:
	if (event_add(relay.ev_chan_write, NULL) == -1)
		fatalx("event_add");
}

void
parent_queue(struct session *s, uint32_t type)
{
	if (s->pending != 0) {
		if ((s->pending != IMSG_START_REQ &&
		    s->pending != IMSG_SIGNAL_REQ) || type != IMSG_CLOSE_REQ)
			fatalx("session %u: %s while %s unsent", s->id,
			    imsg_type_name(type), imsg_type_name(s->pending));
		/* The parent never saw it: just close instead. */
		log_debug("session %u: %s withdrawn", s->id,
		    imsg_type_name(s->pending));
	}
	s->pending = type;
	s->pending_seq = ++relay.seq;
	parent_flush();
}

void
parent_write_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	parent_flush();
}

/* Input held back while a start request waited goes on from here. */
void
parent_resume_cb(int fd, short what, void *arg)
{
	struct session	*s;
	uint32_t	 i;

	(void)fd;
	(void)what;
	(void)arg;
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &relay.sess[i];
		if (s->resume)
			client_pump(s);
	}
}

static uint32_t
parent_code(const struct imsg *m)
{
	struct imsg_code	c;

	memcpy(&c, m->data, sizeof(c));
	if (c.code == 0 || c.code > UINT16_MAX)
		fatalx("session %u: %s with code %u", m->hdr.sid,
		    imsg_type_name(m->hdr.type), c.code);
	return c.code;
}

/* The parent's exit report, checked before it reaches a client. */
static void
parent_exit_info(const struct imsg *m, struct exit_info *ei)
{
	struct imsg_exit	x;
	uint8_t			buf[EXIT_FIXED_LEN + EXIT_MAX_RESULT];

	memcpy(&x, m->data, sizeof(x));
	if (x.code > UINT8_MAX)
		fatalx("session %u: exit code %u out of range", m->hdr.sid,
		    x.code);
	if (memchr(x.result, '\0', sizeof(x.result)) == NULL)
		fatalx("session %u: exit result not terminated", m->hdr.sid);
	memset(ei, 0, sizeof(*ei));
	ei->code = (uint8_t)x.code;
	ei->status = x.status;
	memcpy(ei->result, x.result, sizeof(x.result));
	if (exit_encode(ei, buf, sizeof(buf)) < 0)
		fatalx("session %u: exit result not encodable", m->hdr.sid);
}

static void
parent_auth_ok(struct session *s)
{
	struct timeval	tv = { RELAY_START_TIMEOUT, 0 };

	log_debug("session %u: admitted", s->id);
	s->state = SS_ADMITTED;
	intake_init(&s->in);
	if (relay.shutting) {
		session_end(s, ERR_SHUTDOWN);
		return;
	}
	if (evtimer_add(s->ev_timer, &tv) == -1)
		fatalx("evtimer_add");
	session_update_events(s);
	relay_listen_resume();		/* an authentication slot is free */
}

static void
parent_start_ok(struct session *s, int fd)
{
	if (s->state == SS_CLOSING) {
		close(fd);		/* crossed our close request */
		return;
	}
	log_debug("session %u: unit running", s->id);
	session_attach_stream(s, fd);
	s->state = SS_RUNNING;
	if (s->ws_pending)
		stream_resize(s, &s->ws);
	if (s->sigq_n > 0)
		parent_queue(s, IMSG_SIGNAL_REQ);
	if (s->shutdown) {
		session_end(s, ERR_SHUTDOWN);
		return;
	}
	s->resume = 1;			/* an input frame may be waiting */
	event_active(relay.ev_resume, EV_TIMEOUT, 0);
	session_update_events(s);
}

static void
parent_exit(struct session *s, const struct imsg *m)
{
	uint8_t			 payload[EXIT_FIXED_LEN + EXIT_MAX_RESULT];
	int			 n;

	if (s->state == SS_CLOSING)
		return;			/* crossed our close request */
	if (s->got_exit)
		fatalx("session %u: second exit report", s->id);
	parent_exit_info(m, &s->exit);
	s->got_exit = 1;
	log_debug("session %u: exit %u/%u %s", s->id, s->exit.code,
	    s->exit.status, s->exit.result);
	if (s->state == SS_STARTING) {
		/* Never ran, so no output can be lost behind this frame. */
		if ((n = exit_encode(&s->exit, payload, sizeof(payload))) < 0)
			fatalx("session %u: exit not encodable", s->id);
		relay_send_frame(s->cfd, FRAME_EXIT, payload, (size_t)n);
		session_end(s, 0);
		return;
	}
	stream_check_end(s);
}

/*
 * Beyond the table: an answer to a request still queued here, or a
 * CLOSED before our CLOSE_REQ left, cannot come from a sane parent.
 */
static void
parent_check_order(const struct session *s, const struct imsg *m)
{
	uint32_t	t = m->hdr.type;

	if (s->pending != 0 && s->pending != IMSG_SIGNAL_REQ &&
	    (s->pending != IMSG_CLOSE_REQ || t == IMSG_CLOSED))
		fatalx("session %u: %s before our %s was sent", s->id,
		    imsg_type_name(t), imsg_type_name(s->pending));
	if ((t == IMSG_START_OK || t == IMSG_START_FAIL || t == IMSG_EXIT) &&
	    !s->start_sent)
		fatalx("session %u: %s without a start request", s->id,
		    imsg_type_name(t));
}

/*
 * The supervisor is stopping: every client is given the output already
 * read, then ERR_SHUTDOWN, then its connection closes; nothing more is
 * read from any client or terminal, and no connection is accepted.
 * SHUTDOWN_DONE tells the parent once no client is left to tell; a
 * client still being authenticated is told when its answer comes.
 */
static void
relay_shutdown(void)
{
	struct session	*s;
	uint32_t	 i;

	if (relay.shutting)
		fatalx("second SHUTDOWN from the parent");
	log_info("the supervisor is stopping: telling every client");
	relay.shutting = 1;
	relay_listen_pause();
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &relay.sess[i];
		switch (s->state) {
		case SS_ADMITTED:
		case SS_STARTING:
			session_end(s, ERR_SHUTDOWN);
			break;
		case SS_RUNNING:
			s->shutdown = 1;
			if (!s->exit_queued && outbuf_empty(&s->out))
				session_end(s, ERR_SHUTDOWN);
			else
				session_update_events(s);
			break;
		default:
			break;
		}
	}
	relay_shutdown_progress();
}

/* SHUTDOWN_DONE is owed once no client is left to tell. */
void
relay_shutdown_progress(void)
{
	uint32_t	 i;

	if (!relay.shutting || relay.shutdown_told != 0)
		return;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		switch (relay.sess[i].state) {
		case SS_AUTH:
		case SS_ADMITTED:
		case SS_STARTING:
		case SS_RUNNING:
			return;
		default:
			break;
		}
	relay.shutdown_told = 1;
	parent_flush();
}

static void
parent_handle(struct imsg *m)
{
	struct session	*s = &relay.sess[m->hdr.sid];
	int		 fd = m->fd;

	if (imsg_check_state(m, s->state) != 0)
		fatalx("session %u: %s not allowed in state %s", s->id,
		    imsg_type_name(m->hdr.type), sess_state_name(s->state));
	parent_check_order(s, m);
	m->fd = -1;

	switch (m->hdr.type) {
	case IMSG_AUTH_OK:
		parent_auth_ok(s);
		break;
	case IMSG_AUTH_DENY:
		log_info_limited(&chan_denied, "session %u: client denied, "
		    "code %u", s->id,
		    parent_code(m));
		relay_send_error(s->cfd, (uint16_t)parent_code(m));
		session_free(s);
		relay_shutdown_progress();
		break;
	case IMSG_START_OK:
		parent_start_ok(s, fd);
		break;
	case IMSG_START_FAIL:
		if (s->state == SS_CLOSING)
			break;
		log_info("session %u: start failed, code %u", s->id,
		    parent_code(m));
		session_end(s, (uint16_t)parent_code(m));
		break;
	case IMSG_EXIT:
		parent_exit(s, m);
		break;
	case IMSG_CLOSED:
		log_debug("session %u: closed, slot free", s->id);
		session_free(s);
		break;
	case IMSG_SHUTDOWN:
		relay_shutdown();
		break;
	default:
		fatalx("session %u: unhandled %s", s->id,
		    imsg_type_name(m->hdr.type));
	}
}

void
relay_dispatch_parent(int fd, short what, void *arg)
{
	int	rv;

	(void)what;
	(void)arg;
	for (;;) {
		rv = imsg_recv(fd, TO_RELAY, &parent_msg);
		if (rv == IMSG_E_IO &&
		    (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (rv == 0) {
			log_info("parent closed the channel, exiting");
			exit(0);
		}
		if (rv == IMSG_E_IO)
			fatal("parent channel");
		if (rv < 0)
			fatalx("parent channel: %s", imsg_strerror(rv));
		parent_handle(&parent_msg);
	}
}
