/*
 * relayproc.c: starts the unprivileged relay (root parent side).  The
 * relay is a fresh image exec'd from a fixed root-owned path with only
 * the channel and the listening socket open; it drops its own
 * privileges before it reads a client byte.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/log.h"
#include "parent/parent.h"

/* Moves fd above the fixed slots so the dup2()s below cannot clobber. */
static int
relay_fd_high(int fd)
{
	int	 nfd;

	if ((nfd = fcntl(fd, F_DUPFD_CLOEXEC, 10)) == -1)
		_exit(126);
	return nfd;
}

static void __attribute__((noreturn))
relay_exec(int chfd, int lfd, int verbose)
{
	char		*argv[] = { "opencode-pty-relay", NULL, NULL };
	char		*envp[] = { NULL };
	sigset_t	 mask;

	chfd = relay_fd_high(chfd);
	lfd = relay_fd_high(lfd);
	if (dup2(chfd, RELAY_FD_PARENT) == -1 ||
	    dup2(lfd, RELAY_FD_LISTEN) == -1)
		_exit(126);
	if (close_range(RELAY_FD_LISTEN + 1, ~0U, 0) == -1)
		_exit(126);
	sigemptyset(&mask);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (verbose)
		argv[1] = "-v";
	execve(OPTY_RELAY_PATH, argv, envp);
	log_warn("exec %s", OPTY_RELAY_PATH);
	_exit(127);
}

pid_t
relay_spawn(int chfd, int lfd, int verbose)
{
	pid_t	 pid;

	if ((pid = fork()) == -1)
		fatal("fork relay");
	if (pid == 0)
		relay_exec(chfd, lfd, verbose);
	return pid;
}

static void __attribute__((noreturn))
relay_died(int status)
{
	parent->relay_pid = -1;
	if (WIFSIGNALED(status))
		fatalx("relay killed by signal %d", WTERMSIG(status));
	fatalx("relay exited with status %d", WEXITSTATUS(status));
}

/* SIGCHLD: the only child is the relay; its death is fatal. */
void
relay_reap(int sig, short ev, void *arg)
{
	int	 status;
	pid_t	 pid;

	(void)sig;
	(void)ev;
	(void)arg;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (pid == parent->relay_pid)
			relay_died(status);
}

/*
 * The channel closed: the relay is dying or dead.  Say how, so the log
 * tells a crash from a kill; a relay that lingers is fatal all the same.
 */
void
relay_lost(const char *why)
{
	int	 status, i;

	for (i = 0; i < 100 && parent->relay_pid > 0; i++) {
		if (waitpid(parent->relay_pid, &status, WNOHANG) ==
		    parent->relay_pid)
			relay_died(status);
		usleep(10000);
	}
	fatalx("relay %s", why);
}
