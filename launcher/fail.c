/*
 * fail.c: the launcher's only way to give up (session user).  One line,
 * "opencode-pty-launcher: <reason>", on the terminal, then a status that
 * names the failure class.  Until fd 2 has been replaced that line goes
 * to fd 1: fd 2 is then the socket that carries the approved directory,
 * which nobody reads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"

static int	lx_errfd = STDERR_FILENO;

void
lx_setfd(int fd)
{
	lx_errfd = fd;
}

static void __attribute__((noreturn, format(printf, 3, 0)))
lx_vfail(int status, int saved_errno, const char *fmt, va_list ap)
{
	char	msg[512], line[640];
	int	len;

	/* A truncated message is still worth writing. */
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	if (saved_errno != 0)
		len = snprintf(line, sizeof(line), "%s: %s: %s\n",
		    LAUNCHER_NAME, msg, strerror(saved_errno));
	else
		len = snprintf(line, sizeof(line), "%s: %s\n",
		    LAUNCHER_NAME, msg);
	if (len < 0)
		_exit(status);
	if ((size_t)len >= sizeof(line)) {
		/* Truncated: keep it one line. */
		len = sizeof(line) - 1;
		line[len - 1] = '\n';
	}
	/* The status still tells the class if this write fails. */
	if (write(lx_errfd, line, (size_t)len) != len)
		_exit(status);
	_exit(status);
}

void
lx_fail(int status, const char *fmt, ...)
{
	int	 saved_errno = errno;
	va_list	 ap;

	va_start(ap, fmt);
	lx_vfail(status, saved_errno, fmt, ap);
	/* cppcheck-suppress va_end_missing ; lx_vfail() never returns */
}

void
lx_failx(int status, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	lx_vfail(status, 0, fmt, ap);
	/* cppcheck-suppress va_end_missing ; lx_vfail() never returns */
}
