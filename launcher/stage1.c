/*
 * stage1.c: what systemd starts (session user, fresh unit).  fd 0/1 are
 * the stream, fd 2 is the approved directory.  Every argument is
 * checked before anything changes; then the directory becomes the cwd,
 * fd 2 becomes the stream, the environment is emptied but for the
 * encoded argv, the running image is bound to fd 3, and script(1) gets
 * a PTY whose child re-executes that image with --exec.  The command
 * line script runs is a constant: no argument ever reaches a shell.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"

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
	char		*envp[2];
	char		*sargv[] = { "script", "-q", "-e", "-f", "-c",
			    LAUNCHER_INNER, "/dev/null", NULL };

	/* fd 2 is a directory until the dup2 below: report on the stream. */
	lx_setfd(STDOUT_FILENO);
	if (fds_stdio_open() == -1)
		lx_failx(LX_FD, "stdin, stdout or stderr is not open");
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
	envp[1] = NULL;

	if (fchdir(STDERR_FILENO) == -1)
		lx_fail(LX_CHDIR, "fchdir to the directory descriptor");
	if (dup2(STDOUT_FILENO, STDERR_FILENO) == -1)
		lx_fail(LX_FD, "dup2 stdout to stderr");
	lx_setfd(STDERR_FILENO);
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
