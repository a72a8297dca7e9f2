/*
 * listen.c: the run directory, the relay's empty root and the listening
 * socket (root parent).  Only root and the group of the session user
 * may connect; the relay gets the socket, the parent never accepts.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/log.h"
#include "parent/parent.h"

static void
rundir_own(const char *path, gid_t gid, mode_t mode)
{
	struct stat	 st;

	if (mkdir(path, mode) == -1 && errno != EEXIST)
		fatal("mkdir %s", path);
	if (lstat(path, &st) == -1)
		fatal("lstat %s", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0)
		fatalx("%s: not a root-owned directory", path);
	if (chown(path, 0, gid) == -1 || chmod(path, mode) == -1)
		fatal("chown/chmod %s", path);
}

/*
 * The relay's chroot must be empty: anything in it is an attack
 * (must_be_empty).  The devpts directory may hold mount points a
 * supervisor that died left behind: PID 1 unmounted them (BindsTo=) but
 * the run directory's removal stops at a mount point still there at
 * that moment; they are removed, and one still mounted stays (EBUSY).
 */
static void
rundir_sweep(const char *path, int must_be_empty)
{
	DIR		*d;
	struct dirent	*de;

	if ((d = opendir(path)) == NULL)
		fatal("opendir %s", path);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (must_be_empty)
			fatalx("%s is not empty (%s)", path, de->d_name);
		if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == -1 &&
		    errno != EBUSY)
			log_warn("%s/%s", path, de->d_name);
	}
	closedir(d);
}

void
parent_make_rundir(void)
{
	rundir_own(OPTY_RUNDIR, parent->user_gid, 0750);
	rundir_own(OPTY_EMPTY_DIR, 0, 0555);
	rundir_sweep(OPTY_EMPTY_DIR, 1);
	/* Sessions' devpts mount points: root's alone (parent/pts.c). */
	rundir_own(OPTY_PTS_DIR, 0, 0700);
	rundir_sweep(OPTY_PTS_DIR, 0);
}

int
parent_listen(void)
{
	struct sockaddr_un	 sun;
	mode_t			 old;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (sizeof(OPTY_SOCKET_PATH) > sizeof(sun.sun_path))
		fatalx("socket path too long");
	memcpy(sun.sun_path, OPTY_SOCKET_PATH, sizeof(OPTY_SOCKET_PATH));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1)
		fatal("socket");
	if (unlink(OPTY_SOCKET_PATH) == -1 && errno != ENOENT)
		fatal("unlink %s", OPTY_SOCKET_PATH);
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("bind %s", OPTY_SOCKET_PATH);
	umask(old);
	/* The directory is root:group 0750, so nobody else can swap it. */
	if (chown(OPTY_SOCKET_PATH, 0, parent->user_gid) == -1 ||
	    chmod(OPTY_SOCKET_PATH, 0660) == -1)
		fatal("chown/chmod %s", OPTY_SOCKET_PATH);
	if (listen(fd, 64) == -1)
		fatal("listen");
	return fd;
}
