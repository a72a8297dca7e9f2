/*
 * stream.c: the unit side of a relay session: the master of the PTY
 * whose peer is the unit's terminal, made and handed over by the root
 * parent.  Runs in the unprivileged, sandboxed relay.
 *
 * Bounds: at most one input frame (<= FRAME_MAX_INPUT bytes, held in the
 * frame reader) waits for the stream, and at most one output frame
 * (<= FRAME_MAX_INPUT bytes, in the outbuf) waits for the client.  The
 * stream is read only while the outbuf is empty, so output stalls at
 * the PTY when the client stops reading.
 *
 * The parent opened the master O_NONBLOCK (parent/pty.c), so plain
 * read() and write() never block and the relay needs no fcntl() in its
 * sandbox.  End of output is EIO on read once the last peer is closed
 * (the command, its children and PID 1's copy); the kernel returns every
 * byte still buffered before it.  The relay's one ioctl is TIOCSWINSZ,
 * the only one its seccomp filter lets through (sandbox.c).
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/log.h"
#include "relay/relay.h"

/*
 * Moves the held input frame towards the command.  Returns 1 when it is
 * gone (written, or dropped because the command can take no more
 * input), 0 while it must wait.
 */
int
stream_push_input(struct session *s)
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
	s->in_off = 0;
	return 1;
drop:
	s->in_off = 0;
	return 1;
}

void
stream_write_cb(int fd, short what, void *arg)
{
	struct session	*s = arg;

	(void)fd;
	(void)what;
	if (stream_push_input(s)) {
		intake_done(&s->in);
		client_pump(s);		/* also updates the events */
	}
}

static void
stream_eof(struct session *s)
{
	event_del(s->ev_sread);
	event_del(s->ev_swrite);
	close(s->sfd);
	s->sfd = -1;
	s->stream_eof = 1;
}

/*
 * The exit frame goes out only after the stream's EOF and after every
 * output byte before it, so no output is lost or reordered behind it.
 */
void
stream_check_end(struct session *s)
{
	if (s->state != SS_RUNNING || !s->stream_eof || !s->got_exit ||
	    s->exit_queued || !outbuf_empty(&s->out))
		return;
	if (outbuf_put_exit(&s->out, &s->exit) == -1)
		fatalx("session %u: exit frame not encodable", s->id);
	s->exit_queued = 1;
	client_flush(s);
}

void
stream_read_cb(int fd, short what, void *arg)
{
	struct session	*s = arg;
	uint8_t		*p;
	size_t		 room;
	ssize_t		 n;

	(void)fd;
	(void)what;
	if ((p = outbuf_payload(&s->out, &room)) == NULL) {
		session_update_events(s);
		return;
	}
	do {
		n = read(s->sfd, p, room);
	} while (n == -1 && errno == EINTR);
	if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		/* EIO: no peer left, nothing buffered: the end of output. */
		if (n == -1 && errno != EIO)
			log_debug("session %u: stream read: %s", s->id,
			    strerror(errno));
		log_debug("session %u: stream at EOF", s->id);
		stream_eof(s);
		stream_check_end(s);
		if (s->state == SS_RUNNING)
			session_update_events(s);
		return;
	}
	if (outbuf_commit(&s->out, FRAME_OUTPUT, (size_t)n) == -1)
		fatalx("session %u: output buffer busy", s->id);
	s->bytes_out += (uint64_t)n;
	client_flush(s);
}

/*
 * The terminal's size: carried by the start request until the unit
 * runs, then set on the master, which makes the kernel send SIGWINCH to
 * the command's foreground process group.
 */
void
stream_resize(struct session *s, const struct winsize_req *ws)
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

/* Refusals any client can cause, one line each, within a limit. */
static struct log_limit	signal_dropped;

/*
 * A signal for the command goes to the parent, which asks PID 1 to
 * deliver it to the unit's main process; until the unit runs it waits
 * here.  The queue is short: a client that floods signals loses the
 * surplus, not the relay's memory.
 */
void
stream_signal(struct session *s, uint8_t sig)
{
	if (s->sigq_n == sizeof(s->sigq)) {
		log_info_limited(&signal_dropped, "session %u: signal %u "
		    "dropped: %zu already waiting", s->id, sig,
		    sizeof(s->sigq));
		return;
	}
	s->sigq[s->sigq_n++] = sig;
	if (s->state == SS_RUNNING && s->pending == 0)
		parent_queue(s, IMSG_SIGNAL_REQ);
}
