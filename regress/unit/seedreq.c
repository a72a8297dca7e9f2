/*
 * seedreq.c: the seed's start request, shared by the cmocka tests of the
 * frame codec and the imsg start payload (test only, no privilege).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <string.h>

#include "regress/unit/seedreq.h"

void
set_arg(struct start_req *req, unsigned int i, const void *p, size_t len)
{
	req->argv[i] = p;
	req->arglen[i] = (uint16_t)len;
}

void
seed_req(struct start_req *req)
{
	memset(req, 0, sizeof(*req));
	req->dev = 12;
	req->ino = 34;
	req->runtime = 60;
	req->argc = 3;
	req->rows = WINSIZE_ROWS_DEFAULT;	/* the relay's default */
	req->cols = WINSIZE_COLS_DEFAULT;
	set_arg(req, 0, "printf", 6);
	set_arg(req, 1, "%s", 2);
	set_arg(req, 2, "hello world", 11);
}
