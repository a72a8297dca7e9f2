/*
 * pty.h: the session terminal made by the root parent (parent/pty.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_PARENT_PTY_H
#define OPTY_PARENT_PTY_H

#include <sys/types.h>

#include <stdint.h>

#define PTY_GROUP	"tty"

struct pty_spec {
	uint16_t	rows;
	uint16_t	cols;
	uid_t		uid;		/* the session user */
	gid_t		tty_gid;
	const char	*pts_dir;	/* the session's devpts instance */
};

/* The master (non-blocking); *peerp the terminal for the unit. */
int	pty_open(const struct pty_spec *, int *, const char **);
gid_t	pty_check(void);

#endif
