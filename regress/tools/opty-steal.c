/*
 * opty-steal.c: test only, never installed.  What an unrelated process
 * of the same uid tries against the Node service's MainPID: take each
 * of its descriptors with pidfd_getfd(2) and attach with ptrace(2).
 * One line per attempt on stdout, for regress/it/66-dumpable.sh:
 *
 *	opty-steal: getfd FD ok socket peer=PATH
 *	opty-steal: getfd FD ok other
 *	opty-steal: getfd FD errno=NAME
 *	opty-steal: ptrace ok | ptrace errno=NAME
 *
 *	opty-steal PID [MAXFD]
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
steal_fd(int pidfd, int target)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	socklen_t		 len = sizeof(sun);
	int			 fd;

	fd = (int)syscall(SYS_pidfd_getfd, pidfd, target, 0);
	if (fd == -1) {
		/* EBADF: nothing open there, not an answer about access. */
		if (errno != EBADF)
			printf("opty-steal: getfd %d errno=%s\n", target,
			    strerrorname_np(errno));
		return;
	}
	memset(&sun, 0, sizeof(sun));
	/* A client's connection names the listener's path as its peer. */
	if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    getpeername(fd, (struct sockaddr *)&sun, &len) == 0)
		printf("opty-steal: getfd %d ok socket peer=%.*s\n", target,
		    (int)sizeof(sun.sun_path), sun.sun_path[0] != '\0' ?
		    sun.sun_path : "-");
	else
		printf("opty-steal: getfd %d ok other\n", target);
	close(fd);
}

static void
steal_ptrace(pid_t pid)
{
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == -1) {
		printf("opty-steal: ptrace errno=%s\n", strerrorname_np(errno));
		return;
	}
	(void)waitpid(pid, NULL, __WALL);
	(void)ptrace(PTRACE_DETACH, pid, NULL, NULL);
	printf("opty-steal: ptrace ok\n");
}

static long
num(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > 1 << 22) {
		fprintf(stderr, "opty-steal: bad number %s\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char *argv[])
{
	pid_t	 pid;
	int	 pidfd, fd, maxfd = 16;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: opty-steal PID [MAXFD]\n");
		return 2;
	}
	pid = (pid_t)num(argv[1]);
	if (argc == 3)
		maxfd = (int)num(argv[2]);
	if ((pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) == -1) {
		printf("opty-steal: pidfd_open errno=%s\n",
		    strerrorname_np(errno));
		return 1;
	}
	for (fd = 0; fd <= maxfd; fd++)
		steal_fd(pidfd, fd);
	steal_ptrace(pid);
	(void)fflush(stdout);
	return 0;
}
