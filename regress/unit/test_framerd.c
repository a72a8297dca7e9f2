/*
 * test_framerd.c: cmocka tests of the incremental frame reader
 * (proto/framerd.c), fed the way a non-blocking socket delivers bytes:
 * one at a time, in arbitrary splits, several frames per read.
 * Unprivileged test code.
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

#define NFRAMES		6
#define STREAM_MAX	(NFRAMES * FRAME_HDR_LEN + 40000)

struct want {
	uint8_t	type;
	size_t	off;	/* payload offset in the stream */
	size_t	len;
};

static uint8_t			stream[STREAM_MAX];
static size_t			streamlen;
static struct want		wants[NFRAMES];
static struct frame_reader	rd;

static void
add_frame(int i, uint8_t type, const uint8_t *p, size_t len)
{
	frame_hdr_encode(stream + streamlen, type, (uint32_t)len);
	streamlen += FRAME_HDR_LEN;
	wants[i].type = type;
	wants[i].off = streamlen;
	wants[i].len = len;
	if (len > 0)
		memcpy(stream + streamlen, p, len);
	streamlen += len;
}

/* Seed frames plus the edge sizes: empty and full input frames. */
static void
build_stream(void)
{
	static uint8_t		big[FRAME_MAX_INPUT];
	struct start_req	req;
	struct exit_info	ei;
	uint8_t			tmp[256];
	size_t			i;
	int			n;

	streamlen = 0;
	memset(&req, 0, sizeof(req));
	req.dev = 12;
	req.ino = 34;
	req.runtime = 60;
	req.argc = 3;
	req.argv[0] = (const uint8_t *)"printf";
	req.arglen[0] = 6;
	req.argv[1] = (const uint8_t *)"%s";
	req.arglen[1] = 2;
	req.argv[2] = (const uint8_t *)"hello world";
	req.arglen[2] = 11;
	n = start_encode(&req, tmp, sizeof(tmp));
	assert_true(n > 0);
	add_frame(0, FRAME_START, tmp, (size_t)n);
	add_frame(1, FRAME_INPUT, (const uint8_t *)"hello", 5);
	add_frame(2, FRAME_INPUT, NULL, 0);
	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 31 + 7);
	add_frame(3, FRAME_OUTPUT, big, sizeof(big));
	memset(&ei, 0, sizeof(ei));
	ei.code = 1;
	ei.status = 7;
	strcpy(ei.result, "exit-code");
	n = exit_encode(&ei, tmp, sizeof(tmp));
	assert_true(n > 0);
	add_frame(4, FRAME_EXIT, tmp, (size_t)n);
	n = error_encode(ERR_PROTOCOL, NULL, tmp, sizeof(tmp));
	assert_true(n > 0);
	add_frame(5, FRAME_ERROR, tmp, (size_t)n);
}

static void
check_frame(int i)
{
	assert_int_equal(rd.ready, 1);
	assert_int_equal(rd.hdr.type, wants[i].type);
	assert_int_equal(rd.hdr.len, wants[i].len);
	assert_int_equal(rd.have, wants[i].len);
	if (wants[i].len > 0)
		assert_memory_equal(rd.payload, stream + wants[i].off,
		    wants[i].len);
}

/* xorshift32: fixed seed, so every run sees the same splits. */
static uint32_t
prng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * Feeds the stream in chunks from next_chunk(), handing back whatever
 * the reader did not take, and checks every frame comes out whole.
 */
static void
feed_stream(size_t (*next_chunk)(uint32_t *), uint32_t seed)
{
	size_t	pos = 0, end, chunk;
	long	n;
	int	got = 0;

	frame_reader_init(&rd);
	while (pos < streamlen) {
		chunk = next_chunk(&seed);
		end = chunk > streamlen - pos ? streamlen : pos + chunk;
		while (pos < end) {
			n = frame_reader_feed(&rd, stream + pos, end - pos);
			assert_true(n >= 0);
			assert_true((size_t)n <= end - pos);
			pos += (size_t)n;
			if (rd.ready) {
				assert_true(got < NFRAMES);
				/* The frame ends exactly here. */
				assert_int_equal(pos,
				    wants[got].off + wants[got].len);
				check_frame(got++);
				frame_reader_next(&rd);
			} else
				assert_int_equal(pos, end);
		}
	}
	assert_int_equal(got, NFRAMES);
	assert_int_equal(rd.hhave, 0);
}

static size_t
chunk_one(uint32_t *s)
{
	(void)s;
	return 1;
}

static size_t
chunk_random(uint32_t *s)
{
	uint32_t	r = prng(s);

	/* Mostly short reads, sometimes long ones that span frames. */
	if (r % 4 == 0)
		return 1 + prng(s) % 70000;
	return 1 + prng(s) % 40;
}

static void
test_one_byte_at_a_time(void **state)
{
	(void)state;
	build_stream();
	feed_stream(chunk_one, 1);
}

static void
test_random_splits(void **state)
{
	uint32_t	seed;

	(void)state;
	build_stream();
	for (seed = 1; seed <= 200; seed++)
		feed_stream(chunk_random, seed * 2654435761u);
}

static void
test_two_frames_one_buffer(void **state)
{
	uint8_t	buf[2 * FRAME_HDR_LEN + 5 + 3];
	long	n;

	(void)state;
	frame_hdr_encode(buf, FRAME_INPUT, 5);
	memcpy(buf + FRAME_HDR_LEN, "hello", 5);
	frame_hdr_encode(buf + FRAME_HDR_LEN + 5, FRAME_OUTPUT, 3);
	memcpy(buf + 2 * FRAME_HDR_LEN + 5, "abc", 3);

	frame_reader_init(&rd);
	n = frame_reader_feed(&rd, buf, sizeof(buf));
	assert_int_equal(n, FRAME_HDR_LEN + 5);
	assert_int_equal(rd.ready, 1);
	assert_int_equal(rd.hdr.type, FRAME_INPUT);
	assert_memory_equal(rd.payload, "hello", 5);

	/* Still holding a frame: nothing more is taken. */
	assert_int_equal(frame_reader_feed(&rd, buf + n, sizeof(buf) -
	    (size_t)n), 0);

	frame_reader_next(&rd);
	assert_int_equal(rd.ready, 0);
	assert_int_equal(frame_reader_feed(&rd, buf + n, sizeof(buf) -
	    (size_t)n), FRAME_HDR_LEN + 3);
	assert_int_equal(rd.ready, 1);
	assert_int_equal(rd.hdr.type, FRAME_OUTPUT);
	assert_int_equal(rd.hdr.len, 3);
	assert_memory_equal(rd.payload, "abc", 3);
}

/* The oversize claim is refused on the 12th byte, before any payload. */
static void
test_oversized_header_first(void **state)
{
	uint8_t	buf[FRAME_HDR_LEN + 16];
	int	i;

	(void)state;
	memset(buf, 'p', sizeof(buf));
	frame_hdr_encode(buf, FRAME_INPUT, FRAME_MAX_INPUT + 1);
	frame_reader_init(&rd);
	for (i = 0; i < FRAME_HDR_LEN - 1; i++)
		assert_int_equal(frame_reader_feed(&rd, buf + i, 1), 1);
	assert_int_equal(frame_reader_feed(&rd, buf + i, 1),
	    FRAME_E_TOOLARGE);
	assert_int_equal(rd.have, 0);
	assert_int_equal(rd.ready, 0);

	/* Header and payload in one read: still refused, none taken. */
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TOOLARGE);
	assert_int_equal(rd.have, 0);

	frame_hdr_encode(buf, FRAME_START, 0xffffffffu);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TOOLARGE);
}

/* Once refused, the stream stays refused. */
static void
test_error_is_sticky(void **state)
{
	uint8_t	buf[FRAME_HDR_LEN];

	(void)state;
	frame_hdr_encode(buf, FRAME_INPUT, 1);
	buf[0] = 'X';
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_MAGIC);
	assert_int_equal(frame_reader_feed(&rd, (const uint8_t *)"x", 1),
	    FRAME_E_MAGIC);
	assert_int_equal(frame_reader_feed(&rd, NULL, 0), FRAME_E_MAGIC);
}

static void
test_header_errors_passed_through(void **state)
{
	uint8_t	buf[FRAME_HDR_LEN];

	(void)state;
	frame_hdr_encode(buf, FRAME_INPUT, 1);
	buf[4] = 2;
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_VERSION);
	frame_hdr_encode(buf, FRAME_INPUT, 1);
	buf[7] = 1;
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_RESERVED);
	frame_hdr_encode(buf, 8, 1);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TYPE);
	frame_hdr_encode(buf, FRAME_RESIZE, RESIZE_LEN + 1);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TOOLARGE);
	frame_hdr_encode(buf, FRAME_SIGNAL, SIGNAL_LEN + 1);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TOOLARGE);
	frame_hdr_encode(buf, 0, 0);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_E_TYPE);
}

static void
test_empty_payload_ready_at_header(void **state)
{
	uint8_t	buf[FRAME_HDR_LEN];

	(void)state;
	frame_hdr_encode(buf, FRAME_INPUT, 0);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, 5), 5);
	assert_int_equal(rd.ready, 0);
	assert_int_equal(frame_reader_feed(&rd, buf + 5, 7), 7);
	assert_int_equal(rd.ready, 1);
	assert_int_equal(rd.hdr.len, 0);
}

static void
test_max_start_frame(void **state)
{
	static uint8_t	buf[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD + 1];

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	frame_hdr_encode(buf, FRAME_START, FRAME_MAX_PAYLOAD);
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, buf, sizeof(buf)),
	    FRAME_HDR_LEN + FRAME_MAX_PAYLOAD);
	assert_int_equal(rd.ready, 1);
	assert_int_equal(rd.have, FRAME_MAX_PAYLOAD);
	assert_int_equal(rd.payload[FRAME_MAX_PAYLOAD - 1], 0x5a);
}

static void
test_feed_nothing(void **state)
{
	(void)state;
	frame_reader_init(&rd);
	assert_int_equal(frame_reader_feed(&rd, NULL, 0), 0);
	assert_int_equal(rd.hhave, 0);
	assert_int_equal(rd.ready, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_byte_at_a_time),
		cmocka_unit_test(test_random_splits),
		cmocka_unit_test(test_two_frames_one_buffer),
		cmocka_unit_test(test_oversized_header_first),
		cmocka_unit_test(test_error_is_sticky),
		cmocka_unit_test(test_header_errors_passed_through),
		cmocka_unit_test(test_empty_payload_ready_at_header),
		cmocka_unit_test(test_max_start_frame),
		cmocka_unit_test(test_feed_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
