/*
 * dircheck.c: the root parent's check of a start request's directory
 * descriptor (trust level: root parent; the descriptor is the client's).
 * It must be a directory with the st_dev and st_ino the start frame
 * claims, and the check must not wait on the client's file system.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "proto/imsg.h"
#include "proto/log.h"
#include "parent/parent.h"

/*
 * The directory is the client's: it may sit on a FUSE file system its
 * user runs, or on a hung NFS mount, and this runs in the root event
 * loop.  statx() with AT_STATX_DONT_SYNC asks for the type and inode
 * number the kernel already holds, without a round trip to the file
 * system's server (SECURITY.md, "The directory check").  A NULL path
 * (Linux >= 6.11) is the descriptor itself, with no path walk at all;
 * an older kernel answers EFAULT and is asked with "", the same
 * descriptor through an empty path walk.
 */
int
dircheck_start(int dirfd, const struct msg_start *ms)
{
	const int	 fl = AT_EMPTY_PATH | AT_STATX_DONT_SYNC |
			    AT_NO_AUTOMOUNT;
	const unsigned	 mask = STATX_TYPE | STATX_INO;
	struct statx	 stx;

	memset(&stx, 0, sizeof(stx));
	/* glibc's statx() declares the path non-null: the raw call. */
	if (syscall(SYS_statx, dirfd, NULL, fl, mask, &stx) == -1 &&
	    (errno != EFAULT || statx(dirfd, "", fl, mask, &stx) == -1)) {
		log_warn("statx directory");
		return ERR_NOTDIR;
	}
	if ((stx.stx_mask & mask) != mask || !S_ISDIR(stx.stx_mode))
		return ERR_NOTDIR;
	/* st_dev as the client's fstat() encodes it (glibc's makedev). */
	if ((uint64_t)makedev(stx.stx_dev_major, stx.stx_dev_minor) !=
	    ms->dev || stx.stx_ino != ms->ino)
		return ERR_DIR_MISMATCH;
	return 0;
}
