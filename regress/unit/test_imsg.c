/*
 * test_imsg.c: cmocka tests of the parent-relay channel (proto/imsg.c,
 * proto/msgtab.c) over a real AF_UNIX SOCK_SEQPACKET socketpair.
 * Unprivileged test code.  Hostile packets are forged with sendmsg(2)
 * directly, and every rejection is checked for leaked descriptors by
 * counting /proc/self/fd before and after.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "proto/config.h"
#include "proto/imsg.h"
/* NOLINTNEXTLINE(bugprone-suspicious-include): msgtab_lookup() is static */
#include "proto/imsg.c"

/* sv[0] plays the relay, sv[1] the parent. */
struct pair {
	int	sv[2];
};

static struct imsg	msg;
static uint8_t		pkt[IMSG_HDR_LEN + IMSG_MAX_PAYLOAD + 16];

static int
count_fds(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	d = opendir("/proc/self/fd");
	if (d == NULL) {
		fail_msg("opendir /proc/self/fd: %s (is /proc mounted?)",
		    strerror(errno));
		return -1;	/* not reached: fail_msg() jumps out */
	}
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int
setup_pair(void **state)
{
	struct pair	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
	    p->sv) == -1) {
		free(p);
		return -1;
	}
	*state = p;
	return 0;
}

static int
teardown_pair(void **state)
{
	struct pair	*p = *state;

	close(p->sv[0]);
	close(p->sv[1]);
	free(p);
	return 0;
}

/* Sends exactly the bytes and descriptors given, bypassing imsg_send. */
static void
send_raw(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int) * 64)];
	}		 cbuf;
	struct iovec	 iov;
	struct msghdr	 mh;
	struct cmsghdr	*cm;

	assert_true(nfds <= 64);
	memset(&mh, 0, sizeof(mh));
	memset(&cbuf, 0, sizeof(cbuf));
	iov.iov_base = (void *)(uintptr_t)buf;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		mh.msg_control = cbuf.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)len)
		fail_msg("sendmsg: %s", strerror(errno));
}

/* A header followed by len payload bytes of filler. */
static size_t
forge(uint32_t type, uint32_t hlen, uint32_t sid, size_t len)
{
	struct imsg_hdr	h;

	h.type = type;
	h.len = hlen;
	h.sid = sid;
	memcpy(pkt, &h, sizeof(h));
	memset(pkt + sizeof(h), 'z', len);
	return sizeof(h) + len;
}

/*
 * Sends a forged packet carrying nfds fresh descriptors, closes the
 * sender's copies, and expects imsg_recv to refuse it with want and to
 * leave no descriptor behind.
 */
static void
expect_reject(struct pair *p, int tosock, int fromsock, enum imsg_dir dir,
    size_t len, int nfds, int want)
{
	int	fds[64], i, before;

	before = count_fds();
	for (i = 0; i < nfds; i++)
		if ((fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1)
			fail_msg("open /dev/null: %s", strerror(errno));
	send_raw(tosock, pkt, len, fds, nfds);
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	assert_int_equal(imsg_recv(fromsock, dir, &msg), want);
	assert_int_equal(msg.fd, -1);
	assert_int_equal(count_fds(), before);
	(void)p;
}

/* Relay -> parent: the relay writes on sv[0], the parent reads sv[1]. */
static void
reject_to_parent(struct pair *p, size_t len, int nfds, int want)
{
	expect_reject(p, p->sv[0], p->sv[1], TO_PARENT, len, nfds, want);
}

static void
reject_to_relay(struct pair *p, size_t len, int nfds, int want)
{
	expect_reject(p, p->sv[1], p->sv[0], TO_RELAY, len, nfds, want);
}

static void
test_roundtrip_no_fd(void **state)
{
	struct pair		*p = *state;
	struct imsg_code	 c = { ERR_BUSY };
	struct imsg_exit	 e;

	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_DENY, 5, -1, &c,
	    sizeof(c)), 0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_AUTH_DENY);
	assert_int_equal(msg.hdr.sid, 5);
	assert_int_equal(msg.hdr.len, sizeof(c));
	assert_int_equal(msg.fd, -1);
	assert_memory_equal(msg.data, &c, sizeof(c));

	memset(&e, 0, sizeof(e));
	e.code = 1;
	e.status = 7;
	strcpy(e.result, "exit-code");
	assert_int_equal(imsg_send(p->sv[1], IMSG_EXIT, 15, -1, &e,
	    sizeof(e)), 0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_EXIT);
	assert_int_equal(msg.hdr.sid, 15);
	assert_memory_equal(msg.data, &e, sizeof(e));

	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_OK, 0, -1, NULL, 0),
	    0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_AUTH_OK);
	assert_int_equal(msg.hdr.len, 0);
}

/* The received descriptor is a new, close-on-exec copy that works. */
static void
test_roundtrip_with_fd(void **state)
{
	struct pair	*p = *state;
	int		 pfd[2], flags, before;
	char		 c;

	assert_int_equal(pipe2(pfd, O_CLOEXEC), 0);
	assert_int_equal(imsg_send(p->sv[1], IMSG_START_OK, 3, pfd[0], NULL,
	    0), 0);
	close(pfd[0]);
	before = count_fds();
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(count_fds(), before + 1);
	assert_int_equal(msg.hdr.type, IMSG_START_OK);
	assert_int_equal(msg.hdr.sid, 3);
	assert_true(msg.fd >= 0);
	flags = fcntl(msg.fd, F_GETFD);
	assert_true(flags != -1 && (flags & FD_CLOEXEC));
	assert_int_equal(write(pfd[1], "q", 1), 1);
	assert_int_equal(read(msg.fd, &c, 1), 1);
	assert_int_equal(c, 'q');
	close(msg.fd);
	close(pfd[1]);
}

static void
test_auth_req_to_parent(void **state)
{
	struct pair	*p = *state;
	int		 sp[2], flags;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	/* Sent from a descriptor without FD_CLOEXEC: the copy has it. */
	assert_int_equal(fcntl(sp[0], F_SETFD, 0), 0);
	assert_int_equal(imsg_send(p->sv[0], IMSG_AUTH_REQ, 0, sp[0], NULL,
	    0), 0);
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_AUTH_REQ);
	assert_true(msg.fd >= 0 && msg.fd != sp[0]);
	flags = fcntl(msg.fd, F_GETFD);
	assert_true(flags != -1 && (flags & FD_CLOEXEC));
	assert_int_equal(write(sp[1], "x", 1), 1);
	assert_int_equal(recv(msg.fd, pkt, 1, 0), 1);
	close(msg.fd);
	close(sp[0]);
	close(sp[1]);
}

static void
test_eof(void **state)
{
	struct pair	*p = *state;

	close(p->sv[0]);
	p->sv[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), 0);
	assert_int_equal(msg.fd, -1);
}

static void
test_eagain(void **state)
{
	struct pair	*p = *state;
	int		 fl;

	fl = fcntl(p->sv[1], F_GETFL);
	assert_int_equal(fcntl(p->sv[1], F_SETFL, fl | O_NONBLOCK), 0);
	errno = 0;
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), IMSG_E_IO);
	assert_int_equal(errno, EAGAIN);
}

static void
test_two_fds(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 2,
	    IMSG_E_NFDS);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 3,
	    IMSG_E_NFDS);
}

/* More descriptors than the control buffer holds: cut, so refused. */
static void
test_ctrunc(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 32,
	    IMSG_E_CTRUNC);
}

static void
test_fd_on_fd_none(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(IMSG_CLOSE_REQ, sizeof(struct imsg_close),
	    1, sizeof(struct imsg_close)), 1, IMSG_E_FD_UNEXPECTED);
	reject_to_relay(p, forge(IMSG_AUTH_OK, 0, 1, 0), 1,
	    IMSG_E_FD_UNEXPECTED);
}

static void
test_fd_missing(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 0,
	    IMSG_E_FD_MISSING);
	reject_to_relay(p, forge(IMSG_START_OK, 0, 0, 0), 0,
	    IMSG_E_FD_MISSING);
}

static void
test_short_packet(void **state)
{
	struct pair	*p = *state;

	forge(IMSG_AUTH_REQ, 0, 0, 0);
	reject_to_parent(p, IMSG_HDR_LEN - 1, 1, IMSG_E_SHORT);
	reject_to_parent(p, 1, 0, IMSG_E_SHORT);
	/* Zero bytes with a descriptor is not an end of file. */
	reject_to_parent(p, 0, 1, IMSG_E_SHORT);
}

static void
test_length_mismatch(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(IMSG_AUTH_REQ, 1, 0, 0), 1,
	    IMSG_E_LENGTH);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 1), 1,
	    IMSG_E_LENGTH);
	reject_to_parent(p, forge(IMSG_CLOSE_REQ, 0xffffffffu, 0,
	    sizeof(struct imsg_close)), 0, IMSG_E_LENGTH);
}

static void
test_unknown_type(void **state)
{
	struct pair	*p = *state;

	reject_to_parent(p, forge(0, 0, 0, 0), 1, IMSG_E_TYPE);
	reject_to_parent(p, forge(IMSG_TYPE_MAX, 0, 0, 0), 1, IMSG_E_TYPE);
	reject_to_parent(p, forge(0xffffffffu, 0, 0, 0), 0, IMSG_E_TYPE);
}

static void
test_wrong_direction(void **state)
{
	struct pair	*p = *state;

	/* A relay pretending to be the parent. */
	reject_to_parent(p, forge(IMSG_START_OK, 0, 0, 0), 1, IMSG_E_DIR);
	reject_to_parent(p, forge(IMSG_CLOSED, 0, 0, 0), 0, IMSG_E_DIR);
	reject_to_relay(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 1, IMSG_E_DIR);
}

static void
test_bad_size(void **state)
{
	struct pair	*p = *state;
	uint32_t	 smin = sizeof(struct msg_start) + 2;

	reject_to_relay(p, forge(IMSG_AUTH_DENY, 3, 0, 3), 0, IMSG_E_SIZE);
	reject_to_relay(p, forge(IMSG_AUTH_DENY, 5, 0, 5), 0, IMSG_E_SIZE);
	reject_to_relay(p, forge(IMSG_AUTH_OK, 1, 0, 1), 0, IMSG_E_SIZE);
	reject_to_relay(p, forge(IMSG_EXIT, sizeof(struct imsg_exit) - 1, 0,
	    sizeof(struct imsg_exit) - 1), 0, IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_START_REQ, smin - 1, 0, smin - 1), 1,
	    IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_CLOSE_REQ, 15, 0, 15), 0,
	    IMSG_E_SIZE);
}

static void
test_sid_range(void **state)
{
	struct pair	*p = *state;

	reject_to_relay(p, forge(IMSG_START_OK, 0, OPTY_MAX_SLOTS, 0), 1,
	    IMSG_E_SID);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0xffffffffu, 0), 1,
	    IMSG_E_SID);
}

/* One byte over the largest message: MSG_TRUNC, whatever it claims. */
static void
test_oversize_truncated(void **state)
{
	struct pair	*p = *state;
	int		 sz = 1 << 20;

	assert_int_equal(setsockopt(p->sv[0], SOL_SOCKET, SO_SNDBUF, &sz,
	    sizeof(sz)), 0);
	reject_to_parent(p, forge(IMSG_START_REQ, IMSG_MAX_PAYLOAD + 1, 0,
	    IMSG_MAX_PAYLOAD + 1), 1, IMSG_E_TRUNC);
}

/* The largest START_REQ fits the receive buffer exactly. */
static void
test_max_start_req(void **state)
{
	struct pair	*p = *state;
	int		 fd, sz = 1 << 20;

	assert_int_equal(setsockopt(p->sv[0], SOL_SOCKET, SO_SNDBUF, &sz,
	    sizeof(sz)), 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	memset(pkt, 'a', IMSG_MAX_PAYLOAD);
	assert_int_equal(imsg_send(p->sv[0], IMSG_START_REQ, 2, fd, pkt,
	    IMSG_MAX_PAYLOAD), 0);
	close(fd);
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), 1);
	assert_int_equal(msg.hdr.len, IMSG_MAX_PAYLOAD);
	assert_true(msg.fd >= 0);
	close(msg.fd);
}

/* Credentials the receiver asked for are still not SCM_RIGHTS. */
static void
test_foreign_cmsg(void **state)
{
	struct pair	*p = *state;
	int		 on = 1;

	assert_int_equal(setsockopt(p->sv[1], SOL_SOCKET, SO_PASSCRED, &on,
	    sizeof(on)), 0);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 1, IMSG_E_CMSG);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 2, IMSG_E_CMSG);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 0, IMSG_E_CMSG);
}

#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD	76	/* Linux 6.5 */
#endif

/* A pidfd the kernel adds is a descriptor too: refused and closed. */
static void
test_pidfd_cmsg_closed(void **state)
{
	struct pair	*p = *state;
	int		 on = 1;

	if (setsockopt(p->sv[1], SOL_SOCKET, SO_PASSPIDFD, &on,
	    sizeof(on)) == -1)
		fail_msg("SO_PASSPIDFD: %s (kernel 6.5 or later needed, as "
		    "for SO_PEERPIDFD)", strerror(errno));
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 1, IMSG_E_CMSG);
	reject_to_parent(p, forge(IMSG_AUTH_REQ, 0, 0, 0), 0, IMSG_E_CMSG);
}

static void
test_send_refuses(void **state)
{
	struct pair		*p = *state;
	struct imsg_code	 c = { 1 };
	int			 fd, fl;

	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(imsg_send(p->sv[1], 0, 0, -1, NULL, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(imsg_send(p->sv[1], IMSG_TYPE_MAX, 0, -1, NULL, 0),
	    -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_DENY, 0, -1, &c, 3),
	    -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_DENY, 0, -1, NULL,
	    sizeof(c)), -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_START_OK, 0, -1, NULL, 0),
	    -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_OK, 0, fd, NULL, 0),
	    -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_AUTH_OK,
	    OPTY_MAX_SLOTS, -1, NULL, 0), -1);
	assert_int_equal(errno, EINVAL);
	close(fd);

	/* Nothing reached the other end. */
	fl = fcntl(p->sv[0], F_GETFL);
	assert_int_equal(fcntl(p->sv[0], F_SETFL, fl | O_NONBLOCK), 0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), IMSG_E_IO);
	assert_int_equal(errno, EAGAIN);
}

/*
 * The table, restated independently from docs/IMSG.md: the channel's
 * facts only.  Exactly SHUTDOWN and SHUTDOWN_DONE are channel-wide.
 */
static const struct {
	uint32_t		type;
	enum imsg_dir		dir;
	uint32_t		minlen, maxlen;
	enum imsg_fdrule	fd;
	enum imsg_scope		scope;
} expect_tab[] = {
	{ IMSG_AUTH_REQ, TO_PARENT, 0, 0, FD_REQUIRED, SCOPE_SESSION },
	{ IMSG_AUTH_OK, TO_RELAY, 0, 0, FD_NONE, SCOPE_SESSION },
	{ IMSG_AUTH_DENY, TO_RELAY, 4, 4, FD_NONE, SCOPE_SESSION },
	{ IMSG_START_REQ, TO_PARENT, 32 + 2, 32 + 65536, FD_REQUIRED,
	    SCOPE_SESSION },
	{ IMSG_START_OK, TO_RELAY, 0, 0, FD_REQUIRED, SCOPE_SESSION },
	{ IMSG_START_FAIL, TO_RELAY, 4, 4, FD_NONE, SCOPE_SESSION },
	{ IMSG_EXIT, TO_RELAY, 8 + EXIT_MAX_RESULT, 8 + EXIT_MAX_RESULT,
	    FD_NONE, SCOPE_SESSION },
	{ IMSG_CLOSE_REQ, TO_PARENT, 16, 16, FD_NONE, SCOPE_SESSION },
	{ IMSG_CLOSED, TO_RELAY, 0, 0, FD_NONE, SCOPE_SESSION },
	{ IMSG_SIGNAL_REQ, TO_PARENT, 4, 4, FD_NONE, SCOPE_SESSION },
	{ IMSG_SHUTDOWN, TO_RELAY, 0, 0, FD_NONE, SCOPE_CHANNEL },
	{ IMSG_SHUTDOWN_DONE, TO_PARENT, 0, 0, FD_NONE, SCOPE_CHANNEL },
};

static void
test_table(void **state)
{
	const struct msgtab_ent	*ent;
	size_t			 i;

	(void)state;
	assert_int_equal(sizeof(expect_tab) / sizeof(expect_tab[0]),
	    IMSG_TYPE_MAX - 1);
	for (i = 0; i < sizeof(expect_tab) / sizeof(expect_tab[0]); i++) {
		ent = msgtab_lookup(expect_tab[i].type);
		assert_non_null(ent);
		assert_int_equal(ent->dir, expect_tab[i].dir);
		assert_int_equal(ent->minlen, expect_tab[i].minlen);
		assert_int_equal(ent->maxlen, expect_tab[i].maxlen);
		assert_int_equal(ent->fd, expect_tab[i].fd);
		assert_int_equal(ent->scope, expect_tab[i].scope);
	}
	/* The receive buffer holds every legal message. */
	for (i = 1; i < IMSG_TYPE_MAX; i++)
		assert_true(msgtab_lookup((uint32_t)i)->maxlen <=
		    IMSG_MAX_PAYLOAD);
	assert_null(msgtab_lookup(0));
	assert_null(msgtab_lookup(IMSG_TYPE_MAX));
	assert_null(msgtab_lookup(0xffffffffu));
}

/* A signal request: exactly 4 bytes, relay to parent, no descriptor. */
static void
test_signal_req(void **state)
{
	struct pair		*p = *state;
	struct imsg_signal	 sg = { 2 };
	int			 fd;

	assert_int_equal(imsg_send(p->sv[0], IMSG_SIGNAL_REQ, 7, -1, &sg,
	    sizeof(sg)), 0);
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_SIGNAL_REQ);
	assert_int_equal(msg.hdr.sid, 7);
	assert_int_equal(msg.hdr.len, 4);
	assert_int_equal(msg.fd, -1);
	assert_memory_equal(msg.data, &sg, sizeof(sg));

	reject_to_parent(p, forge(IMSG_SIGNAL_REQ, 0, 1, 0), 0, IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_SIGNAL_REQ, 3, 1, 3), 0, IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_SIGNAL_REQ, 5, 1, 5), 0, IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_SIGNAL_REQ, 4, 1, 4), 1,
	    IMSG_E_FD_UNEXPECTED);
	reject_to_parent(p, forge(IMSG_SIGNAL_REQ, 4, OPTY_MAX_SLOTS, 4), 0,
	    IMSG_E_SID);
	/* The parent never sends one. */
	reject_to_relay(p, forge(IMSG_SIGNAL_REQ, 4, 1, 4), 0, IMSG_E_DIR);

	/* The sender refuses the same. */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(imsg_send(p->sv[0], IMSG_SIGNAL_REQ, 1, -1, &sg, 3),
	    -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(imsg_send(p->sv[0], IMSG_SIGNAL_REQ, 1, -1, NULL,
	    sizeof(sg)), -1);
	assert_int_equal(imsg_send(p->sv[0], IMSG_SIGNAL_REQ, 1, fd, &sg,
	    sizeof(sg)), -1);
	assert_int_equal(imsg_send(p->sv[0], IMSG_SIGNAL_REQ,
	    OPTY_MAX_SLOTS, -1, &sg, sizeof(sg)), -1);
	close(fd);
}

/* SHUTDOWN and SHUTDOWN_DONE: empty, no descriptor, session id 0 only. */
static void
test_shutdown_types(void **state)
{
	struct pair	*p = *state;
	int		 fd;

	assert_int_equal(imsg_send(p->sv[1], IMSG_SHUTDOWN, 0, -1, NULL, 0),
	    0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_SHUTDOWN);
	assert_int_equal(msg.hdr.sid, 0);
	assert_int_equal(msg.fd, -1);

	assert_int_equal(imsg_send(p->sv[0], IMSG_SHUTDOWN_DONE, 0, -1, NULL,
	    0), 0);
	assert_int_equal(imsg_recv(p->sv[1], TO_PARENT, &msg), 1);
	assert_int_equal(msg.hdr.type, IMSG_SHUTDOWN_DONE);
	assert_int_equal(msg.hdr.sid, 0);

	/* A session id on a channel-wide message: refused on receive. */
	reject_to_relay(p, forge(IMSG_SHUTDOWN, 0, 1, 0), 0, IMSG_E_SID);
	reject_to_relay(p, forge(IMSG_SHUTDOWN, 0, OPTY_MAX_SLOTS - 1, 0), 0,
	    IMSG_E_SID);
	reject_to_relay(p, forge(IMSG_SHUTDOWN, 0, OPTY_MAX_SLOTS, 0), 0,
	    IMSG_E_SID);
	reject_to_parent(p, forge(IMSG_SHUTDOWN_DONE, 0, 1, 0), 0,
	    IMSG_E_SID);
	reject_to_parent(p, forge(IMSG_SHUTDOWN_DONE, 0, 0xffffffffu, 0), 0,
	    IMSG_E_SID);
	/* Size, descriptor and direction come first, as for every type. */
	reject_to_relay(p, forge(IMSG_SHUTDOWN, 1, 0, 1), 0, IMSG_E_SIZE);
	reject_to_relay(p, forge(IMSG_SHUTDOWN, 0, 0, 0), 1,
	    IMSG_E_FD_UNEXPECTED);
	reject_to_parent(p, forge(IMSG_SHUTDOWN_DONE, 4, 0, 4), 0,
	    IMSG_E_SIZE);
	reject_to_parent(p, forge(IMSG_SHUTDOWN_DONE, 0, 0, 0), 1,
	    IMSG_E_FD_UNEXPECTED);
	reject_to_parent(p, forge(IMSG_SHUTDOWN, 0, 0, 0), 0, IMSG_E_DIR);
	reject_to_relay(p, forge(IMSG_SHUTDOWN_DONE, 0, 0, 0), 0, IMSG_E_DIR);

	/* ... and on send. */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(imsg_send(p->sv[1], IMSG_SHUTDOWN, 1, -1, NULL, 0),
	    -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(imsg_send(p->sv[1], IMSG_SHUTDOWN,
	    OPTY_MAX_SLOTS - 1, -1, NULL, 0), -1);
	assert_int_equal(imsg_send(p->sv[0], IMSG_SHUTDOWN_DONE, 3, -1, NULL,
	    0), -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_SHUTDOWN, 0, fd, NULL, 0),
	    -1);
	assert_int_equal(imsg_send(p->sv[1], IMSG_SHUTDOWN, 0, -1, pkt, 1),
	    -1);
	close(fd);
	/* Per-session types still take any session id in range. */
	assert_int_equal(imsg_send(p->sv[1], IMSG_CLOSED, OPTY_MAX_SLOTS - 1,
	    -1, NULL, 0), 0);
	assert_int_equal(imsg_recv(p->sv[0], TO_RELAY, &msg), 1);
	assert_int_equal(msg.hdr.sid, OPTY_MAX_SLOTS - 1);
}

static void
test_names(void **state)
{
	int	i;

	(void)state;
	assert_string_equal(imsg_type_name(IMSG_AUTH_REQ), "AUTH_REQ");
	assert_string_equal(imsg_type_name(IMSG_CLOSED), "CLOSED");
	assert_string_equal(imsg_type_name(IMSG_SIGNAL_REQ), "SIGNAL_REQ");
	assert_string_equal(imsg_type_name(IMSG_SHUTDOWN), "SHUTDOWN");
	assert_string_equal(imsg_type_name(IMSG_SHUTDOWN_DONE),
	    "SHUTDOWN_DONE");
	assert_string_equal(imsg_type_name(0), "unknown");
	assert_string_equal(imsg_type_name(IMSG_TYPE_MAX), "unknown");
	for (i = IMSG_E_IO; i >= IMSG_E_SID; i--)
		assert_string_not_equal(imsg_strerror(i), "unknown");
	assert_string_equal(imsg_strerror(IMSG_E_SID - 1), "unknown");
	assert_string_equal(imsg_strerror(2), "unknown");
}

#define PT(f)	cmocka_unit_test_setup_teardown(f, setup_pair, teardown_pair)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		PT(test_roundtrip_no_fd),
		PT(test_roundtrip_with_fd),
		PT(test_auth_req_to_parent),
		PT(test_eof),
		PT(test_eagain),
		PT(test_two_fds),
		PT(test_ctrunc),
		PT(test_fd_on_fd_none),
		PT(test_fd_missing),
		PT(test_short_packet),
		PT(test_length_mismatch),
		PT(test_unknown_type),
		PT(test_wrong_direction),
		PT(test_bad_size),
		PT(test_sid_range),
		PT(test_oversize_truncated),
		PT(test_max_start_req),
		PT(test_foreign_cmsg),
		PT(test_pidfd_cmsg_closed),
		PT(test_send_refuses),
		PT(test_signal_req),
		PT(test_shutdown_types),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
