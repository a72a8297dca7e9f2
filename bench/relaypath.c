/*
 * relaypath.c: opty-relaypath, the relay's hot path outside its sandbox,
 * for valgrind --tool=callgrind (never installed; trusts its command
 * line).  The real relay is exec'd by the root parent inside a seccomp
 * filter, chrooted, with descriptors it checks at start; valgrind cannot
 * run there.  This harness links the relay's own relaying code
 * (relay/outbuf.c, relay/intake.c, proto/framerd.c, proto/frame.c) and
 * moves MiB through it with the same calls the relay makes per wake-up:
 *
 *	opty-relaypath out MIB	stream -> outbuf (recv into the payload
 *				area) -> one send per output frame
 *	opty-relaypath in MIB	client input frames -> recvmsg into a
 *				4 KiB raw buffer -> intake_feed -> send
 *				the held payload to the stream
 *	opty-relaypath gen MIB	(internal) writes a start frame and MIB of
 *				full input frames to stdout
 *
 * The producer and the consumer are exec'd programs (head, cat, or this
 * tool in gen mode), so with callgrind's default --trace-children=no
 * only the relaying process is counted.  Left out, on purpose: libevent
 * dispatch (one epoll_wait per wake-up) and the kernel's copies, which
 * callgrind does not see.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "proto/frame.h"
#include "proto/log.h"
#include "relay/intake.h"
#include "relay/outbuf.h"

#define RAW_SIZE	4096		/* RELAY_RAW_SIZE in relay/relay.h */

static struct outbuf	ob;
static struct intake	in;
static uint8_t		raw[RAW_SIZE];

/* Runs argv with stdin and stdout as given; returns its pid. */
static pid_t
spawn(int fd0, int fd1, char *const argv[])
{
	pid_t	pid;

	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		if (dup2(fd0, 0) == -1 || dup2(fd1, 1) == -1)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static void
pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		fatal("socketpair");
}

static void
send_all(int fd, const uint8_t *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		if ((n = send(fd, p, len, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("send");
		}
		p += n;
		len -= (size_t)n;
	}
}

/* conn_flush(): send what the outbuf holds, consume what went. */
static uint64_t
relay_out(int sfd, int cfd)
{
	const uint8_t	*q;
	uint8_t		*p;
	uint64_t	 total = 0;
	size_t		 room, len;
	ssize_t		 n;

	for (;;) {
		if ((p = outbuf_payload(&ob, &room)) == NULL)
			fatalx("outbuf busy");
		if ((n = recv(sfd, p, room, 0)) == -1) {
			if (errno == EINTR)
				continue;
			fatal("recv");
		}
		if (n == 0)
			return total;
		if (outbuf_commit(&ob, FRAME_OUTPUT, (size_t)n) == -1)
			fatalx("outbuf_commit");
		total += (uint64_t)n;
		while (!outbuf_empty(&ob)) {
			q = outbuf_pending(&ob, &len);
			if ((n = send(cfd, q, len, MSG_NOSIGNAL)) == -1) {
				if (errno == EINTR)
					continue;
				fatal("send");
			}
			outbuf_consume(&ob, (size_t)n);
		}
	}
}

/* client_read(): recvmsg with room for descriptors, like the relay. */
static ssize_t
raw_read(int cfd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(4 * sizeof(int))];
	}		 cm;
	struct msghdr	 mh;
	struct iovec	 iov = { raw, sizeof(raw) };
	ssize_t		 n;

	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof(cm.buf);
	do {
		n = recvmsg(cfd, &mh, MSG_CMSG_CLOEXEC);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		fatal("recvmsg");
	if (mh.msg_flags & MSG_CTRUNC)
		fatalx("MSG_CTRUNC");
	return n;
}

/* pump_input() and its write to the master without the event loop. */
static uint64_t
relay_in(int cfd, int sfd)
{
	const uint8_t	*p;
	uint64_t	 total = 0;
	uint16_t	 code;
	size_t		 off, used, len;
	ssize_t		 n;
	int		 ev, dirfd;

	/* The start frame's descriptor, as if it had come with it. */
	if ((dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("open /");
	if (intake_fds(&in, &dirfd, 1, &code) != INTAKE_MORE)
		fatalx("intake_fds: %u", code);
	while ((n = raw_read(cfd)) > 0) {
		for (off = 0; off < (size_t)n; off += used) {
			ev = intake_feed(&in, raw + off, (size_t)n - off,
			    &used, &code);
			if (ev == INTAKE_ERROR)
				fatalx("intake: error %u", code);
			if (ev == INTAKE_STARTED) {
				close(intake_take_dirfd(&in));
				intake_done(&in);
			} else if (ev == INTAKE_DATA) {
				p = intake_data(&in, &len);
				send_all(sfd, p, len);
				total += len;
				intake_done(&in);
			}
		}
	}
	return total;
}

static void
gen(uint64_t mib)
{
	static uint8_t		 frame[FRAME_HDR_LEN + FRAME_MAX_INPUT];
	static const uint8_t	 arg0[] = "/bin/cat";
	struct start_req	 sr;
	uint64_t		 i, frames = mib * 1048576 / FRAME_MAX_INPUT;
	int			 n;

	memset(&sr, 0, sizeof(sr));
	sr.argc = 1;
	sr.argv[0] = arg0;
	sr.arglen[0] = sizeof(arg0) - 1;
	if ((n = start_encode(&sr, frame + FRAME_HDR_LEN,
	    sizeof(frame) - FRAME_HDR_LEN)) < 0)
		fatalx("start_encode");
	frame_hdr_encode(frame, FRAME_START, (uint32_t)n);
	send_all(1, frame, FRAME_HDR_LEN + (size_t)n);
	memset(frame, 'a', sizeof(frame));
	frame_hdr_encode(frame, FRAME_INPUT, FRAME_MAX_INPUT);
	for (i = 0; i < frames; i++)
		send_all(1, frame, sizeof(frame));
}

int
main(int argc, char *argv[])
{
	char		 count[32], *self;
	char		*src[5], *dst[] = { "/bin/cat", NULL };
	uint64_t	 mib, total, t0, t1;
	int		 a[2], c[2], null, status;

	log_init("opty-relaypath", 0);
	if (argc != 3)
		fatalx("usage: opty-relaypath out|in|gen MIB");
	mib = bench_num("MIB", argv[2]);
	if (strcmp(argv[1], "gen") == 0) {
		gen(mib);
		return 0;
	}
	if ((null = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1)
		fatal("/dev/null");
	outbuf_init(&ob);
	intake_init(&in);
	pair(a);	/* producer side */
	pair(c);	/* consumer side */
	if (strcmp(argv[1], "out") == 0) {
		snprintf(count, sizeof(count), "%llu",
		    (unsigned long long)(mib * 1048576));
		src[0] = "/usr/bin/head";
		src[1] = "-c";
		src[2] = count;
		src[3] = "/dev/zero";
		src[4] = NULL;
	} else if (strcmp(argv[1], "in") == 0) {
		/* Not /proc/self/exe: under valgrind that is valgrind. */
		if ((self = realpath(argv[0], NULL)) == NULL)
			fatal("realpath %s", argv[0]);
		src[0] = self;
		src[1] = "gen";
		src[2] = argv[2];
		src[3] = NULL;
	} else
		fatalx("mode must be out, in or gen");
	spawn(null, a[1], src);
	spawn(c[1], null, dst);
	close(a[1]);
	close(c[1]);
	t0 = bench_now_us();
	total = argv[1][0] == 'o' ? relay_out(a[0], c[0]) :
	    relay_in(a[0], c[0]);
	t1 = bench_now_us();
	close(c[0]);
	while (wait(&status) > 0)
		;
	printf("relaypath %s bytes %llu us %llu\n", argv[1],
	    (unsigned long long)total, (unsigned long long)(t1 - t0));
	return 0;
}
