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
 * dir: its directory message goes on fd 2; "-": fd 2 becomes fd 1.
 * -r: the directory itself on fd 2, not a socket.
 * -s: fd 0 and 1 become one end of a socket pair (no terminal); -o: only
 *     fd 1 does.  What the program writes there is copied to stdout, and
 *     the program's exit status is ours.
 * Use setpriv as the program to run the launcher as another user: the
 * socket's peer stays root, as the launcher demands.
 */
#include <sys/socket.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/dirsock.h"

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

/* The child's fd 0 (both) or fd 1 (out only) on a socket pair. */
static int
run_on_socket(int both, char *argv[], const char *dir, int raw)
{
	char	 buf[4096];
	ssize_t	 n;
	int	 sp[2], status;
	pid_t	 pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		die("socketpair");
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		if ((both && dup2(sp[1], 0) == -1) || dup2(sp[1], 1) == -1)
			die("dup2");
		set_stderr(dir, raw);
		execv(argv[0], argv);
		die(argv[0]);
	}
	close(sp[1]);
	while ((n = read(sp[0], buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			die("write");
	if (waitpid(pid, &status, 0) == -1)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int
main(int argc, char *argv[])
{
	int	 ch, sock = 0, both = 0, raw = 0;

	while ((ch = getopt(argc, argv, "+osr")) != -1) {
		switch (ch) {
		case 's': sock = 1; both = 1; break;
		case 'o': sock = 1; both = 0; break;
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
	if (sock)
		return run_on_socket(both, argv + 1, argv[0], raw);
	set_stderr(argv[0], raw);
	execv(argv[1], argv + 1);
	die(argv[1]);
}
