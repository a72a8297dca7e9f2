/*
 * benchprops.h: the session unit's StartTransientUnit call for
 * opty-benchunit (bench/benchprops.c; never installed).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_BENCHPROPS_H
#define OPTY_BENCHPROPS_H

#include <systemd/sd-bus.h>

#include "dbusd/priv.h"

#define BP_PARENT	0	/* exactly the parent's property set */
#define BP_NOMOUNT	1	/* without the mount sandbox */
#define BP_SKIP		2	/* without the one property bench_skip */

extern const char	*bench_launcher;	/* the ExecStart path */
extern const char	*bench_skip;		/* BP_SKIP: its name */

int	bench_props_message(sd_bus *, const struct unit_spec *, int,
	    sd_bus_message **);

#endif
