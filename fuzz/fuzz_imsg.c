/*
 * fuzz_imsg.c: libFuzzer harness of the root parent's first line of
 * defence, the message checks of proto/imsg.c and proto/msgtab.c and the
 * START_REQ decoder proto/msgstart.c, fed by a forged relay over a real
 * AF_UNIX SOCK_SEQPACKET socketpair.  Test code only.
 *
 * Input: up to 8 records, each a flags byte, a big-endian 16-bit length
 * L and then up to L packet bytes.  Flags: bits 0-1 the number of
 * descriptors (0, 1, 2; 3 is 0), bits 2 and 3 the kind of each (a
 * directory or /dev/null), bit 4 sends to a receiver with SO_PASSCRED
 * (so credentials ride along as a foreign control message), bit 5 makes
 * the packet 65536 bytes longer, zero-padded (to reach MSG_TRUNC).
 *
 * Each packet is sent, then received with imsg_recv(TO_PARENT).  The
 * result must be the one docs/IMSG.md prescribes, computed here from the
 * bytes and descriptors sent and a copy of the table in that document
 * (not from msgtab.c).  An accepted message must satisfy its table entry
 * exactly, carry the same bytes and, if required, the same file as sent,
 * close-on-exec.  A channel-wide type must name session 0.  An
 * accepted START_REQ goes through msg_start_decode(), whose accepted
 * arguments and window size must obey the limits, with the reserved
 * field 0, and re-encode with msg_start_encode() to the same bytes.  A
 * refused message must leave msg->fd at -1, exactly one packet is
 * consumed per receive, and the number of open descriptors is the same
 * after every input as before it: nothing leaks.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "proto/config.h"
#include "proto/frame.h"
#include "proto/imsg.h"

#define MAX_RECORDS	8
#define BIG_EXTRA	65536u
#define PKT_MAX		(BIG_EXTRA + 0xffffu)
#define RECV_MAX	(IMSG_HDR_LEN + 32 + 65536)	/* docs/IMSG.md */

#define F_NFDS		0x03
#define F_KIND1		0x04
#define F_KIND2		0x08
#define F_CREDS		0x10
#define F_BIG		0x20

/* The table of docs/IMSG.md, written out again as the oracle. */
static const struct want {
	uint32_t	type;
	enum imsg_dir	dir;
	uint32_t	minlen, maxlen;
	int		fd;
	int		wide;		/* channel-wide: session id 0 */
} doc[] = {
	{ IMSG_AUTH_REQ, TO_PARENT, 0, 0, 1, 0 },
	{ IMSG_AUTH_OK, TO_RELAY, 0, 0, 0, 0 },
	{ IMSG_AUTH_DENY, TO_RELAY, 4, 4, 0, 0 },
	{ IMSG_START_REQ, TO_PARENT, 34, 65568, 1, 0 },
	{ IMSG_START_OK, TO_RELAY, 0, 0, 1, 0 },
	{ IMSG_START_FAIL, TO_RELAY, 4, 4, 0, 0 },
	{ IMSG_EXIT, TO_RELAY, 72, 72, 0, 0 },
	{ IMSG_CLOSE_REQ, TO_PARENT, 16, 16, 0, 0 },
	{ IMSG_CLOSED, TO_RELAY, 0, 0, 0, 0 },
	{ IMSG_SIGNAL_REQ, TO_PARENT, 4, 4, 0, 0 },
	{ IMSG_SHUTDOWN, TO_RELAY, 0, 0, 0, 1 },
	{ IMSG_SHUTDOWN_DONE, TO_PARENT, 0, 0, 0, 1 },
};

struct pair {
	int	send;
	int	recv;
};

static struct pair	plain, creds;
static int		kinds[2] = { -1, -1 };	/* directory, /dev/null */
static struct stat	kindst[2];
static uint8_t		pkt[PKT_MAX];
static struct imsg	msg;
static uint8_t		reenc[sizeof(struct msg_start) + 65536];

static void
setup_pair(struct pair *p, int passcred)
{
	int	sv[2], on = 1;

	PROP(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, 0, sv) == 0);
	p->send = sv[0];
	p->recv = sv[1];
	if (passcred)
		PROP(setsockopt(p->recv, SOL_SOCKET, SO_PASSCRED, &on,
		    sizeof(on)) == 0);
}

static void
setup(void)
{
	if (kinds[0] != -1)
		return;
	setup_pair(&plain, 0);
	setup_pair(&creds, 1);
	PROP((kinds[0] = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0);
	PROP((kinds[1] = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0);
	PROP(fstat(kinds[0], &kindst[0]) == 0);
	PROP(fstat(kinds[1], &kindst[1]) == 0);
}

/* Open descriptors of this process, from /proc/self/fd. */
static int
count_fds(void)
{
	char			 buf[4096] __attribute__((aligned(8)));
	const struct dirent64	*de;
	long			 n, off;
	int			 dfd, count = 0;

	PROP((dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) >= 0);
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += de->d_reclen) {
			de = (const void *)(buf + off);
			if (de->d_name[0] != '.')
				count++;
		}
	}
	PROP(n == 0);
	close(dfd);
	return count - 1;	/* dfd itself */
}

static const struct want *
doc_lookup(uint32_t type)
{
	size_t	i;

	for (i = 0; i < sizeof(doc) / sizeof(doc[0]); i++)
		if (doc[i].type == type)
			return &doc[i];
	return NULL;
}

/* The result docs/IMSG.md prescribes, in its order of checks. */
static int
expected(const uint8_t *p, size_t len, int nfds, int withcreds)
{
	const struct want	*w;
	struct imsg_hdr		 h;

	if (len > RECV_MAX)
		return IMSG_E_TRUNC;
	if (withcreds)
		return IMSG_E_CMSG;
	if (len == 0 && nfds == 0)
		return 0;
	if (nfds > 1)
		return IMSG_E_NFDS;
	if (len < IMSG_HDR_LEN)
		return IMSG_E_SHORT;
	memcpy(&h, p, sizeof(h));
	if (h.len != len - IMSG_HDR_LEN)
		return IMSG_E_LENGTH;
	if ((w = doc_lookup(h.type)) == NULL)
		return IMSG_E_TYPE;
	if (w->dir != TO_PARENT)
		return IMSG_E_DIR;
	if (h.len < w->minlen || h.len > w->maxlen)
		return IMSG_E_SIZE;
	if (!w->fd && nfds > 0)
		return IMSG_E_FD_UNEXPECTED;
	if (w->fd && nfds == 0)
		return IMSG_E_FD_MISSING;
	if (h.sid >= OPTY_MAX_SLOTS)
		return IMSG_E_SID;
	if (w->wide && h.sid != 0)
		return IMSG_E_SID;
	return 1;
}

static void
send_packet(const struct pair *pr, const uint8_t *p, size_t len,
    const int *fds, int nfds)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(2 * sizeof(int))];
	}		 cbuf;
	struct iovec	 iov;
	struct msghdr	 mh;
	struct cmsghdr	*cm;

	memset(&mh, 0, sizeof(mh));
	memset(&cbuf, 0, sizeof(cbuf));
	iov.iov_base = (void *)(uintptr_t)p;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (nfds > 0) {
		mh.msg_control = cbuf.buf;
		mh.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, (size_t)nfds * sizeof(int));
	}
	PROP(sendmsg(pr->send, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) ==
	    (ssize_t)len);
}

static void
check_start(void)
{
	struct start_args	 args;
	struct start_req	 req;
	const uint8_t		*p = msg.data + sizeof(struct msg_start);
	size_t			 slen;
	unsigned int		 i;
	int			 rv;

	memset(&args, 0, sizeof(args));
	rv = msg_start_decode(msg.data, msg.hdr.len, &args);
	if (rv != 0) {
		PROP((rv >= FRAME_E_RUNTIME && rv <= FRAME_E_TOOLARGE) ||
		    rv == FRAME_E_WINSIZE || rv == FRAME_E_RESERVED);
		return;
	}
	PROP(args.fixed.argc >= 1 && args.fixed.argc <= START_MAX_ARGS);
	PROP(args.fixed.runtime <= START_MAX_RUNTIME);
	PROP(args.fixed.rows >= 1 && args.fixed.rows <= 4096);
	PROP(args.fixed.cols >= 1 && args.fixed.cols <= 4096);
	PROP(args.fixed.zero == 0);
	memset(&req, 0, sizeof(req));
	req.dev = args.fixed.dev;
	req.ino = args.fixed.ino;
	req.runtime = args.fixed.runtime;
	req.argc = (uint16_t)args.fixed.argc;
	req.rows = args.fixed.rows;
	req.cols = args.fixed.cols;
	for (i = 0; i < args.fixed.argc; i++) {
		PROP((const uint8_t *)args.argv[i] == p);
		PROP((size_t)(msg.data + msg.hdr.len - p) >= 1);
		slen = strnlen(args.argv[i],
		    (size_t)(msg.data + msg.hdr.len - p));
		PROP(slen < (size_t)(msg.data + msg.hdr.len - p));
		PROP(slen <= START_MAX_ARGLEN);
		PROP(i > 0 || slen > 0);
		req.argv[i] = p;
		req.arglen[i] = (uint16_t)slen;
		p += slen + 1;
	}
	PROP(p == msg.data + msg.hdr.len);
	rv = msg_start_encode(&req, reenc, sizeof(reenc));
	PROP(rv >= 0 && (uint32_t)rv == msg.hdr.len);
	PROP(memcmp(reenc, msg.data, msg.hdr.len) == 0);
}

static void
check_accepted(const uint8_t *p, size_t len, int nfds, int kind)
{
	const struct want	*w;
	struct stat		 st;
	int			 fl;

	PROP((w = doc_lookup(msg.hdr.type)) != NULL);
	PROP(w->dir == TO_PARENT);
	PROP(msg.hdr.len >= w->minlen && msg.hdr.len <= w->maxlen);
	PROP(msg.hdr.sid < OPTY_MAX_SLOTS);
	PROP(!w->wide || msg.hdr.sid == 0);
	PROP(len == IMSG_HDR_LEN + (size_t)msg.hdr.len);
	PROP(memcmp(&msg.hdr, p, IMSG_HDR_LEN) == 0);
	PROP(msg.hdr.len == 0 ||
	    memcmp(msg.data, p + IMSG_HDR_LEN, msg.hdr.len) == 0);
	PROP((msg.fd >= 0) == (w->fd == 1));
	PROP(nfds == (w->fd == 1));
	if (msg.fd >= 0) {
		PROP((fl = fcntl(msg.fd, F_GETFD)) >= 0 && (fl & FD_CLOEXEC));
		PROP(fstat(msg.fd, &st) == 0);
		PROP(st.st_dev == kindst[kind].st_dev &&
		    st.st_ino == kindst[kind].st_ino);
	}
	if (msg.hdr.type == IMSG_START_REQ)
		check_start();
}

static void
one_packet(uint8_t flags, const uint8_t *src, size_t avail, size_t len)
{
	const struct pair	*pr = (flags & F_CREDS) ? &creds : &plain;
	int			 nfds = (flags & F_NFDS) % 3, fds[2], rv, want;
	char			 c;

	fds[0] = kinds[(flags & F_KIND1) != 0];
	fds[1] = kinds[(flags & F_KIND2) != 0];
	memset(pkt, 0, len);
	memcpy(pkt, src, avail < len ? avail : len);

	send_packet(pr, pkt, len, fds, nfds);
	memset(&msg, 0xa5, offsetof(struct imsg, data));
	rv = imsg_recv(pr->recv, TO_PARENT, &msg);
	want = expected(pkt, len, nfds, (flags & F_CREDS) != 0);
	if (rv != want)
		fprintf(stderr, "imsg_recv %d (%s), docs say %d (%s)\n", rv,
		    imsg_strerror(rv), want, imsg_strerror(want));
	PROP(rv == want);
	if (rv == 1) {
		check_accepted(pkt, len, nfds, (flags & F_KIND1) != 0);
		if (msg.fd >= 0)
			close(msg.fd);
	} else
		PROP(msg.fd == -1);

	/* Exactly one packet was consumed. */
	PROP(recv(pr->recv, &c, 1, MSG_PEEK | MSG_DONTWAIT) == -1 &&
	    errno == EAGAIN);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t	off = 0, len, avail;
	uint8_t	flags;
	int	before, nrec = 0;

	setup();
	before = count_fds();
	while (nrec++ < MAX_RECORDS && size - off >= 3) {
		flags = data[off];
		len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		avail = size - off < len ? size - off : len;
		if (flags & F_BIG)
			len += BIG_EXTRA;
		else
			len = avail;
		one_packet(flags, data + off, avail, len);
		off += avail;
	}
	PROP(count_fds() == before);
	return 0;
}
