/*
 * call.c: the method calls the root parent makes on PID 1 (root), with
 * one bounded timeout and one error mapping: the few synchronous ones of
 * start-up, and the requests the running parent waits for without
 * blocking.  Every reply is read with its type checked; nothing here
 * interprets a signal.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbusd/priv.h"

/* A method call on systemd1, arguments appended from a va_list. */
static int
call_newv(struct dbusd *d, const char *path, const char *iface,
    const char *member, sd_bus_message **m, const char *types, va_list ap)
{
	int	 r;

	r = sd_bus_message_new_method_call(d->bus, m, SD_DEST, path, iface,
	    member);
	if (r < 0)
		return r;
	if ((r = sd_bus_message_appendv(*m, types, ap)) < 0) {
		*m = sd_bus_message_unref(*m);
		return r;
	}
	return 0;
}

/* Synchronous: only for start-up, before the parent serves anybody. */
int
call_method(struct dbusd *d, const char *path, const char *iface,
    const char *member, sd_bus_message **reply, const char *types, ...)
{
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	va_list		 ap;
	int		 r;

	va_start(ap, types);
	r = call_newv(d, path, iface, member, &m, types, ap);
	va_end(ap);
	if (r < 0)
		return r;
	r = sd_bus_call(d->bus, m, DBUSD_CALL_USEC, &e, reply);
	if (r < 0)
		r = req_errno(&e, r);
	sd_bus_error_free(&e);
	sd_bus_message_unref(m);
	/* sd_bus_call() may have queued signals: dispatch them soon. */
	req_kick(d);
	return r < 0 ? r : 0;
}

/* Adds one call to a request; the request keeps the message. */
static int
call_add(struct dbusd_req *req, const char *path, const char *iface,
    const char *member, const char *types, ...)
{
	sd_bus_message	*m = NULL;
	va_list		 ap;
	int		 r;

	va_start(ap, types);
	r = call_newv(req->d, path, iface, member, &m, types, ap);
	va_end(ap);
	if (r < 0)
		return r;
	r = req_call(req, m);
	sd_bus_message_unref(m);
	return r;
}

/* The object path of a unit, computed: no GetUnit round trip. */
static int
call_unit_path(const char *unit, char **path)
{
	return sd_bus_path_encode(SD_UNIT_PATH, unit, path);
}

/* The distinct interfaces of a want table, in table order. */
static size_t
want_ifaces(const struct prop_want *want, size_t nw,
    const char *iface[REQ_MAX_CALLS])
{
	size_t	 i, j, ni = 0;

	for (i = 0; i < nw; i++) {
		for (j = 0; j < ni && strcmp(iface[j], want[i].iface) != 0; j++)
			;
		if (j < ni)
			continue;
		if (ni == REQ_MAX_CALLS)
			return 0;
		iface[ni++] = want[i].iface;
	}
	return ni;
}

/*
 * Asks for the wanted properties of a unit, sent back to back in table
 * order: with one GetAll per interface (REQ_GETALL: the properties of
 * one interface are one snapshot), or one Get per property (REQ_GET:
 * small replies, nothing else computed by PID 1).
 */
int
call_get_begin(struct dbusd *d, const char *unit, const struct prop_want *want,
    size_t nw, enum req_kind kind, dbusd_req_cb cb, void *arg,
    struct dbusd_req **out)
{
	struct dbusd_req	*req;
	const char		*iface[REQ_MAX_CALLS] = { NULL };
	char			*path = NULL;
	size_t			 i, ni;
	int			 r;

	*out = NULL;
	if (nw > WANT_MAX || (ni = want_ifaces(want, nw, iface)) == 0)
		return -EINVAL;
	if ((r = call_unit_path(unit, &path)) < 0)
		return r;
	if ((req = req_new(d)) == NULL) {
		free(path);
		return -ENOMEM;
	}
	req->kind = kind;
	req->cb = cb;
	req->arg = arg;
	for (i = 0, r = 0; kind == REQ_GETALL && i < ni && r >= 0; i++)
		r = call_add(req, path, "org.freedesktop.DBus.Properties",
		    "GetAll", "s", iface[i]);
	for (i = 0; kind == REQ_GET && i < nw && r >= 0; i++)
		r = call_add(req, path, "org.freedesktop.DBus.Properties",
		    "Get", "ss", want[i].iface, want[i].name);
	free(path);
	if (r < 0) {
		dbusd_req_free(req);
		return r;
	}
	*out = req;
	return 0;
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
	const char	*iface[REQ_MAX_CALLS] = { NULL };
	sd_bus_message	*reply;
	size_t		 i, ni;
	int		 r = 0;

	*nv = 0;
	ni = want_ifaces(want, nw, iface);
	if (req->ncalls != (req->kind == REQ_GET ? nw : ni))
		return -EINVAL;
	for (i = 0; i < req->ncalls && r >= 0; i++) {
		if ((r = req_result(req, i, &reply)) < 0)
			break;
		if (req->kind == REQ_GETALL) {
			if (iface[i] == NULL)
				return -EINVAL;
			r = get_all_parse(reply, iface[i], want, nw, v, nv);
			continue;
		}
		memset(&v[*nv], 0, sizeof(v[*nv]));
		v[*nv].iface = want[i].iface;
		v[*nv].name = want[i].name;
		r = prop_read_variant(reply, &v[(*nv)++]);
	}
	return r < 0 ? r : 0;
}

/* StopUnit(name, "replace"), ResetFailedUnit(name) or UnrefUnit(name);
 * the reply (a job path or nothing) is not used. */
int
call_unit_method(struct dbusd *d, enum unit_method um, const char *unit,
    struct dbusd_req **out)
{
	struct dbusd_req	*req;
	const char		*method;
	int			 r;

	*out = NULL;
	method = um == UM_STOP ? "StopUnit" : um == UM_UNREF ? "UnrefUnit" :
	    "ResetFailedUnit";
	if ((req = req_new(d)) == NULL)
		return -ENOMEM;
	snprintf(req->what, sizeof(req->what), "%s %s", method, unit);
	if (um == UM_STOP)
		r = call_add(req, SD_PATH, SD_MANAGER, method, "ss", unit,
		    "replace");
	else
		r = call_add(req, SD_PATH, SD_MANAGER, method, "s", unit);
	if (r < 0) {
		dbusd_req_free(req);
		return r;
	}
	*out = req;
	return 0;
}

/* Properties.Get(Job, JobType) on a job's object path. */
int
call_job_type(struct dbusd *d, const char *job, struct dbusd_req **out)
{
	struct dbusd_req	*req;
	int			 r;

	*out = NULL;
	if (!sd_bus_object_path_is_valid(job) ||
	    strncmp(job, SD_JOB_PATH "/", strlen(SD_JOB_PATH "/")) != 0)
		return -EINVAL;
	if ((req = req_new(d)) == NULL)
		return -ENOMEM;
	snprintf(req->what, sizeof(req->what), "JobType of %s", job);
	if ((r = call_add(req, job, "org.freedesktop.DBus.Properties", "Get",
	    "ss", SD_JOB, "JobType")) < 0) {
		dbusd_req_free(req);
		return r;
	}
	*out = req;
	return 0;
}

/* Manager.ListJobs: every queued job, its unit and its type. */
int
call_list_jobs(struct dbusd *d, struct dbusd_req **out)
{
	struct dbusd_req	*req;
	int			 r;

	*out = NULL;
	if ((req = req_new(d)) == NULL)
		return -ENOMEM;
	snprintf(req->what, sizeof(req->what), "ListJobs");
	if ((r = call_add(req, SD_PATH, SD_MANAGER, "ListJobs", "")) < 0) {
		dbusd_req_free(req);
		return r;
	}
	*out = req;
	return 0;
}

/* KillUnit(name, "main", sig): the signal goes to the main process only. */
int
call_unit_kill(struct dbusd *d, const char *unit, int sig,
    struct dbusd_req **out)
{
	struct dbusd_req	*req;
	int			 r;

	*out = NULL;
	if ((req = req_new(d)) == NULL)
		return -ENOMEM;
	snprintf(req->what, sizeof(req->what), "KillUnit %s main %d", unit,
	    sig);
	if ((r = call_add(req, SD_PATH, SD_MANAGER, "KillUnit", "ssi", unit,
	    "main", (int32_t)sig)) < 0) {
		dbusd_req_free(req);
		return r;
	}
	*out = req;
	return 0;
}
