/*
 * test_frame.c: cmocka tests of the client wire codecs (proto/frame.c).
 * Unprivileged test code.  Rejection payloads are built byte by byte
 * here, not with the encoder under test, so a shared bug cannot hide.
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
/* NOLINTNEXTLINE(bugprone-suspicious-include): frame_type_cap() is static */
#include "proto/frame.c"
#include "regress/framepeer.h"
#include "regress/unit/seedreq.h"

/* A raw big-endian payload builder, independent of frame.c. */
struct raw {
	uint8_t	b[FRAME_MAX_PAYLOAD + 64];
	size_t	n;
};

static struct raw	rb;
static uint8_t		out[FRAME_MAX_PAYLOAD + 64];
static uint8_t		bigarg[START_MAX_ARGLEN + 2];

static void
raw_u8(struct raw *r, uint8_t v)
{
	r->b[r->n++] = v;
}

static void
raw_u16(struct raw *r, uint16_t v)
{
	raw_u8(r, (uint8_t)(v >> 8));
	raw_u8(r, (uint8_t)v);
}

static void
raw_u32(struct raw *r, uint32_t v)
{
	raw_u16(r, (uint16_t)(v >> 16));
	raw_u16(r, (uint16_t)v);
}

static void
raw_u64(struct raw *r, uint64_t v)
{
	raw_u32(r, (uint32_t)(v >> 32));
	raw_u32(r, (uint32_t)v);
}

static void
raw_bytes(struct raw *r, const void *p, size_t len)
{
	memcpy(r->b + r->n, p, len);
	r->n += len;
}

static void
raw_arg(struct raw *r, const char *s)
{
	raw_u16(r, (uint16_t)strlen(s));
	raw_bytes(r, s, strlen(s));
}

/* Fixed part of a start payload. */
static struct raw *
raw_start(uint32_t runtime, uint16_t argc)
{
	memset(&rb, 0, sizeof(rb));
	raw_u64(&rb, 12);
	raw_u64(&rb, 34);
	raw_u32(&rb, runtime);
	raw_u16(&rb, argc);
	return &rb;
}

static void
hdr_raw(uint8_t h[FRAME_HDR_LEN], uint8_t type, uint32_t len)
{
	memcpy(h, "OPTY", 4);
	h[4] = 1;
	h[5] = type;
	h[6] = h[7] = 0;
	h[8] = (uint8_t)(len >> 24);
	h[9] = (uint8_t)(len >> 16);
	h[10] = (uint8_t)(len >> 8);
	h[11] = (uint8_t)len;
}

static int
hdr_check(uint8_t type, uint32_t len)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;

	hdr_raw(h, type, len);
	return frame_hdr_decode(h, sizeof(h), &fh);
}

static void
test_type_caps(void **state)
{
	(void)state;
	assert_int_equal(frame_type_cap(FRAME_START), 65536);
	assert_int_equal(frame_type_cap(FRAME_INPUT), 32768);
	assert_int_equal(frame_type_cap(FRAME_OUTPUT), 32768);
	assert_int_equal(frame_type_cap(FRAME_EXIT), 9 + 64);
	assert_int_equal(frame_type_cap(FRAME_ERROR), 4 + 256);
	assert_int_equal(frame_type_cap(FRAME_RESIZE), 4);
	assert_int_equal(frame_type_cap(FRAME_SIGNAL), 1);
	assert_int_equal(frame_type_cap(0), 0);
	assert_int_equal(frame_type_cap(8), 0);
	assert_int_equal(frame_type_cap(255), 0);
}

static void
test_hdr_encode_bytes(void **state)
{
	static const uint8_t	want[FRAME_HDR_LEN] = {
		'O', 'P', 'T', 'Y', 1, 3, 0, 0, 0x00, 0x00, 0x7f, 0xfe
	};
	uint8_t			h[FRAME_HDR_LEN];

	(void)state;
	frame_hdr_encode(h, FRAME_OUTPUT, 0x7ffe);
	assert_memory_equal(h, want, sizeof(want));
}

static void
test_hdr_roundtrip_caps(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;
	unsigned int		t;

	(void)state;
	for (t = FRAME_START; t <= FRAME_SIGNAL; t++) {
		frame_hdr_encode(h, t, frame_type_cap(t));
		assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
		    FRAME_OK);
		assert_int_equal(fh.type, t);
		assert_int_equal(fh.len, frame_type_cap(t));
		frame_hdr_encode(h, t, 0);
		assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
		    FRAME_OK);
		assert_int_equal(fh.len, 0);
	}
}

static void
test_hdr_bad_magic(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;
	int			i;

	(void)state;
	for (i = 0; i < 4; i++) {
		hdr_raw(h, FRAME_INPUT, 1);
		h[i] ^= 0x20;
		assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
		    FRAME_E_MAGIC);
	}
}

static void
test_hdr_bad_version(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;

	(void)state;
	hdr_raw(h, FRAME_INPUT, 1);
	h[4] = 0;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_VERSION);
	h[4] = 2;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_VERSION);
}

static void
test_hdr_reserved(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;

	(void)state;
	hdr_raw(h, FRAME_INPUT, 1);
	h[6] = 1;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_RESERVED);
	hdr_raw(h, FRAME_INPUT, 1);
	h[7] = 0x80;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_RESERVED);
}

static void
test_hdr_unknown_type(void **state)
{
	(void)state;
	assert_int_equal(hdr_check(0, 0), FRAME_E_TYPE);
	assert_int_equal(hdr_check(8, 0), FRAME_E_TYPE);
	assert_int_equal(hdr_check(8, 1), FRAME_E_TYPE);
	assert_int_equal(hdr_check(255, 0), FRAME_E_TYPE);
}

static void
test_hdr_over_cap(void **state)
{
	unsigned int	t;

	(void)state;
	for (t = FRAME_START; t <= FRAME_SIGNAL; t++) {
		assert_int_equal(hdr_check(t, frame_type_cap(t) + 1),
		    FRAME_E_TOOLARGE);
		assert_int_equal(hdr_check(t, 0xffffffffu), FRAME_E_TOOLARGE);
	}
	assert_int_equal(hdr_check(FRAME_START, 65537), FRAME_E_TOOLARGE);
}

static void
test_hdr_input_32769(void **state)
{
	(void)state;
	assert_int_equal(hdr_check(FRAME_INPUT, 32768), FRAME_OK);
	assert_int_equal(hdr_check(FRAME_INPUT, 32769), FRAME_E_TOOLARGE);
}

static void
test_hdr_truncated(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;

	(void)state;
	hdr_raw(h, FRAME_INPUT, 1);
	assert_int_equal(frame_hdr_decode(h, 11, &fh), FRAME_E_TRUNCATED);
	assert_int_equal(frame_hdr_decode(h, 0, &fh), FRAME_E_TRUNCATED);
}

/* Several faults at once: the first rule in the documented order wins. */
static void
test_hdr_check_order(void **state)
{
	uint8_t			h[FRAME_HDR_LEN];
	struct frame_hdr	fh;

	(void)state;
	hdr_raw(h, 8, 0xffffffffu);
	h[0] = 'X';
	h[4] = 9;
	h[6] = 1;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh), FRAME_E_MAGIC);
	h[0] = 'O';
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_VERSION);
	h[4] = 1;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_RESERVED);
	h[6] = 0;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh), FRAME_E_TYPE);
	h[5] = FRAME_INPUT;
	assert_int_equal(frame_hdr_decode(h, sizeof(h), &fh),
	    FRAME_E_TOOLARGE);
}

/* The signals of docs/PROTOCOL.md, by number (Linux, all arches here). */
static const uint8_t	allowed_sigs[] = {
	1, 2, 3, 9, 10, 12, 15, 18, 19, 20, 28
};

static int
sig_listed(unsigned int sig)
{
	size_t	i;

	for (i = 0; i < sizeof(allowed_sigs); i++)
		if (allowed_sigs[i] == sig)
			return 1;
	return 0;
}

static int
resize_raw(uint16_t rows, uint16_t cols, struct winsize_req *ws)
{
	memset(&rb, 0, sizeof(rb));
	raw_u16(&rb, rows);
	raw_u16(&rb, cols);
	return resize_decode(rb.b, rb.n, ws);
}

static void
test_resize_wire(void **state)
{
	static const uint8_t	want[RESIZE_LEN] = { 0x00, 0x18, 0x00, 0x50 };
	struct winsize_req	ws, got;

	(void)state;
	ws.rows = 24;
	ws.cols = 80;
	assert_int_equal(resize_encode(&ws, out, sizeof(out)), RESIZE_LEN);
	assert_memory_equal(out, want, sizeof(want));
	memset(&got, 0xff, sizeof(got));
	assert_int_equal(resize_decode(want, sizeof(want), &got), FRAME_OK);
	assert_int_equal(got.rows, 24);
	assert_int_equal(got.cols, 80);
	/* Big-endian, each field on its own. */
	assert_int_equal(resize_raw(0x0102, 0x0304, &got), FRAME_OK);
	assert_int_equal(got.rows, 0x0102);
	assert_int_equal(got.cols, 0x0304);
}

static void
test_resize_length(void **state)
{
	struct winsize_req	got;
	size_t			n;

	(void)state;
	memset(&rb, 0, sizeof(rb));
	raw_u16(&rb, 24);
	raw_u16(&rb, 80);
	raw_u8(&rb, 0);
	for (n = 0; n < RESIZE_LEN; n++)
		assert_int_equal(resize_decode(rb.b, n, &got),
		    FRAME_E_TRUNCATED);
	assert_int_equal(resize_decode(rb.b, RESIZE_LEN, &got), FRAME_OK);
	assert_int_equal(resize_decode(rb.b, RESIZE_LEN + 1, &got),
	    FRAME_E_TRAILING);
	assert_int_equal(resize_decode(rb.b, 0xffff, &got),
	    FRAME_E_TRAILING);
	/* Length is judged before the values: a short bad size is short. */
	memset(rb.b, 0, 8);
	assert_int_equal(resize_decode(rb.b, 3, &got), FRAME_E_TRUNCATED);
	assert_int_equal(resize_decode(rb.b, 5, &got), FRAME_E_TRAILING);
}

static void
test_resize_bounds(void **state)
{
	static const struct {
		uint16_t	v;
		int		ok;
	} vals[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 4095, 1 }, { 4096, 1 },
		{ 4097, 0 }, { 0x8000, 0 }, { 0xffff, 0 },
	};
	struct winsize_req	got, ws;
	size_t			i, j;
	int			want;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		for (j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
			want = vals[i].ok && vals[j].ok ? FRAME_OK :
			    FRAME_E_WINSIZE;
			memset(&got, 0xee, sizeof(got));
			assert_int_equal(resize_raw(vals[i].v, vals[j].v,
			    &got), want);
			if (want == FRAME_OK) {
				assert_int_equal(got.rows, vals[i].v);
				assert_int_equal(got.cols, vals[j].v);
			} else {
				/* A refusal leaves the output alone. */
				assert_int_equal(got.rows, 0xeeee);
				assert_int_equal(got.cols, 0xeeee);
			}
			/* The encoder refuses exactly what the decoder does. */
			ws.rows = vals[i].v;
			ws.cols = vals[j].v;
			assert_int_equal(resize_encode(&ws, out, sizeof(out)),
			    want == FRAME_OK ? RESIZE_LEN : FRAME_E_WINSIZE);
			assert_int_equal(winsize_valid(vals[i].v, vals[j].v),
			    want == FRAME_OK);
		}
	}
	/* winsize_valid() takes 32 bits: nothing wraps into range. */
	assert_false(winsize_valid(0x10001, 80));
	assert_false(winsize_valid(24, 0x10050));
	assert_false(winsize_valid(0xffffffffu, 0xffffffffu));
}

static void
test_resize_encode_space(void **state)
{
	struct winsize_req	ws;

	(void)state;
	ws.rows = 4096;
	ws.cols = 1;
	memset(out, 0x5a, 8);
	assert_int_equal(resize_encode(&ws, out, 0), FRAME_E_SPACE);
	assert_int_equal(resize_encode(&ws, out, 3), FRAME_E_SPACE);
	assert_int_equal(out[0], 0x5a);
	assert_int_equal(resize_encode(&ws, out, 4), 4);
	assert_int_equal(out[4], 0x5a);
	/* An invalid size is refused before the space is looked at. */
	ws.rows = 0;
	assert_int_equal(resize_encode(&ws, out, 0), FRAME_E_WINSIZE);
}

static void
test_signal_allowed_set(void **state)
{
	uint8_t		b[2], sig;
	unsigned int	s;
	int		want;

	(void)state;
	for (s = 0; s <= 255; s++) {
		want = sig_listed(s);
		assert_int_equal(signal_allowed(s), want);
		b[0] = (uint8_t)s;
		sig = 0xee;
		assert_int_equal(signal_decode(b, 1, &sig),
		    want ? FRAME_OK : FRAME_E_SIGNAL);
		assert_int_equal(sig, want ? s : 0xee);
		assert_int_equal(signal_encode((uint8_t)s, out, sizeof(out)),
		    want ? SIGNAL_LEN : FRAME_E_SIGNAL);
		if (want)
			assert_int_equal(out[0], s);
	}
	/* 32 bits: no wrap into the set. */
	assert_false(signal_allowed(256 + 2));
	assert_false(signal_allowed(0xffffff09u));
}

static void
test_signal_length(void **state)
{
	uint8_t	b[3] = { 15, 15, 15 }, sig = 0;

	(void)state;
	assert_int_equal(signal_decode(b, 0, &sig), FRAME_E_TRUNCATED);
	assert_int_equal(signal_decode(b, 2, &sig), FRAME_E_TRAILING);
	assert_int_equal(signal_decode(b, 3, &sig), FRAME_E_TRAILING);
	assert_int_equal(sig, 0);
	assert_int_equal(signal_decode(b, 1, &sig), FRAME_OK);
	assert_int_equal(sig, 15);
	/* Length before value. */
	b[0] = b[1] = 0;
	assert_int_equal(signal_decode(b, 2, &sig), FRAME_E_TRAILING);
}

static void
test_signal_encode_space(void **state)
{
	(void)state;
	out[0] = 0x5a;
	assert_int_equal(signal_encode(2, out, 0), FRAME_E_SPACE);
	assert_int_equal(out[0], 0x5a);
	assert_int_equal(signal_encode(2, out, 1), 1);
	assert_int_equal(out[0], 2);
	assert_int_equal(signal_encode(0, out, 0), FRAME_E_SIGNAL);
	assert_int_equal(signal_encode(11, out, 1), FRAME_E_SIGNAL);
}

/* Whole frames as the relay reads them: header caps, then payload. */
static void
test_resize_signal_frames(void **state)
{
	uint8_t			f[FRAME_HDR_LEN + 8];
	/* Zeroed: clang-tidy does not know a failed assert ends the test. */
	struct frame_hdr	fh = { 0 };
	struct winsize_req	ws = { 50, 132 }, got = { 0 };
	uint8_t			sig = 0;

	(void)state;
	frame_hdr_encode(f, FRAME_RESIZE, RESIZE_LEN);
	assert_int_equal(resize_encode(&ws, f + FRAME_HDR_LEN,
	    sizeof(f) - FRAME_HDR_LEN), RESIZE_LEN);
	assert_int_equal(frame_hdr_decode(f, sizeof(f), &fh), FRAME_OK);
	assert_int_equal(fh.type, FRAME_RESIZE);
	assert_int_equal(fh.len, 4);
	assert_int_equal(resize_decode(f + FRAME_HDR_LEN, fh.len, &got),
	    FRAME_OK);
	assert_int_equal(got.rows, 50);
	assert_int_equal(got.cols, 132);

	frame_hdr_encode(f, FRAME_SIGNAL, SIGNAL_LEN);
	assert_int_equal(signal_encode(2, f + FRAME_HDR_LEN, 1), 1);
	assert_int_equal(frame_hdr_decode(f, sizeof(f), &fh), FRAME_OK);
	assert_int_equal(fh.type, FRAME_SIGNAL);
	assert_int_equal(fh.len, 1);
	assert_int_equal(signal_decode(f + FRAME_HDR_LEN, fh.len, &sig),
	    FRAME_OK);
	assert_int_equal(sig, 2);

	/* Over the caps: the header decoder refuses, not the payload's. */
	assert_int_equal(hdr_check(FRAME_RESIZE, 5), FRAME_E_TOOLARGE);
	assert_int_equal(hdr_check(FRAME_SIGNAL, 2), FRAME_E_TOOLARGE);
	assert_int_equal(hdr_check(FRAME_RESIZE, 0), FRAME_OK);
	assert_int_equal(hdr_check(FRAME_SIGNAL, 0), FRAME_OK);
	assert_int_equal(hdr_check(FRAME_RESIZE, 3), FRAME_OK);
}

static void
test_start_seed_roundtrip(void **state)
{
	struct start_req	req, got;
	int			n;

	(void)state;
	seed_req(&req);
	n = start_encode(&req, out, sizeof(out));
	assert_int_equal(n, 22 + 8 + 4 + 13);
	assert_int_equal(start_decode(out, (size_t)n, &got), FRAME_OK);
	assert_int_equal(got.dev, 12);
	assert_int_equal(got.ino, 34);
	assert_int_equal(got.runtime, 60);
	assert_int_equal(got.argc, 3);
	assert_int_equal(got.arglen[0], 6);
	assert_memory_equal(got.argv[0], "printf", 6);
	assert_int_equal(got.arglen[1], 2);
	assert_memory_equal(got.argv[1], "%s", 2);
	assert_int_equal(got.arglen[2], 11);
	assert_memory_equal(got.argv[2], "hello world", 11);
	/* Pointers go into the caller's buffer, not into a copy. */
	assert_ptr_equal(got.argv[0], out + 24);
}

/* The encoder's bytes equal the hand-built layout of PROTOCOL.md. */
static void
test_start_seed_wire(void **state)
{
	struct start_req	req;
	struct raw		*r;
	int			n;

	(void)state;
	seed_req(&req);
	n = start_encode(&req, out, sizeof(out));
	r = raw_start(60, 3);
	raw_arg(r, "printf");
	raw_arg(r, "%s");
	raw_arg(r, "hello world");
	assert_int_equal(n, r->n);
	assert_memory_equal(out, r->b, r->n);
	assert_int_equal(out[7], 12);
	assert_int_equal(out[15], 34);
}

static void
test_input_roundtrip(void **state)
{
	uint8_t			buf[FRAME_HDR_LEN + 5];
	struct frame_hdr	fh = { 0 };	/* as above */

	(void)state;
	frame_hdr_encode(buf, FRAME_INPUT, 5);
	memcpy(buf + FRAME_HDR_LEN, "hello", 5);
	assert_int_equal(frame_hdr_decode(buf, sizeof(buf), &fh), FRAME_OK);
	assert_int_equal(fh.type, FRAME_INPUT);
	assert_int_equal(fh.len, 5);
	assert_memory_equal(buf + FRAME_HDR_LEN, "hello", 5);
}

static void
test_exit_seed_roundtrip(void **state)
{
	static const uint8_t	want[] = {
		1, 0, 0, 0, 7, 0, 0, 0, 9,
		'e', 'x', 'i', 't', '-', 'c', 'o', 'd', 'e'
	};
	struct exit_info	ei, got;
	int			n;

	(void)state;
	memset(&ei, 0, sizeof(ei));
	ei.code = 1;
	ei.status = 7;
	strcpy(ei.result, "exit-code");
	n = exit_encode(&ei, out, sizeof(out));
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(out, want, sizeof(want));
	memset(&got, 0xff, sizeof(got));
	assert_int_equal(exit_decode(out, (size_t)n, &got), FRAME_OK);
	assert_int_equal(got.code, 1);
	assert_int_equal(got.status, 7);
	assert_string_equal(got.result, "exit-code");
}

static void
test_error_roundtrip(void **state)
{
	struct error_info	got;
	int			n;

	(void)state;
	n = error_encode(ERR_BUSY, "busy: 16 sessions", out, sizeof(out));
	assert_int_equal(n, 4 + 17);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], ERR_BUSY);
	assert_int_equal(out[3], 17);
	assert_int_equal(error_decode(out, (size_t)n, &got), FRAME_OK);
	assert_int_equal(got.code, ERR_BUSY);
	assert_string_equal(got.text, "busy: 16 sessions");

	/* NULL text: the code's default text. */
	n = error_encode(ERR_NOTDIR, NULL, out, sizeof(out));
	assert_true(n > 4);
	assert_int_equal(error_decode(out, (size_t)n, &got), FRAME_OK);
	assert_int_equal(got.code, ERR_NOTDIR);
	assert_string_equal(got.text, frame_error_text(ERR_NOTDIR));
}

static void
test_start_argc_0(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(0, 0);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_ARGC);
}

static void
test_start_argc_129(void **state)
{
	struct start_req	got;
	struct raw		*r;
	int			i;

	(void)state;
	r = raw_start(0, 129);
	for (i = 0; i < 129; i++)
		raw_arg(r, "x");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_ARGC);

	r = raw_start(0, 128);
	for (i = 0; i < 128; i++)
		raw_arg(r, "x");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_OK);
	assert_int_equal(got.argc, 128);
}

static void
test_start_arg_4097(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	memset(bigarg, 'a', sizeof(bigarg));
	r = raw_start(0, 1);
	raw_u16(r, 4097);
	raw_bytes(r, bigarg, 4097);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_ARGLEN);

	r = raw_start(0, 1);
	raw_u16(r, 4096);
	raw_bytes(r, bigarg, 4096);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_OK);
	assert_int_equal(got.arglen[0], 4096);
}

static void
test_start_empty_first_arg(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(0, 2);
	raw_arg(r, "");
	raw_arg(r, "x");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_EMPTYARG0);

	/* An empty argument later on is a real, allowed argument. */
	r = raw_start(0, 2);
	raw_arg(r, "x");
	raw_arg(r, "");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_OK);
	assert_int_equal(got.arglen[1], 0);
}

static void
test_start_nul_in_arg(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(0, 2);
	raw_arg(r, "printf");
	raw_u16(r, 3);
	raw_bytes(r, "a\0b", 3);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_NUL);

	r = raw_start(0, 1);
	raw_u16(r, 1);
	raw_u8(r, 0);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_NUL);
}

static void
test_start_runtime_3601(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(3601, 1);
	raw_arg(r, "true");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_RUNTIME);
	r = raw_start(0xffffffffu, 1);
	raw_arg(r, "true");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_RUNTIME);
	r = raw_start(3600, 1);
	raw_arg(r, "true");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_OK);
	assert_int_equal(got.runtime, 3600);
}

static void
test_start_trailing_byte(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(60, 1);
	raw_arg(r, "true");
	raw_u8(r, 0);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRAILING);
}

static void
test_start_truncated_fixed(void **state)
{
	struct start_req	got;
	struct raw		*r;
	size_t			n;

	(void)state;
	r = raw_start(60, 1);
	for (n = 0; n < START_FIXED_LEN; n++)
		assert_int_equal(start_decode(r->b, n, &got),
		    FRAME_E_TRUNCATED);
	/* Fixed part whole, but no room for the first length field. */
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);
	raw_u8(r, 0);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);
}

static void
test_start_truncated_arg(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(60, 2);
	raw_arg(r, "printf");
	raw_u16(r, 11);
	raw_bytes(r, "hello", 5);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);

	/* argc promises more arguments than the payload holds. */
	r = raw_start(60, 3);
	raw_arg(r, "printf");
	raw_arg(r, "x");
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);
}

/* Lengths chosen to wrap a careless sum or run past the buffer. */
static void
test_start_arglen_overrun(void **state)
{
	struct start_req	got;
	struct raw		*r;

	(void)state;
	r = raw_start(0, 1);
	raw_u16(r, 0xffff);
	raw_bytes(r, "abc", 3);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_ARGLEN);

	r = raw_start(0, 2);
	raw_arg(r, "x");
	raw_u16(r, 4096);
	raw_bytes(r, "abc", 3);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);

	/* One byte short of the claimed length. */
	r = raw_start(0, 1);
	raw_u16(r, 4);
	raw_bytes(r, "abc", 3);
	assert_int_equal(start_decode(r->b, r->n, &got), FRAME_E_TRUNCATED);
}

static void
test_start_decode_toolarge(void **state)
{
	static uint8_t		big[FRAME_MAX_PAYLOAD + 1];
	struct start_req	got;

	(void)state;
	assert_int_equal(start_decode(big, sizeof(big), &got),
	    FRAME_E_TOOLARGE);
}

static void
fill_args(struct start_req *req, unsigned int argc, size_t last)
{
	unsigned int	i;

	memset(bigarg, 'b', sizeof(bigarg));
	memset(req, 0, sizeof(*req));
	req->argc = (uint16_t)argc;
	for (i = 0; i < argc; i++)
		set_arg(req, i, bigarg, START_MAX_ARGLEN);
	set_arg(req, argc - 1, bigarg, last);
}

static void
test_start_encode_over_65536(void **state)
{
	struct start_req	req, got = { 0 };	/* as above */
	int			n;

	(void)state;
	/* 22 + 16 * 2 + 15 * 4096 + 4042 == 65536 exactly. */
	fill_args(&req, 16, 4042);
	n = start_encode(&req, out, sizeof(out));
	assert_int_equal(n, 65536);
	assert_int_equal(start_decode(out, (size_t)n, &got), FRAME_OK);
	assert_int_equal(got.argc, 16);

	fill_args(&req, 16, 4043);
	assert_int_equal(start_encode(&req, out, sizeof(out)),
	    FRAME_E_TOOLARGE);
	fill_args(&req, 128, 4096);
	assert_int_equal(start_encode(&req, out, sizeof(out)),
	    FRAME_E_TOOLARGE);
}

static void
test_start_encode_validates(void **state)
{
	struct start_req	req;

	(void)state;
	seed_req(&req);
	req.argc = 0;
	assert_int_equal(start_encode(&req, out, sizeof(out)), FRAME_E_ARGC);
	req.argc = 129;
	assert_int_equal(start_encode(&req, out, sizeof(out)), FRAME_E_ARGC);
	seed_req(&req);
	req.runtime = 3601;
	assert_int_equal(start_encode(&req, out, sizeof(out)),
	    FRAME_E_RUNTIME);
	seed_req(&req);
	set_arg(&req, 0, "", 0);
	assert_int_equal(start_encode(&req, out, sizeof(out)),
	    FRAME_E_EMPTYARG0);
	seed_req(&req);
	set_arg(&req, 1, "a\0b", 3);
	assert_int_equal(start_encode(&req, out, sizeof(out)), FRAME_E_NUL);
	seed_req(&req);
	memset(bigarg, 'c', sizeof(bigarg));
	set_arg(&req, 2, bigarg, 4097);
	assert_int_equal(start_encode(&req, out, sizeof(out)),
	    FRAME_E_ARGLEN);
}

static void
test_start_encode_space(void **state)
{
	struct start_req	req;

	(void)state;
	seed_req(&req);
	assert_int_equal(start_encode(&req, out, 46), FRAME_E_SPACE);
	assert_int_equal(start_encode(&req, out, 0), FRAME_E_SPACE);
	assert_int_equal(start_encode(&req, out, 47), 47);
}

static void
test_exit_result_too_long(void **state)
{
	struct exit_info	ei, got;
	struct raw		r;
	uint8_t			res[EXIT_MAX_RESULT + 1];

	(void)state;
	memset(res, 'r', sizeof(res));
	memset(&r, 0, sizeof(r));
	raw_u8(&r, 1);
	raw_u32(&r, 7);
	raw_u32(&r, 65);
	raw_bytes(&r, res, 65);
	assert_int_equal(exit_decode(r.b, r.n, &got), FRAME_E_STRING);

	memset(&ei, 0, sizeof(ei));
	memset(ei.result, 'r', sizeof(ei.result));	/* no NUL at all */
	assert_int_equal(exit_encode(&ei, out, sizeof(out)), FRAME_E_STRING);
	ei.result[64] = '\0';
	assert_int_equal(exit_encode(&ei, out, sizeof(out)), 9 + 64);
	assert_int_equal(exit_decode(out, 9 + 64, &got), FRAME_OK);
	assert_int_equal(strlen(got.result), 64);
}

static void
test_exit_result_nul(void **state)
{
	struct exit_info	got;
	struct raw		r;

	(void)state;
	memset(&r, 0, sizeof(r));
	raw_u8(&r, 1);
	raw_u32(&r, 7);
	raw_u32(&r, 4);
	raw_bytes(&r, "ex\0t", 4);
	assert_int_equal(exit_decode(r.b, r.n, &got), FRAME_E_NUL);
}

static void
test_exit_result_unprintable(void **state)
{
	struct exit_info	ei, got;
	struct raw		r;

	(void)state;
	memset(&r, 0, sizeof(r));
	raw_u8(&r, 1);
	raw_u32(&r, 7);
	raw_u32(&r, 3);
	raw_bytes(&r, "a\033b", 3);
	assert_int_equal(exit_decode(r.b, r.n, &got), FRAME_E_STRING);
	memset(&ei, 0, sizeof(ei));
	strcpy(ei.result, "bad\n");
	assert_int_equal(exit_encode(&ei, out, sizeof(out)), FRAME_E_STRING);
}

static void
test_exit_truncated_trailing(void **state)
{
	struct exit_info	got;
	struct raw		r;

	(void)state;
	memset(&r, 0, sizeof(r));
	raw_u8(&r, 1);
	raw_u32(&r, 7);
	raw_u32(&r, 9);
	raw_bytes(&r, "exit-code", 9);
	assert_int_equal(exit_decode(r.b, 8, &got), FRAME_E_TRUNCATED);
	assert_int_equal(exit_decode(r.b, r.n - 1, &got), FRAME_E_TRUNCATED);
	raw_u8(&r, 'x');
	assert_int_equal(exit_decode(r.b, r.n, &got), FRAME_E_TRAILING);
}

static void
test_error_rejects(void **state)
{
	struct error_info	got;
	struct raw		r;
	char			text[ERROR_MAX_TEXT + 2];

	(void)state;
	memset(&r, 0, sizeof(r));
	raw_u16(&r, ERR_PROTOCOL);
	raw_u16(&r, 257);
	memset(text, 't', sizeof(text));
	raw_bytes(&r, text, 257);
	assert_int_equal(error_decode(r.b, r.n, &got), FRAME_E_STRING);
	assert_int_equal(error_decode(r.b, 3, &got), FRAME_E_TRUNCATED);

	memset(&r, 0, sizeof(r));
	raw_u16(&r, ERR_PROTOCOL);
	raw_u16(&r, 3);
	raw_bytes(&r, "a\0b", 3);
	assert_int_equal(error_decode(r.b, r.n, &got), FRAME_E_NUL);
	assert_int_equal(error_decode(r.b, r.n - 1, &got), FRAME_E_TRUNCATED);
	raw_u8(&r, 'x');
	assert_int_equal(error_decode(r.b, r.n, &got), FRAME_E_TRAILING);

	text[257] = '\0';
	assert_int_equal(error_encode(ERR_PROTOCOL, text, out, sizeof(out)),
	    FRAME_E_STRING);
	text[256] = '\0';
	assert_int_equal(error_encode(ERR_PROTOCOL, text, out, sizeof(out)),
	    4 + 256);
	assert_int_equal(error_encode(ERR_PROTOCOL, "x\ty", out, sizeof(out)),
	    FRAME_E_STRING);
	assert_int_equal(error_encode(ERR_PROTOCOL, "abc", out, 6),
	    FRAME_E_SPACE);
	assert_int_equal(error_encode(ERR_PROTOCOL, "abc", out, 7), 7);
}

static void
test_strerror_texts(void **state)
{
	const char	*seen[17];
	int		 s, i;

	(void)state;
	for (s = FRAME_OK; s >= FRAME_E_SIGNAL; s--) {
		seen[-s] = frame_strerror(s);
		assert_non_null(seen[-s]);
		assert_string_not_equal(seen[-s], "unknown frame status");
		for (i = 0; i < -s; i++)
			assert_string_not_equal(seen[i], seen[-s]);
	}
	assert_string_equal(frame_strerror(FRAME_E_WINSIZE),
	    "window size out of range");
	assert_string_equal(frame_strerror(FRAME_E_SIGNAL),
	    "signal not allowed");
	assert_string_equal(frame_strerror(FRAME_E_SIGNAL - 1),
	    "unknown frame status");
	assert_string_equal(frame_strerror(1), "unknown frame status");
}

static void
test_error_texts(void **state)
{
	const char	*seen[ERR_AUTH_DUMPABLE + 1];
	int		 c, i;

	(void)state;
	for (c = ERR_PROTOCOL; c <= ERR_AUTH_DUMPABLE; c++) {
		seen[c] = frame_error_text((uint16_t)c);
		assert_string_not_equal(seen[c], "unknown error");
		assert_true(strlen(seen[c]) <= ERROR_MAX_TEXT);
		for (i = ERR_PROTOCOL; i < c; i++)
			assert_string_not_equal(seen[i], seen[c]);
		/* Every default text must pass the encoder's own rules. */
		assert_true(error_encode((uint16_t)c, NULL, out,
		    sizeof(out)) > 0);
	}
	assert_string_equal(frame_error_text(0), "unknown error");
	assert_string_equal(frame_error_text(ERR_AUTH_DUMPABLE + 1), "unknown error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_caps),
		cmocka_unit_test(test_hdr_encode_bytes),
		cmocka_unit_test(test_hdr_roundtrip_caps),
		cmocka_unit_test(test_hdr_bad_magic),
		cmocka_unit_test(test_hdr_bad_version),
		cmocka_unit_test(test_hdr_reserved),
		cmocka_unit_test(test_hdr_unknown_type),
		cmocka_unit_test(test_hdr_over_cap),
		cmocka_unit_test(test_hdr_input_32769),
		cmocka_unit_test(test_hdr_truncated),
		cmocka_unit_test(test_hdr_check_order),
		cmocka_unit_test(test_resize_wire),
		cmocka_unit_test(test_resize_length),
		cmocka_unit_test(test_resize_bounds),
		cmocka_unit_test(test_resize_encode_space),
		cmocka_unit_test(test_signal_allowed_set),
		cmocka_unit_test(test_signal_length),
		cmocka_unit_test(test_signal_encode_space),
		cmocka_unit_test(test_resize_signal_frames),
		cmocka_unit_test(test_start_seed_roundtrip),
		cmocka_unit_test(test_start_seed_wire),
		cmocka_unit_test(test_input_roundtrip),
		cmocka_unit_test(test_exit_seed_roundtrip),
		cmocka_unit_test(test_error_roundtrip),
		cmocka_unit_test(test_start_argc_0),
		cmocka_unit_test(test_start_argc_129),
		cmocka_unit_test(test_start_arg_4097),
		cmocka_unit_test(test_start_empty_first_arg),
		cmocka_unit_test(test_start_nul_in_arg),
		cmocka_unit_test(test_start_runtime_3601),
		cmocka_unit_test(test_start_trailing_byte),
		cmocka_unit_test(test_start_truncated_fixed),
		cmocka_unit_test(test_start_truncated_arg),
		cmocka_unit_test(test_start_arglen_overrun),
		cmocka_unit_test(test_start_decode_toolarge),
		cmocka_unit_test(test_start_encode_over_65536),
		cmocka_unit_test(test_start_encode_validates),
		cmocka_unit_test(test_start_encode_space),
		cmocka_unit_test(test_exit_result_too_long),
		cmocka_unit_test(test_exit_result_nul),
		cmocka_unit_test(test_exit_result_unprintable),
		cmocka_unit_test(test_exit_truncated_trailing),
		cmocka_unit_test(test_error_rejects),
		cmocka_unit_test(test_strerror_texts),
		cmocka_unit_test(test_error_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
