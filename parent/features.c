/*
 * features.c: the kernel and host facts the root parent needs before it
 * serves anybody (root, start-up only).  A missing requirement is a
 * refusal to start with a journal line that names it, never a silent
 * degradation; the optional hardening in force is logged once.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dbusd/dbusd.h"
#include "dbusd/props.h"
#include "proto/landlock.h"
#include "proto/log.h"
#include "parent/features.h"

static int	ll_abi;
static char	ll_text[192];

static const char *
landlock_hint(int e)
{
	switch (e) {
	case ENOSYS:
		return "this kernel has no Landlock (CONFIG_SECURITY_LANDLOCK)";
	case EOPNOTSUPP:
		return "Landlock is built in but off: add landlock to the "
		    "lsm= boot parameter";
	case EPERM:
		return "a seccomp filter refuses landlock_create_ruleset: the "
		    "unit's SystemCallFilter= must allow it";
	default:
		return "unexpected error";
	}
}

/*
 * The launcher confines every command with Landlock: without it, a
 * command could ptrace or take descriptors from any process of its
 * user.  A kernel that cannot do that, or only with an ABI the launcher
 * refuses, is refused here, not degraded.
 */
static void
landlock_check(void)
{
	int	err;

	if ((ll_abi = landlock_abi()) < 0) {
		err = errno;
		fatalx("Landlock is required (kernel >= 5.19 with landlock in "
		    "the lsm= list): landlock_create_ruleset: %s (%s)",
		    strerror(err), landlock_hint(err));
	}
	(void)landlock_describe(ll_abi, ll_text, sizeof(ll_text));
	if (ll_abi < OPTY_LANDLOCK_ABI_MIN)
		fatalx("Landlock is required (kernel >= 5.19): %s", ll_text);
	log_info("%s", ll_text);
}

/* What every session's launcher puts in force, for the session's log. */
const char *
features_landlock(void)
{
	return ll_text;
}

/*
 * A session's private /run hides the Docker socket at /var/run only
 * because /var/run leads there; a host where it is a directory of its
 * own would leave /var/run/docker.sock reachable.
 */
static void
var_run_check(void)
{
	char	real[PATH_MAX];

	if (realpath("/var/run", real) == NULL)
		fatal("/var/run");
	if (strcmp(real, "/run") != 0)
		fatalx("/var/run leads to %s, not /run: the session unit's "
		    "private /run would not cover it", real);
}

/* 1 if path is an allowlisted /run path or below one. */
static int
run_allowed(const char *path)
{
	const char *const	*a;
	const char		*p;
	size_t			 len;

	for (a = props_run_allow; *a != NULL; a++) {
		p = *a + (**a == '-');
		len = strlen(p);
		if (strncmp(path, p, len) == 0 &&
		    (path[len] == '\0' || path[len] == '/'))
			return 1;
	}
	return 0;
}

/*
 * Name resolution in a session reads /etc/resolv.conf, which may lead
 * into /run (systemd-resolved, resolvconf).  Outside the allowlist a
 * session cannot read it: say so, but serve (commands still run, only
 * DNS fails), since the allowlist is reviewed code, not configuration.
 */
static void
resolv_check(void)
{
	char	real[PATH_MAX];

	if (realpath("/etc/resolv.conf", real) == NULL) {
		log_warn("sessions: /etc/resolv.conf");
		return;
	}
	if (strncmp(real, "/run/", 5) == 0 && !run_allowed(real))
		log_warnx("sessions cannot read /etc/resolv.conf: it leads to "
		    "%s, outside their private /run (docs/UNITS.md)", real);
}

void
features_check(void)
{
	landlock_check();
	var_run_check();
	resolv_check();
}

void
features_report(struct dbusd *bus)
{
	struct pid1_info	pi;

	dbusd_pid1_info(bus, &pi);
	log_info("systemd %s; optional session hardening: PrivatePIDs=no "
	    "(%s; not used: the command would be a PID namespace's init, "
	    "deaf to its signals), Landlock signal and abstract socket "
	    "scoping %s", pi.version,
	    pi.private_pids ? "known to PID 1" : "unknown to PID 1",
	    ll_abi >= OPTY_LANDLOCK_ABI_SCOPE ? "yes" :
	    "no (Landlock ABI >= 6 needed)");
}
