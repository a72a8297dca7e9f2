/*
 * client.c: the client side of the relay: accepting connections and
 * reading and writing the client socket of each session.  Runs in the
 * unprivileged, sandboxed relay; everything read here is untrusted.
 * Whatever a client does, it can only cost itself its own connection:
 * nothing here is fatal on client input and nothing grows with it.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "proto/cmsgfd.h"
#include "proto/log.h"
#include "relay/relay.h"

/* Refusals any peer can cause, one line each, within a limit. */
static struct log_limit	accept_busy;

/* Reads per wake-up, so one busy client cannot starve the others. */
#define CLIENT_READS_PER_WAKE	8

/* Scratch for the early encoding check of a start request. */
static uint8_t	client_scratch[IMSG_MAX_PAYLOAD];

union client_cmsgbuf {
	struct cmsghdr	hdr;
	char		buf[CMSG_SPACE(sizeof(int) * RELAY_MAX_RECV_FDS)];
};

void
client_accept_cb(int fd, short what, void *arg)
{
	struct session	*s;
	int		 cfd;

	(void)what;
	(void)arg;
	for (;;) {
		/*
		 * Every authentication slot busy: the next peers wait in the
		 * listen backlog, not refused, until an answer frees one.
		 */
		if (session_count(1) >= OPTY_MAX_AUTH) {
			relay_listen_pause();
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
			/* Out of descriptors or memory: wait for a free slot. */
			log_warn("accept");
			relay_listen_pause();
			return;
		}
		if (session_count(0) >= OPTY_MAX_SESSIONS) {
			log_info_limited(&accept_busy, "refusing a client: %d "
			    "sessions live",
			    OPTY_MAX_SESSIONS);
			relay_send_error(cfd, ERR_BUSY);
			close(cfd);
			continue;
		}
		if ((s = session_alloc()) == NULL)
			fatalx("slot table full below both caps");
		log_debug("session %u: accepted, asking the parent", s->id);
		session_attach_client(s, cfd);
		s->state = SS_AUTH;
		/* The relay keeps its own copy; it reads nothing until OK. */
		parent_queue(s, IMSG_AUTH_REQ);
	}
}

static void
client_close_fds(const int *fds, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * One read, with room for several descriptors so that a surplus one is
 * seen and refused rather than silently cut off by the kernel.
 * Returns 1 if bytes are now in s->raw, 0 to wait, -1 if the session
 * ended.
 */
static int
client_read(struct session *s)
{
	struct msghdr		mh;
	struct iovec		iov;
	union client_cmsgbuf	cbuf;
	int			fds[RELAY_MAX_RECV_FDS];
	size_t			nfds;
	ssize_t			n;
	uint16_t		code = 0;
	int			bad = 0;

	memset(&mh, 0, sizeof(mh));
	iov.iov_base = s->raw;
	iov.iov_len = sizeof(s->raw);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf.buf;
	mh.msg_controllen = sizeof(cbuf.buf);
	do {
		n = recvmsg(s->cfd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	} while (n == -1 && errno == EINTR);
	if (n == -1) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		log_debug("session %u: client read: %s", s->id,
		    strerror(errno));
		session_end(s, 0);
		return -1;
	}
	nfds = cmsg_take_fds(&mh, fds, RELAY_MAX_RECV_FDS, &bad);
	if (bad || nfds > RELAY_MAX_RECV_FDS ||
	    (mh.msg_flags & MSG_CTRUNC)) {
		client_close_fds(fds, nfds > RELAY_MAX_RECV_FDS ?
		    RELAY_MAX_RECV_FDS : nfds);
		log_info("session %u: client sent surplus or foreign control "
		    "data", s->id);
		session_end(s, bad ? ERR_PROTOCOL : ERR_FD_EXTRA);
		return -1;
	}
	if (nfds > 0 && intake_fds(&s->in, fds, nfds, &code) ==
	    INTAKE_ERROR) {
		log_info("session %u: client sent a descriptor too many",
		    s->id);
		session_end(s, code);
		return -1;
	}
	if (n == 0) {
		log_debug("session %u: client closed", s->id);
		session_end(s, 0);
		return -1;
	}
	s->raw_off = 0;
	s->raw_len = (size_t)n;
	return 1;
}

/* A valid start frame: hand it to the parent, descriptor attached. */
static int
client_started(struct session *s)
{
	event_del(s->ev_timer);
	s->in.start.rows = s->ws.rows;
	s->in.start.cols = s->ws.cols;
	/*
	 * Encoded once here to refuse what the parent's format cannot
	 * carry while the client can still be told; parent.c encodes again
	 * when the channel takes the message.
	 */
	if (msg_start_encode(&s->in.start, client_scratch,
	    sizeof(client_scratch)) < 0) {
		session_end(s, ERR_PROTOCOL);
		return -1;
	}
	log_debug("session %u: start frame, %u arguments, %ux%u", s->id,
	    s->in.start.argc, s->ws.rows, s->ws.cols);
	s->state = SS_STARTING;
	parent_queue(s, IMSG_START_REQ);
	return 0;
}

/*
 * Feeds what was read into the frame state machine until it stalls:
 * all bytes used, a start frame waiting for the channel, or an input
 * frame waiting for the stream.  Stalled means not reading.
 */
void
client_pump(struct session *s)
{
	size_t		used;
	uint16_t	code = 0;
	int		ev, reads = 0;

	s->resume = 0;
	while (s->state == SS_ADMITTED || s->state == SS_STARTING ||
	    s->state == SS_RUNNING) {
		if (s->raw_off == s->raw_len && !s->in.fr.ready) {
			if (reads++ == CLIENT_READS_PER_WAKE)
				break;
			if ((ev = client_read(s)) == -1)
				return;
			if (ev == 0)
				break;
		}
		ev = intake_feed(&s->in, s->raw + s->raw_off,
		    s->raw_len - s->raw_off, &used, &code);
		s->raw_off += used;
		if (ev == INTAKE_ERROR) {
			log_info("session %u: bad client input in %s, code %u",
			    s->id, sess_state_name(s->state), code);
			session_end(s, code);
			return;
		}
		if (ev == INTAKE_RESIZE || ev == INTAKE_SIGNAL) {
			if (ev == INTAKE_RESIZE)
				stream_resize(s, &s->in.ws);
			else
				stream_signal(s, s->in.sig);
			intake_done(&s->in);
			continue;
		}
		if (ev == INTAKE_STARTED) {
			if (s->state == SS_ADMITTED && client_started(s) == -1)
				return;
			break;
		}
		if (ev == INTAKE_DATA) {
			if (!stream_push_input(s))
				break;
			intake_done(&s->in);
		}
	}
	if (s->state != SS_FREE && s->state != SS_CLOSING)
		session_update_events(s);
}

void
client_read_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	client_pump(arg);
}

/*
 * Writes the held frame.  Once the exit frame is out the session is
 * over; once an output frame is out the stream may be read again.
 */
void
client_flush(struct session *s)
{
	const uint8_t	*p;
	size_t		 len;
	ssize_t		 n;

	while (!outbuf_empty(&s->out)) {
		p = outbuf_pending(&s->out, &len);
		n = send(s->cfd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			log_debug("session %u: client write: %s", s->id,
			    strerror(errno));
			session_end(s, 0);
			return;
		}
		outbuf_consume(&s->out, (size_t)n);
	}
	if (outbuf_empty(&s->out)) {
		if (s->exit_queued) {
			log_debug("session %u: exit frame sent", s->id);
			session_end(s, 0);
			return;
		}
		if (s->shutdown) {
			session_end(s, ERR_SHUTDOWN);
			return;
		}
		stream_check_end(s);
		if (s->state == SS_CLOSING)
			return;
	}
	session_update_events(s);
}

void
client_write_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	client_flush(arg);
}

void
client_gone_cb(int fd, short what, void *arg)
{
	struct session	*s = arg;

	(void)fd;
	(void)what;
	log_debug("session %u: client hung up", s->id);
	session_end(s, 0);
}

void
client_timeout_cb(int fd, short what, void *arg)
{
	struct session	*s = arg;

	(void)fd;
	(void)what;
	if (s == NULL || s->state != SS_ADMITTED)
		return;
	log_info("session %u: no start frame within %d s", s->id,
	    RELAY_START_TIMEOUT);
	session_end(s, ERR_PROTOCOL);
}
