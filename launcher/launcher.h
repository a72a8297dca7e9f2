/*
 * launcher.h: opencode-pty-launcher, the ExecStart of every session
 * unit.  It runs as the session user with the slave of the session's
 * PTY on fd 0/1 (allocated by the root parent) and a socket carrying
 * the approved directory on fd 2 (proto/cmsgfd.h); nothing it reads is
 * trusted more than the session user is.  It ends in the command's
 * execve: the command is the unit's main process.  See
 * docs/LAUNCHER.md.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_LAUNCHER_H
#define OPTY_LAUNCHER_H

#include <limits.h>
#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

#include "proto/frame.h"
#include "proto/landlock.h"

#define LAUNCHER_NAME		"opencode-pty-launcher"
#define LAUNCHER_PATH		"/usr/local/bin:/usr/bin:/bin"
#define LAUNCHER_LANG		"C.UTF-8"
#define LAUNCHER_TERM		"xterm-256color"

/*
 * Exit statuses, one per failure class (docs/LAUNCHER.md).  67 and 68
 * (the seeds' fd-3 self binding and script(1)) are retired: never
 * reused, so a status always names one class.
 */
enum launcher_exit {
	LX_USAGE = 64,		/* argument count or encoding */
	LX_CHDIR = 65,		/* the directory's socket, fchdir */
	LX_ENV = 66,		/* the fixed environment, memory */
	LX_USER = 69,		/* not running as OPTY_USER */
	LX_NOTFOUND = 70,	/* command not found in the fixed PATH */
	LX_EXEC = 71,		/* execve of the command, signal mask */
	LX_FD = 72,		/* stdio or descriptor hygiene */
	LX_REANCHOR = 73,	/* directory not the same by path in the unit */
	LX_LANDLOCK = 74,	/* no Landlock domain could be entered */
	LX_TTY = 75,		/* fd 0/1 not one terminal, or not ours */
	LX_SECCOMP = 76,	/* the system call filter not loaded */
};

/* command.c: the encoded argument vector (pure). */
struct argfault {
	int	 index;		/* failing argument; -1: the count */
	int	 status;	/* ARG_E_* when index >= 0 */
};
int	args_decode(int, char *const [], char *[], struct argfault *);

/* command.c: argv[0] lookup in a fixed PATH (pure but for stat). */
enum path_status {
	PATH_OK = 0,
	PATH_E_EMPTY = -1,	/* empty command name */
	PATH_E_TOOLONG = -2,	/* name or result does not fit */
	PATH_E_NOTFOUND = -3,	/* no executable regular file */
};
int	path_lookup(const char *, const char *, char *, size_t);

/* command.c: the session user and the command's fixed environment. */
#define ENV_COUNT	6
#define ENV_STRMAX	4200
struct fixedenv {
	char	*vec[ENV_COUNT + 1];
	char	 buf[ENV_COUNT][ENV_STRMAX];
};
int	env_build(struct fixedenv *, const char *, const char *);
int	user_match(const struct passwd *, uid_t, const char *);

/* tty.c: the session's terminal on fd 0/1. */
enum tty_status {
	TTY_OK = 0,
	TTY_E_IN = -1,		/* fd 0 is not a terminal */
	TTY_E_OUT = -2,		/* fd 1 is not a terminal */
	TTY_E_OTHER = -3,	/* fd 0 and fd 1 are two terminals */
	TTY_E_STAT = -4,	/* fstat failed (errno) */
	TTY_E_PTS = -5,		/* not /dev/pts/N of the unit (errno) */
};
int	tty_check(int, int);
const char *tty_strerror(int);
int	tty_acquire(int);
int	tty_reopen(void);

/*
 * landlock.c: sets no_new_privs and puts the caller in a new domain
 * built for ABI abi (at least OPTY_LANDLOCK_ABI_MIN, at most what the
 * kernel has).  0, or -1 with errno set.  The caller must be
 * single-threaded.  docs/LAUNCHER.md, "Landlock".
 */
int	landlock_enter(int);

/*
 * seccomp.c: loads the session's system call filter on the caller and,
 * through exec and fork, on everything it starts.  0, or a negative
 * errno from libseccomp.  docs/SANDBOX.md, "The session's system calls".
 */
int	session_filter_load(void);

/* reanchor.c: the passed directory re-opened by path in the unit. */
enum reanchor_status {
	RA_OK = 0,
	RA_E_NOTDIR = -1,	/* the descriptor is not a directory */
	RA_E_PATH = -2,		/* its path cannot be read (err) */
	RA_E_TOOLONG = -3,	/* its path does not fit PATH_MAX */
	RA_E_RELATIVE = -4,	/* its path is not absolute */
	RA_E_DELETED = -5,	/* the directory was removed */
	RA_E_SYMLINK = -6,	/* a component of the path is a symbolic link */
	RA_E_OPEN = -7,		/* the path cannot be opened here (err) */
	RA_E_OTHER = -8,	/* the path leads to something else here */
};
struct reanchor {
	int	 status;	/* RA_* */
	int	 err;		/* errno for RA_E_PATH and RA_E_OPEN, else 0 */
	char	 path[PATH_MAX];
};
int	reanchor(int, struct reanchor *);
void	reanchor_reason(const struct reanchor *, char *, size_t);

/* command.c: default dispositions, empty mask. */
int	sig_reset(void);

#endif
