/*
 * opty-forgedparent.c: a forged root parent for the relay (test only,
 * never installed; runs as root).  It sets up what the real parent
 * would (OPTY_RUNDIR, OPTY_EMPTY_DIR, the listening socket, the
 * channel), execs the relay exactly as the parent does, and drives
 * scripted scenarios with in-process clients and forged unit streams.
 * Prints "PASS: ..." / "FAIL: ..." lines; exits 1 on any failure.
 *
 *	opty-forgedparent [relay-path]
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "proto/imsg.h"
#include "regress/framepeer.h"

#define WAIT_MS		5000

static int		chan = -1;
static pid_t		relay_pid = -1;
static int		fails;
static struct imsg	msg;

static void
pass(const char *fmt, ...)
{
	va_list	ap;

	printf("PASS: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	(void)fflush(stdout);
}

static void
fail(const char *fmt, ...)
{
	va_list	ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	(void)fflush(stdout);
	fails++;
}

static void __attribute__((noreturn))
die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	if (relay_pid > 0)
		kill(relay_pid, SIGKILL);
	exit(1);
}

static int
wait_fd(int fd, short ev, int ms)
{
	struct pollfd	pfd = { fd, ev, 0 };

	return poll(&pfd, 1, ms) == 1;
}

/* The next message from the relay, or 0 on timeout. */
static int
recv_msg(uint32_t type, uint32_t *sidp)
{
	int	rv;

	if (!wait_fd(chan, POLLIN, WAIT_MS)) {
		fail("no %s from the relay", imsg_type_name(type));
		return 0;
	}
	if ((rv = imsg_recv(chan, TO_PARENT, &msg)) != 1) {
		fail("channel: %s", imsg_strerror(rv));
		return 0;
	}
	if (msg.hdr.type != type) {
		fail("got %s, expected %s", imsg_type_name(msg.hdr.type),
		    imsg_type_name(type));
		if (msg.fd != -1)
			close(msg.fd);
		return 0;
	}
	if (sidp != NULL)
		*sidp = msg.hdr.sid;
	return 1;
}

static void
send_msg(uint32_t type, uint32_t sid, int fd, const void *p, size_t len)
{
	if (imsg_send(chan, type, sid, fd, p, len) == -1)
		die("imsg_send");
}

static void
send_code(uint32_t type, uint32_t sid, uint32_t code)
{
	struct imsg_code	c = { code };

	send_msg(type, sid, -1, &c, sizeof(c));
}

static int
client_connect(void)
{
	struct sockaddr_un	sun;
	int			fd;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, OPTY_SOCKET_PATH);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		die("connect");
	return fd;
}

static int
read_full(int fd, void *buf, size_t len)
{
	uint8_t	*p = buf;
	ssize_t	 n;

	while (len > 0) {
		if (!wait_fd(fd, POLLIN, WAIT_MS))
			return 0;
		if ((n = read(fd, p, len)) <= 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

/* One frame from the relay: its type, payload in buf; -1 on EOF/err. */
static int
read_frame(int fd, uint8_t *buf, uint32_t *lenp)
{
	uint8_t			hdr[FRAME_HDR_LEN];
	struct frame_hdr	h;

	if (!read_full(fd, hdr, sizeof(hdr)))
		return -1;
	if (frame_hdr_decode(hdr, sizeof(hdr), &h) != FRAME_OK)
		return -2;
	if (!read_full(fd, buf, h.len))
		return -1;
	*lenp = h.len;
	return h.type;
}

static int
expect_error(int cfd, uint16_t code, const char *what)
{
	uint8_t			buf[FRAME_MAX_PAYLOAD];
	uint32_t		len;
	struct error_info	ei;
	int			t;

	t = read_frame(cfd, buf, &len);
	if (t != FRAME_ERROR || error_decode(buf, len, &ei) != FRAME_OK ||
	    ei.code != code) {
		fail("%s: expected error frame %u, got type %d", what, code, t);
		return 0;
	}
	if (read_frame(cfd, buf, &len) != -1) {
		fail("%s: connection not closed after the error", what);
		return 0;
	}
	pass("%s: error frame %u (%s), then close", what, code, ei.text);
	return 1;
}

static int
expect_eof(int fd, const char *what)
{
	char	b;

	if (!wait_fd(fd, POLLIN, WAIT_MS) || read(fd, &b, 1) != 0) {
		fail("%s: no EOF", what);
		return 0;
	}
	return 1;
}

static void
send_frame(int cfd, uint8_t type, const void *p, size_t len,
    const int *fds, size_t nfds)
{
	uint8_t		 buf[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD];
	char		 cbuf[CMSG_SPACE(sizeof(int) * 4)];
	struct msghdr	 mh;
	struct iovec	 iov;
	struct cmsghdr	*cm;

	frame_hdr_encode(buf, type, (uint32_t)len);
	memcpy(buf + FRAME_HDR_LEN, p, len);
	memset(&mh, 0, sizeof(mh));
	iov.iov_base = buf;
	iov.iov_len = FRAME_HDR_LEN + len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
	}
	if (sendmsg(cfd, &mh, MSG_NOSIGNAL) != (ssize_t)iov.iov_len)
		die("sendmsg frame");
}

static void
send_start(int cfd, size_t nfds)
{
	struct start_req	req;
	struct stat		st;
	uint8_t			p[512];
	int			fds[2], n;

	if ((fds[0] = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1 || (fds[1] = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1 || fstat(fds[0], &st) == -1)
		die("open dir");
	memset(&req, 0, sizeof(req));
	req.dev = st.st_dev;
	req.ino = st.st_ino;
	req.argc = 2;
	req.argv[0] = (const uint8_t *)"echo";
	req.arglen[0] = 4;
	req.argv[1] = (const uint8_t *)"a b";
	req.arglen[1] = 3;
	if ((n = start_encode(&req, p, sizeof(p))) < 0)
		die("start_encode");
	send_frame(cfd, FRAME_START, p, (size_t)n, fds, nfds);
	close(fds[0]);
	close(fds[1]);
}

/* connect + AUTH_REQ (+ AUTH_OK): a client in ADMITTED. */
static int
admitted(uint32_t *sidp)
{
	int	cfd = client_connect();

	if (!recv_msg(IMSG_AUTH_REQ, sidp))
		die("no AUTH_REQ");
	close(msg.fd);
	send_msg(IMSG_AUTH_OK, *sidp, -1, NULL, 0);
	return cfd;
}

/* After the relay closed a session: CLOSE_REQ, then confirm it. */
static int
expect_close(uint32_t sid, const char *what, struct imsg_close *clp)
{
	if (!recv_msg(IMSG_CLOSE_REQ, NULL) || msg.hdr.sid != sid) {
		fail("%s: no CLOSE_REQ for session %u", what, sid);
		return 0;
	}
	if (clp != NULL)
		memcpy(clp, msg.data, sizeof(*clp));
	send_msg(IMSG_CLOSED, sid, -1, NULL, 0);
	return 1;
}

/* Admitted and started: returns the client, *ufd the forged unit side. */
static int
running(uint32_t *sidp, int *ufd)
{
	int	cfd, sp[2];

	cfd = admitted(sidp);
	send_start(cfd, 1);
	if (!recv_msg(IMSG_START_REQ, NULL))
		die("no START_REQ");
	close(msg.fd);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		die("socketpair");
	send_msg(IMSG_START_OK, *sidp, sp[1], NULL, 0);
	close(sp[1]);
	*ufd = sp[0];
	return cfd;
}

static void
scenario_deny(void)
{
	uint32_t	sid;
	int		cfd = client_connect();

	if (!recv_msg(IMSG_AUTH_REQ, &sid))
		return;
	if (msg.fd == -1)
		fail("AUTH_REQ without the connection");
	close(msg.fd);
	send_code(IMSG_AUTH_DENY, sid, ERR_AUTH_PID);
	expect_error(cfd, ERR_AUTH_PID, "deny");
	close(cfd);
}

static void
scenario_start_req(void)
{
	struct start_args	sa;
	struct stat		st, tmp;
	uint32_t		sid;
	int			cfd;

	cfd = admitted(&sid);
	send_start(cfd, 1);
	if (!recv_msg(IMSG_START_REQ, NULL))
		return;
	if (msg.fd == -1 || fstat(msg.fd, &st) == -1 || stat("/tmp", &tmp)
	    == -1 || st.st_ino != tmp.st_ino || st.st_dev != tmp.st_dev)
		fail("START_REQ without the client's directory");
	else if (msg_start_decode(msg.data, msg.hdr.len, &sa) != 0 ||
	    sa.fixed.argc != 2 || strcmp(sa.argv[1], "a b") != 0 ||
	    sa.fixed.ino != tmp.st_ino)
		fail("START_REQ payload does not match the start frame");
	else
		pass("start frame -> START_REQ with the directory fd");
	close(msg.fd);
	send_code(IMSG_START_FAIL, sid, ERR_START);
	expect_error(cfd, ERR_START, "start failure");
	expect_close(sid, "start failure", NULL);
	close(cfd);
}

static void
scenario_exit_starting(void)
{
	struct imsg_exit	 x;
	struct exit_info	 ei;
	uint8_t			 buf[FRAME_MAX_PAYLOAD];
	uint32_t		 sid, len;
	int			 cfd;

	cfd = admitted(&sid);
	send_start(cfd, 1);
	if (!recv_msg(IMSG_START_REQ, NULL))
		return;
	close(msg.fd);
	memset(&x, 0, sizeof(x));
	x.code = 1;
	x.status = 217;
	strcpy(x.result, "exit-code");
	send_msg(IMSG_EXIT, sid, -1, &x, sizeof(x));
	if (read_frame(cfd, buf, &len) != FRAME_EXIT ||
	    exit_decode(buf, len, &ei) != FRAME_OK || ei.status != 217)
		fail("spawn failure: no exit frame");
	else if (expect_eof(cfd, "spawn failure"))
		pass("exit while starting -> exit frame 217 %s, close",
		    ei.result);
	expect_close(sid, "spawn failure", NULL);
	close(cfd);
}

static void
scenario_running(void)
{
	struct imsg_exit	 x;
	struct imsg_close	 cl;
	struct exit_info	 ei;
	uint8_t			 buf[FRAME_MAX_PAYLOAD];
	uint32_t		 sid, len;
	int			 cfd, ufd, t;

	cfd = running(&sid, &ufd);
	send_frame(cfd, FRAME_INPUT, "hello", 5, NULL, 0);
	if (!read_full(ufd, buf, 5) || memcmp(buf, "hello", 5) != 0)
		fail("input frame did not reach the stream");
	else
		pass("input frame -> stream");
	if (write(ufd, "world", 5) != 5)
		die("write stream");
	t = read_frame(cfd, buf, &len);
	if (t != FRAME_OUTPUT || len != 5 || memcmp(buf, "world", 5) != 0)
		fail("stream bytes did not arrive as an output frame");
	else
		pass("stream -> output frame");
	/* EXIT first, then more output, then EOF: exit frame comes last. */
	memset(&x, 0, sizeof(x));
	x.code = 1;
	strcpy(x.result, "success");
	send_msg(IMSG_EXIT, sid, -1, &x, sizeof(x));
	usleep(100000);
	if (write(ufd, "tail", 4) != 4)
		die("write stream");
	close(ufd);
	t = read_frame(cfd, buf, &len);
	if (t != FRAME_OUTPUT || len != 4 || memcmp(buf, "tail", 4) != 0)
		fail("output after EXIT lost or reordered (type %d)", t);
	else if (read_frame(cfd, buf, &len) != FRAME_EXIT ||
	    exit_decode(buf, len, &ei) != FRAME_OK)
		fail("no exit frame after the output");
	else if (expect_eof(cfd, "exit"))
		pass("EXIT + EOF -> all output, then exit frame, then close");
	if (expect_close(sid, "exit", &cl)) {
		if (cl.bytes_in == 5 && cl.bytes_out == 9)
			pass("CLOSE_REQ counts in=5 out=9");
		else
			fail("CLOSE_REQ counts in=%llu out=%llu",
			    (unsigned long long)cl.bytes_in,
			    (unsigned long long)cl.bytes_out);
	}
	close(cfd);
}

static void
scenario_bad_client(const char *what, int nfds, int input_first,
    uint16_t code)
{
	uint32_t	sid;
	int		cfd;

	cfd = admitted(&sid);
	if (input_first)
		send_frame(cfd, FRAME_INPUT, "x", 1, NULL, 0);
	else
		send_start(cfd, (size_t)nfds);
	if (expect_error(cfd, code, what))
		expect_close(sid, what, NULL);
	close(cfd);
}

static void
scenario_disconnect(void)
{
	uint32_t	sid;
	int		cfd, ufd;

	cfd = running(&sid, &ufd);
	close(cfd);
	if (expect_close(sid, "client disconnect", NULL))
		pass("client disconnect while running -> CLOSE_REQ");
	close(ufd);
}

/*
 * 16 sessions, then two more connections.  The 17th may reach the relay
 * before our last AUTH_OK does: then it waits for authentication in its
 * own slot and we deny it ERR_BUSY, as the real parent's own cap does.
 * Once its client has the answer, the relay has seen every AUTH_OK
 * (the channel keeps order), so the 18th meets the relay's cap itself.
 */
static void
scenario_busy(void)
{
	struct pollfd	pfd[2];
	uint32_t	sid;
	int		cfd[OPTY_MAX_SESSIONS], extra, i;

	for (i = 0; i < OPTY_MAX_SESSIONS; i++)
		cfd[i] = admitted(&sid);
	extra = client_connect();
	pfd[0].fd = extra;
	pfd[1].fd = chan;
	pfd[0].events = pfd[1].events = POLLIN;
	if (poll(pfd, 2, WAIT_MS) < 1)
		die("17th connection: no answer");
	if (!(pfd[0].revents & POLLIN) && (pfd[1].revents & POLLIN)) {
		if (!recv_msg(IMSG_AUTH_REQ, &sid))
			return;
		close(msg.fd);
		msg.fd = -1;
		send_code(IMSG_AUTH_DENY, sid, ERR_BUSY);
	}
	expect_error(extra, ERR_BUSY, "17th connection");
	close(extra);
	extra = client_connect();
	expect_error(extra, ERR_BUSY, "18th connection, the relay's own cap");
	close(extra);
	for (i = 0; i < OPTY_MAX_SESSIONS; i++) {
		close(cfd[i]);
		if (!recv_msg(IMSG_CLOSE_REQ, &sid))
			return;
		send_msg(IMSG_CLOSED, sid, -1, NULL, 0);
	}
	pass("16 sessions closed and confirmed");
}

/* A client that does not read: the forged unit's writes must block. */
static void
scenario_slow_client(void)
{
	static uint8_t	chunk[65536];
	uint8_t		buf[FRAME_MAX_PAYLOAD];
	uint32_t	sid, len;
	size_t		written = 0, got = 0;
	ssize_t		n;
	int		cfd, ufd;

	cfd = running(&sid, &ufd);
	memset(chunk, 'z', sizeof(chunk));
	while (written < (64u << 20)) {
		if (!wait_fd(ufd, POLLOUT, 1000))
			break;
		if ((n = send(ufd, chunk, sizeof(chunk), MSG_DONTWAIT)) <= 0)
			break;
		written += (size_t)n;
	}
	if (written >= (64u << 20))
		fail("slow client: 64 MiB accepted without backpressure");
	else
		pass("slow client: the unit side blocked after %zu bytes",
		    written);
	shutdown(ufd, SHUT_WR);
	while (read_frame(cfd, buf, &len) == FRAME_OUTPUT)
		got += len;
	if (got != written)
		fail("slow client: %zu of %zu bytes arrived", got, written);
	else
		pass("slow client: all %zu bytes arrived once read", got);
	close(cfd);
	close(ufd);
	expect_close(sid, "slow client", NULL);
}

static void
check_relay_status(void)
{
	char		 path[64], buf[8192], want[64], root[PATH_MAX];
	struct passwd	*pw;
	ssize_t		 n;
	int		 fd, ok = 1;

	if ((pw = getpwnam(OPTY_RELAY_USER)) == NULL) {
		fail("no user %s", OPTY_RELAY_USER);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)relay_pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
		die(path);
	close(fd);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "\nUid:\t%u\t%u\t%u\t%u\n",
	    pw->pw_uid, pw->pw_uid, pw->pw_uid, pw->pw_uid);
	ok &= strstr(buf, want) != NULL;
	snprintf(want, sizeof(want), "\nGid:\t%u\t%u\t%u\t%u\n",
	    pw->pw_gid, pw->pw_gid, pw->pw_gid, pw->pw_gid);
	ok &= strstr(buf, want) != NULL;
	ok &= strstr(buf, "\nCapInh:\t0000000000000000\n") != NULL;
	ok &= strstr(buf, "\nCapPrm:\t0000000000000000\n") != NULL;
	ok &= strstr(buf, "\nCapEff:\t0000000000000000\n") != NULL;
	ok &= strstr(buf, "\nCapBnd:\t0000000000000000\n") != NULL;
	ok &= strstr(buf, "\nCapAmb:\t0000000000000000\n") != NULL;
	ok &= strstr(buf, "\nNoNewPrivs:\t1\n") != NULL;
	ok &= strstr(buf, "\nSeccomp:\t2\n") != NULL;
	snprintf(path, sizeof(path), "/proc/%d/root", (int)relay_pid);
	if ((n = readlink(path, root, sizeof(root) - 1)) <= 0)
		die(path);
	root[n] = '\0';
	ok &= strcmp(root, OPTY_EMPTY_DIR) == 0;
	if (ok)
		pass("relay runs as %s, no caps, NoNewPrivs, seccomp, "
		    "root %s", OPTY_RELAY_USER, root);
	else
		fail("relay sandbox status wrong:\n%s\nroot %s", buf, root);
}

static void
setup(const char *relay_path)
{
	struct sockaddr_un	sun;
	struct passwd		*pw;
	char			uid[16], gid[16];
	int			sp[2], lfd, null;

	/* The relay's numeric ids, resolved here as the real parent does. */
	if ((pw = getpwnam(OPTY_RELAY_USER)) == NULL)
		die("no user " OPTY_RELAY_USER);
	(void)snprintf(uid, sizeof(uid), "%u", (unsigned)pw->pw_uid);
	(void)snprintf(gid, sizeof(gid), "%u", (unsigned)pw->pw_gid);
	if (mkdir(OPTY_RUNDIR, 0755) == -1 && errno != EEXIST)
		die("mkdir rundir");
	if (mkdir(OPTY_EMPTY_DIR, 0555) == -1 && errno != EEXIST)
		die("mkdir empty");
	if (chmod(OPTY_EMPTY_DIR, 0555) == -1)
		die("chmod empty");
	if ((lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, OPTY_SOCKET_PATH);
	unlink(OPTY_SOCKET_PATH);
	if (bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(lfd, 64) == -1)
		die("bind/listen");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == -1)
		die("socketpair");
	chan = sp[0];
	if ((relay_pid = fork()) == -1)
		die("fork");
	if (relay_pid == 0) {
		/* Out of the way first: either may sit on fd 3 or 4. */
		if ((sp[1] = fcntl(sp[1], F_DUPFD_CLOEXEC, 10)) == -1 ||
		    (lfd = fcntl(lfd, F_DUPFD_CLOEXEC, 10)) == -1 ||
		    (null = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1 ||
		    dup2(null, 0) == -1 || dup2(null, 1) == -1 ||
		    dup2(sp[1], RELAY_FD_PARENT) == -1 ||
		    dup2(lfd, RELAY_FD_LISTEN) == -1)
			_exit(127);
		execl(relay_path, "opencode-pty-relay", "-u", uid, "-g", gid,
		    "-v", (char *)NULL);
		_exit(127);
	}
	close(sp[1]);
	close(lfd);
	usleep(200000);
}

int
main(int argc, char *argv[])
{
	const char	*relay_path = argc > 1 ? argv[1] : OPTY_RELAY_PATH;
	int		 status;

	(void)signal(SIGPIPE, SIG_IGN);
	(void)setvbuf(stdout, NULL, _IOLBF, 0);
	setup(relay_path);
	check_relay_status();
	scenario_deny();
	scenario_start_req();
	scenario_exit_starting();
	scenario_running();
	scenario_bad_client("missing fd", 0, 0, ERR_FD_MISSING);
	scenario_bad_client("two fds", 2, 0, ERR_FD_EXTRA);
	scenario_bad_client("input before start", 1, 1, ERR_UNEXPECTED);
	scenario_disconnect();
	scenario_busy();
	scenario_slow_client();

	close(chan);
	if (waitpid(relay_pid, &status, 0) != relay_pid)
		die("waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		pass("channel closed -> relay exited 0");
	else
		fail("relay ended with status %#x", status);
	unlink(OPTY_SOCKET_PATH);
	printf("%d failure(s)\n", fails);
	return fails == 0 ? 0 : 1;
}
