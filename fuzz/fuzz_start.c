/*
 * fuzz_start.c: libFuzzer harness of the start-frame payload decoder
 * (proto/frame.c start_decode), which the relay runs on untrusted client
 * bytes.  Test code only.
 *
 * Properties of every payload start_decode() accepts:
 *  - every limit of docs/PROTOCOL.md holds: argc 1..128, each argument
 *    at most 4096 bytes with no NUL, the first not empty, runtime at
 *    most 3600, arguments in order and nothing after the last;
 *  - start_encode() gives back exactly the same bytes (the encoding is
 *    canonical), and refuses a buffer one byte short;
 *  - the relay's next step holds: with a window size in 1..4096 (from
 *    a RESIZE frame or the 24x80 default; here derived from the input)
 *    msg_start_encode() accepts the request, its size is within the
 *    START_REQ table entry, and the parent's msg_start_decode() gives
 *    back the same request and size; with rows or cols 0 or 4097 it
 *    refuses with FRAME_E_WINSIZE.
 * Every refusal must be one of the documented FRAME_E_* codes, and a
 * payload over 65536 bytes must be FRAME_E_TOOLARGE.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "proto/frame.h"
#include "proto/imsg.h"
/* NOLINTNEXTLINE(bugprone-suspicious-include): msgtab_lookup() is static */
#include "proto/imsg.c"

static uint8_t	out[FRAME_MAX_PAYLOAD + 64];
static uint8_t	mbuf[sizeof(struct msg_start) + FRAME_MAX_PAYLOAD];

static void
check_limits(const struct start_req *req, const uint8_t *data, size_t size)
{
	const uint8_t	*p = data + START_FIXED_LEN;
	unsigned int	 i;

	PROP(size >= START_FIXED_LEN && size <= FRAME_MAX_PAYLOAD);
	PROP(req->argc >= 1 && req->argc <= START_MAX_ARGS);
	PROP(req->runtime <= START_MAX_RUNTIME);
	for (i = 0; i < req->argc; i++) {
		PROP(req->arglen[i] <= START_MAX_ARGLEN);
		PROP(i > 0 || req->arglen[i] > 0);
		PROP((size_t)(data + size - p) >= 2u + req->arglen[i]);
		PROP(req->argv[i] == p + 2);
		PROP(req->arglen[i] == 0 ||
		    memchr(req->argv[i], '\0', req->arglen[i]) == NULL);
		p += 2 + req->arglen[i];
	}
	PROP(p == data + size);
}

/* The relay re-encodes for the parent, which decodes it again. */
static void
check_relay_path(struct start_req *req)
{
	const struct msgtab_ent	*ent;
	struct start_args	 args;
	size_t			 need = sizeof(struct msg_start);
	unsigned int		 i;
	int			 m;

	for (i = 0; i < req->argc; i++)
		need += (size_t)req->arglen[i] + 1;
	req->rows = 0;
	req->cols = 80;
	PROP(msg_start_encode(req, mbuf, sizeof(mbuf)) == FRAME_E_WINSIZE);
	req->rows = 24;
	req->cols = WINSIZE_MAX + 1;
	PROP(msg_start_encode(req, mbuf, sizeof(mbuf)) == FRAME_E_WINSIZE);
	/* Any valid size, chosen by the input's device number. */
	req->rows = (uint16_t)(1 + (req->dev & 0xfff));
	req->cols = (uint16_t)(1 + (req->dev >> 12 & 0xfff));
	m = msg_start_encode(req, mbuf, sizeof(mbuf));
	PROP(m > 0 && (size_t)m == need);
	PROP((ent = msgtab_lookup(IMSG_START_REQ)) != NULL);
	PROP((uint32_t)m >= ent->minlen && (uint32_t)m <= ent->maxlen);

	memset(&args, 0, sizeof(args));
	PROP(msg_start_decode(mbuf, (size_t)m, &args) == 0);
	PROP(args.fixed.dev == req->dev && args.fixed.ino == req->ino);
	PROP(args.fixed.runtime == req->runtime);
	PROP(args.fixed.argc == req->argc);
	PROP(args.fixed.rows == req->rows && args.fixed.cols == req->cols);
	PROP(args.fixed.zero == 0);
	for (i = 0; i < req->argc; i++) {
		PROP(strlen(args.argv[i]) == req->arglen[i]);
		PROP(memcmp(args.argv[i], req->argv[i], req->arglen[i]) == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct start_req	req;
	int			rv, n;

	memset(&req, 0, sizeof(req));
	rv = start_decode(data, size, &req);
	if (size > FRAME_MAX_PAYLOAD)
		PROP(rv == FRAME_E_TOOLARGE);
	if (rv != FRAME_OK) {
		PROP(rv >= FRAME_E_RUNTIME && rv <= FRAME_E_TOOLARGE);
		return 0;
	}

	check_limits(&req, data, size);

	n = start_encode(&req, out, sizeof(out));
	PROP(n >= 0 && (size_t)n == size);
	PROP(memcmp(out, data, size) == 0);
	PROP(start_encode(&req, out, size - 1) == FRAME_E_SPACE);

	check_relay_path(&req);
	return 0;
}
