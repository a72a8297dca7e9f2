/*
 * frame.c: encoders and decoders of the client wire protocol
 * (docs/PROTOCOL.md).  The decoders run in the unprivileged relay on
 * bytes from an untrusted client; the encoders run in the relay and the
 * client helper.  Never linked into the root parent.
 *
 * Every decoder checks bounds subtractively against the bytes that
 * remain, so no length from the wire is ever added to anything.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/frame.h"

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint64_t
get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

/*
 * Result and error texts end up in logs and on a person's terminal:
 * only printable ASCII, so no control sequence can ride along.
 * FRAME_OK if so.
 */
static int
frame_text_check(const uint8_t *p, size_t len)
{
	size_t	i;

	if (memchr(p, '\0', len) != NULL)
		return FRAME_E_NUL;
	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return FRAME_E_STRING;
	return FRAME_OK;
}

/* A type's largest payload; 0 for unknown types. */
static uint32_t
frame_type_cap(uint8_t type)
{
	switch (type) {
	case FRAME_START:
		return FRAME_MAX_PAYLOAD;
	case FRAME_INPUT:
	case FRAME_OUTPUT:
		return FRAME_MAX_INPUT;
	case FRAME_EXIT:
		return EXIT_FIXED_LEN + EXIT_MAX_RESULT;
	case FRAME_ERROR:
		return ERROR_FIXED_LEN + ERROR_MAX_TEXT;
	case FRAME_RESIZE:
		return RESIZE_LEN;
	case FRAME_SIGNAL:
		return SIGNAL_LEN;
	default:
		return 0;
	}
}

int
frame_hdr_decode(const uint8_t *buf, size_t len, struct frame_hdr *hdr)
{
	uint32_t	plen;

	if (len < FRAME_HDR_LEN)
		return FRAME_E_TRUNCATED;
	if (memcmp(buf, FRAME_MAGIC, 4) != 0)
		return FRAME_E_MAGIC;
	if (buf[4] != FRAME_VERSION)
		return FRAME_E_VERSION;
	if (buf[6] != 0 || buf[7] != 0)
		return FRAME_E_RESERVED;
	if (frame_type_cap(buf[5]) == 0)
		return FRAME_E_TYPE;
	plen = get32(buf + 8);
	if (plen > frame_type_cap(buf[5]))
		return FRAME_E_TOOLARGE;
	hdr->type = buf[5];
	hdr->len = plen;
	return FRAME_OK;
}

void
frame_hdr_encode(uint8_t out[FRAME_HDR_LEN], uint8_t type, uint32_t len)
{
	memcpy(out, FRAME_MAGIC, 4);
	out[4] = FRAME_VERSION;
	out[5] = type;
	out[6] = 0;
	out[7] = 0;
	put32(out + 8, len);
}

/* One argument: the rules shared by start_decode() and start_encode(). */
static int
check_arg(const uint8_t *p, size_t len, unsigned int idx)
{
	if (len > START_MAX_ARGLEN)
		return FRAME_E_ARGLEN;
	if (idx == 0 && len == 0)
		return FRAME_E_EMPTYARG0;
	if (len > 0 && memchr(p, '\0', len) != NULL)
		return FRAME_E_NUL;
	return FRAME_OK;
}

int
start_decode(const uint8_t *buf, size_t len, struct start_req *req)
{
	const uint8_t	*p, *end;
	uint16_t	 alen;
	unsigned int	 i;
	int		 rv;

	if (len > FRAME_MAX_PAYLOAD)
		return FRAME_E_TOOLARGE;
	if (len < START_FIXED_LEN)
		return FRAME_E_TRUNCATED;
	req->dev = get64(buf);
	req->ino = get64(buf + 8);
	req->runtime = get32(buf + 16);
	req->argc = get16(buf + 20);
	if (req->runtime > START_MAX_RUNTIME)
		return FRAME_E_RUNTIME;
	if (req->argc < 1 || req->argc > START_MAX_ARGS)
		return FRAME_E_ARGC;

	p = buf + START_FIXED_LEN;
	end = buf + len;
	for (i = 0; i < req->argc; i++) {
		if (end - p < 2)
			return FRAME_E_TRUNCATED;
		alen = get16(p);
		p += 2;
		if (alen > START_MAX_ARGLEN)
			return FRAME_E_ARGLEN;
		if (alen > end - p)
			return FRAME_E_TRUNCATED;
		if ((rv = check_arg(p, alen, i)) != FRAME_OK)
			return rv;
		req->argv[i] = p;
		req->arglen[i] = alen;
		p += alen;
	}
	if (p != end)
		return FRAME_E_TRAILING;
	return FRAME_OK;
}

int
start_encode(const struct start_req *req, uint8_t *buf, size_t len)
{
	size_t		need, off;
	unsigned int	i;
	int		rv;

	if (req->runtime > START_MAX_RUNTIME)
		return FRAME_E_RUNTIME;
	if (req->argc < 1 || req->argc > START_MAX_ARGS)
		return FRAME_E_ARGC;
	need = START_FIXED_LEN;
	for (i = 0; i < req->argc; i++) {
		if ((rv = check_arg(req->argv[i], req->arglen[i], i)) !=
		    FRAME_OK)
			return rv;
		/* Both terms are small; the cap is checked before adding. */
		if ((size_t)req->arglen[i] + 2 > FRAME_MAX_PAYLOAD - need)
			return FRAME_E_TOOLARGE;
		need += 2 + (size_t)req->arglen[i];
	}
	if (need > len)
		return FRAME_E_SPACE;

	put64(buf, req->dev);
	put64(buf + 8, req->ino);
	put32(buf + 16, req->runtime);
	put16(buf + 20, req->argc);
	off = START_FIXED_LEN;
	for (i = 0; i < req->argc; i++) {
		put16(buf + off, req->arglen[i]);
		off += 2;
		if (req->arglen[i] > 0)
			memcpy(buf + off, req->argv[i], req->arglen[i]);
		off += req->arglen[i];
	}
	return (int)need;
}

int
exit_encode(const struct exit_info *ei, uint8_t *buf, size_t len)
{
	size_t	rlen;
	int	rv;

	rlen = strnlen(ei->result, sizeof(ei->result));
	if (rlen > EXIT_MAX_RESULT)
		return FRAME_E_STRING;
	if ((rv = frame_text_check((const uint8_t *)ei->result, rlen)) !=
	    FRAME_OK)
		return rv;
	if (len < EXIT_FIXED_LEN || rlen > len - EXIT_FIXED_LEN)
		return FRAME_E_SPACE;
	buf[0] = ei->code;
	put32(buf + 1, ei->status);
	put32(buf + 5, (uint32_t)rlen);
	memcpy(buf + EXIT_FIXED_LEN, ei->result, rlen);
	return (int)(EXIT_FIXED_LEN + rlen);
}

/* A NULL text sends the default text of the code. */
int
error_encode(uint16_t code, const char *text, uint8_t *buf, size_t len)
{
	size_t	tlen;
	int	rv;

	if (text == NULL)
		text = frame_error_text(code);
	tlen = strnlen(text, ERROR_MAX_TEXT + 1);
	if (tlen > ERROR_MAX_TEXT)
		return FRAME_E_STRING;
	if ((rv = frame_text_check((const uint8_t *)text, tlen)) != FRAME_OK)
		return rv;
	if (len < ERROR_FIXED_LEN || tlen > len - ERROR_FIXED_LEN)
		return FRAME_E_SPACE;
	put16(buf, code);
	put16(buf + 2, (uint16_t)tlen);
	memcpy(buf + ERROR_FIXED_LEN, text, tlen);
	return (int)(ERROR_FIXED_LEN + tlen);
}

int
resize_decode(const uint8_t *buf, size_t len, struct winsize_req *ws)
{
	if (len < RESIZE_LEN)
		return FRAME_E_TRUNCATED;
	if (len > RESIZE_LEN)
		return FRAME_E_TRAILING;
	if (!winsize_valid(get16(buf), get16(buf + 2)))
		return FRAME_E_WINSIZE;
	ws->rows = get16(buf);
	ws->cols = get16(buf + 2);
	return FRAME_OK;
}

int
resize_encode(const struct winsize_req *ws, uint8_t *buf, size_t len)
{
	if (!winsize_valid(ws->rows, ws->cols))
		return FRAME_E_WINSIZE;
	if (len < RESIZE_LEN)
		return FRAME_E_SPACE;
	put16(buf, ws->rows);
	put16(buf + 2, ws->cols);
	return RESIZE_LEN;
}

int
signal_decode(const uint8_t *buf, size_t len, uint8_t *sig)
{
	if (len < SIGNAL_LEN)
		return FRAME_E_TRUNCATED;
	if (len > SIGNAL_LEN)
		return FRAME_E_TRAILING;
	if (!signal_allowed(buf[0]))
		return FRAME_E_SIGNAL;
	*sig = buf[0];
	return FRAME_OK;
}

const char *
frame_strerror(int status)
{
	switch (status) {
	case FRAME_OK:
		return "ok";
	case FRAME_E_MAGIC:
		return "bad frame magic";
	case FRAME_E_VERSION:
		return "unsupported frame version";
	case FRAME_E_RESERVED:
		return "reserved header bytes not zero";
	case FRAME_E_TYPE:
		return "unknown frame type";
	case FRAME_E_TOOLARGE:
		return "payload over the limit of its type";
	case FRAME_E_TRUNCATED:
		return "payload truncated";
	case FRAME_E_TRAILING:
		return "trailing bytes after payload";
	case FRAME_E_ARGC:
		return "argument count out of range";
	case FRAME_E_ARGLEN:
		return "argument too long";
	case FRAME_E_EMPTYARG0:
		return "empty first argument";
	case FRAME_E_NUL:
		return "NUL byte in string";
	case FRAME_E_RUNTIME:
		return "runtime limit out of range";
	case FRAME_E_STRING:
		return "string too long or not printable";
	case FRAME_E_SPACE:
		return "output buffer too small";
	case FRAME_E_WINSIZE:
		return "window size out of range";
	case FRAME_E_SIGNAL:
		return "signal not allowed";
	default:
		return "unknown frame status";
	}
}
