/*
 * conn.c: one client connection of the relay: reading its bytes and
 * descriptors, writing the one frame the session holds for it, and the
 * best-effort frames sent just before a close.  Runs in the
 * unprivileged, sandboxed relay; everything read here is untrusted.
 * Whatever a client does, it can only cost itself its own connection:
 * nothing here is fatal on client input and nothing grows with it.  A
 * connection that must end says so by its return value.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"
#include "proto/log.h"
#include "relay/relay.h"

union conn_cmsgbuf {
	struct cmsghdr	hdr;
	char		buf[CMSG_SPACE(sizeof(int) * RELAY_MAX_RECV_FDS)];
};

/*
 * One read, with room for several descriptors so that a surplus one is
 * seen and refused rather than silently cut off by the kernel.
 * Returns 1 if bytes are now in s->raw, 0 to wait, -1 if the session
 * must end, with *codep the error for the client (0: none).
 */
int
conn_read(struct slot *s, uint16_t *codep)
{
	struct msghdr		mh;
	struct iovec		iov;
	union conn_cmsgbuf	cbuf;
	int			fds[RELAY_MAX_RECV_FDS];
	size_t			nfds, i;
	ssize_t			n;
	int			bad = 0;

	*codep = 0;
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
		return -1;
	}
	nfds = cmsg_take_fds(&mh, fds, RELAY_MAX_RECV_FDS, &bad);
	if (bad || nfds > RELAY_MAX_RECV_FDS ||
	    (mh.msg_flags & MSG_CTRUNC)) {
		for (i = 0; i < nfds && i < RELAY_MAX_RECV_FDS; i++)
			close(fds[i]);
		log_info("session %u: client sent surplus or foreign control "
		    "data", s->id);
		*codep = bad ? ERR_PROTOCOL : ERR_FD_EXTRA;
		return -1;
	}
	if (nfds > 0 && intake_fds(&s->in, fds, nfds, codep) ==
	    INTAKE_ERROR) {
		log_info("session %u: client sent a descriptor too many",
		    s->id);
		return -1;
	}
	if (n == 0) {
		log_debug("session %u: client closed", s->id);
		return -1;
	}
	s->raw_off = 0;
	s->raw_len = (size_t)n;
	return 1;
}

/* Writes the held frame: 0 once written or the socket is full, -1 gone. */
int
conn_flush(struct slot *s)
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
			return -1;
		}
		outbuf_consume(&s->out, (size_t)n);
	}
	return 0;
}

/*
 * One frame written at once, best effort, to a client that has nothing
 * else queued: used for error frames just before a close, and for the
 * exit frame of a unit that never ran.  The socket buffer of a fresh
 * connection is empty, so a frame this small fits unless the peer has
 * gone, and then nobody is left to tell.
 */
void
conn_send_frame(int fd, uint8_t type, const uint8_t *payload, size_t len)
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
conn_send_error(int fd, uint16_t code)
{
	uint8_t	payload[ERROR_FIXED_LEN + ERROR_MAX_TEXT];
	int	n;

	if ((n = error_encode(code, NULL, payload, sizeof(payload))) < 0)
		return;
	conn_send_frame(fd, FRAME_ERROR, payload, (size_t)n);
}
