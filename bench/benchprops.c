/*
 * benchprops.c: the session unit's StartTransientUnit call for
 * opty-benchunit (never installed; trusts its caller).  It compiles
 * dbusd/props.c itself, unchanged, with one difference: the ExecStart
 * path is a variable, so that the same property set can start the
 * launcher of an older build (the "old script path", see
 * docs/BENCHMARKS.md).  bench_props_message() also builds the variants
 * the analysis measures: BP_NOMOUNT, without the session's mount
 * sandbox; BP_SKIP, without one property, to tell each one's
 * share.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include "proto/config.h"

static const char	bench_launcher_default[] = OPTY_LAUNCHER_PATH;
const char		*bench_launcher = bench_launcher_default;
const char		*bench_skip = "";

#undef OPTY_LAUNCHER_PATH
#define OPTY_LAUNCHER_PATH	bench_launcher

/* NOLINTNEXTLINE(bugprone-suspicious-include): compiled again, above */
#include "dbusd/props.c"

#include "bench/benchprops.h"

/* The mount sandbox of docs/UNITS.md: what BP_NOMOUNT leaves out. */
static int
is_mount(const char *name)
{
	return strcmp(name, "TemporaryFileSystem") == 0 ||
	    strcmp(name, "BindReadOnlyPaths") == 0 ||
	    strcmp(name, "InaccessiblePaths") == 0;
}

/*
 * The parent's call read back and copied without the properties the
 * variant leaves out (BP_NOMOUNT: the mount sandbox; BP_SKIP: the one
 * named), each other one as it was, in its place.
 */
static int
copy_variant(sd_bus_message *m, sd_bus_message *src, int variant)
{
	const char	*name;
	int		 r;

	if ((r = sd_bus_message_enter_container(src, 'a', "(sv)")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'a', "(sv)")) < 0)
		return r;
	while ((r = sd_bus_message_enter_container(src, 'r', "sv")) > 0) {
		if ((r = sd_bus_message_read_basic(src, 's', &name)) < 0)
			return r;
		if ((variant == BP_NOMOUNT && is_mount(name)) ||
		    (variant == BP_SKIP && strcmp(name, bench_skip) == 0))
			r = sd_bus_message_skip(src, "v");
		else if ((r = sd_bus_message_open_container(m, 'r',
		    "sv")) >= 0 &&
		    (r = sd_bus_message_append_basic(m, 's', name)) >= 0 &&
		    (r = sd_bus_message_copy(m, src, 0)) >= 0)
			r = sd_bus_message_close_container(m);
		if (r < 0 || (r = sd_bus_message_exit_container(src)) < 0)
			return r;
	}
	if (r < 0 || (r = sd_bus_message_exit_container(src)) < 0 ||
	    (r = sd_bus_message_close_container(m)) < 0)
		return r;
	return sd_bus_message_copy(m, src, 1);	/* no auxiliary units */
}

int
bench_props_message(sd_bus *bus, const struct unit_spec *in, int variant,
    sd_bus_message **out)
{
	sd_bus_message	*src = NULL, *m = NULL;
	int		 r;

	if (variant == BP_PARENT)
		return props_start_message(bus, in, out);
	*out = NULL;
	if ((r = props_start_message(bus, in, &src)) < 0)
		return r;
	if ((r = sd_bus_message_seal(src, 1, 0)) >= 0 &&
	    (r = sd_bus_message_rewind(src, 1)) >= 0 &&
	    (r = sd_bus_message_skip(src, "ss")) >= 0 &&
	    (r = start_open(bus, in->name, &m)) >= 0)
		r = copy_variant(m, src, variant);
	sd_bus_message_unref(src);
	if (r < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	*out = m;
	return 0;
}
