/*
 * props.h: the transient unit property set (root parent), built by
 * dbusd/props.c: its fixed part is a table there (props_fixed[]), the
 * few values that depend on the session are built per call.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_PROPS_H
#define OPTY_PROPS_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

/* The host paths a session sees under its private /run, "-" prefixed. */
extern const char *const	props_run_allow[];

struct unit_spec;
/* A complete StartTransientUnit call, ready to send; 0 or -errno. */
int	props_start_message(sd_bus *, const struct unit_spec *,
	    sd_bus_message **);
struct pts_names;
/* The same for a session's devpts mount unit. */
int	props_pts_message(sd_bus *, const struct pts_names *, uid_t, gid_t,
	    sd_bus_message **);

#endif
