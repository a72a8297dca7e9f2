/*
 * opty-forgedrelay.c: a FORGED relay (test only, never installed).  The
 * regression suite installs it in place of opencode-pty-relay inside the
 * disposable systemd, so the real root parent execs it with the real
 * channel on fd 3 and the real listening socket on fd 4.  It plays one
 * hostile scenario named in SCENARIO_PATH against the parent, whose
 * only correct answer is to stop every unit and exit non-zero.  With no
 * scenario it idles until the parent closes the channel.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/imsg.h"

#define SCENARIO_PATH	"/run/opty-forged-relay.scenario"

static void __attribute__((noreturn))
die(const char *what)
{
	dprintf(2, "forged-relay: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* Raw sendmsg: header fields, payload and descriptors exactly as given. */
static void
raw_send(uint32_t type, uint32_t hlen, uint32_t sid, const void *data,
    size_t len, const int *fds, int nfds)
{
	struct imsg_hdr	 h = { type, hlen, sid };
	struct iovec	 iov[2];
	struct msghdr	 msg;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(4 * sizeof(int))];
	}		 cm;
	struct cmsghdr	*c;

	memset(&msg, 0, sizeof(msg));
	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)(uintptr_t)data;
	iov[1].iov_len = len;
	msg.msg_iov = iov;
	msg.msg_iovlen = len > 0 ? 2 : 1;
	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	if (sendmsg(RELAY_FD_PARENT, &msg, MSG_NOSIGNAL) == -1)
		die("sendmsg");
}

static int
any_fd(void)
{
	int	 fd;

	if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		die("open /");
	return fd;
}

static const struct imsg *
wait_reply(uint32_t want)
{
	static struct imsg	 m;
	int			 r;

	if ((r = imsg_recv(RELAY_FD_PARENT, TO_RELAY, &m)) != 1) {
		dprintf(2, "forged-relay: no reply (%d)\n", r);
		exit(3);
	}
	if (m.hdr.type != want) {
		dprintf(2, "forged-relay: got %s, wanted %s\n",
		    imsg_type_name(m.hdr.type), imsg_type_name(want));
		exit(3);
	}
	return &m;
}

static int
accept_real_client(void)
{
	struct pollfd	 pfd = { RELAY_FD_LISTEN, POLLIN, 0 };
	int		 conn;

	if (poll(&pfd, 1, 20000) != 1)
		die("no client connected");
	/* accept4(2) takes a NULL addrlen with a NULL addr. */
	/* cppcheck-suppress nullPointer */
	if ((conn = accept4(RELAY_FD_LISTEN, NULL, NULL, SOCK_CLOEXEC)) == -1)
		die("accept");
	return conn;
}

/* A real client connection, admitted by the real parent. */
static void
admit_real_client(uint32_t sid)
{
	int	 conn = accept_real_client();

	raw_send(IMSG_AUTH_REQ, 0, sid, NULL, 0, &conn, 1);
	(void)wait_reply(IMSG_AUTH_OK);
}

/*
 * The relay's cap of 16 sessions is not trusted: 17 connections of the
 * same real client, handed over in 17 slots, are admitted 16 times and
 * the 17th is denied ERR_BUSY.  Then a table violation ends the parent,
 * so the test sees both the verdict (our line) and the usual fail-closed
 * exit.
 */
static void
session_cap(void)
{
	const struct imsg	*m;
	struct imsg_code	 c;
	struct imsg_close	 cl;
	uint32_t		 sid;
	int			 conn;

	for (sid = 0; sid <= OPTY_MAX_SESSIONS; sid++) {
		conn = accept_real_client();
		raw_send(IMSG_AUTH_REQ, 0, sid, NULL, 0, &conn, 1);
		close(conn);
		if (sid < OPTY_MAX_SESSIONS) {
			(void)wait_reply(IMSG_AUTH_OK);
			continue;
		}
		m = wait_reply(IMSG_AUTH_DENY);
		memcpy(&c, m->data, sizeof(c));
		dprintf(2, "forged-relay: session-cap: %d admitted, the next "
		    "denied with code %u\n", OPTY_MAX_SESSIONS, c.code);
	}
	memset(&cl, 0, sizeof(cl));
	raw_send(IMSG_CLOSE_REQ, sizeof(cl), OPTY_MAX_SLOTS - 1, &cl,
	    sizeof(cl), NULL, 0);
}

static size_t
start_payload_sized(uint8_t *buf, size_t len, int terminated,
    uint16_t rows, uint16_t cols, uint32_t zero)
{
	struct msg_start	 ms;
	struct stat		 st;
	const char		 arg[] = "/bin/sleep\0" "30";

	if (stat("/", &st) == -1)
		die("stat /");
	memset(&ms, 0, sizeof(ms));
	ms.dev = st.st_dev;
	ms.ino = st.st_ino;
	ms.argc = 2;
	ms.rows = rows;
	ms.cols = cols;
	ms.zero = zero;
	if (len < sizeof(ms) + sizeof(arg))
		exit(2);
	memcpy(buf, &ms, sizeof(ms));
	memcpy(buf + sizeof(ms), arg, sizeof(arg));
	return sizeof(ms) + sizeof(arg) - (terminated ? 0 : 1);
}

static size_t
start_payload(uint8_t *buf, size_t len, int terminated)
{
	return start_payload_sized(buf, len, terminated, 24, 80, 0);
}

static void
signal_send(uint32_t sid, uint32_t signo)
{
	struct imsg_signal	 sg;

	memset(&sg, 0, sizeof(sg));
	sg.signo = signo;
	raw_send(IMSG_SIGNAL_REQ, sizeof(sg), sid, &sg, sizeof(sg), NULL, 0);
}

/* A session of the real client whose unit runs: START_OK received. */
static void
running_session(uint32_t sid)
{
	uint8_t			 buf[256];
	const struct imsg	*m;
	size_t			 n;
	int			 fd = any_fd();

	admit_real_client(sid);
	n = start_payload(buf, sizeof(buf), 1);
	raw_send(IMSG_START_REQ, n, sid, buf, n, &fd, 1);
	close(fd);
	m = wait_reply(IMSG_START_OK);
	if (m->fd != -1)
		close(m->fd);
}

/*
 * The terminal's size reaches the parent only inside START_REQ (after
 * the start the relay sets it on the master it holds): a size out of
 * range, a non-zero reserved field, and a start carrying a size for a
 * session already closed are each a table violation.
 */
static int
scenario_tty(const char *name)
{
	uint8_t			 buf[256];
	struct imsg_close	 cl;
	size_t			 n;
	int			 fd = any_fd();

	memset(&cl, 0, sizeof(cl));
	if (strcmp(name, "winsize-zero") == 0) {
		admit_real_client(6);
		n = start_payload_sized(buf, sizeof(buf), 1, 0, 80, 0);
		raw_send(IMSG_START_REQ, n, 6, buf, n, &fd, 1);
	} else if (strcmp(name, "winsize-big") == 0) {
		admit_real_client(6);
		n = start_payload_sized(buf, sizeof(buf), 1, 24, 4097, 0);
		raw_send(IMSG_START_REQ, n, 6, buf, n, &fd, 1);
	} else if (strcmp(name, "start-reserved") == 0) {
		admit_real_client(6);
		n = start_payload_sized(buf, sizeof(buf), 1, 24, 80, 1);
		raw_send(IMSG_START_REQ, n, 6, buf, n, &fd, 1);
	} else if (strcmp(name, "resize-closed") == 0) {
		admit_real_client(8);
		raw_send(IMSG_CLOSE_REQ, sizeof(cl), 8, &cl, sizeof(cl), NULL,
		    0);
		(void)wait_reply(IMSG_CLOSED);
		n = start_payload_sized(buf, sizeof(buf), 1, 50, 132, 0);
		raw_send(IMSG_START_REQ, n, 8, buf, n, &fd, 1);
	} else if (strcmp(name, "signal-free") == 0)
		signal_send(4, 2);
	else if (strcmp(name, "signal-admitted") == 0) {
		admit_real_client(3);
		signal_send(3, 2);
	} else if (strcmp(name, "signal-bad") == 0) {
		running_session(9);
		signal_send(9, 11);
	} else if (strcmp(name, "signal-huge") == 0) {
		running_session(9);
		signal_send(9, 0x100 + 2);
	} else if (strcmp(name, "signal-other-slot") == 0) {
		running_session(10);
		signal_send(11, 9);
	} else if (strcmp(name, "signal-closing") == 0) {
		admit_real_client(4);
		raw_send(IMSG_CLOSE_REQ, sizeof(cl), 4, &cl, sizeof(cl), NULL,
		    0);
		signal_send(4, 15);
	} else if (strcmp(name, "signal-fd") == 0)
		raw_send(IMSG_SIGNAL_REQ, 4, 0, buf, 4, &fd, 1);
	else if (strcmp(name, "signal-long") == 0)
		raw_send(IMSG_SIGNAL_REQ, 8, 0, buf, 8, NULL, 0);
	else if (strcmp(name, "shutdown-wrong-direction") == 0)
		raw_send(IMSG_SHUTDOWN, 0, 0, NULL, 0, NULL, 0);
	else if (strcmp(name, "shutdown-done-early") == 0)
		raw_send(IMSG_SHUTDOWN_DONE, 0, 0, NULL, 0, NULL, 0);
	else if (strcmp(name, "shutdown-done-sid") == 0)
		raw_send(IMSG_SHUTDOWN_DONE, 0, 3, NULL, 0, NULL, 0);
	else {
		close(fd);
		return 0;
	}
	close(fd);
	return 1;
}

static void
scenario(const char *name)
{
	uint8_t			 buf[256];
	struct imsg_close	 cl;
	int			 fds[2], fd;
	size_t			 n;

	memset(buf, 0, sizeof(buf));
	memset(&cl, 0, sizeof(cl));
	fds[0] = any_fd();
	fds[1] = any_fd();
	fd = fds[0];
	if (strcmp(name, "unknown-type") == 0)
		raw_send(99, 0, 0, NULL, 0, NULL, 0);
	else if (strcmp(name, "short") == 0) {
		if (send(RELAY_FD_PARENT, buf, 5, MSG_NOSIGNAL) == -1)
			die("send");
	} else if (strcmp(name, "length-mismatch") == 0)
		raw_send(IMSG_CLOSE_REQ, sizeof(cl) + 4, 0, &cl, sizeof(cl),
		    NULL, 0);
	else if (strcmp(name, "long") == 0)
		raw_send(IMSG_CLOSE_REQ, sizeof(cl) + 8, 0, buf,
		    sizeof(cl) + 8, NULL, 0);
	else if (strcmp(name, "short-payload") == 0)
		raw_send(IMSG_CLOSE_REQ, 8, 0, buf, 8, NULL, 0);
	else if (strcmp(name, "fd-missing") == 0)
		raw_send(IMSG_AUTH_REQ, 0, 0, NULL, 0, NULL, 0);
	else if (strcmp(name, "fd-extra") == 0)
		raw_send(IMSG_AUTH_REQ, 0, 0, NULL, 0, fds, 2);
	else if (strcmp(name, "fd-unexpected") == 0)
		raw_send(IMSG_CLOSE_REQ, sizeof(cl), 0, &cl, sizeof(cl), &fd,
		    1);
	else if (strcmp(name, "sid-range") == 0)
		raw_send(IMSG_AUTH_REQ, 0, OPTY_MAX_SLOTS, NULL, 0, &fd, 1);
	else if (strcmp(name, "wrong-state") == 0)
		raw_send(IMSG_CLOSE_REQ, sizeof(cl), 5, &cl, sizeof(cl), NULL,
		    0);
	else if (strcmp(name, "wrong-direction") == 0)
		raw_send(IMSG_AUTH_OK, 0, 0, NULL, 0, NULL, 0);
	else if (strcmp(name, "second-start") == 0) {
		admit_real_client(2);
		n = start_payload(buf, sizeof(buf), 1);
		raw_send(IMSG_START_REQ, n, 2, buf, n, &fd, 1);
		raw_send(IMSG_START_REQ, n, 2, buf, n, &fds[1], 1);
	} else if (strcmp(name, "unterminated") == 0) {
		admit_real_client(7);
		n = start_payload(buf, sizeof(buf), 0);
		raw_send(IMSG_START_REQ, n, 7, buf, n, &fd, 1);
	} else if (strcmp(name, "session-cap") == 0)
		session_cap();
	else if (strcmp(name, "admit-twice") == 0) {
		/* One connection, admitted, then handed to a second slot. */
		fd = accept_real_client();
		raw_send(IMSG_AUTH_REQ, 0, 2, NULL, 0, &fd, 1);
		(void)wait_reply(IMSG_AUTH_OK);
		raw_send(IMSG_AUTH_REQ, 0, 3, NULL, 0, &fd, 1);
	}
	else if (!scenario_tty(name)) {
		dprintf(2, "forged-relay: unknown scenario %s\n", name);
		exit(2);
	}
	dprintf(2, "forged-relay: played %s\n", name);
}

static void
scenario_take(char *name, size_t len)
{
	ssize_t	 n;
	int	 fd;

	name[0] = '\0';
	if ((fd = open(SCENARIO_PATH, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, name, len - 1);
	close(fd);
	name[n > 0 ? n : 0] = '\0';
	name[strcspn(name, "\n")] = '\0';
	/* Played once: a restarted parent then meets an idle relay. */
	if (rename(SCENARIO_PATH, SCENARIO_PATH ".done") == -1)
		die("rename");
}

int
main(void)
{
	char	 name[64], c;

	scenario_take(name, sizeof(name));
	if (name[0] != '\0')
		scenario(name);
	/* Idle: the parent's verdict is to close the channel or kill us. */
	while (recv(RELAY_FD_PARENT, &c, 1, 0) > 0)
		;
	return 0;
}
