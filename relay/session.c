/*
 * session.c: the relay's slot table (docs/RELAY.md).  Runs in the
 * unprivileged, sandboxed relay.  Slot index == session id.  A slot is
 * taken at accept and becomes free again only when the parent confirms
 * that the unit is gone (IMSG_CLOSED) or refused the client
 * (IMSG_AUTH_DENY).  The table has room for OPTY_MAX_SESSIONS admitted
 * sessions and OPTY_MAX_AUTH connections waiting for authentication,
 * each counted apart, so the cap of OPTY_MAX_SESSIONS counts units and
 * peers being refused never take a session's place.
 *
 * Every event of a slot is allocated once at start-up and only
 * re-assigned later: no allocation per connection, and teardown is the
 * one place that closes a session's descriptors, exactly once.
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

static void
session_clear(struct session *s)
{
	s->state = SS_FREE;
	s->cfd = -1;
	s->sfd = -1;
	s->pending = 0;
	s->pending_seq = 0;
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

static struct event *
session_event(void)
{
	struct event	*ev;

	/* Assigned a real descriptor and callback when a session opens. */
	if ((ev = event_new(relay.base, -1, 0, client_timeout_cb, NULL)) ==
	    NULL)
		fatalx("event_new");
	return ev;
}

void
session_table_init(void)
{
	struct session	*s;
	uint32_t	 i;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		s = &relay.sess[i];
		s->id = i;
		session_clear(s);
		s->ev_cread = session_event();
		s->ev_cwrite = session_event();
		s->ev_cgone = session_event();
		s->ev_sread = session_event();
		s->ev_swrite = session_event();
		s->ev_timer = session_event();
		if (evtimer_assign(s->ev_timer, relay.base, client_timeout_cb,
		    s) == -1)
			fatalx("evtimer_assign");
	}
}

/* The lowest free slot; client.c keeps both counts under their caps. */
struct session *
session_alloc(void)
{
	uint32_t	i;

	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (relay.sess[i].state == SS_FREE)
			return &relay.sess[i];
	return NULL;
}

/* Slots waiting for authentication (auth != 0) or past it (auth == 0). */
int
session_count(int auth)
{
	uint32_t	i;
	int		n = 0;

	for (i = 0; i < OPTY_MAX_SLOTS; i++) {
		if (relay.sess[i].state == SS_FREE)
			continue;
		if ((relay.sess[i].state == SS_AUTH) == (auth != 0))
			n++;
	}
	return n;
}

/* Gives a session its client: the events now watch that descriptor. */
void
session_attach_client(struct session *s, int fd)
{
	s->cfd = fd;
	if (event_assign(s->ev_cread, relay.base, fd, EV_READ | EV_PERSIST,
	    client_read_cb, s) == -1 ||
	    event_assign(s->ev_cwrite, relay.base, fd, EV_WRITE | EV_PERSIST,
	    client_write_cb, s) == -1 ||
	    event_assign(s->ev_cgone, relay.base, fd, EV_CLOSED | EV_PERSIST,
	    client_gone_cb, s) == -1)
		fatalx("event_assign client");
}

void
session_attach_stream(struct session *s, int fd)
{
	s->sfd = fd;
	if (event_assign(s->ev_sread, relay.base, fd, EV_READ | EV_PERSIST,
	    stream_read_cb, s) == -1 ||
	    event_assign(s->ev_swrite, relay.base, fd, EV_WRITE | EV_PERSIST,
	    stream_write_cb, s) == -1)
		fatalx("event_assign stream");
}

/* Closes every descriptor and stops every event; the state stays. */
void
session_teardown(struct session *s)
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

/*
 * Ends a live session from the relay's side: an optional error frame
 * for the client, everything closed, and the parent asked to stop the
 * unit.  The slot stays taken until the parent answers IMSG_CLOSED.
 */
void
session_end(struct session *s, uint16_t code)
{
	log_debug("session %u: end in %s, code %u, in %llu, out %llu",
	    s->id, sess_state_name(s->state), code,
	    (unsigned long long)s->bytes_in,
	    (unsigned long long)s->bytes_out);
	if (code != 0 && outbuf_empty(&s->out))
		relay_send_error(s->cfd, code);
	session_teardown(s);
	s->state = SS_CLOSING;
	s->sigq_n = 0;
	parent_queue(s, IMSG_CLOSE_REQ);
	if (relay.shutting)
		relay_shutdown_progress();
}

/*
 * Gives the whole pages inside a scratch buffer back to the kernel; they
 * read as zeroes when next touched, and a buffer is always written
 * before it is read.  So an idle relay holds no memory for past sessions.
 */
static void
session_release(void *buf, size_t len)
{
	uintptr_t	start = (uintptr_t)buf, end = start + len;
	uintptr_t	page = (uintptr_t)sysconf(_SC_PAGESIZE);

	start = (start + page - 1) & ~(page - 1);
	end &= ~(page - 1);
	if (start < end && madvise((void *)start, end - start,
	    MADV_DONTNEED) == -1)
		log_warn("madvise");
}

void
session_free(struct session *s)
{
	session_teardown(s);
	session_clear(s);
	session_release(s->raw, sizeof(s->raw));
	session_release(s->out.buf, sizeof(s->out.buf));
	session_release(s->in.fr.payload, sizeof(s->in.fr.payload));
	relay_listen_resume();
}

static void
ev_want(struct event *ev, short what, int want)
{
	int	pending;

	pending = event_pending(ev, what, NULL);
	if (want && !pending) {
		if (event_add(ev, NULL) == -1)
			fatalx("event_add");
	} else if (!want && pending)
		event_del(ev);
}

static int
session_live(const struct session *s)
{
	return s->state == SS_ADMITTED || s->state == SS_STARTING ||
	    s->state == SS_RUNNING;
}

/*
 * Watches exactly what the session can make progress on.  Not reading
 * while a frame is held is the backpressure in both directions.
 */
void
session_update_events(struct session *s)
{
	int	live = session_live(s) && s->cfd != -1;
	int	input_held = s->in.fr.ready && s->in.fr.hdr.type == FRAME_INPUT;

	ev_want(s->ev_cread, EV_READ, live && !s->in.fr.ready &&
	    !s->in.failed && s->raw_off == s->raw_len && !s->exit_queued &&
	    !s->shutdown);
	ev_want(s->ev_cgone, EV_CLOSED, live);
	ev_want(s->ev_cwrite, EV_WRITE, live && !outbuf_empty(&s->out));
	ev_want(s->ev_sread, EV_READ, live && s->sfd != -1 &&
	    s->state == SS_RUNNING && outbuf_empty(&s->out) &&
	    !s->exit_queued && !s->shutdown);
	ev_want(s->ev_swrite, EV_WRITE, live && s->sfd != -1 &&
	    input_held && !s->stream_dead);
}

/*
 * One frame written at once, best effort, to a client that has nothing
 * else queued: used for error frames just before a close, and for the
 * exit frame of a unit that never ran.  The socket buffer of a fresh
 * connection is empty, so a frame this small fits unless the peer has
 * gone, and then nobody is left to tell.
 */
void
relay_send_frame(int fd, uint8_t type, const uint8_t *payload, size_t len)
{
	uint8_t	buf[FRAME_HDR_LEN + ERROR_FIXED_LEN + ERROR_MAX_TEXT];
	ssize_t	n;

	if (fd == -1 || len > sizeof(buf) - FRAME_HDR_LEN)
		return;
	frame_hdr_encode(buf, type, (uint32_t)len);
	if (len > 0)
		memcpy(buf + FRAME_HDR_LEN, payload, len);
	do {
		n = send(fd, buf, FRAME_HDR_LEN + len,
		    MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		log_debug("frame to client: %s", strerror(errno));
}

void
relay_send_error(int fd, uint16_t code)
{
	uint8_t	payload[ERROR_FIXED_LEN + ERROR_MAX_TEXT];
	int	n;

	if ((n = error_encode(code, NULL, payload, sizeof(payload))) < 0)
		return;
	relay_send_frame(fd, FRAME_ERROR, payload, (size_t)n);
}
