/*
 * features.c: the kernel and host facts the root parent needs before it
 * serves anybody, and the operator's opt-ins (root, start-up only).  A
 * missing requirement is a refusal to start with a journal line that
 * names it, never a silent degradation; what is in force is logged
 * (the scoping again with systemd's version, main.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dbusd/dbusd.h"
#include "proto/config.h"
#include "proto/landlock.h"
#include "proto/log.h"
#include "parent/parent.h"

/*
 * An operator's opt-in, read once from the unit's environment, never
 * from anybody who can reach the socket: 1 if it is 1, 0 if unset or 0.
 * Anything else is a typo and stops the start, on any kernel.
 */
static int
optin(const char *name)
{
	const char	*v;

	if ((v = getenv(name)) == NULL || strcmp(v, "0") == 0)
		return 0;
	if (strcmp(v, "1") != 0)
		fatalx("%s=%s: must be 0 or 1", name, v);
	return 1;
}

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
static int
landlock_check(void)
{
	int	abi, err;

	if ((abi = landlock_abi()) < 0) {
		err = errno;
		fatalx("Landlock is required (kernel >= 5.19 with landlock in "
		    "the lsm= list): landlock_create_ruleset: %s (%s)",
		    strerror(err), landlock_hint(err));
	}
	(void)landlock_describe(abi, parent->landlock,
	    sizeof(parent->landlock));
	if (abi < OPTY_LANDLOCK_ABI_MIN)
		fatalx("Landlock is required (kernel >= 5.19): %s",
		    parent->landlock);
	log_info("%s", parent->landlock);
	return abi;
}

/*
 * Below ABI 6 the session's domain scopes neither signals nor abstract
 * UNIX sockets: a command could kill, or connect to an abstract socket
 * of, any process of its user, the Node service included.  That is
 * refused unless the operator accepts it in the unit.
 */
static void
landlock_scope_check(int ll_abi)
{
	int	 allow = optin(OPTY_ALLOW_UNSCOPED_ENV);

	if (ll_abi >= OPTY_LANDLOCK_ABI_SCOPE) {
		if (allow)
			log_info("%s=1 has no effect: Landlock ABI %d scopes "
			    "signals and abstract UNIX sockets",
			    OPTY_ALLOW_UNSCOPED_ENV, ll_abi);
		return;
	}
	if (!allow)
		fatalx("Landlock ABI %d is below ABI %d: Linux >= 6.12 "
		    "(Landlock ABI 6: signal and abstract UNIX socket "
		    "scoping) is required, or set %s=1 in the unit to serve "
		    "sessions without that scoping (docs/UNITS.md)", ll_abi,
		    OPTY_LANDLOCK_ABI_SCOPE, OPTY_ALLOW_UNSCOPED_ENV);
	parent->landlock_unscoped = 1;
	log_warnx("%s=1: Landlock ABI %d: sessions run WITHOUT signal and "
	    "abstract UNIX socket scoping: a command can signal any %s "
	    "process and connect to its abstract sockets (docs/UNITS.md)",
	    OPTY_ALLOW_UNSCOPED_ENV, ll_abi, OPTY_USER);
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
	landlock_scope_check(landlock_check());
	var_run_check();
	resolv_check();
	if ((parent->allow_dumpable = optin(OPTY_ALLOW_DUMPABLE_ENV)) != 0)
		log_warnx("%s=1: a DUMPABLE client, which any %s process can "
		    "take the socket of or ptrace, will be admitted "
		    "(docs/UNITS.md)", OPTY_ALLOW_DUMPABLE_ENV, OPTY_USER);
}
