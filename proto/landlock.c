/*
 * landlock.c: what the kernel's Landlock offers, asked without acting on
 * the caller (any trust level: the root parent checks it at start-up and
 * logs it per session; the launcher asks before it enters its domain).
 * Raw syscalls: glibc has no wrapper, and Debian 12's <linux/landlock.h>
 * lacks the newer fields.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/syscall.h>

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "proto/landlock.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444	/* every arch but alpha */
#endif

int
landlock_abi(void)
{
	long	v;

	v = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_RULESET_VERSION);
	if (v < 0)
		return -1;
	if (v == 0 || v > 1000) {
		errno = EPROTO;
		return -1;
	}
	return (int)v;
}

int
landlock_describe(int abi, char *buf, size_t len)
{
	if (abi < OPTY_LANDLOCK_ABI_MIN)
		return snprintf(buf, len, "Landlock ABI %d refused: it "
		    "cannot allow renames across directories (need ABI %d)",
		    abi, OPTY_LANDLOCK_ABI_MIN);
	if (abi < OPTY_LANDLOCK_ABI_SCOPE)
		return snprintf(buf, len, "Landlock ABI %d: ptrace-class "
		    "access scoped to the session; signals and abstract UNIX "
		    "sockets not scoped (ABI %d); file system unrestricted",
		    abi, OPTY_LANDLOCK_ABI_SCOPE);
	return snprintf(buf, len, "Landlock ABI %d: ptrace-class access, "
	    "signals and abstract UNIX sockets scoped to the session; file "
	    "system unrestricted", abi);
}
