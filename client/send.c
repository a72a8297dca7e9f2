/*
 * send.c: builds the frames opencode-pty-client sends (header + payload,
 * docs/PROTOCOL.md) in a caller's buffer - with -s one RESIZE frame,
 * then the start frame - and sends them with the directory descriptor
 * as the one SCM_RIGHTS passenger of the first byte.  Runs as byk inside
 * the client's seccomp filter, on fd 3 (already checked to be a
 * connected AF_UNIX stream socket).  The socket is a duplicate of the
 * Node service's own and may be non-blocking; its flags are shared, so
 * they are left alone and a full buffer is waited out with poll().
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "client/client.h"
#include "proto/cmsgfd.h"

/* The RESIZE frame of -s; returns its length, or -1 with err. */
static int
resize_frame(const struct client_opts *o, uint8_t *buf, size_t buflen,
    char *err, size_t errlen)
{
	struct winsize_req	ws;
	int			n;

	if (buflen < FRAME_HDR_LEN) {
		snprintf(err, errlen, "resize frame: %s",
		    frame_strerror(FRAME_E_SPACE));
		return -1;
	}
	ws.rows = o->rows;
	ws.cols = o->cols;
	n = resize_encode(&ws, buf + FRAME_HDR_LEN, buflen - FRAME_HDR_LEN);
	if (n < 0) {
		snprintf(err, errlen, "resize frame: %s", frame_strerror(n));
		return -1;
	}
	frame_hdr_encode(buf, FRAME_RESIZE, (uint32_t)n);
	return FRAME_HDR_LEN + n;
}

/* Returns the length of all frames, or -1 with a reason in err. */
int
client_frame(const struct client_opts *o, const struct client_dir *dir,
    uint8_t *buf, size_t buflen, char *err, size_t errlen)
{
	struct start_req	req;
	int			i, n, pre = 0;

	if (o->rows != 0 || o->cols != 0) {
		if ((pre = resize_frame(o, buf, buflen, err, errlen)) == -1)
			return -1;
		buf += pre;
		buflen -= (size_t)pre;
	}
	if (buflen < FRAME_HDR_LEN || o->argc < 1 ||
	    o->argc > START_MAX_ARGS) {
		snprintf(err, errlen, "start frame: bad arguments");
		return -1;
	}
	req.dev = dir->dev;
	req.ino = dir->ino;
	req.runtime = o->runtime;
	req.argc = (uint16_t)o->argc;
	for (i = 0; i < o->argc; i++) {
		req.argv[i] = (const uint8_t *)o->argv[i];
		req.arglen[i] = o->arglen[i];
	}
	n = start_encode(&req, buf + FRAME_HDR_LEN, buflen - FRAME_HDR_LEN);
	if (n < 0) {
		snprintf(err, errlen, "start frame: %s", frame_strerror(n));
		return -1;
	}
	frame_hdr_encode(buf, FRAME_START, (uint32_t)n);
	return pre + FRAME_HDR_LEN + n;
}

static int
wait_writable(int sock)
{
	struct pollfd	pfd;
	int		rv;

	pfd.fd = sock;
	pfd.events = POLLOUT;
	pfd.revents = 0;
	do
		rv = poll(&pfd, 1, -1);
	while (rv == -1 && errno == EINTR);
	return rv == -1 ? -1 : 0;
}

/* The descriptor rides on the first byte; a retry sends it again. */
static ssize_t
send_first(int sock, int dirfd, const uint8_t *buf, size_t len)
{
	union cmsg_onefd	 cb;
	struct msghdr		 msg;
	struct iovec		 iov;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = (void *)(uintptr_t)buf;	/* sendmsg only reads it */
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	cmsg_put_fd(&msg, &cb, dirfd);
	return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

/*
 * Sends all len bytes; only the first successful sendmsg() carries the
 * descriptor, any remainder goes with plain send().  0 or -1 + err.
 */
int
client_send(int sock, int dirfd, const uint8_t *buf, size_t len, char *err,
    size_t errlen)
{
	size_t	off = 0;
	ssize_t	n;

	while (off < len) {
		if (off == 0)
			n = send_first(sock, dirfd, buf, len);
		else
			n = send(sock, buf + off, len - off, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (wait_writable(sock) == 0)
				continue;
		}
		if (n == -1) {
			snprintf(err, errlen, "sending the start frame: %s",
			    strerrordesc_np(errno));
			return -1;
		}
		if (n == 0 || (size_t)n > len - off) {
			snprintf(err, errlen, "sending the start frame: "
			    "socket accepted %zd bytes", n);
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}
