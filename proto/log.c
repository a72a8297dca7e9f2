/*
 * log.c: logging for every opencode-pty process (any trust level).
 * Writes one line per call to stderr with a single write(2); never
 * allocates, so it is safe in the relay's sandbox (only write(2) is
 * needed).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto/log.h"

static const char	*log_tag = "opencode-pty";
static int		 log_verbose;
static void		(*log_atexit)(void);

void
log_init(const char *tag, int verbose)
{
	log_tag = tag;
	log_verbose = verbose;
}

/* Called by fatal()/fatalx() before exiting, e.g. to stop every unit. */
void
log_setexit(void (*fn)(void))
{
	log_atexit = fn;
}

/*
 * One line, one write(2): stdio's dprintf() would first probe the
 * descriptor (newfstatat, lseek, ioctl), calls the relay's filter does
 * not allow (docs/SANDBOX.md), and could split a line in two writes.
 * The "<N>" prefix is the syslog level, which journald parses.
 */
static void
log_vline(int level, int saved_errno, const char *fmt, va_list ap)
{
	char	msg[1024], line[1280];
	int	n;
	ssize_t	w;

	/* A truncated message is still worth writing. */
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	n = snprintf(line, sizeof(line), "<%d>%s: %s%s%s\n", level, log_tag,
	    msg, saved_errno != 0 ? ": " : "",
	    saved_errno != 0 ? strerror(saved_errno) : "");
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line)) {
		n = sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	do
		w = write(STDERR_FILENO, line, (size_t)n);
	while (w == -1 && errno == EINTR);
}

void
log_line(int level, int with_errno, const char *fmt, ...)
{
	int	 saved_errno = errno;
	va_list	 ap;

	if (level == LOG_DEBUG && !log_verbose)
		return;
	va_start(ap, fmt);
	log_vline(level, with_errno ? saved_errno : 0, fmt, ap);
	va_end(ap);
	errno = saved_errno;
}

void
log_info_limited(struct log_limit *ll, const char *fmt, ...)
{
	struct timespec	 ts;
	va_list		 ap;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		ts.tv_sec = ll->second;
	if ((long long)ts.tv_sec != ll->second) {
		if (ll->dropped > 0)
			log_warnx("%lu similar lines not logged (more than "
			    "%d a second)", ll->dropped, LOG_LIMIT_BURST);
		ll->second = (long long)ts.tv_sec;
		ll->logged = 0;
		ll->dropped = 0;
	}
	if (ll->logged >= LOG_LIMIT_BURST) {
		ll->dropped++;
		return;
	}
	ll->logged++;
	va_start(ap, fmt);
	log_vline(LOG_INFO, 0, fmt, ap);
	va_end(ap);
}

void
log_fatal(int with_errno, const char *fmt, ...)
{
	int	 saved_errno = errno;
	void	(*fn)(void) = log_atexit;
	va_list	 ap;

	va_start(ap, fmt);
	log_vline(LOG_CRIT, with_errno ? saved_errno : 0, fmt, ap);
	va_end(ap);
	log_atexit = NULL;	/* a fatal() inside the hook must not loop */
	if (fn != NULL)
		fn();
	exit(1);
}
