/*
 * pump.c: the bytes of one relay session between its client and the
 * master of the PTY whose peer is the unit's terminal (made and handed
 * over by the root parent): client frames in (input for the master,
 * resize, signal, the start frame), output frames and the exit frame
 * out.  Runs in the unprivileged, sandboxed relay.  It changes no
 * session state: a start frame, or a reason to end, is its result
 * (relay.h), and slot.c acts on it.
 *
 * Bounds: at most one input frame (<= FRAME_MAX_INPUT bytes, held in the
 * frame reader) waits for the master, and at most one output frame
 * (<= FRAME_MAX_INPUT bytes, in the outbuf) waits for the client.  The
 * master is read only while the outbuf is empty, so output stalls at
 * the PTY when the client stops reading.
 *
 * The parent opened the master O_NONBLOCK (parent/pty.c), so plain
 * read() and write() never block and the relay needs no fcntl() in its
 * sandbox.  End of output is EIO on read once the last peer is closed
 * (the command, its children and PID 1's copy); the kernel returns every
 * byte still buffered before it.  A peer held open outside the unit
 * would keep EIO away for ever, so once the parent reports the unit over
 * (nothing of the unit is left to write) a read that finds nothing ends
 * the output too: n_tty flushes the pending input of the port before it
 * answers EAGAIN, so every byte the unit wrote has been read by then.
 * The relay's one ioctl is TIOCSWINSZ, the only one its seccomp filter
 * lets through (sandbox.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/ioctl.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/log.h"
#include "relay/relay.h"

static void	pump_signal(struct slot *, uint8_t);

/* Reads per wake-up, so one busy client cannot starve the others. */
#define PUMP_READS_PER_WAKE	8

/* Refusals any client can cause, one line each, within a limit. */
static struct log_limit	signal_dropped;

/*
 * Moves the held input frame towards the command.  Returns 1 when it is
 * gone (written, or dropped because the command can take no more
 * input), 0 while it must wait.
 */
static int
pump_write(struct slot *s)
{
	const uint8_t	*p;
	size_t		 len;
	ssize_t		 n;

	p = intake_data(&s->in, &len);
	if (s->stream_dead || s->stream_eof)
		goto drop;
	if (s->sfd == -1)
		return 0;		/* unit not running yet */
	while (s->in_off < len) {
		n = write(s->sfd, p + s->in_off, len - s->in_off);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			/* The unit closed its input; output may still come. */
			log_debug("session %u: stream write: %s", s->id,
			    strerror(errno));
			s->stream_dead = 1;
			goto drop;
		}
		s->in_off += (size_t)n;
		s->bytes_in += (uint64_t)n;
	}
drop:
	s->in_off = 0;
	return 1;
}

/*
 * Feeds what the client sent into the frame state machine until it
 * stalls: all bytes used, a start frame waiting for the channel, or an
 * input frame waiting for the master.  Stalled means not reading.
 */
int
pump_input(struct slot *s)
{
	size_t		used;
	uint16_t	code = 0;
	int		ev, reads = 0;

	s->resume = 0;
	while (s->state == SLOT_ADMITTED || s->state == SLOT_STARTING ||
	    s->state == SLOT_RUNNING) {
		if (s->raw_off == s->raw_len && !s->in.fr.ready) {
			if (reads++ == PUMP_READS_PER_WAKE)
				break;
			if ((ev = conn_read(s, &code)) == -1)
				return code;
			if (ev == 0)
				break;
		}
		ev = intake_feed(&s->in, s->raw + s->raw_off,
		    s->raw_len - s->raw_off, &used, &code);
		s->raw_off += used;
		if (ev == INTAKE_ERROR) {
			log_info("session %u: bad client input in %s, code %u",
			    s->id, slot_state_name(s->state), code);
			return code;
		}
		if (ev == INTAKE_RESIZE || ev == INTAKE_SIGNAL) {
			if (ev == INTAKE_RESIZE)
				pump_resize(s, &s->in.ws);
			else
				pump_signal(s, s->in.sig);
			intake_done(&s->in);
			continue;
		}
		if (ev == INTAKE_STARTED)
			return s->state == SLOT_ADMITTED ? PUMP_START :
			    PUMP_WAIT;
		if (ev == INTAKE_DATA) {
			if (!pump_write(s))
				break;
			intake_done(&s->in);
		}
	}
	return PUMP_WAIT;
}

/* The master takes input again: the held frame, then the client's. */
int
pump_master_write(struct slot *s)
{
	if (!pump_write(s))
		return PUMP_WAIT;
	intake_done(&s->in);
	return pump_input(s);
}

/*
 * The exit frame goes out only after the master's EOF and after every
 * output byte before it, so no output is lost or reordered behind it.
 * 1 if it is now queued.
 */
static int
pump_exit_due(struct slot *s)
{
	if (s->state != SLOT_RUNNING || !s->stream_eof || !s->got_exit ||
	    s->exit_queued || !outbuf_empty(&s->out))
		return 0;
	if (outbuf_put_exit(&s->out, &s->exit) == -1)
		fatalx("session %u: exit frame not encodable", s->id);
	s->exit_queued = 1;
	return 1;
}

/*
 * After the exit report the master is read until it has nothing, not
 * until EIO: schedules that read when nothing else would (no byte
 * pending, a peer held outside the unit).
 */
static void
pump_drain(struct slot *s)
{
	if (s->got_exit && !s->stream_eof && s->sfd != -1 &&
	    s->state == SLOT_RUNNING && outbuf_empty(&s->out) &&
	    !s->exit_queued && !s->shutdown)
		event_active(s->ev_sread, EV_READ, 0);
}

/*
 * Writes the held frame.  Once the exit frame is out the session is
 * over; once an output frame is out the master may be read again.
 */
int
pump_output(struct slot *s)
{
	for (;;) {
		if (conn_flush(s) == -1)
			return 0;
		if (!outbuf_empty(&s->out))
			return PUMP_WAIT;
		if (s->exit_queued) {
			log_debug("session %u: exit frame sent", s->id);
			return 0;
		}
		if (s->shutdown)
			return ERR_SHUTDOWN;
		if (!pump_exit_due(s)) {
			pump_drain(s);
			return PUMP_WAIT;
		}
	}
}

/* The parent's exit report arrived while the unit runs. */
int
pump_exit(struct slot *s)
{
	if (!pump_exit_due(s)) {
		pump_drain(s);
		return PUMP_WAIT;
	}
	return pump_output(s);
}

int
pump_master_read(struct slot *s)
{
	uint8_t		*p;
	size_t		 room;
	ssize_t		 n;

	if ((p = outbuf_payload(&s->out, &room)) == NULL)
		return PUMP_WAIT;
	do {
		n = read(s->sfd, p, room);
	} while (n == -1 && errno == EINTR);
	if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		if (!s->got_exit)
			return PUMP_WAIT;
		/* The unit is over and all it wrote was read. */
		n = 0;
	}
	if (n <= 0) {
		/* EIO: no peer left, nothing buffered: the end of output. */
		if (n == -1 && errno != EIO)
			log_debug("session %u: stream read: %s", s->id,
			    strerror(errno));
		log_debug("session %u: stream at EOF", s->id);
		event_del(s->ev_sread);
		event_del(s->ev_swrite);
		close(s->sfd);
		s->sfd = -1;
		s->stream_eof = 1;
		return pump_exit(s);
	}
	if (outbuf_commit(&s->out, FRAME_OUTPUT, (size_t)n) == -1)
		fatalx("session %u: output buffer busy", s->id);
	s->bytes_out += (uint64_t)n;
	return pump_output(s);
}

/*
 * The terminal's size: carried by the start request until the unit
 * runs, then set on the master, which makes the kernel send SIGWINCH to
 * the command's foreground process group.
 */
void
pump_resize(struct slot *s, const struct winsize_req *ws)
{
	struct winsize	w;

	s->ws = *ws;
	if (s->sfd == -1) {
		s->ws_pending = s->start_sent;
		return;
	}
	s->ws_pending = 0;
	memset(&w, 0, sizeof(w));
	w.ws_row = ws->rows;
	w.ws_col = ws->cols;
	if (ioctl(s->sfd, TIOCSWINSZ, &w) == -1)
		log_debug("session %u: TIOCSWINSZ: %s", s->id,
		    strerror(errno));
}

/*
 * A signal for the command goes to the parent, which asks PID 1 to
 * deliver it to the unit's main process; until the unit runs it waits
 * here.  The queue is short: a client that floods signals loses the
 * surplus, not the relay's memory.
 */
static void
pump_signal(struct slot *s, uint8_t sig)
{
	if (s->sigq_n == sizeof(s->sigq)) {
		log_info_limited(&signal_dropped, "session %u: signal %u "
		    "dropped: %zu already waiting", s->id, sig,
		    sizeof(s->sigq));
		return;
	}
	s->sigq[s->sigq_n++] = sig;
	if (s->state == SLOT_RUNNING && s->pending == 0)
		chan_queue(s, IMSG_SIGNAL_REQ);
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

/*
 * Watches exactly what the session can make progress on.  Not reading
 * while a frame is held is the backpressure in both directions.
 */
void
pump_watch(struct slot *s)
{
	int	live = (s->state == SLOT_ADMITTED ||
		    s->state == SLOT_STARTING || s->state == SLOT_RUNNING) &&
		    s->cfd != -1;
	int	input_held = s->in.fr.ready && s->in.fr.hdr.type == FRAME_INPUT;

	ev_want(s->ev_cread, EV_READ, live && !s->in.fr.ready &&
	    !s->in.failed && s->raw_off == s->raw_len && !s->exit_queued &&
	    !s->shutdown);
	ev_want(s->ev_cgone, EV_CLOSED, live);
	ev_want(s->ev_cwrite, EV_WRITE, live && !outbuf_empty(&s->out));
	ev_want(s->ev_sread, EV_READ, live && s->sfd != -1 &&
	    s->state == SLOT_RUNNING && outbuf_empty(&s->out) &&
	    !s->exit_queued && !s->shutdown);
	ev_want(s->ev_swrite, EV_WRITE, live && s->sfd != -1 &&
	    input_held && !s->stream_dead);
}
