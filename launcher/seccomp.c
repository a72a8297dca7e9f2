/*
 * seccomp.c: the system call filter of a session (session user, in the
 * launcher, after the Landlock domain and just before the command's
 * execve; every descendant of the command inherits it).
 *
 * It is a deny-list of the calls that name another process, process
 * group or user and that Landlock does not scope, not a sandbox of the
 * command: the default action is ALLOW.  Signals (the kill family,
 * pidfd_send_signal, F_SETOWN) and ptrace-class access (ptrace,
 * process_vm_*, pidfd_getfd, /proc/<pid>/mem) are left to the Landlock
 * domain, so a shell still signals and traces its own children.  A
 * refused call fails with EPERM (clone3 with ENOSYS, so that glibc
 * falls back to clone, whose flags a filter can read); nothing is
 * killed but a call of another architecture.  docs/SANDBOX.md, "The
 * session's system calls", has a row for each name below, and
 * regress/host/syscall-table.sh checks that the two lists agree: every
 * rule names its call with one of the SC_* macros, one per line.
 *
 * The kernel reads these arguments as int and ignores the upper half
 * of the register, which the caller may leave as it likes.  So a rule
 * that refuses an int equal to a value compares the low 32 bits only
 * (MASKED_EQ with 0xffffffff); a rule that refuses an int unequal to a
 * value compares all 64 bits, which refuses a superset: a caller that
 * left garbage above a 0 is refused too, never let through.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/resource.h>

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include <seccomp.h>

#include "launcher/launcher.h"

/* The kernel's UAPI values (linux/ioprio.h, linux/perf_event.h). */
#define IOPRIO_WHO_PROCESS	1
#define PERF_FLAG_PID_CGROUP	(1UL << 2)
#define LOW32			0xffffffffULL

/* Every namespace flag unshare(2) takes; clone(2) has all but NEWTIME. */
#define NS_CLONE_FLAGS	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | \
			 CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWNET)
#define NS_TIME_FLAG	0x00000080ULL	/* CLONE_NEWTIME */

#define EPERM_ACT	SCMP_ACT_ERRNO(EPERM)

/* Refused with EPERM unless argument arg is 0: the caller itself. */
#define SC_SELF(call, arg)	sc_self(ctx, SCMP_SYS(call), arg)
/* Refused with EPERM always. */
#define SC_DENY(call)		sc_deny(ctx, SCMP_SYS(call))
/* Refused with EPERM when an argument matches (the rule says which). */
#define SC_WHEN(call)		SCMP_SYS(call)

static int
sc_self(scmp_filter_ctx ctx, int nr, unsigned int arg)
{
	struct scmp_arg_cmp	cmp;

	cmp.arg = arg;
	cmp.op = SCMP_CMP_NE;
	cmp.datum_a = 0;
	cmp.datum_b = 0;
	return seccomp_rule_add_array(ctx, EPERM_ACT, nr, 1, &cmp);
}

static int
sc_deny(scmp_filter_ctx ctx, int nr)
{
	return seccomp_rule_add(ctx, EPERM_ACT, nr, 0);
}

/* One rule per flag: a call with any of them is refused. */
static int
sc_flags(scmp_filter_ctx ctx, int nr, uint64_t flags)
{
	uint64_t	bit;
	int		rv;

	for (bit = 1; bit != 0 && bit <= flags; bit <<= 1) {
		if ((flags & bit) == 0)
			continue;
		if ((rv = seccomp_rule_add(ctx, EPERM_ACT, nr, 1,
		    SCMP_A0(SCMP_CMP_MASKED_EQ, bit, bit))) != 0)
			return rv;
	}
	return 0;
}

/* Limits, priorities, CPUs, memory placement: the caller only. */
static int
add_self_rules(scmp_filter_ctx ctx)
{
	int	rv;

	if ((rv = SC_SELF(prlimit64, 0)) != 0 ||
	    (rv = SC_SELF(sched_setaffinity, 0)) != 0 ||
	    (rv = SC_SELF(sched_setscheduler, 0)) != 0 ||
	    (rv = SC_SELF(sched_setparam, 0)) != 0 ||
	    (rv = SC_SELF(sched_setattr, 0)) != 0 ||
	    (rv = SC_SELF(sched_getattr, 0)) != 0 ||
	    (rv = SC_SELF(sched_rr_get_interval, 0)) != 0 ||
	    (rv = SC_SELF(migrate_pages, 0)) != 0 ||
	    (rv = SC_SELF(move_pages, 0)) != 0 ||
	    (rv = SC_SELF(get_robust_list, 0)) != 0)
		return rv;
	/* PRIO_PROCESS (0) of who 0: nice(3) and the like. */
	if ((rv = SC_SELF(setpriority, 0)) != 0 ||
	    (rv = SC_SELF(setpriority, 1)) != 0 ||
	    (rv = SC_SELF(getpriority, 0)) != 0 ||
	    (rv = SC_SELF(getpriority, 1)) != 0)
		return rv;
	/* IOPRIO_WHO_PROCESS of who 0: ionice(1) of itself. */
	if ((rv = seccomp_rule_add(ctx, EPERM_ACT, SC_WHEN(ioprio_set), 1,
	    SCMP_A0(SCMP_CMP_NE, IOPRIO_WHO_PROCESS))) != 0 ||
	    (rv = SC_SELF(ioprio_set, 1)) != 0 ||
	    (rv = seccomp_rule_add(ctx, EPERM_ACT, SC_WHEN(ioprio_get), 1,
	    SCMP_A0(SCMP_CMP_NE, IOPRIO_WHO_PROCESS))) != 0 ||
	    (rv = SC_SELF(ioprio_get, 1)) != 0)
		return rv;
	return 0;
}

/* Calls with no use on the caller alone, and the user's keyrings. */
static int
add_deny_rules(scmp_filter_ctx ctx)
{
	int	rv;

	if ((rv = SC_DENY(process_madvise)) != 0 ||
	    (rv = SC_DENY(process_mrelease)) != 0 ||
	    (rv = SC_DENY(kcmp)) != 0 ||
	    (rv = SC_DENY(keyctl)) != 0 ||
	    (rv = SC_DENY(add_key)) != 0 ||
	    (rv = SC_DENY(request_key)) != 0 ||
	    (rv = SC_DENY(setns)) != 0)
		return rv;
	/* CPU-wide (pid -1) or cgroup-wide events; pid > 0 is ptrace's. */
	if ((rv = seccomp_rule_add(ctx, EPERM_ACT, SC_WHEN(perf_event_open),
	    1, SCMP_A1(SCMP_CMP_MASKED_EQ, LOW32, LOW32))) != 0 ||
	    (rv = seccomp_rule_add(ctx, EPERM_ACT, SC_WHEN(perf_event_open),
	    1, SCMP_A4(SCMP_CMP_MASKED_EQ, PERF_FLAG_PID_CGROUP,
	    PERF_FLAG_PID_CGROUP))) != 0)
		return rv;
	return 0;
}

/*
 * No new namespace: unshare and clone with any CLONE_NEW* flag.  clone3
 * passes its flags in memory a filter cannot read, so it is ENOSYS and
 * glibc falls back to clone (as under systemd's own filters).
 */
static int
add_ns_rules(scmp_filter_ctx ctx)
{
	int	rv;

	if ((rv = sc_flags(ctx, SC_WHEN(unshare),
	    NS_CLONE_FLAGS | NS_TIME_FLAG)) != 0 ||
	    (rv = sc_flags(ctx, SC_WHEN(clone), NS_CLONE_FLAGS)) != 0)
		return rv;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SC_WHEN(clone3), 0);
}

int
session_filter_load(void)
{
	scmp_filter_ctx	ctx;
	int		rv;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		return -ENOMEM;
	/* Native calls only: another ABI's numbers are other calls. */
	if ((rv = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS)) == 0 &&
	    (rv = add_self_rules(ctx)) == 0 &&
	    (rv = add_deny_rules(ctx)) == 0 &&
	    (rv = add_ns_rules(ctx)) == 0)
		rv = seccomp_load(ctx);
	seccomp_release(ctx);
	return rv;
}
