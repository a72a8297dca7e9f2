/*
 * benchprops.c: the session unit's StartTransientUnit call for
 * opty-benchunit (never installed; trusts its caller).  It compiles
 * dbusd/props.c itself, unchanged, with one difference: the ExecStart
 * path is a variable, so that the same property set can start the
 * launcher of an older build (the "old script path", see
 * docs/BENCHMARKS.md).  bench_props_message() also builds the variants
 * the analysis measures: BP_NOMOUNT, without the session's mount
 * sandbox; BP_SKIP, without one fixed property, to tell each one's
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

/* BP_NOMOUNT: the parent's set without its mount sandbox. */
static int
append_variant(sd_bus_message *m, const struct unit_spec *in,
    int variant)
{
	const char	*name;
	size_t		 i;
	int		 r;

	if ((r = props_check(in)) < 0 ||
	    (r = sd_bus_message_open_container(m, 'a', "(sv)")) < 0 ||
	    (r = append_dynamic(m, in)) < 0)
		return r;
	for (i = 0; i < props_nfixed; i++) {
		name = props_fixed[i].name;
		if ((variant == BP_NOMOUNT && is_mount(name)) ||
		    (variant == BP_SKIP && strcmp(name, bench_skip) == 0))
			continue;
		if ((r = append_def(m, &props_fixed[i])) < 0)
			return r;
	}
	return sd_bus_message_close_container(m);
}

int
bench_props_message(sd_bus *bus, const struct unit_spec *in, int variant,
    sd_bus_message **out)
{
	sd_bus_message	*m = NULL;
	int		 r;

	if (variant == BP_PARENT)
		return props_start_message(bus, in, out);
	*out = NULL;
	if ((r = sd_bus_message_new_method_call(bus, &m,
	    "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
	    "org.freedesktop.systemd1.Manager", "StartTransientUnit")) < 0)
		return r;
	if ((r = sd_bus_message_append(m, "ss", in->name, "fail")) < 0 ||
	    (r = append_variant(m, in, variant)) < 0 ||
	    (r = sd_bus_message_append(m, "a(sa(sv))", 0)) < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	*out = m;
	return 0;
}
