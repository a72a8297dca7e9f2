/*
 * dirtake.c: the launcher's side of the approved directory's way into a
 * session unit (cmsgfd.h; the root parent sends, dirsock.c).  Runs as
 * the session user and trusts the message only for what the kernel says
 * of it: the socket's peer is root (the socket pair was made by the root
 * parent before any byk process held it), exactly one byte, exactly one
 * descriptor, and that descriptor a directory.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"
#include "proto/dirtake.h"

static int
dirsock_peer_root(int sock, int *errp)
{
	struct ucred	cr;
	struct stat	st;
	socklen_t	len = sizeof(cr);

	if (fstat(sock, &st) == -1) {
		*errp = errno;
		return DS_E_NOTSOCK;
	}
	if (!S_ISSOCK(st.st_mode))
		return DS_E_NOTSOCK;
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cr, &len) == -1) {
		*errp = errno;
		return DS_E_PEER;
	}
	if (len != sizeof(cr) || cr.uid != 0)
		return DS_E_PEER;
	return 0;
}

int
dirsock_take(int sock, int *errp)
{
	union cmsg_onefd	 cb;
	struct msghdr		 mh;
	struct iovec		 iov;
	struct stat		 st;
	char			 b[2];
	ssize_t			 n;
	int			 fd = -1, foreign = 0, r;
	size_t			 nfd;

	*errp = 0;
	if ((r = dirsock_peer_root(sock, errp)) != 0)
		return r;
	memset(&mh, 0, sizeof(mh));
	memset(&cb, 0, sizeof(cb));
	iov.iov_base = b;
	iov.iov_len = sizeof(b);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cb.buf;
	mh.msg_controllen = sizeof(cb.buf);
	/*
	 * The message was queued before the unit existed: if it is not
	 * there now it never comes, and waiting would hang the session.
	 */
	do {
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	} while (n == -1 && errno == EINTR);
	if (n == -1) {
		*errp = errno;
		return DS_E_RECV;
	}
	nfd = cmsg_take_fds(&mh, &fd, 1, &foreign);
	if ((mh.msg_flags & MSG_CTRUNC) != 0)
		r = DS_E_TRUNC;
	else if (n == 0)
		r = DS_E_RECV;
	else if (n != 1 || b[0] != DIRSOCK_BYTE)
		r = DS_E_BYTE;
	else if (nfd == 0)
		r = DS_E_NOFD;
	else if (nfd > 1 || foreign)
		r = DS_E_FDS;
	else if (fstat(fd, &st) == -1 || !S_ISDIR(st.st_mode))
		r = DS_E_NOTDIR;
	if (r != 0) {
		if (nfd >= 1)
			close(fd);
		return r;
	}
	return fd;
}

const char *
dirsock_strerror(int status)
{
	switch (status) {
	case DS_E_NOTSOCK:
		return "fd 2 is not a socket";
	case DS_E_PEER:
		return "fd 2's peer is not root";
	case DS_E_RECV:
		return "no directory message on fd 2";
	case DS_E_TRUNC:
		return "the directory message's control data was truncated";
	case DS_E_BYTE:
		return "the directory message is not the one expected byte";
	case DS_E_NOFD:
		return "the directory message carries no descriptor";
	case DS_E_FDS:
		return "the directory message carries more than one descriptor";
	case DS_E_NOTDIR:
		return "the descriptor received is not a directory";
	default:
		return "unknown directory message error";
	}
}
