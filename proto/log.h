/*
 * log.h: logging for every opencode-pty process (any trust level).
 * Lines go to stderr with sd-daemon priority prefixes so journald keeps
 * the level, and each line carries the process tag given to log_init().
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_LOG_H
#define OPTY_LOG_H

#include <stdarg.h>

void	log_init(const char *tag, int verbose);
void	log_setexit(void (*)(void));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
/*
 * Lines any peer can cause (one per refused connection) go through a
 * limit: at most LOG_LIMIT_BURST per second per call site, the rest
 * counted and said in one line when the next second's first one comes.
 * A flood must not use up journald's rate limit for the unit and so
 * silence the lines that matter.
 */
#define LOG_LIMIT_BURST	10
struct log_limit {
	long long	 second;	/* CLOCK_MONOTONIC, whole seconds */
	unsigned int	 logged;	/* lines this second */
	unsigned long	 dropped;	/* lines not written since */
};
void	log_info_limited(struct log_limit *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
