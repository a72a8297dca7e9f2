/*
 * cmsgfd.h: takes the descriptors out of a received message's control
 * data (any trust level).  Every receive path that may be handed a
 * descriptor uses it, so none can keep one it did not mean to.
 */
#ifndef OPTY_CMSGFD_H
#define OPTY_CMSGFD_H

#include <sys/socket.h>

#include <stddef.h>

size_t	cmsg_take_fds(struct msghdr *, int *, size_t, int *);

#endif
