/*
 * req.c: the request layer of dbusd/: one request to PID 1 in flight
 * without blocking the root parent's event loop.  It calls nothing above
 * it: bus.c drives it (req_deliver() from its loop) and call.c, ident.c,
 * unit.c build on it.  A request is one or two method calls sent back to
 * back (PID 1 answers one connection's calls in order, so the second
 * call sees systemd no earlier than the first).  Replies are kept until
 * both are in; the request is then handed to its owner from bus_run(),
 * after sd_bus_process() has returned, like the signal hints.  Freeing a
 * request cancels whatever part of it is still pending.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "dbusd/priv.h"
#include "proto/log.h"

/*
 * A method error as -errno, for every caller: NoSuchUnit is -ENOENT;
 * NotReferenced (UnrefUnit of a reference already dropped) -EALREADY.
 */
int
req_errno(const sd_bus_error *e, int r)
{
	if (sd_bus_error_has_name(e, SD_NOSUCHUNIT))
		return -ENOENT;
	if (sd_bus_error_has_name(e, SD_NOTREFERENCED))
		return -EALREADY;
	return r < 0 ? r : -EIO;
}

/*
 * Asks the loop (bus.c) for a turn of sd_bus_process() soon: a call was
 * queued (to be flushed, its timeout armed) or signals may be waiting.
 */
void
req_kick(struct dbusd *d)
{
	struct timeval	zero = { 0, 0 };

	if (d->ev_kick != NULL)		/* NULL while still opening */
		event_add(d->ev_kick, &zero);
}

struct dbusd_req *
req_new(struct dbusd *d)
{
	struct dbusd_req	*req;

	if ((req = calloc(1, sizeof(*req))) == NULL)
		return NULL;
	req->d = d;
	return req;
}

static int
req_reply(sd_bus_message *m, void *arg, sd_bus_error *unused)
{
	struct dbusd_req	*req = arg;
	sd_bus_slot		*slot;
	size_t			 i;

	(void)unused;
	slot = sd_bus_get_current_slot(req->d->bus);
	for (i = 0; i < req->ncalls; i++)
		if (req->slot[i] == slot && req->reply[i] == NULL)
			break;
	if (i == req->ncalls)
		fatalx("D-Bus reply for no call of this request");
	req->reply[i] = sd_bus_message_ref(m);
	if (++req->nreplies == req->ncalls) {
		req->complete = 1;
		TAILQ_INSERT_TAIL(&req->d->done, req, entry);
	}
	return 1;
}

/* Sends m (the request keeps its own reference) as the next call. */
int
req_call(struct dbusd_req *req, sd_bus_message *m)
{
	size_t	 i = req->ncalls;
	int	 r;

	if (i >= REQ_MAX_CALLS || req->complete)
		return -EINVAL;
	r = sd_bus_call_async(req->d->bus, &req->slot[i], m, req_reply, req,
	    DBUSD_CALL_USEC);
	if (r < 0)
		return r;
	req->ncalls++;
	req_kick(req->d);	/* flush, and arm the reply timeout */
	return 0;
}

/* The i-th reply, or -errno for a method error (NoSuchUnit: -ENOENT). */
int
req_result(const struct dbusd_req *req, size_t i, sd_bus_message **m)
{
	const sd_bus_error	*e;

	if (!req->complete || i >= req->ncalls)
		return -EINVAL;
	*m = req->reply[i];
	if (!sd_bus_message_is_method_error(*m, NULL))
		return 0;
	e = sd_bus_message_get_error(*m);
	return req_errno(e, -sd_bus_message_get_errno(*m));
}

void
dbusd_req_free(struct dbusd_req *req)
{
	size_t	 i;

	if (req == NULL)
		return;
	if (req->complete && !req->delivered)
		TAILQ_REMOVE(&req->d->done, req, entry);
	for (i = 0; i < REQ_MAX_CALLS; i++) {
		sd_bus_slot_unref(req->slot[i]);	/* cancels if pending */
		sd_bus_message_unref(req->reply[i]);
	}
	sd_bus_message_unref(req->msg);	/* drops its descriptor copies */
	free(req);
}

/*
 * A request nobody waits for (stop, reset, drop): only a failure is
 * news; the unit gone, or the reference dropped already, is none.
 */
static void
req_orphan_done(struct dbusd_req *req)
{
	sd_bus_message	*m;
	int		 r;

	if ((r = req_result(req, 0, &m)) < 0 && r != -ENOENT && r != -EALREADY)
		log_warnx("%s: %s", req->what, strerror(-r));
	dbusd_req_free(req);
}

/* From bus_run(): completed requests go to their owners, in order. */
void
req_deliver(struct dbusd *d)
{
	struct dbusd_req	*req;

	while (!d->closing && (req = TAILQ_FIRST(&d->done)) != NULL) {
		TAILQ_REMOVE(&d->done, req, entry);
		req->delivered = 1;
		if (req->cb != NULL)
			req->cb(req, req->arg);
		else
			req_orphan_done(req);
	}
}

/*
 * For the few callers that may block (start-up, shutdown, the probe
 * tool): runs the bus until this request is complete.  Other requests
 * completing meanwhile wait in the queue for bus_run().
 */
int
req_wait(struct dbusd_req *req)
{
	sd_bus	*bus = req->d->bus;
	int	 r;

	while (!req->complete) {
		if ((r = sd_bus_process(bus, NULL)) < 0)
			return r;
		if (r > 0)
			continue;
		if ((r = sd_bus_wait(bus, UINT64_MAX)) < 0 && r != -EINTR)
			return r;
	}
	TAILQ_REMOVE(&req->d->done, req, entry);
	req->delivered = 1;
	req_kick(req->d);	/* others may have completed or queued hints */
	return 0;
}
