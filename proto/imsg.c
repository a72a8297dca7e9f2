/*
 * imsg.c: send and receive one parent-relay message per SOCK_SEQPACKET
 * packet.  Runs on both sides; in the root parent it is the first code
 * to touch what a possibly compromised relay wrote, so every packet is
 * checked against the table in msgtab.c before it is returned, and on
 * any error every descriptor that came with it is closed.  The table is
 * data; every function that reads it is here.
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

#include "proto/config.h"
#include "proto/cmsgfd.h"
#include "proto/imsg.h"

/*
 * Room for more descriptors than any message may carry, or for one and
 * a foreign control message such as credentials: a sender that attaches
 * extra is then seen and refused by name (IMSG_E_NFDS, IMSG_E_CMSG)
 * rather than cut by the kernel.  More still is MSG_CTRUNC, also refused.
 */
#define IMSG_RECV_FDS	16

/* The header goes on the wire as the struct: no padding allowed. */
_Static_assert(sizeof(struct imsg_hdr) == IMSG_HDR_LEN, "imsg_hdr size");
_Static_assert(IMSG_MAX_PAYLOAD == sizeof(struct msg_start) +
    FRAME_MAX_PAYLOAD, "the receive buffer holds the largest START_REQ");

union imsg_cmsgbuf {
	struct cmsghdr	hdr;
	char		buf[CMSG_SPACE(sizeof(int) * IMSG_RECV_FDS)];
};

/* NULL for anything not in the table, type 0 included. */
static const struct msgtab_ent *
msgtab_lookup(uint32_t type)
{
	if (type >= IMSG_TYPE_MAX || msgtab[type].name == NULL)
		return NULL;
	return &msgtab[type];
}

const char *
imsg_type_name(uint32_t type)
{
	const struct msgtab_ent	*ent;

	if ((ent = msgtab_lookup(type)) == NULL)
		return "unknown";
	return ent->name;
}

const char *
imsg_strerror(int status)
{
	/* Indexed by the negated status: 0 (end of file) and IMSG_E_*. */
	static const char *const text[] = {
		[0] = "end of file",
		[-IMSG_E_IO] = "receive failed",
		[-IMSG_E_TRUNC] = "packet truncated",
		[-IMSG_E_CTRUNC] = "control data truncated",
		[-IMSG_E_CMSG] = "unexpected control message",
		[-IMSG_E_NFDS] = "more than one descriptor",
		[-IMSG_E_SHORT] = "packet shorter than header",
		[-IMSG_E_LENGTH] = "header length does not match packet",
		[-IMSG_E_TYPE] = "unknown message type",
		[-IMSG_E_DIR] = "message type sent in wrong direction",
		[-IMSG_E_SIZE] = "payload size not allowed for type",
		[-IMSG_E_FD_UNEXPECTED] =
		    "descriptor on a type that takes none",
		[-IMSG_E_FD_MISSING] = "descriptor missing",
		[-IMSG_E_SID] = "session id out of range",
	};
	const int	n = (int)(sizeof(text) / sizeof(text[0]));

	if (status == 1)
		return "message";
	if (status > 0 || status <= -n || text[-status] == NULL)
		return "unknown";
	return text[-status];
}

/*
 * The table's rules for one message: 1 if it keeps them all, else the
 * IMSG_E_ code of the first it breaks.  The sender checks what it is
 * about to send by the same rules, its direction aside (dir 0).
 */
static int
msgtab_check(uint32_t type, enum imsg_dir dir, size_t len, int hasfd,
    uint32_t sid)
{
	const struct msgtab_ent	*ent;

	if ((ent = msgtab_lookup(type)) == NULL)
		return IMSG_E_TYPE;
	if (dir != 0 && ent->dir != dir)
		return IMSG_E_DIR;
	if (len < ent->minlen || len > ent->maxlen)
		return IMSG_E_SIZE;
	if (hasfd != (ent->fd == FD_REQUIRED))
		return hasfd ? IMSG_E_FD_UNEXPECTED : IMSG_E_FD_MISSING;
	if (sid >= OPTY_MAX_SLOTS)
		return IMSG_E_SID;
	/* A channel-wide message names no session. */
	if (ent->scope == SCOPE_CHANNEL && sid != 0)
		return IMSG_E_SID;
	return 1;
}

int
imsg_send(int sock, uint32_t type, uint32_t sid, int fd, const void *data,
    size_t len)
{
	struct imsg_hdr		 hdr;
	struct iovec		 iov[2];
	struct msghdr		 mh;
	union cmsg_onefd	 cbuf;
	ssize_t			 n;

	if ((len > 0 && data == NULL) || fd < -1 ||
	    msgtab_check(type, 0, len, fd >= 0, sid) != 1) {
		errno = EINVAL;
		return -1;
	}
	hdr.type = type;
	hdr.len = (uint32_t)len;
	hdr.sid = sid;

	memset(&mh, 0, sizeof(mh));
	iov[0].iov_base = &hdr;
	iov[0].iov_len = sizeof(hdr);
	/* sendmsg() only reads the payload; iovec has no const member. */
	iov[1].iov_base = (void *)(uintptr_t)data;
	iov[1].iov_len = len;
	mh.msg_iov = iov;
	mh.msg_iovlen = len > 0 ? 2 : 1;
	if (fd >= 0)
		cmsg_put_fd(&mh, &cbuf, fd);

	do {
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return -1;
	if ((size_t)n != sizeof(hdr) + len) {
		/* Cannot happen on SOCK_SEQPACKET; refuse to pretend. */
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

int
imsg_recv(int sock, enum imsg_dir dir, struct imsg *msg)
{
	struct iovec		iov[2];
	struct msghdr		mh;
	union imsg_cmsgbuf	cbuf;
	ssize_t			n;
	size_t			nfds;
	int			badcmsg = 0, rv;

	msg->fd = -1;
	memset(&mh, 0, sizeof(mh));
	iov[0].iov_base = &msg->hdr;
	iov[0].iov_len = sizeof(msg->hdr);
	iov[1].iov_base = msg->data;
	iov[1].iov_len = sizeof(msg->data);
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	mh.msg_control = cbuf.buf;
	mh.msg_controllen = sizeof(cbuf.buf);

	do {
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return IMSG_E_IO;

	nfds = cmsg_take_fds(&mh, &msg->fd, 1, &badcmsg);
	if (n == 0 && nfds == 0 && !badcmsg &&
	    (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) == 0)
		return 0;

	/* Checked in the order docs/IMSG.md gives. */
	if (mh.msg_flags & MSG_TRUNC)
		rv = IMSG_E_TRUNC;
	else if (mh.msg_flags & MSG_CTRUNC)
		rv = IMSG_E_CTRUNC;
	else if (badcmsg)
		rv = IMSG_E_CMSG;
	else if (nfds > 1)
		rv = IMSG_E_NFDS;
	else if ((size_t)n < IMSG_HDR_LEN)
		rv = IMSG_E_SHORT;
	else if (msg->hdr.len != (size_t)n - IMSG_HDR_LEN)
		rv = IMSG_E_LENGTH;
	else
		rv = msgtab_check(msg->hdr.type, dir, msg->hdr.len, nfds == 1,
		    msg->hdr.sid);
	if (rv != 1 && msg->fd != -1) {
		close(msg->fd);
		msg->fd = -1;
	}
	return rv;
}
