/*
 * log.h: logging for every opencode-pty process (any trust level).
 * Lines go to stderr with a "<N>" syslog level prefix so journald keeps
 * the level, and each line carries the process tag given to log_init().
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_LOG_H
#define OPTY_LOG_H

#include <stdarg.h>
#include <syslog.h>

void	log_init(const char *tag, int verbose);
void	log_setexit(void (*)(void));
/*
 * A line at a syslog level, strerror(errno) appended if with_errno (and
 * errno left as it was); LOG_DEBUG only when verbose.  The warn and
 * fatal calls with an x append no errno; the fatal ones do not return.
 */
void	log_line(int, int, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	log_fatal(int, const char *, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
#define log_warn(...)	log_line(LOG_WARNING, 1, __VA_ARGS__)
#define log_warnx(...)	log_line(LOG_WARNING, 0, __VA_ARGS__)
#define log_info(...)	log_line(LOG_INFO, 0, __VA_ARGS__)
#define log_debug(...)	log_line(LOG_DEBUG, 0, __VA_ARGS__)
#define fatal(...)	log_fatal(1, __VA_ARGS__)
#define fatalx(...)	log_fatal(0, __VA_ARGS__)
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

#endif
