/*
 * opty-fdtable.c: test only, never installed.  Reports the descriptor
 * table this process was started with, for the Node inheritance probe
 * (regress/it/77-node-probe.sh, regress/node/probe.js).  One line per
 * open descriptor, before anything else is done:
 *
 *	fd N socket ino=INO peer=PATH|-
 *	fd N dir dev=MAJ:MIN ino=INO
 *	fd N chr|fifo|reg|other dev=MAJ:MIN ino=INO
 *
 * Run as opty-fdtable it prints the table on stdout and exits 0.  Run
 * under the name opencode-pty-client (bind-mounted over the fixed
 * helper's path inside the disposable systemd) it writes the table to
 * FDT_DIR/rec/helper.PID and then executes the real helper, kept at
 * FDT_REAL, with the same argv and descriptors: the real helper sees
 * exactly the table recorded.  Its own descriptors are close-on-exec.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FDT_DIR		"/run/opty-fdtable"
#define FDT_REAL	FDT_DIR "/real-client"
#define FDT_HELPER	"opencode-pty-client"
#define FDT_MAX		256

struct fdt_entry {
	int		 fd;
	struct stat	 st;
	char		 peer[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
};

static struct fdt_entry	table[FDT_MAX];
static int		ntable;

static void
fdt_one(int fd)
{
	struct fdt_entry	*e;
	struct sockaddr_un	 sun;
	socklen_t		 len = sizeof(sun);

	if (ntable >= FDT_MAX)
		return;
	e = &table[ntable++];
	e->fd = fd;
	if (fstat(fd, &e->st) == -1) {
		memset(&e->st, 0, sizeof(e->st));
		return;
	}
	snprintf(e->peer, sizeof(e->peer), "-");
	memset(&sun, 0, sizeof(sun));
	if (S_ISSOCK(e->st.st_mode) &&
	    getpeername(fd, (struct sockaddr *)&sun, &len) == 0 &&
	    sun.sun_family == AF_UNIX && sun.sun_path[0] != '\0')
		snprintf(e->peer, sizeof(e->peer), "%.*s",
		    (int)sizeof(sun.sun_path), sun.sun_path);
}

/* The scan's own descriptor is the only one it adds: left out. */
static int
fdt_scan(void)
{
	struct dirent	*de;
	DIR		*d;
	char		*end;
	long		 v;
	int		 self;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return -1;
	self = dirfd(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		errno = 0;
		v = strtol(de->d_name, &end, 10);
		if (errno != 0 || *end != '\0' || v < 0 || v == self)
			continue;
		fdt_one((int)v);
	}
	closedir(d);
	return 0;
}

static const char *
fdt_type(mode_t m)
{
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISDIR(m))
		return "dir";
	if (S_ISCHR(m))
		return "chr";
	if (S_ISFIFO(m))
		return "fifo";
	if (S_ISREG(m))
		return "reg";
	return "other";
}

static int
fdt_cmp(const void *a, const void *b)
{
	return ((const struct fdt_entry *)a)->fd -
	    ((const struct fdt_entry *)b)->fd;
}

static void
fdt_print(FILE *f)
{
	const struct fdt_entry	*e;
	int			 i;

	qsort(table, (size_t)ntable, sizeof(table[0]), fdt_cmp);
	for (i = 0; i < ntable; i++) {
		e = &table[i];
		if (S_ISSOCK(e->st.st_mode))
			fprintf(f, "fd %d socket ino=%llu peer=%s\n", e->fd,
			    (unsigned long long)e->st.st_ino, e->peer);
		else
			fprintf(f, "fd %d %s dev=%u:%u ino=%llu\n", e->fd,
			    fdt_type(e->st.st_mode), major(e->st.st_dev),
			    minor(e->st.st_dev),
			    (unsigned long long)e->st.st_ino);
	}
}

/* As the helper: record, then become the real helper. */
static int
fdt_wrap(char *argv[])
{
	char	 path[sizeof(FDT_DIR) + 48];
	FILE	*f;
	int	 fd;

	snprintf(path, sizeof(path), "%s/rec/helper.%ld", FDT_DIR, (long)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd == -1 || (f = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "opty-fdtable: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fdt_print(f);
	if (fclose(f) != 0) {
		fprintf(stderr, "opty-fdtable: %s: %s\n", path, strerror(errno));
		return 1;
	}
	execv(FDT_REAL, argv);
	fprintf(stderr, "opty-fdtable: exec %s: %s\n", FDT_REAL, strerror(errno));
	return 1;
}

int
main(int argc, char *argv[])
{
	const char	*base;

	(void)argc;
	if (fdt_scan() == -1) {
		fprintf(stderr, "opty-fdtable: /proc/self/fd: %s\n",
		    strerror(errno));
		return 1;
	}
	base = strrchr(argv[0], '/');
	base = base != NULL ? base + 1 : argv[0];
	if (strcmp(base, FDT_HELPER) == 0)
		return fdt_wrap(argv);
	fdt_print(stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
