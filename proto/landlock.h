/*
 * landlock.h: what the kernel's Landlock offers, and what a session's
 * domain puts in force for each ABI (any trust level; no side effect).
 * The root parent refuses to start below OPTY_LANDLOCK_ABI_MIN and logs
 * landlock_describe() per session; the launcher enters the domain
 * (launcher/launcher.h).  See docs/LAUNCHER.md, "Landlock".
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_PROTO_LANDLOCK_H
#define OPTY_PROTO_LANDLOCK_H

#include <stddef.h>

/* The version query of landlock_create_ruleset(2). */
#define LANDLOCK_RULESET_VERSION	(1U << 0)

/*
 * ABI 1 cannot make a valid ruleset without denying every rename and
 * link across directories (LANDLOCK_ACCESS_FS_REFER cannot be granted
 * there), so it is refused like a kernel without Landlock.
 */
#define OPTY_LANDLOCK_ABI_MIN	2
/* From this ABI, signals and abstract UNIX sockets are scoped too. */
#define OPTY_LANDLOCK_ABI_SCOPE	6

/* The highest ABI the kernel supports (>= 1), or -1 with errno set. */
int	landlock_abi(void);
/*
 * One printable line (no newline) saying what the session's domain puts
 * in force for an ABI landlock_abi() gave, or why it is refused.
 * Returns what snprintf(3) returns.
 */
int	landlock_describe(int, char *, size_t);

#endif
