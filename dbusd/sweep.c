/*
 * sweep.c: at start-up the root parent stops session units left over by
 * a previous supervisor.  A unit is ours only if its name passes the
 * strict check AND its BindsTo= is exactly [OPTY_SUPERVISOR_UNIT]; any
 * look-alike (other case, other type, extra or foreign BindsTo=) is left
 * alone, so the sweep can never stop somebody else's unit.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/config.h"
#include "proto/log.h"

/* 1 if the unit's BindsTo= is exactly [OPTY_SUPERVISOR_UNIT], else 0. */
static int
binds_only_supervisor(struct dbusd *d, const char *path)
{
	struct dbusd_req	*req;
	sd_bus_message		*reply;
	const char		*s;
	int			 r, n = 0, exact = 0;

	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = call_add(req, path, DBUS_PROPS, "Get", "ss", SD_UNIT,
	    "BindsTo")) < 0 || (r = req_wait(req, &reply)) < 0)
		goto out;
	if (sd_bus_message_enter_container(reply, 'v', "as") <= 0 ||
	    sd_bus_message_enter_container(reply, 'a', "s") <= 0) {
		r = -EBADMSG;
		goto out;
	}
	while ((r = sd_bus_message_read_basic(reply, 's', &s)) > 0) {
		n++;
		exact = strcmp(s, OPTY_SUPERVISOR_UNIT) == 0;
		log_debug("sweep: %s BindsTo[%d] = %s", path, n, s);
	}
	r = r < 0 ? -EBADMSG : n == 1 && exact;
out:
	dbusd_req_free(req);
	return r;
}

static int
sweep_one(struct dbusd *d, const char *name, const char *active,
    const char *path)
{
	int	r;

	if (!unit_name_valid(name)) {
		log_info("sweep: %s: not a session unit name, left alone",
		    name);
		return 0;
	}
	if ((r = binds_only_supervisor(d, path)) < 0) {
		log_warnx("sweep: %s: BindsTo unreadable: %s", name,
		    strerror(-r));
		return r;
	}
	if (r == 0) {
		log_info("sweep: %s: BindsTo is not exactly %s, left alone",
		    name, OPTY_SUPERVISOR_UNIT);
		return 0;
	}
	log_info("sweep: %s (%s): orphan of %s, stopping", name, active,
	    OPTY_SUPERVISOR_UNIT);
	/* A unit that went away by itself meanwhile is no failure. */
	r = dbusd_unit_wait(d, UM_STOP, name);
	if (r == 0 && strcmp(active, "failed") == 0)
		r = dbusd_unit_wait(d, UM_RESET_FAILED, name);
	if (r < 0) {
		log_warnx("sweep: %s: stop failed: %s", name, strerror(-r));
		return r;
	}
	return 1;
}

int
dbusd_sweep_orphans(struct dbusd *d)
{
	struct dbusd_req	*req;
	sd_bus_message		*reply;
	const char		*name, *active, *path;
	int			 r, stopped = 0, err = 0;

	if ((req = req_new(d, NULL, NULL)) == NULL)
		return -ENOMEM;
	if ((r = call_add(req, SD_PATH, SD_MANAGER, "ListUnitsByPatterns",
	    "asas", 0, 1, OPTY_UNIT_PREFIX "*" OPTY_UNIT_SUFFIX)) < 0 ||
	    (r = req_wait(req, &reply)) < 0)
		goto out;
	if (sd_bus_message_enter_container(reply, 'a', "(ssssssouso)") <= 0) {
		r = -EBADMSG;
		goto out;
	}
	while ((r = sd_bus_message_read(reply, "(ssssssouso)", &name, NULL,
	    NULL, &active, NULL, NULL, &path, NULL, NULL, NULL)) > 0) {
		r = sweep_one(d, name, active, path);
		if (r > 0)
			stopped++;
		else if (r < 0 && err == 0)
			err = r;
	}
	/* Fail closed: a unit we could not judge is reported, not hidden. */
	r = r < 0 ? -EBADMSG : err < 0 ? err : stopped;
out:
	dbusd_req_free(req);
	return r;
}
