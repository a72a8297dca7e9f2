/*
 * tty.c: the session's terminal (session user, before Landlock).  The
 * root parent allocated the PTY and passed its slave as fd 0 and fd 1,
 * opened O_NOCTTY, so it is nobody's controlling terminal yet.  The
 * launcher accepts only one terminal on both and makes it the
 * controlling terminal of the unit's session: the command then is the
 * terminal's foreground process group, so ^C, ^Z and the kernel's
 * SIGWINCH reach it, and /dev/tty opens for it.  The parent opened the
 * terminal in its own mount namespace; it is re-opened here by the name
 * the unit's namespace gives it, so that every path of it a command can
 * read (/proc/self/fd/0, ttyname(), /dev/stdin) exists in the unit.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "launcher/launcher.h"

int
tty_check(int in, int out)
{
	struct stat	si, so;

	if (!isatty(in))
		return TTY_E_IN;
	if (!isatty(out))
		return TTY_E_OUT;
	if (fstat(in, &si) == -1 || fstat(out, &so) == -1)
		return TTY_E_STAT;
	/* Two descriptors of one terminal share its device number. */
	if (!S_ISCHR(si.st_mode) || !S_ISCHR(so.st_mode) ||
	    si.st_rdev != so.st_rdev)
		return TTY_E_OTHER;
	return TTY_OK;
}

const char *
tty_strerror(int status)
{
	switch (status) {
	case TTY_OK:
		return "no error";
	case TTY_E_IN:
		return "stdin is not a terminal";
	case TTY_E_OUT:
		return "stdout is not a terminal";
	case TTY_E_OTHER:
		return "stdin and stdout are not the same terminal";
	case TTY_E_STAT:
		return "cannot stat the terminal";
	case TTY_E_PTS:
		return "the terminal is not this unit's /dev/pts/N";
	}
	return "unknown terminal error";
}

/*
 * systemd starts every service as the leader of a session of its own,
 * without a controlling terminal; setsid() then fails with EPERM, which
 * is fine only because we already lead our session.  TIOCSCTTY with 0
 * never steals a terminal that is another session's.  0, or -1 with
 * errno set.
 */
int
tty_acquire(int fd)
{
	if (setsid() == -1) {
		if (errno != EPERM)
			return -1;
		if (getsid(0) != getpid()) {
			errno = EPERM;
			return -1;
		}
	}
	return ioctl(fd, TIOCSCTTY, 0);
}

/* Unix98 pseudo-terminal slaves: one major, the index as the minor. */
#define PTS_MAJOR	136

/*
 * fd 0 (checked by tty_check) re-opened as /dev/pts/N and put on fds 0
 * and 1.  The name must lead to the very same terminal (device and
 * inode): a session's terminal is in the devpts instance the unit has
 * over its /dev/pts, and one that is not is refused.  TTY_OK, or
 * TTY_E_PTS / TTY_E_STAT with errno set.
 */
int
tty_reopen(void)
{
	struct stat	 st, sn;
	char		 path[32];
	int		 fd;

	if (fstat(STDIN_FILENO, &st) == -1)
		return TTY_E_STAT;
	if (major(st.st_rdev) != PTS_MAJOR) {
		errno = ENOTTY;
		return TTY_E_PTS;
	}
	(void)snprintf(path, sizeof(path), "/dev/pts/%u", minor(st.st_rdev));
	if ((fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)) ==
	    -1)
		return TTY_E_PTS;
	if (fstat(fd, &sn) == -1 || sn.st_dev != st.st_dev ||
	    sn.st_ino != st.st_ino) {
		close(fd);
		errno = EXDEV;
		return TTY_E_PTS;
	}
	/* dup2() gives fds 0 and 1 without close-on-exec. */
	if (dup2(fd, STDIN_FILENO) == -1 || dup2(fd, STDOUT_FILENO) == -1) {
		close(fd);
		return TTY_E_STAT;
	}
	close(fd);
	return TTY_OK;
}
