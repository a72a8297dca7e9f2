/*
 * ident.c: reads the identity of the client service (opencode-v2.service)
 * from PID 1 for the root parent's peer authentication.  Each property is
 * read only from the interface systemd defines it on; a ControlGroup or
 * MainPID answered by any other interface does not count.
 *
 * And which systemd the root parent talks to, read once when it opens
 * the bus (start-up, blocking) and logged: Manager.Version, which every
 * systemd has, so a PID 1 that lacks it, refuses it or answers it with
 * another type is not trusted and the open fails.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/config.h"
#include "proto/log.h"

#define FIELD(f)	offsetof(struct client_ident, f), \
			sizeof(((struct client_ident *)0)->f)

/* ActiveState first: a unit that is not active has no identity. */
static const struct prop_want ident_want[] = {
	{ SD_UNIT,	"ActiveState",	"s",	FIELD(active) },
	{ SD_UNIT,	"SubState",	"s",	FIELD(sub) },
	{ SD_UNIT,	"InvocationID",	"ay",	FIELD(invocation) },
	{ SD_SERVICE,	"MainPID",	"u",	FIELD(main_pid) },
	{ SD_SERVICE,	"ControlGroup",	"s",	FIELD(cgroup) },
};
static const size_t ident_nwant = sizeof(ident_want) / sizeof(ident_want[0]);

int
dbusd_client_ident_begin(struct dbusd *d, dbusd_req_cb cb, void *arg,
    struct dbusd_req **out)
{
	return call_get_begin(d, OPTY_CLIENT_UNIT, ident_want, ident_nwant,
	    REQ_GET, cb, arg, out);
}

int
dbusd_client_ident_end(struct dbusd_req *req, struct client_ident *out)
{
	struct prop_value	v[REQ_MAX_CALLS * 2];
	struct client_ident	tmp = { 0 };
	size_t			nv;
	int			r;

	if ((r = call_get_values(req, ident_want, ident_nwant, v, &nv)) < 0)
		return r;
	/*
	 * Not loaded (PID 1 answers for a stub), stopped or stopping: there
	 * is no client, and its InvocationID may well be empty.
	 */
	if ((r = props_decode(ident_want, 1, v, nv, &tmp)) < 0)
		return r;
	if (strcmp(tmp.active, "active") != 0)
		return -ENOENT;
	/* All or nothing: a half-filled identity is never returned. */
	if ((r = props_decode(ident_want, ident_nwant, v, nv, &tmp)) < 0)
		return r;
	*out = tmp;
	return 0;
}

static const struct prop_want version_want[] = {
	{ SD_MANAGER,	"Version",	"s",	offsetof(struct dbusd,
	    pid1_version), sizeof(((struct dbusd *)0)->pid1_version) },
};

/* Blocking, before the matches: the parent serves nobody yet. */
int
pid1_probe(struct dbusd *d)
{
	struct dbusd_req	*req;
	struct prop_value	 v[REQ_MAX_CALLS * 2];
	size_t			 nv;
	int			 r;

	if ((r = call_get_begin(d, SD_PATH, version_want, 1, REQ_GET, NULL,
	    NULL, &req)) == 0) {
		if ((r = req_wait(req, NULL)) == 0 &&
		    (r = call_get_values(req, version_want, 1, v, &nv)) == 0)
			r = props_decode(version_want, 1, v, nv, d);
		dbusd_req_free(req);
	}
	if (r == 0 && d->pid1_version[0] != '\0')
		return 0;
	d->pid1_version[0] = '\0';
	if (r == 0 || r == -EBADMSG) {
		log_warnx("PID 1: Manager.Version is not a version string");
		return -EBADMSG;
	}
	log_warnx("PID 1: Manager.Version: %s", strerror(-r));
	return r;
}

const char *
dbusd_pid1_version(const struct dbusd *d)
{
	return d->pid1_version;
}
