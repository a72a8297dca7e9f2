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
#include <string.h>

#include "dbusd/priv.h"
#include "proto/log.h"

#define DBUS_PROPS	"org.freedesktop.DBus.Properties"

/* Signals the call queues meanwhile wait for bus_attach(). */
int
pid1_probe(struct dbusd *d)
{
	sd_bus_message	*reply = NULL;
	const char	*s = NULL;
	int		 r;

	if ((r = call_method(d, SD_PATH, DBUS_PROPS, "Get", &reply, "ss",
	    SD_MANAGER, "Version")) < 0) {
		log_warnx("PID 1: Manager.Version: %s", strerror(-r));
		return r;
	}
	if (sd_bus_message_read(reply, "v", "s", &s) > 0 && s[0] != '\0' &&
	    strlen(s) < sizeof(d->pid1_version))
		memcpy(d->pid1_version, s, strlen(s) + 1);
	else
		log_warnx("PID 1: Manager.Version is not a version string");
	sd_bus_message_unref(reply);
	return d->pid1_version[0] != '\0' ? 0 : -EBADMSG;
}

const char *
dbusd_pid1_version(const struct dbusd *d)
{
	return d->pid1_version;
}
