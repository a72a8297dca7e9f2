/*
 * opty-lxdirect.c: test tool (never installed), run as root.  Runs a
 * program with the approved directory on fd 2 the way the root parent
 * passes it (a socket whose queued message carries the directory,
 * proto/dirsock.c), so that regress/it/20-launcher.sh can run the
 * installed launcher directly, outside any unit, for the refusals that
 * a unit made by the supervisor can never show.  It starts no unit.
 *
 *	opty-lxdirect [-s | -o] [-r] dir|- program [arg ...]
 *
 * fd 0 and 1 are the slave of a new PTY that is no session's controlling
 * terminal yet, as in a session unit; what the program writes there is
 * copied to stdout (with the terminal's CRs), and its exit status is ours.
 * dir: its directory message goes on fd 2; "-": fd 2 becomes fd 1.
 * -r: the directory itself on fd 2, not a socket.
 * -s: fd 0 and 1 are one end of a socket pair instead (no terminal);
 * -o: only fd 1 is, fd 0 stays the PTY's slave.
 * Use setpriv as the program to run the launcher as another user: the
 * socket's peer stays root, as the launcher demands.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/cmsgfd.h"

static void __attribute__((noreturn))
die(const char *what)
{
	perror(what);
	exit(125);
}

/* fd 2 as asked: a directory message, the directory, or fd 1. */
static void
set_stderr(const char *dir, int raw)
{
	int	 dfd, s;

	if (strcmp(dir, "-") == 0) {
		if (dup2(1, 2) == -1)
			die("dup2");
		return;
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		die(dir);
	if (raw)
		s = dfd;
	else if ((s = dirsock_make(dfd)) == -1)
		die("dirsock_make");
	if (dup2(s, 2) == -1)
		die("dup2");
}

/* The master of a new PTY; *slavep its slave. */
static int
pty_new(int *slavep)
{
	int	 m;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1 ||
	    unlockpt(m) == -1 ||
	    (*slavep = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		die("pty");
	/*
	 * The launcher re-opens its terminal by name as the session user,
	 * who owns a session's terminal; here the user is whoever setpriv
	 * makes it, so this run's terminal is open to all.
	 */
	if (fchmod(*slavep, 0666) == -1)
		die("fchmod");
	return m;
}

/* Copies fd to stdout until EOF, or EIO once no slave is open. */
static void
copy_out(int fd)
{
	char	 buf[4096];
	ssize_t	 n;

	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n == -1 &&
	    errno == EINTR))
		if (n > 0 && write(1, buf, (size_t)n) != n)
			die("write");
}

/* mode 't': PTY on 0/1; 's': socket on 0/1; 'o': PTY on 0, socket on 1. */
static int
run(int mode, char *argv[], const char *dir, int raw)
{
	int	 m, slave, sp[2], in, out, status;
	pid_t	 pid;

	m = pty_new(&slave);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		die("socketpair");
	in = mode == 's' ? sp[1] : slave;
	out = mode == 't' ? slave : sp[1];
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		if (dup2(in, 0) == -1 || dup2(out, 1) == -1)
			die("dup2");
		set_stderr(dir, raw);
		execv(argv[0], argv);
		die(argv[0]);
	}
	close(slave);
	close(sp[1]);
	copy_out(mode == 't' ? m : sp[0]);
	if (waitpid(pid, &status, 0) == -1)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int
main(int argc, char *argv[])
{
	int	 ch, mode = 't', raw = 0;

	while ((ch = getopt(argc, argv, "+osr")) != -1) {
		switch (ch) {
		case 's':
		case 'o': mode = ch; break;
		case 'r': raw = 1; break;
		default:
			fprintf(stderr, "usage: opty-lxdirect [-s | -o] [-r] "
			    "dir|- program [arg ...]\n");
			return 125;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2) {
		fprintf(stderr, "opty-lxdirect: need dir and program\n");
		return 125;
	}
	return run(mode, argv + 1, argv[0], raw);
}
