/*
 * cmsgfd.c: puts one descriptor into a message's control data, and takes
 * every descriptor out of a received one (any trust level).  Every path
 * that passes or may be handed a descriptor uses these, so none can send
 * two or keep one it did not mean to.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"

#ifndef SCM_PIDFD
/* Linux 6.5: a pidfd, installed like SCM_RIGHTS. */
#define SCM_PIDFD	0x04
#endif

/* Attaches fd as the message's only control data (SCM_RIGHTS). */
void
cmsg_put_fd(struct msghdr *mh, union cmsg_onefd *cb, int fd)
{
	struct cmsghdr	*cm;

	memset(cb, 0, sizeof(*cb));
	mh->msg_control = cb->buf;
	mh->msg_controllen = sizeof(cb->buf);
	cm = CMSG_FIRSTHDR(mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
}

/*
 * Moves up to max SCM_RIGHTS descriptors, in order, into fds and closes
 * every other descriptor the kernel installed: those beyond max and
 * those of SCM_PIDFD.  Any control message but SCM_RIGHTS sets
 * *foreignp (its data is only closed if it holds descriptors).  Returns
 * how many SCM_RIGHTS descriptors arrived, which may exceed max.
 */
size_t
cmsg_take_fds(struct msghdr *mh, int *fds, size_t max, int *foreignp)
{
	struct cmsghdr	*cm;
	size_t		 i, nfd, n = 0;
	int		 fd, rights;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm)) {
		rights = cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS;
		if (!rights)
			*foreignp = 1;
		if (cm->cmsg_level != SOL_SOCKET || (!rights &&
		    cm->cmsg_type != SCM_PIDFD) || cm->cmsg_len < CMSG_LEN(0))
			continue;
		nfd = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < nfd; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			    sizeof(int));
			if (rights && n < max)
				fds[n] = fd;
			else
				close(fd);
			if (rights)
				n++;
		}
	}
	return n;
}
