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
 *	landlock5	landlock_create_ruleset(NULL, 0, VERSION) returns 5,
 *			as on Linux 6.10 and 6.11 (no signal or abstract
 *			socket scoping)
 *
 * A seccomp errno cannot return a positive value, so landlock5 sends that
 * one call to a user-notification listener.  The process that execs the
 * program stays the unit's main process (Type=notify, MainPID); a forked
 * child answers each notification with 5 and dies with it (PDEATHSIG),
 * or with the unit's cgroup.
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
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <seccomp.h>

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD	77
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#endif
#define LANDLOCK_VERSION_FLAG	1U	/* LANDLOCK_CREATE_RULESET_VERSION */
#define LANDLOCK5_ABI		5

static int
usage(void)
{
	fprintf(stderr, "usage: opty-oldkernel peerpidfd|landlock|landlock5 "
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
	if (strcmp(feature, "landlock5") == 0)
		return seccomp_rule_add(ctx, SCMP_ACT_NOTIFY,
		    SYS_landlock_create_ruleset, 1,
		    SCMP_A2(SCMP_CMP_EQ, LANDLOCK_VERSION_FLAG));
	return -EINVAL;
}

/* Answers every notification of the listener with ABI 5; never returns. */
static void
serve_landlock5(int fd, pid_t parent)
{
	struct seccomp_notif		*req;
	struct seccomp_notif_resp	*resp;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(0);
	if (seccomp_notify_alloc(&req, &resp) < 0) {
		fprintf(stderr, "opty-oldkernel: seccomp_notify_alloc\n");
		_exit(1);
	}
	for (;;) {
		/* The kernel refuses a buffer that is not zero. */
		memset(req, 0, sizeof(*req));
		if (seccomp_notify_receive(fd, req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			_exit(0);	/* no process uses the filter */
		}
		memset(resp, 0, sizeof(*resp));
		resp->id = req->id;
		if (req->data.nr == SYS_landlock_create_ruleset &&
		    req->data.args[2] == LANDLOCK_VERSION_FLAG)
			resp->val = LANDLOCK5_ABI;
		else
			resp->error = -ENOSYS;
		/* ENOENT: the caller died or was interrupted; go on. */
		(void)seccomp_notify_respond(fd, resp);
	}
}

/*
 * The listener goes to a child; this process keeps its pid and execs
 * the program, so it stays the one systemd watches.
 */
static int
fork_server(scmp_filter_ctx ctx)
{
	pid_t	parent = getpid();
	int	fd;

	if ((fd = seccomp_notify_fd(ctx)) < 0) {
		fprintf(stderr, "opty-oldkernel: no listener\n");
		return -1;
	}
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		return -1;
	switch (fork()) {
	case -1:
		return -1;
	case 0:
		serve_landlock5(fd, parent);
		_exit(1);
	default:
		return 0;
	}
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
	if (strcmp(argv[1], "landlock5") == 0 && fork_server(ctx) == -1) {
		fprintf(stderr, "opty-oldkernel: listener: %s\n",
		    strerror(errno));
		return 1;
	}
	seccomp_release(ctx);
	execv(argv[2], argv + 2);
	fprintf(stderr, "opty-oldkernel: exec %s: %s\n", argv[2],
	    strerror(errno));
	return 127;
}
