/*
 * sendframe.c: sends the start frame with the directory descriptor as
 * its one SCM_RIGHTS passenger.  Runs as byk inside the client's
 * seccomp filter, on fd 3 (already checked to be a connected AF_UNIX
 * stream socket).  The socket is a duplicate of the Node service's own
 * and may be non-blocking; its flags are shared, so they are left alone
 * and a full buffer is waited out with poll().
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "client/client.h"
#include "proto/cmsgfd.h"

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
