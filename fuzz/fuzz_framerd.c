/*
 * fuzz_framerd.c: libFuzzer harness of the relay's incremental frame
 * reader (proto/framerd.c), which in production eats bytes from an
 * untrusted client.  Test code only.
 *
 * Input: one byte n (low 4 bits), then n big-endian 16-bit chunk sizes,
 * then the stream.  The stream is fed twice: in one piece, and in chunks
 * of those sizes (cyclically; 0 is an empty feed), the way a
 * non-blocking read may cut it.  Properties checked on every call:
 *  - a feed never takes more than it was given, and never stops short
 *    unless a frame became ready;
 *  - a ready frame passes frame_hdr_decode(), is within its type's cap,
 *    and is exactly the bytes taken since the previous frame;
 *  - while a frame is ready, feeding takes nothing;
 *  - an error sticks: every later feed returns the same error;
 *  - a ready frame rebuilt with frame_hdr_encode() and its payload is
 *    the same bytes, and a fresh reader fed them in one piece (with one
 *    byte more) takes exactly the frame and yields the same frame;
 *  - how the stream is cut changes nothing: same frames, same error;
 *  - a ready RESIZE (6) or SIGNAL (7) frame goes through its payload
 *    decoder: accepted exactly when the length is 4 / 1 and the values
 *    are in range (rows, cols 1..4096; a signal of the fixed set), an
 *    accepted payload re-encodes to the same bytes, and a refusal is
 *    the documented code, which the encoder gives for the same values.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "proto/frame.h"
/* NOLINTNEXTLINE(bugprone-suspicious-include): frame_type_cap() is static */
#include "proto/frame.c"
#include "regress/framepeer.h"

#define MAX_SPLITS	15
#define MAX_STREAM	(1u << 17)	/* longer inputs are skipped */
#define MAX_FRAMES	(MAX_STREAM / FRAME_HDR_LEN + 1)

struct outcome {
	size_t	nframes;
	size_t	end[MAX_FRAMES];	/* stream offset after each frame */
	long	err;			/* 0, or the sticky error */
	size_t	tail;			/* bytes held in an unfinished frame */
};

struct feeder {
	const uint8_t	*stream;
	size_t		 len;
	size_t		 pos;		/* bytes the reader has taken */
	size_t		 fstart;	/* where the current frame began */
	struct outcome	*out;
};

static struct frame_reader	fr, fr2;
static uint8_t			rebuilt[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD + 1];
static struct outcome		whole, split;

/* The rebuilt frame is canonical and reads back the same. */
static void
check_reencode(const uint8_t *orig, size_t flen)
{
	long	r;

	frame_hdr_encode(rebuilt, fr.hdr.type, fr.hdr.len);
	if (fr.hdr.len > 0)
		memcpy(rebuilt + FRAME_HDR_LEN, fr.payload, fr.hdr.len);
	PROP(memcmp(rebuilt, orig, flen) == 0);

	rebuilt[flen] = 0x5a;		/* a byte of the next frame */
	frame_reader_init(&fr2);
	r = frame_reader_feed(&fr2, rebuilt, flen + 1);
	PROP(r == (long)flen);
	PROP(fr2.ready);
	PROP(fr2.hdr.type == fr.hdr.type && fr2.hdr.len == fr.hdr.len);
	PROP(fr2.have == fr.have);
	PROP(memcmp(fr2.payload, fr.payload, fr.have) == 0);
}

static void
check_resize(const uint8_t *p, uint32_t len)
{
	struct winsize_req	ws, raw;
	uint8_t			enc[RESIZE_LEN + 1];
	int			r, valid;

	memset(&ws, 0, sizeof(ws));
	r = resize_decode(p, len, &ws);
	if (len < RESIZE_LEN) {
		PROP(r == FRAME_E_TRUNCATED);
		return;
	}
	PROP(len == RESIZE_LEN);	/* the header cap */
	raw.rows = get16(p);
	raw.cols = get16(p + 2);
	valid = raw.rows >= 1 && raw.rows <= 4096 && raw.cols >= 1 &&
	    raw.cols <= 4096;
	PROP(valid == winsize_valid(raw.rows, raw.cols));
	enc[RESIZE_LEN] = 0xa5;
	if (!valid) {
		PROP(r == FRAME_E_WINSIZE);
		PROP(ws.rows == 0 && ws.cols == 0);
		PROP(resize_encode(&raw, enc, sizeof(enc)) == FRAME_E_WINSIZE);
		return;
	}
	PROP(r == FRAME_OK);
	PROP(ws.rows == raw.rows && ws.cols == raw.cols);
	PROP(resize_encode(&ws, enc, sizeof(enc)) == RESIZE_LEN);
	PROP(memcmp(enc, p, RESIZE_LEN) == 0 && enc[RESIZE_LEN] == 0xa5);
	PROP(resize_encode(&ws, enc, RESIZE_LEN - 1) == FRAME_E_SPACE);
}

static void
check_signal(const uint8_t *p, uint32_t len)
{
	static const uint8_t	set[] = { 1, 2, 3, 9, 10, 12, 15, 18, 19,
				    20, 28 };
	uint8_t			sig = 0, enc[2];
	int			r, valid;

	r = signal_decode(p, len, &sig);
	if (len < SIGNAL_LEN) {
		PROP(r == FRAME_E_TRUNCATED);
		return;
	}
	PROP(len == SIGNAL_LEN);	/* the header cap */
	valid = memchr(set, p[0], sizeof(set)) != NULL;
	PROP(valid == signal_allowed(p[0]));
	enc[1] = 0xa5;
	if (!valid) {
		PROP(r == FRAME_E_SIGNAL && sig == 0);
		PROP(signal_encode(p[0], enc, sizeof(enc)) == FRAME_E_SIGNAL);
		return;
	}
	PROP(r == FRAME_OK && sig == p[0]);
	PROP(signal_encode(sig, enc, sizeof(enc)) == SIGNAL_LEN);
	PROP(enc[0] == p[0] && enc[1] == 0xa5);
	PROP(signal_encode(sig, enc, 0) == FRAME_E_SPACE);
}

static void
check_ready(struct feeder *fd)
{
	struct frame_hdr	h;
	const uint8_t		*orig = fd->stream + fd->fstart;
	size_t			 flen = fd->pos - fd->fstart;
	uint32_t		 cap;

	memset(&h, 0, sizeof(h));
	PROP(frame_hdr_decode(fr.hbuf, FRAME_HDR_LEN, &h) == FRAME_OK);
	PROP(h.type == fr.hdr.type && h.len == fr.hdr.len);
	cap = frame_type_cap(fr.hdr.type);
	PROP(cap > 0 && fr.hdr.len <= cap);
	PROP(fr.hhave == FRAME_HDR_LEN && fr.have == fr.hdr.len);
	PROP(flen == FRAME_HDR_LEN + (size_t)fr.hdr.len);
	PROP(memcmp(orig, fr.hbuf, FRAME_HDR_LEN) == 0);
	PROP(memcmp(orig + FRAME_HDR_LEN, fr.payload, fr.have) == 0);

	/* Ready: nothing more is taken until frame_reader_next(). */
	PROP(frame_reader_feed(&fr, fd->stream + fd->pos,
	    fd->len - fd->pos) == 0);
	PROP(fr.ready && fr.have == fr.hdr.len);

	check_reencode(orig, flen);
	if (fr.hdr.type == FRAME_RESIZE)
		check_resize(fr.payload, fr.hdr.len);
	else if (fr.hdr.type == FRAME_SIGNAL)
		check_signal(fr.payload, fr.hdr.len);

	PROP(fd->out->nframes < MAX_FRAMES);
	fd->out->end[fd->out->nframes++] = fd->pos;
	fd->fstart = fd->pos;
	frame_reader_next(&fr);
	PROP(!fr.ready && fr.hhave == 0 && fr.have == 0);
}

static void
check_sticky(struct feeder *fd, long err, size_t rest)
{
	static const uint8_t	good[FRAME_HDR_LEN] = {
		'O', 'P', 'T', 'Y', FRAME_VERSION, FRAME_INPUT, 0, 0, 0, 0, 0, 0
	};
	struct frame_hdr	h;

	/* Errors come only from a whole header, and only from it. */
	PROP(!fr.ready && fr.hhave == FRAME_HDR_LEN && fr.have == 0);
	PROP(frame_hdr_decode(fr.hbuf, FRAME_HDR_LEN, &h) == err);
	PROP(frame_reader_feed(&fr, fd->stream + fd->pos, rest) == err);
	PROP(frame_reader_feed(&fr, good, 0) == err);
	PROP(frame_reader_feed(&fr, good, sizeof(good)) == err);
	PROP(!fr.ready);
}

/* Feeds one chunk; returns 0, or the error that ended the stream. */
static long
feed_chunk(struct feeder *fd, size_t chunk)
{
	size_t	off = 0;
	long	r;

	do {
		r = frame_reader_feed(&fr, fd->stream + fd->pos,
		    chunk - off);
		if (r < 0) {
			PROP(r >= FRAME_E_SPACE);
			check_sticky(fd, r, chunk - off);
			return r;
		}
		PROP((size_t)r <= chunk - off);
		off += (size_t)r;
		fd->pos += (size_t)r;
		if (fr.ready)
			check_ready(fd);
		else
			PROP(off == chunk);
	} while (off < chunk);
	return 0;
}

static void
run(const uint8_t *stream, size_t len, const uint8_t *splits,
    size_t nsplit, struct outcome *out)
{
	struct feeder	fd;
	size_t		k = 0, chunk;
	long		err = 0;

	memset(&fd, 0, sizeof(fd));
	fd.stream = stream;
	fd.len = len;
	fd.out = out;
	out->nframes = 0;
	out->err = 0;
	frame_reader_init(&fr);
	while (fd.pos < len) {
		chunk = nsplit ? get16(splits + 2 * (k++ % nsplit)) :
		    len - fd.pos;
		if (chunk > len - fd.pos)
			chunk = len - fd.pos;
		if ((err = feed_chunk(&fd, chunk)) != 0)
			break;
	}
	out->err = err;
	out->tail = fd.pos - fd.fstart;
	if (err == 0) {
		/* Every byte was taken; an unfinished frame holds the rest. */
		PROP(fd.pos == len);
		PROP(fr.hhave + fr.have == out->tail);
		PROP(!fr.ready);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t	*splits, *stream;
	size_t		 nsplit, skip, len, i;
	int		 allzero = 1;

	if (size < 1 || size > MAX_STREAM)
		return 0;
	nsplit = data[0] & MAX_SPLITS;
	skip = 1 + 2 * nsplit;
	if (size < skip)
		return 0;
	splits = data + 1;
	stream = data + skip;
	len = size - skip;
	for (i = 0; i < nsplit; i++)
		if (get16(splits + 2 * i) != 0)
			allzero = 0;
	if (allzero)		/* empty feeds only would never finish */
		nsplit = 0;

	run(stream, len, NULL, 0, &whole);
	run(stream, len, splits, nsplit, &split);

	PROP(whole.err == split.err);
	PROP(whole.nframes == split.nframes);
	for (i = 0; i < whole.nframes; i++)
		PROP(whole.end[i] == split.end[i]);
	if (whole.err == 0)
		PROP(whole.tail == split.tail);
	return 0;
}
