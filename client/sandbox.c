/*
 * sandbox.c: the seccomp filter opencode-pty-client puts on itself
 * once its descriptors are checked.  Runs as byk.  From then on the
 * process can only format, send on fd 3, wait for fd 3 to drain, write
 * a message to fd 2 and exit: no path, no new socket, no new
 * descriptor.  docs/CLIENT.md lists every rule and why it is there.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/prctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"

static int
add_rules(scmp_filter_ctx ctx)
{
	int	rv;

	/* The one sendmsg() that carries the frame and the descriptor. */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendmsg), 2,
	    SCMP_A0(SCMP_CMP_EQ, CLIENT_FD_SOCK),
	    SCMP_A2(SCMP_CMP_EQ, MSG_NOSIGNAL))) != 0)
		return rv;
	/* send() of a short write's rest: no address, so no new peer. */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 4,
	    SCMP_A0(SCMP_CMP_EQ, CLIENT_FD_SOCK),
	    SCMP_A3(SCMP_CMP_EQ, MSG_NOSIGNAL),
	    SCMP_A4(SCMP_CMP_EQ, 0), SCMP_A5(SCMP_CMP_EQ, 0))) != 0)
		return rv;
	/* Waiting on a full non-blocking socket (one pollfd). */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(poll), 1,
	    SCMP_A1(SCMP_CMP_EQ, 1))) != 0)
		return rv;
	/* The one-line refusal on stderr. */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
	    SCMP_A0(SCMP_CMP_EQ, STDERR_FILENO))) != 0)
		return rv;
#ifdef __SANITIZE_ADDRESS__
	/*
	 * ASan test builds only (the shipped client is never one): the
	 * runtime asks where the alternate signal stack is before every
	 * noreturn call, exit included.  A query, never a change.
	 */
	if ((rv = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sigaltstack),
	    1, SCMP_A0(SCMP_CMP_EQ, 0))) != 0)
		return rv;
#endif
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group), 0);
}

/* 0 once the filter is loaded; -1 with a reason otherwise. */
int
sandbox_enter(char *err, size_t errlen)
{
	scmp_filter_ctx	ctx;
	int		rv;

	/* Asked for explicitly rather than left to a libseccomp default. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		snprintf(err, errlen, "PR_SET_NO_NEW_PRIVS: %s",
		    strerrordesc_np(errno));
		return -1;
	}
	if ((ctx = seccomp_init(SCMP_ACT_KILL_PROCESS)) == NULL) {
		snprintf(err, errlen, "seccomp_init failed");
		return -1;
	}
	/* Any other ABI (i386 int 0x80, x32) is killed, not translated. */
	rv = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS);
	if (rv == 0)
		rv = add_rules(ctx);
	if (rv == 0)
		rv = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rv != 0) {
		snprintf(err, errlen, "seccomp filter: %s",
		    strerrordesc_np(rv < 0 ? -rv : EINVAL));
		return -1;
	}
	return 0;
}
