/*
 * pid1.c: what the running systemd is and which optional session unit
 * setting it knows, read once when the root parent opens the bus
 * (start-up, blocking).  A setting PID 1 does not know would make every
 * StartTransientUnit fail, so each is asked for only where PID 1 says it
 * has it: by the exact D-Bus error, never by guessing from a version.
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

#define DBUS_PROPS	"org.freedesktop.DBus.Properties"

/*
 * Properties.Get of one property, with its type required.  1 if PID 1
 * has it (its value left in *reply, inside the variant), 0 if PID 1 says
 * UnknownProperty, -errno for anything else.
 */
static int
pid1_get(struct dbusd *d, const char *path, const char *iface,
    const char *name, const char *sig, sd_bus_message **reply)
{
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	int		 r;

	*reply = NULL;
	if ((r = sd_bus_message_new_method_call(d->bus, &m, SD_DEST, path,
	    DBUS_PROPS, "Get")) < 0)
		return r;
	if ((r = sd_bus_message_append(m, "ss", iface, name)) >= 0)
		r = sd_bus_call(d->bus, m, DBUSD_CALL_USEC, &e, reply);
	sd_bus_message_unref(m);
	if (r < 0) {
		r = sd_bus_error_has_name(&e, SD_BUS_ERROR_UNKNOWN_PROPERTY) ?
		    0 : req_errno(&e, r);
		if (r < 0)
			log_warnx("PID 1: %s.%s: %s", iface, name,
			    e.message != NULL ? e.message : strerror(-r));
		sd_bus_error_free(&e);
		return r;
	}
	if (sd_bus_message_enter_container(*reply, 'v', sig) <= 0) {
		log_warnx("PID 1: %s.%s is not of type %s", iface, name, sig);
		*reply = sd_bus_message_unref(*reply);
		return -EBADMSG;
	}
	return 1;
}

static int
pid1_version(struct dbusd *d)
{
	sd_bus_message	*reply;
	const char	*s;
	int		 r;

	r = pid1_get(d, SD_PATH, SD_MANAGER, "Version", "s", &reply);
	if (r <= 0)
		return r < 0 ? r : -EBADMSG;	/* every systemd has it */
	r = sd_bus_message_read_basic(reply, 's', &s);
	if (r > 0 && strlen(s) < sizeof(d->pid1.version))
		memcpy(d->pid1.version, s, strlen(s) + 1);
	sd_bus_message_unref(reply);
	return r > 0 && d->pid1.version[0] != '\0' ? 0 : -EBADMSG;
}

/*
 * PrivatePIDs= (systemd >= 257): readable on every service unit exactly
 * where the transient unit code takes it.  Our own unit is always there.
 */
static int
pid1_private_pids(struct dbusd *d)
{
	sd_bus_message	*reply;
	char		*path = NULL;
	int		 r;

	if ((r = sd_bus_path_encode(SD_UNIT_PATH, OPTY_SUPERVISOR_UNIT,
	    &path)) < 0)
		return r;
	r = pid1_get(d, path, SD_SERVICE, "PrivatePIDs", "s", &reply);
	free(path);
	if (r < 0)
		return r;
	sd_bus_message_unref(reply);
	d->pid1.private_pids = r;
	return 0;
}

int
pid1_probe(struct dbusd *d)
{
	int	r;

	/* Signals sd_bus_call() queued meanwhile wait for bus_attach(). */
	if ((r = pid1_version(d)) < 0 || (r = pid1_private_pids(d)) < 0)
		return r;
	return 0;
}

void
dbusd_pid1_info(const struct dbusd *d, struct pid1_info *out)
{
	*out = d->pid1;
}
