/*
 * dirsock.c: the approved directory's way into a session unit, the root
 * parent's side: it queues the message the launcher takes (dirtake.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"

int
dirsock_make(int dirfd)
{
	union cmsg_onefd	 cb;
	struct msghdr		 mh;
	struct iovec		 iov;
	char			 b = DIRSOCK_BYTE;
	int			 sp[2], saved;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		return -1;
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = &b;
	iov.iov_len = 1;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	cmsg_put_fd(&mh, &cb, dirfd);
	/* An empty new socket takes one byte at once: never blocks. */
	if (sendmsg(sp[0], &mh, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
		saved = errno;
		close(sp[0]);
		close(sp[1]);
		errno = saved != 0 ? saved : EIO;
		return -1;
	}
	close(sp[0]);
	return sp[1];
}
