/*
 * stage1.c: what systemd starts (session user, fresh unit).  fd 0/1 are
 * the stream, fd 2 a socket carrying the approved directory, opened
 * outside the unit.  Before anything else the directory is taken from
 * it, re-opened by its path inside the unit and made the cwd, the
 * foreign descriptor is closed, fd 2 becomes the stream, and the
 * process enters its Landlock domain.  Every
 * argument is then checked before anything else changes; the
 * environment is emptied but for the encoded argv, the running image is
 * bound to fd 3, and script(1) gets a PTY whose child re-executes that
 * image with --exec.  The command line script runs is a constant: no
 * argument ever reaches a shell.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/landlock.h"
#include "launcher/launcher.h"
#include "proto/argcodec.h"
#include "proto/dirsock.h"

/*
 * The approved directory arrives as the one descriptor of a message on
 * fd 2, a socket the root parent made (proto/dirsock.c).  The cwd then
 * becomes that directory as the unit's mount namespace sees it, and the
 * received descriptor, the only way back to the host's tree, is closed;
 * fd 2 becomes the stream.
 */
static void
outer_reanchor(void)
{
	static struct reanchor	 ra;
	static char		 reason[PATH_MAX + 128];
	int			 dirfd, fd, err;

	if ((dirfd = dirsock_take(STDERR_FILENO, &err)) < 0) {
		errno = err;
		if (err != 0)
			lx_fail(LX_CHDIR, "%s", dirsock_strerror(dirfd));
		lx_failx(LX_CHDIR, "%s", dirsock_strerror(dirfd));
	}
	if ((fd = reanchor(dirfd, &ra)) == -1) {
		if (ra.status == RA_E_NOTDIR)
			lx_failx(LX_CHDIR, "the directory descriptor is not a "
			    "directory");
		reanchor_reason(&ra, reason, sizeof(reason));
		lx_failx(LX_REANCHOR, "%s", reason);
	}
	if (fchdir(fd) == -1)
		lx_fail(LX_CHDIR, "fchdir to the directory");
	close(fd);
	close(dirfd);
	if (dup2(STDOUT_FILENO, STDERR_FILENO) == -1)
		lx_fail(LX_FD, "dup2 stdout to stderr");
	lx_setfd(STDERR_FILENO);
}

/* Fail closed: no session runs outside a domain. */
static void
outer_landlock(void)
{
	int	abi;

	if ((abi = landlock_abi()) < 0) {
		errno = -abi;
		lx_fail(LX_LANDLOCK, "Landlock is not available");
	}
	if (abi < OPTY_LANDLOCK_ABI_MIN)
		lx_failx(LX_LANDLOCK, "Landlock ABI %d is too old (need %d)",
		    abi, OPTY_LANDLOCK_ABI_MIN);
	if (landlock_enter(abi) == -1)
		lx_fail(LX_LANDLOCK, "entering a Landlock domain (ABI %d)",
		    abi);
}

static char *
outer_envstr(int n, char *const enc[])
{
	static const char	 prefix[] = LAUNCHER_ARGV_VAR "=";
	size_t			 total;
	char			*s;
	int			 i;

	/* Checked arguments: at most 128 of at most ARG_ENC_MAX bytes. */
	total = sizeof(prefix);
	for (i = 0; i < n; i++)
		total += strlen(enc[i]) + 1;
	if (total > LAUNCHER_ENVSTR_MAX)
		lx_failx(LX_USAGE, "arguments too long in total");
	if ((s = malloc(total)) == NULL)
		lx_fail(LX_ENV, "malloc");
	memcpy(s, prefix, sizeof(prefix) - 1);
	if (args_join(n, enc, s + sizeof(prefix) - 1,
	    total - (sizeof(prefix) - 1)) == -1)
		lx_failx(LX_USAGE, "arguments too long in total");
	return s;
}

void
stage_outer(int argc, char *argv[])
{
	struct argfault	 af;
	char		*envp[3];
	char		*sargv[] = { "script", "-q", "-e", "-f", "-c",
			    LAUNCHER_INNER, "/dev/null", NULL };

	/* fd 2 is the directory's socket until outer_reanchor: the stream. */
	lx_setfd(STDOUT_FILENO);
	if (fds_stdio_open() == -1)
		lx_failx(LX_FD, "stdin, stdout or stderr is not open");
	outer_reanchor();
	outer_landlock();
	if (argc < 1)
		lx_failx(LX_USAGE, "started without argv[0]");
	if (args_check(argc - 1, argv + 1, &af) == -1) {
		if (af.index < 0)
			lx_failx(LX_USAGE, "need 1 to %d arguments, got %d",
			    START_MAX_ARGS, argc - 1);
		lx_failx(LX_USAGE, "argument %d: %s", af.index + 1,
		    arg_strerror(af.status));
	}
	envp[0] = outer_envstr(argc - 1, argv + 1);
	/*
	 * script(1) runs its -c string with $SHELL; without one, newer
	 * util-linux (Debian sid) takes the user's login shell, which may
	 * be nologin.  Stage 2 clears it with the rest.
	 */
	envp[1] = LAUNCHER_SCRIPT_SHELL;
	envp[2] = NULL;

	if (clearenv() != 0)
		lx_failx(LX_ENV, "clearenv");
	if (fds_close_from(LAUNCHER_SELF_FD) == -1)
		lx_fail(LX_FD, "close_range");
	if (fds_bind_self() == -1)
		lx_fail(LX_SELF, "bind %s to fd %d", LAUNCHER_SELF_EXE,
		    LAUNCHER_SELF_FD);
	if (fds_close_from(LAUNCHER_SELF_FD + 1) == -1)
		lx_fail(LX_FD, "close_range");

	execve(LAUNCHER_SCRIPT, sargv, envp);
	lx_fail(LX_SCRIPT, "execve %s", LAUNCHER_SCRIPT);
}
