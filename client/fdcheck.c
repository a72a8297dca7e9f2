/*
 * fdcheck.c: the descriptor checks opencode-pty-client makes before it
 * does anything else.  Runs as byk on descriptors inherited from the
 * Node service; none of them is trusted until checked here.  Nothing in
 * this file takes a path: descriptors are probed by number only.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "client/client.h"

static int
fail(char *err, size_t errlen, const char *what, int fd, int saved)
{
	if (saved != 0)
		snprintf(err, errlen, "descriptor %d %s: %s", fd, what,
		    strerrordesc_np(saved));
	else
		snprintf(err, errlen, "descriptor %d %s", fd, what);
	return -1;
}

/*
 * fcntl(F_GETFD) succeeds on every open descriptor, O_PATH ones too,
 * and touches no file.  One call per number, so only the low range.
 */
static int
scan_exact(int from, int end)
{
	int	fd;

	for (fd = from; fd < end; fd++)
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			return fd;
	return -1;
}

/*
 * poll() reports POLLNVAL for a number with no descriptor behind it
 * and checks a whole chunk per call; it cannot see O_PATH descriptors,
 * which is why scan_exact() covers the range where leaks happen.
 */
static int
scan_poll(int from, int end, int chunk, char *err, size_t errlen)
{
	struct pollfd	pfd[CLIENT_FD_POLL_CHUNK];
	int		base, n, i, rv;

	if (chunk < 1 || chunk > CLIENT_FD_POLL_CHUNK) {
		snprintf(err, errlen, "descriptor scan: bad poll chunk %d",
		    chunk);
		return -2;
	}
	for (base = from; base < end; base += n) {
		n = end - base < chunk ? end - base : chunk;
		for (i = 0; i < n; i++) {
			pfd[i].fd = base + i;
			pfd[i].events = 0;
			pfd[i].revents = 0;
		}
		do
			rv = poll(pfd, (nfds_t)n, 0);
		while (rv == -1 && errno == EINTR);
		if (rv == -1) {
			snprintf(err, errlen, "descriptor scan: poll: %s",
			    strerrordesc_np(errno));
			return -2;
		}
		for (i = 0; i < n; i++)
			if ((pfd[i].revents & POLLNVAL) == 0)
				return base + i;
	}
	return -1;
}

/* Lowest open descriptor >= from; -1 if none, -2 on error. */
static int
fd_first_open(int from, int exact_end, int poll_end, int chunk, char *err,
    size_t errlen)
{
	int	fd;

	if ((fd = scan_exact(from, exact_end)) != -1)
		return fd;
	return scan_poll(from > exact_end ? from : exact_end, poll_end, chunk,
	    err, errlen);
}

/*
 * Every descriptor number was below the soft RLIMIT_NOFILE of the
 * process that created it, and byk can only lower its hard limit, so
 * the hard limit bounds what can be inherited unless a parent lowered
 * it on purpose.  fs.nr_open (default 2^20) caps the scan's cost.
 */
static int
fd_scan_ends(int *poll_end, int *chunk, char *err, size_t errlen)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		snprintf(err, errlen, "getrlimit RLIMIT_NOFILE: %s",
		    strerrordesc_np(errno));
		return -1;
	}
	if (rl.rlim_cur < 1) {
		snprintf(err, errlen, "RLIMIT_NOFILE soft limit is 0");
		return -1;
	}
	*chunk = rl.rlim_cur < CLIENT_FD_POLL_CHUNK ?
	    (int)rl.rlim_cur : CLIENT_FD_POLL_CHUNK;
	*poll_end = rl.rlim_max < CLIENT_FD_POLL_END ?
	    (int)rl.rlim_max : CLIENT_FD_POLL_END;
	return 0;
}

static int
fd_check_socket(int fd, char *err, size_t errlen)
{
	struct sockaddr_storage	 ss;
	socklen_t		 sl;
	int			 v;

	sl = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &sl) == -1)
		return fail(err, errlen, "is not a socket", fd, errno);
	if (sl != sizeof(v) || v != AF_UNIX)
		return fail(err, errlen, "is not an AF_UNIX socket", fd, 0);
	sl = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &sl) == -1)
		return fail(err, errlen, "SO_TYPE", fd, errno);
	if (sl != sizeof(v) || v != SOCK_STREAM)
		return fail(err, errlen, "is not a SOCK_STREAM socket", fd, 0);
	sl = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == -1)
		return fail(err, errlen, "is not a connected socket", fd,
		    errno);
	return 0;
}

static int
fd_check_dir(int fd, struct client_dir *dir, char *err, size_t errlen)
{
	struct stat	st;

	if (fstat(fd, &st) == -1)
		return fail(err, errlen, "fstat", fd, errno);
	if (!S_ISDIR(st.st_mode))
		return fail(err, errlen, "is not a directory", fd, 0);
	dir->dev = (uint64_t)st.st_dev;
	dir->ino = (uint64_t)st.st_ino;
	return 0;
}

/* Neither descriptor may reach anything this process might exec. */
static int
set_cloexec(int fd, char *err, size_t errlen)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFD)) == -1)
		return fail(err, errlen, "is not open", fd, errno);
	if (fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1)
		return fail(err, errlen, "F_SETFD", fd, errno);
	return 0;
}

int
fd_check_all(struct client_dir *dir, char *err, size_t errlen)
{
	int	poll_end, chunk, fd;

	if (fd_scan_ends(&poll_end, &chunk, err, errlen) == -1)
		return -1;
	fd = fd_first_open(CLIENT_FD_FIRST_EXTRA, CLIENT_FD_EXACT_END,
	    poll_end, chunk, err, errlen);
	if (fd == -2)
		return -1;
	if (fd != -1) {
		(void)fail(err, errlen,
		    "is open: only descriptors 0-4 may be inherited", fd, 0);
		return -2;
	}
	if (set_cloexec(CLIENT_FD_SOCK, err, errlen) == -1 ||
	    set_cloexec(CLIENT_FD_DIR, err, errlen) == -1)
		return -1;
	if (fd_check_socket(CLIENT_FD_SOCK, err, errlen) == -1)
		return -1;
	return fd_check_dir(CLIENT_FD_DIR, dir, err, errlen);
}
