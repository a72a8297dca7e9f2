/*
 * cmsgfd.h: puts one descriptor into a message's control data, and takes
 * every descriptor out of a received one (any trust level).  Every path
 * that passes or may be handed a descriptor uses these, so none can send
 * two or keep one it did not mean to.  Also the one such message the
 * root parent makes for a session unit (dirsock.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_CMSGFD_H
#define OPTY_CMSGFD_H

#include <sys/socket.h>

#include <stddef.h>

/* Control space for exactly one descriptor, suitably aligned. */
union cmsg_onefd {
	struct cmsghdr	hdr;
	char		buf[CMSG_SPACE(sizeof(int))];
};

void	cmsg_put_fd(struct msghdr *, union cmsg_onefd *, int);
size_t	cmsg_take_fds(struct msghdr *, int *, size_t, int *);

/*
 * How a session unit receives its approved directory (root parent
 * sends, launcher receives, dirtake.h).  The directory travels as the
 * only descriptor of a one-byte message on a socket pair the root parent
 * made, whose other end is the unit's standard error: PID 1 takes any
 * socket as StandardErrorFileDescriptor=, while systemd 262 refuses a
 * directory there.  See docs/LAUNCHER.md.
 */
#define DIRSOCK_BYTE	'D'

/*
 * Root parent: a new socket whose queued message carries dirfd (the
 * caller keeps its own dirfd).  Close-on-exec; -1 with errno set.
 */
int	dirsock_make(int);

#endif
