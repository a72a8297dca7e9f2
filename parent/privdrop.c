/*
 * privdrop.c: the root parent gives up every capability once the relay
 * runs (trust level: root parent).  What the parent does afterwards
 * needs none: the system bus checks its uid, not a capability; a
 * client's liveness is poll() on a pidfd; the run directory was made
 * and chowned before (relayproc.c); a session's terminal is made
 * the session user's by its devpts instance's mount options, which PID
 * 1 mounts (parent/pts.c), so no chown is left to do.  The parent stays
 * uid 0 for PID 1 (StartTransientUnit with User= is accepted from uid 0
 * only), and locks the securebits so that nothing, not even an exec of
 * a root-owned file, gives any capability back.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <stdint.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <string.h>
#include <unistd.h>

#include "proto/log.h"
#include "parent/parent.h"

/* Every securebit the parent sets, each with its lock; KEEP_CAPS off. */
#define PARENT_SECUREBITS	((unsigned long)(SECBIT_NOROOT | \
    SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | \
    SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | \
    SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED))

/* Needs CAP_SETPCAP, so it runs before capset() empties the rest. */
static void
drop_bounding(void)
{
	int	cap, rv;

	for (cap = 0; (rv = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0;
	    cap++)
		if (rv == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
			fatal("PR_CAPBSET_DROP %d", cap);
	if (errno != EINVAL)
		fatal("PR_CAPBSET_READ");
}

static void
caps_io(int set, struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3])
{
	struct __user_cap_header_struct	hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	hdr.pid = 0;
	if (syscall(set ? SYS_capset : SYS_capget, &hdr, data) == -1)
		fatal(set ? "capset" : "capget");
}

/* Proof, not hope: every set is read back from the kernel. */
static void
check_dropped(void)
{
	struct __user_cap_data_struct	data[_LINUX_CAPABILITY_U32S_3];
	size_t				i;
	int				cap, rv, bits;

	memset(data, 0xff, sizeof(data));
	caps_io(0, data);
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective != 0 || data[i].permitted != 0 ||
		    data[i].inheritable != 0)
			fatalx("capabilities left after the drop");
	for (cap = 0; (rv = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0;
	    cap++) {
		if (rv != 0)
			fatalx("capability %d left in the bounding set", cap);
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0,
		    0) != 0)
			fatalx("capability %d left in the ambient set", cap);
	}
	if ((bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0)) == -1)
		fatal("PR_GET_SECUREBITS");
	if ((unsigned long)bits != PARENT_SECUREBITS)
		fatalx("securebits %#x, expected %#lx", bits,
		    PARENT_SECUREBITS);
}

void
parent_drop_privileges(void)
{
	struct __user_cap_data_struct	data[_LINUX_CAPABILITY_U32S_3];

	drop_bounding();
	if (prctl(PR_SET_SECUREBITS, PARENT_SECUREBITS, 0, 0, 0) == -1)
		fatal("PR_SET_SECUREBITS %#lx", PARENT_SECUREBITS);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == -1)
		fatal("PR_CAP_AMBIENT_CLEAR_ALL");
	memset(data, 0, sizeof(data));
	caps_io(1, data);
	check_dropped();
	log_info("capabilities kept: none (effective, permitted, "
	    "inheritable, bounding and ambient sets empty); securebits %#lx "
	    "locked", PARENT_SECUREBITS);
}
