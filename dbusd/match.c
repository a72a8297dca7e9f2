/*
 * match.c: turns systemd signals into hints for the root parent.  A
 * signal is never proof (any peer may send one straight to us), so each
 * one is checked to come from PID 1's current unique name, reduced to a
 * session unit name and queued; the parent then asks PID 1 itself.
 * The handlers make no bus call: they run inside sd_bus_process().
 * The queue is bounded: losing a hint under a flood is safe, as the
 * parent re-asks systemd before acting, while unbounded growth is not,
 * so a full queue drops and counts.  Duplicate "unit changed" hints
 * carry no more information than one, so they are merged.  bus.c has
 * the queued hints delivered (match_deliver()) after sd_bus_process().
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/config.h"
#include "proto/log.h"

#define PATH_PREFIX	SD_UNIT_PATH "/opencode_2dpty_2d"

static int
from_systemd(struct dbusd *d, sd_bus_message *m)
{
	const char	*sender = sd_bus_message_get_sender(m);

	if (sender != NULL && d->owner[0] != '\0' &&
	    strcmp(sender, d->owner) == 0)
		return 1;
	log_debug("ignoring %s.%s from %s", sd_bus_message_get_interface(m),
	    sd_bus_message_get_member(m), sender != NULL ? sender : "?");
	return 0;
}

static int
hintq_has_change(const struct hintq *q, const char *unit)
{
	const struct hint	*h;
	unsigned		 i;

	for (i = 0; i < q->depth; i++) {
		h = &q->ring[(q->head + i) % HINTQ_BOUND];
		if (h->kind == HINT_UNIT_CHANGED && strcmp(h->unit, unit) == 0)
			return 1;
	}
	return 0;
}

/* 1 queued, 0 coalesced into one already queued, -1 dropped (full). */
static int
hintq_push(struct hintq *q, const struct hint *h)
{
	if (h->kind == HINT_UNIT_CHANGED && hintq_has_change(q, h->unit))
		return 0;
	if (q->depth >= HINTQ_BOUND) {
		q->dropped++;
		return -1;
	}
	q->ring[(q->head + q->depth) % HINTQ_BOUND] = *h;
	q->depth++;
	return 1;
}

/* 1 and the oldest hint in *out, or 0 when empty. */
static int
hintq_pop(struct hintq *q, struct hint *out)
{
	if (q->depth == 0)
		return 0;
	*out = q->ring[q->head];
	q->head = (q->head + 1) % HINTQ_BOUND;
	q->depth--;
	return 1;
}

/* The queued hints to the parent, oldest first (from bus_run()). */
void
match_deliver(struct dbusd *d)
{
	struct hint	h;

	while (hintq_pop(&d->q, &h)) {
		d->cb(&h, d->cb_arg);
		if (d->settle != NULL)
			d->settle(d->cb_arg);
	}
}

static int
copy_field(char *dst, size_t len, const char *src)
{
	if (src == NULL || strlen(src) >= len)
		return -1;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/*
 * Queues the hint of a session unit's signal, or HINT_SELF_JOB's of our
 * own unit; job and result only where the signal has them.  A field too
 * long for the hint drops the signal.
 */
static void
queue_hint(struct dbusd *d, enum hint_kind kind, const char *unit,
    const char *job, const char *result)
{
	struct hint	h = { .kind = kind };

	if (kind == HINT_SELF_JOB ? strcmp(unit, OPTY_SUPERVISOR_UNIT) != 0 :
	    !unit_name_valid(unit))
		return;
	if (copy_field(h.unit, sizeof(h.unit), unit) < 0 ||
	    (job != NULL && copy_field(h.job, sizeof(h.job), job) < 0) ||
	    (result != NULL &&
	    copy_field(h.result, sizeof(h.result), result) < 0))
		return;
	if (hintq_push(&d->q, &h) < 0)
		log_debug("hint queue full, dropped %s %s",
		    job != NULL ? "job" : "change of",
		    job != NULL ? job : unit);
}

/*
 * JobRemoved ("uoss") of a session unit's job, or JobNew ("uos") of one
 * for the supervisor's own unit: a stop (or restart) of ours is queued
 * in the same transaction as the stops of the session units bound to
 * it, which PID 1 runs first.  Told as early as PID 1 tells, so the
 * parent can have every client told before their commands are gone.
 */
static int
on_job(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct dbusd	*d = arg;
	const char	*job, *unit, *result = NULL;
	uint32_t	 id;
	int		 removed;

	(void)e;
	removed = strcmp(sd_bus_message_get_member(m), "JobRemoved") == 0;
	if (!from_systemd(d, m) ||
	    sd_bus_message_read(m, "uos", &id, &job, &unit) < 0 ||
	    (removed && sd_bus_message_read_basic(m, 's', &result) <= 0))
		return 0;
	queue_hint(d, removed ? HINT_JOB_REMOVED : HINT_SELF_JOB, unit, job,
	    result);
	return 0;
}

static int
on_unit_removed(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct dbusd	*d = arg;
	const char	*unit, *path;

	(void)e;
	if (from_systemd(d, m) &&
	    sd_bus_message_read(m, "so", &unit, &path) >= 0)
		queue_hint(d, HINT_UNIT_CHANGED, unit, NULL, NULL);
	return 0;
}

static int
on_props_changed(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct dbusd	*d = arg;
	const char	*path = sd_bus_message_get_path(m);
	char		*unit = NULL;

	(void)e;
	/* Cheap prefix test first: most changes are other units'. */
	if (path == NULL ||
	    strncmp(path, PATH_PREFIX, strlen(PATH_PREFIX)) != 0 ||
	    !from_systemd(d, m))
		return 0;
	if (sd_bus_path_decode(path, SD_UNIT_PATH, &unit) > 0)
		queue_hint(d, HINT_UNIT_CHANGED, unit, NULL, NULL);
	free(unit);
	return 0;
}

/* PID 1 re-executing gets a new unique name; only the bus daemon says so. */
static int
on_owner_changed(sd_bus_message *m, void *arg, sd_bus_error *e)
{
	struct dbusd	*d = arg;
	const char	*name, *old, *new;
	const char	*sender = sd_bus_message_get_sender(m);

	(void)e;
	if (sender == NULL || strcmp(sender, "org.freedesktop.DBus") != 0 ||
	    sd_bus_message_read(m, "sss", &name, &old, &new) < 0 ||
	    strcmp(name, SD_DEST) != 0)
		return 0;
	if (copy_field(d->owner, sizeof(d->owner), new) < 0)
		d->owner[0] = '\0';
	log_info("%s is now owned by \"%s\"", SD_DEST, d->owner);
	return 0;
}

/* Blocking, at open: a request to the bus daemon. */
int
match_owner_lookup(struct dbusd *d)
{
	struct dbusd_req	*req;
	sd_bus_message		*call = NULL, *m;
	const char		*owner;
	int			 r;

	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = sd_bus_message_new_method_call(d->bus, &call,
	    "org.freedesktop.DBus", "/org/freedesktop/DBus",
	    "org.freedesktop.DBus", "GetNameOwner")) >= 0 &&
	    (r = sd_bus_message_append(call, "s", SD_DEST)) >= 0)
		r = req_call(req, call);
	sd_bus_message_unref(call);
	if (r >= 0 && (r = req_wait(req, &m)) >= 0 &&
	    (sd_bus_message_read_basic(m, 's', &owner) <= 0 ||
	    copy_field(d->owner, sizeof(d->owner), owner) < 0))
		r = -EBADMSG;
	dbusd_req_free(req);
	return r < 0 ? r : 0;
}

int
match_add_all(struct dbusd *d)
{
	int	r;

	/* Floating slots: they live exactly as long as the bus. */
	if ((r = sd_bus_add_match(d->bus, NULL,
	    "type='signal',sender='org.freedesktop.DBus',"
	    "path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
	    "member='NameOwnerChanged',arg0='" SD_DEST "'",
	    on_owner_changed, d)) < 0 ||
	    (r = sd_bus_match_signal(d->bus, NULL, SD_DEST, SD_PATH,
	    SD_MANAGER, "JobRemoved", on_job, d)) < 0 ||
	    (r = sd_bus_match_signal(d->bus, NULL, SD_DEST, SD_PATH,
	    SD_MANAGER, "JobNew", on_job, d)) < 0 ||
	    (r = sd_bus_match_signal(d->bus, NULL, SD_DEST, SD_PATH,
	    SD_MANAGER, "UnitRemoved", on_unit_removed, d)) < 0 ||
	    (r = sd_bus_add_match(d->bus, NULL,
	    "type='signal',sender='" SD_DEST "',"
	    "interface='org.freedesktop.DBus.Properties',"
	    "member='PropertiesChanged',"
	    "path_namespace='" SD_UNIT_PATH "'", on_props_changed, d)) < 0)
		return r;
	return 0;
}
