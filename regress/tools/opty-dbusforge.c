/*
 * opty-dbusforge.c: FORGED systemd signals (test only, never installed).
 * An ordinary bus client emits UnitRemoved and PropertiesChanged for a
 * unit as if it were systemd, COUNT times each, as fast as the bus
 * takes them.  The supervisor must treat them as the lies they are.
 *
 *	opty-dbusforge UNIT COUNT
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

static int
forge_removed(sd_bus *bus, const char *unit, const char *path)
{
	return sd_bus_emit_signal(bus, "/org/freedesktop/systemd1",
	    "org.freedesktop.systemd1.Manager", "UnitRemoved", "so", unit,
	    path);
}

static int
forge_changed(sd_bus *bus, const char *path)
{
	sd_bus_message	*m = NULL;
	int		 r;

	r = sd_bus_message_new_signal(bus, &m, path,
	    "org.freedesktop.DBus.Properties", "PropertiesChanged");
	if (r >= 0)
		r = sd_bus_message_append(m, "sa{sv}as",
		    "org.freedesktop.systemd1.Unit", 2,
		    "ActiveState", "s", "inactive",
		    "SubState", "s", "dead", 0);
	if (r >= 0)
		r = sd_bus_send(bus, m, NULL);
	sd_bus_message_unref(m);
	return r;
}

int
main(int argc, char *argv[])
{
	sd_bus	*bus = NULL;
	char	*path = NULL;
	long	 i, count;
	int	 r;

	if (argc != 3 || (count = strtol(argv[2], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: opty-dbusforge UNIT COUNT\n");
		return 2;
	}
	if ((r = sd_bus_open_system(&bus)) < 0 ||
	    (r = sd_bus_path_encode("/org/freedesktop/systemd1/unit", argv[1],
	    &path)) < 0) {
		fprintf(stderr, "opty-dbusforge: %s\n", strerror(-r));
		return 1;
	}
	for (i = 0; i < count; i++) {
		if ((r = forge_removed(bus, argv[1], path)) < 0 ||
		    (r = forge_changed(bus, path)) < 0) {
			fprintf(stderr, "opty-dbusforge: emit: %s\n",
			    strerror(-r));
			return 1;
		}
		if (i % 256 == 0)
			sd_bus_flush(bus);
	}
	sd_bus_flush(bus);
	printf("opty-dbusforge: emitted %ld UnitRemoved and %ld "
	    "PropertiesChanged for %s\n", count, count, argv[1]);
	free(path);
	sd_bus_flush_close_unref(bus);
	return 0;
}
