/*
 * journal.c: one structured journal record per session (root parent).
 * The argv itself is not logged, only its count and a digest, so the
 * journal does not become a copy of what users typed.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdio.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "proto/imsg.h"
#include "parent/parent.h"
#include "proto/sha256.h"

/* SHA-256 over each argument with its terminating NUL. */
void
argv_digest(const struct start_args *a, char out[65])
{
	struct sha256_ctx	 ctx;
	uint8_t			 d[SHA256_DIGEST_LEN];
	uint32_t		 i;

	sha256_init(&ctx);
	for (i = 0; i < a->fixed.argc; i++)
		sha256_update(&ctx, a->argv[i], strlen(a->argv[i]) + 1);
	sha256_final(&ctx, d);
	sha256_hex(d, out);
}

void
journal_session(const struct session *s)
{
	char	 inv[33];
	int	 i;

	for (i = 0; i < 16; i++)
		snprintf(inv + 2 * i, 3, "%02x", s->invocation[i]);
	sd_journal_send("MESSAGE=session %u ended: unit %s result %s "
	    "code %d status %d", s->sid, s->u.name[0] ? s->u.name : "-",
	    s->u.result.result[0] ? s->u.result.result : "none",
	    s->u.result.exec_code, s->u.result.exec_status,
	    "PRIORITY=6",
	    "OPTY_UNIT=%s", s->u.name,
	    "OPTY_CLIENT_INVOCATION_ID=%s", inv,
	    "OPTY_CLIENT_PID=%ld", (long)s->client_pid,
	    "OPTY_ARGC=%u", s->argc,
	    "OPTY_ARGV_SHA256=%s", s->argv_hash,
	    "OPTY_RUNTIME_SEC=%u", s->runtime,
	    "OPTY_RESULT=%s", s->u.result.result,
	    "OPTY_EXIT_CODE=%d", s->u.result.exec_code,
	    "OPTY_EXIT_STATUS=%d", s->u.result.exec_status,
	    "OPTY_BYTES_IN=%llu", (unsigned long long)s->bytes_in,
	    "OPTY_BYTES_OUT=%llu", (unsigned long long)s->bytes_out,
	    "OPTY_LANDLOCK=%s", parent->landlock,
	    NULL);
}
