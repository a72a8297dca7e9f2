/*
 * req.c: the request layer of dbusd/: one request to PID 1 in flight
 * without blocking the root parent's event loop.  It calls nothing above
 * it: bus.c drives it (req_deliver() from its loop) and every other
 * dbusd/ file that calls PID 1 builds on it.  A request is up to
 * REQ_MAX_CALLS method calls sent back to back (PID 1 answers one
 * connection's calls in order, so each call sees systemd no earlier
 * than the one before).  Replies are kept until all are in; the request
 * is then handed to its owner from bus_run(), after sd_bus_process() has
 * returned, like the signal hints.
 * Freeing a request cancels whatever part of it is still pending.  The
 * calls of all requests waiting for replies stay within a budget below
 * the bus's limit; the rest wait their turn here, in order.
 *
 * On it, the method calls the parent makes on PID 1 (root), each with
 * the one bounded timeout and error mapping: built on systemd1 and
 * added to a request, and the property reads, whose every reply is read
 * with its type checked.  Nothing here interprets a signal.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "dbusd/priv.h"
#include "proto/log.h"

/*
 * A method error as -errno, for every caller: NoSuchUnit is -ENOENT;
 * NotReferenced (UnrefUnit of a reference already dropped) -EALREADY.
 */
static int
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

void
req_init(struct dbusd *d)
{
	TAILQ_INIT(&d->done);
	TAILQ_INIT(&d->waiting);
	d->budget = REQ_INFLIGHT_MAX;
}

/* cb NULL: nobody waits for it; a failure is logged (req_orphan_done). */
struct dbusd_req *
req_new(struct dbusd *d, dbusd_req_cb cb, void *arg)
{
	struct dbusd_req	*req;

	if ((req = calloc(1, sizeof(*req))) == NULL)
		return NULL;
	req->d = d;
	req->cb = cb;
	req->arg = arg;
	return req;
}

static void
req_answered(struct dbusd_req *req)
{
	if (++req->nreplies == req->ncalls) {
		req->complete = 1;
		TAILQ_INSERT_TAIL(&req->d->done, req, entry);
	}
}

static int req_reply(sd_bus_message *, void *, sd_bus_error *);

/* Sends the request's next call; it keeps its slot. */
static int
req_send_one(struct dbusd_req *req)
{
	size_t	 i = req->nsent;
	int	 r;

	r = sd_bus_call_async(req->d->bus, &req->slot[i], req->call[i],
	    req_reply, req, DBUSD_CALL_USEC);
	if (r < 0)
		return r;
	req->call[i] = sd_bus_message_unref(req->call[i]);
	req->nsent++;
	req->d->inflight++;
	req_kick(req->d);	/* flush, and arm the reply timeout */
	return 0;
}

/*
 * Sends the held calls of a request, in order, while the budget allows.
 * A call the bus no longer takes fails alone: that error is its answer,
 * as a reply would have been.
 */
static void
req_send_held(struct dbusd_req *req)
{
	size_t	 i;
	int	 r;

	while (req->nsent < req->ncalls &&
	    req->d->inflight < req->d->budget) {
		if ((r = req_send_one(req)) == 0)
			continue;
		i = req->nsent++;
		req->call[i] = sd_bus_message_unref(req->call[i]);
		req->err[i] = r;
		req_answered(req);
	}
}

/*
 * Calls held back go out as replies free the budget, first held first
 * sent: PID 1 still sees each request's calls back to back in order.
 */
static void
req_release(struct dbusd *d)
{
	struct dbusd_req	*req;

	while (d->inflight < d->budget &&
	    (req = TAILQ_FIRST(&d->waiting)) != NULL) {
		req_send_held(req);
		if (req->nsent < req->ncalls)
			break;
		TAILQ_REMOVE(&d->waiting, req, wentry);
	}
}

/*
 * The bus refused a call for the replies this connection already waits
 * for: its limit is below the budget (a bus set up lower than Debian's).
 * It is at most the calls in flight now, which is the budget from here
 * on.  It never grows back: the bus's limits change only with its
 * configuration, and a restart of the supervisor takes a raised one.
 */
static void
req_refused(struct dbusd *d)
{
	size_t	 now = d->inflight > 0 ? d->inflight : 1;

	if (now >= d->budget)
		return;
	if (d->budget == REQ_INFLIGHT_MAX)
		log_warnx("system bus: a call refused (LimitsExceeded) with "
		    "%zu in flight: at most %zu from now on", d->inflight + 1,
		    now);
	d->budget = now;
}

static int
req_reply(sd_bus_message *m, void *arg, sd_bus_error *unused)
{
	struct dbusd_req	*req = arg;
	struct dbusd		*d = req->d;
	sd_bus_slot		*slot;
	size_t			 i;

	(void)unused;
	slot = sd_bus_get_current_slot(d->bus);
	for (i = 0; i < req->nsent; i++)
		if (req->slot[i] == slot && req->reply[i] == NULL)
			break;
	if (i == req->nsent)
		fatalx("D-Bus reply for no call of this request");
	req->reply[i] = sd_bus_message_ref(m);
	d->inflight--;
	if (sd_bus_message_is_method_error(m, SD_BUS_ERROR_LIMITS_EXCEEDED))
		req_refused(d);
	req_answered(req);
	req_release(d);
	return 1;
}

/*
 * Adds m (the request keeps its own reference) as the request's next
 * call.  It is sent at once unless the budget of calls in flight is
 * spent or calls held earlier wait for it; then it goes in turn, and a
 * failure to send it is its answer.
 */
int
req_call(struct dbusd_req *req, sd_bus_message *m)
{
	struct dbusd	*d = req->d;
	size_t		 i = req->ncalls;
	int		 held = req->nsent < i, r;

	if (i >= REQ_MAX_CALLS || req->complete)
		return -EINVAL;
	req->call[i] = sd_bus_message_ref(m);
	req->ncalls++;
	if (!held && TAILQ_EMPTY(&d->waiting) && d->inflight < d->budget) {
		if ((r = req_send_one(req)) < 0) {
			req->call[i] = sd_bus_message_unref(req->call[i]);
			req->ncalls--;
		}
		return r;
	}
	if (!held)
		TAILQ_INSERT_TAIL(&d->waiting, req, wentry);
	return 0;
}

/* The i-th reply, or -errno for a method error (NoSuchUnit: -ENOENT). */
int
req_result(const struct dbusd_req *req, size_t i, sd_bus_message **m)
{
	const sd_bus_error	*e;

	if (!req->complete || i >= req->ncalls)
		return -EINVAL;
	if (req->err[i] < 0)
		return req->err[i];
	*m = req->reply[i];
	if (!sd_bus_message_is_method_error(*m, NULL))
		return 0;
	e = sd_bus_message_get_error(*m);
	return req_errno(e, -sd_bus_message_get_errno(*m));
}

void
dbusd_req_free(struct dbusd_req *req)
{
	struct dbusd	*d;
	size_t		 i, pending = 0;

	if (req == NULL)
		return;
	d = req->d;
	if (req->complete && !req->delivered)
		TAILQ_REMOVE(&d->done, req, entry);
	if (req->nsent < req->ncalls)		/* calls held */
		TAILQ_REMOVE(&d->waiting, req, wentry);
	for (i = 0; i < REQ_MAX_CALLS; i++) {
		if (req->slot[i] != NULL && req->reply[i] == NULL)
			pending++;
		sd_bus_slot_unref(req->slot[i]);	/* cancels if pending */
		sd_bus_message_unref(req->reply[i]);
		sd_bus_message_unref(req->call[i]);
	}
	free(req);
	d->inflight -= pending;
	if (pending > 0)
		req_release(d);
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

	while ((req = TAILQ_FIRST(&d->done)) != NULL) {
		TAILQ_REMOVE(&d->done, req, entry);
		req->delivered = 1;
		if (req->cb != NULL)
			req->cb(req, req->arg);
		else
			req_orphan_done(req);
		if (d->settle != NULL)
			d->settle(d->cb_arg);
	}
}

/*
 * For the few callers that may block (start-up, shutdown, the probe
 * tool): runs the bus until this request is complete; each call's
 * timeout still bounds the wait.  Other requests completing meanwhile
 * wait in the queue for bus_run().  With reply: its first call's
 * answer, as req_result() gives it.
 */
int
req_wait(struct dbusd_req *req, sd_bus_message **reply)
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
	return reply != NULL ? req_result(req, 0, reply) : 0;
}

/* Adds one method call on systemd1 to a request, which keeps it. */
int
call_add(struct dbusd_req *req, const char *path, const char *iface,
    const char *member, const char *types, ...)
{
	sd_bus_message	*m = NULL;
	va_list		 ap;
	int		 r;

	r = sd_bus_message_new_method_call(req->d->bus, &m, SD_DEST, path,
	    iface, member);
	if (r < 0)
		return r;
	va_start(ap, types);
	r = sd_bus_message_appendv(m, types, ap);
	va_end(ap);
	if (r >= 0)
		r = req_call(req, m);
	sd_bus_message_unref(m);
	return r;
}

/* A request just built: handed out, or freed (cancelled) if r < 0. */
int
call_done(struct dbusd_req *req, int r, struct dbusd_req **out)
{
	if (r < 0) {
		dbusd_req_free(req);
		return r;
	}
	if (out != NULL)
		*out = req;
	return 0;
}

/*
 * 1 if row i of a want table is the first of its interface: a GetAll
 * table lists each interface's rows together (one that did not would
 * read an interface twice, every value of it doubled: -EBADMSG).
 */
static int
want_first(const struct prop_want *want, size_t i)
{
	return i == 0 || strcmp(want[i].iface, want[i - 1].iface) != 0;
}

/*
 * Asks for the wanted properties of an object (an object path) or of a
 * unit (its name: its path is computed, no GetUnit round trip), sent
 * back to back in table order: with one GetAll per interface
 * (REQ_GETALL: the properties of one interface are one snapshot), or
 * one Get per property (REQ_GET: small replies, nothing else computed
 * by PID 1).
 */
int
call_get_begin(struct dbusd *d, const char *obj, const struct prop_want *want,
    size_t nw, enum req_kind kind, dbusd_req_cb cb, void *arg,
    struct dbusd_req **out)
{
	struct dbusd_req	*req;
	const char		*path = obj;
	char			*enc = NULL;
	size_t			 i;
	int			 r = 0;

	*out = NULL;
	if (nw == 0 || nw > REQ_MAX_CALLS)
		return -EINVAL;
	if (obj[0] != '/' &&
	    (r = sd_bus_path_encode(SD_UNIT_PATH, obj, &enc)) < 0)
		return r;
	if (enc != NULL)
		path = enc;
	if ((req = req_new(d, cb, arg)) == NULL) {
		free(enc);
		return -ENOMEM;
	}
	req->kind = kind;
	for (i = 0; i < nw && r >= 0; i++) {
		if (kind == REQ_GET)
			r = call_add(req, path, DBUS_PROPS, "Get", "ss",
			    want[i].iface, want[i].name);
		else if (want_first(want, i))
			r = call_add(req, path, DBUS_PROPS, "GetAll", "s",
			    want[i].iface);
	}
	free(enc);
	return call_done(req, r, out);
}

/*
 * One GetAll reply: keeps the wanted names of that interface, each
 * tagged with the interface it was read from, and skips the rest.
 */
static int
get_all_parse(sd_bus_message *reply, const char *iface,
    const struct prop_want *want, size_t nw, struct prop_value *v, size_t *nv)
{
	const char	*name;
	size_t		 i;
	int		 r;

	if ((r = sd_bus_message_enter_container(reply, 'a', "{sv}")) < 0)
		return r;
	while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
		if ((r = sd_bus_message_read_basic(reply, 's', &name)) <= 0)
			return r < 0 ? r : -EBADMSG;
		for (i = 0; i < nw; i++)
			if (strcmp(want[i].iface, iface) == 0 &&
			    strcmp(want[i].name, name) == 0)
				break;
		if (i == nw)
			r = sd_bus_message_skip(reply, "v");
		else if (*nv >= REQ_MAX_CALLS * 2)
			return -EBADMSG;	/* more answers than asked */
		else
			r = prop_read_variant(reply, iface, want[i].name,
			    &v[(*nv)++]);
		if (r < 0)
			return r == -ENXIO ? -EBADMSG : r;
		if ((r = sd_bus_message_exit_container(reply)) < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(reply);
}

/*
 * The values of a completed call_get_begin() request, pointing into its
 * replies (free the request after decoding them).
 */
int
call_get_values(struct dbusd_req *req, const struct prop_want *want,
    size_t nw, struct prop_value v[REQ_MAX_CALLS * 2], size_t *nv)
{
	sd_bus_message	*reply;
	size_t		 i, n = 0;
	int		 r = 0;

	*nv = 0;
	for (i = 0; i < nw && r >= 0; i++) {
		if (req->kind == REQ_GETALL && !want_first(want, i))
			continue;
		/* A table other than the request's: -EINVAL. */
		if ((r = req_result(req, n++, &reply)) < 0)
			break;
		if (req->kind == REQ_GETALL) {
			r = get_all_parse(reply, want[i].iface, want, nw, v,
			    nv);
			continue;
		}
		r = prop_read_variant(reply, want[i].iface, want[i].name,
		    &v[(*nv)++]);
	}
	if (r == 0 && n != req->ncalls)
		r = -EINVAL;
	return r < 0 ? r : 0;
}
