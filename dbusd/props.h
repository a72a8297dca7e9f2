/*
 * props.h: the transient unit property set (root parent).  The fixed part
 * is data (props_fixed[]) so that a reviewer and a unit test can read the
 * whole set; the few values that depend on the session are built by
 * props_append().
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

struct prop_def {
	const char		*name;
	/* "s", "b", "u", "i", "t", "as", "a(ss)" or "a(ssbt)" */
	const char		*sig;
	const char		*s;	/* "s" */
	uint64_t		 n;	/* "b", "u", "i", "t" */
	/*
	 * NULL-terminated.  "as": the strings.  "a(ss)" (a temporary file
	 * system): "path:options".  "a(ssbt)" (a read-only bind mount of a
	 * path onto itself, not recursive): "path", or "-path" if it may
	 * be missing.
	 */
	const char *const	*as;
};

extern const struct prop_def	props_fixed[];
extern const size_t		props_nfixed;
/* The host paths a session sees under its private /run, "-" prefixed. */
extern const char *const	props_run_allow[];

struct props_in {
	const char		*name;		/* must be unit_name_valid() */
	const char		*pts_of;	/* the same: names its devpts */
	uint32_t		 runtime_sec;	/* 0 = no RuntimeMaxUSec */
	int			 tty_fd;
	int			 dirsock_fd;
	uint32_t		 argc;
	const char *const	*argv;
};

/* Appends the a(sv) container; 0 or -errno (-EINVAL for bad input). */
int	props_append(sd_bus_message *, const struct props_in *);
/* A complete StartTransientUnit call, ready to send; 0 or -errno. */
int	props_start_message(sd_bus *, const struct props_in *,
	    sd_bus_message **);
struct pts_names;
/* The same for a session's devpts mount unit. */
int	props_pts_message(sd_bus *, const struct pts_names *, uid_t, gid_t,
	    sd_bus_message **);

#endif
