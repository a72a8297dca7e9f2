/*
 * main.c: opencode-pty-supervisor, the root parent.  Starts the
 * unprivileged relay with the socket and its channel (relayproc.c),
 * drops every capability (privdrop.c), and only then opens the system
 * bus (sd-bus connections do not survive fork).  From then on it only
 * answers the relay and follows systemd.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <systemd/sd-daemon.h>

#include "proto/config.h"
#include "proto/log.h"
#include "parent/parent.h"

static struct parent	 parent_state;
struct parent		*parent = &parent_state;

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: opencode-pty-supervisor [-v]\n");
	exit(2);
}

static void
signals_setup(void)
{
	static struct event	*ev[2];
	const int		 sigs[2] = { SIGTERM, SIGINT };
	int			 i;

	/* After the relay's start: it keeps the default. */
	if (signal(SIGHUP, SIG_IGN) == SIG_ERR)
		fatal("signal");
	for (i = 0; i < 2; i++) {
		ev[i] = evsignal_new(parent->base, sigs[i], parent_shutdown,
		    NULL);
		if (ev[i] == NULL || event_add(ev[i], NULL) == -1)
			fatalx("signal event");
	}
}

/* systemd's hints: for our own unit, or for a session's. */
static void
parent_hint(const struct hint *h, void *arg)
{
	(void)arg;
	if (h->kind == HINT_SELF_JOB)
		parent_self_job(h->job);
	else if (unit_hint(h) > 0)
		parent_status();
}

/* What a reply or hint told a step reaches the session table now. */
static void
parent_settle(void *arg)
{
	(void)arg;
	parent_session_drain();
}

static void
bus_start(void)
{
	int	 r;

	if ((r = dbusd_open(parent->base, parent_hint, parent_settle,
	    NULL, &parent->bus)) < 0)
		fatalx("system bus: %s", strerror(-r));
	parent_session_init();
	if ((r = dbusd_sweep_orphans(parent->bus)) < 0)
		fatalx("orphan sweep: %s", strerror(-r));
	log_info("orphan sweep stopped %d unit(s)", r);
	log_info("systemd %s; Landlock signal and abstract socket scoping %s",
	    dbusd_pid1_version(parent->bus), parent->landlock_unscoped ?
	    "NO (below ABI 6, allowed by " OPTY_ALLOW_UNSCOPED_ENV "=1)" :
	    "yes");
}

int
main(int argc, char *argv[])
{
	int	 ch, verbose = 0;

	while ((ch = getopt(argc, argv, "v")) != -1) {
		if (ch != 'v')
			usage();
		verbose = 1;
	}
	if (optind != argc)
		usage();
	log_init("supervisor", verbose);
	if (geteuid() != 0)
		fatalx("must run as root");
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		fatal("signal");
	parent->relay_pid = -1;
	parent->relay_fd = -1;
	features_check();
	parent->tty_gid = pty_check();
	relayproc_start(verbose);
	parent_drop_privileges();
	/* Two priorities: the session queue's (sessq.c) before the rest. */
	if ((parent->base = event_base_new()) == NULL ||
	    event_base_priority_init(parent->base, 2) == -1)
		fatalx("event_base_new");
	signals_setup();
	log_setexit(parent_failclosed);
	bus_start();
	parent->relay_ev = event_new(parent->base, parent->relay_fd,
	    EV_READ | EV_PERSIST, parent_dispatch_relay, NULL);
	if (parent->relay_ev == NULL || event_add(parent->relay_ev, NULL))
		fatalx("relay event");
	sd_notify(0, "READY=1");
	parent_status();
	log_info("ready on %s", OPTY_SOCKET_PATH);
	event_base_dispatch(parent->base);
	fatalx("event loop ended");
}
