/*
 * features.h: the root parent's start-up checks of the kernel, the host
 * and PID 1 (parent/features.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_FEATURES_H
#define OPTY_FEATURES_H

struct dbusd;

/* The operator's opt-in to Landlock below ABI 6 (docs/UNITS.md). */
#define OPTY_ALLOW_UNSCOPED_ENV	"OPENCODE_PTY_ALLOW_LANDLOCK_UNSCOPED"

/* Refuses to start (fatalx) without what sessions need; before the relay. */
void	features_check(void);
/* Logs the optional hardening in force; once the bus is open. */
void	features_report(struct dbusd *);
/* 1 if sessions run below Landlock ABI 6 by the operator's opt-in. */
int	features_unscoped(void);
/* What each session's Landlock domain holds (after features_check()). */
const char *features_landlock(void);

#endif
