/*
 * landlock.h: the Landlock domain every session runs in (session user in
 * the launcher; the root parent may include it to detect and log the
 * same facts).  Self-contained: libc and raw syscalls only, no
 * <linux/landlock.h>, whose Debian 12 copy lacks the newer fields.
 * See docs/LAUNCHER.md, "Landlock".
 */
#ifndef OPTY_LANDLOCK_H
#define OPTY_LANDLOCK_H

#include <stddef.h>

/*
 * ABI 1 cannot make a valid ruleset without denying every rename and
 * link across directories (LANDLOCK_ACCESS_FS_REFER cannot be granted
 * there), so it is refused like a kernel without Landlock.
 */
#define OPTY_LANDLOCK_ABI_MIN	2
/* From this ABI, signals and abstract UNIX sockets are scoped too. */
#define OPTY_LANDLOCK_ABI_SCOPE	6

/* The highest ABI the kernel supports (>= 1), or -errno. */
int	landlock_abi(void);
/*
 * Sets no_new_privs and puts the caller in a new domain built for ABI
 * abi (at least OPTY_LANDLOCK_ABI_MIN, at most what the kernel has).
 * 0, or -1 with errno set.  The caller must be single-threaded.
 */
int	landlock_enter(int);
/*
 * One printable line (no newline) saying what landlock_enter() puts in
 * force for an ABI, or why a value from landlock_abi() is refused.
 * Returns what snprintf(3) returns.
 */
int	landlock_describe(int, char *, size_t);

#endif
