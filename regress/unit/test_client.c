/*
 * test_client.c: cmocka tests of opencode-pty-client's parts: the
 * command line, the start frame builder, the descriptor checks on real
 * descriptors, the send path and the seccomp filter.  Runs unprivileged;
 * anything that changes the descriptor table or confines a process
 * happens in a forked child.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Before cmocka.h, whose fail() macro would rename fdcheck.c's fail(). */
/* NOLINTNEXTLINE(bugprone-suspicious-include): its checks are static */
#include "client/fdcheck.c"

#include <cmocka.h>

#include "client/client.h"

static char	errbuf[CLIENT_ERRLEN];

static int
parse(struct client_opts *o, int argc, ...)
{
	static char	*argv[START_MAX_ARGS + 8];
	va_list		 ap;
	int		 i;

	assert_true(argc < (int)(sizeof(argv) / sizeof(argv[0])));
	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	errbuf[0] = '\0';
	return cli_parse(argc, argv, o, errbuf, sizeof(errbuf));
}

static void
expect_reject(struct client_opts *o, int rv, const char *word)
{
	(void)o;
	assert_int_equal(rv, -1);
	assert_non_null(strstr(errbuf, word));
	assert_null(strchr(errbuf, '\n'));
}

static void
test_cli_accepts(void **state)
{
	struct client_opts	o;

	(void)state;
	assert_int_equal(parse(&o, 5, "c", "-t", "60", "--", "ls"), 0);
	assert_int_equal(o.runtime, 60);
	assert_int_equal(o.argc, 1);
	assert_string_equal(o.argv[0], "ls");
	assert_int_equal(parse(&o, 4, "c", "ls", "-t", "5"), 0);
	assert_int_equal(o.runtime, 0);
	assert_int_equal(o.argc, 3);
	assert_int_equal(o.arglen[1], 2);
	assert_int_equal(parse(&o, 3, "c", "--", "-x"), 0);
	assert_string_equal(o.argv[0], "-x");
	assert_int_equal(parse(&o, 4, "c", "-t", "3600", "true"), 0);
	assert_int_equal(o.runtime, 3600);
	assert_int_equal(parse(&o, 4, "c", "-t", "1", "true"), 0);
	assert_int_equal(o.runtime, 1);
	assert_int_equal(parse(&o, 3, "c", "printf", ""), 0);
	assert_int_equal(o.arglen[1], 0);
}

static void
test_cli_rejects_runtime(void **state)
{
	const char		*bad[] = { "0", "3601", "-1", "+5", "060", " 5",
				    "5s", "", "99999", "1e3", "0x10" };
	struct client_opts	 o;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_reject(&o, parse(&o, 4, "c", "-t", bad[i], "ls"),
		    "runtime");
	expect_reject(&o, parse(&o, 2, "c", "-t"), "needs a value");
}

static void
test_cli_rejects_options(void **state)
{
	struct client_opts	o;

	(void)state;
	expect_reject(&o, parse(&o, 2, "c", "-x"), "unknown option");
	expect_reject(&o, parse(&o, 3, "c", "--runtime", "5"),
	    "unknown option");
	expect_reject(&o, parse(&o, 6, "c", "-t", "5", "-t", "6", "ls"),
	    "more than once");
	expect_reject(&o, parse(&o, 6, "c", "-s", "5x5", "-s", "6x6", "ls"),
	    "more than once");
	expect_reject(&o, parse(&o, 8, "c", "-s", "5x5", "-t", "1", "-s",
	    "5x5", "ls"), "more than once");
	expect_reject(&o, parse(&o, 2, "c", "-s"), "needs a value");
	expect_reject(&o, parse(&o, 4, "c", "-s", "24x80", "-x"),
	    "unknown option");
	expect_reject(&o, parse(&o, 1, "c"), "no command");
	expect_reject(&o, parse(&o, 3, "c", "-t", "5"), "no command");
	expect_reject(&o, parse(&o, 2, "c", "--"), "no command");
	expect_reject(&o, parse(&o, 0), "empty argument vector");
	expect_reject(&o, parse(&o, 2, "c", ""), "empty command name");
	expect_reject(&o, parse(&o, 3, "c", "--", ""), "empty command name");
}

static void
test_cli_winsize(void **state)
{
	static const char	*bad[] = {
		"", "x", "24", "24x", "x80", "0x80", "24x0", "4097x80",
		"24x4097", "024x80", "24x080", "24X80", "24x80x", "24xx80",
		"24 x80", " 24x80", "24x80 ", "+24x80", "-24x80", "24x-80",
		"24x+80", "99999x80", "24x99999", "65560x80", "24,80", "24*80",
		"0x18x0x50", "24x80\n", "1e3x80", "00001x1",
	};
	struct client_opts	o;
	size_t			i;

	(void)state;
	assert_int_equal(parse(&o, 4, "c", "-s", "24x80", "ls"), 0);
	assert_int_equal(o.rows, 24);
	assert_int_equal(o.cols, 80);
	assert_int_equal(o.runtime, 0);
	assert_int_equal(parse(&o, 4, "c", "-s", "1x1", "ls"), 0);
	assert_int_equal(o.rows, 1);
	assert_int_equal(o.cols, 1);
	assert_int_equal(parse(&o, 4, "c", "-s", "4096x4096", "ls"), 0);
	assert_int_equal(o.rows, 4096);
	assert_int_equal(o.cols, 4096);
	/* Either order with -t, and -- after both. */
	assert_int_equal(parse(&o, 7, "c", "-s", "50x132", "-t", "9", "--",
	    "-ls"), 0);
	assert_int_equal(o.rows, 50);
	assert_int_equal(o.cols, 132);
	assert_int_equal(o.runtime, 9);
	assert_string_equal(o.argv[0], "-ls");
	assert_int_equal(parse(&o, 6, "c", "-t", "9", "-s", "3x4", "ls"), 0);
	assert_int_equal(o.rows, 3);
	assert_int_equal(o.cols, 4);
	/* After the command it is the command's own argument. */
	assert_int_equal(parse(&o, 4, "c", "ls", "-s", "0x0"), 0);
	assert_int_equal(o.rows, 0);
	assert_int_equal(o.argc, 3);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_reject(&o, parse(&o, 4, "c", "-s", bad[i], "ls"),
		    "window size must be ROWSxCOLS");
}

/* -s puts one RESIZE frame before the start frame, in one buffer. */
static void
test_frame_resize_first(void **state)
{
	static uint8_t		 frame[CLIENT_FRAME_MAX];
	uint8_t			 small[CLIENT_RESIZE_FRAME + FRAME_HDR_LEN +
				    START_FIXED_LEN + 3];
	struct client_opts	 o;
	struct client_dir	 dir = { 7, 8 };
	struct frame_hdr	 hdr;
	struct winsize_req	 ws;
	struct start_req	 req;
	int			 len;

	(void)state;
	assert_int_equal(parse(&o, 4, "c", "-s", "4096x1", "id"), 0);
	len = client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf));
	assert_int_equal(len, CLIENT_RESIZE_FRAME + FRAME_HDR_LEN +
	    START_FIXED_LEN + 2 + 2);
	assert_int_equal(frame_hdr_decode(frame, (size_t)len, &hdr),
	    FRAME_OK);
	assert_int_equal(hdr.type, FRAME_RESIZE);
	assert_int_equal(hdr.len, RESIZE_LEN);
	assert_int_equal(resize_decode(frame + FRAME_HDR_LEN, hdr.len, &ws),
	    FRAME_OK);
	assert_int_equal(ws.rows, 4096);
	assert_int_equal(ws.cols, 1);
	assert_int_equal(frame[12], 0x10);
	assert_int_equal(frame[13], 0x00);
	assert_int_equal(frame[14], 0x00);
	assert_int_equal(frame[15], 0x01);
	assert_int_equal(frame_hdr_decode(frame + CLIENT_RESIZE_FRAME,
	    (size_t)len - CLIENT_RESIZE_FRAME, &hdr), FRAME_OK);
	assert_int_equal(hdr.type, FRAME_START);
	assert_int_equal(hdr.len, (uint32_t)len - CLIENT_RESIZE_FRAME -
	    FRAME_HDR_LEN);
	assert_int_equal(start_decode(frame + CLIENT_RESIZE_FRAME +
	    FRAME_HDR_LEN, hdr.len, &req), FRAME_OK);
	assert_int_equal(req.argc, 1);
	assert_true(req.dev == 7 && req.ino == 8);
	/* One byte short: refused, not cut. */
	assert_int_equal(client_frame(&o, &dir, small, sizeof(small), errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "start frame"));
	assert_int_equal(client_frame(&o, &dir, small, 15, errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "resize frame"));
	assert_int_equal(client_frame(&o, &dir, small, 5, errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "resize frame"));
	/* The encoder's own check, should a caller skip cli_parse(). */
	o.rows = 4097;
	assert_int_equal(client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "window size"));
	o.rows = 0;
	o.cols = 80;
	assert_int_equal(client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf)), -1);
}

static void
test_cli_argc_bounds(void **state)
{
	static char		*argv[START_MAX_ARGS + 3];
	struct client_opts	 o;
	int			 i;

	(void)state;
	argv[0] = "c";
	for (i = 1; i < START_MAX_ARGS + 2; i++)
		argv[i] = "x";
	assert_int_equal(cli_parse(START_MAX_ARGS + 1, argv, &o, errbuf,
	    sizeof(errbuf)), 0);
	assert_int_equal(o.argc, START_MAX_ARGS);
	assert_int_equal(cli_parse(START_MAX_ARGS + 2, argv, &o, errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "too many"));
}

static void
test_cli_arglen_bounds(void **state)
{
	static char		 big[START_MAX_ARGLEN + 2];
	struct client_opts	 o;

	(void)state;
	memset(big, 'a', START_MAX_ARGLEN);
	big[START_MAX_ARGLEN] = '\0';
	assert_int_equal(parse(&o, 3, "c", "echo", big), 0);
	assert_int_equal(o.arglen[1], START_MAX_ARGLEN);
	big[START_MAX_ARGLEN] = 'a';
	big[START_MAX_ARGLEN + 1] = '\0';
	expect_reject(&o, parse(&o, 3, "c", "echo", big), "longer than");
	expect_reject(&o, parse(&o, 2, "c", big), "longer than");
}

/*
 * 15 words of 4096 bytes leave 65536 - 22 - 15 * 4098 = 4044 bytes, so
 * a 16th word of 4042 bytes fills the payload exactly and 4043 is over.
 */
static void
test_cli_payload_bound(void **state)
{
	static char		*argv[18];
	static char		 big[START_MAX_ARGLEN + 1], last[4044];
	static uint8_t		 frame[CLIENT_FRAME_MAX];
	struct client_opts	 o;
	struct client_dir	 dir = { 1, 2 };
	int			 i;

	(void)state;
	memset(big, 'b', START_MAX_ARGLEN);
	memset(last, 'l', 4043);
	argv[0] = "c";
	for (i = 1; i <= 15; i++)
		argv[i] = big;
	argv[16] = last;
	assert_int_equal(cli_parse(17, argv, &o, errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "65536"));
	last[4042] = '\0';
	assert_int_equal(cli_parse(17, argv, &o, errbuf, sizeof(errbuf)), 0);
	assert_int_equal(client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf)), FRAME_HDR_LEN + FRAME_MAX_PAYLOAD);
	/* With -s, the largest start still fits behind the resize frame. */
	o.rows = 24;
	o.cols = 80;
	assert_int_equal(client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf)), CLIENT_FRAME_MAX);
}

static void
test_frame_roundtrip(void **state)
{
	static uint8_t		 frame[CLIENT_FRAME_MAX];
	const char		*words[] = { "printf", "%s\n",
				    "a b\n'c' \"d\" $(id) `x`", "" };
	struct client_opts	 o;
	struct client_dir	 dir = { 0x0102030405060708ULL,
				    0xfffffffffffffffeULL };
	struct frame_hdr	 hdr;
	struct start_req	 req;
	int			 len, i;

	(void)state;
	assert_int_equal(parse(&o, 7, "c", "-t", "77", words[0], words[1],
	    words[2], words[3]), 0);
	len = client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf));
	assert_true(len > FRAME_HDR_LEN);
	assert_int_equal(frame_hdr_decode(frame, (size_t)len, &hdr), FRAME_OK);
	assert_int_equal(hdr.type, FRAME_START);
	assert_int_equal(hdr.len, (uint32_t)len - FRAME_HDR_LEN);
	assert_int_equal(start_decode(frame + FRAME_HDR_LEN, hdr.len, &req),
	    FRAME_OK);
	assert_true(req.dev == dir.dev);
	assert_true(req.ino == dir.ino);
	assert_int_equal(req.runtime, 77);
	assert_int_equal(req.argc, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(req.arglen[i], strlen(words[i]));
		if (req.arglen[i] > 0)
			assert_memory_equal(req.argv[i], words[i],
			    req.arglen[i]);
	}
}

static void
test_frame_no_runtime_and_space(void **state)
{
	uint8_t			 small[FRAME_HDR_LEN + START_FIXED_LEN + 3];
	static uint8_t		 frame[CLIENT_FRAME_MAX];
	struct client_opts	 o;
	struct client_dir	 dir = { 5, 6 };
	struct start_req	 req;
	int			 len;

	(void)state;
	assert_int_equal(parse(&o, 2, "c", "id"), 0);
	len = client_frame(&o, &dir, frame, sizeof(frame), errbuf,
	    sizeof(errbuf));
	assert_int_equal(len, FRAME_HDR_LEN + START_FIXED_LEN + 2 + 2);
	assert_int_equal(start_decode(frame + FRAME_HDR_LEN,
	    (size_t)len - FRAME_HDR_LEN, &req), FRAME_OK);
	assert_int_equal(req.runtime, 0);
	/* One byte short of room: refused, not truncated. */
	assert_int_equal(client_frame(&o, &dir, small, sizeof(small), errbuf,
	    sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "start frame"));
}

static void
test_check_socket(void **state)
{
	int	sp[2], dg[2], p[2], un, in;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	assert_int_equal(fd_check_socket(sp[0], errbuf, sizeof(errbuf)), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0,
	    dg), 0);
	assert_int_equal(fd_check_socket(dg[0], errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "SOCK_STREAM"));
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(fd_check_socket(p[1], errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "not a socket"));
	un = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(un >= 0);
	assert_int_equal(fd_check_socket(un, errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "not a connected"));
	in = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(in >= 0);
	assert_int_equal(fd_check_socket(in, errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "AF_UNIX"));
	close(sp[0]); close(sp[1]); close(dg[0]); close(dg[1]);
	close(p[0]); close(p[1]); close(un); close(in);
}

static void
test_check_dir(void **state)
{
	/* Zeroed: clang-tidy does not know a failed assert ends the test. */
	struct client_dir	dir = { 0 };
	struct stat		st;
	int			d, f, p[2], op;

	(void)state;
	d = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(d >= 0);
	assert_int_equal(fstat(d, &st), 0);
	assert_int_equal(fd_check_dir(d, &dir, errbuf, sizeof(errbuf)), 0);
	assert_true(dir.dev == (uint64_t)st.st_dev);
	assert_true(dir.ino == (uint64_t)st.st_ino);
	op = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(op >= 0);
	assert_int_equal(fd_check_dir(op, &dir, errbuf, sizeof(errbuf)), 0);
	f = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	assert_true(f >= 0);
	assert_int_equal(fd_check_dir(f, &dir, errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "not a directory"));
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(fd_check_dir(p[0], &dir, errbuf, sizeof(errbuf)), -1);
	close(p[1]);
	assert_int_equal(fd_check_dir(p[1], &dir, errbuf, sizeof(errbuf)), -1);
	assert_non_null(strstr(errbuf, "fstat"));
	close(d); close(op); close(f); close(p[0]);
}

/* The scan finds each kind of leaked descriptor in its range. */
static void
test_scan_finds_extra(void **state)
{
	struct rlimit	rl;
	/* Zeroed: clang-tidy does not know a failed assert ends the test. */
	int		d, high, poll_end = 0, chunk = 0;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max < 8192)
		fail_msg("RLIMIT_NOFILE hard limit %llu < 8192: cannot place "
		    "a descriptor in the poll range", (unsigned long long)
		    rl.rlim_max);
	rl.rlim_cur = 8192;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(fd_scan_ends(&poll_end, &chunk, errbuf,
	    sizeof(errbuf)), 0);
	assert_int_equal(chunk, CLIENT_FD_POLL_CHUNK);
	assert_true(poll_end >= 8192);

	assert_int_equal(fd_first_open(7000, CLIENT_FD_EXACT_END, 8192,
	    chunk, errbuf, sizeof(errbuf)), -1);
	d = open("/", O_PATH | O_CLOEXEC);
	assert_true(d >= 0);
	assert_int_equal(dup3(d, 3000, O_CLOEXEC), 3000);
	assert_int_equal(fd_first_open(2000, CLIENT_FD_EXACT_END, 8192,
	    chunk, errbuf, sizeof(errbuf)), 3000);
	close(3000);
	high = 7777;
	assert_int_equal(dup3(STDERR_FILENO, high, O_CLOEXEC), high);
	assert_int_equal(fd_first_open(2000, CLIENT_FD_EXACT_END, 8192,
	    chunk, errbuf, sizeof(errbuf)), high);
	close(high);
	/* Documented limit: poll() cannot see O_PATH above the exact range. */
	assert_int_equal(dup3(d, high, O_CLOEXEC), high);
	assert_int_equal(fd_first_open(2000, CLIENT_FD_EXACT_END, 8192,
	    chunk, errbuf, sizeof(errbuf)), -1);
	/* Not a double close: dup3() above reopened it. */
	/* cppcheck-suppress doubleFree */
	close(high);
	close(d);
}

/* In a child holding exactly fds 0-4 (+ one extra): fd_check_all(). */
static int
child_check_all(int extra, int dirfd_is_file)
{
	struct client_dir	dir;
	int			sp[2], d;
	pid_t			pid;
	int			status;

	if ((pid = fork()) == 0) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
			_exit(90);
		d = open(dirfd_is_file ? "/proc/self/exe" : "/", O_RDONLY);
		if (d == -1 || dup2(sp[0], 3) == -1 || dup2(d, 4) == -1)
			_exit(91);
		if (close_range(5, ~0U, 0) == -1)
			_exit(92);
		if (extra && dup2(0, extra) == -1)
			_exit(93);
		switch (fd_check_all(&dir, errbuf, sizeof(errbuf))) {
		case -2:
			_exit(extra && strstr(errbuf, "only descriptors 0-4") !=
			    NULL ? 5 : 94);
		case -1:
			_exit(!extra && strstr(errbuf, "not a directory") !=
			    NULL ? 1 : 94);
		default:
			break;
		}
		if (fcntl(3, F_GETFD) != FD_CLOEXEC ||
		    fcntl(4, F_GETFD) != FD_CLOEXEC)
			_exit(95);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_check_all(void **state)
{
	(void)state;
	assert_int_equal(child_check_all(0, 0), 0);
	assert_int_equal(child_check_all(5, 0), 5);
	assert_int_equal(child_check_all(1000, 0), 5);
	assert_int_equal(child_check_all(0, 1), 1);
}

/*
 * A non-blocking sender with a tiny buffer must survive EAGAIN and
 * short writes, and the descriptor must arrive exactly once.
 */
static void
test_send_short_writes(void **state)
{
	static uint8_t	 out[CLIENT_FRAME_MAX], in[CLIENT_FRAME_MAX + 1];
	uint8_t		 cbuf[CMSG_SPACE(4 * sizeof(int))];
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*c;
	struct stat	 a, b;
	size_t		 got = 0, i;
	ssize_t		 n;
	int		 sp[2], d, fds = 0, rfd = -1, sndbuf = 4096, status;
	pid_t		 pid;

	(void)state;
	for (i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 7);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	assert_int_equal(setsockopt(sp[0], SOL_SOCKET, SO_SNDBUF, &sndbuf,
	    sizeof(sndbuf)), 0);
	assert_int_equal(fcntl(sp[0], F_SETFL, O_NONBLOCK), 0);
	d = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(d >= 0);
	if ((pid = fork()) == 0)
		_exit(client_send(sp[0], d, out, sizeof(out), errbuf,
		    sizeof(errbuf)) == 0 ? 0 : 1);
	close(sp[0]);
	for (;;) {
		memset(&msg, 0, sizeof(msg));
		iov.iov_base = in + got;
		iov.iov_len = sizeof(in) - got;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		n = recvmsg(sp[1], &msg, MSG_CMSG_CLOEXEC);
		assert_true(n >= 0);
		assert_false(msg.msg_flags & MSG_CTRUNC);
		for (c = CMSG_FIRSTHDR(&msg); c != NULL;
		    c = CMSG_NXTHDR(&msg, c)) {
			assert_int_equal(c->cmsg_type, SCM_RIGHTS);
			assert_int_equal(c->cmsg_len, CMSG_LEN(sizeof(int)));
			memcpy(&rfd, CMSG_DATA(c), sizeof(int));
			fds++;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(got, sizeof(out));
	assert_memory_equal(in, out, sizeof(out));
	assert_int_equal(fds, 1);
	assert_int_equal(fstat(rfd, &a), 0);
	assert_int_equal(fstat(d, &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	close(rfd); close(d); close(sp[1]);
}

/* Runs fn after sandbox_enter() in a child; returns its wait status. */
static int
sandboxed(int (*fn)(void))
{
	pid_t	pid;
	int	status;

	if ((pid = fork()) == 0) {
		if (sandbox_enter(errbuf, sizeof(errbuf)) == -1)
			_exit(90);
		_exit(fn());
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static int
do_nothing(void)
{
	return 7;
}

static int
do_write_stderr(void)
{
	return write(STDERR_FILENO, "", 0) == 0 ? 8 : 91;
}

static int
do_openat(void)
{
	return (int)syscall(SYS_openat, AT_FDCWD, "/", O_RDONLY) >= 0 ? 92 : 93;
}

static int
do_socket(void)
{
	return (int)syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0) >= 0 ? 94 : 95;
}

static int
do_write_stdout(void)
{
	return (int)syscall(SYS_write, STDOUT_FILENO, "", 0) == 0 ? 96 : 97;
}

static void
test_sandbox(void **state)
{
	int	st;

	(void)state;
	st = sandboxed(do_nothing);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	st = sandboxed(do_write_stderr);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 8);
	st = sandboxed(do_openat);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
	st = sandboxed(do_socket);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
	st = sandboxed(do_write_stdout);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_accepts),
		cmocka_unit_test(test_cli_rejects_runtime),
		cmocka_unit_test(test_cli_rejects_options),
		cmocka_unit_test(test_cli_winsize),
		cmocka_unit_test(test_frame_resize_first),
		cmocka_unit_test(test_cli_argc_bounds),
		cmocka_unit_test(test_cli_arglen_bounds),
		cmocka_unit_test(test_cli_payload_bound),
		cmocka_unit_test(test_frame_roundtrip),
		cmocka_unit_test(test_frame_no_runtime_and_space),
		cmocka_unit_test(test_check_socket),
		cmocka_unit_test(test_check_dir),
		cmocka_unit_test(test_scan_finds_extra),
		cmocka_unit_test(test_check_all),
		cmocka_unit_test(test_send_short_writes),
		cmocka_unit_test(test_sandbox),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
