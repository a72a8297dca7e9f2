/*
 * benchexec.c: opty-benchexec, times a command's output the way the
 * other benchmark clients time a session (never installed).  Runs as
 * root inside the disposable test systemd and trusts its command line;
 * used for the systemd-run reference paths.  The command's stdin is a
 * pipe that stays open and idle (systemd-run --pty forwards it), its
 * stdout a pipe read as fast as it fills, its stderr /dev/null.  -i
 * writes that many bytes to the stdin pipe once the first output byte
 * came, in 32 KiB writes, as opty-benchc sends its input frames.
 *
 *	opty-benchexec [-n runs] [-i inbytes] -- command [arg ...]
 *
 * Per run, microseconds from fork(): X idx first last exit bytes status
 * (exit: the command was reaped and its stdout reached EOF).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "proto/log.h"

static uint8_t	buf[256 * 1024];
static uint8_t	ibuf[32 * 1024];
static uint64_t	inbytes;

static void
child(int in, int out, char **argv)
{
	int	null;

	/* The parent ignores SIGPIPE for its input writes; not inherited. */
	if (signal(SIGPIPE, SIG_DFL) == SIG_ERR ||
	    (null = open("/dev/null", O_WRONLY)) == -1 ||
	    dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(null, 2) == -1)
		_exit(126);
	execv(argv[0], argv);
	_exit(127);
}

/* The write end of stdin is non-blocking: output is read meanwhile. */
static void
feed(int fd, uint64_t *left)
{
	ssize_t	n;

	n = write(fd, ibuf, *left < sizeof(ibuf) ? (size_t)*left :
	    sizeof(ibuf));
	if (n > 0)
		*left -= (uint64_t)n;
	else if (n == -1 && errno != EAGAIN && errno != EINTR)
		*left = 0;
}

static void
run_one(unsigned idx, char **argv)
{
	struct pollfd	 pfd[2];
	uint64_t	 t0, tfirst = 0, tlast = 0, now, left = inbytes;
	uint64_t	 bytes = 0;
	ssize_t		 n;
	pid_t		 pid;
	int		 in[2], out[2], status;

	if (pipe2(in, O_CLOEXEC) == -1 || pipe2(out, O_CLOEXEC) == -1)
		fatal("pipe2");
	t0 = bench_now_us();
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0)
		child(in[0], out[1], argv);
	close(in[0]);
	close(out[1]);
	if (fcntl(in[1], F_SETFL, O_NONBLOCK) == -1)
		fatal("fcntl");
	for (;;) {
		pfd[0].fd = out[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = left > 0 && tfirst ? in[1] : -1;
		pfd[1].events = POLLOUT;
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			fatal("poll");
		}
		if (pfd[1].revents & (POLLOUT | POLLERR))
			feed(in[1], &left);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(out[0], buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			fatal("read");
		if (n == 0)
			break;
		now = bench_now_us();
		if (tfirst == 0)
			tfirst = now;
		tlast = now;
		bytes += (uint64_t)n;
	}
	if (waitpid(pid, &status, 0) == -1)
		fatal("waitpid");
	now = bench_now_us();
	close(in[1]);
	close(out[0]);
	printf("X %u %llu %llu %llu %llu %d\n", idx,
	    (unsigned long long)(tfirst ? tfirst - t0 : 0),
	    (unsigned long long)(tlast ? tlast - t0 : 0),
	    (unsigned long long)(now - t0), (unsigned long long)bytes,
	    WIFEXITED(status) ? WEXITSTATUS(status) : 128);
}

int
main(int argc, char *argv[])
{
	uint64_t	runs = 1, i;
	int		ch;

	log_init("opty-benchexec", 0);
	while ((ch = getopt(argc, argv, "i:n:")) != -1) {
		switch (ch) {
		case 'i': inbytes = bench_num("-i", optarg); break;
		case 'n': runs = bench_num("-n", optarg); break;
		default:
			fprintf(stderr, "usage: opty-benchexec [-n runs] "
			    "[-i inbytes] -- command [arg ...]\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argv[0][0] != '/')
		fatalx("an absolute command path is needed");
	(void)setvbuf(stdout, NULL, _IOLBF, 0);
	memset(ibuf, 'a', sizeof(ibuf));
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		fatal("signal");
	for (i = 0; i < runs; i++)
		run_one((unsigned)i, argv);
	return 0;
}
