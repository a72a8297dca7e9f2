/*
 * bus.c: opens the root parent's system bus connection and drives it
 * from the parent's libevent loop: the top of dbusd/, called by no other
 * file of it.  Completed requests (req.c) and signal hints are handed to
 * the parent only from here, after sd_bus_process() has returned, so the
 * parent may make bus calls from its callbacks without re-entering
 * sd-bus.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "dbusd/priv.h"
#include "proto/config.h"
#include "proto/log.h"

/* Bounds one wake-up's work so a signal flood cannot starve the loop. */
#define PROCESS_MAX	256

static void
bus_rearm(struct dbusd *d)
{
	struct timeval	tv;
	struct timespec	now;
	uint64_t	when, nowu, rel;
	int		ev;

	if ((ev = sd_bus_get_events(d->bus)) < 0)
		fatalx("sd_bus_get_events: %s", strerror(-ev));
	/* Each a no-op when already so: libevent keeps that state. */
	if (ev & POLLOUT)
		event_add(d->ev_write, NULL);
	else
		event_del(d->ev_write);
	if (sd_bus_get_timeout(d->bus, &when) <= 0 || when == UINT64_MAX) {
		event_del(d->ev_timer);
		return;
	}
	/* sd-bus gives an absolute CLOCK_MONOTONIC time in microseconds. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	nowu = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
	rel = when > nowu ? when - nowu : 0;
	tv.tv_sec = (time_t)(rel / 1000000);
	tv.tv_usec = (suseconds_t)(rel % 1000000);
	event_add(d->ev_timer, &tv);
}

static void
bus_run(struct dbusd *d)
{
	int	i, r = 0;

	/* A reply is somebody's next step: it goes before queued signals. */
	for (i = 0; i < PROCESS_MAX && TAILQ_EMPTY(&d->done); i++)
		if ((r = sd_bus_process(d->bus, NULL)) <= 0)
			break;
	/* Without PID 1 the parent can neither start nor stop: fail closed. */
	if (r < 0)
		fatalx("system bus lost: %s", strerror(-r));
	req_deliver(d);
	if (d->cb != NULL)
		match_deliver(d);
	if (r > 0)
		req_kick(d);	/* more queued: come back after others ran */
	bus_rearm(d);
}

static void
bus_event_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	bus_run(arg);
}

static int
bus_attach(struct dbusd *d)
{
	int	fd;

	if ((fd = sd_bus_get_fd(d->bus)) < 0)
		return fd;
	d->ev_read = event_new(d->base, fd, EV_READ | EV_PERSIST,
	    bus_event_cb, d);
	d->ev_write = event_new(d->base, fd, EV_WRITE | EV_PERSIST,
	    bus_event_cb, d);
	d->ev_timer = evtimer_new(d->base, bus_event_cb, d);
	d->ev_kick = evtimer_new(d->base, bus_event_cb, d);
	if (d->ev_read == NULL || d->ev_write == NULL ||
	    d->ev_timer == NULL || d->ev_kick == NULL ||
	    event_add(d->ev_read, NULL) == -1)
		return -ENOMEM;
	req_kick(d);
	return 0;
}

static int
bus_setup(struct dbusd *d)
{
	struct dbusd_req	*req;
	sd_bus_message		*reply;
	int			 r;

	if ((r = sd_bus_open_system(&d->bus)) < 0)
		return r;
	/* Before anything is started: the unit property set depends on it. */
	if ((r = pid1_probe(d)) < 0)
		return r;
	/* Matches before Subscribe() and the owner lookup: nothing missed. */
	if ((r = match_add_all(d)) < 0 || (r = match_owner_lookup(d)) < 0)
		return r;
	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = call_add(req, SD_PATH, SD_MANAGER, "Subscribe", "")) == 0)
		r = req_wait(req, &reply);
	dbusd_req_free(req);
	return r < 0 ? r : bus_attach(d);
}

/*
 * Frees a bus that failed to open.  The parent never closes an open
 * one: it holds the bus until it exits (regress/tools/opty-dbusprobe.c,
 * which compiles this file, frees its own at exit, flushing it).
 */
static void
bus_free(struct dbusd *d)
{
	if (d->ev_read != NULL)
		event_free(d->ev_read);
	if (d->ev_write != NULL)
		event_free(d->ev_write);
	if (d->ev_timer != NULL)
		event_free(d->ev_timer);
	if (d->ev_kick != NULL)
		event_free(d->ev_kick);
	if (d->bus != NULL)
		sd_bus_flush_close_unref(d->bus);
	free(d);
}

int
dbusd_open(struct event_base *base, dbusd_hint_cb cb,
    dbusd_settle_cb settle, void *arg, struct dbusd **out)
{
	struct dbusd	*d;
	int		 r;

	*out = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return -errno;
	d->base = base;
	d->cb = cb;
	d->settle = settle;
	d->cb_arg = arg;
	req_init(d);
	if ((r = bus_setup(d)) < 0) {
		log_warnx("system bus: %s", strerror(-r));
		bus_free(d);
		return r;
	}
	*out = d;
	return 0;
}

void
dbusd_hint_stats(struct dbusd *d, unsigned *depth, unsigned *bound,
    uint64_t *dropped)
{
	*depth = d->q.depth;
	*bound = HINTQ_BOUND;
	*dropped = d->q.dropped;
}
