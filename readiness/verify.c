/*
 * verify.c: file-level checks of the root readiness verifier.  Runs as
 * root under systemd.  Every file is reached from "/" one component at a
 * time without following symbolic links, through directories that only
 * root can write, so no other user can swap a file in between checks.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readiness/readiness.h"

#define HASH_CHUNK	65536

static int
close_keep_errno(int fd, int rc)
{
	int	saved = errno;

	close(fd);
	errno = saved;
	return rc;
}

/* A directory only root may change: owned by 0, no group/other write. */
static int
check_dir(int fd)
{
	struct stat	st;

	if (fstat(fd, &st) == -1)
		return RD_E_OPEN;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return RD_E_DIR;
	return RD_OK;
}

static int
open_errno(int dir)
{
	if (errno == ENOENT)
		return RD_E_ABSENT;
	if (errno == ELOOP || errno == ENOTDIR)
		return dir ? RD_E_DIR : RD_E_SYMLINK;
	return RD_E_OPEN;
}

/*
 * Opens an absolute path read-only.  Each directory on the way is opened
 * with O_NOFOLLOW and checked by check_dir(); the file itself is opened
 * with O_NOFOLLOW (a symbolic link is ELOOP) and O_NONBLOCK (a FIFO
 * cannot stall the boot).  Returns the descriptor in *fdp.
 */
static int
open_rooted(const char *path, int *fdp)
{
	char	 buf[PATH_MAX], *comp, *slash;
	int	 dfd, fd, rc;

	if (path[0] != '/' || strlen(path) >= sizeof(buf))
		return RD_E_OPEN;
	memcpy(buf, path + 1, strlen(path));
	if ((dfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return RD_E_OPEN;
	if ((rc = check_dir(dfd)) != RD_OK)
		return close_keep_errno(dfd, rc);
	for (comp = buf; (slash = strchr(comp, '/')) != NULL;
	    comp = slash + 1) {
		*slash = '\0';
		if (*comp == '\0' || strcmp(comp, ".") == 0 ||
		    strcmp(comp, "..") == 0)
			return close_keep_errno(dfd, RD_E_DIR);
		fd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd == -1)
			return close_keep_errno(dfd, open_errno(1));
		close(dfd);
		dfd = fd;
		if ((rc = check_dir(dfd)) != RD_OK)
			return close_keep_errno(dfd, rc);
	}
	fd = openat(dfd, comp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	if (fd == -1)
		return close_keep_errno(dfd, open_errno(0));
	close(dfd);
	*fdp = fd;
	return RD_OK;
}

static ssize_t
read_retry(int fd, void *buf, size_t len)
{
	ssize_t	n;

	do
		n = read(fd, buf, len);
	while (n == -1 && errno == EINTR);
	return n;
}

/* Reads until EOF or a full buffer; *lenp is the count read. */
static int
read_all(int fd, uint8_t *buf, size_t bufsz, size_t *lenp)
{
	size_t	have = 0;
	ssize_t	n;

	while (have < bufsz) {
		if ((n = read_retry(fd, buf + have, bufsz - have)) == -1)
			return RD_E_READ;
		if (n == 0)
			break;
		have += (size_t)n;
	}
	*lenp = have;
	return RD_OK;
}

static int
check_marker_stat(const struct stat *st, size_t bufsz)
{
	if (!S_ISREG(st->st_mode))
		return RD_E_NOTREG;
	if (st->st_uid != 0)
		return RD_E_OWNER;
	if ((st->st_mode & 07777) != 0644)
		return RD_E_MODE;
	if (st->st_nlink != 1)
		return RD_E_NLINK;
	if (st->st_size == 0)
		return RD_E_EMPTY;
	if (st->st_size > MARKER_MAX_LEN || (size_t)st->st_size >= bufsz)
		return RD_E_SIZE;
	return RD_OK;
}

/*
 * Reads the marker at path into buf.  bufsz must exceed MARKER_MAX_LEN
 * so that a file growing after fstat() is seen as RD_E_CHANGED.
 */
int
readiness_read_marker(const char *path, uint8_t *buf, size_t bufsz,
    size_t *lenp)
{
	struct stat	st;
	int		fd, rc;

	*lenp = 0;
	if ((rc = open_rooted(path, &fd)) != RD_OK)
		return rc;
	if (fstat(fd, &st) == -1)
		return close_keep_errno(fd, RD_E_OPEN);
	if ((rc = check_marker_stat(&st, bufsz)) != RD_OK)
		return close_keep_errno(fd, rc);
	if ((rc = read_all(fd, buf, bufsz, lenp)) != RD_OK)
		return close_keep_errno(fd, rc);
	close(fd);
	if (*lenp != (size_t)st.st_size)
		return RD_E_CHANGED;
	return RD_OK;
}

/*
 * SHA-256 of an installed file (a binary, or a unit file) that only root
 * can have written.
 */
int
readiness_hash_file(const char *path, uint8_t digest[SHA256_DIGEST_LEN])
{
	static uint8_t		chunk[HASH_CHUNK];
	struct sha256_ctx	ctx;
	struct stat		st;
	uint64_t		total = 0;
	ssize_t			n;
	int			fd, rc;

	memset(digest, 0, SHA256_DIGEST_LEN);
	if ((rc = open_rooted(path, &fd)) != RD_OK)
		return rc;
	if (fstat(fd, &st) == -1)
		return close_keep_errno(fd, RD_E_OPEN);
	if (!S_ISREG(st.st_mode))
		return close_keep_errno(fd, RD_E_NOTREG);
	if (st.st_uid != 0)
		return close_keep_errno(fd, RD_E_OWNER);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return close_keep_errno(fd, RD_E_WRITABLE);
	if (st.st_size == 0)
		return close_keep_errno(fd, RD_E_EMPTY);
	sha256_init(&ctx);
	while ((n = read_retry(fd, chunk, sizeof(chunk))) > 0) {
		sha256_update(&ctx, chunk, (size_t)n);
		total += (uint64_t)n;
	}
	if (n == -1) {
		sha256_final(&ctx, digest);
		memset(digest, 0, SHA256_DIGEST_LEN);
		return close_keep_errno(fd, RD_E_READ);
	}
	close(fd);
	sha256_final(&ctx, digest);
	if (total != (uint64_t)st.st_size) {
		memset(digest, 0, SHA256_DIGEST_LEN);
		return RD_E_CHANGED;
	}
	return RD_OK;
}

const char *
readiness_strerror(int rc)
{
	switch (rc) {
	case RD_OK:
		return "ok";
	case RD_E_ABSENT:
		return "no such file";
	case RD_E_SYMLINK:
		return "is a symbolic link";
	case RD_E_OPEN:
		return "cannot open";
	case RD_E_DIR:
		return "a parent directory is not root-owned, is writable "
		    "by group or other, or is a symbolic link";
	case RD_E_NOTREG:
		return "not a regular file";
	case RD_E_OWNER:
		return "not owned by root";
	case RD_E_MODE:
		return "mode is not exactly 0644";
	case RD_E_WRITABLE:
		return "writable by group or other";
	case RD_E_NLINK:
		return "has more than one hard link";
	case RD_E_EMPTY:
		return "is empty";
	case RD_E_SIZE:
		return "is too large";
	case RD_E_READ:
		return "read error";
	case RD_E_CHANGED:
		return "changed while being read";
	case RD_E_STALE:
		return "SHA-256 differs from its marker record (stale marker)";
	case RD_E_CONF:
		return "differs from the copy this verifier was built with "
		    "(reinstall it with make install)";
	default:
		return marker_strerror(rc);
	}
}
