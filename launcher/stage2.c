/*
 * stage2.c: the launcher again, now inside the PTY (session user).  It
 * trusts the encoded argv it finds no more than stage 1 did: the same
 * decoder checks it again.  The environment is then replaced by the
 * fixed set, every descriptor above 2 (fd 3 included) is closed, and
 * the decoded argv is executed as it is, without a shell.
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"
#include "proto/config.h"

static char *
inner_take_argv(void)
{
	const char	*v;
	char		*copy;

	if ((v = getenv(LAUNCHER_ARGV_VAR)) == NULL)
		lx_failx(LX_ENV, "%s is not set", LAUNCHER_ARGV_VAR);
	if (strnlen(v, LAUNCHER_ENVSTR_MAX + 1) > LAUNCHER_ENVSTR_MAX)
		lx_failx(LX_USAGE, "%s too long", LAUNCHER_ARGV_VAR);
	if ((copy = strdup(v)) == NULL)
		lx_fail(LX_ENV, "strdup");
	/* Removes OPTY_ARGV and whatever script and sh added. */
	if (clearenv() != 0)
		lx_failx(LX_ENV, "clearenv");
	return copy;
}

static void
inner_env(struct fixedenv *fe)
{
	struct passwd	*pw;
	uid_t		 uid;

	uid = getuid();
	if (geteuid() != uid)
		lx_failx(LX_USER, "effective and real uid differ");
	errno = 0;
	if ((pw = getpwuid(uid)) == NULL) {
		if (errno != 0)
			lx_fail(LX_USER, "getpwuid");
		lx_failx(LX_USER, "uid %u is not in the password database",
		    (unsigned int)uid);
	}
	if (user_match(pw, uid, OPTY_USER) == -1)
		lx_failx(LX_USER, "not running as %s", OPTY_USER);
	if (env_build(fe, pw->pw_name, pw->pw_dir) == -1)
		lx_failx(LX_ENV, "cannot build the fixed environment");
}

void
stage_inner(void)
{
	static struct fixedenv	 fe;
	static char		 path[PATH_MAX];
	struct argfault		 af;
	char			*joined;
	char			*enc[START_MAX_ARGS + 1];
	char			*dec[START_MAX_ARGS + 1];
	int			 n;

	lx_setfd(STDERR_FILENO);
	if (fds_stdio_open() == -1)
		lx_failx(LX_FD, "stdin, stdout or stderr is not open");
	joined = inner_take_argv();
	if ((n = args_split(joined, enc, START_MAX_ARGS)) == -1)
		lx_failx(LX_USAGE, "%s is not a list of 1 to %d arguments",
		    LAUNCHER_ARGV_VAR, START_MAX_ARGS);
	if (args_decode(n, enc, dec, &af) == -1) {
		/* Buffers are sized from the input: only malloc fails so. */
		if (af.status == ARG_E_SPACE)
			lx_failx(LX_ENV, "out of memory");
		lx_failx(LX_USAGE, "argument %d: %s", af.index + 1,
		    arg_strerror(af.status));
	}
	inner_env(&fe);

	switch (path_lookup(dec[0], LAUNCHER_PATH, path, sizeof(path))) {
	case PATH_OK:
		break;
	case PATH_E_EMPTY:
		lx_failx(LX_NOTFOUND, "empty command name");
	case PATH_E_TOOLONG:
		lx_failx(LX_NOTFOUND, "command name too long");
	default:
		lx_failx(LX_NOTFOUND, "command not found in %s",
		    LAUNCHER_PATH);
	}
	if (sig_reset() == -1)
		lx_fail(LX_EXEC, "sigprocmask");
	if (fds_close_from(LAUNCHER_SELF_FD) == -1)
		lx_fail(LX_FD, "close_range");

	execve(path, dec, fe.vec);
	lx_fail(LX_EXEC, "execve");
}
