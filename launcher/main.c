/*
 * main.c: opencode-pty-launcher (session user, ExecStart of a session
 * unit).  One straight flow that ends in the command's execve, so that
 * the command itself becomes the unit's main process and systemd's
 * ExecMainCode/ExecMainStatus are its own:
 *   1. fd 0-2 are open;
 *   2. the approved directory is taken from fd 2, re-opened by its path
 *      inside the unit and made the cwd; fd 2 becomes the terminal;
 *   3. fd 0/1 must be one terminal, re-opened as the unit's
 *      /dev/pts/N (the same inode, or refused), which becomes fds 0-2
 *      and the controlling terminal of our session;
 *   4. the Landlock domain (fail closed);
 *   5. every argument through the canonical decoder;
 *   6. the session-user check and the fixed environment;
 *   7. argv[0] in the fixed PATH;
 *   8. default signals, empty mask, nothing open from fd 3 up;
 *   9. the system call filter (fail closed), the last step that could
 *      need a call it refuses;
 *  10. execve of the decoded argv, exactly.
 * Nothing here runs a shell or another program first.  docs/LAUNCHER.md
 * explains each step.
 *
 * The launcher's only way to give up is lx_fail()/lx_failx(): one line,
 * "opencode-pty-launcher: <reason>", on the terminal, then a status that
 * names the failure class.  Until fd 2 has been replaced that line goes
 * to fd 1: fd 2 is then the socket that carries the approved directory,
 * which nobody reads.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"
#include "proto/cmsgfd.h"
#include "proto/config.h"
#include "proto/dirtake.h"

/* One-line reasons, then a distinct exit status per failure class. */
static int	lx_errfd = STDERR_FILENO;

static void
lx_setfd(int fd)
{
	lx_errfd = fd;
}

static void __attribute__((noreturn, format(printf, 3, 0)))
lx_vfail(int status, int saved_errno, const char *fmt, va_list ap)
{
	char	msg[512], line[640];
	int	len;

	/* A truncated message is still worth writing. */
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	if (saved_errno != 0)
		len = snprintf(line, sizeof(line), "%s: %s: %s\n",
		    LAUNCHER_NAME, msg, strerror(saved_errno));
	else
		len = snprintf(line, sizeof(line), "%s: %s\n",
		    LAUNCHER_NAME, msg);
	if (len < 0)
		_exit(status);
	if ((size_t)len >= sizeof(line)) {
		/* Truncated: keep it one line. */
		len = sizeof(line) - 1;
		line[len - 1] = '\n';
	}
	/* The status still tells the class if this write fails. */
	if (write(lx_errfd, line, (size_t)len) != len)
		_exit(status);
	_exit(status);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
lx_fail(int status, const char *fmt, ...)
{
	int	 saved_errno = errno;
	va_list	 ap;

	va_start(ap, fmt);
	lx_vfail(status, saved_errno, fmt, ap);
	/* cppcheck-suppress va_end_missing ; lx_vfail() never returns */
}

static void __attribute__((noreturn, format(printf, 2, 3)))
lx_failx(int status, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	lx_vfail(status, 0, fmt, ap);
	/* cppcheck-suppress va_end_missing ; lx_vfail() never returns */
}

static void
check_stdio(void)
{
	int	fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1)
			lx_failx(LX_FD, "stdin, stdout or stderr is not open");
}

/*
 * The approved directory arrives as the one descriptor of a message on
 * fd 2, a socket the root parent made (proto/dirsock.c).  The cwd then
 * becomes that directory as the unit's mount namespace sees it, and the
 * received descriptor, the only way back to the host's tree, is closed
 * before anything else runs; fd 2 becomes the terminal.
 */
static void
take_directory(void)
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

static void
take_terminal(void)
{
	int	r;

	if ((r = tty_check(STDIN_FILENO, STDOUT_FILENO)) != TTY_OK ||
	    (r = tty_reopen()) != TTY_OK) {
		if (r == TTY_E_STAT || r == TTY_E_PTS)
			lx_fail(LX_TTY, "%s", tty_strerror(r));
		lx_failx(LX_TTY, "%s", tty_strerror(r));
	}
	/* fd 2 was fd 1 before the re-open (take_directory). */
	if (dup2(STDOUT_FILENO, STDERR_FILENO) == -1)
		lx_fail(LX_FD, "dup2 stdout to stderr");
	if (tty_acquire(STDIN_FILENO) == -1)
		lx_fail(LX_TTY, "cannot make stdin the controlling terminal");
}

/* Fail closed: no session runs outside a domain. */
static void
enter_landlock(void)
{
	int	abi;

	if ((abi = landlock_abi()) < 0)
		lx_fail(LX_LANDLOCK, "Landlock is not available");
	if (abi < OPTY_LANDLOCK_ABI_MIN)
		lx_failx(LX_LANDLOCK, "Landlock ABI %d is too old (need %d)",
		    abi, OPTY_LANDLOCK_ABI_MIN);
	if (landlock_enter(abi) == -1)
		lx_fail(LX_LANDLOCK, "entering a Landlock domain (ABI %d)",
		    abi);
}

/*
 * Fail closed: no session runs without its filter.  Loaded last, so
 * that nothing the launcher still does could need a refused call.
 */
static void
enter_filter(void)
{
	int	rv;

	if ((rv = session_filter_load()) != 0) {
		errno = -rv;
		lx_fail(LX_SECCOMP, "loading the system call filter");
	}
}

/* dec needs START_MAX_ARGS + 1 slots. */
static void
decode_args(int argc, char *argv[], char *dec[])
{
	struct argfault	 af;

	if (argc < 1)
		lx_failx(LX_USAGE, "started without argv[0]");
	if (args_decode(argc - 1, argv + 1, dec, &af) == -1) {
		if (af.index < 0)
			lx_failx(LX_USAGE, "need 1 to %d arguments, got %d",
			    START_MAX_ARGS, argc - 1);
		/* Buffers are sized from the input: only malloc fails so. */
		if (af.status == ARG_E_SPACE)
			lx_failx(LX_ENV, "out of memory");
		lx_failx(LX_USAGE, "argument %d: %s", af.index + 1,
		    arg_strerror(af.status));
	}
}

static void
build_env(struct fixedenv *fe)
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

static void
find_command(const char *name, char *path, size_t len)
{
	switch (path_lookup(name, LAUNCHER_PATH, path, len)) {
	case PATH_OK:
		return;
	case PATH_E_EMPTY:
		lx_failx(LX_NOTFOUND, "empty command name");
	case PATH_E_TOOLONG:
		lx_failx(LX_NOTFOUND, "command name too long");
	default:
		lx_failx(LX_NOTFOUND, "command not found in %s",
		    LAUNCHER_PATH);
	}
}

int
main(int argc, char *argv[])
{
	static struct fixedenv	 fe;
	static char		 path[PATH_MAX];
	char			*dec[START_MAX_ARGS + 1];

	/* fd 2 is the directory's socket until take_directory(). */
	lx_setfd(STDOUT_FILENO);
	check_stdio();
	take_directory();
	take_terminal();
	enter_landlock();
	decode_args(argc, argv, dec);
	build_env(&fe);
	find_command(dec[0], path, sizeof(path));
	if (sig_reset() == -1)
		lx_fail(LX_EXEC, "sigprocmask");
	/* systemd passes nothing else today; the command gets fd 0-2. */
	if (close_range(3, ~0U, 0) == -1)
		lx_fail(LX_FD, "close_range");
	enter_filter();

	execve(path, dec, fe.vec);
	lx_fail(LX_EXEC, "execve");
}
