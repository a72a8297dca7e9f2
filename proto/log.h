/*
 * log.h: logging for every opencode-pty process (any trust level).
 * Lines go to stderr with sd-daemon priority prefixes so journald keeps
 * the level, and each line carries the process tag given to log_init().
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
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
