/*
 * status.c: what the root parent tells systemd of its sessions (root):
 * the STATUS= line (sessions in use and the signal hint queue, from the
 * parent's own counters) and one structured journal record per session.
 *
 * Every relay message and hint may change the line, but each notification
 * is work for PID 1 at the moment it is starting or checking a session.
 * So the line is sent at most once per STATUS_DELAY_MS, only when its
 * text changed, and always ends up showing the latest counters.  The
 * record holds the argv's count and digest, not the argv itself, so the
 * journal does not become a copy of what users typed.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#include "proto/config.h"
#include "proto/imsg.h"
#include "proto/log.h"
#include "proto/sha256.h"
#include "parent/parent.h"

#define STATUS_DELAY_MS	100

static struct event	*status_ev;
static char		 status_sent[128];

static void
status_send(int fd, short ev, void *arg)
{
	char		 line[sizeof(status_sent)];
	unsigned	 live = 0, authing = 0, depth = 0, bound = 0;
	uint64_t	 dropped = 0;
	int		 i;

	(void)fd;
	(void)ev;
	(void)arg;
	for (i = 0; i < OPTY_MAX_SLOTS; i++)
		if (parent->sessions[i].state == SS_AUTH)
			authing++;
		else if (parent->sessions[i].state != SS_FREE)
			live++;
	if (parent->bus != NULL)
		dbusd_hint_stats(parent->bus, &depth, &bound, &dropped);
	snprintf(line, sizeof(line),
	    "STATUS=%u/%d sessions, %u authenticating; hint queue %u/%u, "
	    "%llu dropped", live, OPTY_MAX_SESSIONS, authing, depth, bound,
	    (unsigned long long)dropped);
	if (strcmp(line, status_sent) == 0)
		return;
	sd_notify(0, line);
	memcpy(status_sent, line, sizeof(status_sent));
}

void
parent_status(void)
{
	struct timeval	tv = { 0, STATUS_DELAY_MS * 1000 };

	if (status_ev == NULL &&
	    (status_ev = evtimer_new(parent->base, status_send, NULL)) == NULL)
		fatalx("status timer");
	if (!evtimer_pending(status_ev, NULL) && evtimer_add(status_ev, &tv))
		fatalx("status timer");
}

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
