/*
 * pid1.c: which systemd the root parent talks to, read once when it
 * opens the bus (start-up, blocking; root parent) and logged:
 * Manager.Version, which every systemd has, so a PID 1 that lacks it,
 * refuses it or answers it with another type is not trusted and the
 * open fails.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/log.h"

static const struct prop_want version_want[] = {
	{ SD_MANAGER,	"Version",	"s",	offsetof(struct dbusd,
	    pid1_version), sizeof(((struct dbusd *)0)->pid1_version) },
};

/* Blocking, before the matches: the parent serves nobody yet. */
int
pid1_probe(struct dbusd *d)
{
	struct dbusd_req	*req;
	struct prop_value	 v[WANT_MAX * 2];
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
