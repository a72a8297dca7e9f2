/*
 * opty-oldkernel.c: makes a program see an older kernel (test only, never
 * installed; runs as root in the disposable systemd, as the ExecStart= of
 * a drop-in that wraps the real supervisor).  It installs a seccomp filter
 * that answers one kernel feature the way a kernel without it does, then
 * execs the program unchanged:
 *
 *	peerpidfd	getsockopt(SOL_SOCKET, SO_PEERPIDFD) fails with
 *			ENOPROTOOPT, as before Linux 6.5
 *	landlock	landlock_create_ruleset() fails with ENOSYS, as on a
 *			kernel built without Landlock
 *
 * usage: opty-oldkernel FEATURE PROGRAM [ARG...]
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD	77
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#endif

static int
usage(void)
{
	fprintf(stderr, "usage: opty-oldkernel peerpidfd|landlock "
	    "PROGRAM [ARG...]\n");
	return 2;
}

static int
add_rule(scmp_filter_ctx ctx, const char *feature)
{
	if (strcmp(feature, "peerpidfd") == 0)
		return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOPROTOOPT),
		    SCMP_SYS(getsockopt), 2,
		    SCMP_A1(SCMP_CMP_EQ, SOL_SOCKET),
		    SCMP_A2(SCMP_CMP_EQ, SO_PEERPIDFD));
	if (strcmp(feature, "landlock") == 0)
		return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SYS_landlock_create_ruleset, 0);
	return -EINVAL;
}

int
main(int argc, char *argv[])
{
	scmp_filter_ctx	 ctx;
	int		 r;

	if (argc < 3)
		return usage();
	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL) {
		fprintf(stderr, "opty-oldkernel: seccomp_init failed\n");
		return 1;
	}
	if ((r = add_rule(ctx, argv[1])) == -EINVAL) {
		seccomp_release(ctx);
		return usage();
	}
	if (r < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    (r = seccomp_load(ctx)) < 0) {
		fprintf(stderr, "opty-oldkernel: filter: %s\n",
		    strerror(r < 0 ? -r : errno));
		seccomp_release(ctx);
		return 1;
	}
	seccomp_release(ctx);
	execv(argv[2], argv + 2);
	fprintf(stderr, "opty-oldkernel: exec %s: %s\n", argv[2],
	    strerror(errno));
	return 127;
}
