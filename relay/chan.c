/*
 * chan.c: the relay's end of the channel to the root parent, the imsg
 * socketpair on RELAY_FD_PARENT.  Runs in the unprivileged, sandboxed
 * relay.  It moves messages and checks their payloads; whether a
 * message is allowed in its slot's state, and what it means there, is
 * decided in slot.c's table, which chan.c reaches only through the two
 * functions given to chan_init().  A message or payload the parent
 * should not have sent means the channel or the parent is broken, and
 * the relay stops (fatalx) rather than guess.  End of file on the
 * channel is the normal way the relay ends (exit 0).
 *
 * Outgoing messages never block and are never dropped: each session has
 * at most one unsent message (AUTH_REQ, START_REQ, SIGNAL_REQ or
 * CLOSE_REQ), sent in FIFO order when the channel can take it.  A
 * session only makes its next request after the parent answered the
 * previous one, except CLOSE_REQ, which replaces a START_REQ or a
 * SIGNAL_REQ the parent never saw, and SIGNAL_REQ, which has no answer:
 * the next waiting signal is queued once one is sent.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
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

static int		 chan_fd = -1;
static struct event	*chan_ev_read;
static struct event	*chan_ev_write;
static chan_msg_fn	*chan_msg_cb;		/* slot.c: a message */
static chan_sent_fn	*chan_sent_cb;		/* slot.c: START_REQ left */

/* The sessions with an unsent message, oldest first; one entry each. */
static struct slot	*chan_q[OPTY_MAX_SLOTS];
static size_t		 chan_qn;
static int		 chan_done;	/* SHUTDOWN_DONE: 1 owed, 2 sent */

static struct imsg	chan_in;		/* too large for the stack */
static uint8_t		chan_scratch[IMSG_MAX_PAYLOAD];

static void
chan_unqueue(size_t i)
{
	for (; i + 1 < chan_qn; i++)
		chan_q[i] = chan_q[i + 1];
	chan_qn--;
}

static void
chan_enqueue(struct slot *s, uint32_t type)
{
	if (chan_qn == OPTY_MAX_SLOTS)
		fatalx("session %u: channel queue full", s->id);
	s->pending = type;
	chan_q[chan_qn++] = s;
}

/* Sends the oldest pending message: 1 sent, 0 channel full. */
static int
chan_send(struct slot *s)
{
	struct imsg_close	 cl;
	struct imsg_signal	 sg;
	int			 n, rv = -1;

	switch (s->pending) {
	case IMSG_AUTH_REQ:
		rv = imsg_send(chan_fd, IMSG_AUTH_REQ, s->id, s->cfd, NULL, 0);
		break;
	case IMSG_START_REQ:
		/* The latest size: a resize may have followed the start. */
		s->in.start.rows = s->ws.rows;
		s->in.start.cols = s->ws.cols;
		if ((n = msg_start_encode(&s->in.start, chan_scratch,
		    sizeof(chan_scratch))) < 0)
			fatalx("session %u: start request not encodable",
			    s->id);
		rv = imsg_send(chan_fd, IMSG_START_REQ, s->id,
		    s->in.dirfd, chan_scratch, (size_t)n);
		break;
	case IMSG_SIGNAL_REQ:
		memset(&sg, 0, sizeof(sg));
		sg.signo = s->sigq[0];
		rv = imsg_send(chan_fd, IMSG_SIGNAL_REQ, s->id, -1, &sg,
		    sizeof(sg));
		break;
	case IMSG_CLOSE_REQ:
		memset(&cl, 0, sizeof(cl));
		cl.bytes_in = s->bytes_in;
		cl.bytes_out = s->bytes_out;
		rv = imsg_send(chan_fd, IMSG_CLOSE_REQ, s->id, -1, &cl,
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
	chan_unqueue(0);
	if (s->pending == IMSG_START_REQ)
		chan_sent_cb(s);
	if (s->pending == IMSG_SIGNAL_REQ)
		memmove(s->sigq, s->sigq + 1, --s->sigq_n);
	/*
	 * The next waiting signal goes behind every other session's.  Only
	 * after a signal: before the master, slot.c queues the first one.
	 */
	if (s->pending == IMSG_SIGNAL_REQ && s->sigq_n > 0)
		chan_enqueue(s, IMSG_SIGNAL_REQ);
	else
		s->pending = 0;
	return 1;
}

/* Once every session's messages are out: 1 sent, 0 channel full. */
static int
chan_send_shutdown_done(void)
{
	if (chan_done != 1)
		return 1;
	if (imsg_send(chan_fd, IMSG_SHUTDOWN_DONE, 0, -1, NULL, 0) == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		fatal("send SHUTDOWN_DONE to parent");
	}
	chan_done = 2;
	log_info("every client told of the shutdown");
	return 1;
}

static void
chan_flush(void)
{
	while (chan_qn > 0) {
		if (!chan_send(chan_q[0]))
			goto full;
	}
	if (!chan_send_shutdown_done())
		goto full;
	event_del(chan_ev_write);
	return;
full:
	if (event_add(chan_ev_write, NULL) == -1)
		fatalx("event_add");
}

void
chan_queue(struct slot *s, uint32_t type)
{
	size_t	i;

	if (s->pending != 0) {
		if ((s->pending != IMSG_START_REQ &&
		    s->pending != IMSG_SIGNAL_REQ) || type != IMSG_CLOSE_REQ)
			fatalx("session %u: %s while %s unsent", s->id,
			    imsg_type_name(type), imsg_type_name(s->pending));
		/* The parent never saw it: just close instead. */
		log_debug("session %u: %s withdrawn", s->id,
		    imsg_type_name(s->pending));
		for (i = 0; i < chan_qn; i++)
			if (chan_q[i] == s) {
				chan_unqueue(i);
				break;
			}
	}
	chan_enqueue(s, type);
	chan_flush();
}

/* SHUTDOWN_DONE goes out behind every message already queued. */
void
chan_shutdown_done(void)
{
	chan_done = 1;
	chan_flush();
}

static void
chan_write_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	chan_flush();
}

static void
chan_read_cb(int fd, short what, void *arg)
{
	int	rv;

	(void)what;
	(void)arg;
	for (;;) {
		rv = imsg_recv(fd, TO_RELAY, &chan_in);
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
		chan_msg_cb(&chan_in);
	}
}

/* The channel's events, made before the sandbox; read from chan_open(). */
void
chan_init(struct event_base *base, int fd, chan_msg_fn *msg,
    chan_sent_fn *sent)
{
	chan_fd = fd;
	chan_msg_cb = msg;
	chan_sent_cb = sent;
	chan_ev_read = event_new(base, fd, EV_READ | EV_PERSIST,
	    chan_read_cb, NULL);
	chan_ev_write = event_new(base, fd, EV_WRITE | EV_PERSIST,
	    chan_write_cb, NULL);
	if (chan_ev_read == NULL || chan_ev_write == NULL)
		fatalx("event_new");
}

void
chan_open(void)
{
	if (event_add(chan_ev_read, NULL) == -1)
		fatalx("event_add");
}

/* An error code from the parent: one the client protocol can carry. */
uint16_t
chan_code(const struct imsg *m)
{
	struct imsg_code	c;

	memcpy(&c, m->data, sizeof(c));
	if (c.code == 0 || c.code > UINT16_MAX)
		fatalx("session %u: %s with code %u", m->hdr.sid,
		    imsg_type_name(m->hdr.type), c.code);
	return (uint16_t)c.code;
}

/* The parent's exit report, checked before it reaches a client. */
void
chan_exit(const struct imsg *m, struct exit_info *ei)
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
