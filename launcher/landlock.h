/*
 * landlock.h: the Landlock domain every session runs in (session user,
 * the launcher).  Self-contained: libc and raw syscalls only,
 * no <linux/landlock.h>, whose Debian 12 copy lacks the newer fields.
 * See docs/LAUNCHER.md, "Landlock".
 */
#ifndef OPTY_LAUNCHER_LANDLOCK_H
#define OPTY_LAUNCHER_LANDLOCK_H

#include "proto/landlock.h"

/*
 * Sets no_new_privs and puts the caller in a new domain built for ABI
 * abi (at least OPTY_LANDLOCK_ABI_MIN, at most what the kernel has).
 * 0, or -1 with errno set.  The caller must be single-threaded.
 */
int	landlock_enter(int);

#endif
