/*
 * cmsgfd.c: takes the descriptors out of a received message's control
 * data (any trust level).  Every receive path that may be handed a
 * descriptor uses it, so none can keep one it did not mean to.
 */
#include <sys/socket.h>

#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"

#ifndef SCM_PIDFD
#define SCM_PIDFD	0x04	/* Linux 6.5: a pidfd, installed like SCM_RIGHTS */
#endif

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
