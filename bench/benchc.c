/*
 * benchc.c: opty-benchc, the supervisor's benchmark client (never
 * installed).  Runs as the session user, as the MainPID of
 * opencode-v2.service (the only peer the supervisor admits), inside the
 * disposable test systemd; it trusts its command line.  It does the
 * client helper's job itself (one start frame with the directory
 * descriptor, built once), so what it times is the supervisor and not
 * a fork and exec per session, and it reads every connection from one
 * poll loop as fast as the relay writes.
 *
 *	opty-benchc [-n jobs] [-P par] [-L loads -l shellcmd] [-K] [-S ms]
 *	    [-T sec] [-i inbytes] [-s bytes_per_sec] [-d dir] -- command [arg ...]
 *
 * Load sessions (-L, running "/bin/sh -c shellcmd") start first; jobs
 * (the command, -n in all, -P at a time) start once every load has
 * produced output (and -S milliseconds more, so that the loads' own
 * start-up is over), and a job refused with ERR_BUSY is retried.  -K
 * closes the loads once the jobs are done; -T closes everything after
 * that many seconds of the measuring window.  -i sends that many input
 * bytes in full input frames once the job's first output byte came.
 *
 * One line per session on stdout, times in microseconds from connect():
 *	J idx first last exit input_done bytes code status result
 *	L idx first last end bytes window_bytes window_us
 *	J idx error CODE | J idx eof bytes
 * and last "# busy RETRIES wall_us WALL".
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "proto/config.h"
#include "proto/frame.h"
#include "proto/log.h"
#include "regress/framepeer.h"

#define MAX_CONNS	64
#define READ_SIZE	(256 * 1024)

struct bconn {
	int			 fd;
	int			 load;
	unsigned		 idx;
	uint64_t		 t0, tfirst, tlast, texit, tin;
	uint64_t		 bytes, wbytes0;
	uint64_t		 in_left;	/* input payload still to send */
	size_t			 in_off;	/* of the current input frame */
	size_t			 in_len;
	uint8_t			 ihdr[FRAME_HDR_LEN];
	uint64_t		 next_read;	/* slow reader */
	struct frame_reader	*fr;
};

struct bench {
	uint64_t	 jobs, par, loads, inbytes, slow, window_sec, settle_ms;
	int		 kill_loads;
	int		 dirfd;
	uint8_t		 jobframe[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD];
	size_t		 joblen;
	uint8_t		 loadframe[FRAME_HDR_LEN + FRAME_MAX_PAYLOAD];
	size_t		 loadlen;
	struct bconn	*c[MAX_CONNS];
	size_t		 nc;
	uint64_t	 started, done, busy, wstart;
	unsigned	 reload[MAX_CONNS];	/* loads refused busy */
	size_t		 nreload;
	int		 window;
};

static struct bench	b;
static uint8_t		rbuf[READ_SIZE];
static uint8_t		ipayload[FRAME_MAX_INPUT];

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: opty-benchc [-n jobs] [-P par] [-L loads "
	    "-l shellcmd] [-K] [-T sec] [-i inbytes] [-s bps] [-d dir] -- "
	    "command [arg ...]\n");
	exit(2);
}

static size_t
start_frame(int dirfd, int argc, char **argv, uint8_t *buf, size_t len)
{
	struct start_req	 sr;
	struct stat		 st;
	int			 i, n;

	if (argc < 1 || argc > START_MAX_ARGS)
		fatalx("1..%d arguments", START_MAX_ARGS);
	if (fstat(dirfd, &st) == -1)
		fatal("fstat");
	memset(&sr, 0, sizeof(sr));
	sr.dev = st.st_dev;
	sr.ino = st.st_ino;
	sr.argc = (uint16_t)argc;
	for (i = 0; i < argc; i++) {
		sr.argv[i] = (const uint8_t *)argv[i];
		sr.arglen[i] = (uint16_t)strlen(argv[i]);
	}
	if ((n = start_encode(&sr, buf + FRAME_HDR_LEN,
	    len - FRAME_HDR_LEN)) < 0)
		fatalx("start frame: %s", frame_strerror(n));
	frame_hdr_encode(buf, FRAME_START, (uint32_t)n);
	return FRAME_HDR_LEN + (size_t)n;
}

/* The start frame, with the directory in the same sendmsg(). */
static void
send_start(int fd, const uint8_t *buf, size_t len)
{
	struct iovec	 iov = { (void *)(uintptr_t)buf, len };
	struct msghdr	 msg;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	}		 cm;
	struct cmsghdr	*c;

	memset(&msg, 0, sizeof(msg));
	memset(&cm, 0, sizeof(cm));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &b.dirfd, sizeof(int));
	/*
	 * A refused connection (ERR_BUSY) may be closed before the start
	 * frame is sent: the error frame is read from the socket anyway.
	 */
	if (sendmsg(fd, &msg, MSG_NOSIGNAL) != (ssize_t)len &&
	    errno != EPIPE && errno != ECONNRESET)
		fatal("sendmsg start frame");
}

static void
conn_open(int load, unsigned idx)
{
	struct sockaddr_un	 sun;
	struct bconn		*c;

	if (b.nc == MAX_CONNS)
		fatalx("more than %d connections", MAX_CONNS);
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->fr = malloc(sizeof(*c->fr))) == NULL)
		fatal("calloc");
	frame_reader_init(c->fr);
	c->load = load;
	c->idx = idx;
	c->in_left = load ? 0 : b.inbytes;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, OPTY_SOCKET_PATH, sizeof(OPTY_SOCKET_PATH));
	c->t0 = bench_now_us();
	if ((c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fatal("socket");
	if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("connect");
	if (load)
		send_start(c->fd, b.loadframe, b.loadlen);
	else
		send_start(c->fd, b.jobframe, b.joblen);
	b.c[b.nc++] = c;
}

static uint64_t
rel(const struct bconn *c, uint64_t t)
{
	return t == 0 ? 0 : t - c->t0;
}

static void
conn_free(size_t i)
{
	struct bconn	*c = b.c[i];

	close(c->fd);
	free(c->fr);
	free(c);
	b.c[i] = b.c[--b.nc];
}

/* A load ends (-K, -T or its own end): what it did in the window. */
static void
load_report(const struct bconn *c, uint64_t now)
{
	uint64_t	wb = 0, wus = 0;

	if (b.window) {
		wb = c->bytes - c->wbytes0;
		wus = now - b.wstart;
	}
	printf("L %u %llu %llu %llu %llu %llu %llu\n", c->idx,
	    (unsigned long long)rel(c, c->tfirst),
	    (unsigned long long)rel(c, c->tlast),
	    (unsigned long long)rel(c, now), (unsigned long long)c->bytes,
	    (unsigned long long)wb, (unsigned long long)wus);
}

/* Returns 1 once the session is over (the caller frees it). */
static int
on_frame(struct bconn *c, uint64_t now)
{
	struct frame_reader	*fr = c->fr;
	struct exit_info	 ex;
	struct error_info	 er;

	switch (fr->hdr.type) {
	case FRAME_OUTPUT:
		if (fr->hdr.len > 0) {
			if (c->tfirst == 0)
				c->tfirst = now;
			c->tlast = now;
		}
		c->bytes += fr->hdr.len;
		return 0;
	case FRAME_EXIT:
		if (exit_decode(fr->payload, fr->hdr.len, &ex) != 0)
			fatalx("bad exit frame");
		c->texit = now;
		if (c->load)
			load_report(c, now);
		else
			printf("J %u %llu %llu %llu %llu %llu %u %u %s\n",
			    c->idx, (unsigned long long)rel(c, c->tfirst),
			    (unsigned long long)rel(c, c->tlast),
			    (unsigned long long)rel(c, now),
			    (unsigned long long)rel(c, c->tin),
			    (unsigned long long)c->bytes, ex.code, ex.status,
			    ex.result);
		return 1;
	case FRAME_ERROR:
		if (error_decode(fr->payload, fr->hdr.len, &er) != 0)
			fatalx("bad error frame");
		if (er.code == ERR_BUSY) {
			/* Slots of ended sessions free once units are gone. */
			b.busy++;
			if (c->load)
				b.reload[b.nreload++] = c->idx;
			else
				b.started--;	/* opened again later */
			usleep(1000);
			return 1;
		}
		printf("%c %u error %u\n", c->load ? 'L' : 'J', c->idx,
		    er.code);
		return 1;
	}
	fatalx("unexpected frame type %u", fr->hdr.type);
}

static int
conn_read(struct bconn *c, uint64_t now)
{
	size_t	 want = sizeof(rbuf), off;
	ssize_t	 n;
	long	 used;

	if (b.slow > 0) {
		if (now < c->next_read)
			return 0;
		c->next_read = now + 1000000;
		if (b.slow < want)
			want = b.slow;
	}
	n = recv(c->fd, rbuf, want, MSG_DONTWAIT);
	if (n == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		fatal("recv");
	}
	if (n == 0) {
		printf("%c %u eof %llu\n", c->load ? 'L' : 'J', c->idx,
		    (unsigned long long)c->bytes);
		return 1;
	}
	for (off = 0; off < (size_t)n; off += (size_t)used) {
		if ((used = frame_reader_feed(c->fr, rbuf + off, n - off)) < 0)
			fatalx("bad frame: %s", frame_strerror((int)used));
		if (!c->fr->ready)
			continue;
		if (on_frame(c, now))
			return 1;
		frame_reader_next(c->fr);
	}
	return 0;
}

/* Full input frames, as many as the socket takes. */
static void
conn_write(struct bconn *c, uint64_t now)
{
	struct iovec	 iov[2];
	struct msghdr	 msg;
	size_t		 plen;
	ssize_t		 n;

	while (c->in_left > 0) {
		if (c->in_off == 0) {
			plen = c->in_left < FRAME_MAX_INPUT ?
			    (size_t)c->in_left : FRAME_MAX_INPUT;
			frame_hdr_encode(c->ihdr, FRAME_INPUT, (uint32_t)plen);
			c->in_len = FRAME_HDR_LEN + plen;
		}
		memset(&msg, 0, sizeof(msg));
		if (c->in_off < FRAME_HDR_LEN) {
			iov[0].iov_base = c->ihdr + c->in_off;
			iov[0].iov_len = FRAME_HDR_LEN - c->in_off;
			iov[1].iov_base = ipayload;
			iov[1].iov_len = c->in_len - FRAME_HDR_LEN;
			msg.msg_iovlen = 2;
		} else {
			iov[0].iov_base = ipayload +
			    (c->in_off - FRAME_HDR_LEN);
			iov[0].iov_len = c->in_len - c->in_off;
			msg.msg_iovlen = 1;
		}
		msg.msg_iov = iov;
		n = sendmsg(c->fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n == -1) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			fatal("send input");
		}
		c->in_off += (size_t)n;
		if (c->in_off == c->in_len) {
			c->in_left -= c->in_len - FRAME_HDR_LEN;
			c->in_off = 0;
		}
	}
	c->tin = now;
}

static void
close_loads(uint64_t now)
{
	size_t	i = 0;

	while (i < b.nc) {
		if (b.c[i]->load) {
			load_report(b.c[i], now);
			conn_free(i);
		} else
			i++;
	}
}

/* The window opens once every load has produced output. */
static void
maybe_open_window(uint64_t now)
{
	size_t	i;

	if (b.window)
		return;
	for (i = 0; i < b.nc; i++)
		if (b.c[i]->load && b.c[i]->tfirst == 0)
			return;
	for (i = 0; i < b.nc; i++)
		b.c[i]->wbytes0 = b.c[i]->bytes;
	b.window = 1;
	b.wstart = now;
}

static size_t
jobs_live(void)
{
	size_t	i, n = 0;

	for (i = 0; i < b.nc; i++)
		n += !b.c[i]->load;
	return n;
}

static void
poll_round(void)
{
	struct pollfd	 pfd[MAX_CONNS];
	struct bconn	*c;
	uint64_t	 now;
	size_t		 i, n = b.nc;

	for (i = 0; i < n; i++) {
		c = b.c[i];
		pfd[i].fd = c->fd;
		pfd[i].events = POLLIN;
		if (c->in_left > 0 && c->tfirst != 0)
			pfd[i].events |= POLLOUT;
	}
	if (poll(pfd, n, b.slow > 0 ? 50 : 100) == -1) {
		if (errno == EINTR)
			return;
		fatal("poll");
	}
	now = bench_now_us();
	/* Backwards: conn_free() moves the last connection into slot i. */
	for (i = n; i-- > 0; ) {
		c = b.c[i];
		if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    conn_read(c, now)) {
			if (!c->load)
				b.done++;
			conn_free(i);
			continue;
		}
		if (c->in_left > 0 && c->tfirst != 0 &&
		    (pfd[i].revents & POLLOUT))
			conn_write(c, now);
	}
}

static void
run(void)
{
	uint64_t	 i, now, t0 = bench_now_us();

	for (i = 0; i < b.loads; i++)
		conn_open(1, (unsigned)i);
	for (;;) {
		now = bench_now_us();
		while (b.nreload > 0)
			conn_open(1, b.reload[--b.nreload]);
		maybe_open_window(now);
		while (b.window && now - b.wstart >= b.settle_ms * 1000 &&
		    b.started < b.jobs && jobs_live() < b.par)
			conn_open(0, (unsigned)b.started++);
		if (b.kill_loads && b.done >= b.jobs)
			close_loads(now);
		if (b.window_sec > 0 && b.window &&
		    now - b.wstart >= b.window_sec * 1000000) {
			close_loads(now);
			while (b.nc > 0) {
				printf("J %u cut %llu\n", b.c[0]->idx,
				    (unsigned long long)b.c[0]->bytes);
				conn_free(0);
			}
		}
		if (b.nc == 0 && b.started >= b.jobs)
			break;
		poll_round();
	}
	printf("# busy %llu wall_us %llu\n", (unsigned long long)b.busy,
	    (unsigned long long)(bench_now_us() - t0));
}

int
main(int argc, char *argv[])
{
	const char	*dir = ".", *loadcmd = NULL;
	char		*lav[4];
	int		 ch;

	log_init("opty-benchc", 0);
	b.jobs = 1;
	b.par = 1;
	while ((ch = getopt(argc, argv, "d:i:Kl:L:n:P:s:S:T:")) != -1) {
		switch (ch) {
		case 'd': dir = optarg; break;
		case 'i': b.inbytes = bench_num("-i", optarg); break;
		case 'K': b.kill_loads = 1; break;
		case 'l': loadcmd = optarg; break;
		case 'L': b.loads = bench_num("-L", optarg); break;
		case 'n': b.jobs = bench_num("-n", optarg); break;
		case 'P': b.par = bench_num("-P", optarg); break;
		case 's': b.slow = bench_num("-s", optarg); break;
		case 'S': b.settle_ms = bench_num("-S", optarg); break;
		case 'T': b.window_sec = bench_num("-T", optarg); break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((argc < 1 && b.jobs > 0) || (b.loads > 0 && loadcmd == NULL) ||
	    b.par < 1 || b.loads + b.par > MAX_CONNS)
		usage();
	(void)setvbuf(stdout, NULL, _IOLBF, 0);
	memset(ipayload, 'a', sizeof(ipayload));
	if ((b.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("%s", dir);
	if (argc > 0)
		b.joblen = start_frame(b.dirfd, argc, argv, b.jobframe,
		    sizeof(b.jobframe));
	if (loadcmd != NULL) {
		lav[0] = "/bin/sh";
		lav[1] = "-c";
		lav[2] = (char *)(uintptr_t)loadcmd;
		lav[3] = NULL;
		b.loadlen = start_frame(b.dirfd, 3, lav, b.loadframe,
		    sizeof(b.loadframe));
	}
	run();
	return 0;
}
