/*
 * status.c: the root parent's STATUS= line for systemd (root): sessions
 * in use and the signal hint queue, from the parent's own counters.
 *
 * Every relay message and hint may change the line, but each notification
 * is work for PID 1 at the moment it is starting or checking a session.
 * So the line is sent at most once per STATUS_DELAY_MS, only when its
 * text changed, and always ends up showing the latest counters.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "proto/config.h"
#include "proto/log.h"
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
