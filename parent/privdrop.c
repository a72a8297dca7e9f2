/*
 * privdrop.c: the root parent gives up every capability but one once
 * the relay runs (trust level: root parent).  What the parent does
 * afterwards needs no other: the system bus checks its uid, not a
 * capability; a client's liveness is poll() on a pidfd; the run
 * directory was made and chowned before (parent_make_rundir).  The one
 * kept is CAP_CHOWN, for fchown() of each session's fresh terminal to
 * the session user (parent/pty.c); in the parent's mount namespace
 * (ProtectSystem=strict, private /dev and /tmp) almost nothing else is
 * writable to use it on.  The parent stays uid 0 for PID 1
 * (StartTransientUnit with User= is accepted from uid 0 only), and
 * locks the securebits so that nothing, not even an exec of a
 * root-owned file, gives any other capability back.
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
#include "parent/privdrop.h"

/* The value is spelled out in privdrop.h; prove it is this set. */
_Static_assert(PARENT_SECUREBITS == (SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
    SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
    SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
    SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED), "PARENT_SECUREBITS");

#define KEPT_CAP	CAP_CHOWN

/* Needs CAP_SETPCAP, so it runs before capset() empties the rest. */
static void
drop_bounding(void)
{
	int	cap, rv;

	for (cap = 0; (rv = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0;
	    cap++)
		if (rv == 1 && cap != KEPT_CAP &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
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

/* The kept capability's bit in 32-bit word i of a capability set. */
static uint32_t
kept_set(size_t i)
{
	return i == (size_t)(KEPT_CAP / 32) ? 1u << (KEPT_CAP % 32) : 0;
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
		if (data[i].effective != kept_set(i) ||
		    data[i].permitted != kept_set(i) ||
		    data[i].inheritable != 0)
			fatalx("capabilities left after the drop");
	for (cap = 0; (rv = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) >= 0;
	    cap++) {
		if (rv != (cap == KEPT_CAP))
			fatalx("capability %d %s in the bounding set", cap,
			    rv ? "left" : "missing");
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
	data[KEPT_CAP / 32].effective = kept_set(KEPT_CAP / 32);
	data[KEPT_CAP / 32].permitted = kept_set(KEPT_CAP / 32);
	caps_io(1, data);
	check_dropped();
	log_info("capabilities kept: cap_chown only (effective, permitted "
	    "and bounding sets, for the session terminals; inheritable and "
	    "ambient sets empty); securebits %#lx locked", PARENT_SECUREBITS);
}
