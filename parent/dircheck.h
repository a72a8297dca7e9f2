/*
 * dircheck.h: the parent's directory check (parent/dircheck.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef PARENT_DIRCHECK_H
#define PARENT_DIRCHECK_H

struct msg_start;

/* 0, ERR_NOTDIR or ERR_DIR_MISMATCH. */
int	dircheck_start(int dirfd, const struct msg_start *ms);

#endif
