/*
 * test_msgstart.c: cmocka tests of the IMSG_START_REQ payload codec
 * (proto/msgstart.c), the parent's last word on what a relay asks to
 * run.  Unprivileged test code; hostile payloads are built by hand.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "proto/frame.h"
#include "regress/unit/seedreq.h"
#include "proto/imsg.h"

#define MS_MAX	(sizeof(struct msg_start) + FRAME_MAX_PAYLOAD)

static uint8_t			buf[MS_MAX + 64];
static size_t			blen;
static struct start_args	args;
static char			big[START_MAX_ARGLEN + 2];

/* Fixed part with any size and reserved field, then raw bytes. */
static void
raw_fixed_ws(uint32_t argc, uint32_t runtime, uint16_t rows, uint16_t cols,
    uint32_t zero)
{
	struct msg_start	ms;

	memset(&ms, 0, sizeof(ms));
	ms.dev = 12;
	ms.ino = 34;
	ms.runtime = runtime;
	ms.argc = argc;
	ms.rows = rows;
	ms.cols = cols;
	ms.zero = zero;
	memcpy(buf, &ms, sizeof(ms));
	blen = sizeof(ms);
}

static void
raw_fixed(uint32_t argc, uint32_t runtime)
{
	raw_fixed_ws(argc, runtime, 24, 80, 0);
}

static void
raw_add(const void *p, size_t len)
{
	memcpy(buf + blen, p, len);
	blen += len;
}

static void
test_roundtrip_seed(void **state)
{
	static const char	tail[] = "printf\0%s\0hello world";
	struct start_req	req;
	int			n;

	(void)state;
	seed_req(&req);
	n = msg_start_encode(&req, buf, sizeof(buf));
	assert_int_equal(n, sizeof(struct msg_start) + sizeof(tail));
	assert_memory_equal(buf + sizeof(struct msg_start), tail,
	    sizeof(tail));
	assert_int_equal(msg_start_decode(buf, (size_t)n, &args), 0);
	assert_int_equal(args.fixed.dev, 12);
	assert_int_equal(args.fixed.ino, 34);
	assert_int_equal(args.fixed.runtime, 60);
	assert_int_equal(args.fixed.argc, 3);
	assert_int_equal(args.fixed.rows, 24);
	assert_int_equal(args.fixed.cols, 80);
	assert_int_equal(args.fixed.zero, 0);
	assert_string_equal(args.argv[0], "printf");
	assert_string_equal(args.argv[1], "%s");
	assert_string_equal(args.argv[2], "hello world");
	assert_ptr_equal(args.argv[0], buf + sizeof(struct msg_start));
}

/* The frame decoder's output feeds the encoder unchanged. */
static void
test_from_start_frame(void **state)
{
	static uint8_t		frame[FRAME_MAX_PAYLOAD];
	struct start_req	req, got;
	int			n;

	(void)state;
	seed_req(&req);
	set_arg(&req, 1, "", 0);
	n = start_encode(&req, frame, sizeof(frame));
	assert_true(n > 0);
	assert_int_equal(start_decode(frame, (size_t)n, &got), FRAME_OK);
	/* The size is not in the start frame: the relay adds it. */
	assert_int_equal(msg_start_encode(&got, buf, sizeof(buf)),
	    FRAME_E_WINSIZE);
	got.rows = 50;
	got.cols = 132;
	n = msg_start_encode(&got, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(msg_start_decode(buf, (size_t)n, &args), 0);
	assert_string_equal(args.argv[1], "");
	assert_string_equal(args.argv[2], "hello world");
	assert_int_equal(args.fixed.rows, 50);
	assert_int_equal(args.fixed.cols, 132);
}

static void
test_max_args(void **state)
{
	struct start_req	req;
	unsigned int		i;
	int			n;

	(void)state;
	memset(big, 'm', sizeof(big));
	memset(&req, 0, sizeof(req));
	req.rows = req.cols = WINSIZE_MAX;
	req.argc = START_MAX_ARGS;
	for (i = 0; i < START_MAX_ARGS; i++)
		set_arg(&req, i, big, 100);
	set_arg(&req, 5, big, START_MAX_ARGLEN);
	n = msg_start_encode(&req, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(msg_start_decode(buf, (size_t)n, &args), 0);
	assert_int_equal(strlen(args.argv[5]), START_MAX_ARGLEN);
	assert_int_equal(strlen(args.argv[127]), 100);
}

static void
test_encode_rejects(void **state)
{
	struct start_req	req;

	(void)state;
	seed_req(&req);
	req.argc = 0;
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_ARGC);
	req.argc = START_MAX_ARGS + 1;
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_ARGC);
	seed_req(&req);
	set_arg(&req, 1, "a\0b", 3);
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_NUL);
	seed_req(&req);
	set_arg(&req, 0, "", 0);
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_EMPTYARG0);
	seed_req(&req);
	memset(big, 'x', sizeof(big));
	set_arg(&req, 2, big, START_MAX_ARGLEN + 1);
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_ARGLEN);
	seed_req(&req);
	req.runtime = START_MAX_RUNTIME + 1;
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_RUNTIME);
}

/* The encoder refuses any size the decoder would refuse. */
static void
test_encode_winsize(void **state)
{
	static const uint16_t	bad[] = { 0, 4097, 0xffff };
	struct start_req	req;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		seed_req(&req);
		req.rows = bad[i];
		assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
		    FRAME_E_WINSIZE);
		seed_req(&req);
		req.cols = bad[i];
		assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
		    FRAME_E_WINSIZE);
	}
	seed_req(&req);
	req.rows = req.cols = 0;
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_WINSIZE);
	/* Checked before the space. */
	assert_int_equal(msg_start_encode(&req, buf, 0), FRAME_E_WINSIZE);
	seed_req(&req);
	req.rows = 1;
	req.cols = WINSIZE_MAX;
	assert_true(msg_start_encode(&req, buf, sizeof(buf)) > 0);
	assert_int_equal(msg_start_decode(buf, sizeof(struct msg_start) +
	    22, &args), 0);
	assert_int_equal(args.fixed.rows, 1);
	assert_int_equal(args.fixed.cols, WINSIZE_MAX);
}

static void
test_decode_winsize(void **state)
{
	static const struct {
		uint16_t	rows, cols;
		int		want;
	} c[] = {
		{ 1, 1, 0 }, { 4096, 4096, 0 }, { 24, 80, 0 },
		{ 0, 80, FRAME_E_WINSIZE }, { 24, 0, FRAME_E_WINSIZE },
		{ 0, 0, FRAME_E_WINSIZE }, { 4097, 80, FRAME_E_WINSIZE },
		{ 24, 4097, FRAME_E_WINSIZE },
		{ 0xffff, 0xffff, FRAME_E_WINSIZE },
		{ 0xffff, 80, FRAME_E_WINSIZE }, { 24, 0xffff, FRAME_E_WINSIZE },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		raw_fixed_ws(1, 0, c[i].rows, c[i].cols, 0);
		raw_add("true", 5);
		assert_int_equal(msg_start_decode(buf, blen, &args),
		    c[i].want);
		if (c[i].want == 0) {
			assert_int_equal(args.fixed.rows, c[i].rows);
			assert_int_equal(args.fixed.cols, c[i].cols);
		}
	}
}

static void
test_decode_zero_field(void **state)
{
	static const uint32_t	bad[] = { 1, 0x80000000u, 0xffffffffu };
	struct start_req	req;
	struct msg_start	ms;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		raw_fixed_ws(1, 0, 24, 80, bad[i]);
		raw_add("true", 5);
		assert_int_equal(msg_start_decode(buf, blen, &args),
		    FRAME_E_RESERVED);
	}
	/* The order of docs/IMSG.md: argc, then size, then the zero. */
	raw_fixed_ws(0, 0, 0, 0, 1);
	raw_add("true", 5);
	assert_int_equal(msg_start_decode(buf, blen, &args), FRAME_E_ARGC);
	raw_fixed_ws(1, 0, 0, 0, 1);
	raw_add("true", 5);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_WINSIZE);
	/* The encoder always writes 0 there. */
	seed_req(&req);
	memset(buf, 0xff, sizeof(struct msg_start));
	assert_true(msg_start_encode(&req, buf, sizeof(buf)) > 0);
	memcpy(&ms, buf, sizeof(ms));
	assert_int_equal(ms.zero, 0);
}

/* 32 + 16 * 4097 is over the table's START_REQ maximum. */
static void
test_encode_toolarge(void **state)
{
	struct start_req	req;
	unsigned int		i;

	(void)state;
	memset(big, 'l', sizeof(big));
	memset(&req, 0, sizeof(req));
	req.rows = req.cols = 1;
	req.argc = 16;
	for (i = 0; i < 16; i++)
		set_arg(&req, i, big, START_MAX_ARGLEN);
	assert_int_equal(msg_start_encode(&req, buf, sizeof(buf)),
	    FRAME_E_TOOLARGE);
	req.argc = 15;
	assert_true(msg_start_encode(&req, buf, sizeof(buf)) > 0);
}

static void
test_encode_space(void **state)
{
	struct start_req	req;
	size_t			need = sizeof(struct msg_start) + 7 + 3 + 12;

	(void)state;
	seed_req(&req);
	assert_int_equal(msg_start_encode(&req, buf, need - 1),
	    FRAME_E_SPACE);
	assert_int_equal(msg_start_encode(&req, buf, 0), FRAME_E_SPACE);
	assert_int_equal(msg_start_encode(&req, buf, need), (int)need);
}

static void
test_decode_argc(void **state)
{
	(void)state;
	raw_fixed(0, 0);
	raw_add("x", 2);
	assert_int_equal(msg_start_decode(buf, blen, &args), FRAME_E_ARGC);
	raw_fixed(START_MAX_ARGS + 1, 0);
	raw_add("x", 2);
	assert_int_equal(msg_start_decode(buf, blen, &args), FRAME_E_ARGC);
	raw_fixed(0xffffffffu, 0);
	raw_add("x", 2);
	assert_int_equal(msg_start_decode(buf, blen, &args), FRAME_E_ARGC);
}

static void
test_decode_short_fixed(void **state)
{
	size_t	n;

	(void)state;
	raw_fixed(1, 0);
	for (n = 0; n < sizeof(struct msg_start); n++)
		assert_int_equal(msg_start_decode(buf, n, &args),
		    FRAME_E_TRUNCATED);
	/* Fixed part whole, the promised string absent. */
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_TRUNCATED);
}

static void
test_decode_arg_4097(void **state)
{
	(void)state;
	memset(big, 'y', sizeof(big));
	raw_fixed(1, 0);
	raw_add(big, START_MAX_ARGLEN + 1);
	raw_add("", 1);
	assert_int_equal(msg_start_decode(buf, blen, &args), FRAME_E_ARGLEN);
	raw_fixed(1, 0);
	raw_add(big, START_MAX_ARGLEN);
	raw_add("", 1);
	assert_int_equal(msg_start_decode(buf, blen, &args), 0);
}

static void
test_decode_empty_first(void **state)
{
	(void)state;
	raw_fixed(2, 0);
	raw_add("\0x", 3);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_EMPTYARG0);
}

static void
test_decode_unterminated_last(void **state)
{
	(void)state;
	raw_fixed(2, 0);
	raw_add("printf\0abc", 10);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_TRUNCATED);
	/* Fewer strings than argc. */
	raw_fixed(3, 0);
	raw_add("printf\0abc", 11);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_TRUNCATED);
}

static void
test_decode_extra_after_last(void **state)
{
	(void)state;
	raw_fixed(1, 0);
	raw_add("true\0x", 6);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_TRAILING);
	/* More strings than argc. */
	raw_fixed(1, 0);
	raw_add("true\0x", 7);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_TRAILING);
}

static void
test_decode_runtime(void **state)
{
	(void)state;
	raw_fixed(1, START_MAX_RUNTIME + 1);
	raw_add("true", 5);
	assert_int_equal(msg_start_decode(buf, blen, &args),
	    FRAME_E_RUNTIME);
}

static void
test_decode_toolarge(void **state)
{
	(void)state;
	raw_fixed(1, 0);
	memset(buf + blen, 'a', sizeof(buf) - blen);
	assert_int_equal(msg_start_decode(buf, MS_MAX + 1, &args),
	    FRAME_E_TOOLARGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_seed),
		cmocka_unit_test(test_from_start_frame),
		cmocka_unit_test(test_max_args),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_encode_winsize),
		cmocka_unit_test(test_decode_winsize),
		cmocka_unit_test(test_decode_zero_field),
		cmocka_unit_test(test_encode_toolarge),
		cmocka_unit_test(test_encode_space),
		cmocka_unit_test(test_decode_argc),
		cmocka_unit_test(test_decode_short_fixed),
		cmocka_unit_test(test_decode_arg_4097),
		cmocka_unit_test(test_decode_empty_first),
		cmocka_unit_test(test_decode_unterminated_last),
		cmocka_unit_test(test_decode_extra_after_last),
		cmocka_unit_test(test_decode_runtime),
		cmocka_unit_test(test_decode_toolarge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
