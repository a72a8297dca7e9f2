/*
 * test_relay_outbuf.c: the relay's bounded to-client buffer
 * (relay/outbuf.c): one frame at a time, never more than
 * FRAME_MAX_INPUT payload bytes, partial writes, exit frames.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proto/frame.h"
#include "regress/framepeer.h"
#include "relay/outbuf.h"

static struct outbuf	ob;

static void
test_bound(void **state)
{
	size_t	room;

	(void)state;
	outbuf_init(&ob);
	assert_true(outbuf_empty(&ob));
	assert_non_null(outbuf_payload(&ob, &room));
	assert_int_equal(room, FRAME_MAX_INPUT);
	assert_int_equal(outbuf_commit(&ob, FRAME_OUTPUT,
	    FRAME_MAX_INPUT + 1), -1);
	assert_int_equal(sizeof(ob.buf), FRAME_HDR_LEN + FRAME_MAX_INPUT);
}

static void
test_one_frame_at_a_time(void **state)
{
	const uint8_t		*p;
	uint8_t			*w;
	size_t			 room, len;
	struct frame_hdr	 h;

	(void)state;
	outbuf_init(&ob);
	w = outbuf_payload(&ob, &room);
	memcpy(w, "abc", 3);
	assert_int_equal(outbuf_commit(&ob, FRAME_OUTPUT, 3), 0);
	/* Held: no room for anything else until it is written. */
	assert_null(outbuf_payload(&ob, &room));
	assert_int_equal(room, 0);
	assert_int_equal(outbuf_commit(&ob, FRAME_OUTPUT, 1), -1);
	p = outbuf_pending(&ob, &len);
	assert_int_equal(len, FRAME_HDR_LEN + 3);
	assert_int_equal(frame_hdr_decode(p, len, &h), FRAME_OK);
	assert_int_equal(h.type, FRAME_OUTPUT);
	assert_int_equal(h.len, 3);
	assert_memory_equal(p + FRAME_HDR_LEN, "abc", 3);
	outbuf_consume(&ob, 5);
	p = outbuf_pending(&ob, &len);
	assert_int_equal(len, FRAME_HDR_LEN + 3 - 5);
	assert_memory_equal(p + FRAME_HDR_LEN - 5, "abc", 3);
	assert_false(outbuf_empty(&ob));
	outbuf_consume(&ob, 1000);		/* clamps */
	assert_true(outbuf_empty(&ob));
}

static void
test_exit_frame(void **state)
{
	struct exit_info	 ei, got;
	const uint8_t		*p;
	size_t			 len;
	struct frame_hdr	 h;

	(void)state;
	outbuf_init(&ob);
	memset(&ei, 0, sizeof(ei));
	ei.code = 1;
	ei.status = 7;
	strcpy(ei.result, "exit-code");
	assert_int_equal(outbuf_put_exit(&ob, &ei), 0);
	assert_int_equal(outbuf_put_exit(&ob, &ei), -1);	/* held */
	p = outbuf_pending(&ob, &len);
	assert_int_equal(frame_hdr_decode(p, len, &h), FRAME_OK);
	assert_int_equal(h.type, FRAME_EXIT);
	assert_int_equal(exit_decode(p + FRAME_HDR_LEN, h.len, &got),
	    FRAME_OK);
	assert_int_equal(got.status, 7);
	assert_string_equal(got.result, "exit-code");
	outbuf_consume(&ob, len);
	strcpy(ei.result, "bad\x1b");
	assert_int_equal(outbuf_put_exit(&ob, &ei), -1);
	assert_true(outbuf_empty(&ob));
}

/* Any payload written in place goes out behind its header. */
static void
test_error_frame(void **state)
{
	struct error_info	 ei;
	const uint8_t		*p;
	uint8_t			*w;
	size_t			 len, room;
	struct frame_hdr	 h;
	int			 n;

	(void)state;
	outbuf_init(&ob);
	assert_non_null(w = outbuf_payload(&ob, &room));
	assert_true((n = error_encode(ERR_BUSY, NULL, w, room)) > 0);
	assert_int_equal(outbuf_commit(&ob, FRAME_ERROR, (size_t)n), 0);
	p = outbuf_pending(&ob, &len);
	assert_int_equal(frame_hdr_decode(p, len, &h), FRAME_OK);
	assert_int_equal(h.type, FRAME_ERROR);
	assert_int_equal(error_decode(p + FRAME_HDR_LEN, h.len, &ei),
	    FRAME_OK);
	assert_int_equal(ei.code, ERR_BUSY);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_one_frame_at_a_time),
		cmocka_unit_test(test_exit_frame),
		cmocka_unit_test(test_error_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
