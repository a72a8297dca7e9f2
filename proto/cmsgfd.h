/*
 * cmsgfd.h: puts one descriptor into a message's control data, and takes
 * every descriptor out of a received one (any trust level).  Every path
 * that passes or may be handed a descriptor uses these, so none can send
 * two or keep one it did not mean to.
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

#endif
