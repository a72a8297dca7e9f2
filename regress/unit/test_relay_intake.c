/*
 * test_relay_intake.c: the relay's client-input state machine
 * (relay/intake.c): start frame, its single descriptor, input frames,
 * and the error code each broken rule produces.  No root needed.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "proto/frame.h"
#include "relay/intake.h"

static struct intake	in;
static uint8_t		wire[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD + 64];

static size_t
mk_frame(uint8_t *buf, uint8_t type, const uint8_t *p, size_t len)
{
	frame_hdr_encode(buf, type, (uint32_t)len);
	if (len > 0)
		memcpy(buf + FRAME_HDR_LEN, p, len);
	return FRAME_HDR_LEN + len;
}

static size_t
mk_start(uint8_t *buf)
{
	struct start_req	req;
	uint8_t			p[256];
	int			n;

	memset(&req, 0, sizeof(req));
	req.dev = 12;
	req.ino = 34;
	req.argc = 2;
	req.argv[0] = (const uint8_t *)"printf";
	req.arglen[0] = 6;
	req.argv[1] = (const uint8_t *)"hi";
	req.arglen[1] = 2;
	n = start_encode(&req, p, sizeof(p));
	assert_true(n > 0);
	return mk_frame(buf, FRAME_START, p, (size_t)n);
}

static int
fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static int
mkfd(void)
{
	int	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static int
feed_all(const uint8_t *buf, size_t len, uint16_t *code, size_t *usedp)
{
	size_t	used;
	int	ev;

	ev = intake_feed(&in, buf, len, &used, code);
	if (usedp != NULL)
		*usedp = used;
	return ev;
}

static void
test_start_with_one_fd(void **state)
{
	uint16_t	code = 0;
	size_t		len, used;
	int		fd = mkfd();

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	assert_int_equal(intake_fds(&in, &fd, 1, &code), INTAKE_MORE);
	assert_int_equal(feed_all(wire, len, &code, &used), INTAKE_STARTED);
	assert_int_equal(used, len);
	assert_int_equal(in.start.argc, 2);
	assert_int_equal(in.start.dev, 12);
	assert_int_equal(intake_take_dirfd(&in), fd);
	intake_done(&in);
	assert_int_equal(in.phase, INTAKE_INPUT);
	close(fd);
}

static void
test_start_byte_by_byte(void **state)
{
	uint16_t	code = 0;
	size_t		len, i, used;
	int		fd = mkfd(), ev = INTAKE_MORE;

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	for (i = 0; i < len; i++) {
		if (i == 5)
			assert_int_equal(intake_fds(&in, &fd, 1, &code),
			    INTAKE_MORE);
		ev = feed_all(wire + i, 1, &code, &used);
		assert_int_equal(used, 1);
		if (i + 1 < len)
			assert_int_equal(ev, INTAKE_MORE);
	}
	assert_int_equal(ev, INTAKE_STARTED);
	intake_reset(&in);
	assert_false(fd_open(fd));		/* reset closes a held dir */
}

static void
test_start_without_fd(void **state)
{
	uint16_t	code = 0;
	size_t		len;

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_FD_MISSING);
}

static void
test_two_fds_at_once(void **state)
{
	uint16_t	code = 0;
	int		fds[2] = { mkfd(), mkfd() };

	(void)state;
	intake_init(&in);
	assert_int_equal(intake_fds(&in, fds, 2, &code), INTAKE_ERROR);
	assert_int_equal(code, ERR_FD_EXTRA);
	assert_false(fd_open(fds[1]));
	intake_reset(&in);
	assert_false(fd_open(fds[0]));
}

static void
test_fd_after_start(void **state)
{
	uint16_t	code = 0;
	size_t		len;
	int		fd = mkfd(), fd2 = mkfd();

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	intake_fds(&in, &fd, 1, &code);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_STARTED);
	close(intake_take_dirfd(&in));
	intake_done(&in);
	assert_int_equal(intake_fds(&in, &fd2, 1, &code), INTAKE_ERROR);
	assert_int_equal(code, ERR_FD_EXTRA);
	assert_false(fd_open(fd2));
}

static void
test_input_before_start(void **state)
{
	uint16_t	code = 0;
	size_t		len, used;

	(void)state;
	intake_init(&in);
	len = mk_frame(wire, FRAME_INPUT, (const uint8_t *)"abc", 3);
	/* Refused at the header, before the payload is taken. */
	assert_int_equal(feed_all(wire, FRAME_HDR_LEN, &code, &used),
	    INTAKE_ERROR);
	assert_int_equal(code, ERR_UNEXPECTED);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
}

static void
test_garbage(void **state)
{
	uint16_t	code = 0;

	(void)state;
	intake_init(&in);
	memset(wire, 'A', 64);
	assert_int_equal(feed_all(wire, 64, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);
}

static void
test_malformed_start(void **state)
{
	uint16_t	code = 0;
	uint8_t		p[START_FIXED_LEN];
	int		fd = mkfd();
	size_t		len;

	(void)state;
	intake_init(&in);
	memset(p, 0, sizeof(p));		/* argc 0 */
	len = mk_frame(wire, FRAME_START, p, sizeof(p));
	intake_fds(&in, &fd, 1, &code);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);
	intake_reset(&in);
	assert_false(fd_open(fd));
}

static void
test_input_frames_after_start(void **state)
{
	uint16_t	 code = 0;
	size_t		 len, l2, used, dlen;
	const uint8_t	*d;
	int		 fd = mkfd();

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	l2 = mk_frame(wire + len, FRAME_INPUT, (const uint8_t *)"hello", 5);
	intake_fds(&in, &fd, 1, &code);
	/* Pipelined: the reader stops at the end of the start frame. */
	assert_int_equal(feed_all(wire, len + l2, &code, &used),
	    INTAKE_STARTED);
	assert_int_equal(used, len);
	/* While held, the same frame is reported and nothing is taken. */
	assert_int_equal(feed_all(wire + len, l2, &code, &used),
	    INTAKE_STARTED);
	assert_int_equal(used, 0);
	close(intake_take_dirfd(&in));
	intake_done(&in);
	assert_int_equal(feed_all(wire + len, l2, &code, &used), INTAKE_DATA);
	assert_int_equal(used, l2);
	d = intake_data(&in, &dlen);
	assert_int_equal(dlen, 5);
	assert_memory_equal(d, "hello", 5);
	intake_done(&in);
	/* A second start frame after the first is garbage. */
	len = mk_start(wire);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);
}

static void
test_input_too_large(void **state)
{
	uint16_t	code = 0;
	int		fd = mkfd();
	size_t		len;

	(void)state;
	intake_init(&in);
	len = mk_start(wire);
	intake_fds(&in, &fd, 1, &code);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_STARTED);
	close(intake_take_dirfd(&in));
	intake_done(&in);
	frame_hdr_encode(wire, FRAME_INPUT, FRAME_MAX_INPUT + 1);
	assert_int_equal(feed_all(wire, FRAME_HDR_LEN, &code, NULL),
	    INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);
	/* Once failed, always failed. */
	assert_int_equal(feed_all(wire, 1, &code, NULL), INTAKE_ERROR);
}

/* Resizes before the start: each one reported, the start still comes. */
static void
test_resize_before_start(void **state)
{
	static const uint8_t	r1[4] = { 0, 30, 0, 100 }, r2[4] = { 0, 40,
				    0, 120 };
	uint16_t		code = 0;
	size_t			len, l1, l2, used;
	int			fd = mkfd();

	(void)state;
	intake_init(&in);
	l1 = mk_frame(wire, FRAME_RESIZE, r1, 4);
	l2 = mk_frame(wire + l1, FRAME_RESIZE, r2, 4);
	len = mk_start(wire + l1 + l2);
	/* The descriptor rides on the first byte, before the start frame. */
	assert_int_equal(intake_fds(&in, &fd, 1, &code), INTAKE_MORE);
	assert_int_equal(feed_all(wire, l1 + l2 + len, &code, &used),
	    INTAKE_RESIZE);
	assert_int_equal(used, l1);
	assert_int_equal(in.ws.rows, 30);
	assert_int_equal(in.ws.cols, 100);
	intake_done(&in);
	assert_int_equal(in.phase, INTAKE_START);
	assert_int_equal(feed_all(wire + l1, l2 + len, &code, &used),
	    INTAKE_RESIZE);
	assert_int_equal(in.ws.rows, 40);
	assert_int_equal(in.ws.cols, 120);
	intake_done(&in);
	assert_int_equal(feed_all(wire + l1 + l2, len, &code, &used),
	    INTAKE_STARTED);
	close(intake_take_dirfd(&in));
	intake_done(&in);
	assert_int_equal(in.phase, INTAKE_INPUT);
}

/* A signal only after the start; a resize then too; bad payloads. */
static void
test_signal_and_resize_rules(void **state)
{
	static const uint8_t	sigint = 2, sigsegv = 11;
	static const uint8_t	bad[4] = { 0, 0, 0, 80 };
	uint16_t		code = 0;
	size_t			len;
	int			fd = mkfd();

	(void)state;
	intake_init(&in);
	(void)mk_frame(wire, FRAME_SIGNAL, &sigint, 1);
	/* Refused at the header, before its byte is taken. */
	assert_int_equal(feed_all(wire, FRAME_HDR_LEN, &code, NULL),
	    INTAKE_ERROR);
	assert_int_equal(code, ERR_UNEXPECTED);

	intake_init(&in);
	len = mk_start(wire);
	intake_fds(&in, &fd, 1, &code);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_STARTED);
	close(intake_take_dirfd(&in));
	intake_done(&in);
	len = mk_frame(wire, FRAME_SIGNAL, &sigint, 1);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_SIGNAL);
	assert_int_equal(in.sig, 2);
	intake_done(&in);
	len = mk_frame(wire, FRAME_RESIZE, (const uint8_t *)"\0\x32\0\x84",
	    4);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_RESIZE);
	assert_int_equal(in.ws.rows, 50);
	assert_int_equal(in.ws.cols, 132);
	intake_done(&in);
	/* A signal outside the set ends the session: ERR_PROTOCOL. */
	len = mk_frame(wire, FRAME_SIGNAL, &sigsegv, 1);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);

	intake_init(&in);
	len = mk_frame(wire, FRAME_RESIZE, bad, 4);
	assert_int_equal(feed_all(wire, len, &code, NULL), INTAKE_ERROR);
	assert_int_equal(code, ERR_PROTOCOL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_with_one_fd),
		cmocka_unit_test(test_start_byte_by_byte),
		cmocka_unit_test(test_start_without_fd),
		cmocka_unit_test(test_two_fds_at_once),
		cmocka_unit_test(test_fd_after_start),
		cmocka_unit_test(test_input_before_start),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_malformed_start),
		cmocka_unit_test(test_input_frames_after_start),
		cmocka_unit_test(test_input_too_large),
		cmocka_unit_test(test_resize_before_start),
		cmocka_unit_test(test_signal_and_resize_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
