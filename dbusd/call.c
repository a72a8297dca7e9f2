/*
 * call.c: the method calls the root parent makes on PID 1 (root), all
 * of them requests (req.c) with its one bounded timeout and one error
 * mapping: those the running parent waits for without blocking, and
 * the few that start-up and shutdown wait for with req_wait().  Every
 * reply is read with its type checked; nothing here interprets a
 * signal.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dbusd/priv.h"

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
	if (nw == 0 || nw > WANT_MAX)
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
		else if (*nv >= WANT_MAX * 2)
			return -EBADMSG;	/* more answers than asked */
		else {
			memset(&v[*nv], 0, sizeof(v[*nv]));
			v[*nv].iface = iface;
			v[*nv].name = want[i].name;
			r = prop_read_variant(reply, &v[(*nv)++]);
		}
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
    size_t nw, struct prop_value v[WANT_MAX * 2], size_t *nv)
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
		memset(&v[*nv], 0, sizeof(v[*nv]));
		v[*nv].iface = want[i].iface;
		v[*nv].name = want[i].name;
		r = prop_read_variant(reply, &v[(*nv)++]);
	}
	if (r == 0 && n != req->ncalls)
		r = -EINVAL;
	return r < 0 ? r : 0;
}
