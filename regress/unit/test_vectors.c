/*
 * test_vectors.c: cmocka test of proto/frame.c against the shared vector
 * file regress/data/frame-vectors.txt, which the Node client's codec
 * (client/node/codec.js) is tested with too, so both ends judge every
 * frame alike.  Unprivileged test code; the file's format is in its
 * own header.  Run from the top of the tree (make check-unit does).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/frame.h"
#include "regress/framepeer.h"

#define VECTORS_FILE	"regress/data/frame-vectors.txt"
#define LINE_MAX_LEN	(2 * (FRAME_HDR_LEN + FRAME_MAX_PAYLOAD) + 512)
#define RENDER_MAX	(2 * FRAME_MAX_PAYLOAD + 1024)

static const char *const status_names[] = {
	"FRAME_OK", "FRAME_E_MAGIC", "FRAME_E_VERSION", "FRAME_E_RESERVED",
	"FRAME_E_TYPE", "FRAME_E_TOOLARGE", "FRAME_E_TRUNCATED",
	"FRAME_E_TRAILING", "FRAME_E_ARGC", "FRAME_E_ARGLEN",
	"FRAME_E_EMPTYARG0", "FRAME_E_NUL", "FRAME_E_RUNTIME",
	"FRAME_E_STRING", "FRAME_E_SPACE", "FRAME_E_WINSIZE",
	"FRAME_E_SIGNAL",
};

static char	line[LINE_MAX_LEN];
static uint8_t	bytes[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD + 64];
static uint8_t	enc[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD + 64];
static char	got[RENDER_MAX];

static const char *
status_name(int st)
{
	if (st > 0 || -st >= (int)(sizeof(status_names) /
	    sizeof(status_names[0])))
		return "FRAME_E_?";
	return status_names[-st];
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Lower-case hex, even length; returns the byte count or -1. */
static long
unhex(const char *s, size_t n, uint8_t *out, size_t outlen)
{
	size_t	i;
	int	hi, lo;

	if (n % 2 != 0 || n / 2 > outlen)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if ((hi = hexval(s[2 * i])) < 0 ||
		    (lo = hexval(s[2 * i + 1])) < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

static size_t
put_hex(char *o, const uint8_t *p, size_t n)
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < n; i++) {
		o[2 * i] = digits[p[i] >> 4];
		o[2 * i + 1] = digits[p[i] & 15];
	}
	o[2 * n] = '\0';
	return 2 * n;
}

static void
render_start(const struct start_req *r)
{
	size_t		off;
	unsigned int	i;

	off = (size_t)snprintf(got, sizeof(got), "ok start dev=%" PRIu64
	    " ino=%" PRIu64 " runtime=%" PRIu32 " args=", r->dev, r->ino,
	    r->runtime);
	for (i = 0; i < r->argc; i++) {
		if (i > 0)
			got[off++] = ',';
		off += put_hex(got + off, r->argv[i], r->arglen[i]);
	}
	got[off] = '\0';
}

static void
render_text(const char *prefix, const char *s)
{
	size_t	off;

	off = (size_t)snprintf(got, sizeof(got), "%s", prefix);
	put_hex(got + off, (const uint8_t *)s, strlen(s));
}

/*
 * Decodes one payload of TYPE into got[] (the file's rendering) and,
 * for the frame form, encodes it again into enc[]; returns the status
 * and the encoded payload length in *enclen.
 */
static int
judge(uint8_t type, const uint8_t *p, size_t n, int *enclen)
{
	struct start_req	sr;
	struct exit_info	xi;
	struct error_info	ei;
	struct winsize_req	ws;
	uint8_t			sig;
	char			pre[64];
	size_t			off;
	int			rv;

	*enclen = -1;
	switch (type) {
	case FRAME_START:
		if ((rv = start_decode(p, n, &sr)) != FRAME_OK)
			return rv;
		render_start(&sr);
		*enclen = start_encode(&sr, enc + FRAME_HDR_LEN,
		    sizeof(enc) - FRAME_HDR_LEN);
		return FRAME_OK;
	case FRAME_INPUT:
	case FRAME_OUTPUT:
		if (n > FRAME_MAX_INPUT)
			return FRAME_E_TOOLARGE;
		off = (size_t)snprintf(got, sizeof(got), "ok %s data=",
		    type == FRAME_INPUT ? "input" : "output");
		put_hex(got + off, p, n);
		memcpy(enc + FRAME_HDR_LEN, p, n);
		*enclen = (int)n;
		return FRAME_OK;
	case FRAME_EXIT:
		if ((rv = exit_decode(p, n, &xi)) != FRAME_OK)
			return rv;
		snprintf(pre, sizeof(pre), "ok exit code=%u status=%" PRIu32
		    " result=", xi.code, xi.status);
		render_text(pre, xi.result);
		*enclen = exit_encode(&xi, enc + FRAME_HDR_LEN,
		    sizeof(enc) - FRAME_HDR_LEN);
		return FRAME_OK;
	case FRAME_ERROR:
		if ((rv = error_decode(p, n, &ei)) != FRAME_OK)
			return rv;
		snprintf(pre, sizeof(pre), "ok error code=%u text=", ei.code);
		render_text(pre, ei.text);
		*enclen = error_encode(ei.code, ei.text, enc + FRAME_HDR_LEN,
		    sizeof(enc) - FRAME_HDR_LEN);
		return FRAME_OK;
	case FRAME_RESIZE:
		if ((rv = resize_decode(p, n, &ws)) != FRAME_OK)
			return rv;
		snprintf(got, sizeof(got), "ok resize rows=%u cols=%u",
		    ws.rows, ws.cols);
		*enclen = resize_encode(&ws, enc + FRAME_HDR_LEN,
		    sizeof(enc) - FRAME_HDR_LEN);
		return FRAME_OK;
	case FRAME_SIGNAL:
		if ((rv = signal_decode(p, n, &sig)) != FRAME_OK)
			return rv;
		snprintf(got, sizeof(got), "ok signal sig=%u", sig);
		*enclen = signal_encode(sig, enc + FRAME_HDR_LEN,
		    sizeof(enc) - FRAME_HDR_LEN);
		return FRAME_OK;
	default:
		return FRAME_E_TYPE;
	}
}

/* A "frame" line: header, the file's length rule, then the payload. */
static int
judge_frame(size_t n, int *enclen)
{
	struct frame_hdr	h;
	int			rv;

	*enclen = -1;
	if ((rv = frame_hdr_decode(bytes, n, &h)) != FRAME_OK)
		return rv;
	if (n - FRAME_HDR_LEN < h.len)
		return FRAME_E_TRUNCATED;
	if (n - FRAME_HDR_LEN > h.len)
		return FRAME_E_TRAILING;
	return judge(h.type, bytes + FRAME_HDR_LEN, h.len, enclen);
}

/* Checks one line; returns 1 if it was a vector. */
static int
check_line(char *s, unsigned int lineno, int *statuses)
{
	char	*w1, *w2, *expect;
	long	 n;
	int	 rv, enclen, isframe;
	uint8_t	 type = 0;

	if (*s == '\0' || *s == '#')
		return 0;
	isframe = strncmp(s, "frame ", 6) == 0;
	if (!isframe && strncmp(s, "payload ", 8) != 0)
		fail_msg("line %u: unknown kind", lineno);
	w1 = strchr(s, ' ') + 1;
	if (!isframe) {
		type = (uint8_t)strtoul(w1, &w2, 10);
		if (*w2 != ' ')
			fail_msg("line %u: bad type", lineno);
		w1 = w2 + 1;
	}
	if ((expect = strchr(w1, ' ')) == NULL)
		fail_msg("line %u: no expectation", lineno);
	n = unhex(w1, (size_t)(expect - w1), bytes, sizeof(bytes));
	if (n < 0)
		fail_msg("line %u: bad hex", lineno);
	expect++;
	rv = isframe ? judge_frame((size_t)n, &enclen) :
	    judge(type, bytes, (size_t)n, &enclen);
	if (rv != FRAME_OK) {
		if (strcmp(status_name(rv), expect) != 0)
			fail_msg("line %u: got %s, want %s", lineno,
			    status_name(rv), expect);
		statuses[-rv] = 1;
		return 1;
	}
	if (strcmp(got, expect) != 0)
		fail_msg("line %u: got '%s', want '%s'", lineno, got, expect);
	if (isframe) {
		assert_true(enclen >= 0);
		frame_hdr_encode(enc, bytes[5], (uint32_t)enclen);
		if ((size_t)enclen + FRAME_HDR_LEN != (size_t)n ||
		    memcmp(enc, bytes, (size_t)n) != 0)
			fail_msg("line %u: encodes to other bytes", lineno);
	}
	statuses[0] = 1;
	return 1;
}

static void
test_vector_file(void **state)
{
	FILE		*f;
	unsigned int	 lineno = 0, nvec = 0, i;
	int		 statuses[17] = { 0 };
	size_t		 len;

	(void)state;
	if ((f = fopen(VECTORS_FILE, "r")) == NULL)
		fail_msg("cannot open %s (run from the top of the tree)",
		    VECTORS_FILE);
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		len = strlen(line);
		if (len == 0 || line[len - 1] != '\n')
			fail_msg("line %u: too long or unterminated", lineno);
		line[len - 1] = '\0';
		nvec += (unsigned int)check_line(line, lineno, statuses);
	}
	(void)fclose(f);
	assert_true(nvec >= 100);
	/* Every status but FRAME_E_SPACE (encoders only) has a vector. */
	for (i = 0; i < 17; i++)
		if (i != (unsigned int)-FRAME_E_SPACE && !statuses[i])
			fail_msg("no vector for %s", status_names[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
