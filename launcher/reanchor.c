/*
 * reanchor.c: the approved directory re-opened inside the session unit
 * (session user, the launcher's first step, before anything else runs).
 *
 * The directory descriptor that arrives on fd 2 (proto/dirsock.c) was
 * opened by the client in the host's mount namespace.  A cwd on it would
 * resolve "..", relative paths and /proc/self/cwd/... in the host's
 * mount tree, past every mount the unit puts over /run, D-Bus or Docker.
 * So the directory is opened again by its path from inside the unit, and
 * only a descriptor that reaches the same inode (st_dev, st_ino) is
 * accepted: a directory the unit cannot reach by its path is refused,
 * never used from outside.  The path comes from the kernel
 * (/proc/self/fd/N: the dentry's current path, so a rename before start
 * is followed), and is resolved without following any symbolic link: a
 * canonical path has none, so one found here means the tree changed
 * under us.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"

/* What /proc/self/fd/N appends to the path of a removed directory. */
#define RA_DELETED	" (deleted)"

/*
 * O_PATH: only search permission is needed, as for fchdir itself.  No
 * O_NOFOLLOW: RESOLVE_NO_SYMLINKS refuses a link in every component,
 * the last included, with ELOOP (with O_NOFOLLOW it would be ENOTDIR).
 */
static int
reanchor_open_resolve(const char *path)
{
	struct open_how	how;

	memset(&how, 0, sizeof(how));
	how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
	how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
}

/*
 * Without openat2 (before Linux 5.6, or filtered): the last component
 * is never followed, and is refused if it is a link.  Earlier links are
 * followed; the inode comparison still decides.
 */
static int
reanchor_open_nofollow(const char *path)
{
	struct stat	st;
	int		fd;

	if ((fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1) {
		close(fd);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
		return -1;
	}
	return fd;
}

static int
ra_refuse(struct reanchor *ra, int status, int err)
{
	ra->status = status;
	ra->err = err;
	return -1;
}

static int
reanchor_path(int fd, struct reanchor *ra)
{
	struct stat	st;
	char		link[64];
	ssize_t		n;

	ra->path[0] = '\0';
	ra->status = RA_OK;
	ra->err = 0;
	if (fstat(fd, &st) == -1)
		return ra_refuse(ra, RA_E_PATH, errno);
	if (!S_ISDIR(st.st_mode))
		return ra_refuse(ra, RA_E_NOTDIR, 0);
	(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, ra->path, sizeof(ra->path) - 1)) == -1)
		return ra_refuse(ra, RA_E_PATH, errno);
	if ((size_t)n >= sizeof(ra->path) - 1) {
		ra->path[0] = '\0';
		return ra_refuse(ra, RA_E_TOOLONG, 0);
	}
	ra->path[n] = '\0';
	/*
	 * Both kernel facts, so that a live directory named "x (deleted)",
	 * or one on a file system that reports no links, is not taken
	 * for a removed one: opening its path decides for them.
	 */
	if (st.st_nlink == 0 && (size_t)n > sizeof(RA_DELETED) - 1 &&
	    strcmp(ra->path + n - (sizeof(RA_DELETED) - 1), RA_DELETED) == 0)
		return ra_refuse(ra, RA_E_DELETED, 0);
	if (ra->path[0] != '/')
		return ra_refuse(ra, RA_E_RELATIVE, 0);
	return 0;
}

static int
reanchor_at(int fd, struct reanchor *ra)
{
	struct stat	old, cur;
	int		nfd;

	ra->status = RA_OK;
	ra->err = 0;
	if (fstat(fd, &old) == -1)
		return ra_refuse(ra, RA_E_PATH, errno);
	if ((nfd = reanchor_open_resolve(ra->path)) == -1 &&
	    (errno == ENOSYS || errno == EPERM))
		nfd = reanchor_open_nofollow(ra->path);
	if (nfd == -1) {
		if (errno == ELOOP)
			return ra_refuse(ra, RA_E_SYMLINK, 0);
		if (errno == ENOTDIR)
			return ra_refuse(ra, RA_E_OTHER, 0);
		return ra_refuse(ra, RA_E_OPEN, errno);
	}
	if (fstat(nfd, &cur) == -1) {
		ra_refuse(ra, RA_E_OPEN, errno);
		close(nfd);
		return -1;
	}
	if (!S_ISDIR(cur.st_mode) || cur.st_dev != old.st_dev ||
	    cur.st_ino != old.st_ino) {
		close(nfd);
		return ra_refuse(ra, RA_E_OTHER, 0);
	}
	return nfd;
}

int
reanchor(int fd, struct reanchor *ra)
{
	if (reanchor_path(fd, ra) == -1)
		return -1;
	return reanchor_at(fd, ra);
}

static const char *
reanchor_strerror(int status)
{
	switch (status) {
	case RA_OK:
		return "no error";
	case RA_E_NOTDIR:
		return "is not a directory";
	case RA_E_PATH:
		return "has no readable path";
	case RA_E_TOOLONG:
		return "has a path longer than PATH_MAX";
	case RA_E_RELATIVE:
		return "has no absolute path (not in any mount tree)";
	case RA_E_DELETED:
		return "was deleted";
	case RA_E_SYMLINK:
		return "has a symbolic link in its path inside the unit";
	case RA_E_OPEN:
		return "is not reachable by its path inside the unit";
	case RA_E_OTHER:
		return "is another directory by its path inside the unit";
	}
	return "unknown re-anchoring error";
}

/*
 * One line for the client: the path (the client's own bytes, control
 * characters shown as '?'), why it was refused, and the system error.
 */
void
reanchor_reason(const struct reanchor *ra, char *buf, size_t len)
{
	char	*p;
	int	 n;

	if (len == 0)
		return;
	if (ra->path[0] != '\0')
		n = snprintf(buf, len, "the directory '%s' %s", ra->path,
		    reanchor_strerror(ra->status));
	else
		n = snprintf(buf, len, "the directory %s",
		    reanchor_strerror(ra->status));
	if (n >= 0 && (size_t)n < len && ra->err != 0)
		(void)snprintf(buf + n, len - (size_t)n, ": %s",
		    strerror(ra->err));
	for (p = buf; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
}
