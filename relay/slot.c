/*
 * slot.c: the relay's slots, one per connection, and every change of a
 * slot's state (docs/RELAY.md).  Runs in the unprivileged, sandboxed
 * relay.  Each message of the parent goes through one table, (slot
 * state, message) -> action, next state, the relay's only gate on
 * which message a state allows.  Slot index == session id.  A slot is
 * taken at accept and becomes free again only when the parent confirms
 * that the unit is gone (IMSG_CLOSED) or refused the client
 * (IMSG_AUTH_DENY).  There is room for OPTY_MAX_SESSIONS admitted
 * sessions and OPTY_MAX_AUTH connections waiting for authentication,
 * each counted apart, so the cap of OPTY_MAX_SESSIONS counts units and
 * peers being refused never take a session's place.
 *
 * Every event lands here: the listening socket, a session's client and
 * master (handed to pump.c, whose result decides), its start deadline,
 * and each message of the parent (from chan.c).  Every event of a slot
 * is allocated once at start-up and only re-assigned later: no
 * allocation per connection, and teardown is the one place that closes
 * a session's descriptors, exactly once.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/log.h"
#include "relay/relay.h"

static struct slot	 slots[OPTY_MAX_SLOTS];	/* index: session id */
static struct event_base *slot_base;
static struct event	*ev_listen;
static struct event	*ev_resume;		/* deferred pump_input() */
static int		 listen_paused;
static int		 shutting;		/* IMSG_SHUTDOWN received */
static int		 shutdown_told;		/* SHUTDOWN_DONE queued */

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	accept_busy;
static struct log_limit	chan_denied;

/* Scratch for the early encoding check of a start request. */
static uint8_t	slot_scratch[IMSG_MAX_PAYLOAD];

static void
slot_clear(struct slot *s)
{
	s->state = SLOT_FREE;
	s->cfd = -1;
	s->sfd = -1;
	s->pending = 0;
	s->start_sent = 0;
	s->resume = 0;
	s->got_exit = 0;
	memset(&s->exit, 0, sizeof(s->exit));
	s->stream_eof = 0;
	s->stream_dead = 0;
	s->exit_queued = 0;
	s->shutdown = 0;
	s->ws.rows = WINSIZE_ROWS_DEFAULT;
	s->ws.cols = WINSIZE_COLS_DEFAULT;
	s->ws_pending = 0;
	s->sigq_n = 0;
	s->in_off = 0;
	s->bytes_in = 0;
	s->bytes_out = 0;
	s->raw_off = 0;
	s->raw_len = 0;
	outbuf_init(&s->out);
	intake_init(&s->in);
}

/*
 * Out of descriptors, or every authentication slot busy: stop accepting
 * until a slot changes hands.
 */
static void
listen_pause(void)
{
	event_del(ev_listen);
	listen_paused = 1;
}

static void
listen_resume(void)
{
	if (!listen_paused || shutting)
		return;
	listen_paused = 0;
	if (event_add(ev_listen, NULL) == -1)
		fatalx("event_add");
}

/* Slots waiting for authentication (auth != 0) or past it (auth == 0). */
static int
slot_count(int auth)
{
	uint32_t	i;
	int		n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		if (slots[i].state == SLOT_FREE)
			continue;
		if ((slots[i].state == SLOT_AUTH) == (auth != 0))
			n++;
	}
	return n;
}

/* Closes every descriptor and stops every event; the state stays. */
static void
slot_teardown(struct slot *s)
{
	event_del(s->ev_cread);
	event_del(s->ev_cwrite);
	event_del(s->ev_cgone);
	event_del(s->ev_sread);
	event_del(s->ev_swrite);
	event_del(s->ev_timer);
	if (s->cfd != -1) {
		close(s->cfd);
		s->cfd = -1;
	}
	if (s->sfd != -1) {
		close(s->sfd);
		s->sfd = -1;
	}
	intake_reset(&s->in);		/* closes a directory not yet sent */
	outbuf_init(&s->out);
	s->raw_off = s->raw_len = 0;
	s->in_off = 0;
}

/* SHUTDOWN_DONE is owed once no client is left to tell. */
static void
shutdown_progress(void)
{
	uint32_t	 i;

	if (!shutting || shutdown_told)
		return;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (slots[i].state != SLOT_FREE &&
		    slots[i].state != SLOT_CLOSING)
			return;
	shutdown_told = 1;
	chan_shutdown_done();
}

/*
 * Ends a live session from the relay's side: an optional error frame
 * for the client, everything closed, and the parent asked to stop the
 * unit.  The slot stays taken until the parent answers IMSG_CLOSED.
 */
static void
slot_end(struct slot *s, uint16_t code)
{
	log_debug("session %u: end in %s, code %u, in %llu, out %llu",
	    s->id, slot_state_name(s->state), code,
	    (unsigned long long)s->bytes_in,
	    (unsigned long long)s->bytes_out);
	if (code != 0 && outbuf_empty(&s->out))
		conn_send_error(s->cfd, code);
	slot_teardown(s);
	s->state = SLOT_CLOSING;
	s->sigq_n = 0;
	chan_queue(s, IMSG_CLOSE_REQ);
	shutdown_progress();
}

/*
 * Gives the whole pages inside a scratch buffer back to the kernel; they
 * read as zeroes when next touched, and a buffer is always written
 * before it is read.  So an idle relay holds no memory for past sessions.
 */
static void
slot_release(void *buf, size_t len)
{
	uintptr_t	start = (uintptr_t)buf, end = start + len;
	uintptr_t	page = (uintptr_t)sysconf(_SC_PAGESIZE);

	start = (start + page - 1) & ~(page - 1);
	end &= ~(page - 1);
	if (start < end && madvise((void *)start, end - start,
	    MADV_DONTNEED) == -1)
		log_warn("madvise");
}

static void
slot_free(struct slot *s)
{
	slot_teardown(s);
	slot_clear(s);
	slot_release(s->raw, sizeof(s->raw));
	slot_release(s->out.buf, sizeof(s->out.buf));
	slot_release(s->in.fr.payload, sizeof(s->in.fr.payload));
	listen_resume();
}

/* A valid start frame: hand it to the parent, descriptor attached. */
static void
slot_started(struct slot *s)
{
	event_del(s->ev_timer);
	s->in.start.rows = s->ws.rows;
	s->in.start.cols = s->ws.cols;
	/*
	 * Encoded once here to refuse what the parent's format cannot
	 * carry while the client can still be told; chan.c encodes again
	 * when the channel takes the message.
	 */
	if (msg_start_encode(&s->in.start, slot_scratch,
	    sizeof(slot_scratch)) < 0) {
		slot_end(s, ERR_PROTOCOL);
		return;
	}
	log_debug("session %u: start frame, %u arguments, %ux%u", s->id,
	    s->in.start.argc, s->ws.rows, s->ws.cols);
	s->state = SLOT_STARTING;
	chan_queue(s, IMSG_START_REQ);
	pump_watch(s);
}

/* What pump.c found: the start frame, the end, or nothing more now. */
static void
slot_step(struct slot *s, int rv)
{
	if (rv == PUMP_START)
		slot_started(s);
	else if (rv >= 0)
		slot_end(s, (uint16_t)rv);
	else if (s->state != SLOT_FREE && s->state != SLOT_CLOSING)
		pump_watch(s);
}

/* The client or the master can be read or written: pump.c moves bytes. */
static void
slot_client_cb(int fd, short what, void *arg)
{
	(void)fd;
	slot_step(arg, (what & EV_READ) ? pump_input(arg) :
	    pump_output(arg));
}

static void
slot_master_cb(int fd, short what, void *arg)
{
	(void)fd;
	slot_step(arg, (what & EV_READ) ? pump_master_read(arg) :
	    pump_master_write(arg));
}

static void
slot_gone_cb(int fd, short what, void *arg)
{
	struct slot	*s = arg;

	(void)fd;
	(void)what;
	log_debug("session %u: client hung up", s->id);
	slot_end(s, 0);
}

static void
slot_timeout_cb(int fd, short what, void *arg)
{
	struct slot	*s = arg;

	(void)fd;
	(void)what;
	if (s == NULL || s->state != SLOT_ADMITTED)
		return;
	log_info("session %u: no start frame within %d s", s->id,
	    RELAY_START_TIMEOUT);
	slot_end(s, ERR_PROTOCOL);
}

/* Input held back while a start request waited goes on from here. */
static void
slot_resume_cb(int fd, short what, void *arg)
{
	uint32_t	 i;

	(void)fd;
	(void)what;
	(void)arg;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (slots[i].resume)
			slot_step(&slots[i], pump_input(&slots[i]));
}

/* chan.c: the start request left; the parent holds its own copy now. */
void
slot_start_sent(struct slot *s)
{
	close(intake_take_dirfd(&s->in));
	intake_done(&s->in);
	s->start_sent = 1;
	s->resume = 1;
	event_active(ev_resume, EV_TIMEOUT, 0);
}

static void
slot_accept_cb(int fd, short what, void *arg)
{
	struct slot	*s;
	uint32_t	 i;
	int		 cfd;

	(void)what;
	(void)arg;
	for (;;) {
		/*
		 * Every authentication slot busy: the next peers wait in the
		 * listen backlog, not refused, until an answer frees one.
		 */
		if (slot_count(1) >= OPTY_MAX_AUTH) {
			listen_pause();
			return;
		}
		/* accept4(2) takes a NULL addrlen with a NULL addr. */
		/* cppcheck-suppress nullPointer */
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd == -1) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			/* Out of descriptors or memory: wait for a slot. */
			log_warn("accept");
			listen_pause();
			return;
		}
		if (slot_count(0) >= OPTY_MAX_SESSIONS) {
			log_info_limited(&accept_busy, "refusing a client: %d "
			    "sessions live",
			    OPTY_MAX_SESSIONS);
			conn_send_error(cfd, ERR_BUSY);
			close(cfd);
			continue;
		}
		/* The lowest free slot; both counts are under their caps. */
		for (i = 0; i < OPTY_MAX_SLOTS; i++)
			if (slots[i].state == SLOT_FREE)
				break;
		if (i == OPTY_MAX_SLOTS)
			fatalx("slot table full below both caps");
		s = &slots[i];
		log_debug("session %u: accepted, asking the parent", s->id);
		s->cfd = cfd;
		if (event_assign(s->ev_cread, slot_base, cfd,
		    EV_READ | EV_PERSIST, slot_client_cb, s) == -1 ||
		    event_assign(s->ev_cwrite, slot_base, cfd,
		    EV_WRITE | EV_PERSIST, slot_client_cb, s) == -1 ||
		    event_assign(s->ev_cgone, slot_base, cfd,
		    EV_CLOSED | EV_PERSIST, slot_gone_cb, s) == -1)
			fatalx("event_assign client");
		s->state = SLOT_AUTH;
		/* The relay keeps its own copy; it reads nothing until OK. */
		chan_queue(s, IMSG_AUTH_REQ);
	}
}

/*
 * The parent's messages, a row for each slot state that may meet them
 * (slot_table below).  The row's next state is set before its action
 * runs, so the action works in the state the message led to; an action
 * that ends the slot there goes on to CLOSING through slot_end(), the
 * way every end of a slot goes.
 */

/* AUTH, AUTH_OK: the client may send its start frame now. */
static void
act_admitted(struct slot *s, struct imsg *m)
{
	struct timeval	tv = { RELAY_START_TIMEOUT, 0 };

	(void)m;
	log_debug("session %u: admitted", s->id);
	intake_init(&s->in);
	if (shutting) {
		slot_end(s, ERR_SHUTDOWN);
		return;
	}
	if (evtimer_add(s->ev_timer, &tv) == -1)
		fatalx("evtimer_add");
	pump_watch(s);
	listen_resume();		/* an authentication slot is free */
}

/* AUTH, AUTH_DENY: the parent has forgotten the slot, so no CLOSE_REQ. */
static void
act_denied(struct slot *s, struct imsg *m)
{
	log_info_limited(&chan_denied, "session %u: client denied, code %u",
	    s->id, chan_code(m));
	conn_send_error(s->cfd, chan_code(m));
	slot_free(s);
	shutdown_progress();
}

/* STARTING, START_OK: the master; what waited for it goes on now. */
static void
act_running(struct slot *s, struct imsg *m)
{
	int	fd = m->fd;

	m->fd = -1;
	log_debug("session %u: unit running", s->id);
	s->sfd = fd;
	if (event_assign(s->ev_sread, slot_base, fd, EV_READ | EV_PERSIST,
	    slot_master_cb, s) == -1 ||
	    event_assign(s->ev_swrite, slot_base, fd, EV_WRITE | EV_PERSIST,
	    slot_master_cb, s) == -1)
		fatalx("event_assign stream");
	if (s->ws_pending)
		pump_resize(s, &s->ws);
	if (s->sigq_n > 0)
		chan_queue(s, IMSG_SIGNAL_REQ);
	if (s->shutdown) {
		slot_end(s, ERR_SHUTDOWN);
		return;
	}
	s->resume = 1;			/* an input frame may be waiting */
	event_active(ev_resume, EV_TIMEOUT, 0);
	pump_watch(s);
}

/* STARTING, START_FAIL: the client is told the code. */
static void
act_start_failed(struct slot *s, struct imsg *m)
{
	log_info("session %u: start failed, code %u", s->id, chan_code(m));
	slot_end(s, chan_code(m));
}

static void
slot_take_exit(struct slot *s, const struct imsg *m)
{
	chan_exit(m, &s->exit);
	s->got_exit = 1;
	log_debug("session %u: exit %u/%u %s", s->id, s->exit.code,
	    s->exit.status, s->exit.result);
}

/* STARTING, EXIT: never ran, so no output can be lost behind it. */
static void
act_exit_early(struct slot *s, struct imsg *m)
{
	uint8_t	payload[EXIT_FIXED_LEN + EXIT_MAX_RESULT];
	int	n;

	slot_take_exit(s, m);
	if ((n = exit_encode(&s->exit, payload, sizeof(payload))) < 0)
		fatalx("session %u: exit not encodable", s->id);
	conn_send_frame(s->cfd, FRAME_EXIT, payload, (size_t)n);
	slot_end(s, 0);
}

/* RUNNING, EXIT: the exit frame follows the last byte of the master. */
static void
act_exit(struct slot *s, struct imsg *m)
{
	slot_take_exit(s, m);
	slot_step(s, pump_exit(s));
}

/* CLOSING, START_OK: a master that crossed our close request. */
static void
act_late_master(struct slot *s, struct imsg *m)
{
	(void)s;
	close(m->fd);
	m->fd = -1;
}

/* CLOSING, START_FAIL or EXIT: an answer that crossed our close. */
static void
act_late(struct slot *s, struct imsg *m)
{
	(void)s;
	(void)m;
}

/* CLOSING, CLOSED: the unit is gone; the slot may be taken again. */
static void
act_closed(struct slot *s, struct imsg *m)
{
	(void)m;
	log_debug("session %u: closed, slot free", s->id);
	slot_free(s);
}

/*
 * SHUTDOWN, in whatever state slot 0 is: the supervisor is stopping.
 * Every client is given the output already read, then ERR_SHUTDOWN,
 * then its connection closes; nothing more is read from any client or
 * terminal, and no connection is accepted.  SHUTDOWN_DONE tells the
 * parent once no client is left to tell; a client still being
 * authenticated is told when its answer comes.
 */
static void
act_shutdown(struct slot *s0, struct imsg *m)
{
	struct slot	*s;
	uint32_t	 i;

	(void)s0;
	(void)m;
	if (shutting)
		fatalx("second SHUTDOWN from the parent");
	log_info("the supervisor is stopping: telling every client");
	shutting = 1;
	listen_pause();
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &slots[i];
		switch (s->state) {
		case SLOT_ADMITTED:
		case SLOT_STARTING:
			slot_end(s, ERR_SHUTDOWN);
			break;
		case SLOT_RUNNING:
			s->shutdown = 1;
			if (!s->exit_queued && outbuf_empty(&s->out))
				slot_end(s, ERR_SHUTDOWN);
			else
				pump_watch(s);
			break;
		default:
			break;
		}
	}
	shutdown_progress();
}

/*
 * What a row needs beyond the slot's state, from the relay's own side
 * of the channel: an answer can come only once its question has left.
 */
enum slot_need {
	NEED_NONE = 0,
	NEED_SENT,		/* nothing of ours queued: the request left */
	NEED_START_SENT,	/* a START_REQ left (not withdrawn unsent) */
	NEED_NO_EXIT,		/* no exit reported yet */
};

typedef void (*slot_action)(struct slot *, struct imsg *);

struct slot_row {
	enum slot_state		 state;
	uint32_t		 type;
	enum slot_need		 need;
	enum slot_state		 next;
	slot_action		 action;
};

/*
 * Every (slot state, parent message) pair a sane parent can send; any
 * other is fatal (slot_handle).  Rows that are not the plain answer to
 * the request the state waits for:
 *
 * - CLOSING, START_OK / START_FAIL / EXIT: the parent answered our
 *   START_REQ (or told the exit) before it read a CLOSE_REQ that crossed
 *   its answer; only if a START_REQ left, since a close replaces a start
 *   request still queued here.  The master is closed, the rest ignored.
 * - STARTING, EXIT: the unit ended before the start job did; the client
 *   gets the exit frame at once (no output can precede it).
 * - RUNNING, EXIT: once only; the slot stays RUNNING until the master is
 *   drained and the exit frame is out (pump.c).
 * - CLOSING, CLOSED: only once our CLOSE_REQ left; a parent answering a
 *   close it cannot have read is not sane.
 * - AUTH and STARTING: an answer only once our AUTH_REQ or START_REQ
 *   left (SENT); in STARTING nothing else is ever queued, so SENT there
 *   is also "a START_REQ left", and a RUNNING slot always sent one.
 * - SHUTDOWN: channel-wide (session id 0, proto/msgtab.c), so slot 0's
 *   state says nothing about it: a row in every state, each leaving it
 *   as it was (act_shutdown then ends slot 0 as it ends every other).
 *   A second SHUTDOWN is fatal in act_shutdown.
 * - No row in FREE or ADMITTED but SHUTDOWN: no question is pending.
 *   None for SIGNAL_REQ's answer either: it has none.
 */
#define ROW(st, type, need, act, next) \
	{ SLOT_ ## st, IMSG_ ## type, NEED_ ## need, SLOT_ ## next, act }

static const struct slot_row slot_table[] = {
	/* state	message		needs	    action	      next */
	ROW(AUTH,	AUTH_OK,	SENT,       act_admitted,     ADMITTED),
	ROW(AUTH,	AUTH_DENY,	SENT,       act_denied,       FREE),
	ROW(STARTING,	START_OK,	SENT,       act_running,      RUNNING),
	ROW(STARTING,	START_FAIL,	SENT,       act_start_failed, CLOSING),
	ROW(STARTING,	EXIT,		SENT,       act_exit_early,   CLOSING),
	ROW(RUNNING,	EXIT,		NO_EXIT,    act_exit,         RUNNING),
	ROW(CLOSING,	START_OK,	START_SENT, act_late_master,  CLOSING),
	ROW(CLOSING,	START_FAIL,	START_SENT, act_late,         CLOSING),
	ROW(CLOSING,	EXIT,		START_SENT, act_late,         CLOSING),
	ROW(CLOSING,	CLOSED,		SENT,       act_closed,       FREE),
	ROW(FREE,	SHUTDOWN,	NONE,       act_shutdown,     FREE),
	ROW(AUTH,	SHUTDOWN,	NONE,       act_shutdown,     AUTH),
	ROW(ADMITTED,	SHUTDOWN,	NONE,       act_shutdown,     ADMITTED),
	ROW(STARTING,	SHUTDOWN,	NONE,       act_shutdown,     STARTING),
	ROW(RUNNING,	SHUTDOWN,	NONE,       act_shutdown,     RUNNING),
	ROW(CLOSING,	SHUTDOWN,	NONE,       act_shutdown,     CLOSING),
};

/* The row for a message in a state, or NULL: no such row. */
static const struct slot_row *
slot_row(enum slot_state state, uint32_t type)
{
	size_t	 i;

	for (i = 0; i < sizeof(slot_table) / sizeof(slot_table[0]); i++)
		if (slot_table[i].state == state &&
		    slot_table[i].type == type)
			return &slot_table[i];
	return NULL;
}

/* What a row needs and the slot lacks, or NULL. */
static const char *
slot_lacks(const struct slot *s, enum slot_need need)
{
	switch (need) {
	case NEED_NONE:
		return NULL;
	case NEED_SENT:
		return s->pending == 0 ? NULL : "our request still queued";
	case NEED_START_SENT:
		return s->start_sent ? NULL : "no start request sent";
	case NEED_NO_EXIT:
		return s->got_exit ? "second exit report" : NULL;
	}
	return "unknown need";
}

/*
 * chan.c: one message of the parent, its type, length, descriptor and
 * session id already checked against proto/msgtab.c.  This table is the
 * relay's one gate on its state: the parent is the more trusted side,
 * so a message it should not have sent means it or the channel is
 * broken, and the relay stops rather than guess.
 */
void
slot_handle(struct imsg *m)
{
	struct slot		*s = &slots[m->hdr.sid];
	const struct slot_row	*row;
	const char		*why;

	if ((row = slot_row(s->state, m->hdr.type)) == NULL)
		fatalx("session %u: %s not allowed in state %s", s->id,
		    imsg_type_name(m->hdr.type), slot_state_name(s->state));
	if ((why = slot_lacks(s, row->need)) != NULL)
		fatalx("session %u: %s not allowed in state %s: %s", s->id,
		    imsg_type_name(m->hdr.type), slot_state_name(s->state),
		    why);
	log_debug("session %u: %s in %s", s->id, imsg_type_name(m->hdr.type),
	    slot_state_name(s->state));
	s->state = row->next;
	row->action(s, m);
}

static struct event *
slot_event(void)
{
	struct event	*ev;

	/* Assigned a real descriptor and callback when a session opens. */
	if ((ev = event_new(slot_base, -1, 0, slot_timeout_cb, NULL)) ==
	    NULL)
		fatalx("event_new");
	return ev;
}

/* Every event the table will use, made before the sandbox. */
void
slot_init(struct event_base *base, int lsock)
{
	struct slot	*s;
	uint32_t	 i;

	slot_base = base;
	ev_listen = event_new(base, lsock, EV_READ | EV_PERSIST,
	    slot_accept_cb, NULL);
	ev_resume = event_new(base, -1, 0, slot_resume_cb, NULL);
	if (ev_listen == NULL || ev_resume == NULL)
		fatalx("event_new");
	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &slots[i];
		s->id = i;
		slot_clear(s);
		s->ev_cread = slot_event();
		s->ev_cwrite = slot_event();
		s->ev_cgone = slot_event();
		s->ev_sread = slot_event();
		s->ev_swrite = slot_event();
		s->ev_timer = slot_event();
		if (evtimer_assign(s->ev_timer, base, slot_timeout_cb, s) ==
		    -1)
			fatalx("evtimer_assign");
	}
}

void
slot_listen(void)
{
	if (event_add(ev_listen, NULL) == -1)
		fatalx("event_add");
}
