/*
 * session.c: the life of a session in the root parent (root), as one
 * table: state x event -> action, next state; and the parent's only door
 * for the relay (parent_dispatch_relay).  Every relay message is checked
 * against proto/msgtab.c (type, direction, exact length, descriptor,
 * session id), then a request goes to the table, and a request with no
 * row in the session's state is the relay breaking the protocol: this
 * table is the parent's only gate on states.  Any violation is fatal
 * and the parent fails closed, because a relay that breaks the tables
 * is compromised.  The news of the steps started here (auth.c,
 * start.c, pts.c, unit.c, shutdown.c) arrives through the queue
 * (sessq.c), which only this file drains; only this file assigns a
 * session's state and answers the relay about a session.  A slot in
 * AUTH is not a session: OPTY_MAX_SESSIONS counts the slots past
 * admission.  A slot is given back to the relay (CLOSED) only once its
 * unit is gone.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	admit_busy;

/* An action's outcome: the row's next state, or its alternative. */
#define GO_NEXT	0
#define GO_ALT	1

typedef int (*session_action)(struct session *, struct imsg *, int);

struct session_row {
	enum sess_state		 state;
	enum parent_session_ev	 ev;
	session_action		 action;
	enum sess_state		 next;
	enum sess_state		 alt;
};

/* A relay that cannot take a message is as broken as one that lies. */
static void
session_send(struct session *s, uint32_t type, int fd, const void *data,
    size_t len)
{
	if (imsg_send(parent->relay_fd, type, s->sid, fd, data, len) == -1)
		fatal("send %s to relay", imsg_type_name(type));
	log_debug("session %u: sent %s", s->sid, imsg_type_name(type));
}

static void
session_send_code(struct session *s, uint32_t type, int code)
{
	struct imsg_code	 c;

	memset(&c, 0, sizeof(c));
	c.code = (uint32_t)code;
	session_send(s, type, -1, &c, sizeof(c));
}

/*
 * The transition running keeps going on the emptied slot; the slot's
 * own fields (session.h: sid and those after it) outlive the session.
 */
static void
session_clear(struct session *s)
{
	memset(s, 0, offsetof(struct session, sid));
	s->relay_end = -1;
	s->pidfd = -1;
	s->dirfd = -1;
}

/* Everything the slot holds is given back; the slot is FREE. */
static void
session_reset(struct session *s)
{
	auth_drop(s);
	start_drop(s);
	pts_end(s);
	if (s->pidfd != -1)
		close(s->pidfd);
	dbusd_req_free(s->u.read);	/* cancels what is in flight */
	dbusd_req_free(s->kill_req);
	evtimer_del(s->u_timer);
	session_clear(s);
}

/* Slots past admission: each may hold a unit. */
static int
session_live_count(void)
{
	int	 i, n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (parent->sessions[i].state != SS_FREE &&
		    parent->sessions[i].state != SS_AUTH)
			n++;
	return n;
}

/* FREE, AUTH_REQ: auth.c reads the connection; the relay's door closes it. */
static int
act_admit_begin(struct session *s, struct imsg *m, int code)
{
	(void)code;
	auth_begin(s, m->fd);
	return GO_NEXT;
}

/* AUTH, AUTH_DONE: admitted, or refused and the slot freed. */
static int
act_admit_end(struct session *s, struct imsg *m, int code)
{
	(void)m;
	/* The relay's own cap is not trusted: a full table refuses here. */
	if (code == 0 && session_live_count() >= OPTY_MAX_SESSIONS) {
		log_info_limited(&admit_busy, "session %u: client pid %ld "
		    "refused: %d sessions live",
		    s->sid, (long)s->client_pid, OPTY_MAX_SESSIONS);
		code = ERR_BUSY;
	}
	if (code != 0) {
		session_send_code(s, IMSG_AUTH_DENY, code);
		session_reset(s);
		return GO_ALT;
	}
	log_info("session %u: admitted client pid %ld", s->sid,
	    (long)s->client_pid);
	session_send(s, IMSG_AUTH_OK, -1, NULL, 0);
	return GO_NEXT;
}

/*
 * ADMITTED, START_REQ: the directory is checked and the call built now,
 * while the relay's message is at hand; the client is authenticated
 * again before the call is sent, and its failure is reported first.
 */
static int
act_start_begin(struct session *s, struct imsg *m, int code)
{
	(void)code;
	start_prepare(s, m);
	auth_read(s);
	return GO_NEXT;
}

/*
 * A start step's result: a refusal ends the start, whatever it kept
 * (start.c leaves it to this), and is told to the relay.
 */
static int
session_start_step(struct session *s, int code)
{
	if (code == 0)
		return GO_NEXT;
	start_drop(s);
	log_info("session %u: start refused: %s", s->sid,
	    frame_error_text(code));
	session_send_code(s, IMSG_START_FAIL, code);
	return GO_ALT;
}

/*
 * STARTING, AUTH_DONE: the session's devpts instance is asked of PID 1,
 * or the start fails.
 */
static int
act_start_send(struct session *s, struct imsg *m, int code)
{
	(void)m;
	return session_start_step(s, start_send(s, code));
}

/* STARTING, PTS_READY: the terminal is made and the unit asked for. */
static int
act_start_unit(struct session *s, struct imsg *m, int code)
{
	(void)m, (void)code;
	return session_start_step(s, start_unit(s));
}

/* STARTING, START_FAILED: PID 1 refused the unit or did not answer. */
static int
act_start_failed(struct session *s, struct imsg *m, int code)
{
	(void)m, (void)code;
	return session_start_step(s, ERR_START);
}

/*
 * STARTING, JOB_DONE: the master goes to the relay once the start job
 * is over (unit.c says why not earlier).
 */
static int
act_start_ok(struct session *s, struct imsg *m, int code)
{
	(void)m, (void)code;
	if (s->relay_end == -1)
		return GO_ALT;
	session_send(s, IMSG_START_OK, s->relay_end, NULL, 0);
	close(s->relay_end);
	s->relay_end = -1;
	return GO_NEXT;
}

/*
 * The command's end, told to the relay as soon as the unit is inactive
 * or failed (its cgroup empty, nothing left to write to the terminal):
 * the relay sends the exit frame once it has read the master dry.  The
 * slot stays taken until the unit is confirmed gone.
 */
static int
act_report_exit(struct session *s, struct imsg *m, int code)
{
	struct imsg_exit	 ex;

	(void)m, (void)code;
	signal_end(s);
	start_drop(s);	/* its call answered: only the master may be left */
	memset(&ex, 0, sizeof(ex));
	ex.code = (uint32_t)s->u.result.exec_code;
	ex.status = (uint32_t)s->u.result.exec_status;
	memcpy(ex.result, s->u.result.result, sizeof(ex.result) - 1);
	session_send(s, IMSG_EXIT, -1, &ex, sizeof(ex));
	return GO_NEXT;
}

/*
 * The end of a command killed by a signal the parent did not send waits
 * until shutdown.c has asked PID 1 whether our own unit is stopping
 * (PEV_EXIT_CHECKED), so that a client is told ERR_SHUTDOWN first.
 */
static int
act_exit(struct session *s, struct imsg *m, int code)
{
	if (parent_exit_check(s))
		return GO_ALT;
	return act_report_exit(s, m, code);
}

static int
act_signal(struct session *s, struct imsg *m, int code)
{
	(void)code;
	signal_request(s, m);
	return GO_NEXT;
}

static int
act_signal_late(struct session *s, struct imsg *m, int code)
{
	(void)code;
	signal_late(s, m);
	return GO_NEXT;
}

/* The last word on a session: the relay may reuse the slot after this. */
static int
act_free_slot(struct session *s, struct imsg *m, int code)
{
	(void)m, (void)code;
	session_send(s, IMSG_CLOSED, -1, NULL, 0);
	if (s->argc != 0)
		journal_session(s);
	session_reset(s);
	return GO_NEXT;
}

/* CLOSE_REQ: answered only once the unit is confirmed gone (unit.c). */
static int
act_client_gone(struct session *s, struct imsg *m, int code)
{
	struct imsg_close	 c;

	memcpy(&c, m->data, sizeof(c));
	signal_end(s);
	s->bytes_in = c.bytes_in;
	s->bytes_out = c.bytes_out;
	if (s->relay_end != -1) {
		close(s->relay_end);
		s->relay_end = -1;
	}
	/* No unit asked for yet (a re-authentication in flight is dropped). */
	if (s->u.phase == UP_NONE) {
		act_free_slot(s, m, code);
		return GO_ALT;
	}
	/* PID 1 takes our calls in order: this stop follows any start. */
	unit_stop(s);
	return GO_NEXT;
}

/*
 * Every (state, event) pair the session can meet.  A relay request
 * without a row is a violation (fatal, parent_dispatch_relay); news from
 * a step without a row changes nothing in that state (a start job
 * ending after the close, the unit going away after the exit was told).
 */
#define ROW(st, ev, act, next, alt) \
	{ SS_ ## st, PEV_ ## ev, act, SS_ ## next, SS_ ## alt }

static const struct session_row session_table[] = {
	/* state	event		action		    next, alternative */
	ROW(FREE,	AUTH_REQ,	act_admit_begin,    AUTH, AUTH),
	ROW(AUTH,	AUTH_DONE,	act_admit_end,      ADMITTED, FREE),
	ROW(ADMITTED,	START_REQ,	act_start_begin,    STARTING, STARTING),
	ROW(ADMITTED,	CLOSE_REQ,	act_client_gone,    CLOSING, FREE),
	ROW(STARTING,	AUTH_DONE,	act_start_send,     STARTING, ENDED),
	ROW(STARTING,	PTS_READY,	act_start_unit,     STARTING, ENDED),
	ROW(STARTING,	START_FAILED,	act_start_failed,   ENDED, ENDED),
	ROW(STARTING,	JOB_DONE,	act_start_ok,       RUNNING, STARTING),
	ROW(STARTING,	GONE,		act_report_exit,    ENDED, ENDED),
	ROW(STARTING,	CLOSE_REQ,	act_client_gone,    CLOSING, FREE),
	ROW(RUNNING,	SIGNAL_REQ,	act_signal,         RUNNING, RUNNING),
	ROW(RUNNING,	EXITED,		act_exit,           ENDED, RUNNING),
	ROW(RUNNING,	EXIT_CHECKED,	act_report_exit,    ENDED, ENDED),
	ROW(RUNNING,	GONE,		act_report_exit,    ENDED, ENDED),
	ROW(RUNNING,	CLOSE_REQ,	act_client_gone,    CLOSING, FREE),
	/* A signal that crossed the exit report: checked, then dropped. */
	ROW(ENDED,	SIGNAL_REQ,	act_signal_late,    ENDED, ENDED),
	ROW(ENDED,	CLOSE_REQ,	act_client_gone,    CLOSING, FREE),
	ROW(CLOSING,	START_FAILED,	act_free_slot,      FREE, FREE),
	ROW(CLOSING,	GONE,		act_free_slot,      FREE, FREE),
};

/* One transition; -1 if the table has no row for it. */
static int
session_step(struct session *s, enum parent_session_ev ev, struct imsg *m,
    int code)
{
	const struct session_row	*row;
	size_t				 i;

	for (i = 0; i < sizeof(session_table) / sizeof(session_table[0]); i++) {
		row = &session_table[i];
		if (row->state != s->state || row->ev != ev)
			continue;
		s->state = row->action(s, m, code) == GO_NEXT ? row->next :
		    row->alt;
		return 0;
	}
	return -1;
}

/*
 * The steps' news, in the order it was posted.  A step's news about a
 * session never interrupts a transition: a refusal found at once by a
 * step that a transition started is acted on once that transition has
 * set the state.  Drained after each relay request, after each answer
 * or hint from the bus (dbusd's settle hook, so that a reply in the
 * same batch meets the session as the news before it left it), and
 * from the loop before anything else (sessq.c) after a timer.
 */
void
parent_session_drain(void)
{
	const struct sess_news	*n;

	/* News without a row changes nothing in that state. */
	while ((n = sessq_pop()) != NULL)
		(void)session_step(&parent->sessions[n->sid], n->ev, NULL,
		    n->code);
}

static void
session_drain_cb(int fd, short what, void *arg)
{
	(void)fd, (void)what, (void)arg;
	parent_session_drain();
}

void
parent_session_init(void)
{
	struct session	*s;
	uint32_t	 i;

	sessq_init(parent->base, session_drain_cb);
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &parent->sessions[i];
		s->sid = i;
		s->u_timer = evtimer_new(parent->base, unit_timer, s);
		s->pts_timer = evtimer_new(parent->base, pts_timer, s);
		if (s->u_timer == NULL || s->pts_timer == NULL)
			fatalx("evtimer_new");
		session_clear(s);
	}
}

/* The relay may send these and nothing else; the table takes them. */
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
		    session_step(s, relay_events[m->hdr.type], m, 0) == -1) {
			if (m->fd != -1)
				close(m->fd);
			fatalx("relay violated the message table: not allowed "
			    "in this state (type %s, session %u, state %s)",
			    imsg_type_name(m->hdr.type), m->hdr.sid,
			    state_names[s->state]);
		}
		parent_session_drain();
		if (m->fd != -1) {
			close(m->fd);
			m->fd = -1;
		}
		parent_status();
	}
}
