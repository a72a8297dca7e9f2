/*
 * opty-flood.c: test only, never installed.  A FORGED peer that opens
 * connections to the supervisor socket as fast as it can, from WORKERS
 * processes, for SECONDS, until COUNT connections or until SIGUSR1 (sent
 * to every process of its unit: the test's sessions are over), and reads
 * each answer to its end.  The last line on stdout counts them:
 *
 *	opty-flood: connections=N answered=A busy=B codes=C1:n1,...
 *
 *	opty-flood SECONDS COUNT WORKERS
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "regress/framepeer.h"

#define FLOOD_CODES	32

static volatile sig_atomic_t	stop;

struct tally {
	unsigned long	conns;
	unsigned long	answered;
	unsigned long	codes[FLOOD_CODES];
};

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The error frame's code, 0 for none, -1 if no answer came. */
static int
flood_one(void)
{
	struct sockaddr_un	 sun;
	struct pollfd		 pfd;
	struct frame_hdr	 h;
	struct error_info	 er;
	uint8_t			 buf[FRAME_HDR_LEN + ERROR_FIXED_LEN +
				     ERROR_MAX_TEXT];
	size_t			 have = 0;
	ssize_t			 n;
	int			 fd, code = -1;

	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strncpy(sun.sun_path, OPTY_SOCKET_PATH, sizeof(sun.sun_path) - 1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		close(fd);
		return -2;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		/* A stop asked for ends no connection half-way. */
		if ((n = poll(&pfd, 1, 20000)) == -1 && errno == EINTR)
			continue;
		if (n != 1)
			break;
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n <= 0) {
			code = have > 0 ? code : 0;
			break;
		}
		have += (size_t)n;
		if (have >= FRAME_HDR_LEN &&
		    frame_hdr_decode(buf, have, &h) == 0 &&
		    h.type == FRAME_ERROR &&
		    have >= FRAME_HDR_LEN + h.len &&
		    error_decode(buf + FRAME_HDR_LEN, h.len, &er) == 0)
			code = er.code;
		if (have == sizeof(buf))
			break;
	}
	close(fd);
	return code;
}

static void
flood_worker(struct tally *t, double end, unsigned long count)
{
	int	code;

	while (!stop && now() < end &&
	    __atomic_load_n(&t->conns, __ATOMIC_RELAXED) < count) {
		code = flood_one();
		if (code == -2)
			continue;
		__atomic_add_fetch(&t->conns, 1, __ATOMIC_RELAXED);
		if (code < 0)
			continue;
		__atomic_add_fetch(&t->answered, 1, __ATOMIC_RELAXED);
		if (code < FLOOD_CODES)
			__atomic_add_fetch(&t->codes[code], 1,
			    __ATOMIC_RELAXED);
	}
	_exit(0);
}

static void
on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

static long
num(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0) {
		fprintf(stderr, "opty-flood: bad number %s\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	struct tally	*t;
	unsigned long	 count;
	double		 end;
	int		 workers, i, sep = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: opty-flood SECONDS COUNT WORKERS\n");
		return 2;
	}
	end = now() + (double)num(argv[1]);
	count = (unsigned long)num(argv[2]);
	workers = (int)num(argv[3]);
	if (workers < 1 || workers > 64) {
		fprintf(stderr, "opty-flood: 1 to 64 workers\n");
		return 2;
	}
	/* Inherited by every worker: each ends its connection, then stops. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) == -1) {
		perror("sigaction");
		return 1;
	}
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(t, 0, sizeof(*t));
	for (i = 0; i < workers; i++)
		if (fork() == 0)
			flood_worker(t, end, count);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	printf("opty-flood: connections=%lu answered=%lu busy=%lu codes=",
	    t->conns, t->answered, t->codes[ERR_BUSY]);
	for (i = 0; i < FLOOD_CODES; i++)
		if (t->codes[i] != 0)
			printf("%s%d:%lu", sep++ ? "," : "", i, t->codes[i]);
	printf("\n");
	return 0;
}
